"""Kernels for the wgmma, buffer and barrier primitives of docs/barriers.md: ``tle.gpu.wgmma``
with a register ``a`` operand and with fp8 operands, buffer slots
(``buf.slot(i)``), ``tle.gpu.barrier_try_wait`` and ``tle.gpu.set_layout``,
alone and inside ``tle.gpu.warp_specialize`` partitions.

Shared by test_prims.py (CPU: compile to PTX for sm_90, errors) and
test_prims_gpu.py (H100: results against torch).
"""

import triton
import triton.language as tl

import tle

# A user-chosen layout for 64 x 64 tiles of 4 warps: each thread a row segment of 4.
ROWS = tl.constexpr(tle.gpu.BlockEncoding([1, 4], [4, 8], [4, 1], [1, 0]))
# The same for a 1-warp partition.
ROWS_1WARP = tl.constexpr(tle.gpu.BlockEncoding([1, 4], [4, 8], [1, 1], [1, 0]))

# --- wgmma with a register a operand (FA3's P @ V) ---------------------------------------------------


@triton.jit
def register_a_kernel(p_ptr, v_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """o = bf16(2 * p) @ v: p is computed in registers and is the wgmma's a
    operand as it is; v is staged through a buffer."""
    rm = tl.arange(0, M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, N)
    p = tl.load(p_ptr + rm[:, None] * K + rk[None, :])
    v_buf = tle.gpu.alloc([K, N], dtype=tl.bfloat16)
    tle.gpu.local_store(v_buf, tl.load(v_ptr + rk[:, None] * N + rn[None, :]))
    tle.gpu.wgmma_shared_operand_fence()
    tl.debug_barrier()
    acc = tle.gpu.wgmma((p * 2).to(tl.bfloat16), v_buf)
    acc = tle.gpu.wgmma_wait(0, acc)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def attention_pv_kernel(q_ptr, k_ptr, v_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    """One attention block, FA3-style: s = q @ k^T by a shared-shared wgmma
    (k read transposed in place), p = softmax(s) in registers, o = p @ v by
    a register-a wgmma."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    q_buf = tle.gpu.alloc([M, D], dtype=tl.float16)
    k_buf = tle.gpu.alloc([N, D], dtype=tl.float16)
    v_buf = tle.gpu.alloc([N, D], dtype=tl.float16)
    tle.gpu.local_store(q_buf, tl.load(q_ptr + rm[:, None] * D + rd[None, :]))
    tle.gpu.local_store(k_buf, tl.load(k_ptr + rn[:, None] * D + rd[None, :]))
    tle.gpu.local_store(v_buf, tl.load(v_ptr + rn[:, None] * D + rd[None, :]))
    tle.gpu.wgmma_shared_operand_fence()
    tl.debug_barrier()
    s = tle.gpu.wgmma(q_buf, tle.gpu.memdesc_wgmma_view(k_buf), is_async=False)
    m = tl.max(s, axis=1)
    p = tl.exp(s - m[:, None])
    l = tl.sum(p, axis=1)
    o = tle.gpu.wgmma(p.to(tl.float16), v_buf)
    o = tle.gpu.wgmma_wait(0, o)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o / l[:, None])


@triton.jit
def transposed_operands_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                               A_MODE: tl.constexpr):
    """c = a @ b with FlagTree's transpose flags: b is given N x K (b_ptr
    holds b^T) and passed with trans_b=True; A_MODE 0: a an M x K buffer,
    1: a given K x M (a_ptr holds a^T) in a buffer with trans_a=True, 2: that
    K x M tile in registers with trans_a=True."""
    rm = tl.arange(0, M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, N)
    bt_buf = tle.gpu.alloc([N, K], dtype=tl.float16)
    tle.gpu.local_store(bt_buf, tl.load(b_ptr + rn[:, None] * K + rk[None, :]))
    if A_MODE == 0:
        a = tle.gpu.alloc([M, K], dtype=tl.float16)
        tle.gpu.local_store(a, tl.load(a_ptr + rm[:, None] * K + rk[None, :]))
    elif A_MODE == 1:
        a = tle.gpu.alloc([K, M], dtype=tl.float16)
        tle.gpu.local_store(a, tl.load(a_ptr + rk[:, None] * M + rm[None, :]))
    else:
        a = tl.load(a_ptr + rk[:, None] * M + rm[None, :])
    tle.gpu.wgmma_shared_operand_fence()
    tl.debug_barrier()
    acc = tle.gpu.wgmma(a, bt_buf, trans_a=A_MODE > 0, trans_b=True)
    acc = tle.gpu.wgmma_wait(0, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


# --- fp8 operands ---------------------------------------------------------------------------------------


@triton.jit
def fp8_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               B_NK: tl.constexpr):
    """c = a @ b on fp8e4nv buffers written by local_store. B_NK: b is given
    N x K (b_ptr holds b^T) and passed as memdesc_wgmma_view; else K x N,
    which the compiler lays out K-major itself."""
    rm = tl.arange(0, M)
    rk = tl.arange(0, K)
    rn = tl.arange(0, N)
    a_buf = tle.gpu.alloc([M, K], dtype=tl.float8e4nv)
    tle.gpu.local_store(a_buf, tl.load(a_ptr + rm[:, None] * K + rk[None, :]))
    if B_NK:
        bt_buf = tle.gpu.alloc([N, K], dtype=tl.float8e4nv)
        tle.gpu.local_store(bt_buf, tl.load(b_ptr + rn[:, None] * K + rk[None, :]))
        b = tle.gpu.memdesc_wgmma_view(bt_buf)
    else:
        b = tle.gpu.alloc([K, N], dtype=tl.float8e4nv)
        tle.gpu.local_store(b, tl.load(b_ptr + rk[:, None] * N + rn[None, :]))
    tle.gpu.wgmma_shared_operand_fence()
    tl.debug_barrier()
    acc = tle.gpu.wgmma(a_buf, b, max_num_imprecise_acc=32)
    acc = tle.gpu.wgmma_wait(0, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


# --- buffer slots -----------------------------------------------------------------------------------------


@triton.jit
def slot_ring_matmul_kernel(a_desc, b_desc, c_ptr, K, stride_cm, BM: tl.constexpr, BN: tl.constexpr,
                            BK: tl.constexpr, STAGES: tl.constexpr):
    """c = a @ b with a STAGES-deep TMA ring: one [STAGES, BM, BK] and one
    [STAGES, BK, BN] buffer, slot s = k % STAGES filled on full[s] while the
    wgmmas of earlier slots run (slot indices are runtime values)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bufs = tle.gpu.alloc([STAGES, BM, BK], dtype=tl.float16)
    b_bufs = tle.gpu.alloc([STAGES, BK, BN], dtype=tl.float16)
    full = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=2)
    n_k = tl.cdiv(K, BK)
    for p in tl.static_range(STAGES):
        if p < n_k:
            tle.gpu.copy(a_desc, a_bufs.slot(p), [BM, BK], [pid_m * BM, p * BK], barrier=full[p])
            tle.gpu.copy(b_desc, b_bufs.slot(p), [BK, BN], [p * BK, pid_n * BN], barrier=full[p])
    acc = tl.zeros([BM, BN], tl.float32)
    for k in range(0, n_k):
        s = k % STAGES
        tle.gpu.barrier_wait(full[s], phaseIdx=k // STAGES)
        acc = tle.gpu.wgmma(a_bufs.slot(s), b_bufs.slot(s), acc)
        acc = tle.gpu.wgmma_wait(0, acc)
        tl.debug_barrier()
        if k + STAGES < n_k:
            tle.gpu.copy(a_desc, a_bufs.slot(s), [BM, BK], [pid_m * BM, (k + STAGES) * BK], barrier=full[s])
            tle.gpu.copy(b_desc, b_bufs.slot(s), [BK, BN], [(k + STAGES) * BK, pid_n * BN], barrier=full[s])
    m = pid_m * BM + tl.arange(0, BM)
    n = pid_n * BN + tl.arange(0, BN)
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :], acc)


