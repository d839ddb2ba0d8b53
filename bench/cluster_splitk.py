"""Split reduction with an in-kernel all-reduce (fp32): TLE vs plain Triton vs torch.

Operation: X is [C, 4, R, N] fp32. Cluster c splits the 4R rows of X[c] over
its 4 CTAs; CTA r sums its R rows (p_r = sum_i X[c, r, i], in row order) and
every CTA ends with the whole column sum ((p_0 + p_1) + p_2) + p_3, written to
OUT[c, r, :]. This is the shape of a split-K reduction whose result the kernel
goes on using (layer-norm statistics of a row spread over CTAs, a split-K dot
feeding an epilogue): the partials are produced inside the kernel, so the
collective cannot be replaced by re-reading them from memory.
bench/cluster_allreduce.py measures the other case (partials already in DRAM).

- ``tle``: one launch, one cluster of 4 CTAs per c. CTA r sums its R rows in
  registers, annotates the sum as a partial (``tle.make_sharded_tensor`` of a
  block with ``partial=["cx"]``) and ``tle.reshard``s it to a broadcast
  layout: distributed shared memory, one cluster barrier, the four sums added
  in rank order.
- ``triton``: one launch, one program per (c, r) that computes all four
  partials itself (the rows of the other three from L2) and adds them in rank
  order: 4x the reads, no second launch.
- ``triton-2pass``: two launches: one program per (c, r) writes p_r to a
  scratch tensor, then plain Triton's all-reduce of cluster_allreduce.py
  reads the four partials (L2) and adds them.
- ``torch``: ``X.view(C, 4R, N)`` partial sums per quarter, added in rank
  order, broadcast into OUT (several kernels).

Check: bitwise equal to the rank-order sum of the row-order partials for tle,
triton and triton-2pass; 1e-5 relative for torch.
Bandwidth floor: read X once, write OUT once.
"""

from __future__ import annotations

import os
import sys

import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402
from cluster_allreduce import CTAS, FULL, MESH, PARTIAL, allreduce_triton_kernel  # noqa: E402

import tle  # noqa: E402


def _warps(n):
    return 4 if n <= 2048 else 8


@triton.jit
def _rows_sum(base, R: tl.constexpr, N: tl.constexpr):
    """Sum of the R rows of N fp32 at base, in row order."""
    offs = tl.arange(0, N)
    acc = tl.zeros([N], tl.float32)
    for i in range(R):
        acc += tl.load(base + i * N + offs)
    return acc


@triton.jit
def splitk_tle_kernel(X, OUT, R: tl.constexpr, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr,
                      MESH: tl.constexpr):
    c = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    part = _rows_sum(X + (c * 4 + rank) * R * N, R, N)
    total = tle.reshard(tle.make_sharded_tensor(part, SRC, [N]), DST)
    tl.store(OUT + (c * 4 + rank) * N + tl.arange(0, N), total)


