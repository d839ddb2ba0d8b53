"""Batched 1-D complex FFT (complex64, N = 64 ... 1024, power of two): TLE vs plain Triton vs torch.fft.

Operation: Y[b, :] = fft(X[b, :]) — forward DFT, numpy/torch sign convention
(exp(-2 pi i n k / N)), unnormalized, over the last axis of a [B, N] complex64
tensor. Data layout: the kernels take ``torch.view_as_real(x)``, i.e. the
complex64 tensor as interleaved (re, im) fp32 pairs ([B, N, 2]), and write the
same layout; ``torch`` is ``torch.fft.fft(x, dim=-1)`` on the same complex64
tensor.

Algorithm (both Triton kernels, the same arithmetic): a Stockham autosort FFT
(natural order in and out, no bit reversal), radix 4, with one radix-2 stage
first when log2(N) is odd. Stage with span ``Ns`` (1, 4, 16, ... or 2, 8, 32,
...): for j in [0, N/4), read ``a_r = x[j + r N/4]`` (r = 0..3), twiddle
``a_r *= W_N^(r (j % Ns) N / (4 Ns))``, radix-4 butterfly, write
``X_r`` to ``y[(j // Ns) 4 Ns + r Ns + j % Ns]``. Twiddles come from a small
global table ``exp(-2 pi i k / N)`` (k < N, computed in float64 on the host,
L1/L2 resident): ``w1`` is loaded, ``w2 = w1^2``, ``w3 = w1 w2``.

- ``tle``: one program transforms ``ROWS`` rows. The first stage reads global
  memory (coalesced, ``[ROWS, N/4, 2]`` fp32 loads), the last one writes global
  memory (contiguous), and every exchange between stages goes through a
  shared-memory buffer (``tle.gpu.alloc``, re and im planes) with
  ``tl.store(tle.gpu.local_ptr(buf, (rows, perm)))`` /
  ``tl.load(tle.gpu.local_ptr(buf, (rows, cols)))``; TLE inserts the CTA
  barriers: one per exchange, none between a stage's four stores into a
  buffer (insert-local-pointer-barriers proves their index sets disjoint).
  Columns are padded (``p + p // 32``) against bank conflicts of the
  strided stores. Each element is read once and written once in DRAM.
  Tensors are 1-D over (row, column) pairs.
- ``tle-2d``: the same with 2-D ``[ROWS, columns]`` tensors and 2-D local
  pointers (row index ``[ROWS, 1]``, column index ``[1, W]``): twiddles are
  loaded per column, not per element, and select-encodings gives the
  shared-memory accesses the layout of the values (Triton's Coalesce would
  pick a column-major one). For N = 1024 the global loads / stores are
  contiguous ``[ROWS, 2 W]`` rows (16-byte accesses); at N = 512 it runs 8
  warps (with 4, Triton's layout of the last stage's global stores costs
  layout conversions: 11-19 ``bar.sync`` in its PTX).
- ``tle-r16``: ``tle`` with radix-16 stages, each two radix-4 layers in
  registers (4 x 4, the inner twiddles constants): N = 2^a 16^b 4^c (a radix-2
  stage first when log2(N) is odd, a radix-4 stage last when the remaining
  power of 4 is odd), so one shared-memory exchange serves two radix-4
  stages: half the shared-memory loads and stores of ``tle``, and with
  ping-pong buffer pairs (PP) 1, 2, 1, 2, 2 barriers for N = 64 ... 1024
  against ``tle``'s 2, 3, 3, 4, 4. The bench runs it with one pair read and
  written in place (PP False: 1, 3, 1, 3, 3 barriers, half the shared
  memory, more CTAs per multiprocessor; TLE16_CONFIG). One lane
  (r, j < N/16) per thread and stage; twiddles w, w^4 from the table, the
  other powers by products. Where no stage writes the second buffer pair
  (N = 64, 256) the compiler drops it (unused buffers allocate nothing).
- ``triton``: the same stages, the permutation between stages expressed with
  ``tl.reshape`` / ``tl.permute`` / ``tl.split`` / ``tl.join`` on the
  ``[ROWS, N]`` register tensors (Triton moves the data itself: layout
  conversions through its own shared memory or warp shuffles).
- ``triton-r16``: ``tle-r16``'s stage plan and arithmetic in plain Triton, the
  exchanges again Triton's reshapes / permutes / splits / joins (16-way trees):
  the baseline given the same algorithm. Its PTX has more CTA barriers and
  shared-memory accesses than ``triton``'s (N = 1024: 123 ``bar.sync`` against
  15), so ``triton`` stays the baseline unless a GPU run says otherwise.
- ``torch``: ``torch.fft.fft`` (cuFFT).

Check: relative L2 error vs ``torch.fft.fft`` of the input in complex128 on the
GPU, tolerance 1e-5 (fp32 FFTs of this size land around 1e-7).
Bandwidth floor: 2 * B * N * 8 bytes (read + write complex64).
Flops: 5 N log2(N) per row (the usual FFT count).
"""

from __future__ import annotations

import math
import os
import sys

import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402

import tle  # noqa: E402

TOL = 1e-5
SIZES = (64, 128, 256, 512, 1024)

