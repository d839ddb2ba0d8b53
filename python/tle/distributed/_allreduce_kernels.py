"""All-reduce kernels written with TLE (``tle.remote`` over device axes and
``tle.distributed_barrier`` across devices); the host API is
``tle.distributed.all_reduce``.

Both kernels are persistent: program ``pid`` of ``P`` owns blocks ``pid,
pid + P, ...`` of the flattened tensor, and meets the program ``pid`` of
every peer once (one-shot) or twice (two-shot) per launch. The symmetric
staging buffers are double-buffered by launch parity, read from a per-program
launch counter in device memory, so one launch needs no barrier at its end
and the kernels run from CUDA graphs (no host epoch).
"""

import triton
import triton.language as tl

from .. import language as tle  # the in-kernel primitives (tle.remote, ...)


@triton.jit
def _launch_parity(counter):
    """This program's launch count modulo 2, counted in ``counter[pid]``."""
    pid = tl.program_id(0)
    n = tl.load(counter + pid)
    # Every warp reads the count before any writes the next one (warps run
    # apart: without this, a late warp read n + 1 and took the other half).
    tl.debug_barrier()
    tl.store(counter + pid, n + 1)
    return n % 2


@triton.jit
def one_shot_all_reduce_kernel(X, Y, STAGE, COUNTER, C, N, MESH: tl.constexpr, D: tl.constexpr,
                               BLOCK: tl.constexpr):
    """Y = sum over devices of X. STAGE: symmetric, 2 * N elements (two
    halves by launch parity). Every device reads every peer's whole copy."""
    ctx = tle.device_context(MESH, C)
    pid = tl.program_id(0)
    P = tl.num_programs(0)
    stage = STAGE + _launch_parity(COUNTER) * N
    nblocks = tl.cdiv(N, BLOCK)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        tl.store(stage + offs, tl.load(X + offs, mask=mask), mask=mask)
    tle.distributed_barrier(MESH, context=ctx)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for q in tl.static_range(D):
            peer = tle.remote(stage + offs, q, MESH, context=ctx)
            acc += tl.load(peer, mask=mask).to(tl.float32)
        tl.store(Y + offs, acc.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def two_shot_all_reduce_kernel(X, Y, STAGE, COUNTER, C, N, MESH: tl.constexpr, D: tl.constexpr,
                               BLOCK: tl.constexpr):
    """Y = sum over devices of X, as a reduce-scatter then an all-gather.
    Each block of BLOCK elements is cut into D slices; device r sums slice r
    of the block from every peer and publishes it, then gathers the other
    slices. STAGE: symmetric, 4 * N elements (inputs and sums, two halves
    each by launch parity). N must be a multiple of BLOCK."""
    ctx = tle.device_context(MESH, C)
    pid = tl.program_id(0)
    P = tl.num_programs(0)
    rank = ctx.rank
    parity = _launch_parity(COUNTER)
    inputs = STAGE + parity * N
    sums = STAGE + 2 * N + parity * N
    nblocks = N // BLOCK
    SLICE: tl.constexpr = BLOCK // D
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        tl.store(inputs + offs, tl.load(X + offs))
    tle.distributed_barrier(MESH, context=ctx)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + rank * SLICE + tl.arange(0, SLICE)
        acc = tl.zeros([SLICE], dtype=tl.float32)
        for q in tl.static_range(D):
            acc += tl.load(tle.remote(inputs + offs, q, MESH, context=ctx)).to(tl.float32)
        total = acc.to(Y.dtype.element_ty)
        tl.store(sums + offs, total)
        tl.store(Y + offs, total)
    tle.distributed_barrier(MESH, context=ctx)
    for b in range(pid, nblocks, P):
        for s in tl.static_range(1, D):
            q = (rank + s) % D
            offs = b * BLOCK + q * SLICE + tl.arange(0, SLICE)
            tl.store(Y + offs, tl.load(tle.remote(sums + offs, q, MESH, context=ctx)))
