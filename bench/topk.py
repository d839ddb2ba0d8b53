"""Top-K micro-benchmark: values and indices of the K largest of each row of an
fp32 M x N matrix, sorted descending like torch.topk.

Providers:
  tle           TLE top-k, by row length: N > 1024: radix select
                (bench/_topk_kernels.py, one CTA per row, shared-memory
                histograms and candidate buffer), the K selected kept in shared
                memory and sorted in the same kernel (tl.sort of packed
                (key, ~index)); 128 < N <= 1024: the row held in registers,
                the K-th largest key found by a radix select over 8-bit
                digits with one shared-memory histogram a round (stopping
                once the threshold bin is taken whole), the K selected
                placed by one tle.cumsum and sorted (tle_tile_topk); N <= 128:
                the register bitonic kernel of the `triton` provider
                (compiled through TLE's stages)
  triton        plain Triton tl.topk (bitonic) on packed (key, ~index) values,
                streaming the row in chunks and merging with the running top-K
  triton-radix  plain Triton radix select (tl.histogram, the row re-read each
                round), then a CTA barrier and the same in-kernel sort
  torch         torch.topk(x, K)

Check: values equal torch.topk's values exactly (sorted descending); indices
in range, distinct per row, and x[row, index] == value (tie-tolerant: which of
equal values is chosen may differ from torch). With --check the inputs default
to --dist mixed (tie-heavy, constant, +-0.0 and negative rows besides randn;
see bench/topk_selector.py). NaN is not supported.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _harness  # noqa: E402
import _topk_kernels as KK  # noqa: E402
from topk_selector import make_scores  # noqa: E402

DEFAULT_SHAPES = [(64, 128, 8), (64, 1024, 32), (64, 8192, 128), (128, 32768, 256)]
CHECK_SHAPES = ["64x128x8", "64x1024x32", "5x333x16", "12x8192x128", "6x32768x256", "6x3000x64"]


def _pow2(n):
    return 1 << (max(1, n) - 1).bit_length()


def tle_config(n, k):
    """Launch configuration of the TLE radix kernel for rows of n (N > 1024;
    see tle_provider for shorter rows)."""
    return dict(num_warps=16, BLOCK=4096, CBLOCK=1024, CAP=4096, BITS1=12, BITS2=12, RC=8192)


# Rows up to REGISTER_TOPK_MAX_N go through one bitonic network in registers
# (single_tile_topk): at 64x128x8 the call is launch-bound (an empty kernel on
# the grid 3.78 us); the network without the streaming merge 5.41 us against
# the `triton` provider's 5.98, tle_tile_topk 6.2-7.1 at 1-8 warps (H100,
# nine rounds, 2026-11-27). Longer rows up to TILE_TOPK_MAX_N stay in
# registers too, but the K-th largest key is found by a radix select over
# shared-memory histograms (tle_tile_topk): 0.0068-0.0074 against 0.0104-0.0110
# ms at 64x1024x32, 0.0068-0.0071 against 0.0079 at 64x512x16. Above that, the
# radix select with a candidate buffer (tle_radix_select); the multi-round
# version cost more than the network below 1024 (its 2048-4096-bin histograms;
# 0.0118 vs 0.0104 ms at 64x1024x32, 2026-11-25).
REGISTER_TOPK_MAX_N = 128
TILE_TOPK_MAX_N = 1024


def radix_config(n, k):
    if n <= 1024:
        return dict(num_warps=4, BLOCK=max(_pow2(n), 256), BITS1=11, BITS2=11)
    return dict(num_warps=8, BLOCK=4096, BITS1=11, BITS2=11)


def stream_config(n, k):
    block = max(k, min(_pow2(n), 1024))
    return dict(num_warps=4 if block <= 512 else 8, BLOCK=block)


def make_inputs(shape, dev, gen, args):
    import torch
    m, n, k = shape
    x = make_scores(m, n, dev, gen, args.dist or ("mixed" if args.check else "randn"))
    return dict(x=x, k=k, idx=torch.empty(m, k, device=dev, dtype=torch.int32),
                vals=torch.empty(m, k, device=dev, dtype=torch.float32))


def tle_provider(inp):
    """TLE's top-k picks its algorithm by row length: one bitonic network
    over the row in registers (single_tile_topk: plain Triton, the `triton`
    provider's network without its merge into a running top-K) up to
    REGISTER_TOPK_MAX_N, the register tile with a shared-memory radix select
    (tle_tile_topk) up to TILE_TOPK_MAX_N, the radix select with a candidate
    buffer above."""
    x, k, idx, vals = inp["x"], inp["k"], inp["idx"], inp["vals"]
    m, n = x.shape
    if n <= REGISTER_TOPK_MAX_N:
        ncfg = network_config(n, k)

        def run_network():
            KK.single_tile_topk[(m,)](x, idx, vals, n, K=k, BLOCK=ncfg["BLOCK"], num_warps=ncfg["num_warps"])
            return vals, idx
        return run_network
    if n <= TILE_TOPK_MAX_N:
        tcfg = tile_config(n, k)

        def run_tile():
            KK.tle_tile_topk[(m,)](x, idx, vals, n, K=k, BLOCK=tcfg["BLOCK"], BITS=tcfg["BITS"],
                                   num_warps=tcfg["num_warps"])
            return vals, idx
        return run_tile
    cfg = tle_config(n, k)
    opts = {key: v for key, v in cfg.items() if key != "num_warps"}

    def run():
        KK.tle_radix_select[(m,)](x, idx, vals, n, k, SORTED=True, KS=k, C=1, MESH=None,
                                  num_warps=cfg["num_warps"], **opts)
        return vals, idx
    return run


def network_config(n, k):
    """Launch configuration of single_tile_topk for rows of n <=
    REGISTER_TOPK_MAX_N (H100, 64x128x8: 5.41 us at 4 warps, 5.49 at 1, 5.41
    at 2, 5.57 at 8)."""
    return dict(BLOCK=max(_pow2(n), k), num_warps=4)


def tile_config(n, k):
    """Launch configuration of tle_tile_topk for rows of n (REGISTER_TOPK_MAX_N
    < n <= TILE_TOPK_MAX_N). H100, 64x1024x32: 8-bit digits 0.0068-0.0074 ms
    at 8 warps, 0.0071 at 4, 0.0084 at 2; 4-bit digits 0.0079 at 8 warps
    (triton 0.0104-0.0110 at its 8; 0.0121 at 4, 0.0148 at 2)."""
    block = _pow2(n)
    return dict(num_warps=4 if block <= 512 else 8, BLOCK=block, BITS=8)


def triton_provider(inp):
    x, k, idx, vals = inp["x"], inp["k"], inp["idx"], inp["vals"]
    m, n = x.shape
    cfg = stream_config(n, k)

    def run():
        KK.triton_stream_topk[(m,)](x, idx, vals, n, K=k, BLOCK=cfg["BLOCK"], num_warps=cfg["num_warps"])
        return vals, idx
    return run


def triton_radix_provider(inp):
    x, k, idx, vals = inp["x"], inp["k"], inp["idx"], inp["vals"]
    m, n = x.shape
    cfg = radix_config(n, k)

    def run():
        KK.triton_radix_select[(m,)](x, idx, vals, n, k, BLOCK=cfg["BLOCK"], BITS1=cfg["BITS1"],
                                     BITS2=cfg["BITS2"], SORTED=True, KS=k, num_warps=cfg["num_warps"])
        return vals, idx
    return run


def torch_provider(inp):
    import torch
    x, k = inp["x"], inp["k"]

    def run():
        r = torch.topk(x, k, dim=1)
        return r.values, r.indices
    return run


def check(provider, inp, out):
    import torch
    x, k = inp["x"], inp["k"]
    m, n = x.shape
    vals, idx = out
    assert tuple(vals.shape) == (m, k) and tuple(idx.shape) == (m, k), "wrong output shape"
    ref = torch.topk(x, k, dim=1).values
    bad = (vals != ref).any(dim=1)
    assert not bool(bad.any()), f"values differ from torch.topk in rows {bad.nonzero().flatten()[:8].tolist()}"
    i = idx.long()
    assert bool(((i >= 0) & (i < n)).all()), "index out of range"
    s = i.sort(dim=1).values
    assert bool((s[:, 1:] != s[:, :-1]).all()), "repeated index in a row"
    assert bool((torch.gather(x, 1, i) == vals).all()), "x[index] != value"


def unsupported(provider, shape):
    m, n, k = shape
    if k > n:
        return "K > N"
    if provider != "torch" and k & (k - 1):
        return "K must be a power of 2 (tl.sort)"
    return None


def extra_args(p):
    p.add_argument("--dist", choices=("randn", "ties", "mixed"), default=None,
                   help="input distribution (default: mixed with --check, else randn)")


BENCH = _harness.Benchmark(
    name="topk",
    description=__doc__.split("\n\n")[0],
    shape_names=("M", "N", "K"),
    default_shapes=DEFAULT_SHAPES,
    providers={"tle": tle_provider, "triton": triton_provider, "triton-radix": triton_radix_provider,
               "torch": torch_provider},
    make_inputs=make_inputs,
    check=check,
    min_bytes=lambda s: s[0] * s[1] * 4 + s[0] * s[2] * 8,
    unsupported=unsupported,
    extra_args=extra_args,
)


def smoke_kernels():
    sig = {"X": "*fp32", "OUT": "*i32", "VALS": "*fp32", "seq": "i32"}
    sig_k = dict(sig, K="i32")
    out = []
    for n, k in ((128, 8), (1024, 32), (32768, 256)):
        if n <= REGISTER_TOPK_MAX_N:
            cfg = network_config(n, k)
            out.append(dict(name=f"tle-{n}x{k}", kernel=KK.single_tile_topk, signature=sig, tle=True,
                            constexprs=dict(K=k, BLOCK=cfg["BLOCK"]), options=dict(num_warps=cfg["num_warps"]),
                            expect=[]))
        elif REGISTER_TOPK_MAX_N < n <= TILE_TOPK_MAX_N:
            cfg = tile_config(n, k)
            out.append(dict(name=f"tle-{n}x{k}", kernel=KK.tle_tile_topk, signature=sig, tle=True,
                            constexprs=dict(K=k, BLOCK=cfg["BLOCK"], BITS=cfg["BITS"]),
                            options=dict(num_warps=cfg["num_warps"]),
                            expect=["shared::cta.add.u32", "ld.shared", "st.shared"]))
        elif n > TILE_TOPK_MAX_N:
            cfg = tle_config(n, k)
            out.append(dict(name=f"tle-{n}x{k}", kernel=KK.tle_radix_select, signature=sig_k, tle=True,
                            constexprs=dict(KS=k, SORTED=True, C=1, MESH=None,
                                            **{key: v for key, v in cfg.items() if key != "num_warps"}),
                            options=dict(num_warps=cfg["num_warps"]),
                            expect=["shared::cta.add.u32", "ld.shared", "st.shared"]))
        cfg = stream_config(n, k)
        out.append(dict(name=f"triton-{n}x{k}", kernel=KK.triton_stream_topk, signature=sig, tle=False,
                        constexprs=dict(K=k, BLOCK=cfg["BLOCK"]), options=dict(num_warps=cfg["num_warps"]),
                        expect=[]))
        cfg = radix_config(n, k)
        out.append(dict(name=f"triton-radix-{n}x{k}", kernel=KK.triton_radix_select, signature=sig_k, tle=False,
                        constexprs=dict(KS=k, BLOCK=cfg["BLOCK"], BITS1=cfg["BITS1"], BITS2=cfg["BITS2"],
                                        SORTED=True),
                        options=dict(num_warps=cfg["num_warps"]), expect=[]))
    return out


if __name__ == "__main__":
    _harness.main(BENCH)
