"""Kernels with explicit barriers: ``tle.gpu.alloc_barriers``,
``barrier_arrive`` / ``barrier_wait`` on mbarriers and named barriers, and
``tle.gpu.copy(desc, buf, shape, offsets, barrier=)``, in the style of
FlagTree's public tests (``phaseIdx`` counts a barrier's uses).

Shared by test_barriers.py (CPU: compile to PTX, errors) and
test_barriers_gpu.py (H100: results against torch).
"""

import triton
import triton.language as tl

import tle


@triton.jit
def self_arrive_kernel(src, dst, N: tl.constexpr):
    """One thread group arrives on a barrier and waits for the phase it
    completed: dst = src + 1 between the two."""
    bars = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=1)
    offs = tl.arange(0, N)
    x = tl.load(src + offs)
    tle.gpu.barrier_arrive(bars[1], phaseIdx=0)
    tle.gpu.barrier_wait(bars[1], phaseIdx=0)
    tl.store(dst + offs, x + 1)


# --- a producer / consumer hand-off through one buffer and two mbarriers -------------------------------


@triton.jit
def _handoff_producer(buf, full, empty, src, n_tiles, BLOCK: tl.constexpr):
    for i in range(n_tiles):
        # The slot starts free (empty is READY): use i waits for the
        # consumer's (i - 1)-th release.
        tle.gpu.barrier_wait(empty[0], phaseIdx=i)
        tle.gpu.local_store(buf, tl.load(src + i * BLOCK + tl.arange(0, BLOCK)))
        tle.gpu.barrier_arrive(full[0], phaseIdx=i)


@triton.jit
def _handoff_consumer(buf, full, empty, dst, n_tiles, BLOCK: tl.constexpr):
    for i in range(n_tiles):
        tle.gpu.barrier_wait(full[0], phaseIdx=i)
        x = tle.gpu.local_load(buf)
        tle.gpu.barrier_arrive(empty[0], phaseIdx=i)
        tl.store(dst + i * BLOCK + tl.arange(0, BLOCK), x * 2 + i)


@triton.jit
def mbarrier_handoff_kernel(src, dst, n_tiles, BLOCK: tl.constexpr, PRODUCER_WARPS: tl.constexpr):
    """dst[i] = 2 * src[i] + i, tile by tile: a worker partition fills one
    buffer, the default partition drains it; full / empty mbarriers hand it
    over (the consumer's warps run with more registers: setmaxnreg)."""
    buf = tle.gpu.alloc([BLOCK], dtype=tl.float32)
    full = tle.gpu.alloc_barriers(num_barriers=1, arrive_count=1)
    empty = tle.gpu.alloc_barriers(num_barriers=1, arrive_count=1, init=tle.gpu.READY)
    tle.gpu.warp_specialize([(_handoff_consumer, (buf, full, empty, dst, n_tiles, BLOCK)),
                             (_handoff_producer, (buf, full, empty, src, n_tiles, BLOCK))],
                            worker_num_warps=[PRODUCER_WARPS], worker_num_regs=[40])


# --- named barriers: a worker writes, bar.arrive; the default partition bar.sync's, then reads ---------


@triton.jit
def _named_writer(buf, src, BLOCK: tl.constexpr):
    tle.gpu.local_store(buf, tl.load(src + tl.arange(0, BLOCK)) * 3)
    tle.gpu.barrier_arrive(tle.gpu.named_barrier(6, 256))


@triton.jit
def _named_reader(buf, dst, BLOCK: tl.constexpr):
    tle.gpu.barrier_wait(tle.gpu.named_barrier(6, 256))
    tl.store(dst + tl.arange(0, BLOCK), tle.gpu.local_load(buf))


@triton.jit
def named_barrier_kernel(src, dst, BLOCK: tl.constexpr):
    """dst = 3 * src: the worker (4 warps) writes a buffer and arrives at
    named barrier 6; the default partition (4 warps) syncs on it (256
    threads) and reads the buffer."""
    buf = tle.gpu.alloc([BLOCK], dtype=tl.float32)
    tle.gpu.warp_specialize([(_named_reader, (buf, dst, BLOCK)), (_named_writer, (buf, src, BLOCK))],
                            worker_num_warps=[4], worker_num_regs=[48])