@triton.jit
def slot_load_kernel(src, dst, n_tiles, R: tl.constexpr, C: tl.constexpr, STAGES: tl.constexpr):
    """dst = src + 1 tile by tile through a [STAGES, R, C] buffer: tile i is
    copied into slot i % STAGES by cp.async on full[i % STAGES] and read back
    with local_load (also a local_store / local_load round trip)."""
    bufs = tle.gpu.alloc([STAGES, R, C], dtype=tl.float32)
    full = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=1)
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    for i in range(n_tiles):
        s = i % STAGES
        tle.gpu.copy(src + i * R * C + offs, bufs.slot(s), [R, C], barrier=full[s])
        tle.gpu.barrier_wait(full[s], phaseIdx=i // STAGES)
        x = tle.gpu.local_load(bufs.slot(s))
        tl.debug_barrier()
        tle.gpu.local_store(bufs.slot(s), x + 1.0)
        tl.debug_barrier()
        tl.store(dst + i * R * C + offs, tle.gpu.local_load(bufs.slot(s)))
        tl.debug_barrier()


# --- barrier_try_wait -------------------------------------------------------------------------------------


@triton.jit
def try_wait_kernel(flags):
    """flags = [try_wait before the phase completes, after it, a READY
    barrier's phase 0, that barrier's phase 1]: expected [0, 1, 1, 0].

    A barrier of two arrivals gets one (thread 0's) and is tested: False.
    The answer is stored before the second arrival, so thread 0 waits for
    it first: mbarrier.try_wait may stay suspended for a while, and on an
    H100 a later arrival that does not depend on the answer (the same
    thread's) completed the phase inside that window and made it True.
    Then the second arrival, and the test again in a loop as a blocking
    wait would (True). A READY barrier's phase 0 is complete at once; its
    phase 1 gets no arrival (False)."""
    bar = tle.gpu.alloc_barrier(arrive_count=2)
    ready = tle.gpu.alloc_barrier(arrive_count=1, init=tle.gpu.READY)
    tle.gpu.barrier_arrive(bar)
    early = tle.gpu.barrier_try_wait(bar, phaseIdx=0)
    tl.store(flags, early.to(tl.int32))
    tl.store(flags + 2, tle.gpu.barrier_try_wait(ready, phaseIdx=0).to(tl.int32))
    tl.store(flags + 3, tle.gpu.barrier_try_wait(ready, phaseIdx=1).to(tl.int32))
    tle.gpu.barrier_arrive(bar)
    done = tle.gpu.barrier_try_wait(bar, phaseIdx=0)
    while not done:
        done = tle.gpu.barrier_try_wait(bar, phaseIdx=0)
    tl.store(flags + 1, done.to(tl.int32))


# --- set_layout -------------------------------------------------------------------------------------------


@triton.jit
def set_layout_kernel(x_ptr, y_ptr, N: tl.constexpr):
    """y = 2 x + 1, computed in the user's ROWS layout."""
    offs = tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :]
    x = tle.gpu.set_layout(tl.load(x_ptr + offs), ROWS)
    tl.store(y_ptr + offs, x * 2.0 + 1.0)