# Per N: rows per program, num_warps (and ping-pong buffers for TLE). From a sweep
# on H100 (ROWS * N in {1024, 2048, 4096, 8192} elements, 4 or 8 warps): small
# programs win, 2048 elements for TLE, 1024 for plain Triton.
TLE_CONFIG = {n: dict(ROWS=2048 // n, PP=True, num_warps=4) for n in (64, 128, 256, 512, 1024)}
# tle-2d: FLAT global I/O ([ROWS, 2 W] rows, 16-byte accesses) where Triton lays it out
# without a convert (N = 1024); at N = 512 only 8 warps avoid converts at the last
# stage's global stores (PTX of the smoke kernels: 4 bar.sync instead of 11-19).
TLE2D_CONFIG = {n: dict(ROWS=2048 // n, PP=True, FLAT=n >= 1024, num_warps=8 if n == 512 else 4)
                for n in (64, 128, 256, 512, 1024)}
# Plain Triton: swept the same way on one H200 (ROWS * N in {512, ..., 4096} x 1, 2, 4, 8
# warps, 2026-11-28): one warp at N <= 256 (1.28x and 1.40x the H100's 4-warp pick at
# N = 128 and 256), 512 elements on 2 warps at N = 512, 1024 on 4 at N = 1024.
TRITON_CONFIG = {64: dict(ROWS=8, num_warps=1), 128: dict(ROWS=4, num_warps=1), 256: dict(ROWS=2, num_warps=1),
                 512: dict(ROWS=1, num_warps=2), 1024: dict(ROWS=1, num_warps=4)}
# tle-r16: one radix-16 butterfly per thread. From sweeps on one H200 (ROWS x warps x PP,
# do_bench median, 2026-11-28): one buffer pair read and written in place (PP False: two
# barriers an exchange, half the shared memory, so more CTAs per multiprocessor; Nsight
# Compute put the ping-pong kernel at 37.5% theoretical occupancy at N = 1024, limited by
# shared memory) wins or ties at every N; 512-2048 elements per program, few warps. At
# B = 1024 fewer rows per program matter most: 4 rows of 256 leave 256 CTAs for 132
# multiprocessors where 8 leave 128.
TLE16_CONFIG = {64: dict(ROWS=8, num_warps=1, PP=False), 128: dict(ROWS=4, num_warps=1, PP=False),
                256: dict(ROWS=4, num_warps=1, PP=False), 512: dict(ROWS=4, num_warps=4, PP=False),
                1024: dict(ROWS=2, num_warps=4, PP=False)}
# Batches of at most SMALL_B rows (one wave of CTAs or less: nothing hides a CTA's load,
# exchange and store latencies behind another's) at N = 256: fewer rows per program, more
# CTAs. Swept on one H200 for every provider alike (bench/_probe_fft_configs.py, 2026-11-29:
# rows x warps x PP, B = 1024 at N = 256 and 1024, B = 8192 at N = 1024, graph replays timed by
# do_bench, medians of three rounds against torch.fft in the same process): tle-r16 1.057x
# torch.fft at B = 1024, N = 256 with 2 rows on one warp (4 rows: 1.014x), tle 1.014x with
# one row on two warps, plain Triton 1.023x with one row on one warp (its N = 256 config:
# 0.98x); at N = 1024 every provider's config above stayed its best (tle-r16 1.009x and
# 0.984x torch.fft at B = 1024 and 8192, plain Triton 0.949x and 0.956x).
SMALL_B = 2048
SMALL_BATCH = {
    "tle": {256: dict(ROWS=1, num_warps=2, PP=True)},
    "tle-r16": {256: dict(ROWS=2, num_warps=1, PP=False)},
    "triton": {256: dict(ROWS=1, num_warps=1)},
}


# ---------------------------------------------------------------------------
# Shared arithmetic


@triton.jit
def _cmul(ar, ai, br, bi):
    return ar * br - ai * bi, ar * bi + ai * br


@triton.jit
def _radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i):
    """Forward radix-4 butterfly: X_k = sum_r a_r (-i)^(r k)."""
    t0r = a0r + a2r
    t0i = a0i + a2i
    t1r = a0r - a2r
    t1i = a0i - a2i
    t2r = a1r + a3r
    t2i = a1i + a3i
    t3r = a1i - a3i  # (a1 - a3) * (-i)
    t3i = a3r - a1r
    return (t0r + t2r, t0i + t2i, t1r + t3r, t1i + t3i,
            t0r - t2r, t0i - t2i, t1r - t3r, t1i - t3i)


@triton.jit
def _twiddles(TW, j, N: tl.constexpr, NS: tl.constexpr):
    """w1 = W_N^((j % NS) N / (4 NS)), w2 = w1^2, w3 = w1^3 (TW: cos table, then sin table)."""
    k = (j % NS) * (N // (4 * NS))
    w1r = tl.load(TW + k)
    w1i = tl.load(TW + N + k)
    w2r, w2i = _cmul(w1r, w1i, w1r, w1i)
    w3r, w3i = _cmul(w1r, w1i, w2r, w2i)
    return w1r, w1i, w2r, w2i, w3r, w3i


# ---------------------------------------------------------------------------
# TLE kernel: exchanges through shared memory


@triton.jit
def _exchange_buffers(ROWS: tl.constexpr, NP: tl.constexpr, PP: tl.constexpr):
    """The re / im planes stages exchange through: two pairs (b, c) to ping-pong between
    (PP), or one pair that b and c both name (read and written in place)."""
    bre = tle.gpu.alloc([ROWS, NP], dtype=tl.float32, scope=tle.gpu.smem)
    bim = tle.gpu.alloc([ROWS, NP], dtype=tl.float32, scope=tle.gpu.smem)
    if PP:
        cre = tle.gpu.alloc([ROWS, NP], dtype=tl.float32, scope=tle.gpu.smem)
        cim = tle.gpu.alloc([ROWS, NP], dtype=tl.float32, scope=tle.gpu.smem)
    else:
        cre = bre
        cim = bim
    return bre, bim, cre, cim


@triton.jit
def _gload(X, pos, mask):
    """(re, im) of X[pos] (1-D pos, element offsets into interleaved complex data): [M, 2] fp32 loads, split."""
    c = tl.arange(0, 2)[None, :]
    v = tl.load(X + pos[:, None] * 2 + c, mask=mask[:, None], other=0.0)
    return tl.split(v)


@triton.jit
def _gstore(Y, pos, mask, re, im):
    c = tl.arange(0, 2)[None, :]
    tl.store(Y + pos[:, None] * 2 + c, tl.join(re, im), mask=mask[:, None])


@triton.jit
def _sstore(bre, bim, r, pos, re, im):
    p = pos + (pos >> 5)
    tl.store(tle.gpu.local_ptr(bre, (r, p)), re)
    tl.store(tle.gpu.local_ptr(bim, (r, p)), im)


@triton.jit
def _sstore2(bre, bim, r, p0, p1, x0r, x0i, x1r, x1i):
    """Two scattered stores per plane. TLE proves the index sets disjoint (constant index
    tensors: insert-local-pointer-barriers), so no barrier goes between them."""
    _sstore(bre, bim, r, p0, x0r, x0i)
    _sstore(bre, bim, r, p1, x1r, x1i)


@triton.jit
def _sstore4(bre, bim, r, p0, p1, p2, p3, x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i):
    """Four scattered stores per plane, see _sstore2."""
    _sstore(bre, bim, r, p0, x0r, x0i)
    _sstore(bre, bim, r, p1, x1r, x1i)
    _sstore(bre, bim, r, p2, x2r, x2i)
    _sstore(bre, bim, r, p3, x3r, x3i)


@triton.jit
def _sload(bre, bim, r, pos):
    p = pos + (pos >> 5)
    return tl.load(tle.gpu.local_ptr(bre, (r, p))), tl.load(tle.gpu.local_ptr(bim, (r, p)))


@triton.jit
def _sload4(bre, bim, r, j, Q: tl.constexpr):
    """x[j + k Q] for k = 0..3 (re, im pairs). With Q a multiple of 32 the padding of
    j + k Q is the padding of j plus a constant, so the four loads share one computed
    index (the k Q + k Q / 32 fold into the address's immediate)."""
    if Q % 32 == 0:
        QP: tl.constexpr = Q + Q // 32
        pj = j + (j >> 5)
        a0r = tl.load(tle.gpu.local_ptr(bre, (r, pj)))
        a0i = tl.load(tle.gpu.local_ptr(bim, (r, pj)))
        a1r = tl.load(tle.gpu.local_ptr(bre, (r, pj + QP)))
        a1i = tl.load(tle.gpu.local_ptr(bim, (r, pj + QP)))
        a2r = tl.load(tle.gpu.local_ptr(bre, (r, pj + 2 * QP)))
        a2i = tl.load(tle.gpu.local_ptr(bim, (r, pj + 2 * QP)))
        a3r = tl.load(tle.gpu.local_ptr(bre, (r, pj + 3 * QP)))
        a3i = tl.load(tle.gpu.local_ptr(bim, (r, pj + 3 * QP)))
    else:
        a0r, a0i = _sload(bre, bim, r, j)
        a1r, a1i = _sload(bre, bim, r, j + Q)
        a2r, a2i = _sload(bre, bim, r, j + 2 * Q)
        a3r, a3i = _sload(bre, bim, r, j + 3 * Q)
    return a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i


@triton.jit
def _twiddled_radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i, TW, j, N: tl.constexpr, NS: tl.constexpr):
    """One radix-4 butterfly of span NS: a_r *= W_N^(r (j % NS) N / (4 NS)) (no twiddles when
    NS is 1), then the butterfly. Shared by every radix-4 stage of the TLE and Triton kernels."""
    if NS > 1:
        w1r, w1i, w2r, w2i, w3r, w3i = _twiddles(TW, j, N, NS)
        a1r, a1i = _cmul(a1r, a1i, w1r, w1i)
        a2r, a2i = _cmul(a2r, a2i, w2r, w2i)
        a3r, a3i = _cmul(a3r, a3i, w3r, w3i)
    return _radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i)


@triton.jit
def _tle_stage(sre, sim, dre, dim, TW, Yb, r, j, mq, N: tl.constexpr, NS: tl.constexpr):
    """One radix-4 Stockham stage of span NS: buffers (sre, sim) -> (dre, dim), or -> global
    memory for the last stage."""
    Q: tl.constexpr = N // 4
    a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i = _sload4(sre, sim, r, j, Q)
    x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i = _twiddled_radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i, TW, j, N,
                                                              NS)
    if NS * 4 == N:
        _gstore(Yb, r * N + j, mq, x0r, x0i)
        _gstore(Yb, r * N + j + Q, mq, x1r, x1i)
        _gstore(Yb, r * N + j + 2 * Q, mq, x2r, x2i)
        _gstore(Yb, r * N + j + 3 * Q, mq, x3r, x3i)
    else:
        base = (j // NS) * (4 * NS) + j % NS
        _sstore4(dre, dim, r, base, base + NS, base + 2 * NS, base + 3 * NS,
                 x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i)


@triton.jit
def _tle_radix2_first(Xb, bre, bim, nrows, ROWS: tl.constexpr, N: tl.constexpr):
    """The radix-2 first stage (span 1, no twiddles) when log2(N) is odd: global memory -> (bre, bim)."""
    H: tl.constexpr = N // 2
    m = tl.arange(0, ROWS * H)
    r = m // H
    jh = m % H
    mh = r < nrows
    a0r, a0i = _gload(Xb, r * N + jh, mh)
    a1r, a1i = _gload(Xb, r * N + jh + H, mh)
    _sstore2(bre, bim, r, 2 * jh, 2 * jh + 1, a0r + a1r, a0i + a1i, a0r - a1r, a0i - a1i)


@triton.jit
def fft_tle_kernel(X, Y, TW, B, N: tl.constexpr, LOGN: tl.constexpr, ROWS: tl.constexpr, PP: tl.constexpr):
    # PP: ping-pong between two buffer pairs (one CTA barrier per exchange: the
    # barrier before a stage's loads also orders the previous stage's loads of the
    # buffer it now writes); otherwise one pair, read and written in place (a
    # barrier before the loads and one before the stores).
    # Every tensor is 1-D over (row, column) pairs m = row * W + column, W = N/4
    # (or N/2 for the radix-2 stage): a 1-D layout puts consecutive columns on
    # consecutive lanes, whatever the compiler knows about the pointers.
    Q: tl.constexpr = N // 4
    NP: tl.constexpr = N + N // 32
    pid = tl.program_id(0)
    bre, bim, cre, cim = _exchange_buffers(ROWS, NP, PP)
    Xb = X + pid.to(tl.int64) * (ROWS * 2 * N)
    Yb = Y + pid.to(tl.int64) * (ROWS * 2 * N)
    nrows = B - pid * ROWS  # rows of this program that exist

    # First stage (span 1, no twiddles): global -> shared.
    if LOGN % 2 == 1:
        _tle_radix2_first(Xb, bre, bim, nrows, ROWS, N)
        NS0: tl.constexpr = 2
        NST: tl.constexpr = (LOGN - 1) // 2
    else:
        m = tl.arange(0, ROWS * Q)
        r = m // Q
        j = m % Q
        mq = r < nrows
        a0r, a0i = _gload(Xb, r * N + j, mq)
        a1r, a1i = _gload(Xb, r * N + j + Q, mq)
        a2r, a2i = _gload(Xb, r * N + j + 2 * Q, mq)
        a3r, a3i = _gload(Xb, r * N + j + 3 * Q, mq)
        x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i = _radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i)
        _sstore4(bre, bim, r, 4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3, x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i)
        NS0: tl.constexpr = 4
        NST: tl.constexpr = LOGN // 2 - 1

    # Radix-4 stages: shared -> shared, the last one shared -> global.
    m = tl.arange(0, ROWS * Q)
    r = m // Q
    j = m % Q
    mq = r < nrows
    for s in tl.static_range(NST):
        if s % 2 == 0:
            _tle_stage(bre, bim, cre, cim, TW, Yb, r, j, mq, N, NS0 << (2 * s))
        else:
            _tle_stage(cre, cim, bre, bim, TW, Yb, r, j, mq, N, NS0 << (2 * s))