# --- FlagTree's named use of an mbarrier array (barrier_wait without phaseIdx) --------------------------


@triton.jit
def _ping_writer(buf, src, ping, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    for r in range(ROUNDS):
        if r > 0:
            tle.gpu.barrier_wait(ping[1])  # the reader is done with the last round
        tle.gpu.local_store(buf, tl.load(src + tl.arange(0, BLOCK)) * (r + 1))
        tle.gpu.barrier_arrive(ping[0])


@triton.jit
def _ping_reader(buf, dst, ping, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    for r in range(ROUNDS):
        tle.gpu.barrier_wait(ping[0])
        tl.store(dst + r * BLOCK + tl.arange(0, BLOCK), tle.gpu.local_load(buf))
        if r + 1 < ROUNDS:
            tle.gpu.barrier_arrive(ping[1])


@triton.jit
def named_array_kernel(src, dst, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    """dst[r] = (r + 1) * src, ROUNDS times through one buffer: FlagTree's
    ping-pong spelling, an alloc_barriers array of 256 threads used without
    phaseIdx (named barriers): ping[0] hands a round to the reader, ping[1]
    the buffer back to the writer."""
    buf = tle.gpu.alloc([BLOCK], dtype=tl.float32)
    ping = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=256)
    tle.gpu.warp_specialize([(_ping_reader, (buf, dst, ping, BLOCK, ROUNDS)),
                             (_ping_writer, (buf, src, ping, BLOCK, ROUNDS))],
                            worker_num_warps=[4], worker_num_regs=[48])


# --- TMA loads on a barrier ----------------------------------------------------------------------------


@triton.jit
def tma_barrier_matmul_kernel(a_desc, b_desc, c_ptr, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                              BK: tl.constexpr):
    """c = a @ b (fp16 in, fp32 out), one BM x BN tile per program: each K
    step loads the A and B tiles by TMA straight into buffers, both
    completing on one barrier (two arrivals: arrive_count=2), waited for on
    the step's phase."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_buf = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    b_buf = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    bars = tle.gpu.alloc_barriers(num_barriers=1, arrive_count=2)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        tle.gpu.copy(a_desc, a_buf, [BM, BK], [pid_m * BM, k * BK], barrier=bars[0])
        tle.gpu.copy(b_desc, b_buf, [BK, BN], [k * BK, pid_n * BN], barrier=bars[0])
        tle.gpu.barrier_wait(bars[0], phaseIdx=k)
        acc = tl.dot(tle.gpu.local_load(a_buf), tle.gpu.local_load(b_buf), acc)
        tl.debug_barrier()  # every thread read the tiles before the next copies overwrite them
    m = pid_m * BM + tl.arange(0, BM)
    n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :], acc)


@triton.jit
def _tma_producer(a_desc, a_bufs0, a_bufs1, full, empty, n_tiles, BM: tl.constexpr, BK: tl.constexpr):
    for i in range(n_tiles):
        slot = i % 2
        use = i // 2
        tle.gpu.barrier_wait(empty[slot], phaseIdx=use)
        if slot == 0:
            tle.gpu.copy(a_desc, a_bufs0, [BM, BK], [i * BM, 0], barrier=full[0])
        else:
            tle.gpu.copy(a_desc, a_bufs1, [BM, BK], [i * BM, 0], barrier=full[1])


@triton.jit
def _tma_consumer(a_bufs0, a_bufs1, full, empty, out, n_tiles, BM: tl.constexpr, BK: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BK)[None, :]
    for i in range(n_tiles):
        slot = i % 2
        use = i // 2
        tle.gpu.barrier_wait(full[slot], phaseIdx=use)
        if slot == 0:
            x = tle.gpu.local_load(a_bufs0)
        else:
            x = tle.gpu.local_load(a_bufs1)
        tle.gpu.barrier_arrive(empty[slot], phaseIdx=use)
        tl.store(out + (i * BM + rows) * BK + cols, x.to(tl.float32) + 1.0)


@triton.jit
def tma_ws_ring_kernel(a_desc, out, n_tiles, BM: tl.constexpr, BK: tl.constexpr):
    """out = a + 1, BM x BK tiles streamed through two buffers: a 1-warp TMA
    producer partition waits for a free buffer (empty, READY) and loads a
    tile into it on its full barrier; the default partition waits for the
    tile, reads it, frees the buffer and stores."""
    a_bufs0 = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    a_bufs1 = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    full = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=1, expect_bytes=BM * BK * 2)
    empty = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=1, init=tle.gpu.READY)
    tle.gpu.warp_specialize([(_tma_consumer, (a_bufs0, a_bufs1, full, empty, out, n_tiles, BM, BK)),
                             (_tma_producer, (a_desc, a_bufs0, a_bufs1, full, empty, n_tiles, BM, BK))],
                            worker_num_warps=[1], worker_num_regs=[40])


SIGNATURES = {
    "self_arrive_kernel": {"src": "*fp32", "dst": "*fp32"},
    "mbarrier_handoff_kernel": {"src": "*fp32", "dst": "*fp32", "n_tiles": "i32"},
    "named_barrier_kernel": {"src": "*fp32", "dst": "*fp32"},
    "named_array_kernel": {"src": "*fp32", "dst": "*fp32"},
    "tma_barrier_matmul_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "b_desc": "tensordesc<fp16[64,64]>",
                                  "c_ptr": "*fp32", "K": "i32", "stride_cm": "i32"},
    "tma_ws_ring_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "out": "*fp32", "n_tiles": "i32"},
}


# --- cp.async on a barrier ------------------------------------------------------------------------------


@triton.jit
def _cp_producer(buf, full, empty, src, n_tiles, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    for i in range(n_tiles):
        tle.gpu.barrier_wait(empty[0], phaseIdx=i)
        tle.gpu.copy(src + i * R * C + offs, buf, [R, C], barrier=full[0])


@triton.jit
def _cp_consumer(buf, full, empty, dst, n_tiles, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    for i in range(n_tiles):
        tle.gpu.barrier_wait(full[0], phaseIdx=i)
        x = tle.gpu.local_load(buf)
        tle.gpu.barrier_arrive(empty[0], phaseIdx=i)
        tl.store(dst + i * R * C + offs, x - 1.0)


@triton.jit
def cp_async_barrier_kernel(src, dst, n_tiles, R: tl.constexpr, C: tl.constexpr):
    """dst = src - 1, R x C fp32 tiles: a 4-warp producer partition copies
    each tile into one buffer by cp.async completing on the full barrier
    (no registers); the default partition reads it and frees it."""
    buf = tle.gpu.alloc([R, C], dtype=tl.float32)
    full = tle.gpu.alloc_barriers(num_barriers=1, arrive_count=1)
    empty = tle.gpu.alloc_barriers(num_barriers=1, arrive_count=1, init=tle.gpu.READY)
    tle.gpu.warp_specialize([(_cp_consumer, (buf, full, empty, dst, n_tiles, R, C)),
                             (_cp_producer, (buf, full, empty, src, n_tiles, R, C))],
                            worker_num_warps=[4], worker_num_regs=[64])


# --- asynchronous TMA stores ----------------------------------------------------------------------------


@triton.jit
def tma_store_async_kernel(x_desc, y_desc, n_tiles, BM: tl.constexpr, BN: tl.constexpr):
    """y = 2 * x, BM x BN tiles down the rows: each tile is loaded by TMA on a
    barrier, doubled in a buffer (two buffers, alternating) and stored by an
    asynchronous TMA store; before a buffer is written again, the store
    that read it two tiles ago is waited for (pendings 1)."""
    in_buf = tle.gpu.alloc([BM, BN], dtype=tl.float16)
    out0 = tle.gpu.alloc([BM, BN], dtype=tl.float16)
    out1 = tle.gpu.alloc([BM, BN], dtype=tl.float16)
    bar = tle.gpu.alloc_barrier()
    for i in range(n_tiles):
        tle.gpu.copy(x_desc, in_buf, [BM, BN], [i * BM, 0], barrier=bar)
        tle.gpu.barrier_wait(bar, phaseIdx=i)
        x = tle.gpu.local_load(in_buf)
        tle.gpu.tma_store_wait(1)  # the store of two tiles ago read its buffer
        tl.debug_barrier()
        if i % 2 == 0:
            tle.gpu.local_store(out0, x * 2)
            tle.gpu.wgmma_shared_operand_fence()
            tle.gpu.copy(out0, y_desc, [BM, BN], [i * BM, 0], is_async=True)
        else:
            tle.gpu.local_store(out1, x * 2)
            tle.gpu.wgmma_shared_operand_fence()
            tle.gpu.copy(out1, y_desc, [BM, BN], [i * BM, 0], is_async=True)
    tle.gpu.tma_store_wait(0)


@triton.jit
def tma_barrier_pointer_buffer_kernel(a_desc, b_desc, c_desc, ynumel, XBLOCK: tl.constexpr, YBLOCK: tl.constexpr,
                                      REVERSED: tl.constexpr = True):
    """c = a + b over XBLOCK x YBLOCK tiles along the columns (FlagTree's
    explicit-barrier elementwise TMA test): each tile of a and b comes by a
    TMA copy on a barrier of its own into a buffer that is then read
    through local pointers, the sum goes through a third buffer by pointers
    and leaves by a TMA store. REVERSED: the pointers address the columns
    in reverse order (pointer buffers, which keep their plain layout);
    else in order, as FlagTree's test does (every access is then the whole
    buffer: the buffers stay shared-memory buffers the TMA copies fill)."""
    pid = tl.program_id(0)
    a_buf = tle.gpu.alloc([XBLOCK, YBLOCK], dtype=tl.float32)
    b_buf = tle.gpu.alloc([XBLOCK, YBLOCK], dtype=tl.float32)
    c_buf = tle.gpu.alloc([XBLOCK, YBLOCK], dtype=tl.float32)
    rows = tl.broadcast_to(tl.arange(0, XBLOCK)[:, None], (XBLOCK, YBLOCK))
    cols = tl.broadcast_to(tl.arange(0, YBLOCK)[None, :], (XBLOCK, YBLOCK))
    if REVERSED:
        cols = YBLOCK - 1 - cols
    a_ptrs = tle.gpu.local_ptr(a_buf, (rows, cols))
    b_ptrs = tle.gpu.local_ptr(b_buf, (rows, cols))
    c_ptrs = tle.gpu.local_ptr(c_buf, (rows, cols))
    a_bar = tle.gpu.alloc_barrier(expect_bytes=XBLOCK * YBLOCK * 4)
    b_bar = tle.gpu.alloc_barrier(expect_bytes=XBLOCK * YBLOCK * 4)
    for yoff in range(0, ynumel, YBLOCK):
        phase = (yoff // YBLOCK) & 1
        tle.gpu.copy(a_desc, a_buf, [XBLOCK, YBLOCK], [pid * XBLOCK, yoff], barrier=a_bar)
        tle.gpu.copy(b_desc, b_buf, [XBLOCK, YBLOCK], [pid * XBLOCK, yoff], barrier=b_bar)
        tle.gpu.barrier_wait(a_bar, phaseIdx=phase)
        tle.gpu.barrier_wait(b_bar, phaseIdx=phase)
        tl.store(c_ptrs, tl.load(a_ptrs) + tl.load(b_ptrs))
        tle.gpu.copy(c_buf, c_desc, [XBLOCK, YBLOCK], [pid * XBLOCK, yoff])


# --- asynchronous wgmma ---------------------------------------------------------------------------------


@triton.jit
def wgmma_stored_operands_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """c = a @ b for one tile: operands stored into buffers from registers,
    fenced for the async proxy, one synchronous wgmma (is_async=False)."""
    a_buf = tle.gpu.alloc([M, K], dtype=tl.float16)
    b_buf = tle.gpu.alloc([K, N], dtype=tl.float16)
    tle.gpu.local_store(a_buf, tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]))
    tle.gpu.local_store(b_buf, tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :]))
    tle.gpu.wgmma_shared_operand_fence()
    tl.debug_barrier()
    acc = tle.gpu.wgmma(a_buf, b_buf, is_async=False)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], acc)


@triton.jit
def wgmma_tma_matmul_kernel(a_desc, b_desc, c_ptr, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                            BK: tl.constexpr):
    """c = a @ b: double-buffered K loop. The TMA loads of step k+1 are in
    flight while the wgmma of step k runs; each step waits for the previous
    wgmma only (wgmma_wait(1)) before its buffers are reloaded."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a0 = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    b0 = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    a1 = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    b1 = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    full = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=2)
    n_k = tl.cdiv(K, BK)
    tle.gpu.copy(a_desc, a0, [BM, BK], [pid_m * BM, 0], barrier=full[0])
    tle.gpu.copy(b_desc, b0, [BK, BN], [0, pid_n * BN], barrier=full[0])
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, n_k):
        if k % 2 == 0:
            tle.gpu.barrier_wait(full[0], phaseIdx=k // 2)
            acc = tle.gpu.wgmma(a0, b0, acc)
        else:
            tle.gpu.barrier_wait(full[1], phaseIdx=k // 2)
            acc = tle.gpu.wgmma(a1, b1, acc)
        # The wgmma of step k - 1 is done: its buffers can take step k + 1.
        acc = tle.gpu.wgmma_wait(1, acc)
        tl.debug_barrier()
        if k + 1 < n_k:
            if k % 2 == 0:
                tle.gpu.copy(a_desc, a1, [BM, BK], [pid_m * BM, (k + 1) * BK], barrier=full[1])
                tle.gpu.copy(b_desc, b1, [BK, BN], [(k + 1) * BK, pid_n * BN], barrier=full[1])
            else:
                tle.gpu.copy(a_desc, a0, [BM, BK], [pid_m * BM, (k + 1) * BK], barrier=full[0])
                tle.gpu.copy(b_desc, b0, [BK, BN], [(k + 1) * BK, pid_n * BN], barrier=full[0])
    acc = tle.gpu.wgmma_wait(0, acc)
    m = pid_m * BM + tl.arange(0, BM)
    n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :], acc)


