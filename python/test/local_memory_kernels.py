"""Kernels using tle.gpu buffers, local pointers and cluster pointers.

Shared by the CPU tests (compile to PTX, inspect) and the GPU tests (run,
compare with torch), so both test the same code.
"""

import contextlib

import triton
import triton.language as tl

import tle
from tle import _bridge

BARRIER_PASS = "triton-tle-insert-local-pointer-barriers"


@contextlib.contextmanager
def without_local_pointer_barriers():
    """TLE's TTGIR stage without BARRIER_PASS, for the controls that show what
    the pass prevents. Compiles inside get their own cache entries (the
    fingerprint hashes the pipelines); launch a kernel specialization not
    compiled outside (see late_writer_transpose's VARIANT)."""
    after, pipeline = _bridge.STAGES["ttgir"]
    # (the registered pipeline refuses to disable a pass it does not run)
    _bridge.STAGES["ttgir"] = (after, _bridge.with_options(pipeline, disable=[BARRIER_PASS]))
    _bridge.fingerprint.cache_clear()
    try:
        yield
    finally:
        _bridge.STAGES["ttgir"] = (after, pipeline)
        _bridge.fingerprint.cache_clear()

CLUSTER2 = tl.constexpr(tle.device_mesh({"block_cluster": [("cluster_x", 2)]}))


@triton.jit
def histogram(X, OUT, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    """OUT[b] = #{i < n : X[i] == b}, counted in shared memory with atomics."""
    counts = tle.gpu.alloc([BINS], dtype=tl.int32, scope=tle.gpu.smem)
    bins = tle.gpu.local_ptr(counts, (tl.arange(0, BINS),))
    tl.store(bins, tl.zeros([BINS], dtype=tl.int32))
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(X + offs, mask=offs < n, other=0)
        tl.atomic_add(tle.gpu.local_ptr(counts, (x,)), 1, mask=(offs < n) & (x >= 0) & (x < BINS))
    tl.store(OUT + tl.arange(0, BINS), tl.load(bins))


@triton.jit
def transpose_tile(X, Y, M: tl.constexpr, N: tl.constexpr):
    """Y (N x M) = X (M x N)^T: the tile is copied into shared memory and read
    back column by column through 2-D local pointers."""
    tile = tle.gpu.alloc([M, N], dtype=tl.float32)
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    tle.gpu.copy(X + rows[:, None] * N + cols[None, :], tile, [M, N])
    t_rows = tl.broadcast_to(tl.arange(0, M)[None, :], (N, M))
    t_cols = tl.broadcast_to(tl.arange(0, N)[:, None], (N, M))
    vals = tl.load(tle.gpu.local_ptr(tile, (t_rows, t_cols)))
    tl.store(Y + tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :], vals)


# Holds the threads of warp 0 back ~200 us per element (a %globaltimer spin)
# and passes the value through: a writer that is late on purpose.
_HOLD_WARP0 = tl.constexpr("{ .reg .pred p, q; .reg .u32 t; .reg .u64 t0, t1; "
               "mov.u32 t, %tid.x; setp.lt.u32 p, t, 32; mov.u64 t0, %globaltimer; "
               "SPIN: @!p bra DONE; mov.u64 t1, %globaltimer; sub.u64 t1, t1, t0; "
               "setp.lt.u64 q, t1, 200000; @q bra SPIN; "
               "DONE: mov.b32 $0, $1; }")


@triton.jit
def late_writer_transpose(Y, seed, M: tl.constexpr, N: tl.constexpr, VARIANT: tl.constexpr = 0):
    """Y (N x M, int32) = T^T for T[i, j] = i * N + j + seed, with T built in
    shared memory through local pointers and warp 0 made late: it writes its
    rows of T ~200 us per element after the other warps, which then read
    (transposed) what warp 0 wrote. Only the barrier
    triton-tle-insert-local-pointer-barriers puts between the pointer store and
    the pointer load makes them wait; without it the result is wrong (the
    differential control in test_local_memory_gpu.py). T is computed, not
    loaded, so nothing else (no layout conversion, whose own barrier would
    wait for warp 0) stands between the store and the load; `seed` differs per
    launch so shared memory left by an earlier launch cannot pass for T.
    VARIANT only keeps compiles apart in Triton's in-memory cache."""
    tile = tle.gpu.alloc([M, N], dtype=tl.int32, scope=tle.gpu.smem)
    rows = tl.broadcast_to(tl.arange(0, M)[:, None], (M, N))
    cols = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))
    t = tl.inline_asm_elementwise(_HOLD_WARP0, "=r,r", [rows * N + cols + seed], dtype=tl.int32,
                                  is_pure=False, pack=1)
    tl.store(tle.gpu.local_ptr(tile, (rows, cols)), t)
    t_rows = tl.broadcast_to(tl.arange(0, M)[None, :], (N, M))
    t_cols = tl.broadcast_to(tl.arange(0, N)[:, None], (N, M))
    vals = tl.load(tle.gpu.local_ptr(tile, (t_rows, t_cols)))
    tl.store(Y + tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :], vals)