@triton.jit
def _gload2(X, start, mask, ROWS: tl.constexpr, W: tl.constexpr, FLAT: tl.constexpr):
    """(re, im) of X[start + w] for w < W ([ROWS, W] each; start is [ROWS, 1]). FLAT: one
    contiguous [ROWS, 2 W] fp32 load (16-byte accesses), reshaped and split; else
    [ROWS, W, 2] loads (8-byte accesses). Which one Triton lays out without a
    convert_layout depends on N (PTX of the smoke kernels)."""
    if FLAT:
        v = tl.load(X + start * 2 + tl.arange(0, 2 * W)[None, :], mask=mask, other=0.0)
        return tl.split(tl.reshape(v, [ROWS, W, 2]))
    else:
        pos = start + tl.arange(0, W)[None, :]
        v = tl.load(X + pos[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], mask=mask[:, :, None], other=0.0)
        return tl.split(v)


@triton.jit
def _gstore2(Y, start, mask, re, im, ROWS: tl.constexpr, W: tl.constexpr, FLAT: tl.constexpr):
    if FLAT:
        tl.store(Y + start * 2 + tl.arange(0, 2 * W)[None, :], tl.reshape(tl.join(re, im), [ROWS, 2 * W]),
                 mask=mask)
    else:
        pos = start + tl.arange(0, W)[None, :]
        tl.store(Y + pos[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], tl.join(re, im), mask=mask[:, :, None])


