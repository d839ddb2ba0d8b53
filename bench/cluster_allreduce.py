"""All-reduce inside a 4-CTA thread-block cluster (fp32): TLE vs plain Triton vs torch.

Operation: X is [C, 4, N] fp32, C clusters of 4 partial sums of N elements
each; OUT[c, r, :] = ((X[c, 0] + X[c, 1]) + X[c, 2]) + X[c, 3] for every r
(every member ends with the whole sum, in rank order, so all four copies are
bitwise equal).

- ``tle``: one cluster of 4 CTAs per c (``tle.device_mesh({"block_cluster":
  [("cx", 4)]})``); CTA r loads its partial X[c, r] as a sharded tensor with
  ``partial=["cx"]`` and ``tle.reshard``s it to a broadcast layout: each CTA
  stores its block into its shared memory, one cluster barrier, then every
  CTA reads the four blocks through distributed shared memory
  (``ld.shared::cluster``; one ``mapa`` per peer for the buffer's base) and
  adds them in rank order (docs/distributed.md).
- ``triton``: one program per (c, r), no clusters: it reads the four partials
  of its cluster from global memory (L2 after the first reader) and adds them
  in rank order.
- ``torch``: ``X.sum(1)`` broadcast into OUT (``copy_`` of an expanded view).

Check: OUT against the rank-order sum in fp32: bitwise for tle and triton,
1e-5 relative for torch (its reduction order differs).
Bandwidth floor: read X once and write OUT once, 2 * C * 4 * N * 4 bytes.
"""

from __future__ import annotations

import os
import sys

import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

import tle  # noqa: E402

CTAS = 4
MESH = tle.device_mesh({"block_cluster": [("cx", CTAS)]})
PARTIAL = tle.sharding(MESH, split=[tle.B], partial=["cx"])
FULL = tle.sharding(MESH, split=[tle.B])


def _warps(n):
    return 4 if n <= 4096 else 8


@triton.jit
def allreduce_tle_kernel(X, OUT, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    c = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    x = tle.make_sharded_tensor(X + c * 4 * N, SRC, [N])  # this CTA's partial X[c, rank]
    total = tle.reshard(x, DST)
    tl.store(OUT + (c * 4 + rank) * N + tl.arange(0, N), total)


@triton.jit
def allreduce_triton_kernel(X, OUT, N: tl.constexpr):
    pid = tl.program_id(0)  # (c, r) = (pid // 4, pid % 4)
    c = pid // 4
    offs = tl.arange(0, N)
    base = X + c * 4 * N
    total = ((tl.load(base + offs) + tl.load(base + N + offs)) + tl.load(base + 2 * N + offs)) \
        + tl.load(base + 3 * N + offs)
    tl.store(OUT + pid * N + offs, total)


def _tle(inputs):
    x, out = inputs["x"], inputs["out"]
    c, _, n = x.shape

    def run():
        allreduce_tle_kernel[(c,)](x, out, N=n, SRC=PARTIAL, DST=FULL, MESH=MESH, num_warps=_warps(n))
        return out

    return run


def _triton(inputs):
    x, out = inputs["x"], inputs["out"]
    c, _, n = x.shape

    def run():
        allreduce_triton_kernel[(c * CTAS,)](x, out, N=n, num_warps=_warps(n))
        return out

    return run


def _torch(inputs):
    x, out = inputs["x"], inputs["out"]

    def run():
        out.copy_(x.sum(1, keepdim=True).expand_as(out))
        return out

    return run


def make_inputs(shape, device, gen, args):
    import torch
    c, n = shape
    if n & (n - 1) or n > 8192:
        raise ValueError(f"cluster_allreduce: N must be a power of two <= 8192, got {n}")
    x = torch.randn(c, CTAS, n, device=device, generator=gen, dtype=torch.float32)
    return {"x": x, "out": torch.full_like(x, float("nan"))}


def check(provider, inputs, out):
    import torch
    x = inputs["x"]
    expect = (((x[:, 0] + x[:, 1]) + x[:, 2]) + x[:, 3])[:, None, :].expand_as(x)
    if provider == "torch":
        torch.testing.assert_close(out, expect, rtol=1e-5, atol=1e-5)
    else:
        assert torch.equal(out, expect), f"{provider}: not the rank-order sum on every CTA"
    inputs["out"].fill_(float("nan"))


BENCH = _harness.Benchmark(
    name="cluster_allreduce",
    description=__doc__.splitlines()[0],
    shape_names=("C", "N"),
    default_shapes=[(132, 1024), (132, 4096), (528, 4096), (132, 8192), (1056, 8192)],
    providers={"tle": _tle, "triton": _triton, "torch": _torch},
    make_inputs=make_inputs,
    check=check,
    min_bytes=lambda s: 2.0 * s[0] * CTAS * s[1] * 4,
)

CHECK_SHAPES = ["1x256", "3x1024", "132x4096", "7x8192"]


def smoke_kernels():
    return [
        dict(name="tle-N4096", kernel=allreduce_tle_kernel, signature={"X": "*fp32", "OUT": "*fp32"},
             constexprs=dict(N=4096, SRC=PARTIAL, DST=FULL, MESH=MESH), options=dict(num_warps=4), tle=True,
             expect=["mapa.shared::cluster", "ld.shared::cluster", "barrier.cluster.arrive"]),
        dict(name="triton-N4096", kernel=allreduce_triton_kernel, signature={"X": "*fp32", "OUT": "*fp32"},
             constexprs=dict(N=4096), options=dict(num_warps=4), tle=False, expect=[]),
    ]


if __name__ == "__main__":
    _harness.main(BENCH)