@triton.jit
def disjoint_stores_transpose(Y, seed, M: tl.constexpr, N: tl.constexpr, OVERLAP: tl.constexpr = 0,
                              VARIANT: tl.constexpr = 0):
    """Y (2N x M, int32) = T^T for T[i, c] = i * 2N + c + seed, T (M x 2N) written in
    shared memory by two stores through local pointers: the even columns, then the
    odd ones (each thread writes both halves of its pairs; neighbouring lanes own
    neighbouring pairs). The index sets are disjoint constants, so
    triton-tle-insert-local-pointer-barriers proves it and puts no barrier between
    the two stores, only one before the transposed read (other threads read what a
    thread wrote). The racecheck control (racecheck_local_memory.py) shows that
    leaving the stores unsynchronized is race-free. OVERLAP = 1: the second store
    writes columns 2j + 2 (mod 2N) instead, the first store's elements of the
    neighbouring lane: the pass keeps a barrier between the stores (T's odd columns
    then stay unwritten: Y is not meaningful). VARIANT only keeps compiles apart in
    Triton's in-memory cache."""
    tile = tle.gpu.alloc([M, 2 * N], dtype=tl.int32, scope=tle.gpu.smem)
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    even = rows * (2 * N) + 2 * cols + seed
    tl.store(tle.gpu.local_ptr(tile, (rows, 2 * cols)), even)
    if OVERLAP:
        second = (2 * cols + 2) % (2 * N)
    else:
        second = 2 * cols + 1
    tl.store(tle.gpu.local_ptr(tile, (rows, second)), even + 1)
    t = tl.load(tle.gpu.local_ptr(tile, (tl.arange(0, M)[None, :], tl.arange(0, 2 * N)[:, None])))
    tl.store(Y + tl.arange(0, 2 * N)[:, None] * M + tl.arange(0, M)[None, :], t)


@triton.jit
def pingpong_rotate(X, Y, steps, N: tl.constexpr, SAME_SLOT: tl.constexpr = 0):
    """Y[j] = X[(j + steps) % N] + steps through a two-slot buffer: step i
    reads slot i % 2 one position on ((j + 1) % N: another thread's element)
    and writes slot (i + 1) % 2. In one iteration the two slots are
    different (triton-tle-insert-local-pointer-barriers proves it: residues
    of i whose constants differ mod 2), so the read and the write need no
    barrier between them; one barrier ends each step (the next step reads
    what this one wrote). SAME_SLOT = 1 writes slot (i + 2) % 2 instead, the
    slot just read: the pass keeps a barrier between them (the result is then
    not the rotation)."""
    buf = tle.gpu.alloc([2, N], dtype=tl.int32, scope=tle.gpu.smem)
    j = tl.arange(0, N)
    zero = tl.zeros([N], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(buf, (zero, j)), tl.load(X + j))
    for i in range(steps):
        v = tl.load(tle.gpu.local_ptr(buf, (zero + i % 2, (j + 1) % N)))
        tl.store(tle.gpu.local_ptr(buf, (zero + (i + 1 + SAME_SLOT) % 2, j)), v + 1)
    tl.store(Y + j, tl.load(tle.gpu.local_ptr(buf, (zero + steps % 2, j))))