@triton.jit
def _tle2d_stage(sre, sim, dre, dim, TW, Yb, r, j, mr, ROWS: tl.constexpr, N: tl.constexpr,
                 NS: tl.constexpr, FLAT: tl.constexpr):
    """_tle_stage on [ROWS, N/4] tensors: r is [ROWS, 1], j is [1, N/4] (2-D local pointers;
    the twiddles are loaded once per column, not per element)."""
    Q: tl.constexpr = N // 4
    a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i = _sload4(sre, sim, r, j, Q)
    x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i = _twiddled_radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i, TW, j, N,
                                                              NS)
    if NS * 4 == N:
        _gstore2(Yb, r * N, mr, x0r, x0i, ROWS, Q, FLAT)
        _gstore2(Yb, r * N + Q, mr, x1r, x1i, ROWS, Q, FLAT)
        _gstore2(Yb, r * N + 2 * Q, mr, x2r, x2i, ROWS, Q, FLAT)
        _gstore2(Yb, r * N + 3 * Q, mr, x3r, x3i, ROWS, Q, FLAT)
    else:
        base = (j // NS) * (4 * NS) + j % NS
        _sstore4(dre, dim, r, base, base + NS, base + 2 * NS, base + 3 * NS,
                 x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i)


@triton.jit
def fft_tle2d_kernel(X, Y, TW, B, N: tl.constexpr, LOGN: tl.constexpr, ROWS: tl.constexpr, PP: tl.constexpr,
                     FLAT: tl.constexpr):
    """fft_tle_kernel with 2-D [ROWS, columns] tensors and 2-D local pointers (row index
    [ROWS, 1], column index [1, W]); TLE's select-encodings gives the shared-memory
    accesses the row-major layout of the values."""
    Q: tl.constexpr = N // 4
    H: tl.constexpr = N // 2
    NP: tl.constexpr = N + N // 32
    pid = tl.program_id(0)
    bre, bim, cre, cim = _exchange_buffers(ROWS, NP, PP)
    Xb = X + pid.to(tl.int64) * (ROWS * 2 * N)
    Yb = Y + pid.to(tl.int64) * (ROWS * 2 * N)
    nrows = B - pid * ROWS
    r = tl.arange(0, ROWS)[:, None]
    mr = r < nrows

    if LOGN % 2 == 1:
        jh = tl.arange(0, H)[None, :]
        a0r, a0i = _gload2(Xb, r * N, mr, ROWS, H, FLAT)
        a1r, a1i = _gload2(Xb, r * N + H, mr, ROWS, H, FLAT)
        _sstore2(bre, bim, r, 2 * jh, 2 * jh + 1, a0r + a1r, a0i + a1i, a0r - a1r, a0i - a1i)
        NS0: tl.constexpr = 2
        NST: tl.constexpr = (LOGN - 1) // 2
    else:
        j = tl.arange(0, Q)[None, :]
        a0r, a0i = _gload2(Xb, r * N, mr, ROWS, Q, FLAT)
        a1r, a1i = _gload2(Xb, r * N + Q, mr, ROWS, Q, FLAT)
        a2r, a2i = _gload2(Xb, r * N + 2 * Q, mr, ROWS, Q, FLAT)
        a3r, a3i = _gload2(Xb, r * N + 3 * Q, mr, ROWS, Q, FLAT)
        x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i = _radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i)
        _sstore4(bre, bim, r, 4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3, x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i)
        NS0: tl.constexpr = 4
        NST: tl.constexpr = LOGN // 2 - 1

    j = tl.arange(0, Q)[None, :]
    for s in tl.static_range(NST):
        if s % 2 == 0:
            _tle2d_stage(bre, bim, cre, cim, TW, Yb, r, j, mr, ROWS, N, NS0 << (2 * s), FLAT)
        else:
            _tle2d_stage(cre, cim, bre, bim, TW, Yb, r, j, mr, ROWS, N, NS0 << (2 * s), FLAT)