@triton.jit
def _ws_gemm_producer(a_desc, b_desc, a0, b0, a1, b1, full, empty, n_k, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    for k in range(0, n_k):
        slot = k % 2
        tle.gpu.barrier_wait(empty[slot], phaseIdx=k // 2)
        if slot == 0:
            tle.gpu.copy(a_desc, a0, [BM, BK], [pid_m * BM, k * BK], barrier=full[0])
            tle.gpu.copy(b_desc, b0, [BK, BN], [k * BK, pid_n * BN], barrier=full[0])
        else:
            tle.gpu.copy(a_desc, a1, [BM, BK], [pid_m * BM, k * BK], barrier=full[1])
            tle.gpu.copy(b_desc, b1, [BK, BN], [k * BK, pid_n * BN], barrier=full[1])


@triton.jit
def _ws_gemm_consumer(a0, b0, a1, b1, full, empty, c_ptr, stride_cm, n_k, BM: tl.constexpr, BN: tl.constexpr):
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, n_k):
        slot = k % 2
        tle.gpu.barrier_wait(full[slot], phaseIdx=k // 2)
        if slot == 0:
            acc = tle.gpu.wgmma(a0, b0, acc)
        else:
            acc = tle.gpu.wgmma(a1, b1, acc)
        acc = tle.gpu.wgmma_wait(0, acc)
        tle.gpu.barrier_arrive(empty[slot], phaseIdx=k // 2)
    m = tl.program_id(0) * BM + tl.arange(0, BM)
    n = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :], acc)


@triton.jit
def ws_wgmma_matmul_kernel(a_desc, b_desc, c_ptr, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                           BK: tl.constexpr):
    """c = a @ b with FlagTree's producer / consumer GEMM schedule: a 1-warp
    TMA producer partition fills two buffer pairs on full barriers (two
    copies each: arrive_count=2) once their empty barriers (READY) let it;
    the default partition (one warpgroup) runs async wgmmas and frees each
    pair after its wait."""
    a0 = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    b0 = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    a1 = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    b1 = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    full = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=2)
    empty = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=1, init=tle.gpu.READY)
    n_k = tl.cdiv(K, BK)
    tle.gpu.warp_specialize([(_ws_gemm_consumer, (a0, b0, a1, b1, full, empty, c_ptr, stride_cm, n_k, BM, BN)),
                             (_ws_gemm_producer, (a_desc, b_desc, a0, b0, a1, b1, full, empty, n_k, BM, BN, BK))],
                            worker_num_warps=[1], worker_num_regs=[40])