# --- all of them in warp_specialize partitions ------------------------------------------------------------


@triton.jit
def _ws_producer(x_desc, bufs, full, empty, n_tiles, BM: tl.constexpr, BK: tl.constexpr, STAGES: tl.constexpr):
    for i in range(n_tiles):
        s = i % STAGES
        tle.gpu.barrier_wait(empty[s], phaseIdx=i // STAGES)
        tle.gpu.copy(x_desc, bufs.slot(s), [BM, BK], [i * BM, 0], barrier=full[s])


@triton.jit
def _ws_consumer(bufs, w_buf, full, empty, out, n_tiles, BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr,
                 STAGES: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    for i in range(n_tiles):
        s = i % STAGES
        ready = tle.gpu.barrier_try_wait(full[s], phaseIdx=i // STAGES)
        while not ready:
            ready = tle.gpu.barrier_try_wait(full[s], phaseIdx=i // STAGES)
        x = tle.gpu.set_layout(tle.gpu.local_load(bufs.slot(s)), ROWS)
        tle.gpu.barrier_arrive(empty[s], phaseIdx=i // STAGES)
        acc = tle.gpu.wgmma((x * 2.0).to(tl.float16), w_buf)
        acc = tle.gpu.wgmma_wait(0, acc)
        tl.store(out + (i * BM + rm)[:, None] * BN + rn[None, :], acc)


@triton.jit
def ws_prims_kernel(x_desc, w_ptr, out, n_tiles, BM: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr,
                    STAGES: tl.constexpr):
    """out[i] = (2 x[i]) @ w for n_tiles BM x BK tiles of x: a 1-warp TMA
    producer partition (setmaxnreg 40) fills the slots of one
    [STAGES, BM, BK] buffer; the default partition tests the full barrier
    with try_wait, loads the slot in its own layout (set_layout) and runs a
    register-a wgmma against w."""
    bufs = tle.gpu.alloc([STAGES, BM, BK], dtype=tl.float16)
    w_buf = tle.gpu.alloc([BK, BN], dtype=tl.float16)
    rk = tl.arange(0, BK)
    rn = tl.arange(0, BN)
    tle.gpu.local_store(w_buf, tl.load(w_ptr + rk[:, None] * BN + rn[None, :]))
    tle.gpu.wgmma_shared_operand_fence()
    full = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=1)
    empty = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=1, init=tle.gpu.READY)
    tle.gpu.warp_specialize([(_ws_consumer, (bufs, w_buf, full, empty, out, n_tiles, BM, BK, BN, STAGES)),
                             (_ws_producer, (x_desc, bufs, full, empty, n_tiles, BM, BK, STAGES))],
                            worker_num_warps=[1], worker_num_regs=[40])


@triton.jit
def _ws_layout_worker(x_ptr, y_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :]
    x = tle.gpu.set_layout(tl.load(x_ptr + offs), ROWS_1WARP)
    tl.store(y_ptr + offs, x + 3.0)


@triton.jit
def _ws_layout_default(x_ptr, z_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :]
    x = tle.gpu.set_layout(tl.load(x_ptr + offs), ROWS)
    tl.store(z_ptr + offs, x - 3.0)


@triton.jit
def ws_set_layout_kernel(x_ptr, y_ptr, z_ptr, N: tl.constexpr):
    """y = x + 3 in a 1-warp worker partition's layout, z = x - 3 in the
    default partition's."""
    tle.gpu.warp_specialize([(_ws_layout_default, (x_ptr, z_ptr, N)), (_ws_layout_worker, (x_ptr, y_ptr, N))],
                            worker_num_warps=[1], worker_num_regs=[80])


# --- tle.range / pipeline_group ------------------------------------------------------------------------


@triton.jit
def ranged_slot_kernel(src, dst, n_tiles, R: tl.constexpr, C: tl.constexpr):
    """dst = 2 src, tile by tile, in a tle.range loop with two pipeline
    groups: the first stages the tile into slot i % 2 of a [2, R, C]
    buffer, the second reads it back through a register-layout pin."""
    bufs = tle.gpu.alloc([2, R, C], dtype=tl.float32)
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    for i in tle.range(0, n_tiles, num_stages=2, pipe_stages=[0, 1], pipe_orders=[0, 1]):
        with tle.pipeline_group(0):
            x = tl.load(src + i * R * C + offs)
        with tle.pipeline_group(1):
            tle.gpu.local_store(bufs.slot(i % 2), x)
            tl.debug_barrier()
            y = tle.gpu.set_layout(tle.gpu.local_load(bufs.slot(i % 2)), ROWS)
            tl.store(dst + i * R * C + offs, y * 2.0)


SIGNATURES = {
    "register_a_kernel": {"p_ptr": "*fp32", "v_ptr": "*bf16", "o_ptr": "*fp32"},
    "attention_pv_kernel": {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32"},
    "fp8_kernel": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp32"},
    "transposed_operands_kernel": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"},
    "slot_ring_matmul_kernel": {"a_desc": "tensordesc<fp16[64,64]>", "b_desc": "tensordesc<fp16[64,64]>",
                                "c_ptr": "*fp32", "K": "i32", "stride_cm": "i32"},
    "slot_load_kernel": {"src": "*fp32", "dst": "*fp32", "n_tiles": "i32"},
    "try_wait_kernel": {"flags": "*i32"},
    "set_layout_kernel": {"x_ptr": "*fp32", "y_ptr": "*fp32"},
    "ws_prims_kernel": {"x_desc": "tensordesc<fp16[64,64]>", "w_ptr": "*fp16", "out": "*fp32", "n_tiles": "i32"},
    "ws_set_layout_kernel": {"x_ptr": "*fp32", "y_ptr": "*fp32", "z_ptr": "*fp32"},
    "ranged_slot_kernel": {"src": "*fp32", "dst": "*fp32", "n_tiles": "i32"},
}
