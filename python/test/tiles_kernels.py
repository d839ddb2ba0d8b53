"""Kernels using tle.extract_tile / tle.insert_tile (shared by the CPU and GPU tests)."""

import triton
import triton.language as tl

import tle


@triton.jit
def extract_2d(X, Y, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr, IDX: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    t = tle.extract_tile(x, IDX, [TM, TN])
    tl.store(Y + tl.arange(0, TM)[:, None] * TN + tl.arange(0, TN)[None, :], t)


@triton.jit
def extract_2d_dynamic(X, Y, idx, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    t = tle.extract_tile(x, idx, [TM, TN])
    tl.store(Y + tl.arange(0, TM)[:, None] * TN + tl.arange(0, TN)[None, :], t)


@triton.jit
def extract_1d(X, Y, idx, N: tl.constexpr, T: tl.constexpr, DYNAMIC: tl.constexpr, IDX: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    if DYNAMIC:
        t = tle.extract_tile(x, idx, [T])
    else:
        t = tle.extract_tile(x, IDX, [T])
    tl.store(Y + tl.arange(0, T), t)


@triton.jit
def insert_2d(X, T, Y, idx, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr,
              DYNAMIC: tl.constexpr, IDX: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    t = tl.load(T + tl.arange(0, TM)[:, None] * TN + tl.arange(0, TN)[None, :])
    if DYNAMIC:
        y = tle.insert_tile(x, t, idx)
    else:
        y = tle.insert_tile(x, t, IDX)
    tl.store(Y + offs, y)


@triton.jit
def insert_2d_and_sum(X, T, Y, S, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr,
                      IDX: tl.constexpr):
    """insert_2d with the result also summed: the inserted tensor itself is needed."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    t = tl.load(T + tl.arange(0, TM)[:, None] * TN + tl.arange(0, TN)[None, :])
    y = tle.insert_tile(x, t, IDX)
    tl.store(Y + offs, y)
    tl.store(S, tl.sum(tl.sum(y, axis=1), axis=0))


@triton.jit
def insert_1d(X, T, Y, idx, N: tl.constexpr, TN: tl.constexpr, DYNAMIC: tl.constexpr, IDX: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    t = tl.load(T + tl.arange(0, TN))
    if DYNAMIC:
        y = tle.insert_tile(x, t, idx)
    else:
        y = tle.insert_tile(x, t, IDX)
    tl.store(Y + tl.arange(0, N), y)


@triton.jit
def relu_sub_tile(X, Y, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr,
                  R: tl.constexpr, C: tl.constexpr):
    """The seeds' example: ReLU on tile (R, C) only, tensor-method form."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    sub = x.extract_tile(index=[R, C], shape=[TM, TN])
    sub = tl.maximum(sub, 0.0)
    x = x.insert_tile(sub, index=[R, C])
    tl.store(Y + offs, x)


@triton.jit
def swap_tiles_dynamic(X, Y, a, b, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr):
    """Tiles a and b (dynamic) exchanged."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    ta = tle.extract_tile(x, a, [TM, TN])
    tb = tle.extract_tile(x, b, [TM, TN])
    x = tle.insert_tile(x, tb, a)
    x = tle.insert_tile(x, ta, b)
    tl.store(Y + offs, x)


@triton.jit
def dot_of_tiles(A, B, C, idx, M: tl.constexpr, K: tl.constexpr, N: tl.constexpr):
    """C (2M x N) = zeros with row block idx (dynamic) set to A[row block idx] @ B: the tiles meet
    tl.dot's operand and mma layouts."""
    rows = tl.arange(0, 2 * M)
    a2 = tl.load(A + rows[:, None] * K + tl.arange(0, K)[None, :])
    a = tle.extract_tile(a2, idx, [M, K])
    b = tl.load(B + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    c = tl.dot(a, b)
    base = tl.zeros([2 * M, N], dtype=tl.float32)
    out = tle.insert_tile(base, c, idx)
    tl.store(C + rows[:, None] * N + tl.arange(0, N)[None, :], out)


@triton.jit
def loop_tiles(X, Y, M: tl.constexpr, N: tl.constexpr, TM: tl.constexpr, TN: tl.constexpr,
               TILES: tl.constexpr):
    """y = x with every tile scaled by (its number + 1), one dynamic extract/insert per loop step."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    for i in range(TILES):
        t = tle.extract_tile(x, i, [TM, TN])
        x = tle.insert_tile(x, t * (i + 1).to(tl.float32), i)
    tl.store(Y + offs, x)
