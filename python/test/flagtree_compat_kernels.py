"""Our own kernels in the style of FlagTree's public TLE tests (python/test/tle),
with FlagTree's import line changed to TLE's:

    import triton.experimental.tle.language.gpu as tle   # FlagTree
    import tle.gpu as tle                                # here

They cover ``tle.pipeline`` loops,
``tle.local_ptr(buffer, offsets=...)``, ``tle.local_ptr(buffer, indices,
shape)`` over a block of columns, synchronous TMA copies between a
tensor descriptor and a buffer, and ``tle.copy`` into buffers read through
local pointers inside a GEMM's K loop. Compiled on the CPU by
test_flagtree_compat.py, run against torch by test_flagtree_compat_gpu.py.
"""

import triton
import triton.language as tl

import tle.gpu as tle


@triton.jit
def staged_axpby_kernel(x_ptr, y_ptr, out_ptr, rows, cols, row_stride_x, row_stride_y, row_stride_out, alpha, beta,
                        BR: tl.constexpr, BC: tl.constexpr):
    # out = alpha * x + beta * y, a BR-row band per program, BC columns per
    # step of a tle.pipeline loop; both inputs are staged through buffers
    # (tle.copy) and read back through full-view local pointers.
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    xs = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    ys = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    x_view = tle.local_ptr(xs)
    y_view = tle.local_ptr(ys)
    for c0 in tle.pipeline(0, cols, BC, num_stages=2):
        c = c0 + tl.arange(0, BC)
        tle.copy(x_ptr + r[:, None] * row_stride_x + c[None, :], xs, [BR, BC])
        tle.copy(y_ptr + r[:, None] * row_stride_y + c[None, :], ys, [BR, BC])
        res = alpha * tl.load(x_view) + beta * tl.load(y_view)
        inside = (r[:, None] < rows) & (c[None, :] < cols)
        tl.store(out_ptr + r[:, None] * row_stride_out + c[None, :], res, mask=inside)


@triton.jit
def staged_diff_kernel(x_ptr, y_ptr, out_ptr, cols, row_stride, BR: tl.constexpr, BC: tl.constexpr):
    # out = x - y through three buffers: the difference is written into the
    # third through local pointers and leaves by a buffer-to-global tle.copy
    # (whole blocks: rows and cols multiples of BR and BC).
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    base = r[:, None] * row_stride
    xs = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    ys = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    ds = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    for c0 in tle.pipeline(0, cols, BC, num_stages=3):
        c = c0 + tl.arange(0, BC)[None, :]
        tle.copy(x_ptr + base + c, xs, [BR, BC])
        tle.copy(y_ptr + base + c, ys, [BR, BC])
        tl.store(tle.local_ptr(ds), tl.load(tle.local_ptr(xs)) - tl.load(tle.local_ptr(ys)))
        tle.copy(ds, out_ptr + base + c, [BR, BC])


