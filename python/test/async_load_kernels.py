"""Kernels using tle.load(..., is_async=True), shared by the CPU and GPU tests."""

import triton
import triton.language as tl

import tle


@triton.jit
def masked_copy(X, Y, OUT, n, BLOCK: tl.constexpr):
    """OUT[i] = (X[i] if i < n else -1) + 2 * Y[i] for the whole padded block."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tle.load(X + offs, mask=offs < n, other=-1, is_async=True)
    y = tl.load(Y + offs)  # independent work between the copy and its first use
    tl.store(OUT + offs, x + 2 * y)


@triton.jit
def loop_accumulate(X, Y, OUT, K, BK: tl.constexpr, NS: tl.constexpr):
    """OUT[j] = sum over chunks k of a*b + a, a = X[k+j] (-1 past K), b = Y[k+j] (2 past K)."""
    offs = tl.arange(0, BK)
    acc = tl.zeros([BK], tl.float32)
    for k in tl.range(0, K, BK, num_stages=NS):
        m = (k + offs) < K
        a = tle.load(X + k + offs, mask=m, other=-1.0, is_async=True)
        b = tle.load(Y + k + offs, mask=m, other=2.0, is_async=True)
        acc += a * b + a
    tl.store(OUT + offs, acc)


@triton.jit
def loop_mixed(X, Y, OUT, K, BK: tl.constexpr, NS: tl.constexpr):
    """loop_accumulate with Y read by a plain tl.load."""
    offs = tl.arange(0, BK)
    acc = tl.zeros([BK], tl.float32)
    for k in tl.range(0, K, BK, num_stages=NS):
        m = (k + offs) < K
        a = tle.load(X + k + offs, mask=m, other=-1.0, is_async=True)
        b = tl.load(Y + k + offs, mask=m, other=2.0)
        acc += a * b + a
    tl.store(OUT + offs, acc)


@triton.jit
def loop_plain(X, Y, OUT, K, BK: tl.constexpr, NS: tl.constexpr):
    """loop_accumulate with plain tl.load only (the baseline)."""
    offs = tl.arange(0, BK)
    acc = tl.zeros([BK], tl.float32)
    for k in tl.range(0, K, BK, num_stages=NS):
        m = (k + offs) < K
        a = tl.load(X + k + offs, mask=m, other=-1.0)
        b = tl.load(Y + k + offs, mask=m, other=2.0)
        acc += a * b + a
    tl.store(OUT + offs, acc)


@triton.jit
def tile_rows(X, OUT, M, N: tl.constexpr, BM: tl.constexpr):
    """OUT = X * 2 + 1 for an M x N row-major matrix, rows past M read as -1 (not stored).

    (* 2 is exact, so a fused multiply-add rounds like torch's two ops.)"""
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, N)
    ptrs = X + rows[:, None] * N + cols[None, :]
    m = (rows < M)[:, None]
    x = tle.load(ptrs, mask=m, other=-1.0, is_async=True)
    tl.store(OUT + rows[:, None] * N + cols[None, :], x * 2 + 1, mask=m)


@triton.jit
def sync_load(X, OUT, n, BLOCK: tl.constexpr):
    """tle.load(is_async=False): exactly tl.load."""
    offs = tl.arange(0, BLOCK)
    x = tle.load(X + offs, mask=offs < n, other=-1, is_async=False)
    tl.store(OUT + offs, x)


@triton.jit
def plain_load(X, OUT, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=-1)
    tl.store(OUT + offs, x)


@triton.jit
def matmul(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, ASYNC: tl.constexpr):
    """C = A @ B (row-major, M % BM == N % BN == K % BK == 0), operands by tle.load(is_async=ASYNC)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = tle.load(A + rm[:, None] * K + (k + rk)[None, :], is_async=ASYNC)
        b = tle.load(B + (k + rk)[:, None] * N + rn[None, :], is_async=ASYNC)
        acc = tl.dot(a, b, acc)
    tl.store(C + rm[:, None] * N + rn[None, :], acc)
