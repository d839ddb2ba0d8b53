"""Producer/consumer kernels with tle.pipe and tle.gpu.warp_specialize.

Shared by test_pipe.py (CPU: compile to PTX, errors) and test_pipe_gpu.py
(H100: results against torch).
"""
import triton
import triton.language as tl

import tle


# --- ring copy: a 1-warp producer fills a ring, the default partition drains it


@triton.jit
def _ring_producer(w, src, n_tiles, BLOCK: tl.constexpr, ASYNC: tl.constexpr = False):
    offs = tl.arange(0, BLOCK)
    base = tl.program_id(0) * n_tiles * BLOCK
    for i in range(n_tiles):
        slot = w.acquire()
        if ASYNC:  # cp.async into the slot; the commit publishes it when it lands
            tle.gpu.copy(src + base + i * BLOCK + offs, slot["x"], [BLOCK], is_async=True)
        else:
            x = tl.load(src + base + i * BLOCK + offs)
            tle.gpu.local_store(slot["x"], x)
        w.commit(slot)


@triton.jit
def _ring_consumer(r, dst, n_tiles, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    base = tl.program_id(0) * n_tiles * BLOCK
    for i in range(n_tiles):
        slot, closed = r.wait()
        x = tle.gpu.local_load(slot["x"])
        r.release(slot)
        tl.store(dst + base + i * BLOCK + offs, x * 2 + 1)


@triton.jit
def ring_copy(src, dst, n_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr, PRODUCER_WARPS: tl.constexpr,
              ASYNC: tl.constexpr = False):
    """dst = src * 2 + 1, tile by tile through a STAGES-deep pipe (ASYNC: slots
    filled by tle.gpu.copy(is_async=True))."""
    p = tle.pipe(STAGES, name="ring", readers="c", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_ring_consumer, (p.reader("c"), dst, n_tiles, BLOCK)),
                             (_ring_producer, (p.writer(), src, n_tiles, BLOCK, ASYNC))],
                            worker_num_warps=[PRODUCER_WARPS], worker_num_regs=[40])


# --- two readers in two worker partitions, the producer in the default one


@triton.jit
def _fan_producer(w, src, n_tiles, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot = w.acquire()
        tle.gpu.local_store(slot["x"], tl.load(src + i * BLOCK + offs))
        w.commit(slot)


@triton.jit
def _fan_reader(r, dst, n_tiles, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot, closed = r.wait()
        x = tle.gpu.local_load(slot["x"])
        r.release(slot)
        tl.store(dst + i * BLOCK + offs, x * SCALE)


@triton.jit
def fan_out(src, dst_a, dst_b, n_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    """dst_a = 2 * src and dst_b = 3 * src: every slot is read by both readers."""
    p = tle.pipe(STAGES, name="fan", readers="a, b", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_fan_producer, (p.writer(), src, n_tiles, BLOCK)),
                             (_fan_reader, (p.reader("a"), dst_a, n_tiles, 2.0, BLOCK)),
                             (_fan_reader, (p.reader("b"), dst_b, n_tiles, 3.0, BLOCK))],
                            worker_num_warps=[2, 4], worker_num_regs=[80, 80])


# --- close: the reader does not know the tile count


@triton.jit
def _stream_producer(w, src, n_tiles, BLOCK: tl.constexpr, ASYNC: tl.constexpr = False):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot = w.acquire()
        if ASYNC:
            tle.gpu.copy(src + i * BLOCK + offs, slot["x"], [BLOCK], is_async=True)
        else:
            tle.gpu.local_store(slot["x"], tl.load(src + i * BLOCK + offs))
        w.commit(slot)
    w.close()


@triton.jit
def _stream_consumer(r, dst, count, max_tiles, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    seen = 0
    done = False
    for i in range(max_tiles + 1):
        if not done:
            slot, closed = r.wait()
            if closed:
                done = True
            else:
                acc += tle.gpu.local_load(slot["x"])
                r.release(slot)
                seen += 1
    tl.store(dst + offs, acc)
    tl.store(count, seen)


@triton.jit
def stream_sum(src, dst, count, n_tiles, max_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr,
               ASYNC: tl.constexpr = False):
    """dst = sum of the n_tiles tiles; count = tiles the reader saw before the
    close (ASYNC: slots filled by cp.async, so the close arrives as a commit
    of such a pipe does)."""
    p = tle.pipe(STAGES, name="stream", readers="sum", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_stream_consumer, (p.reader(), dst, count, max_tiles, BLOCK)),
                             (_stream_producer, (p.writer(), src, n_tiles, BLOCK, ASYNC))],
                            worker_num_warps=[1])