# ---------------------------------------------------------------------------
# TLE radix-16 kernel: two radix-4 layers per exchange

W16_C1 = tl.constexpr(0.9238795325112867)  # cos(pi / 8)
W16_S1 = tl.constexpr(0.3826834323650898)  # sin(pi / 8)
W16_R2 = tl.constexpr(0.7071067811865476)  # sqrt(2) / 2


@triton.jit
def _w16(xr, xi, M: tl.constexpr):
    """x * W16^M (W16 = exp(-2 pi i / 16)) for the M a radix-16 butterfly needs."""
    if M == 1:
        return _cmul(xr, xi, W16_C1, -W16_S1)
    elif M == 2:
        return (xr + xi) * W16_R2, (xi - xr) * W16_R2
    elif M == 3:
        return _cmul(xr, xi, W16_S1, -W16_C1)
    elif M == 4:
        return xi, -xr
    elif M == 6:
        return (xi - xr) * W16_R2, -(xr + xi) * W16_R2
    else:
        tl.static_assert(M == 9)
        return _cmul(xr, xi, -W16_C1, W16_S1)


@triton.jit
def _radix16(a):
    """Forward radix-16 butterfly on a = (re_0, im_0, ..., re_15, im_15): X_k = sum_r a_r W16^(r k),
    as 4 x 4: radix-4 butterflies over r = r0 + 4 r1 (r1), twiddles W16^(r0 k1), radix-4 over r0;
    X_(k1 + 4 k2) comes out of the second layer's butterfly k1, output k2."""
    b0 = _radix4(a[0], a[1], a[8], a[9], a[16], a[17], a[24], a[25])
    b1 = _radix4(a[2], a[3], a[10], a[11], a[18], a[19], a[26], a[27])
    b2 = _radix4(a[4], a[5], a[12], a[13], a[20], a[21], a[28], a[29])
    b3 = _radix4(a[6], a[7], a[14], a[15], a[22], a[23], a[30], a[31])
    # b<r0>[2 k1], b<r0>[2 k1 + 1]: B[r0][k1]; twiddle by W16^(r0 k1).
    b1r1, b1i1 = _w16(b1[2], b1[3], 1)
    b1r2, b1i2 = _w16(b1[4], b1[5], 2)
    b1r3, b1i3 = _w16(b1[6], b1[7], 3)
    b2r1, b2i1 = _w16(b2[2], b2[3], 2)
    b2r2, b2i2 = _w16(b2[4], b2[5], 4)
    b2r3, b2i3 = _w16(b2[6], b2[7], 6)
    b3r1, b3i1 = _w16(b3[2], b3[3], 3)
    b3r2, b3i2 = _w16(b3[4], b3[5], 6)
    b3r3, b3i3 = _w16(b3[6], b3[7], 9)
    c0 = _radix4(b0[0], b0[1], b1[0], b1[1], b2[0], b2[1], b3[0], b3[1])
    c1 = _radix4(b0[2], b0[3], b1r1, b1i1, b2r1, b2i1, b3r1, b3i1)
    c2 = _radix4(b0[4], b0[5], b1r2, b1i2, b2r2, b2i2, b3r2, b3i2)
    c3 = _radix4(b0[6], b0[7], b1r3, b1i3, b2r3, b2i3, b3r3, b3i3)
    # X_(k1 + 4 k2) = c<k1>[k2].
    return (c0[0], c0[1], c1[0], c1[1], c2[0], c2[1], c3[0], c3[1],
            c0[2], c0[3], c1[2], c1[3], c2[2], c2[3], c3[2], c3[3],
            c0[4], c0[5], c1[4], c1[5], c2[4], c2[5], c3[4], c3[5],
            c0[6], c0[7], c1[6], c1[7], c2[6], c2[7], c3[6], c3[7])