@triton.jit
def splitk_triton_kernel(X, OUT, R: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)  # (c, r) = (pid // 4, pid % 4)
    base = X + (pid // 4) * 4 * R * N
    total = ((_rows_sum(base, R, N) + _rows_sum(base + R * N, R, N)) + _rows_sum(base + 2 * R * N, R, N)) \
        + _rows_sum(base + 3 * R * N, R, N)
    tl.store(OUT + pid * N + tl.arange(0, N), total)


@triton.jit
def partial_triton_kernel(X, P, R: tl.constexpr, N: tl.constexpr):
    pid = tl.program_id(0)
    tl.store(P + pid * N + tl.arange(0, N), _rows_sum(X + pid * R * N, R, N))


def _tle(inputs):
    x, out = inputs["x"], inputs["out"]
    c, _, r, n = x.shape

    def run():
        splitk_tle_kernel[(c,)](x, out, R=r, N=n, SRC=PARTIAL, DST=FULL, MESH=MESH, num_warps=_warps(n))
        return out
    return run


def _triton(inputs):
    x, out = inputs["x"], inputs["out"]
    c, _, r, n = x.shape

    def run():
        splitk_triton_kernel[(c * CTAS,)](x, out, R=r, N=n, num_warps=_warps(n))
        return out
    return run


def _triton_2pass(inputs):
    import torch
    x, out = inputs["x"], inputs["out"]
    c, _, r, n = x.shape
    scratch = torch.empty(c, CTAS, n, device=x.device, dtype=torch.float32)

    def run():
        partial_triton_kernel[(c * CTAS,)](x, scratch, R=r, N=n, num_warps=_warps(n))
        allreduce_triton_kernel[(c * CTAS,)](scratch, out, N=n, num_warps=_warps(n))
        return out
    return run


def _torch(inputs):
    x, out = inputs["x"], inputs["out"]

    def run():
        p = x.sum(2)
        out.copy_((((p[:, 0] + p[:, 1]) + p[:, 2]) + p[:, 3])[:, None, :].expand_as(out))
        return out
    return run


def make_inputs(shape, device, gen, args):
    import torch
    c, r, n = shape
    if n & (n - 1) or n > 8192:
        raise ValueError(f"cluster_splitk: N must be a power of two <= 8192, got {n}")
    x = torch.randn(c, CTAS, r, n, device=device, generator=gen, dtype=torch.float32)
    return {"x": x, "out": torch.full((c, CTAS, n), float("nan"), device=device)}


def _expected(x):
    import torch
    c, _, r, n = x.shape
    p = torch.zeros(c, CTAS, n, device=x.device, dtype=torch.float32)
    for i in range(r):  # row order, like the kernels
        p += x[:, :, i]
    return (((p[:, 0] + p[:, 1]) + p[:, 2]) + p[:, 3])[:, None, :].expand(c, CTAS, n)


def check(provider, inputs, out):
    import torch
    expect = _expected(inputs["x"])
    if provider == "torch":
        torch.testing.assert_close(out, expect, rtol=1e-5, atol=1e-4)
    else:
        assert torch.equal(out, expect), f"{provider}: not the rank-order sum of the row-order partials"
    inputs["out"].fill_(float("nan"))


BENCH = _harness.Benchmark(
    name="cluster_splitk",
    description=__doc__.splitlines()[0],
    shape_names=("C", "R", "N"),
    default_shapes=[(33, 8, 1024), (33, 64, 1024), (132, 16, 2048), (33, 32, 8192), (132, 64, 4096),
                    (528, 32, 4096)],
    providers={"tle": _tle, "triton": _triton, "triton-2pass": _triton_2pass, "torch": _torch},
    make_inputs=make_inputs,
    check=check,
    min_bytes=lambda s: s[0] * CTAS * (s[1] + 1) * s[2] * 4.0,
)

CHECK_SHAPES = ["1x1x256", "3x5x1024", "33x8x1024", "7x3x8192"]


def smoke_kernels():
    sig = {"X": "*fp32", "OUT": "*fp32"}
    return [
        dict(name="tle-R16-N2048", kernel=splitk_tle_kernel, signature=sig,
             constexprs=dict(R=16, N=2048, SRC=PARTIAL, DST=FULL, MESH=MESH), options=dict(num_warps=4), tle=True,
             expect=["mapa.shared::cluster", "ld.shared::cluster", "barrier.cluster.arrive"]),
        dict(name="triton-R16-N2048", kernel=splitk_triton_kernel, signature=sig,
             constexprs=dict(R=16, N=2048), options=dict(num_warps=4), tle=False, expect=[]),
        dict(name="triton-partial-R16-N2048", kernel=partial_triton_kernel, signature={"X": "*fp32", "P": "*fp32"},
             constexprs=dict(R=16, N=2048), options=dict(num_warps=4), tle=False, expect=[]),
    ]


if __name__ == "__main__":
    _harness.main(BENCH)
