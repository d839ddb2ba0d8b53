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
  (rank - 1) by a TMA store into that device's slot, with a per-tile signal
  (``tle.remote``); at the last step the chunk is its own and the sum goes
  to OUT. Each tile slot is a single-producer/single-consumer hand-off with
  a READY flag on the receiver and a FREE flag on the sender (see the
  kernel). No epochs: the kernels replay from CUDA graphs.

Both are persistent (one program per SM) and read A and B by TMA.
"""

import triton
import triton.language as tl

from .. import language as tle  # the in-kernel primitives (tle.remote, ...)


@triton.jit
def _await(ptr, value, LIMIT: tl.constexpr = 0):
    """Spin until the 32-bit word at ``ptr`` is ``value`` (a system-scope
    acquire load), then order the async proxy (TMA) after it; returns the
    word, i.e. ``value``. The caller feeds the result into the coordinates
    of the TMA loads it guards (``+ (r - value)``, zero at run time), so no
    schedule can hoist a load above the wait. One inline-asm op, not a loop:
    the software pipeliner keeps the persistent loop's structure. Every
    thread polls: a caller that then changes the word must
    ``tl.debug_barrier()`` first. ``LIMIT`` > 0 (the debug mode,
    ``TLE_DEVICE_WAIT_LIMIT``): after that many polls the kernel traps (a
    CUDA error at the next synchronization instead of a hang)."""
    if LIMIT > 0:
        return tl.inline_asm_elementwise(
            "{ .reg .pred p; .reg .b32 v, c; mov.b32 c, 0; "
            "spin: ld.acquire.sys.global.b32 v, [$1]; setp.eq.b32 p, v, $2; @p bra done; "
            f"add.s32 c, c, 1; setp.lt.s32 p, c, {LIMIT}; @p bra spin; trap; "
            "done: fence.proxy.async.global; mov.b32 $0, v; }",
            "=r,l,r", [ptr, value], dtype=tl.int32, is_pure=False, pack=1)
    return tl.inline_asm_elementwise(
        "{ .reg .pred p; .reg .b32 v; spin: ld.acquire.sys.global.b32 v, [$1]; setp.ne.b32 p, v, $2; "
        "@p bra spin; fence.proxy.async.global; mov.b32 $0, v; }",
        "=r,l,r", [ptr, value], dtype=tl.int32, is_pure=False, pack=1)


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
def _mma(a_desc, b_desc, row, col, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """The fp32 product of A[row:row+BM, :] and B[:, col:col+BN], both read
    by TMA (``K % BK == 0``)."""
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([row, k]), b_desc.load([k, col]), acc)
    return acc


@triton.jit
def _store(c_desc, row, col, acc, BN: tl.constexpr, SPLIT: tl.constexpr):
    """``c_desc[row, col:col+BN] = acc`` by TMA, in two column halves when
    ``SPLIT`` (``c_desc``'s block is then BN / 2 wide): half the epilogue's
    registers and staging buffer."""
    if SPLIT:
        c0, c1 = tl.split(tl.permute(tl.reshape(acc, (acc.shape[0], 2, BN // 2)), (0, 2, 1)))
        c_desc.store([row, col], c0.to(c_desc.dtype))
        c_desc.store([row, col + BN // 2], c1.to(c_desc.dtype))
    else:
        c_desc.store([row, col], acc.to(c_desc.dtype))


@triton.jit
def _halves(acc, BM: tl.constexpr, BN: tl.constexpr):
    """``acc``'s column halves, ``acc[:, :BN / 2]`` and ``acc[:, BN / 2:]``."""
    return tl.split(tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1)))