@triton.jit
def pipeline_global_add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    # tle.pipeline without buffers: Triton pipelines the global loads.
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in tle.pipeline(0, n, BLOCK, num_stages=STAGES):
        offs = off + tl.arange(0, BLOCK)
        m = offs < n
        acc += tl.load(a_ptr + offs, mask=m, other=0.0) * tl.load(b_ptr + offs, mask=m, other=0.0)
    tl.store(c_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


@triton.jit
def copy_staged_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                              stride_cn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, DTYPE: tl.constexpr):
    # C = A @ B with both operand tiles staged by tle.copy in the K loop and
    # read back through full-view local pointers for tl.dot (the pattern of
    # FlagTree's GEMM test; fp32 tiles used to break the llir finish).
    m = tl.program_id(0) * BM + tl.arange(0, BM)
    n = tl.program_id(1) * BN + tl.arange(0, BN)
    kk = tl.arange(0, BK)
    a_tile = tle.alloc([BM, BK], dtype=DTYPE, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    b_tile = tle.alloc([BK, BN], dtype=DTYPE, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    a_src = a_ptr + m[:, None] * stride_am + kk[None, :] * stride_ak
    b_src = b_ptr + kk[:, None] * stride_bk + n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        tle.copy(a_src, a_tile, [BM, BK])
        tle.copy(b_src, b_tile, [BK, BN])
        acc = tl.dot(tl.load(tle.local_ptr(a_tile)), tl.load(tle.local_ptr(b_tile)), acc, input_precision="ieee")
        a_src += BK * stride_ak
        b_src += BK * stride_bk
    tl.store(c_ptr + m[:, None] * stride_cm + n[None, :] * stride_cn, acc, mask=(m[:, None] < M) & (n[None, :] < N))


@triton.jit
def tma_blend_kernel(a_desc, b_desc, out_desc, cols, BR: tl.constexpr, BC: tl.constexpr, EVICT: tl.constexpr = ""):
    # out = max(a, b) - a, block by block: two synchronous TMA loads into
    # buffers (a's with the L2 eviction policy EVICT, as FlagTree's test),
    # element access through indexed local pointers on the same buffers, a
    # synchronous TMA store out of a third buffer.
    row0 = tl.program_id(0) * BR
    a_buf = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    b_buf = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    o_buf = tle.alloc([BR, BC], dtype=tl.float32, layout=None, scope=tle.smem)
    i = tl.arange(0, BR)[:, None] + tl.zeros([BR, BC], tl.int32)
    j = tl.arange(0, BC)[None, :] + tl.zeros([BR, BC], tl.int32)
    for c0 in range(0, cols, BC):
        tle.copy(a_desc, a_buf, [BR, BC], [row0, c0], eviction_policy=EVICT)
        tle.copy(b_desc, b_buf, [BR, BC], [row0, c0])
        a = tl.load(tle.local_ptr(a_buf, (i, j)))
        b = tl.load(tle.local_ptr(b_buf, (i, j)))
        tl.store(tle.local_ptr(o_buf, (i, j)), tl.maximum(a, b) - a)
        tle.copy(o_buf, out_desc, [BR, BC], [row0, c0])


@triton.jit
def tma_roundtrip_kernel(x_desc, y_desc, BM: tl.constexpr, BN: tl.constexpr):
    # A TMA load into a buffer and a TMA store of it, nothing in between but
    # a whole-buffer load (memdesc buffer: no local pointers).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    buf = tle.alloc([BM, BN], dtype=tl.float16, layout=None, scope=tle.smem)
    tle.copy(x_desc, buf, [BM, BN], [pid_m * BM, pid_n * BN])
    tle.local_store(buf, tle.local_load(buf) * 2)
    tle.copy(buf, y_desc, [BM, BN], [pid_m * BM, pid_n * BN])


@triton.jit
def offsets_reverse_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    # local_ptr(offsets=) on a 1-D buffer: store in order, read reversed.
    idx = tl.arange(0, BLOCK)
    smem = tle.alloc([BLOCK], dtype=tl.float32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    tl.store(tle.local_ptr(smem, offsets=idx), tl.load(x_ptr + idx))
    vals = tl.load(tle.local_ptr(smem, offsets=BLOCK - 1 - idx))
    tl.store(out_ptr + idx, vals)


@triton.jit
def offsets_transpose_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    # local_ptr(offsets=) on a 2-D buffer with flat row-major offsets: the
    # buffer is filled whole, then read column by column as a 1-D tensor
    # (out[k] = x.T.flatten()[k]).
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    smem = tle.alloc([ROWS, COLS], dtype=tl.int32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    tle.copy(x_ptr + rows * COLS + cols, smem, [ROWS, COLS])
    k = tl.arange(0, ROWS * COLS)
    flat = (k % ROWS) * COLS + k // ROWS
    vals = tl.load(tle.local_ptr(smem, offsets=flat))
    tl.store(out_ptr + k, vals)


@triton.jit
def column_window_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, SLICE: tl.constexpr,
                         START: tl.constexpr):
    # FlagTree's axis gather: columns START ... START + SLICE - 1 of a buffer
    # read through one rectangle of local pointers (a block Triton cannot
    # view as a subslice unless START is a multiple of SLICE).
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    smem = tle.alloc([ROWS, COLS], dtype=tl.float32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    tle.copy(x_ptr + rows * COLS + cols, smem, [ROWS, COLS])
    window = START + tl.arange(0, SLICE)[None, :]
    vals = tl.load(tle.local_ptr(smem, (rows, window), (ROWS, SLICE)))
    tl.store(out_ptr + rows * SLICE + tl.arange(0, SLICE)[None, :], vals)


@triton.jit
def offsets_masked_gather_kernel(x_ptr, idx_ptr, out_ptr, n, ROWS: tl.constexpr, COLS: tl.constexpr,
                                 BLOCK: tl.constexpr):
    # Offsets read from memory (a gather), masked: out[i] = x.flatten()[idx[i]].
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    smem = tle.alloc([ROWS, COLS], dtype=tl.float32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    tle.copy(x_ptr + rows * COLS + cols, smem, [ROWS, COLS])
    i = tl.arange(0, BLOCK)
    m = i < n
    offs = tl.load(idx_ptr + i, mask=m, other=0)
    vals = tl.load(tle.local_ptr(smem, offsets=offs), mask=m, other=-1.0)
    tl.store(out_ptr + i, vals, mask=m)


SIGNATURES = {
    "staged_axpby_kernel": {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "rows": "i32", "cols": "i32",
                            "row_stride_x": "i32", "row_stride_y": "i32", "row_stride_out": "i32", "alpha": "fp32",
                            "beta": "fp32"},
    "staged_diff_kernel": {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "cols": "i32", "row_stride": "i32"},
    "copy_staged_matmul_kernel": {n: t for n, t in zip(
        ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
         "stride_cn"], ["*fp32"] * 3 + ["i32"] * 9)},
}


# --- FlagTree's transport-level asynchronous copies (its test_tle_gpu_async_copy.py):
# tle.copy(..., is_async=True) into plain buffers, tle.async_commit_group /
# tle.async_wait_group, mask= and eviction_policy=.


@triton.jit
def two_group_async_copy_kernel(in_ptr, out_ptr, BLOCK: tl.constexpr, READ_POINTERS: tl.constexpr):
    # Two groups in flight; the first is waited for and read while the second
    # may still be landing. READ_POINTERS 0: whole-buffer loads; 1: through
    # local pointers at (arange,), the whole buffer (whole-buffer loads
    # again, cp.async); 2: through local pointers in reverse order (the
    # buffers then live in TLE's pointer region and are filled
    # synchronously).
    offsets = tl.arange(0, BLOCK)
    if READ_POINTERS == 2:
        offsets = BLOCK - 1 - offsets
    stage0 = tle.alloc([BLOCK], dtype=tl.float32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    stage1 = tle.alloc([BLOCK], dtype=tl.float32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    tle.copy(in_ptr + tl.arange(0, BLOCK), stage0, [BLOCK], is_async=True)
    tle.async_commit_group()
    tle.copy(in_ptr + BLOCK + tl.arange(0, BLOCK), stage1, [BLOCK], is_async=True)
    tle.async_commit_group()
    tle.async_wait_group(1)
    if READ_POINTERS:
        values0 = tl.load(tle.local_ptr(stage0, (offsets, )))
    else:
        values0 = stage0.load()
    tl.store(out_ptr + offsets, values0 + 1.0)
    tle.async_wait_group(0)
    if READ_POINTERS:
        values1 = tl.load(tle.local_ptr(stage1, (offsets, )))
    else:
        values1 = stage1.load()
    tl.store(out_ptr + BLOCK + offsets, values1 + 2.0)


@triton.jit
def masked_async_copy_kernel(source, result, ROWS, COLS, TILE_ROWS: tl.constexpr, TILE_COLS: tl.constexpr):
    # Rows and columns outside the ROWS x COLS source land as zeros.
    row = tl.program_id(0) * TILE_ROWS + tl.arange(0, TILE_ROWS)[:, None]
    col = tl.arange(0, TILE_COLS)[None, :]
    stage = tle.alloc([TILE_ROWS, TILE_COLS], dtype=tl.float32, layout=None, scope=tle.smem,
                      nv_mma_shared_layout=False)
    tle.copy(source + row * COLS + col, stage, [TILE_ROWS, TILE_COLS], is_async=True,
             mask=(row < ROWS) & (col < COLS), eviction_policy="evict_first")
    tle.async_commit_group()
    tle.async_wait_group(0)
    tl.store(result + row * TILE_COLS + col, stage.load())


@triton.jit
def async_copy_ring_kernel(in_ptr, out_ptr, n_tiles, BLOCK: tl.constexpr, READ_POINTERS: tl.constexpr = 0):
    # A double-buffered loop: tile i + 1 is copied while tile i is read.
    # READ_POINTERS 1: each tile is read through local pointers into its slot
    # (FlagTree's local_ptr(buf.slot(i), (arange,)): the whole slot); 2: the
    # same in reverse order (a pointer buffer); 0: by slot loads.
    offsets = tl.arange(0, BLOCK)
    reads = tl.arange(0, BLOCK)
    if READ_POINTERS == 2:
        reads = BLOCK - 1 - reads
    bufs = tle.alloc([2, BLOCK], dtype=tl.float32, layout=None, scope=tle.smem,
                     nv_mma_shared_layout=READ_POINTERS == 0)
    tle.copy(in_ptr + offsets, bufs.slot(0), [BLOCK], is_async=True)
    tle.async_commit_group()
    for i in range(n_tiles):
        if i + 1 < n_tiles:
            tle.copy(in_ptr + (i + 1) * BLOCK + offsets, bufs.slot((i + 1) % 2), [BLOCK], is_async=True)
        tle.async_commit_group()
        tle.async_wait_group(1)
        if READ_POINTERS:
            tile = tl.load(tle.local_ptr(bufs.slot(i % 2), (reads, )))
        else:
            tile = bufs.slot(i % 2).load()
        tl.store(out_ptr + i * BLOCK + reads, tile * 3.0)
    tle.async_wait_group(0)


SIGNATURES.update({
    "two_group_async_copy_kernel": {"in_ptr": "*fp32", "out_ptr": "*fp32"},
    "masked_async_copy_kernel": {"source": "*fp32", "result": "*fp32", "ROWS": "i32", "COLS": "i32"},
    "async_copy_ring_kernel": {"in_ptr": "*fp32", "out_ptr": "*fp32", "n_tiles": "i32"},
})


@triton.jit
def slot_pointers_kernel(out_ptr, BLOCK: tl.constexpr):
    # Local pointers through slots (FlagTree's local_ptr(buf.slot(i), ...)):
    # slot 1 of a [2, 2, BLOCK] buffer, then its slot 0, written through the
    # slots and read back through pointers into the whole buffer.
    idx = tl.arange(0, BLOCK)
    buf = tle.alloc([2, 2, BLOCK], dtype=tl.int32, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    tl.store(tle.local_ptr(buf.slot(1), (tl.full([BLOCK], 0, tl.int32), idx)), idx + 7)
    tl.store(tle.local_ptr(buf.slot(1).slot(1), (idx, )), idx * 3)
    tl.store(tle.local_ptr(buf.slot(0).slot(1), (idx, )), idx - 5)
    ones = tl.full([BLOCK], 1, tl.int32)
    zeros = tl.full([BLOCK], 0, tl.int32)
    tl.store(out_ptr + idx, tl.load(tle.local_ptr(buf, (ones, zeros, idx))))
    tl.store(out_ptr + BLOCK + idx, tl.load(tle.local_ptr(buf, (ones, ones, idx))))
    tl.store(out_ptr + 2 * BLOCK + idx, tl.load(tle.local_ptr(buf.slot(0), (ones, idx))))


SIGNATURES["slot_pointers_kernel"] = {"out_ptr": "*i32"}


@triton.jit
def rematerialize_index_kernel(out32_ptr, out64_ptr, n, BLOCK: tl.constexpr):
    # FlagTree's tle.gpu.rematerialize_index: five copies of index values,
    # 32- and 64-bit, tensors and scalars, none merged with another.
    offs = tl.arange(0, BLOCK)
    wide = offs.to(tl.int64) + tl.program_id(0).to(tl.int64)
    a = tle.rematerialize_index(offs)
    b = tle.rematerialize_index(offs)
    c = tle.rematerialize_index(wide)
    s = tle.rematerialize_index(n)
    s64 = tle.rematerialize_index(tl.program_id(0).to(tl.int64))
    tl.store(out32_ptr + a, a + b + s)
    tl.store(out64_ptr + offs, c * 2 + s64)


@triton.jit
def bf16_async_copy_kernel(x_ptr, out_ptr, stride, SHIFT: tl.constexpr, R: tl.constexpr, C: tl.constexpr):
    # A bf16 tile copied by tle.copy(is_async=True): a cp.async when its
    # rows are provably 16-byte aligned runs, else a synchronous copy.
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    buf = tle.alloc([R, C], dtype=tl.bfloat16, layout=None, scope=tle.smem)
    tle.copy(x_ptr + SHIFT + rows * stride + cols, buf, [R, C], is_async=True)
    tle.async_commit_group()
    tle.async_wait_group(0)
    tl.store(out_ptr + rows * C + cols, tle.local_load(buf))