@triton.jit
def masked_dot_rows(A, B, Y, n_rows, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """Y = A @ B in rows < n_rows, -1 elsewhere, through a [M, N] buffer filled
    with -1 and then stored the dot's result with a row mask through its
    full-view local pointers (a read-modify-write tle.local_store), read back
    whole. The dot's result is in an MMA layout: triton-tle-optimize-local-
    pointer-stores builds the read-modify-write in it (the row mask recomputed
    from its range) instead of converting the tile to the pointers' layout."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(A + rm[:, None] * K + rk[None, :])
    b = tl.load(B + rk[:, None] * N + rn[None, :])
    buf = tle.gpu.alloc([M, N], dtype=tl.float32, scope=tle.gpu.smem)
    p = tle.gpu.local_ptr(buf)
    tl.store(p, tl.full([M, N], -1.0, tl.float32))
    tl.store(p, tl.dot(a, b), mask=(rm < n_rows)[:, None])
    tl.store(Y + rm[:, None] * N + rn[None, :], tle.gpu.local_load(buf))


@triton.jit
def shifted_rows_2d(X, Y, R: tl.constexpr, C: tl.constexpr):
    """Y[r, c] = 2 X[r, (c + 1) % C] through a [R, C] buffer written and read with 2-D
    local pointers (row index [R, 1], column index [1, C]). Coalesce sees the pointers
    as opaque and lays the accesses out column-major; select-encodings gives them the
    row-major layout of the global load / store (so the store vectorizes)."""
    buf = tle.gpu.alloc([R, C], dtype=tl.float32, scope=tle.gpu.smem)
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(X + r * C + c)
    tl.store(tle.gpu.local_ptr(buf, (r, c)), x * 2)
    v = tl.load(tle.gpu.local_ptr(buf, (r, (c + 1) % C)))
    tl.store(Y + r * C + c, v)


@triton.jit
def stage_roundtrip(X, Y, M: tl.constexpr, N: tl.constexpr):
    """Y = X through a whole-buffer store/load (a memdesc buffer) and a copy back."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    buf = tle.gpu.alloc([M, N], dtype=tl.float16, init_value=tl.load(X + offs))
    doubled = tle.gpu.local_load(buf) * 2
    tle.gpu.local_store(buf, doubled)
    tle.gpu.copy(buf, Y + offs, [M, N])


@triton.jit
def stage_roundtrip_methods(X, Y, M: tl.constexpr, N: tl.constexpr):
    """stage_roundtrip written with FlagTree's buffer methods (buf.store(value),
    buf.load()) and a tle.gpu.range loop (Triton's tl.range) adding 1 twice."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    buf = tle.gpu.alloc([M, N], dtype=tl.float16)
    buf.store(tl.load(X + offs))
    for _ in tle.gpu.range(0, 2, num_stages=1):
        buf.store(buf.load() + 1)
    buf.store(buf.load() * 2)
    tle.gpu.copy(buf, Y + offs, [M, N])


@triton.jit
def reshaped_view_gather(X, Y, Z, R: tl.constexpr, C: tl.constexpr, G: tl.constexpr):
    """FlagTree's buffered_tensor.reshape: X (R x C) copied into a buffer, read
    back through the [R, G, C / G] view's local pointers into Y (the same
    row-major elements: Y == X); then the view written through load() /
    store() (x 2) and copied out as [R, G, C / G] into Z by a helper it is
    passed to; and one element set through a scalar-indexed pointer into a
    second view ([R * G, C / G])."""
    W: tl.constexpr = C // G
    src = X + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    buf = tle.gpu.alloc([R, C], dtype=tl.float16)
    tle.gpu.copy(src, buf, [R, C])
    view = buf.reshape([R, G, W])
    rows = tl.arange(0, R)[:, None, None]
    groups = tl.arange(0, G)[None, :, None]
    cols = tl.arange(0, W)[None, None, :]
    flat = rows * C + groups * W + cols
    tl.store(Y + flat, tl.load(tle.gpu.local_ptr(view, (rows, groups, cols))))
    view.store(view.load() * 2)
    flat_view = view.reshape([R * G, W])
    tl.store(tle.gpu.local_ptr(flat_view, (1, 2)), -1.0)
    _copy_out(view, Z + flat, R, G, W)


@triton.jit
def _copy_out(view, ptrs, R: tl.constexpr, G: tl.constexpr, W: tl.constexpr):
    """A view crosses into a @triton.jit function like a buffer."""
    tle.gpu.copy(view, ptrs, [R, G, W])


@triton.jit
def segment_max(X, OUT, n, BLOCK: tl.constexpr, SEGS: tl.constexpr):
    """OUT[s] = max over i with i % SEGS == s of X[i] (int32), via tl.atomic_max
    on local pointers, and a scalar-indexed slot counting the elements."""
    best = tle.gpu.alloc([SEGS], dtype=tl.int32)
    seg = tl.arange(0, SEGS)
    tl.store(tle.gpu.local_ptr(best, (seg,)), tl.full([SEGS], -2147483648, tl.int32))
    total = tle.gpu.alloc([1], dtype=tl.int32)
    slot = tle.gpu.local_ptr(total, (0,))
    tl.store(slot, 0)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(X + offs, mask=offs < n, other=0)
        tl.atomic_max(tle.gpu.local_ptr(best, (offs % SEGS,)), x, mask=offs < n)
        tl.atomic_add(slot, tl.sum((offs < n).to(tl.int32)), sem="relaxed", scope="cta")
    tl.store(OUT + seg, tl.load(tle.gpu.local_ptr(best, (seg,))))
    tl.store(OUT + SEGS, tl.load(slot))


@triton.jit
def claim_slots(OUT, SLOTS: tl.constexpr):
    """Every element tries tl.atomic_cas(slot, 0, id + 1) on slot id % SLOTS: each
    slot ends up holding exactly one winner."""
    slots = tle.gpu.alloc([SLOTS], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(slots, (tl.arange(0, SLOTS),)), tl.zeros([SLOTS], tl.int32))
    ids = tl.arange(0, 4 * SLOTS)
    old = tl.atomic_cas(tle.gpu.local_ptr(slots, (ids % SLOTS,)), tl.zeros_like(ids), ids + 1)
    won = (old == 0).to(tl.int32)
    tl.store(OUT + tl.arange(0, SLOTS), tl.load(tle.gpu.local_ptr(slots, (tl.arange(0, SLOTS),))))
    tl.store(OUT + SLOTS, tl.sum(won))


@triton.jit
def cluster_exchange(OUT, N: tl.constexpr, MESH: tl.constexpr):
    """A cluster of 2 CTAs: each fills its buffer with rank-specific values, then
    reads its peer's buffer through remote pointers.
    OUT[cluster, rank, i] = 1000 * (1 - rank) + i + 100000 * cluster."""
    rank = tle.shard_id(MESH, "cluster_x")
    cluster = tl.program_id(0) // 2  # a program is a CTA, 2 per cluster
    buf = tle.gpu.alloc([N], dtype=tl.int32)
    offs = tl.arange(0, N)
    mine = tle.gpu.local_ptr(buf, (offs,))
    tl.store(mine, 1000 * rank + offs + 100000 * cluster)
    tle.distributed_barrier(MESH)
    peer = tle.remote(buf, 1 - rank, scope=MESH)
    vals = tl.load(tle.gpu.local_ptr(peer, (offs,)))
    tl.store(OUT + (cluster * 2 + rank) * N + offs, vals)


@triton.jit
def cluster_histogram(X, OUT, n, BLOCK: tl.constexpr, BINS: tl.constexpr, MESH: tl.constexpr):
    """Both CTAs of a cluster count half of X each into CTA 0's shared histogram
    with remote atomics; CTA 0 writes the result."""
    rank = tle.shard_id(MESH, "cluster_x")
    counts = tle.gpu.alloc([BINS], dtype=tl.int32)
    bins = tle.gpu.local_ptr(counts, (tl.arange(0, BINS),))
    tl.store(bins, tl.zeros([BINS], dtype=tl.int32))
    tle.distributed_barrier(MESH)
    home = tle.remote(counts, 0, scope=MESH)
    for start in range(rank * BLOCK, n, 2 * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(X + offs, mask=offs < n, other=0)
        tl.atomic_add(tle.gpu.local_ptr(home, (x,)), 1, mask=(offs < n) & (x >= 0) & (x < BINS), scope="gpu")
    tle.distributed_barrier(MESH)
    if rank == 0:
        tl.store(OUT + tl.arange(0, BINS), tl.load(bins))


@triton.jit
def ticket_rounds(OUT, N: tl.constexpr, ROUNDS: tl.constexpr):
    """N counters in shared memory, fewer than the CTA's threads (each
    element is held by several threads): ROUNDS times, every counter is
    incremented once and the old value kept, OUT[r, i] = r; then a scalar
    atomic, whose old value every thread gets, OUT[ROUNDS, 0] = 0 and the
    counter's final value OUT[ROUNDS, 1] = 1 + (CAS of 1 -> 7 succeeded)."""
    offs = tl.arange(0, N)
    buf = tle.gpu.alloc([N], dtype=tl.int32)
    ptrs = tle.gpu.local_ptr(buf, (offs, ))
    tl.store(ptrs, tl.zeros([N], tl.int32))
    for r in range(ROUNDS):
        old = tl.atomic_add(ptrs, 1, sem="relaxed", scope="cta")
        tl.store(OUT + r * N + offs, old)
    word = tle.gpu.alloc([1], dtype=tl.int32)
    w = tle.gpu.local_ptr(word, (0, ))
    tl.store(w, 0)
    first = tl.atomic_add(w, 1, sem="relaxed", scope="cta")
    swapped = tl.atomic_cas(w, 1, 7, sem="acq_rel", scope="cta")
    tl.store(OUT + ROUNDS * N, first)
    tl.store(OUT + ROUNDS * N + 1, swapped + (tl.load(w) == 7).to(tl.int32))