@triton.jit
def _store_halves_async(c_desc, buf0, buf1, row, col, c0, c1, BN: tl.constexpr):
    """``c_desc[row, col:col+BN] = [c0, c1]`` by two asynchronous TMA stores
    from ``buf0`` / ``buf1`` (``c_desc``'s block is BM x BN / 2), not waited
    for: the SM goes on to the next tile while the TMA unit reads the buffers
    out (a store into a peer's memory drains at NVLink's pace; Triton's
    ``c_desc.store`` would wait for it). The stores of the previous call are
    waited for first, before the buffers are written again."""
    tle.gpu.tma_store_wait(0)
    tl.debug_barrier()  # every thread sees the buffers free before any writes them
    tle.gpu.local_store(buf0, c0.to(c_desc.dtype))
    tle.gpu.local_store(buf1, c1.to(c_desc.dtype))
    tle.gpu.wgmma_shared_operand_fence()
    tle.gpu.copy(buf0, c_desc, [c0.shape[0], BN // 2], [row, col], is_async=True)
    tle.gpu.copy(buf1, c_desc, [c0.shape[0], BN // 2], [row, col + BN // 2], is_async=True)


@triton.jit
def _store_async(c_desc, buf0, buf1, row, col, acc, BM: tl.constexpr, BN: tl.constexpr):
    """``_store_halves_async`` of ``acc``'s column halves."""
    c0, c1 = _halves(acc, BM, BN)
    _store_halves_async(c_desc, buf0, buf1, row, col, c0, c1, BN)


@triton.jit
def ag_gemm_kernel(AG, B, OUT, READY, C, M_SHARD, N, K, MESH: tl.constexpr, D: tl.constexpr, BM: tl.constexpr,
                   BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr,
                   SPLIT: tl.constexpr, WAIT_LIMIT: tl.constexpr = 0, ASYNC_STORE: tl.constexpr = False):
    """OUT (D * M_SHARD x N) = AG @ B, persistent: program p takes tiles p,
    p + NUM_SMS, ... AG, B, OUT: TMA descriptors (blocks BM x BK, BK x BN,
    BM x BN or BM x BN / 2 with SPLIT); AG is the gathered A (shard s in rows
    s * M_SHARD ...). READY[s] = 1 once shard s has landed (this device's own
    flag is set before the launch). ASYNC_STORE (with SPLIT): tiles leave by
    ``_store_async``, the epilogue overlapping the next tile's main loop."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    tiles_m = M_SHARD // BM
    tiles_n = N // BN
    per_shard = tiles_m * tiles_n
    if ASYNC_STORE:
        tl.static_assert(SPLIT, "ASYNC_STORE stages tiles in two column halves (SPLIT)")
        buf0 = tle.gpu.alloc([BM, BN // 2], dtype=OUT.dtype)
        buf1 = tle.gpu.alloc([BM, BN // 2], dtype=OUT.dtype)
    for t in tl.range(tl.program_id(0), D * per_shard, NUM_SMS):
        shard = (rank + t // per_shard) % D
        tm, tn = _tile(t % per_shard, tiles_m, tiles_n, GROUP_M)
        row = shard * M_SHARD + tm * BM + (_await(READY + shard, 1, WAIT_LIMIT) - 1)
        acc = _mma(AG, B, row, tn * BN, K, BM, BN, BK)
        if ASYNC_STORE:
            _store_async(OUT, buf0, buf1, row, tn * BN, acc, BM, BN)
        else:
            _store(OUT, row, tn * BN, acc, BN, SPLIT)
    if ASYNC_STORE:
        tle.gpu.tma_store_wait(0)


@triton.jit
def _stores_done():
    """Wait until this thread's TMA stores are complete (written, not just
    read out of shared memory) and order them before later generic-proxy
    accesses; returns 0. Threads that issued none pass straight through."""
    return tl.inline_asm_elementwise("cp.async.bulk.wait_group 0; fence.proxy.async.global; mov.b32 $0, 0;", "=r", [],
                                     dtype=tl.int32, is_pure=False, pack=1)


@triton.jit
def _store_release(ptr, value):
    """``*ptr = value`` as a system-scope release store by one thread of the
    program (thread 0), fire and forget (no reply crosses NVLink, unlike an
    atomic exchange). Callers put a CTA barrier before it: the release is
    cumulative, so it covers what every thread did before the barrier.

    One thread, not every one: a flag that the other side takes back to 0
    once it has seen it must be raised once. With every thread raising it,
    a late copy of the raise can land after the take and leave the flag up
    at rest, where the next call reads a slot that has not arrived."""
    return tl.inline_asm_elementwise(
        "{ .reg .pred p; .reg .b32 t; mov.u32 t, %tid.x; setp.eq.u32 p, t, 0; "
        "@p st.release.sys.global.b32 [$1], $2; mov.b32 $0, 0; }", "=r,l,r", [ptr, value], dtype=tl.int32,
        is_pure=False, pack=1)


@triton.jit
def _hand_back(ready, free_up):
    """The receiver's end of a slot: thread 0 takes the slot's READY entry
    (``*ready``, local) back to 0, then raises the sender's FREE entry
    (``*free_up``, remote) by a system-scope release store. The same thread
    does both, so the take is ordered before the raise: the sender cannot
    send the next call's tile (and raise READY again) before the take lands.
    Callers put a CTA barrier before it (every thread has read the slot)."""
    return tl.inline_asm_elementwise(
        "{ .reg .pred p; .reg .b32 t; mov.u32 t, %tid.x; setp.eq.u32 p, t, 0; "
        "@p st.global.b32 [$1], 0; @p st.release.sys.global.b32 [$2], 1; mov.b32 $0, 0; }", "=r,l,l",
        [ready, free_up], dtype=tl.int32, is_pure=False, pack=1)


@triton.jit
def _publish(READY, slot, down, MESH: tl.constexpr, ctx):
    """Raise device ``down``'s READY entry of ``slot`` once the TMA store of
    its tile is complete (the issuing thread waits; the CTA barrier orders
    every thread after it)."""
    slot += _stores_done()
    tl.debug_barrier()
    _store_release(tle.remote(READY + slot, down, MESH, context=ctx), 1)


@triton.jit
def _now():
    """The SM's nanosecond clock (``%globaltimer``), for ``PROF``."""
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)


@triton.jit
def _mark(PROF, i, j):
    """PROF[program, i, j] = now (8 marks per tile, the program's first 64
    tiles; later ones are not marked)."""
    if PROF is not None:
        tl.store(PROF + (tl.program_id(0) * 64 + i) * 8 + j, _now(), mask=i < 64)


@triton.jit
def gemm_rs_kernel(A, B, OUT, RECV, RECV_DOWN, FLAGS, C, M, N, K, MESH: tl.constexpr, D: tl.constexpr,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                   NUM_SMS: tl.constexpr, SPLIT: tl.constexpr, COMM: tl.constexpr = 2,
                   WAIT_LIMIT: tl.constexpr = 0, PROF=None):
    """OUT (M / D x N) = rows [rank * M / D, ...) of the sum over devices of
    A @ B, persistent (program p takes tiles p, p + NUM_SMS, ...). A, B: TMA
    descriptors (blocks BM x BK, BK x BN); OUT and RECV_DOWN: TMA
    descriptors of blocks BM x BN / 2: the result and the downstream
    device's receive slots. RECV: a TMA descriptor of the same blocks over
    this device's receive slots (symmetric, (D - 1) x (M / D) x N, one slot
    per step, seen as (D - 1) * M / D x N). FLAGS: symmetric int32, 2 x
    (D - 1) x tiles per chunk: READY (0 at rest) then FREE (1 at rest), one
    of each per slot. PROF: None, or int64 pointers for the benchmark's
    profile (``_mark``: %globaltimer at 7 points of each tile).

    A slot is a single-producer, single-consumer hand-off whose two flags
    each live where they are polled, so no wait crosses NVLink: the sender
    waits for its own FREE entry (set back to 1 by the receiver once it has
    read the slot), takes it (after a CTA barrier: every thread polls, and
    a thread that took it back to 0 early would leave a slower one spinning
    for ever), stores the tile and raises the receiver's
    READY entry; the receiver waits for its READY, reads the tile by TMA
    into its staging buffers (the last tile's stores have left them by
    then), takes READY back and raises the sender's FREE as soon as the
    bytes are in shared memory, then adds them. Both raises are release
    stores by one thread (fire and forget; see ``_store_release``), the
    receiver's in the thread that took READY back (``_hand_back``). The
    tile leaves by an asynchronous TMA store from the
    kernel's own staging buffers (``_store_async``), which the SM does not
    wait for: its READY is raised at the next tile's epilogue (or after the
    loop), so the NVLink transfer overlaps the next tile's main loop instead
    of stalling every SM at once (persistent programs reach their epilogues
    together). SPLIT must be set (the two staging halves, 2 x BM x BN / 2,
    fit beside the main loop's stages where a third whole tile would not)."""
    tl.static_assert(SPLIT, "gemm_rs_kernel stages its tiles in two column halves (SPLIT)")
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    down = (rank + D - 1) % D
    up = (rank + 1) % D
    chunk_m = M // D
    tiles_m = chunk_m // BM
    tiles_n = N // BN
    per_chunk = tiles_m * tiles_n
    READY = FLAGS
    FREE = FLAGS + (D - 1) * per_chunk
    pending = -1  # the slot whose tile is in flight downstream
    buf0 = tle.gpu.alloc([BM, BN // 2], dtype=OUT.dtype)
    buf1 = tle.gpu.alloc([BM, BN // 2], dtype=OUT.dtype)
    rbar = tle.gpu.alloc_barrier(arrive_count=2)  # the upstream partial's two TMA loads
    nrecv = 0
    it = 0
    for pid in tl.range(tl.program_id(0), D * per_chunk, NUM_SMS):
        step = pid // per_chunk
        t = pid % per_chunk
        chunk = (rank + step + 1) % D
        tm, tn = _tile(t, tiles_m, tiles_n, GROUP_M)
        _mark(PROF, it, 0)
        acc = _mma(A, B, chunk * chunk_m + tm * BM, tn * BN, K, BM, BN, BK)
        _mark(PROF, it, 1)
        # COMM: 2 the ring; 0 and 1 are the benchmark's ablations (bench/dist_gemm_rs.py), not a reduce-scatter:
        # 0 the same tiles without the ring, 1 the sends alone (no flag waits, nothing received).
        if COMM == 0:
            _store_async(OUT, buf0, buf1, tm * BM, tn * BN, acc, BM, BN)
        else:
            if COMM == 2 and pending >= 0:
                _publish(READY, pending, down, MESH, ctx)
                pending = -1
            _mark(PROF, it, 2)
            c0, c1 = _halves(acc, BM, BN)
            if (step > 0) & (COMM == 2):
                # The upstream neighbour's partial sum of this tile, from step - 1.
                rslot = (step - 1) * per_chunk + t
                r = _await(READY + rslot, 1, WAIT_LIMIT)  # (an asm with side effects: the loads below stay after it)
                _mark(PROF, it, 3)
                rrow = (step - 1) * chunk_m + tm * BM + (r - 1)
                tle.gpu.tma_store_wait(0)
                tl.debug_barrier()  # the staging buffers are free (the last tile's stores have read them)
                tle.gpu.copy(RECV, buf0, [BM, BN // 2], [rrow, tn * BN], barrier=rbar)
                tle.gpu.copy(RECV, buf1, [BM, BN // 2], [rrow, tn * BN + BN // 2], barrier=rbar)
                tle.gpu.barrier_wait(rbar, nrecv)
                nrecv += 1
                # The slot is read (its bytes are in shared memory, which every thread has seen): hand it back
                # at once, before the adds.
                _hand_back(READY + rslot, tle.remote(FREE + rslot, up, MESH, context=ctx))
                c0 += tle.gpu.local_load(buf0).to(tl.float32)
                c1 += tle.gpu.local_load(buf1).to(tl.float32)
                tl.debug_barrier()  # every thread has read the buffers before any writes them again
            _mark(PROF, it, 4)
            if step < D - 1:
                slot = step * per_chunk + t
                free = 1
                if COMM == 2:
                    free = _await(FREE + slot, 1, WAIT_LIMIT)  # downstream has read what the last call sent here
                    tl.debug_barrier()  # every thread (each polls) has seen 1 before any takes it back to 0
                    tl.store(FREE + slot, 0)
                _mark(PROF, it, 5)
                _store_halves_async(RECV_DOWN, buf0, buf1, step * chunk_m + tm * BM + (free - 1), tn * BN, c0, c1, BN)
                pending = slot
            else:
                _mark(PROF, it, 5)
                _store_halves_async(OUT, buf0, buf1, tm * BM, tn * BN, c0, c1, BN)
        _mark(PROF, it, 6)
        it += 1
    if COMM == 2:
        if pending >= 0:
            _publish(READY, pending, down, MESH, ctx)
    tle.gpu.tma_store_wait(0)


@triton.jit
def gemm_kernel(A, B, OUT, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                NUM_SMS: tl.constexpr, SPLIT: tl.constexpr):
    """The same GEMM alone (no communication): the "GEMM part" of the
    benchmarks, and plain Triton (no TLE primitive: the benchmarks'
    ``triton`` provider). A, B, OUT: TMA descriptors as for
    ``ag_gemm_kernel``."""
    tiles_m = M // BM
    tiles_n = N // BN
    for t in tl.range(tl.program_id(0), tiles_m * tiles_n, NUM_SMS):
        tm, tn = _tile(t, tiles_m, tiles_n, GROUP_M)
        acc = _mma(A, B, tm * BM, tn * BN, K, BM, BN, BK)
        _store(OUT, tm * BM, tn * BN, acc, BN, SPLIT)
