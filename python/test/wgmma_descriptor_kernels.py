"""Kernels for test_wgmma_descriptors.py."""

import triton
import triton.language as tl

import tle


@triton.jit
def resident_q(Q, K, O, N, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, ASYNC: tl.constexpr):
    """O = Q @ K^T summed over N / BN chunks of K: Q stays in shared memory for
    the whole loop, so its wgmma descriptors are loop-invariant."""
    offs_m = tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    offs_n = tl.arange(0, BN)
    q = tl.load(Q + offs_m[:, None] * D + offs_d[None, :])
    acc = tl.zeros([BM, BN], tl.float32)
    for start in range(0, N, BN):
        ptrs = K + (start + offs_n)[:, None] * D + offs_d[None, :]
        if ASYNC:
            k = tle.load(ptrs, is_async=True)
        else:
            k = tl.load(ptrs)
        acc += tl.dot(q, tl.trans(k))
    tl.store(O + offs_m[:, None] * BN + offs_n[None, :], acc)


@triton.jit
def exp2_buffer(X, Y, N: tl.constexpr):
    """exp2 (libdevice, llvm.nvvm.ex2.approx.ftz.f) in a kernel with a TLE
    shared-memory region, which the llir finish rewrites."""
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    i = tl.arange(0, N)
    r = N - 1 - i  # in reverse: by address, not the whole buffer in order (TLE's region)
    tl.store(tle.gpu.local_ptr(buf, (r,)), tl.load(X + r))
    tl.store(Y + i, tl.math.exp2(tl.load(tle.gpu.local_ptr(buf, (i,)))))