SIGNATURES.update({
    "cp_async_barrier_kernel": {"src": "*fp32", "dst": "*fp32", "n_tiles": "i32"},
    "tma_store_async_kernel": {"x_desc": "tensordesc<fp16[64,64]>", "y_desc": "tensordesc<fp16[64,64]>",
                               "n_tiles": "i32"},
    "tma_barrier_pointer_buffer_kernel": {"a_desc": "tensordesc<fp32[32,64]>", "b_desc": "tensordesc<fp32[32,64]>",
                                          "c_desc": "tensordesc<fp32[32,64]>", "ynumel": "i32"},
    "wgmma_stored_operands_kernel": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"},
    "wgmma_tma_matmul_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "b_desc": "tensordesc<fp16[64,64]>",
                                "c_ptr": "*fp32", "K": "i32", "stride_cm": "i32"},
    "ws_wgmma_matmul_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "b_desc": "tensordesc<fp16[64,64]>",
                               "c_ptr": "*fp32", "K": "i32", "stride_cm": "i32"},
})


# --- wgmma operand views and buffer aliases -------------------------------------------------------------


@triton.jit
def stage_qk(q_ptr, k_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr, DTYPE: tl.constexpr):
    """Q (M x D) and K (N x D) from global memory into shared buffers, fenced
    for the async proxy and visible to the CTA: wgmma operands."""
    q_buf = tle.gpu.alloc([M, D], dtype=DTYPE)
    k_buf = tle.gpu.alloc([N, D], dtype=DTYPE)
    d = tl.arange(0, D)[None, :]
    tle.gpu.local_store(q_buf, tl.load(q_ptr + tl.arange(0, M)[:, None] * D + d))
    tle.gpu.local_store(k_buf, tl.load(k_ptr + tl.arange(0, N)[:, None] * D + d))
    tle.gpu.wgmma_shared_operand_fence()
    tl.debug_barrier()
    return q_buf, k_buf