@triton.jit
def _twiddle16(a, TW, j, N: tl.constexpr, NS: tl.constexpr):
    """a_r *= w^r, w = W_N^((j % NS) N / (16 NS)): w and w^4 from the table, the other
    powers by products (at most four deep)."""
    k = (j % NS) * (N // (16 * NS))
    w1r = tl.load(TW + k)
    w1i = tl.load(TW + N + k)
    w4r = tl.load(TW + 4 * k)
    w4i = tl.load(TW + N + 4 * k)
    w2r, w2i = _cmul(w1r, w1i, w1r, w1i)
    w3r, w3i = _cmul(w1r, w1i, w2r, w2i)
    w8r, w8i = _cmul(w4r, w4i, w4r, w4i)
    w12r, w12i = _cmul(w8r, w8i, w4r, w4i)
    out = (a[0], a[1])
    for q in tl.static_range(4):
        if q == 0:
            br, bi = w1r, w1i  # w^(4q) for q > 0, else 1
        elif q == 1:
            br, bi = w4r, w4i
        elif q == 2:
            br, bi = w8r, w8i
        else:
            br, bi = w12r, w12i
        for e in tl.static_range(4):
            if q * 4 + e > 0:
                if e == 0:
                    wr, wi = br, bi
                elif q == 0:
                    if e == 1:
                        wr, wi = w1r, w1i
                    elif e == 2:
                        wr, wi = w2r, w2i
                    else:
                        wr, wi = w3r, w3i
                elif e == 1:
                    wr, wi = _cmul(br, bi, w1r, w1i)
                elif e == 2:
                    wr, wi = _cmul(br, bi, w2r, w2i)
                else:
                    wr, wi = _cmul(br, bi, w3r, w3i)
                xr, xi = _cmul(a[2 * (4 * q + e)], a[2 * (4 * q + e) + 1], wr, wi)
                out = out + (xr, xi)
    return out


@triton.jit
def _r16_stage(sre, sim, dre, dim, TW, Xb, Yb, r, j, mask, N: tl.constexpr, NS: tl.constexpr,
               FIRST: tl.constexpr, LAST: tl.constexpr):
    """One radix-16 Stockham stage of span NS over lanes (r, j), j < N/16: reads x[j + q N/16]
    (global memory when FIRST, else the buffers), writes X_k to y[(j // NS) 16 NS + k NS + j % NS]
    (global memory when LAST, else the buffers)."""
    L: tl.constexpr = N // 16
    a = ()
    for q in tl.static_range(16):
        if FIRST:
            xr, xi = _gload(Xb, r * N + j + q * L, mask)
        else:
            xr, xi = _sload(sre, sim, r, j + q * L)
        a = a + (xr, xi)
    if NS > 1:
        a = _twiddle16(a, TW, j, N, NS)
    x = _radix16(a)
    if LAST:
        for k in tl.static_range(16):
            _gstore(Yb, r * N + j + k * L, mask, x[2 * k], x[2 * k + 1])
    else:
        base = (j // NS) * (16 * NS) + j % NS
        for k in tl.static_range(16):
            _sstore(dre, dim, r, base + k * NS, x[2 * k], x[2 * k + 1])


@triton.jit
def fft_tle16_kernel(X, Y, TW, B, N: tl.constexpr, LOGN: tl.constexpr, ROWS: tl.constexpr,
                     PP: tl.constexpr = True):
    """fft_tle_kernel with radix-16 stages (two radix-4 layers each, in registers): one
    shared-memory exchange per pair of radix-4 stages. N = 2^ODD 16^NR16 4^HAS4: a radix-2
    stage first when log2(N) is odd, then the radix-16 stages, then one radix-4 stage when
    the remaining power of 4 is odd (N = 64: 16, 4; 128: 2, 16, 4; 256: 16, 16; 512: 2, 16,
    16; 1024: 16, 16, 4). 1-D tensors over (row, column) lanes. PP as in fft_tle_kernel:
    ping-pong buffer pairs (one barrier per exchange) or one pair read and written in
    place (two barriers, half the shared memory: more CTAs per multiprocessor)."""
    Q: tl.constexpr = N // 4
    L: tl.constexpr = N // 16
    NP: tl.constexpr = N + N // 32
    ODD: tl.constexpr = LOGN % 2
    NR16: tl.constexpr = (LOGN // 2) // 2
    HAS4: tl.constexpr = (LOGN // 2) % 2
    pid = tl.program_id(0)
    bre, bim, cre, cim = _exchange_buffers(ROWS, NP, PP)
    Xb = X + pid.to(tl.int64) * (ROWS * 2 * N)
    Yb = Y + pid.to(tl.int64) * (ROWS * 2 * N)
    nrows = B - pid * ROWS

    if ODD == 1:  # radix 2, span 1: global -> b
        _tle_radix2_first(Xb, bre, bim, nrows, ROWS, N)

    # Stage t (0-based, the radix-2 one included) reads the buffers stage t - 1
    # wrote: b for even t, c for odd.
    m = tl.arange(0, ROWS * L)
    r = m // L
    j = m % L
    mk = r < nrows
    for s in tl.static_range(NR16):  # span (1 << ODD) 16^s; the last stage when no radix 4 follows
        if (s + ODD) % 2 == 0:
            _r16_stage(cre, cim, bre, bim, TW, Xb, Yb, r, j, mk, N, (1 << ODD) << (4 * s), s + ODD == 0,
                       (s == NR16 - 1) and HAS4 == 0)
        else:
            _r16_stage(bre, bim, cre, cim, TW, Xb, Yb, r, j, mk, N, (1 << ODD) << (4 * s), False,
                       (s == NR16 - 1) and HAS4 == 0)

    if HAS4 == 1:  # the last stage, radix 4, span N / 4: buffers -> global
        m = tl.arange(0, ROWS * Q)
        r = m // Q
        j = m % Q
        mq = r < nrows
        if (NR16 + ODD) % 2 == 1:
            _tle_stage(bre, bim, cre, cim, TW, Yb, r, j, mq, N, N // 4)
        else:
            _tle_stage(cre, cim, bre, bim, TW, Yb, r, j, mq, N, N // 4)


# ---------------------------------------------------------------------------
# Plain-Triton kernel: exchanges as register tensor reshapes


@triton.jit
def _quarters(x, ROWS: tl.constexpr, N: tl.constexpr):
    """x[:, j + r N/4] for r = 0..3, each [ROWS, N/4]."""
    t = tl.reshape(tl.permute(tl.reshape(x, [ROWS, 4, N // 4]), (0, 2, 1)), [ROWS, N // 4, 2, 2])
    e, o = tl.split(t)  # r = 2h + l: e = l 0, o = l 1
    a0, a2 = tl.split(e)
    a1, a3 = tl.split(o)
    return a0, a1, a2, a3


@triton.jit
def _scatter4(x0, x1, x2, x3, ROWS: tl.constexpr, N: tl.constexpr, NS: tl.constexpr):
    """y[(j // NS) 4 NS + r NS + j % NS] = x_r[j]."""
    t = tl.join(tl.join(x0, x2), tl.join(x1, x3))  # [ROWS, N/4, 2 (h), 2 (l)], r = 2h + l
    t = tl.reshape(t, [ROWS, N // (4 * NS), NS, 4])
    return tl.reshape(tl.permute(t, (0, 1, 3, 2)), [ROWS, N])


@triton.jit
def _triton_stage(re, im, TW, j, ROWS: tl.constexpr, N: tl.constexpr, NS: tl.constexpr):
    """One radix-4 Stockham stage of span NS on [ROWS, N] register tensors."""
    a0r, a1r, a2r, a3r = _quarters(re, ROWS, N)
    a0i, a1i, a2i, a3i = _quarters(im, ROWS, N)
    x0r, x0i, x1r, x1i, x2r, x2i, x3r, x3i = _twiddled_radix4(a0r, a0i, a1r, a1i, a2r, a2i, a3r, a3i, TW, j, N,
                                                              NS)
    re = _scatter4(x0r, x1r, x2r, x3r, ROWS, N, NS)
    im = _scatter4(x0i, x1i, x2i, x3i, ROWS, N, NS)
    return re, im


@triton.jit
def _triton_radix2_first(re, im, ROWS: tl.constexpr, N: tl.constexpr):
    """The radix-2 first stage (span 1) on [ROWS, N] register tensors."""
    H: tl.constexpr = N // 2
    tr = tl.permute(tl.reshape(re, [ROWS, 2, H]), (0, 2, 1))
    ti = tl.permute(tl.reshape(im, [ROWS, 2, H]), (0, 2, 1))
    a0r, a1r = tl.split(tr)
    a0i, a1i = tl.split(ti)
    return tl.reshape(tl.join(a0r + a1r, a0r - a1r), [ROWS, N]), tl.reshape(tl.join(a0i + a1i, a0i - a1i), [ROWS, N])


@triton.jit
def fft_triton_kernel(X, Y, TW, B, N: tl.constexpr, LOGN: tl.constexpr, ROWS: tl.constexpr):
    Q: tl.constexpr = N // 4
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    offs = rows.to(tl.int64)[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :]
    mask = (rows < B)[:, None]
    re, im = tl.split(tl.reshape(tl.load(X + offs, mask=mask, other=0.0), [ROWS, N, 2]))

    if LOGN % 2 == 1:
        re, im = _triton_radix2_first(re, im, ROWS, N)
        NS0: tl.constexpr = 2
        NST: tl.constexpr = (LOGN - 1) // 2
    else:
        NS0: tl.constexpr = 1
        NST: tl.constexpr = LOGN // 2

    j = tl.arange(0, Q)[None, :]
    for s in tl.static_range(NST):
        re, im = _triton_stage(re, im, TW, j, ROWS, N, NS0 << (2 * s))

    tl.store(Y + offs, tl.reshape(tl.join(re, im), [ROWS, 2 * N]), mask=mask)


@triton.jit
def _sixteenths(x, ROWS: tl.constexpr, N: tl.constexpr):
    """x[:, j + q N/16] for q = 0..15 as a tuple of [ROWS, N/16] tensors: q = q0 + 2 q1 + 4 q2 + 8 q3,
    one tl.split per bit."""
    L: tl.constexpr = N // 16
    t = tl.reshape(tl.permute(tl.reshape(x, [ROWS, 16, L]), (0, 2, 1)), [ROWS, L, 2, 2, 2, 2])
    s0, s1 = tl.split(t)
    s00, s01 = tl.split(s0)
    s10, s11 = tl.split(s1)
    s000, s001 = tl.split(s00)
    s010, s011 = tl.split(s01)
    s100, s101 = tl.split(s10)
    s110, s111 = tl.split(s11)
    a0, a8 = tl.split(s000)
    a4, a12 = tl.split(s001)
    a2, a10 = tl.split(s010)
    a6, a14 = tl.split(s011)
    a1, a9 = tl.split(s100)
    a5, a13 = tl.split(s101)
    a3, a11 = tl.split(s110)
    a7, a15 = tl.split(s111)
    return (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)


@triton.jit
def _scatter16(x, ROWS: tl.constexpr, N: tl.constexpr, NS: tl.constexpr):
    """y[(j // NS) 16 NS + k NS + j % NS] = x[k][j] (x: 16 tensors [ROWS, N/16]), one tl.join per bit
    of k, k = 8 k3 + 4 k2 + 2 k1 + k0: tl.join appends its axis last, so k3's join comes first."""
    p0 = tl.join(x[0], x[8])
    p1 = tl.join(x[1], x[9])
    p2 = tl.join(x[2], x[10])
    p3 = tl.join(x[3], x[11])
    p4 = tl.join(x[4], x[12])
    p5 = tl.join(x[5], x[13])
    p6 = tl.join(x[6], x[14])
    p7 = tl.join(x[7], x[15])
    q0 = tl.join(p0, p4)
    q1 = tl.join(p1, p5)
    q2 = tl.join(p2, p6)
    q3 = tl.join(p3, p7)
    t = tl.join(tl.join(q0, q2), tl.join(q1, q3))  # [ROWS, N/16, 2 (k3), 2 (k2), 2 (k1), 2 (k0)]
    t = tl.reshape(t, [ROWS, N // (16 * NS), NS, 16])
    return tl.reshape(tl.permute(t, (0, 1, 3, 2)), [ROWS, N])


@triton.jit
def _triton_stage16(re, im, TW, ROWS: tl.constexpr, N: tl.constexpr, NS: tl.constexpr):
    """One radix-16 Stockham stage of span NS on [ROWS, N] register tensors (_r16_stage's
    arithmetic; the exchanges are Triton's reshapes, permutes, splits and joins)."""
    ar = _sixteenths(re, ROWS, N)
    ai = _sixteenths(im, ROWS, N)
    a = ()
    for q in tl.static_range(16):
        a = a + (ar[q], ai[q])
    if NS > 1:
        a = _twiddle16(a, TW, tl.arange(0, N // 16)[None, :], N, NS)
    x = _radix16(a)
    xr = ()
    xi = ()
    for k in tl.static_range(16):
        xr = xr + (x[2 * k], )
        xi = xi + (x[2 * k + 1], )
    return _scatter16(xr, ROWS, N, NS), _scatter16(xi, ROWS, N, NS)


@triton.jit
def fft_triton16_kernel(X, Y, TW, B, N: tl.constexpr, LOGN: tl.constexpr, ROWS: tl.constexpr):
    """fft_triton_kernel with tle-r16's stage plan (radix 2 first when log2(N) is odd,
    radix-16 stages, radix 4 last when the remaining power of 4 is odd): plain Triton
    given the same algorithm as the TLE kernel."""
    ODD: tl.constexpr = LOGN % 2
    NR16: tl.constexpr = (LOGN // 2) // 2
    HAS4: tl.constexpr = (LOGN // 2) % 2
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    offs = rows.to(tl.int64)[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :]
    mask = (rows < B)[:, None]
    re, im = tl.split(tl.reshape(tl.load(X + offs, mask=mask, other=0.0), [ROWS, N, 2]))

    if ODD == 1:
        re, im = _triton_radix2_first(re, im, ROWS, N)
    for s in tl.static_range(NR16):
        re, im = _triton_stage16(re, im, TW, ROWS, N, (1 << ODD) << (4 * s))
    if HAS4 == 1:
        re, im = _triton_stage(re, im, TW, tl.arange(0, N // 4)[None, :], ROWS, N, N // 4)

    tl.store(Y + offs, tl.reshape(tl.join(re, im), [ROWS, 2 * N]), mask=mask)


# ---------------------------------------------------------------------------
# Benchmark wiring

_TW_CACHE: dict = {}


def twiddle_table(n, device):
    """[2N] fp32: cos(2 pi k / N) for k < N, then -sin(2 pi k / N) (W_N^k = exp(-2 pi i k / N))."""
    import torch
    key = (n, str(device))
    if key not in _TW_CACHE:
        k = torch.arange(n, dtype=torch.float64, device=device)
        ang = -2.0 * math.pi * k / n
        _TW_CACHE[key] = torch.cat([torch.cos(ang), torch.sin(ang)]).to(torch.float32).contiguous()
    return _TW_CACHE[key]


def _check_n(n):
    if n not in SIZES:
        raise ValueError(f"fft: N must be one of {SIZES} (power of two, 64..1024), got {n}")


def _launcher(kernel, config, small=None):
    """The provider running `kernel` with config[N], or small[N] (where given) for batches
    of at most SMALL_B rows."""
    def make(inputs):
        import torch
        x, y = inputs["x"], inputs["y"]
        b, n = x.shape
        _check_n(n)
        cfg = (small or {}).get(n, config[n]) if b <= SMALL_B else config[n]
        tw = twiddle_table(n, x.device)
        xr, yr = torch.view_as_real(x), torch.view_as_real(y)
        grid = (triton.cdiv(b, cfg["ROWS"]),)

        def run():
            kernel[grid](xr, yr, tw, b, N=n, LOGN=int(math.log2(n)), **cfg)
            return y
        return run
    return make


def _torch(inputs):
    import torch
    x = inputs["x"]
    return lambda: torch.fft.fft(x, dim=-1)


def make_inputs(shape, device, gen, args):
    import torch
    b, n = shape
    _check_n(n)
    x = torch.randn(b, n, 2, device=device, generator=gen, dtype=torch.float32)
    x = torch.view_as_complex(x).contiguous()
    y = torch.empty_like(x)
    return {"x": x, "y": y}


def check(provider, inputs, out):
    import torch
    ref = torch.fft.fft(inputs["x"].to(torch.complex128), dim=-1)
    err = ((out.to(torch.complex128) - ref).norm() / ref.norm()).item()
    assert math.isfinite(err) and err < TOL, f"relative L2 error {err:.3e} >= {TOL:.0e}"
    inputs["y"].fill_(float("nan"))  # the next provider starts from garbage, not from a right answer


BENCH = _harness.Benchmark(
    name="fft",
    description=__doc__.splitlines()[0],
    shape_names=("B", "N"),
    default_shapes=[(16384, 64), (16384, 128), (16384, 256), (8192, 512), (8192, 1024),
                    (1024, 256), (1024, 1024)],
    providers={
        "tle": _launcher(fft_tle_kernel, TLE_CONFIG, SMALL_BATCH["tle"]),
        "tle-2d": _launcher(fft_tle2d_kernel, TLE2D_CONFIG),
        "tle-r16": _launcher(fft_tle16_kernel, TLE16_CONFIG, SMALL_BATCH["tle-r16"]),
        "triton": _launcher(fft_triton_kernel, TRITON_CONFIG, SMALL_BATCH["triton"]),
        "triton-r16": _launcher(fft_triton16_kernel, TRITON_CONFIG),
        "torch": _torch,
    },
    make_inputs=make_inputs,
    check=check,
    min_bytes=lambda s: 2.0 * s[0] * s[1] * 8,
    flops=lambda s: 5.0 * s[0] * s[1] * math.log2(s[1]),
    flops_dtype="fp32",
    # 4-134 MB in 4-47 us: graph replays (_harness.Benchmark.graph), or the B = 1024 rows
    # time Python's launch of the Triton kernels (2026-11-29, one H200, three processes:
    # plain Triton 5.8-17.7 us at B = 1024, N = 256, torch.fft 6.0-6.7).
    graph=True,
)

# Small batches (SMALL_BATCH's configs) and two above SMALL_B (the default ones).
CHECK_SHAPES = ["4x64", "3x1024", "5x256", "67x128", "9x512", "130x64", "2053x1024", "4099x256"]


def smoke_kernels():
    entries = []
    sig = {"X": "*fp32", "Y": "*fp32", "TW": "*fp32", "B": "i32"}
    # torch's allocations are 16-byte aligned: Triton's launcher specializes X, Y, TW
    # so (vector widths and the layouts Triton picks depend on it).
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}
    for n in SIZES:
        log = int(math.log2(n))
        for name, kernel, config, is_tle, expect in (
                ("tle", fft_tle_kernel, TLE_CONFIG, True, ["st.shared.b32", "ld.shared.b32", "bar.sync"]),
                ("tle-2d", fft_tle2d_kernel, TLE2D_CONFIG, True, ["st.shared.b32", "ld.shared.b32", "bar.sync"]),
                ("tle-r16", fft_tle16_kernel, TLE16_CONFIG, True, ["st.shared.b32", "ld.shared.b32", "bar.sync"]),
                ("triton", fft_triton_kernel, TRITON_CONFIG, False, []),
                ("triton-r16", fft_triton16_kernel, TRITON_CONFIG, False, [])):
            configs = [(f"{name}-N{n}", config[n])]
            if n in SMALL_BATCH.get(name, {}):
                configs.append((f"{name}-N{n}-small-batch", SMALL_BATCH[name][n]))
            for label, cfg in configs:
                cfg = dict(cfg)
                warps = cfg.pop("num_warps")
                entries.append(dict(name=label, kernel=kernel, signature=sig,
                                    constexprs=dict(N=n, LOGN=log, **cfg), options=dict(num_warps=warps),
                                    tle=is_tle, expect=expect, attrs=attrs))
    return entries


if __name__ == "__main__":
    _harness.main(BENCH)
