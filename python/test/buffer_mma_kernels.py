"""A query tile shared by two warpgroups (python/test/test_buffer_mma_operands.py).

The kernel fills one tle.gpu.alloc buffer with Q before the warp_specialize;
the default partition computes S = Q K_lo^T and the worker S = Q K_hi^T, each
reading Q from the buffer. Without triton-tle-forward-buffer-mma-operands,
Triton gives each partition a copy of Q and loads it into registers for the
wgmma; with it, both wgmmas read the one buffer in place.
"""

import triton
import triton.language as tl

import tle


@triton.jit
def _scores(q_buf, k_ptr, s_ptr, COL0: tl.constexpr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    q = tle.gpu.local_load(q_buf)
    rows = COL0 + tl.arange(0, N)
    k = tl.load(k_ptr + rows[:, None] * D + tl.arange(0, D)[None, :])
    s = tl.dot(q, tl.trans(k))
    tl.store(s_ptr + tl.arange(0, M)[:, None] * (2 * N) + rows[None, :], s)


@triton.jit
def _scores_default(q_buf, k_ptr, s_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    _scores(q_buf, k_ptr, s_ptr, 0, M, N, D)


@triton.jit
def _scores_worker(q_buf, k_ptr, s_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    _scores(q_buf, k_ptr, s_ptr, N, M, N, D)


@triton.jit
def shared_query_scores(q_ptr, k_ptr, s_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    """s[M, 2N] = q[M, D] @ k[2N, D]^T, the two column halves in two warpgroups."""
    q_buf = tle.gpu.alloc([M, D], dtype=q_ptr.dtype.element_ty, scope=tle.gpu.smem)
    tle.gpu.local_store(q_buf, tl.load(q_ptr + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :]))
    tle.gpu.warp_specialize([(_scores_default, (q_buf, k_ptr, s_ptr, M, N, D)),
                             (_scores_worker, (q_buf, k_ptr, s_ptr, M, N, D))],
                            worker_num_warps=[4], worker_num_regs=[160])


SIGNATURE = {"q_ptr": "*fp16", "k_ptr": "*fp16", "s_ptr": "*fp32", "M": "constexpr", "N": "constexpr",
             "D": "constexpr"}


@triton.jit
def looped_query_scores(q_ptr, k_ptr, s_ptr, n_tiles, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    """s[M, N] = sum_i q[M, D] @ k_i[N, D]^T over n_tiles key tiles k_i; q
    is stored once into a buffer before the loop that reads it (no
    warp_specialize: the buffer is read-only in the loop)."""
    q_buf = tle.gpu.alloc([M, D], dtype=q_ptr.dtype.element_ty, scope=tle.gpu.smem)
    tle.gpu.local_store(q_buf, tl.load(q_ptr + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :]))
    acc = tl.zeros([M, N], tl.float32)
    for i in range(n_tiles):
        k = tl.load(k_ptr + (i * N + tl.arange(0, N))[:, None] * D + tl.arange(0, D)[None, :])
        acc = tl.dot(tle.gpu.local_load(q_buf), tl.trans(k), acc)
    tl.store(s_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], acc)


LOOPED_SIGNATURE = {"q_ptr": "*fp16", "k_ptr": "*fp16", "s_ptr": "*fp32", "n_tiles": "i32", "M": "constexpr",
                    "N": "constexpr", "D": "constexpr"}
