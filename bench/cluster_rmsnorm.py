"""RMSNorm of long rows with the row spread over a thread-block cluster (fp32): TLE vs plain Triton vs torch.

Operation: X is [M, N] fp32, W is [N]; Y[m] = X[m] * rsqrt(mean(X[m]^2) + eps) * W.
The row's statistic needs every element of the row, and every element is
scaled by it afterwards: a reduction whose result the kernel goes on using
(cluster_splitk.py's case), where the collective saves a second pass over
the data and a second launch. With few rows (M below the SM count) one
program per row leaves most of the GPU idle; splitting a row over CTAS CTAs
(8, the portable cluster maximum; ``TLE_RMSNORM_CTAS=4`` for 4) needs the
partial sums exchanged between them.

- ``tle``: one cluster of CTAS CTAs per row (``tle.device_mesh({"block_cluster":
  [("cx", CTAS)]})``). CTA r loads its part of the row into registers, sums
  its squares into 32 partial sums, ``tle.reshard``s them from
  ``partial=["cx"]`` to a broadcast layout (distributed shared memory, one
  cluster barrier: cluster_allreduce.py), and scales the part it still
  holds: X is read once, Y written once, in one launch.
- ``triton``: one program per row: a loop summing the squares in BLOCK-wide
  chunks, then a second loop scaling (its reads hit L2), BLOCK = min(N, 8192).
- ``triton-2pass``: two launches, CTAS programs per row: the first writes each
  part's sum of squares to a scratch [M, CTAS], the second adds a row's and
  scales its part (X read twice, the second time mostly from L2).
- ``torch``: ``torch.nn.functional.rms_norm``.

Check: against an fp64 reference, 1e-5 relative (the sum orders differ).
Bandwidth floor: read X once, write Y once (W is small).
"""

from __future__ import annotations

import os
import sys

import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402
import tle  # noqa: E402

# CTAs per row: one cluster (8 is the portable maximum on sm_90).
CTAS = int(os.environ.get("TLE_RMSNORM_CTAS", "8"))
MESH = tle.device_mesh({"block_cluster": [("cx", CTAS)]})
PARTIAL = tle.sharding(MESH, split=[tle.B], partial=["cx"])
FULL = tle.sharding(MESH, split=[tle.B])

EPS = 1e-6
LANES = 32  # partial sums per CTA handed to the all-reduce


def _warps(chunk):
    return 4 if chunk <= 2048 else 8 if chunk <= 8192 else 16


