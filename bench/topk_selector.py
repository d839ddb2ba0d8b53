"""DeepSeek-V3.2 lightning-indexer top-k selector: int32 indices of the k largest
fp32 scores per row ([batch, seq] contiguous -> [batch, k]; order within a row
unspecified).

Providers:
  tle          radix select, one CTA per row, shared-memory histograms and a
               shared-memory candidate buffer (bench/_topk_kernels.py)
  tle-cluster  the same kernel with a thread-block cluster of C CTAs per row
               (remote atomics into rank 0's histograms, cluster barriers)
  tle-det      tle (batch >= 32) or tle-cluster (few rows) with DET=True:
               output slots from prefix sums instead of shared atomic
               counters, so the result is the same on every run
  triton       plain Triton radix select (tl.histogram, tl.cumsum, the row
               re-read every round): one program per row for many rows; for
               few rows the row is split over P programs, one launch per round
               (partial histograms merged with global atomics)
  torch        torch.topk(scores, k).indices

Check (before timing): indices in range and distinct per row, and the sorted
gathered scores equal torch.topk's sorted values exactly (tie-correct). With
--check the inputs default to --dist mixed: besides normal rows, rows rounded
to few distinct values (heavy ties, which overflow TLE's candidate buffer and
take its re-read path), moderate ties, a constant row and rows of +0.0/-0.0.
Timing uses --dist randn (torch.randn scores). NaN scores are not supported.

  python3 bench/topk_selector.py --check --shapes 4x4096x128,...   (see CHECK_SHAPES)
  python3 bench/topk_selector.py                                   (all shapes, timed)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _harness  # noqa: E402
import _topk_kernels as KK  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
import tle  # noqa: E402

SEQS = (4096, 8192, 32768)
KS = (128, 256, 1024, 2048)
DEFAULT_SHAPES = ([(64, s, k) for s in SEQS for k in KS]
                  + [(1, 131072, 2048), (1, 262144, 2048), (1, 524288, 2048)])
CHECK_SHAPES = ["8x4096x128", "8x8192x1024", "8x32768x2048", "5x1000x37", "1x131072x2048", "1x262144x1000"]

# Launch configurations by shape class (many rows: batch >= 32; few rows), the
# best of sweeps on the H100 (2026-11-25, after the atomic-slot kernel and
# triton-tle-fold-scatter-converts): TLE num_warps 8/16/32, BLOCK 2048..8192,
# row cache RC 0 or 16K/32K keys, digits 10..12 + 11..12 bits, C 2/4/8
# (bench/_topk_tune.py holds the variants and picks). Short rows pay
# mostly per-round costs (clearing and scanning the histograms), so they take
# narrower first digits; long rows take 32 warps (1024 threads) per CTA.
# Triton: num_warps 4/8/16, BLOCK 2048/4096, digits 11+11+10 or 10+11+11,
# P 64/128/256 programs per row. Triton's plain 12-bit first digit was 2-4x
# slower than 11 bits (tl.histogram cost), TLE's was not.
_MESHES = {c: tl.constexpr(tle.device_mesh({"block_cluster": [("cluster_x", c)]})) for c in (2, 4, 8)}
_TLE_BASE = dict(CBLOCK=1024, CAP=4096, BITS1=12, BITS2=12)


def _digits(seq):
    if seq <= 4096:
        return dict(BITS1=10, BITS2=11)
    if seq <= 8192:
        return dict(BITS1=11, BITS2=11)
    return dict(BITS1=12, BITS2=12)


def tle_config(batch, seq):
    """tle: one CTA per row."""
    if batch >= 32:
        if seq <= 8192:
            return dict(_TLE_BASE, C=1, num_warps=16, BLOCK=2048, RC=32768, **_digits(seq))
        return dict(_TLE_BASE, C=1, num_warps=32, BLOCK=4096, RC=32768)
    return dict(_TLE_BASE, C=1, num_warps=16, BLOCK=8192, RC=0)


def cluster_config(batch, seq):
    """tle-cluster: C CTAs per row; 8 (the portable maximum) for few rows, 2
    when the rows already fill the GPU."""
    if batch >= 32:
        return dict(_TLE_BASE, C=2, num_warps=8, BLOCK=4096, RC=0)
    return dict(_TLE_BASE, C=8, num_warps=32 if seq >= 262144 else 16, BLOCK=4096, RC=16384)


def triton_config(batch, seq):
    """triton: one program per row, or (P > 1) the row split over P programs
    with one launch per round (plain Triton cannot sync programs in a kernel)."""
    if batch >= 32:
        return dict(P=1, num_warps=8, BLOCK=4096, BITS1=10, BITS2=11)
    return dict(P=256, num_warps=8, BLOCK=4096, BITS1=11, BITS2=11)


def launch_tle(x, k, out, cfg, vals=None, sorted_k=0):
    batch, seq = x.shape
    cfg = dict(cfg)
    c = cfg.pop("C", 1)
    nw = cfg.pop("num_warps")
    mesh = _MESHES[c] if c > 1 else None
    vals = out if vals is None else vals

    def run():
        KK.tle_radix_select[(batch,)](x, out, vals, seq, k, SORTED=sorted_k > 0, KS=max(sorted_k, 1), C=c,
                                      MESH=mesh, num_warps=nw, **cfg)
        return out
    return run


def launch_triton(x, k, out, cfg):
    import torch
    batch, seq = x.shape
    cfg = dict(cfg)
    p = cfg.pop("P", 1)
    nw = cfg.pop("num_warps")
    if p <= 1:
        def run():
            KK.triton_radix_select[(batch,)](x, out, out, seq, k, SORTED=False, KS=1, num_warps=nw, **cfg)
            return out
        return run
    nb = 1 << max(cfg["BITS1"], cfg["BITS2"], 32 - cfg["BITS1"] - cfg["BITS2"])
    ws = torch.empty(batch * (3 * nb) + batch * 2, device=x.device, dtype=torch.int32)
    g, cnt = ws[:batch * 3 * nb], ws[batch * 3 * nb:]
    per = triton.cdiv(triton.cdiv(seq, p), cfg["BLOCK"]) * cfg["BLOCK"]
    grid = (triton.cdiv(seq, per), batch)

    def run():
        ws.zero_()
        for r in (1, 2, 3):
            KK.triton_split_hist[grid](x, g, seq, per, k, ROUND=r, NB=nb, num_warps=nw, **cfg)
        KK.triton_split_final[grid](x, out, g, cnt, seq, per, k, NB=nb, num_warps=nw, **cfg)
        return out
    return run


def make_scores(batch, seq, dev, gen, dist):
    import torch
    x = torch.randn(batch, seq, device=dev, generator=gen, dtype=torch.float32)
    if dist == "randn":
        return x
    if dist == "ties":
        return (x * 4).round() / 4  # ~40 distinct values
    assert dist == "mixed", dist
    for r in range(batch):
        kind = r % 6 if batch > 1 else 1
        if kind == 1:
            x[r] = (x[r] * 4).round() / 4                   # heavy ties: candidate buffer overflows
        elif kind == 2:
            x[r] = (x[r] * 200).round() / 200               # moderate ties
        elif kind == 3:
            x[r] = 0.5                                      # one value
        elif kind == 4:
            x[r] = torch.where(x[r] > 0, 0.0, -0.0)         # +0.0 / -0.0 only
            x[r, ::97] = 1.0
        elif kind == 5:
            x[r] = -x[r].abs() - 1e-30                      # all negative
    return x.contiguous()


def make_inputs(shape, dev, gen, args):
    import torch
    batch, seq, k = shape
    dist = args.dist or ("mixed" if args.check else "randn")
    x = make_scores(batch, seq, dev, gen, dist)
    return dict(x=x, k=k, out=torch.empty(batch, k, device=dev, dtype=torch.int32))


def tle_provider(inp):
    x = inp["x"]
    return launch_tle(x, inp["k"], inp["out"], tle_config(*x.shape))


def tle_cluster_provider(inp):
    x = inp["x"]
    return launch_tle(x, inp["k"], inp["out"], cluster_config(*x.shape))


def tle_det_provider(inp):
    """The best of tle / tle-cluster for the shape class, with DET=True
    (output slots from prefix sums: the same result on every run)."""
    x = inp["x"]
    cfg = tle_config(*x.shape) if x.shape[0] >= 32 else cluster_config(*x.shape)
    return launch_tle(x, inp["k"], inp["out"], dict(cfg, DET=True))


def triton_provider(inp):
    x = inp["x"]
    return launch_triton(x, inp["k"], inp["out"], triton_config(*x.shape))


def torch_provider(inp):
    import torch
    x, k = inp["x"], inp["k"]
    return lambda: torch.topk(x, k, dim=1).indices


def check(provider, inp, out):
    import torch
    x, k = inp["x"], inp["k"]
    batch, seq = x.shape
    assert tuple(out.shape) == (batch, k), f"shape {tuple(out.shape)} != {(batch, k)}"
    idx = out.long()
    assert bool(((idx >= 0) & (idx < seq)).all()), "index out of range"
    s = idx.sort(dim=1).values
    assert bool((s[:, 1:] != s[:, :-1]).all()), "repeated index in a row"
    got = torch.gather(x, 1, idx).sort(dim=1).values
    ref = torch.topk(x, k, dim=1).values.sort(dim=1).values
    bad = (got != ref).any(dim=1)
    assert not bool(bad.any()), f"rows {bad.nonzero().flatten()[:8].tolist()} select different values"


def unsupported(provider, shape):
    batch, seq, k = shape
    if k > seq:
        return "k > seq"
    return None


def extra_args(p):
    p.add_argument("--dist", choices=("randn", "ties", "mixed"), default=None,
                   help="score distribution (default: mixed with --check, else randn)")


BENCH = _harness.Benchmark(
    name="topk_selector",
    description=__doc__.split("\n\n")[0],
    shape_names=("batch", "seq", "k"),
    default_shapes=DEFAULT_SHAPES,
    providers={"tle": tle_provider, "tle-cluster": tle_cluster_provider, "tle-det": tle_det_provider,
               "triton": triton_provider,
               "torch": torch_provider},
    make_inputs=make_inputs,
    check=check,
    min_bytes=lambda s: s[0] * s[1] * 4 + s[0] * s[2] * 4,
    unsupported=unsupported,
    extra_args=extra_args,
)


def smoke_kernels():
    sig = {"X": "*fp32", "OUT": "*i32", "VALS": "*fp32", "seq": "i32", "K": "i32"}

    def tle_entry(name, cfg, expect):
        cfg = dict(cfg)
        c = cfg.pop("C", 1)
        nw = cfg.pop("num_warps")
        return dict(name=name, kernel=KK.tle_radix_select, signature=sig, tle=True,
                    constexprs=dict(cfg, SORTED=False, KS=1, C=c, MESH=_MESHES[c] if c > 1 else None),
                    options=dict(num_warps=nw), expect=expect)

    out = [tle_entry("tle", tle_config(64, 32768), ["shared::cta.add.u32", "ld.shared", "st.shared"]),
           tle_entry("tle-cluster", cluster_config(1, 524288),
                     ["mapa.shared::cluster", "shared::cluster.add.u32", "ld.shared::cluster",
                      "barrier.cluster.arrive", "shared::cta.add.u32"]),
           tle_entry("tle-rowcache", dict(tle_config(64, 32768), RC=8192), ["st.shared", "ld.shared"]),
           tle_entry("tle-det", dict(tle_config(64, 32768), DET=True), ["shared::cta.add.u32", "shfl.sync.up"])]
    for batch in (64, 1):
        cfg = triton_config(batch, 524288)
        p = cfg.pop("P")
        nw = cfg.pop("num_warps")
        if p <= 1:
            out.append(dict(name="triton", kernel=KK.triton_radix_select, signature=sig, tle=False,
                            constexprs=dict(cfg, SORTED=False, KS=1), options=dict(num_warps=nw), expect=[]))
            continue
        nb = 1 << max(cfg["BITS1"], cfg["BITS2"], 32 - cfg["BITS1"] - cfg["BITS2"])
        hsig = {"X": "*fp32", "G": "*i32", "seq": "i32", "per": "i32", "K": "i32"}
        for r in (1, 2, 3):
            out.append(dict(name=f"triton-split-hist{r}", kernel=KK.triton_split_hist, signature=hsig, tle=False,
                            constexprs=dict(cfg, ROUND=r, NB=nb), options=dict(num_warps=nw), expect=[]))
        out.append(dict(name="triton-split-final", kernel=KK.triton_split_final,
                        signature={"X": "*fp32", "OUT": "*i32", "G": "*i32", "CNT": "*i32", "seq": "i32",
                                   "per": "i32", "K": "i32"},
                        tle=False, constexprs=dict(cfg, NB=nb), options=dict(num_warps=nw), expect=[]))
    return out


if __name__ == "__main__":
    _harness.main(BENCH)