@triton.jit
def cluster_prefix(COUNTS, OUT, N: tl.constexpr, MESH: tl.constexpr):
    """FlagTree's MoE-align step: every CTA of a 2-CTA cluster adds its N
    counts (N below the CTA's thread count) to rank 0's totals with one
    remote atomic and keeps the old values, its prefix: OUT[cluster, rank]
    = the prefix, and rank 0 writes the totals to OUT[cluster, 2]."""
    pid = tl.program_id(0)
    cluster = pid // 2
    rank = tle.shard_id(MESH, "cluster_x")
    offs = tl.arange(0, N)
    totals = tle.gpu.alloc([N], dtype=tl.int32)
    if rank == 0:
        tl.store(tle.gpu.local_ptr(totals, (offs, )), tl.zeros([N], tl.int32))
    tle.distributed_barrier(MESH)
    counts = tl.load(COUNTS + pid * N + offs)
    home = tle.gpu.local_ptr(tle.remote(totals, 0, scope=MESH), (offs, ))
    prefix = tl.atomic_add(home, counts, sem="relaxed", scope="cta")
    tl.store(OUT + (cluster * 3 + rank) * N + offs, prefix)
    tle.distributed_barrier(MESH)
    if rank == 0:
        tl.store(OUT + (cluster * 3 + 2) * N + offs, tl.load(tle.gpu.local_ptr(totals, (offs, ))))