# --- one-shot pipe: a 2-D tile handed over once


@triton.jit
def _once_writer(w, src, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    slot = w.acquire()
    tle.gpu.local_store(slot["t"], tl.load(src + rows * N + cols))
    w.commit(slot)


@triton.jit
def _once_reader(r, dst, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    slot, closed = r.wait()
    t = tle.gpu.local_load(slot["t"])
    tl.store(dst + rows * N + cols, tl.sum(t, axis=1)[:, None] + t)


@triton.jit
def one_shot_tile(src, dst, M: tl.constexpr, N: tl.constexpr):
    """dst = src + row sums of src, the tile crossing a one-shot pipe."""
    p = tle.pipe(1, name="once", readers="r", one_shot=True, t=tle.gpu.alloc([1, M, N], tl.float32))
    tle.gpu.warp_specialize([(_once_reader, (p.reader(), dst, M, N)), (_once_writer, (p.writer(), src, M, N))],
                            worker_num_warps=[4], worker_num_regs=[96])


@triton.jit
def _once_doubler(r, dst, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    slot, closed = r.wait()
    tl.store(dst + rows * N + cols, 2.0 * tle.gpu.local_load(slot["t"]))


@triton.jit
def one_shot_before(src, dst, dst2, M: tl.constexpr, N: tl.constexpr):
    """dst = src + row sums of src, dst2 = 2 src: the kernel body (all its
    warps) fills a one-shot pipe before the warp_specialize its two readers
    run in (FlagTree's query hand-off)."""
    p = tle.pipe(1, name="once", readers=("a", "b"), one_shot=True, t=tle.gpu.alloc([1, M, N], tl.float32))
    w = p.writer()
    slot = w.acquire()
    tle.gpu.local_store(slot["t"], tl.load(src + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]))
    w.commit(slot)
    tle.gpu.warp_specialize([(_once_reader, (p.reader("a"), dst, M, N)), (_once_doubler, (p.reader("b"), dst2, M, N))],
                            worker_num_warps=[4], worker_num_regs=[96])


# --- wgmma on slots: a producer streams K tiles, the consumer runs q @ k^T and p @ k


@triton.jit
def _dot_producer(w, kv, n_tiles, BN: tl.constexpr, D: tl.constexpr, ASYNC: tl.constexpr = False):
    rows = tl.arange(0, BN)[:, None] * D + tl.arange(0, D)[None, :]
    for i in range(n_tiles):
        if ASYNC:
            slot = w.acquire()
            tle.gpu.copy(kv + i * BN * D + rows, slot["k"], [BN, D], is_async=True)
        else:
            k = tl.load(kv + i * BN * D + rows)
            slot = w.acquire()
            tle.gpu.local_store(slot["k"], k)
        w.commit(slot)


@triton.jit
def _dot_accumulate(r, q, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    qt = tl.load(q + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :])
    acc = tl.zeros([M, D], tl.float32)
    for i in range(n_tiles):
        slot, closed = r.wait()
        k = tle.gpu.local_load(slot["k"])
        r.release(slot)
        s = tl.dot(qt, tl.trans(k))              # [M, BN]: the slot read as K^T
        acc = tl.dot(s.to(tl.float16), k, acc)   # [M, D]: and as V
    return acc


@triton.jit
def _dot_consumer(r, q, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    acc = _dot_accumulate(r, q, n_tiles, M, BN, D)
    tl.store(out + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :], acc)


@triton.jit
def ring_dot(q, kv, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr, STAGES: tl.constexpr,
             ASYNC: tl.constexpr = False):
    """out = sum_i (q @ k_i^T) @ k_i over n_tiles BN x D tiles k_i streamed through a pipe;
    the consumer's wgmmas read the slots in place (triton-tle-forward-pipe-mma-operands).
    ASYNC: the producer fills the slots with cp.async (tle.gpu.copy(is_async=True))."""
    p = tle.pipe(STAGES, name="kv", readers="mma", k=([BN, D], tl.float16))
    tle.gpu.warp_specialize([(_dot_consumer, (p.reader("mma"), q, out, n_tiles, M, BN, D)),
                             (_dot_producer, (p.writer(), kv, n_tiles, BN, D, ASYNC))],
                            worker_num_warps=[4], worker_num_regs=[96])


# --- results of the default partition: the epilogue runs after warp_specialize


@triton.jit
def _sum_consumer(r, n_tiles, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], tl.float32)
    seen = 0
    for i in range(n_tiles):
        slot, closed = r.wait()
        acc += tle.gpu.local_load(slot["x"])
        r.release(slot)
        seen += 1
    return acc, tl.sum(acc), seen


@triton.jit
def ring_sum(src, dst, total, count, n_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    """dst = the sum of the n_tiles tiles, total = its sum, count = tiles seen: reduced by the
    default partition, which returns them; the stores run after the warp_specialize."""
    p = tle.pipe(STAGES, name="sum", readers="r", x=([BLOCK], tl.float32))
    acc, s, seen = tle.gpu.warp_specialize([(_sum_consumer, (p.reader(), n_tiles, BLOCK)),
                                            (_ring_producer, (p.writer(), src, n_tiles, BLOCK))],
                                           worker_num_warps=[1], worker_num_regs=[40])
    tl.store(dst + tl.arange(0, BLOCK), acc)
    tl.store(total, s)
    tl.store(count, seen)


@triton.jit
def ring_dot_result(q, kv, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
                    STAGES: tl.constexpr):
    """ring_dot with the store after the warp_specialize: the default partition returns the
    accumulator, and the epilogue's layout conversion may reuse the slots' shared memory."""
    p = tle.pipe(STAGES, name="kv", readers="mma", k=([BN, D], tl.float16))
    acc = tle.gpu.warp_specialize([(_dot_accumulate, (p.reader("mma"), q, n_tiles, M, BN, D)),
                                   (_dot_producer, (p.writer(), kv, n_tiles, BN, D))],
                                  worker_num_warps=[4], worker_num_regs=[96])
    tl.store(out + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :], acc)


SIGNATURES = {
    "ring_copy": (ring_copy, {"src": "*fp32", "dst": "*fp32", "n_tiles": "i32"}),
    "fan_out": (fan_out, {"src": "*fp32", "dst_a": "*fp32", "dst_b": "*fp32", "n_tiles": "i32"}),
    "stream_sum": (stream_sum, {"src": "*fp32", "dst": "*fp32", "count": "*i32", "n_tiles": "i32",
                                "max_tiles": "i32"}),
    "one_shot_tile": (one_shot_tile, {"src": "*fp32", "dst": "*fp32"}),
    "one_shot_before": (one_shot_before, {"src": "*fp32", "dst": "*fp32", "dst2": "*fp32"}),
    "ring_dot": (ring_dot, {"q": "*fp16", "kv": "*fp16", "out": "*fp32", "n_tiles": "i32"}),
    "ring_sum": (ring_sum, {"src": "*fp32", "dst": "*fp32", "total": "*fp32", "count": "*i32", "n_tiles": "i32"}),
    "ring_dot_result": (ring_dot_result, {"q": "*fp16", "kv": "*fp16", "out": "*fp32", "n_tiles": "i32"}),
}


# --- TMA row gathers into the slots (tle.gpu.copy from a tensor descriptor)


@triton.jit
def _gather_producer(w, table, idx, n_tiles, BN: tl.constexpr, W: tl.constexpr, COL: tl.constexpr):
    for i in range(n_tiles):
        rows = tl.load(idx + i * BN + tl.arange(0, BN))
        slot = w.acquire()
        tle.gpu.copy(table, slot["x"], [BN, W], offsets=[rows, COL], is_async=True)
        w.commit(slot)


@triton.jit
def _gather_consumer(r, out, n_tiles, BN: tl.constexpr, W: tl.constexpr):
    offs = tl.arange(0, BN)[:, None] * W + tl.arange(0, W)[None, :]
    for i in range(n_tiles):
        slot, closed = r.wait()
        x = tle.gpu.local_load(slot["x"])
        r.release(slot)
        tl.store(out + i * BN * W + offs, x)


@triton.jit
def ring_gather(table, idx, out, n_tiles, BN: tl.constexpr, W: tl.constexpr, STAGES: tl.constexpr,
                COL: tl.constexpr = 0, PRODUCER_WARPS: tl.constexpr = 1):
    """out[i] = table[idx[i], COL:COL + W] for n_tiles * BN indices: TMA row gathers of a
    [1, W]-block tensor descriptor into a STAGES-deep pipe (rows outside table read 0)."""
    p = tle.pipe(STAGES, name="rows", readers="c", x=([BN, W], table.dtype))
    tle.gpu.warp_specialize([(_gather_consumer, (p.reader("c"), out, n_tiles, BN, W)),
                             (_gather_producer, (p.writer(), table, idx, n_tiles, BN, W, COL))],
                            worker_num_warps=[PRODUCER_WARPS], worker_num_regs=[40])


@triton.jit
def _gather_dot_producer(w, table, idx, n_tiles, BN: tl.constexpr, D: tl.constexpr):
    for i in range(n_tiles):
        rows = tl.load(idx + i * BN + tl.arange(0, BN))
        slot = w.acquire()
        tle.gpu.copy(table, slot["k"], [BN, D], offsets=[rows, 0], is_async=True)
        w.commit(slot)


@triton.jit
def ring_gather_dot(q, table, idx, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
                    STAGES: tl.constexpr):
    """ring_dot over gathered tiles: k_i = table[idx[i*BN:(i+1)*BN]] by TMA, read in place by
    the consumer's wgmmas (as K^T and as V)."""
    p = tle.pipe(STAGES, name="kv", readers="mma", k=([BN, D], tl.float16))
    tle.gpu.warp_specialize([(_dot_consumer, (p.reader("mma"), q, out, n_tiles, M, BN, D)),
                             (_gather_dot_producer, (p.writer(), table, idx, n_tiles, BN, D))],
                            worker_num_warps=[4], worker_num_regs=[96])


SIGNATURES.update({
    "ring_gather": (ring_gather, {"table": "tensordesc<fp16[1,64]>", "idx": "*i32", "out": "*fp16",
                                  "n_tiles": "i32"}),
    "ring_gather_dot": (ring_gather_dot, {"q": "*fp16", "table": "tensordesc<fp16[1,64]>", "idx": "*i32",
                                          "out": "*fp32", "n_tiles": "i32"}),
})


# --- cursors: FlagTree's loop-carried positions (stage, phase) in place of the
# compiler's slot counters. Positions are iterations of one sequence from 0
# (the rings' barriers start fresh): the producer's second loop resumes at
# w.cursor(split), recomputed from the iteration, where its first stopped.


@triton.jit
def _cursor_producer(w, src, n_tiles, split, R: tl.constexpr, BLOCK: tl.constexpr, GATHER: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]
    first = tl.program_id(0) * n_tiles
    cursor = w.cursor(0)
    for i in range(n_tiles):
        if i == split:  # the same position, from the iteration (stage i % STAGES, phase (i // STAGES) & 1)
            cursor = w.cursor(i)
        slot = w.acquire(cursor)
        if GATHER:  # TMA row gathers: src is a [1, BLOCK]-block descriptor of the [rows, BLOCK] table
            rows = (first + i) * R + tl.arange(0, R)
            tle.gpu.copy(src, slot.data, [R, BLOCK], offsets=[rows, 0], is_async=True)
        else:
            tle.gpu.local_store(slot.data, tl.load(src + (first + i) * R * BLOCK + offs))
        w.commit(cursor)
        cursor = cursor.advance()
    w.close(cursor)


@triton.jit
def _cursor_consumer(r, dst, stages, n_tiles, R: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]
    first = tl.program_id(0) * n_tiles
    cursor = r.cursor(0)
    for i in range(n_tiles):
        got = r.wait(cursor)
        x = tle.gpu.local_load(got.slot.data)
        r.release(cursor)
        tl.store(dst + (first + i) * R * BLOCK + offs, x * 2 + cursor.stage)
        cursor = cursor.advance()
    # The writer's close: the wait after the last item reports it.
    done = r.wait(cursor)
    tl.store(stages + tl.program_id(0), done.is_closed.to(tl.int32) * 100 + cursor.stage)


@triton.jit
def cursor_ring(src, dst, stages, n_tiles, split, R: tl.constexpr, BLOCK: tl.constexpr, STAGES: tl.constexpr,
                GATHER: tl.constexpr = False):
    """dst = src * 2 + (the slot each R x BLOCK tile went through, i % STAGES), through a
    STAGES-deep pipe whose endpoints carry cursors; stages[program] = 100 (closed) + n_tiles %
    STAGES. FlagTree's spelling: data= field, slot.data, wait(...).slot / .is_closed, .advance()."""
    data = tle.gpu.alloc([STAGES, R, BLOCK], dtype=tl.float32)
    p = tle.pipe(capacity=STAGES, scope="cta", name="cursor_ring", readers="c", data=data)
    tle.gpu.warp_specialize([(_cursor_consumer, (p.reader("c"), dst, stages, n_tiles, R, BLOCK)),
                             (_cursor_producer, (p.writer(), src, n_tiles, split, R, BLOCK, GATHER))],
                            worker_num_warps=[1], worker_num_regs=[40])


SIGNATURES["cursor_ring"] = (cursor_ring, {"src": "*fp32", "dst": "*fp32", "stages": "*i32", "n_tiles": "i32",
                                           "split": "i32"})


# --- readers that see a subset of the fields (FlagTree's pipe.reader(name, fields=...))


@triton.jit
def _pair_producer(w, src, n_tiles, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot = w.acquire()
        x = tl.load(src + i * BLOCK + offs)
        tle.gpu.local_store(slot.k, x)
        tle.gpu.local_store(slot.v, x * 10)
        w.commit(slot)


@triton.jit
def _one_field_reader(r, dst, n_tiles, FIELD: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot, closed = r.wait()
        tl.store(dst + i * BLOCK + offs, tle.gpu.local_load(slot[FIELD]))
        r.release(slot)


@triton.jit
def field_subsets(src, dst_k, dst_v, n_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    """dst_k = src through reader "a" (fields k), dst_v = src * 10 through reader "b" (fields v)."""
    p = tle.pipe(STAGES, name="pair", readers="a, b", k=([BLOCK], tl.float32), v=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_pair_producer, (p.writer(), src, n_tiles, BLOCK)),
                             (_one_field_reader, (p.reader("a", fields=("k", )), dst_k, n_tiles, "k", BLOCK)),
                             (_one_field_reader, (p.reader("b", fields="v"), dst_v, n_tiles, "v", BLOCK))],
                            worker_num_warps=[4, 4])


SIGNATURES["field_subsets"] = (field_subsets, {"src": "*fp32", "dst_k": "*fp32", "dst_v": "*fp32", "n_tiles": "i32"})


# --- local pointers into slots (FlagTree's local_ptr(slot.field, ...))


@triton.jit
def _pointer_producer(w, src, n_tiles, BLOCK: tl.constexpr, KEEP: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot = w.acquire()
        x = tl.load(src + i * BLOCK + offs)
        # A whole tile, then a masked one over it: the elements the mask
        # leaves out keep the first (a read-modify-write of a memdesc field).
        tl.store(tle.gpu.local_ptr(slot.k), x)
        tl.store(tle.gpu.local_ptr(slot.k), -x, mask=offs >= KEEP)
        # Scattered through indexed pointers: a pointer field.
        tl.store(tle.gpu.local_ptr(slot.g, (BLOCK - 1 - offs, )), x * 10)
        w.commit(slot)


@triton.jit
def _pointer_consumer(r, dst_k, dst_g, n_tiles, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(n_tiles):
        slot, closed = r.wait()
        tl.store(dst_k + i * BLOCK + offs, tl.load(tle.gpu.local_ptr(slot.k)))
        tl.store(dst_g + i * BLOCK + offs, tl.load(tle.gpu.local_ptr(slot.g)))
        r.release(slot)


@triton.jit
def slot_pointers(src, dst_k, dst_g, n_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr, KEEP: tl.constexpr):
    """dst_k = src where offs < KEEP, else -src (a masked store over a whole
    one, through local pointers of the slot); dst_g = 10 * src reversed per
    tile (scattered through indexed local pointers of the slot)."""
    p = tle.pipe(STAGES, name="ptrs", readers="r", k=([BLOCK], tl.float32), g=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_pointer_consumer, (p.reader(), dst_k, dst_g, n_tiles, BLOCK)),
                             (_pointer_producer, (p.writer(), src, n_tiles, BLOCK, KEEP))], worker_num_warps=[4])


SIGNATURES["slot_pointers"] = (slot_pointers, {"src": "*fp32", "dst_k": "*fp32", "dst_g": "*fp32", "n_tiles": "i32"})


# --- a one-shot pipe read where it is written (FlagTree's FlashMLA prefill Q hand-off)


@triton.jit
def _self_reader(w, r, src, dst, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    slot = w.acquire()
    tle.gpu.local_store(slot["t"], tl.load(src + offs))
    w.commit(slot)
    mine, closed = r.wait()
    tl.store(dst + offs, 2.0 * tle.gpu.local_load(mine["t"]))


@triton.jit
def _plus_one(r, dst, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    slot, closed = r.wait()
    tl.store(dst + offs, tle.gpu.local_load(slot["t"]) + 1.0)


@triton.jit
def one_shot_self(src, dst, dst2, M: tl.constexpr, N: tl.constexpr):
    """dst = 2 src, dst2 = src + 1: the default partition fills a one-shot
    pipe and reads it as reader "a"; a worker reads it as reader "b"."""
    p = tle.pipe(1, name="self", readers=("a", "b"), one_shot=True, t=tle.gpu.alloc([1, M, N], tl.float32))
    tle.gpu.warp_specialize([(_self_reader, (p.writer(), p.reader("a"), src, dst, M, N)),
                             (_plus_one, (p.reader("b"), dst2, M, N))], worker_num_warps=[4])


SIGNATURES["one_shot_self"] = (one_shot_self, {"src": "*fp32", "dst": "*fp32", "dst2": "*fp32"})


# --- one-shot slots filled and stored out by synchronous TMA copies (FlagTree's sparse MLA Q)


@triton.jit
def _tma_q_half(r, k, out_desc, row, FIELD: tl.constexpr, COL: tl.constexpr, M: tl.constexpr, D: tl.constexpr):
    slot, closed = r.wait()
    q = tl.load(tle.gpu.local_ptr(slot[FIELD]))
    kt = tl.load(k + tl.arange(0, D)[:, None] * D + tl.arange(0, D)[None, :])
    acc = tl.dot(q, kt)
    keep = (tl.arange(0, D)[None, :] < D // 2) & (tl.arange(0, M)[:, None] < M)
    tl.store(tle.gpu.local_ptr(slot[FIELD]), acc.to(tl.float16), mask=keep)
    tle.gpu.copy(slot[FIELD], out_desc, [M, D], [row, COL])


@triton.jit
def tma_q_handoff(q_desc, k, out_desc, M: tl.constexpr, D: tl.constexpr):
    """FlagTree's sparse-MLA query hand-off, small: the kernel body fills a
    one-shot pipe's two slots (q_l, q_r: columns 0 and D of rows pid * M of
    q) by synchronous TMA copies; each of two readers multiplies its slot by
    k (D x D) with wgmma, writes the product's left half over the slot (the
    right half keeps q) and stores the slot out by a synchronous TMA copy.
    triton-tle-forward-pipe-mma-operands gives the fields the descriptors'
    layout: the TMA copies move the slots in place (no staging buffer) and
    the wgmmas read them there."""
    row = tl.program_id(0) * M
    p = tle.pipe(1, name="q", readers=("l", "r"), one_shot=True, q_l=tle.gpu.alloc([1, M, D], tl.float16),
                 q_r=tle.gpu.alloc([1, M, D], tl.float16))
    w = p.writer()
    slot = w.acquire()
    tle.gpu.copy(q_desc, slot["q_l"], [M, D], [row, 0])
    tle.gpu.copy(q_desc, slot["q_r"], [M, D], [row, D])
    w.commit(slot)
    tle.gpu.warp_specialize([(_tma_q_half, (p.reader("l", fields=("q_l", )), k, out_desc, row, "q_l", 0, M, D)),
                             (_tma_q_half, (p.reader("r", fields=("q_r", )), k, out_desc, row, "q_r", D, M, D))],
                            worker_num_warps=[4])


SIGNATURES["tma_q_handoff"] = (tma_q_handoff, {"q_desc": "tensordesc<fp16[64,64]>", "k": "*fp16",
                                               "out_desc": "tensordesc<fp16[64,64]>"})


# --- a plain buffer a pipe guards (FlagTree's sparse-MLA P tile)


@triton.jit
def _p_writer(w, p_buf, x, n_tiles, M: tl.constexpr, K: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]
    for i in range(n_tiles):
        v = tl.load(x + i * M * K + offs)
        slot = w.acquire()
        tl.store(tle.gpu.local_ptr(p_buf), v)
        tl.store(tle.gpu.local_ptr(slot["scale"]), tl.full([M], i + 1, tl.float32))
        w.commit(slot)


@triton.jit
def _p_reader(r, p_buf, v, out, n_tiles, M: tl.constexpr, K: tl.constexpr, D: tl.constexpr):
    vt = tl.load(v + tl.arange(0, K)[:, None] * D + tl.arange(0, D)[None, :])
    acc = tl.zeros([M, D], tl.float32)
    for i in range(n_tiles):
        slot, closed = r.wait()
        scale = tl.load(tle.gpu.local_ptr(slot["scale"]))
        p = tl.load(tle.gpu.local_ptr(p_buf))
        acc = tl.dot(p, vt, acc * scale[:, None])
        r.release(slot)
    tl.store(out + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :], acc)


@triton.jit
def guarded_p(x, v, out, n_tiles, M: tl.constexpr, K: tl.constexpr, D: tl.constexpr):
    """out = sum_i (prod_{j > i} (j + 1)) x_i @ v over n_tiles M x K tiles x_i,
    handed from a worker to the default partition through a plain buffer
    p_buf that a capacity-1 pipe guards (its scale field carries i + 1):
    the writer stores p_buf between acquire and commit, the reader loads it
    between wait and release. triton-tle-forward-pipe-mma-operands lets the
    reader's wgmma read p_buf in place (FlagTree's sparse-MLA P tile)."""
    p_buf = tle.gpu.alloc([M, K], tl.float16)
    p = tle.pipe(1, name="score", readers="r", scale=tle.gpu.alloc([1, M], tl.float32))
    tle.gpu.warp_specialize([(_p_reader, (p.reader("r"), p_buf, v, out, n_tiles, M, K, D)),
                             (_p_writer, (p.writer(), p_buf, x, n_tiles, M, K))], worker_num_warps=[4])


SIGNATURES["guarded_p"] = (guarded_p, {"x": "*fp16", "v": "*fp16", "out": "*fp32", "n_tiles": "i32"})


# --- one buffer, two pipes, each guarding a column half (FlagTree's FlashMLA prefill KV)


@triton.jit
def _halves_producer(lo, hi, kv, idx, n_tiles, BN: tl.constexpr, D: tl.constexpr):
    rows = tl.broadcast_to(tl.arange(0, BN)[:, None], (BN, D))
    cols = tl.broadcast_to(tl.arange(0, D)[None, :], (BN, D))
    for i in range(n_tiles):
        r = tl.load(idx + i * BN + tl.arange(0, BN))
        ok = (r >= 0)[:, None] & (cols < D)
        src = kv + tl.where(r >= 0, r, 0)[:, None] * (2 * D) + tl.arange(0, D)[None, :]
        s = lo.acquire()
        tl.store(tle.gpu.local_ptr(s["k"], (rows, cols)), tl.load(src, mask=ok, other=0.0), mask=ok)
        lo.commit(s)
        s = hi.acquire()
        tl.store(tle.gpu.local_ptr(s["k"], (rows, cols + D)), tl.load(src + D, mask=ok, other=0.0), mask=ok)
        hi.commit(s)


@triton.jit
def _halves_consumer(lo, hi, q, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * (2 * D) + tl.arange(0, D)[None, :]
    q_lo = tl.load(q + offs)
    q_hi = tl.load(q + offs + D)
    rows = tl.broadcast_to(tl.arange(0, BN)[:, None], (BN, D))
    cols = tl.broadcast_to(tl.arange(0, D)[None, :], (BN, D))
    acc_lo = tl.zeros([M, D], tl.float32)
    acc_hi = tl.zeros([M, D], tl.float32)
    for i in range(n_tiles):
        a, closed = lo.wait()
        k_lo = tl.load(tle.gpu.local_ptr(a["k"], (rows, cols)))
        b, closed = hi.wait()
        k_hi = tl.load(tle.gpu.local_ptr(b["k"], (rows, cols + D)))
        s = tl.dot(q_lo, tl.trans(k_lo))
        s = tl.dot(q_hi, tl.trans(k_hi), s)
        p = s.to(tl.float16)
        acc_lo = tl.dot(p, k_lo, acc_lo)
        acc_hi = tl.dot(p, k_hi, acc_hi)
        lo.release(a)
        hi.release(b)
    tl.store(out + offs, acc_lo)
    tl.store(out + offs + D, acc_hi)


@triton.jit
def kv_halves(q, kv, idx, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    """out = sum_i s_i @ k_i with s_i = q @ k_i^T (fp16), k_i the BN x 2D
    rows kv[idx[i]] (a row whose index is negative keeps the row of the
    last tile that wrote it). One buffer is a field of two capacity-1 pipes,
    each guarding one column half: the worker stores each half through
    rectangular local pointers (masked: FlagTree's FlashMLA prefill KV), the
    default partition loads the halves the same way for four dots.
    triton-tle-optimize-local-pointer-loads / -stores make the accesses
    whole-block accesses of ttg.memdesc_subslice views, so the buffer
    leaves TLE's pointer region, and triton-tle-forward-pipe-mma-operands
    lets the wgmmas read the blocks in place (no copy of either half)."""
    buf = tle.gpu.alloc([1, BN, 2 * D], tl.float16)
    lo = tle.pipe(1, name="lo", readers="r", k=buf)
    hi = tle.pipe(1, name="hi", readers="r", k=buf)
    tle.gpu.warp_specialize([(_halves_consumer, (lo.reader("r"), hi.reader("r"), q, out, n_tiles, M, BN, D)),
                             (_halves_producer, (lo.writer(), hi.writer(), kv, idx, n_tiles, BN, D))],
                            worker_num_warps=[4])


SIGNATURES["kv_halves"] = (kv_halves, {"q": "*fp16", "kv": "*fp16", "idx": "*i32", "out": "*fp32", "n_tiles": "i32"})
