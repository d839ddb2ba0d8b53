"""Kernels whose Triton 3.6 IR forms TLE's interop corpus.

Each entry of KERNELS is (name, jit function, signature, constexprs, options).
They cover the op, type and encoding families Triton 3.6 produces for sm_90,
and for sm_100 (``CAPABILITY``) those of the features that need Blackwell:
TMA gather/scatter, tcgen05 MMAs and tensor memory.
"""
import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def fused_softmax(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    start = tl.program_id(0)
    step = tl.num_programs(0)
    for row in tl.range(start, n_rows, step, num_stages=2):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        y = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row * out_stride + cols, y, mask=cols < n_cols)


@triton.jit
def layer_norm(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    var_acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        var_acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(var_acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y.to(tl.float16), mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = GROUP * num_n
    gid = pid // group
    first_m = gid * GROUP
    gsize = min(num_m - first_m, GROUP)
    pid_m = first_m + ((pid % group) % gsize)
    pid_n = (pid % group) // gsize
    offs_am = (pid_m * BM + tl.arange(0, BM)) % M
    offs_bn = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_bn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(tl.float16)
    offs_cm = pid_m * BM + tl.arange(0, BM)
    offs_cn = pid_n * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + scm * offs_cm[:, None] + scn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def flash_attn_fwd(Q, K, V, sm_scale, Out, stride_qm, stride_kn, stride_vn, stride_om, N_CTX,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(tl.float16))


@triton.jit
def scan_cumsum(x_ptr, y_ptr, z_ptr, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows[:, None] * BLOCK + cols[None, :])
    tl.store(y_ptr + rows[:, None] * BLOCK + cols[None, :], tl.cumsum(x, axis=1))
    tl.store(z_ptr + rows[:, None] * BLOCK + cols[None, :], tl.cumprod(x, axis=0, reverse=True))


@triton.jit
def histogram(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, BINS)
    tl.atomic_add(out_ptr + tl.arange(0, BINS), h)


@triton.jit
def atomics(ptr, lock, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.atomic_add(ptr + offs, 1.0, mask=mask)
    tl.atomic_max(out + offs, offs, mask=mask, sem="relaxed")
    tl.atomic_min(out + offs, offs, mask=mask, scope="cta")
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    old = tl.atomic_xchg(out, 7, sem="acq_rel", scope="gpu")
    tl.atomic_and(out + 1, old)
    tl.atomic_or(out + 2, old)
    tl.atomic_xor(out + 3, old)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def persistent_tma_matmul(a_desc, b_desc, c_desc, M, N, K,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, NUM_SMS: tl.constexpr,
                          WS: tl.constexpr = False):
    start = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    for tile in tl.range(start, num_m * num_n, NUM_SMS, flatten=True, warp_specialize=WS):
        pid_m = tile // num_n
        pid_n = tile % num_n
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([pid_m * BM, ki * BK])
            b = b_desc.load([pid_n * BN, ki * BK])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


@triton.jit
def fp8_matmul(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    om = tl.arange(0, BM)
    on = tl.arange(0, BN)
    ok = tl.arange(0, BK)
    a = tl.load(a_ptr + om[:, None] * BK + ok[None, :])
    b = tl.load(b_ptr + ok[:, None] * BN + on[None, :])
    acc = tl.dot(a, b, out_dtype=tl.float32)
    tl.store(c_ptr + om[:, None] * BN + on[None, :], acc.to(tl.float8e4nv))


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)


@triton.jit
def multi_reduce(x_ptr, vmax_ptr, imax_ptr, sum_ptr, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows[:, None] * BLOCK + cols[None, :])
    idx = tl.broadcast_to(cols[None, :], (ROWS, BLOCK))
    v, i = tl.reduce((x, idx), 1, _argmax_combine)
    tl.store(vmax_ptr + rows, v)
    tl.store(imax_ptr + rows, i)
    tl.store(sum_ptr + rows, tl.sum(x * x, axis=1))


@triton.jit
def inline_asm(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)


@triton.jit
def shape_ops(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    j = tl.join(x, y)
    a, b = tl.split(tl.permute(tl.reshape(j, (BLOCK // 2, 2, 2)), (0, 2, 1)).reshape(BLOCK, 2))
    s = tl.sort(a + b)
    f = tl.flip(s, 0)
    g = tl.gather(f, (offs * 3) % BLOCK, 0)
    r = tl.where(g > 0, tl.math.rsqrt(tl.abs(g) + 1.0), tl.math.fma(g, g, 1.0))
    r = tl.clamp(r, -2.0, 2.0)
    r = tl.extra.cuda.libdevice.tanh(r)
    tl.device_assert(BLOCK > 0, "block must be positive")
    tl.store(out_ptr + offs, r.to(tl.bfloat16).to(tl.float32) + tl.cast(offs, tl.float32))


@triton.jit
def block_ptr_dot3(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a_blk = tl.make_block_ptr(a_ptr, (M, K), (K, 1), (0, 0), (M, K), (1, 0))
    b_blk = tl.make_block_ptr(b_ptr, (K, N), (N, 1), (0, 0), (K, N), (1, 0))
    a = tl.load(a_blk, boundary_check=(0, 1))
    b = tl.load(tl.advance(b_blk, (0, 0)), boundary_check=(0,))
    c = tl.dot(a, b, input_precision="tf32")
    c = tl.dot(a, b, c, input_precision="ieee")
    tl.store(tl.make_block_ptr(c_ptr, (M, N), (N, 1), (0, 0), (M, N), (1, 0)), c)
    tl.device_print("c", c)


@triton.jit
def _mx_ranges(M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # Row, column and K offsets, and one scale per 32 elements of K.
    return tl.arange(0, M), tl.arange(0, N), tl.arange(0, K), tl.arange(0, K // 32)


@triton.jit
def dot_scaled_mx(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, k_tiles,
                  M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # mxfp8 x mxfp8, both scaled (one e8m0 scale per 32 elements), in a
    # pipelined loop; sm_90 emulates it with bf16 wgmma.
    om, on, ok, oks = _mx_ranges(M, N, K)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k in tl.range(0, k_tiles, num_stages=2):
        a = tl.load(a_ptr + k * M * K + om[:, None] * K + ok[None, :])
        b = tl.load(b_ptr + k * K * N + ok[:, None] * N + on[None, :])
        sa = tl.load(as_ptr + k * M * (K // 32) + om[:, None] * (K // 32) + oks[None, :])
        sb = tl.load(bs_ptr + k * N * (K // 32) + on[:, None] * (K // 32) + oks[None, :])
        acc = tl.dot_scaled(a, sa, "e4m3", b, sb, "e5m2", acc)
    tl.store(c_ptr + om[:, None] * N + on[None, :], acc)


@triton.jit
def dot_scaled_fp4(a_ptr, b_ptr, bs_ptr, c_ptr, d_ptr, as_ptr,
                   M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # bf16 x mxfp4 (two e2m1 per byte along K, only the right side scaled),
    # then e2m1 x bf16 with fast math.
    om, on, ok, oks = _mx_ranges(M, N, K)
    a = tl.load(a_ptr + om[:, None] * K + ok[None, :])
    b = tl.load(b_ptr + tl.arange(0, K // 2)[:, None] * N + on[None, :])
    sb = tl.load(bs_ptr + on[:, None] * (K // 32) + oks[None, :])
    c = tl.dot_scaled(a, None, "bf16", b, sb, "e2m1")
    tl.store(c_ptr + om[:, None] * N + on[None, :], c)
    p = tl.load(d_ptr + om[:, None] * (K // 2) + tl.arange(0, K // 2)[None, :])
    sa = tl.load(as_ptr + om[:, None] * (K // 32) + oks[None, :])
    d = tl.dot_scaled(p, sa, "e2m1", a.trans(), None, "bf16", c, fast_math=True)
    tl.store(c_ptr + M * N + om[:, None] * N + on[None, :], d)


@triton.jit
def dot_scaled_m_packed(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # mxfp4 x mxfp4 packed along M and N (lhs_k_pack / rhs_k_pack = false).
    a = tl.load(a_ptr + tl.arange(0, M // 2)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :])
    sa = tl.load(as_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    sb = tl.load(bs_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1", lhs_k_pack=False, rhs_k_pack=False)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


@triton.jit
def _clamp_pair(x, y):
    if x > y:
        return y, x - y
    else:
        return x, y - x


@triton.jit
def _max_pair(a0, a1, b0, b1):
    return tl.maximum(a0, b0), tl.maximum(a1, b1)


@triton.jit
def map_elementwise(x_ptr, y_ptr, lo_ptr, gap_ptr, m_ptr, BLOCK: tl.constexpr):
    # A scalar function with branches (a multi-block region), two results;
    # then one packing two elements per call.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    lo, gap = tl.map_elementwise(_clamp_pair, x, y)
    tl.store(lo_ptr + offs, lo)
    tl.store(gap_ptr + offs, gap)
    m, = tl.map_elementwise(_max_pair, x.to(tl.float16), y.to(tl.float16), pack=2)
    tl.store(m_ptr + offs, m)


@triton.jit
def desc_atomics(d, e, x_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # Descriptor reductions: TMA reduce (ttng.async_tma_reduce).
    x = tl.load(x_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
    d.atomic_add([0, 0], x)
    e.atomic_min([BM, 0], x.to(tl.int32))
    e.atomic_max([tl.program_id(0), 0], x.to(tl.int32))


@triton.jit
def device_tma(a_ptr, c_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Descriptors made in the kernel: written to global scratch memory.
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    c = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = a.load([tl.program_id(0) * BM, 0])
    c.store([tl.program_id(0) * BM, 0], x * 2)


@triton.jit
def gather_scatter(src, dst, idx_ptr, out_ptr, col, BM: tl.constexpr, BN: tl.constexpr):
    # TMA gather4 / scatter4 (Blackwell): rows picked by an index tensor.
    rows = tl.load(idx_ptr + tl.arange(0, BM))
    x = src.gather(rows, col)
    tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], x)
    dst.scatter(x * 2, rows, 0)


@triton.jit
def matmul_sm100(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # tl.dot on Blackwell: tcgen05 MMA into tensor memory.
    om = tl.arange(0, BM)
    on = tl.arange(0, BN)
    ok = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = tl.load(a_ptr + om[:, None] * K + (k + ok)[None, :])
        b = tl.load(b_ptr + (k + ok)[:, None] * BN + on[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + om[:, None] * BN + on[None, :], acc.to(tl.float16))


@triton.jit
def dot_scaled_tma_sm100(a_desc, as_ptr, b_desc, bs_ptr, c_ptr, k_tiles,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Microscaled tcgen05 MMA, scales in tensor memory.
    om = tl.arange(0, BM)
    on = tl.arange(0, BN)
    oks = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, k_tiles, num_stages=3):
        a = a_desc.load([0, k * BK])
        b = b_desc.load([0, k * BK])
        sa = tl.load(as_ptr + k * BM * (BK // 32) + om[:, None] * (BK // 32) + oks[None, :])
        sb = tl.load(bs_ptr + k * BN * (BK // 32) + on[:, None] * (BK // 32) + oks[None, :])
        acc = tl.dot_scaled(a, sa, "e4m3", b.T, sb, "e4m3", acc)
    tl.store(c_ptr + om[:, None] * BN + on[None, :], acc)


def _tma_sig(dtype, shape):
    return f"tensordesc<{dtype}[{shape[0]}, {shape[1]}]>"


_PERSISTENT_SIG = {"a_desc": _tma_sig("fp16", (128, 64)), "b_desc": _tma_sig("fp16", (128, 64)),
                   "c_desc": _tma_sig("fp16", (128, 128)), "M": "i32", "N": "i32", "K": "i32",
                   "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "NUM_SMS": "constexpr"}

# (name, kernel, signature, constexprs, options)
KERNELS = [
    ("vector_add", vector_add,
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 1024}, {}),
    ("fused_softmax", fused_softmax,
     {"out_ptr": "*fp32", "in_ptr": "*fp32", "in_stride": "i32", "out_stride": "i32", "n_rows": "i32",
      "n_cols": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}, {"num_warps": 8}),
    ("layer_norm", layer_norm,
     {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32", "Rstd": "*fp32",
      "stride": "i32", "N": "i32", "eps": "fp32", "BLOCK": "constexpr"}, {"BLOCK": 512}, {}),
    ("matmul", matmul,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
      "sam": "i32", "sak": "i32", "sbk": "i32", "sbn": "i32", "scm": "i32", "scn": "i32",
      "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "GROUP": "constexpr"},
     {"BM": 128, "BN": 128, "BK": 64, "GROUP": 8, "sak": 1, "sbn": 1, "scn": 1}, {"num_stages": 3}),
    ("flash_attn_fwd", flash_attn_fwd,
     {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "Out": "*fp16", "stride_qm": "i32",
      "stride_kn": "i32", "stride_vn": "i32", "stride_om": "i32", "N_CTX": "i32",
      "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "HEAD_DIM": "constexpr"},
     {"BLOCK_M": 128, "BLOCK_N": 64, "HEAD_DIM": 64}, {"num_warps": 8, "num_stages": 3}),
    ("scan_cumsum", scan_cumsum,
     {"x_ptr": "*i32", "y_ptr": "*i32", "z_ptr": "*i32", "BLOCK": "constexpr", "ROWS": "constexpr"},
     {"BLOCK": 256, "ROWS": 8}, {}),
    ("histogram", histogram,
     {"x_ptr": "*i32", "out_ptr": "*i32", "n": "i32", "BLOCK": "constexpr", "BINS": "constexpr"},
     {"BLOCK": 1024, "BINS": 64}, {}),
    ("atomics", atomics,
     {"ptr": "*fp32", "lock": "*i32", "out": "*i32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 256}, {}),
    ("persistent_tma_matmul", persistent_tma_matmul, _PERSISTENT_SIG,
     {"BM": 128, "BN": 128, "BK": 64, "NUM_SMS": 132}, {"num_stages": 3}),
    ("fp8_matmul", fp8_matmul,
     {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp8e4nv", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, {}),
    ("multi_reduce", multi_reduce,
     {"x_ptr": "*fp32", "vmax_ptr": "*fp32", "imax_ptr": "*i32", "sum_ptr": "*fp32", "BLOCK": "constexpr",
      "ROWS": "constexpr"}, {"BLOCK": 128, "ROWS": 16}, {}),
    ("inline_asm", inline_asm,
     {"x_ptr": "*i32", "y_ptr": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, {}),
    ("shape_ops", shape_ops,
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128}, {}),
    ("block_ptr_dot3", block_ptr_dot3,
     {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "constexpr", "N": "constexpr",
      "K": "constexpr"}, {"M": 64, "N": 64, "K": 32}, {}),
    ("dot_scaled_mx", dot_scaled_mx,
     {"a_ptr": "*fp8e4nv", "as_ptr": "*u8", "b_ptr": "*fp8e5", "bs_ptr": "*u8", "c_ptr": "*fp32", "k_tiles": "i32",
      "M": "constexpr", "N": "constexpr", "K": "constexpr"}, {"M": 128, "N": 128, "K": 128}, {}),
    ("dot_scaled_fp4", dot_scaled_fp4,
     {"a_ptr": "*bf16", "b_ptr": "*u8", "bs_ptr": "*u8", "c_ptr": "*fp32", "d_ptr": "*u8", "as_ptr": "*u8",
      "M": "constexpr", "N": "constexpr", "K": "constexpr"}, {"M": 128, "N": 128, "K": 128}, {}),
    ("dot_scaled_m_packed_sm100", dot_scaled_m_packed,
     {"a_ptr": "*u8", "as_ptr": "*u8", "b_ptr": "*u8", "bs_ptr": "*u8", "c_ptr": "*fp32",
      "M": "constexpr", "N": "constexpr", "K": "constexpr"}, {"M": 128, "N": 128, "K": 128}, {}),
    ("map_elementwise", map_elementwise,
     {"x_ptr": "*fp32", "y_ptr": "*fp32", "lo_ptr": "*fp32", "gap_ptr": "*fp32", "m_ptr": "*fp16",
      "BLOCK": "constexpr"}, {"BLOCK": 256}, {}),
    ("desc_atomics", desc_atomics,
     {"d": _tma_sig("fp32", (64, 64)), "e": _tma_sig("i32", (64, 64)), "x_ptr": "*fp32", "BM": "constexpr",
      "BN": "constexpr"}, {"BM": 64, "BN": 64}, {}),
    ("device_tma", device_tma,
     {"a_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
     {"BM": 64, "BN": 64}, {}),
    ("gather_scatter", gather_scatter,
     {"src": _tma_sig("bf16", (1, 128)), "dst": _tma_sig("bf16", (1, 128)), "idx_ptr": "*i32", "out_ptr": "*bf16",
      "col": "i32", "BM": "constexpr", "BN": "constexpr"}, {"BM": 16, "BN": 128}, {}),
    ("matmul_sm100", matmul_sm100,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"}, {"BM": 128, "BN": 256, "BK": 64}, {"num_warps": 8}),
    ("dot_scaled_tma_sm100", dot_scaled_tma_sm100,
     {"a_desc": _tma_sig("fp8e4nv", (128, 128)), "as_ptr": "*u8", "b_desc": _tma_sig("fp8e4nv", (128, 128)),
      "bs_ptr": "*u8", "c_ptr": "*fp32", "k_tiles": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
     {"BM": 128, "BN": 128, "BK": 128}, {}),
]

# Thread-block-cluster variants (num_ctas=2): encodings carry a CGALayout.
# multi_reduce is left out: Triton 3.6 itself compiles it with num_ctas=2 to
# different TTGIR and PTX from one run to the next, so no PTX comparison of it
# can be stable.
CLUSTER_VARIANTS = ["vector_add", "matmul", "histogram", "persistent_tma_matmul"]
KERNELS += [(f"{name}_cta2", kernel, sig, ce, dict(opt, num_ctas=2))
            for name, kernel, sig, ce, opt in list(KERNELS) if name in CLUSTER_VARIANTS]

# (matmul_sm100 with num_ctas=2, a tcgen05 MMA across the two CTAs of a
# cluster, is left out for the same reason as multi_reduce: Triton 3.6 compiles
# it to different PTX from one run to the next. test/Interop/ttng-ops.mlir
# holds its `two_ctas` and `CTASplitM` forms.)

# Automatic warp specialization (tl.range(..., warp_specialize=True)) of the
# persistent TMA matmul, which Triton 3.6 does for Blackwell.
KERNELS += [("persistent_tma_matmul_ws_sm100", persistent_tma_matmul, dict(_PERSISTENT_SIG, WS="constexpr"),
             {"BM": 128, "BN": 128, "BK": 64, "NUM_SMS": 148, "WS": True}, {"num_stages": 3})]

# Gluon kernels (warp specialization, mbarriers) live in corpus_gluon.py.
# Triton kernels are captured at TTIR and TTGIR; Gluon kernels start at TTGIR
# and are captured as Triton prints them after the frontend ("source") and
# after its TTGIR passes ("ttgir", the input of the LLVM stage).
from corpus_gluon import GLUON_KERNELS, GLUON_SM100  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402

KERNELS += GLUON_KERNELS

# Kernels captured for sm_100 (Blackwell); every other one for sm_90.
CAPABILITY = {name: 100 for name in ["dot_scaled_m_packed_sm100", "gather_scatter", "matmul_sm100",
                                     "dot_scaled_tma_sm100", "persistent_tma_matmul_ws_sm100", *GLUON_SM100]}


def target(name):
    """The GPUTarget corpus kernel `name` is compiled for."""
    return GPUTarget("cuda", CAPABILITY.get(name, 90), 32)


def is_gluon(kernel):
    return getattr(kernel, "is_gluon", lambda: False)()


def ast_source(kernel, signature, constexprs):
    """The source object triton.compile takes for this corpus kernel."""
    cls = GluonASTSource if is_gluon(kernel) else ASTSource
    return cls(kernel, signature=signature, constexprs=constexprs)


def stages(kernel):
    """The captured stages: Triton kernels from TTIR, Gluon kernels from the
    frontend's TTGIR ("source")."""
    return ("source", "ttgir") if is_gluon(kernel) else ("ttir", "ttgir")