@triton.jit
def rmsnorm_tle_kernel(X, W, Y, eps, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr,
                       MESH: tl.constexpr, LANES: tl.constexpr, CTAS: tl.constexpr):
    row = tl.program_id(0) // CTAS  # a program is a CTA, CTAS per cluster (one row)
    rank = tle.shard_id(MESH, "cx")
    CHUNK: tl.constexpr = N // CTAS
    offs = rank * CHUNK + tl.arange(0, CHUNK)
    x = tl.load(X + row.to(tl.int64) * N + offs)
    part = tl.sum(tl.reshape(x * x, [LANES, CHUNK // LANES], can_reorder=True), 1)
    sums = tle.reshard(tle.make_sharded_tensor(part, SRC, [LANES]), DST)
    scale = tl.math.rsqrt(tl.sum(sums, 0) / N + eps)
    tl.store(Y + row.to(tl.int64) * N + offs, x * scale * tl.load(W + offs))


@triton.jit
def rmsnorm_triton_kernel(X, W, Y, eps, N: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * N
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(X + base + start + tl.arange(0, BLOCK))
        acc += x * x
    scale = tl.math.rsqrt(tl.sum(acc, 0) / N + eps)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(Y + base + offs, tl.load(X + base + offs) * scale * tl.load(W + offs))


@triton.jit
def sumsq_triton_kernel(X, S, N: tl.constexpr, CTAS: tl.constexpr):
    pid = tl.program_id(0)  # (row, part)
    CHUNK: tl.constexpr = N // CTAS
    x = tl.load(X + pid.to(tl.int64) * CHUNK + tl.arange(0, CHUNK))
    tl.store(S + pid, tl.sum(x * x, 0))


@triton.jit
def scale_triton_kernel(X, W, Y, S, eps, N: tl.constexpr, CTAS: tl.constexpr):
    pid = tl.program_id(0)
    row = pid // CTAS
    CHUNK: tl.constexpr = N // CTAS
    total = tl.sum(tl.load(S + row * CTAS + tl.arange(0, CTAS)), 0)
    scale = tl.math.rsqrt(total / N + eps)
    offs = (pid % CTAS) * CHUNK + tl.arange(0, CHUNK)
    base = row.to(tl.int64) * N
    tl.store(Y + base + offs, tl.load(X + base + offs) * scale * tl.load(W + offs))


def _tle(inputs):
    x, w, y = inputs["x"], inputs["w"], inputs["y"]
    m, n = x.shape

    def run():
        rmsnorm_tle_kernel[(m,)](x, w, y, EPS, N=n, SRC=PARTIAL, DST=FULL, MESH=MESH, LANES=LANES,
                                 CTAS=CTAS, num_warps=_warps(n // CTAS))
        return y
    return run


def _triton(inputs):
    x, w, y = inputs["x"], inputs["w"], inputs["y"]
    m, n = x.shape
    block = min(n, 8192)

    def run():
        rmsnorm_triton_kernel[(m,)](x, w, y, EPS, N=n, BLOCK=block, num_warps=_warps(block))
        return y
    return run


def _triton_2pass(inputs):
    import torch
    x, w, y = inputs["x"], inputs["w"], inputs["y"]
    m, n = x.shape
    s = torch.empty(m, CTAS, device=x.device, dtype=torch.float32)

    def run():
        sumsq_triton_kernel[(m * CTAS,)](x, s, N=n, CTAS=CTAS, num_warps=_warps(n // CTAS))
        scale_triton_kernel[(m * CTAS,)](x, w, y, s, EPS, N=n, CTAS=CTAS, num_warps=_warps(n // CTAS))
        return y
    return run


def _torch(inputs):
    import torch
    x, w = inputs["x"], inputs["w"]

    def run():
        return torch.nn.functional.rms_norm(x, (x.shape[1],), w, EPS)
    return run


def make_inputs(shape, device, gen, args):
    import torch
    m, n = shape
    if n & (n - 1) or not CTAS * LANES <= n <= 65536:
        raise ValueError(f"cluster_rmsnorm: N must be a power of two in [{CTAS * LANES}, 65536], got {n}")
    x = torch.randn(m, n, device=device, generator=gen, dtype=torch.float32)
    w = torch.rand(n, device=device, generator=gen, dtype=torch.float32) + 0.5
    return {"x": x, "w": w, "y": torch.full_like(x, float("nan"))}


def check(provider, inputs, out):
    import torch
    x, w = inputs["x"].double(), inputs["w"].double()
    expect = x * torch.rsqrt(x.pow(2).mean(1, keepdim=True) + EPS) * w
    torch.testing.assert_close(out.double(), expect, rtol=1e-5, atol=1e-5)
    inputs["y"].fill_(float("nan"))


BENCH = _harness.Benchmark(
    name="cluster_rmsnorm",
    description=__doc__.splitlines()[0],
    shape_names=("M", "N"),
    default_shapes=[(4, 16384), (16, 16384), (32, 32768), (32, 65536), (64, 65536), (132, 32768),
                    (264, 16384), (1024, 16384)],
    providers={"tle": _tle, "triton": _triton, "triton-2pass": _triton_2pass, "torch": _torch},
    make_inputs=make_inputs,
    check=check,
    min_bytes=lambda s: 2.0 * s[0] * s[1] * 4,
)

CHECK_SHAPES = ["1x256", "3x1024", "5x16384", "2x65536"]


def smoke_kernels():
    sig = {"X": "*fp32", "W": "*fp32", "Y": "*fp32", "eps": "fp32"}
    return [
        dict(name="tle-N16384", kernel=rmsnorm_tle_kernel, signature=sig,
             constexprs=dict(N=16384, SRC=PARTIAL, DST=FULL, MESH=MESH, LANES=LANES, CTAS=CTAS),
             options=dict(num_warps=8),
             tle=True, expect=["mapa.shared::cluster", "ld.shared::cluster", "barrier.cluster.arrive"]),
        dict(name="triton-N16384", kernel=rmsnorm_triton_kernel, signature=sig,
             constexprs=dict(N=16384, BLOCK=8192), options=dict(num_warps=8), tle=False, expect=[]),
        dict(name="triton-sumsq-N16384", kernel=sumsq_triton_kernel, signature={"X": "*fp32", "S": "*fp32"},
             constexprs=dict(N=16384, CTAS=CTAS), options=dict(num_warps=8), tle=False, expect=[]),
        dict(name="triton-scale-N16384", kernel=scale_triton_kernel,
             signature={"X": "*fp32", "W": "*fp32", "Y": "*fp32", "S": "*fp32", "eps": "fp32"},
             constexprs=dict(N=16384, CTAS=CTAS), options=dict(num_warps=8), tle=False, expect=[]),
    ]


if __name__ == "__main__":
    _harness.main(BENCH)