@triton.jit
def wgmma_qkt_kernel(q_ptr, k_ptr, s_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    """s = q @ k^T: K stored N x D as it is in memory, read as the B operand
    through a transposed wgmma view."""
    q_buf, k_buf = stage_qk(q_ptr, k_ptr, M, N, D, tl.float16)
    s = tle.gpu.wgmma(q_buf, tle.gpu.memdesc_wgmma_view(k_buf), is_async=False)
    tl.store(s_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], s)


@triton.jit
def alias_kernel(x_ptr, out_ptr, n_tiles, R: tl.constexpr, C: tl.constexpr, ALIAS: tl.constexpr):
    """out = (rowsum(x) + x) in fp16, tile by tile: each fp32 tile is staged
    in one buffer, the fp16 result in a second one that aliases the first
    (ALIAS) or has memory of its own. Both are live across the loop, so
    only the alias lets them share memory."""
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    p = tle.gpu.alloc([R, C], dtype=tl.float32)
    if ALIAS:
        o = tle.gpu.alloc([R, C], dtype=tl.float16, alias=p)
    else:
        o = tle.gpu.alloc([R, C], dtype=tl.float16)
    for i in range(n_tiles):
        tle.gpu.local_store(p, tl.load(x_ptr + i * R * C + offs))
        tl.debug_barrier()
        x = tle.gpu.local_load(p)
        y = (x + tl.sum(x, axis=1)[:, None]).to(tl.float16)
        tl.debug_barrier()  # every read of p is done before o overwrites its bytes
        tle.gpu.local_store(o, y)
        tl.debug_barrier()
        tl.store(out_ptr + i * R * C + offs, tle.gpu.local_load(o))
        tl.debug_barrier()  # every read of o is done before p overwrites its bytes


