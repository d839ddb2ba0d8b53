"""Kernels written the way FlagTree's public TLE tests (python/test/tle) write
them, with FlagTree's import line changed to TLE's:

    import triton.experimental.tle.language.gpu as tle   # FlagTree
    import tle.gpu as tle                                # here

They cover what issue 32 found refused or broken: ``tle.pipeline`` loops,
``tle.local_ptr(buffer, offsets=...)``, synchronous TMA copies between a
tensor descriptor and a buffer, and ``tle.copy`` into buffers read through
local pointers inside a GEMM's K loop. Compiled on the CPU by
test_flagtree_compat.py, run against torch by test_flagtree_compat_gpu.py.
"""

import triton
import triton.language as tl

import tle.gpu as tle


@triton.jit
def pipeline_add_kernel(a_ptr, b_ptr, c_ptr, xnumel, ynumel, xstride_a, ystride_a, xstride_b, ystride_b, xstride_c,
                        ystride_c, XBLOCK: tl.constexpr, YBLOCK: tl.constexpr):
    # FlagTree's test_tle_pipeline_e2e elementwise add: copies into buffers,
    # full-view local pointers, a tle.pipeline loop.
    pid = tl.program_id(0)
    xoffs = pid * XBLOCK + tl.arange(0, XBLOCK)
    a_ptrs = a_ptr + xstride_a * xoffs[:, None]
    b_ptrs = b_ptr + xstride_b * xoffs[:, None]
    c_ptrs = c_ptr + xstride_c * xoffs[:, None]
    a_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    b_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    a_smem_ptrs = tle.local_ptr(a_smem)
    b_smem_ptrs = tle.local_ptr(b_smem)
    for yoff in tle.pipeline(0, ynumel, YBLOCK, num_stages=2):
        yoffs = tl.arange(0, YBLOCK) + yoff
        mask = (xoffs < xnumel)[:, None] & (yoffs < ynumel)[None, :]
        tle.copy(a_ptrs + ystride_a * yoffs[None, :], a_smem, [XBLOCK, YBLOCK])
        tle.copy(b_ptrs + ystride_b * yoffs[None, :], b_smem, [XBLOCK, YBLOCK])
        aval = tl.load(a_smem_ptrs)
        bval = tl.load(b_smem_ptrs)
        tl.store(c_ptrs + ystride_c * yoffs[None, :], aval + bval, mask=mask)


@triton.jit
def local_store_add_kernel(a_ptr, b_ptr, c_ptr, xnumel, ynumel, xstride_a, ystride_a, xstride_b, ystride_b,
                           xstride_c, ystride_c, XBLOCK: tl.constexpr, YBLOCK: tl.constexpr):
    # FlagTree's test_tle_local_store: the sum goes back through a buffer and
    # a buffer-to-global copy.
    pid = tl.program_id(0)
    xoffs = pid * XBLOCK + tl.arange(0, XBLOCK)
    a_ptrs = a_ptr + xstride_a * xoffs[:, None]
    b_ptrs = b_ptr + xstride_b * xoffs[:, None]
    c_ptrs = c_ptr + xstride_c * xoffs[:, None]
    a_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    b_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    c_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    a_smem_ptrs = tle.local_ptr(a_smem)
    b_smem_ptrs = tle.local_ptr(b_smem)
    c_smem_ptrs = tle.local_ptr(c_smem)
    for yoff in tle.pipeline(0, ynumel, YBLOCK, num_stages=2):
        yoffs = tl.arange(0, YBLOCK) + yoff
        tle.copy(a_ptrs + ystride_a * yoffs[None, :], a_smem, [XBLOCK, YBLOCK])
        tle.copy(b_ptrs + ystride_b * yoffs[None, :], b_smem, [XBLOCK, YBLOCK])
        aval = tl.load(a_smem_ptrs)
        bval = tl.load(b_smem_ptrs)
        tl.store(c_smem_ptrs, aval + bval)
        tle.copy(c_smem, c_ptrs + ystride_c * yoffs[None, :], [XBLOCK, YBLOCK])


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
def gemm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, DTYPE: tl.constexpr):
    # FlagTree's test_tle_gemm: tle.copy of both operands into buffers in the
    # K loop, read back through full-view local pointers for tl.dot.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    a_smem = tle.alloc([BLOCK_M, BLOCK_K], dtype=DTYPE, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    b_smem = tle.alloc([BLOCK_K, BLOCK_N], dtype=DTYPE, layout=None, scope=tle.smem, nv_mma_shared_layout=False)
    a_smem_ptrs = tle.local_ptr(a_smem)
    b_smem_ptrs = tle.local_ptr(b_smem)
    for k_start in range(0, K, BLOCK_K):
        k_offs = k_start + tl.arange(0, BLOCK_K)
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + k_offs[None, :] * stride_ak
        b_ptrs = b_ptr + k_offs[:, None] * stride_bk + offs_n[None, :] * stride_bn
        tle.copy(a_ptrs, a_smem, [BLOCK_M, BLOCK_K])
        tle.copy(b_ptrs, b_smem, [BLOCK_K, BLOCK_N])
        a_tile = tl.load(a_smem_ptrs)
        b_tile = tl.load(b_smem_ptrs)
        accumulator += tl.dot(a_tile, b_tile, input_precision="ieee")
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, accumulator, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def tma_copy_add_kernel(a_desc, b_desc, c_desc, ynumel, XBLOCK: tl.constexpr, YBLOCK: tl.constexpr):
    # FlagTree's test_tle_tma_copy: TMA loads into plain buffers, local
    # pointers on the same buffers, a TMA store out of a buffer.
    pid = tl.program_id(0)
    a_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    b_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    c_smem = tle.alloc([XBLOCK, YBLOCK], dtype=tl.float32, layout=None, scope=tle.smem)
    row_ids = tl.broadcast_to(tl.arange(0, XBLOCK)[:, None], (XBLOCK, YBLOCK))
    col_ids = tl.broadcast_to(tl.arange(0, YBLOCK)[None, :], (XBLOCK, YBLOCK))
    a_smem_ptrs = tle.local_ptr(a_smem, (row_ids, col_ids))
    b_smem_ptrs = tle.local_ptr(b_smem, (row_ids, col_ids))
    c_smem_ptrs = tle.local_ptr(c_smem, (row_ids, col_ids))
    for yoff in range(0, ynumel, YBLOCK):
        tle.copy(a_desc, a_smem, [XBLOCK, YBLOCK], [pid * XBLOCK, yoff])
        tle.copy(b_desc, b_smem, [XBLOCK, YBLOCK], [pid * XBLOCK, yoff])
        aval = tl.load(a_smem_ptrs)
        bval = tl.load(b_smem_ptrs)
        tl.store(c_smem_ptrs, aval + bval)
        tle.copy(c_smem, c_desc, [XBLOCK, YBLOCK], [pid * XBLOCK, yoff])


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
    "pipeline_add_kernel": {n: t for n, t in zip(
        ["a_ptr", "b_ptr", "c_ptr", "xnumel", "ynumel", "xstride_a", "ystride_a", "xstride_b", "ystride_b",
         "xstride_c", "ystride_c"], ["*fp32"] * 3 + ["i32"] * 8)},
    "gemm_kernel": {n: t for n, t in zip(
        ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
         "stride_cn"], ["*fp32"] * 3 + ["i32"] * 9)},
}
SIGNATURES["local_store_add_kernel"] = SIGNATURES["pipeline_add_kernel"]
