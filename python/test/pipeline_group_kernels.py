"""Kernels using tle.range + tle.pipeline_group (docs/pipeline-groups.md),
shared by test_pipeline_group.py (CPU, TTGIR/PTX) and
test_pipeline_group_gpu.py (H100, against torch)."""

import triton
import triton.language as tl

import tle


@triton.jit
def qk_loop(Q, K, OUT, n, YB: tl.constexpr, D: tl.constexpr, LOAD_TRANS: tl.constexpr, ONE_CORE: tl.constexpr):
    """FlagFFT's reference loop: OUT = sum over row blocks of Q_blk @ K_blk^T."""
    rows = tl.arange(0, YB)
    cols = tl.arange(0, D)
    acc = tl.zeros([YB, YB], tl.float32)
    for yoff in tle.range(0, n, YB, num_stages=2, pipe_stages=[0, 0, 1] if LOAD_TRANS else [0, 1, 1],
                          pipe_orders=[0, 1, 2], executors=[0, 0, 0] if ONE_CORE else [0, 0, range(1, 31)]):
        with tle.pipeline_group(0):
            q = tl.load(Q + (yoff + rows)[:, None] * D + cols[None, :])
            k = tl.load(K + (yoff + rows)[:, None] * D + cols[None, :])
        with tle.pipeline_group(1):
            kt = tl.trans(k)
        with tle.pipeline_group(2):
            acc += tl.dot(q, kt)
    tl.store(OUT + rows[:, None] * YB + rows[None, :], acc)


@triton.jit
def qk_loop_auto(Q, K, OUT, n, YB: tl.constexpr, D: tl.constexpr):
    """The same loop with Triton's automatic stages (the seeds' first form)."""
    rows = tl.arange(0, YB)
    cols = tl.arange(0, D)
    acc = tl.zeros([YB, YB], tl.float32)
    for yoff in tl.range(0, n, YB, num_stages=2):
        q = tl.load(Q + (yoff + rows)[:, None] * D + cols[None, :])
        k = tl.load(K + (yoff + rows)[:, None] * D + cols[None, :])
        kt = tl.trans(k)
        acc += tl.dot(q, kt)
    tl.store(OUT + rows[:, None] * YB + rows[None, :], acc)


@triton.jit
def scale_loop(X, OUT, n, B: tl.constexpr, NS: tl.constexpr, LOAD_STAGE: tl.constexpr, USE_STAGE: tl.constexpr):
    """OUT[i] = 2 * X[i] + 1, block by block: load in one group, compute and
    store in another."""
    offs = tl.arange(0, B)
    for i in tle.range(0, n, B, num_stages=NS, pipe_stages=[LOAD_STAGE, USE_STAGE]):
        with tle.pipeline_group(0):
            x = tl.load(X + i + offs, mask=i + offs < n, other=0.0)
        with tle.pipeline_group(1):
            tl.store(OUT + i + offs, x * 2.0 + 1.0, mask=i + offs < n)


@triton.jit
def two_sums(X, Y, OUT, n, B: tl.constexpr, ORDERS: tl.constexpr):
    """Two independent reductions in one stage, ordered by pipe_orders."""
    offs = tl.arange(0, B)
    sx = tl.zeros([B], tl.float32)
    sy = tl.zeros([B], tl.float32)
    for i in tle.range(0, n, B, num_stages=2, pipe_stages=[0, 1, 1], pipe_orders=ORDERS):
        with tle.pipeline_group(0):
            x = tl.load(X + i + offs)
            y = tl.load(Y + i + offs)
        with tle.pipeline_group(1):
            sx += tl.exp(x)
        with tle.pipeline_group(2):
            sy += tl.sqrt(tl.abs(y))
    tl.store(OUT + offs, sx)
    tl.store(OUT + B + offs, sy)
