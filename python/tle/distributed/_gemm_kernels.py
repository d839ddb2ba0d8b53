"""AllGather+GEMM and GEMM+ReduceScatter kernels written with TLE: a Triton
GEMM whose tiles synchronize with the other devices one by one.

- ``ag_gemm_kernel``: C = all_gather(A) @ B. The shards of A arrive in a
  symmetric buffer (copied by the copy engines, ``_gemm.py``) and each
  arrival sets a flag; a tile waits only for the flag of the shard its rows
  come from. Tiles are ordered by shard, this device's own first, then the
  order the copies land in, so compute starts at once and the copies hide
  behind it.
- ``gemm_rs_kernel``: OUT = reduce_scatter(A @ B) over row chunks, as a ring
  fused into the epilogue: at step i a device computes its partial product
  for chunk (rank + i + 1) mod D, adds the partial sum its upstream
  neighbour (rank + 1) sent for the same tile, and sends the sum downstream
  (rank - 1) with a remote store (``tle.remote``) and a per-tile signal; at
  the last step the chunk is its own and the sum goes to OUT. Each tile slot
  is a single-producer/single-consumer hand-off: the sender waits until the
  slot is free (flag 0), writes, releases flag 1; the receiver acquires,
  reads, releases flag 0. No epochs: the kernels replay from CUDA graphs.
"""

import triton
import triton.language as tl

from .. import language as tle  # the in-kernel primitives (tle.remote, ...)


@triton.jit
def _wait_equal(ptr, value):
    """Spin until the int32 at ``ptr`` is ``value`` (acquire, system scope)."""
    while tl.atomic_cas(ptr, value, value, sem="acquire", scope="sys") != value:
        pass


@triton.jit
def _tile(t, tiles_m, tiles_n, GROUP_M: tl.constexpr):
    """Tile ``t`` of a tiles_m x tiles_n grid in grouped order (L2 reuse)."""
    per_group = GROUP_M * tiles_n
    group = t // per_group
    first_m = group * GROUP_M
    size_m = tl.minimum(tiles_m - first_m, GROUP_M)
    tm = first_m + (t % per_group) % size_m
    tn = (t % per_group) // size_m
    return tm, tn


@triton.jit
def _mma(A, B, rows, cols, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """The fp32 product of A[rows, :] and B[:, cols] (row-major, K % BK == 0)."""
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    ks = tl.arange(0, BK)
    a_ptrs = A + rows[:, None] * stride_am + ks[None, :]
    b_ptrs = B + ks[:, None] * stride_bk + cols[None, :]
    for _ in range(0, K, BK):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    return acc


@triton.jit
def ag_gemm_kernel(AG, B, OUT, READY, C, M_SHARD, N, K, MESH: tl.constexpr, D: tl.constexpr, BM: tl.constexpr,
                   BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """OUT (D * M_SHARD x N) = AG @ B. AG: the gathered A (shard s in rows
    s * M_SHARD ...); READY[s] = 1 once shard s has landed (this device's own
    shard is there before the launch)."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    pid = tl.program_id(0)
    tiles_m = M_SHARD // BM
    tiles_n = N // BN
    per_shard = tiles_m * tiles_n
    step = pid // per_shard
    shard = (rank + step) % D
    tm, tn = _tile(pid % per_shard, tiles_m, tiles_n, GROUP_M)
    if step > 0:
        _wait_equal(READY + shard, 1)
    rows = shard * M_SHARD + tm * BM + tl.arange(0, BM)
    cols = tn * BN + tl.arange(0, BN)
    acc = _mma(AG, B, rows, cols, K, K, N, BM, BN, BK)
    tl.store(OUT + rows[:, None] * N + cols[None, :], acc.to(OUT.dtype.element_ty))


@triton.jit
def gemm_rs_kernel(A, B, OUT, RECV, FLAGS, C, M, N, K, MESH: tl.constexpr, D: tl.constexpr, BM: tl.constexpr,
                   BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr, COMM: tl.constexpr = True):
    """OUT (M / D x N) = rows [rank * M / D, ...) of the sum over devices of
    A @ B. RECV: symmetric, (D - 1) x (M / D) x N (one slot per step);
    FLAGS: symmetric int32, (D - 1) x tiles per chunk, zero at rest."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    pid = tl.program_id(0)
    chunk_m = M // D
    tiles_m = chunk_m // BM
    tiles_n = N // BN
    per_chunk = tiles_m * tiles_n
    step = pid // per_chunk
    t = pid % per_chunk
    chunk = (rank + step + 1) % D
    tm, tn = _tile(t, tiles_m, tiles_n, GROUP_M)
    local_rows = tm * BM + tl.arange(0, BM)
    cols = tn * BN + tl.arange(0, BN)
    acc = _mma(A, B, chunk * chunk_m + local_rows, cols, K, K, N, BM, BN, BK)
    tile = local_rows[:, None] * N + cols[None, :]
    if not COMM:  # ablation (bench/dist_gemm_rs.py --ablate): the same tiles, no ring
        tl.store(OUT + tile, acc.to(OUT.dtype.element_ty))
        return
    if step > 0:
        # The upstream neighbour's partial sum of this tile, from step - 1.
        slot = FLAGS + (step - 1) * per_chunk + t
        _wait_equal(slot, 1)
        acc += tl.load(RECV + (step - 1) * chunk_m * N + tile).to(tl.float32)
        tl.debug_barrier()
        tl.atomic_xchg(slot, 0, sem="release", scope="sys")
    if step < D - 1:
        down = (rank + D - 1) % D
        slot = tle.remote(FLAGS + step * per_chunk + t, down, MESH, context=ctx)
        _wait_equal(slot, 0)
        tl.store(tle.remote(RECV + step * chunk_m * N + tile, down, MESH, context=ctx), acc.to(RECV.dtype.element_ty))
        tl.debug_barrier()
        tl.atomic_xchg(slot, 1, sem="release", scope="sys")
    else:
        tl.store(OUT + tile, acc.to(OUT.dtype.element_ty))


@triton.jit
def gemm_kernel(A, B, OUT, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """The same GEMM alone (no communication): the "GEMM part" of the benchmarks."""
    pid = tl.program_id(0)
    tm, tn = _tile(pid, M // BM, N // BN, GROUP_M)
    rows = tm * BM + tl.arange(0, BM)
    cols = tn * BN + tl.arange(0, BN)
    acc = _mma(A, B, rows, cols, K, K, N, BM, BN, BK)
    tl.store(OUT + rows[:, None] * N + cols[None, :], acc.to(OUT.dtype.element_ty))