SIGNATURES.update({
    "wgmma_qkt_kernel": {"q_ptr": "*fp16", "k_ptr": "*fp16", "s_ptr": "*fp32"},
    "alias_kernel": {"x_ptr": "*fp32", "out_ptr": "*fp16", "n_tiles": "i32"},
})


# --- composition: tle.range loops, pipes ----------------------------------------------------------------


@triton.jit
def ranged_wgmma_matmul_kernel(a_desc, b_desc, c_ptr, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                               BK: tl.constexpr, STAGES: tl.constexpr):
    """c = a @ b with the K loop a tle.range(num_stages=STAGES): TMA copies
    on a barrier, an async wgmma waited for in the same step."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_buf = tle.gpu.alloc([BM, BK], dtype=tl.float16)
    b_buf = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    bar = tle.gpu.alloc_barrier(arrive_count=2)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tle.range(0, tl.cdiv(K, BK), num_stages=STAGES):
        tle.gpu.copy(a_desc, a_buf, [BM, BK], [pid_m * BM, k * BK], barrier=bar)
        tle.gpu.copy(b_desc, b_buf, [BK, BN], [k * BK, pid_n * BN], barrier=bar)
        tle.gpu.barrier_wait(bar, phaseIdx=k)
        acc = tle.gpu.wgmma(a_buf, b_buf, acc)
        acc = tle.gpu.wgmma_wait(0, acc)
        tl.debug_barrier()
    m = pid_m * BM + tl.arange(0, BM)
    n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :], acc)


@triton.jit
def _pipe_producer(w, done, src, flag, n_tiles, BLOCK: tl.constexpr):
    for i in range(n_tiles):
        slot = w.acquire()
        tle.gpu.local_store(slot["x"], tl.load(src + i * BLOCK + tl.arange(0, BLOCK)))
        w.commit(slot)
    # The consumer's mbarrier says every tile was stored.
    tle.gpu.barrier_wait(done, phaseIdx=0)
    tl.store(flag + tl.arange(0, 1), tl.full([1], n_tiles, tl.int32))


@triton.jit
def _pipe_consumer(r, done, dst, n_tiles, BLOCK: tl.constexpr):
    for i in range(n_tiles):
        slot, closed = r.wait()
        x = tle.gpu.local_load(slot["x"])
        r.release(slot)
        tl.store(dst + i * BLOCK + tl.arange(0, BLOCK), x + 1.0)
    tle.gpu.barrier_arrive(done)


@triton.jit
def pipe_and_mbarrier_kernel(src, dst, flag, n_tiles, BLOCK: tl.constexpr):
    """dst = src + 1 through a 2-slot pipe; then an mbarrier from the
    consumer tells the producer partition the consumer is done, and the
    producer writes flag = n_tiles."""
    p = tle.pipe(2, name="ring", readers="c", x=([BLOCK], tl.float32))
    done = tle.gpu.alloc_barrier()
    tle.gpu.warp_specialize([(_pipe_consumer, (p.reader("c"), done, dst, n_tiles, BLOCK)),
                             (_pipe_producer, (p.writer(), done, src, flag, n_tiles, BLOCK))],
                            worker_num_warps=[4], worker_num_regs=[64])


SIGNATURES.update({
    "ranged_wgmma_matmul_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "b_desc": "tensordesc<fp16[64,64]>",
                                   "c_ptr": "*fp32", "K": "i32", "stride_cm": "i32"},
    "pipe_and_mbarrier_kernel": {"src": "*fp32", "dst": "*fp32", "flag": "*i32", "n_tiles": "i32"},
})
