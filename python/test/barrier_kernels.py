"""Kernels with explicit barriers (issue 32, item 1): ``tle.gpu.alloc_barriers``,
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
    "tma_barrier_matmul_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "b_desc": "tensordesc<fp16[64,64]>",
                                  "c_ptr": "*fp32", "K": "i32", "stride_cm": "i32"},
    "tma_ws_ring_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "out": "*fp32", "n_tiles": "i32"},
}