@triton.jit
def fill_shared(VAL: tl.constexpr):
    """Fills 224 KiB of the CTA's shared memory with the 32-bit pattern VAL
    (-1: every bf16 / fp16 / fp32 in it a NaN): what a later kernel's CTA on
    that SM finds in memory it has not written."""
    a = tle.gpu.alloc([32768], dtype=tl.int32, scope=tle.gpu.smem)
    b = tle.gpu.alloc([16384], dtype=tl.int32, scope=tle.gpu.smem)
    c = tle.gpu.alloc([8192], dtype=tl.int32, scope=tle.gpu.smem)
    tl.store(tle.gpu.local_ptr(a), tl.full([32768], VAL, tl.int32))
    tl.store(tle.gpu.local_ptr(b), tl.full([16384], VAL, tl.int32))
    tl.store(tle.gpu.local_ptr(c), tl.full([8192], VAL, tl.int32))


@triton.jit
def gathered_rows_dot(Q, KV, IDS, Y, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    """Y = Q @ KV[ids]^T in the columns with ids >= 0, -inf in the others
    (FlagTree's sparse-MLA staging): the gathered rows are stored into a
    buffer with a row mask and the whole buffer feeds a dot accumulating onto
    -inf in the invalid columns. The rows the mask leaves out are never
    written: triton-tle-zero-partial-buffers zeroes the buffer at its
    allocation, so they add zeros to -inf, not what an earlier kernel left
    there (a NaN would make those columns NaN)."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    ids = tl.load(IDS + rn)
    ok = ids >= 0
    safe = tl.where(ok, ids, 0)
    kv = tl.load(KV + safe[:, None] * D + rd[None, :], mask=ok[:, None], other=0.0)
    buf = tle.gpu.alloc([N, D], dtype=tl.float16, scope=tle.gpu.smem, nv_mma_shared_layout=True)
    p = tle.gpu.local_ptr(buf)
    tl.store(p, kv, mask=ok[:, None])
    q = tl.load(Q + rm[:, None] * D + rd[None, :])
    s = tl.where(ok[None, :], tl.zeros([M, N], dtype=tl.float32), float("-inf"))
    s = tl.dot(q, tl.trans(tl.load(p)), s)
    tl.store(Y + rm[:, None] * N + rn[None, :], s)
