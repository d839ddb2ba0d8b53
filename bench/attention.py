"""FlashAttention forward, BF16: out = softmax(q k^T / sqrt(D)) v per (batch, head).

Inputs q, k, v: [B, H, N, D] bf16 (contiguous, torch's SDPA layout), D = 64 or
128; CAUSAL = 1 masks key j > query i. out: [B, H, N, D] bf16. FLOPs =
4 * B * H * N * N * D, halved when causal (the FlashAttention convention).

Shapes on the command line: B x H x N x D x CAUSAL. The defaults keep
B * N = 16384 tokens (so a row is quick) with H * D = 2048, sequences 1k to
16k, both head dims, causal and not: at least 2048 CTAs of 128 query rows,
15 waves on the H100's 132 SMs.

Inputs: q, k, v ~ N(0, 1).

Providers:
  triton    plain Triton's best: the FA2 algorithm of Triton 3.6's fused-attention
            tutorial, written here (_attn_fwd_triton): Q in registers, K and V
            tiles from host tensor descriptors (TMA) in a tl.range loop that
            Triton software-pipelines, exp2 with the scale folded in,
            causal split into the off-diagonal blocks (no mask) and the
            diagonal block (masked), heavy (late) query tiles launched first.
            Autotuned per (N, D, CAUSAL) over BLOCK_M, BLOCK_N, num_warps,
            num_stages and tl.range's warp_specialize flag.
  torch     torch.nn.functional.scaled_dot_product_attention, the faster of
            its flash and cuDNN backends at each shape (timed once at set-up;
            a backend torch lacks is skipped; the choice is printed).
  tle       TLE, one CTA per 128 query rows, warp-specialized through a
            tle.pipe: a 4-warp producer partition fills 2 K/V slots by
            cp.async (tle.gpu.copy(is_async=True)); two consumer warpgroups
            (the default partition and a 4-warp worker, 64 rows each) read
            the same slots; S = Q K^T and O += P V are tl.dot (wgmmas on the
            slots in place, P in registers); setmaxnreg gives the consumers
            the registers the producer does not need.
  tle-fa3   FA3's schedule with TLE's explicit primitives: a 1-warp TMA
            producer partition (tle.gpu.copy(desc, buf.slot(j % STAGES),
            barrier=) into the K and V slots of [STAGES, 128, D] buffers,
            full / empty mbarriers; 3 slots at D = 128, 4 at D = 64); two
            consumer warpgroups of 64 query rows (FA3's tile at D = 128:
            128 x 128 per CTA, a warpgroup per 64 rows) ping-ponging on
            named barriers (one issues its wgmmas while the other runs its
            softmax), each overlapping its softmax with its own P V wgmma
            (tle.gpu.wgmma is_async + wgmma_wait(1): S_j done, P_{j-1}
            V_{j-1} still in flight); P stays in registers as the P V
            wgmma's A operand (P_REGS; a shared P buffer is the
            alternative); O leaves by TMA through the Q buffer, or, non-
            causal at D = 64, the kernel is persistent (one CTA a
            multiprocessor taking tiles in turn, O through buffers of its
            own: TLE_FA3_HEAD_DIM_CONFIG says why); setmaxnreg: worker
            consumer 240, producer warp 32, the default partition what
            Triton gives it (232). At D = 64 from N = 2k: FA3's 192-row
            tile, three consumer warpgroups taking turns round robin
            (TLE_FA3_WG3_CONFIG; 160 registers a worker consumer).

Check: every provider's out within 2e-2 absolute of an fp32 reference
computed from the same bf16 inputs (chunked over queries), and its RMS error
within 5e-3 of the reference's RMS.
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

LOG2E = 1.4426950408889634
TOKENS = 16384
DEFAULT_SHAPES = [(TOKENS // n, 2048 // d, n, d, c)
                  for d in (64, 128) for c in (0, 1) for n in (1024, 4096, 16384)]
CHECK_SHAPES = ["2x2x128x64x0", "2x2x128x128x1", "1x3x384x128x1", "1x2x512x64x1", "2x1x1024x128x0",
                "1x2x768x64x0", "1x2x2176x64x1", "2x1x2048x64x0"]
# Rows of query (and keys) the TLE kernels and the triton provider's tiles divide N by.
N_MULTIPLE = 128


# --------------------------------------------------------------------------------------------------
# triton: the FA2 algorithm in plain Triton (Triton 3.6's fused-attention tutorial, as tuned as ours)
# --------------------------------------------------------------------------------------------------


@triton.jit
def _attn_fwd_triton_inner(acc, l_i, m_i, q, k_desc, v_desc, kv_row, start_m, qk_scale, offs_m, offs_n,
                           N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                           WARP_SPECIALIZE: tl.constexpr):
    """STAGE 1: the blocks left of the diagonal (no mask); 2: the diagonal
    blocks (masked); 3: every block (not causal)."""
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    for start_n in tl.range(lo, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = k_desc.load([kv_row + start_n, 0])
        qk = tl.dot(q, k.T)
        if STAGE == 2:
            qk = tl.where(offs_m[:, None] >= start_n + offs_n[None, :], qk * qk_scale, float("-inf"))
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([kv_row + start_n, 0])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


def _triton_pre_hook(nargs):
    bm, bn, d = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["HEAD_DIM"]
    nargs["q_desc"].block_shape = [bm, d]
    nargs["k_desc"].block_shape = [bn, d]
    nargs["v_desc"].block_shape = [bn, d]
    nargs["o_desc"].block_shape = [bm, d]


def _triton_configs():
    # tl.range(warp_specialize=True) is not among them: on sm_90 Triton 3.6
    # leaves the loop as it is at 8 warps (no ttg.warp_specialize in the
    # TTGIR) and its NVGPUWarpSpecialization pass fails at 4 warps; the
    # tutorial turns it on for Blackwell only.
    out = []
    for bm, bn, warps in ((64, 64, 4), (128, 64, 4), (128, 64, 8), (128, 128, 4), (128, 128, 8)):
        for stages in (2, 3, 4):
            out.append(triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "WARP_SPECIALIZE": False}, num_warps=warps,
                                     num_stages=stages, pre_hook=_triton_pre_hook))
    return out


def _keep_triton_config(conf):
    # BLOCK_N above BLOCK_M would make the diagonal stage cover keys past it.
    return conf.kwargs["BLOCK_N"] <= conf.kwargs["BLOCK_M"]


TRITON_CONFIGS = [c for c in _triton_configs() if _keep_triton_config(c)]


@triton.jit
def _attn_fwd_triton(q_desc, k_desc, v_desc, o_desc, qk_scale, N_CTX, HEAD_DIM: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
                     WARP_SPECIALIZE: tl.constexpr):
    # The last query tiles of a causal row have the most keys: launch them first.
    start_m = tl.num_programs(0) - 1 - tl.program_id(0)
    off_hz = tl.program_id(1)
    kv_row = off_hz * N_CTX
    q_row = kv_row + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    q = q_desc.load([q_row, 0])
    if CAUSAL:
        acc, l_i, m_i = _attn_fwd_triton_inner(acc, l_i, m_i, q, k_desc, v_desc, kv_row, start_m, qk_scale,
                                               offs_m, offs_n, N_CTX, BLOCK_M, BLOCK_N, 1, WARP_SPECIALIZE)
        acc, l_i, m_i = _attn_fwd_triton_inner(acc, l_i, m_i, q, k_desc, v_desc, kv_row, start_m, qk_scale,
                                               offs_m, offs_n, N_CTX, BLOCK_M, BLOCK_N, 2, WARP_SPECIALIZE)
    else:
        acc, l_i, m_i = _attn_fwd_triton_inner(acc, l_i, m_i, q, k_desc, v_desc, kv_row, start_m, qk_scale,
                                               offs_m, offs_n, N_CTX, BLOCK_M, BLOCK_N, 3, WARP_SPECIALIZE)
    acc = acc / l_i[:, None]
    o_desc.store([q_row, 0], acc.to(o_desc.dtype))


_attn_fwd_triton_tuned = triton.autotune(TRITON_CONFIGS, key=["N_CTX", "HEAD_DIM", "CAUSAL"])(_attn_fwd_triton)


# --------------------------------------------------------------------------------------------------
# tle: pipes + warp_specialize, tl.dot consumers
# --------------------------------------------------------------------------------------------------


@triton.jit
def _online_softmax(s, m_i, l_i, qk_scale):
    """One block of the online softmax in exp2 (scale folded in): P, the
    rescale factor of the running sums, the new max and row sum."""
    m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
    p = tl.math.exp2(s * qk_scale - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    return p, alpha, m_new, l_i


@triton.jit
def _causal_mask(s, rows, start_n, BLOCK_N: tl.constexpr):
    cols = start_n + tl.arange(0, BLOCK_N)
    return tl.where(rows[:, None] >= cols[None, :], s, float("-inf"))


@triton.jit
def _tle_pipe_consumer(r, Q, O, qo_off, rows, n_blocks, qk_scale, CAUSAL: tl.constexpr, HALF_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """One warpgroup's 64 query rows: waits for each K/V slot, S = Q K^T and
    O += P V by tl.dot on the slot (P in registers), releases it."""
    d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + qo_off + rows[:, None] * HEAD_DIM + d[None, :])
    m_i = tl.full([HALF_M], float("-inf"), tl.float32)
    l_i = tl.zeros([HALF_M], tl.float32)
    acc = tl.zeros([HALF_M, HEAD_DIM], tl.float32)
    for j in range(n_blocks):
        slot, closed = r.wait()
        s = tl.dot(q, tl.trans(tle.gpu.local_load(slot["k"])))
        if CAUSAL:
            if j == n_blocks - 1:
                s = _causal_mask(s, rows, j * BLOCK_N, BLOCK_N)
        p, alpha, m_i, l_i = _online_softmax(s, m_i, l_i, qk_scale)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.bfloat16), tle.gpu.local_load(slot["v"]), acc)
        r.release(slot)
    acc = acc / l_i[:, None]
    tl.store(O + qo_off + rows[:, None] * HEAD_DIM + d[None, :], acc.to(tl.bfloat16))


@triton.jit
def _tle_pipe_producer(w, K, V, kv_off, n_blocks, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    offs = tl.arange(0, BLOCK_N)[:, None] * HEAD_DIM + tl.arange(0, HEAD_DIM)[None, :]
    for j in range(n_blocks):
        slot = w.acquire()
        tle.gpu.copy(K + kv_off + j * BLOCK_N * HEAD_DIM + offs, slot["k"], [BLOCK_N, HEAD_DIM], is_async=True)
        tle.gpu.copy(V + kv_off + j * BLOCK_N * HEAD_DIM + offs, slot["v"], [BLOCK_N, HEAD_DIM], is_async=True)
        w.commit(slot)


@triton.jit
def attn_fwd_tle_pipe(Q, K, V, O, qk_scale, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                      CAUSAL: tl.constexpr, STAGES: tl.constexpr = 2, CONSUMER_REGS: tl.constexpr = 232,
                      PRODUCER_REGS: tl.constexpr = 40):
    HALF_M: tl.constexpr = 64
    BLOCK_M: tl.constexpr = 2 * HALF_M
    start_m = tl.num_programs(0) - 1 - tl.program_id(0)
    off = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM
    if CAUSAL:
        n_blocks = (start_m + 1) * BLOCK_M // BLOCK_N
    else:
        n_blocks = N_CTX // BLOCK_N
    kv = tle.pipe(STAGES, name="kv", readers=["a", "b"], k=([BLOCK_N, HEAD_DIM], tl.bfloat16),
                  v=([BLOCK_N, HEAD_DIM], tl.bfloat16))
    rows0 = start_m * BLOCK_M + tl.arange(0, HALF_M)
    tle.gpu.warp_specialize(
        [(_tle_pipe_consumer, (kv.reader("a"), Q, O, off, rows0, n_blocks, qk_scale, CAUSAL, HALF_M, BLOCK_N,
                               HEAD_DIM)),
         (_tle_pipe_consumer, (kv.reader("b"), Q, O, off, rows0 + HALF_M, n_blocks, qk_scale, CAUSAL, HALF_M,
                               BLOCK_N, HEAD_DIM)),
         (_tle_pipe_producer, (kv.writer(), K, V, off, n_blocks, BLOCK_N, HEAD_DIM))],
        worker_num_warps=[4, 4], worker_num_regs=[CONSUMER_REGS, PRODUCER_REGS])


# --------------------------------------------------------------------------------------------------
# tle-fa3: FA3's schedule with TLE's explicit primitives
# --------------------------------------------------------------------------------------------------


@triton.jit
def _fa3_s(q_buf, k_buf):
    """Issue S = Q K^T on a K slot (async: in flight until a wait)."""
    return tle.gpu.wgmma(q_buf, tle.gpu.memdesc_wgmma_view(k_buf))


@triton.jit
def _fa3_pv(p, p_buf, v_buf, acc, P_REGS: tl.constexpr):
    """Issue acc += P V on a V slot (async), P in registers (the wgmma's A
    operand) or, P_REGS False, from the consumer's P buffer."""
    if P_REGS:
        acc = tle.gpu.wgmma(p, v_buf, acc)
    else:
        acc = tle.gpu.wgmma(p_buf, v_buf, acc)
    return acc


@triton.jit
def _fa3_p(p, p_buf, P_REGS: tl.constexpr):
    """P as the next P V wgmma reads it: bf16 in registers; P_REGS False,
    also stored into the P buffer, fenced for the async proxy and visible to
    the whole warpgroup (the previous P V must be done reading it)."""
    p = p.to(tl.bfloat16)
    if not P_REGS:
        tle.gpu.local_store(p_buf, p)
        tle.gpu.wgmma_shared_operand_fence()
        tl.debug_barrier()
    return p


@triton.jit
def _fa3_p_slot(p_buf, j, P_REGS: tl.constexpr):
    """Where P_j goes (P_REGS False): slot j % 2 of the consumer's
    [2, 64, 128] P buffer. One buffer read by the P V wgmmas of the loop and
    of the last block gave both the same loop-invariant descriptors, which
    ptxas computed inside the loop only: with one key block (no iteration)
    the last P V read shared memory through uninitialized registers (an
    illegal address on the H100; test_tle_fa3_wgmma_descriptors_are_set_
    on_every_path). P_REGS True: no buffer (p_buf is unused)."""
    if P_REGS:
        return p_buf
    else:
        return p_buf.slot(j % 2)


@triton.jit
def _fa3_blocks(start_m, N_CTX, CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Key blocks of query tile start_m: up to the diagonal when causal (a
    192-row tile can end in the middle of a key block; the keys stop at
    N_CTX)."""
    if CAUSAL:
        return tl.minimum(tl.cdiv((start_m + 1) * BLOCK_M, BLOCK_N), N_CTX // BLOCK_N)
    else:
        return N_CTX // BLOCK_N


@triton.jit
def _fa3_tile_of(tile, m_tiles, hz):
    """(start_m, off_hz) of a persistent CTA's tile: (batch, head) major, so
    the CTAs at work at once share a few heads' K and V in L2 (head-minor
    order ran 8-15% slower at N >= 4k), the heaviest query tile (the last,
    when causal) of each first."""
    return m_tiles - 1 - tile % m_tiles, tile // m_tiles


@triton.jit
def _fa3_consumer_tile(q_buf, o_buf, p_buf, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, o_row,
                       rows, row0, N_CTX, n_blocks, qk_scale, c, t, ROLE: tl.constexpr, CAUSAL: tl.constexpr,
                       PINGPONG: tl.constexpr, STAGES: tl.constexpr, P_REGS: tl.constexpr,
                       PERSISTENT: tl.constexpr, NUM_WG: tl.constexpr, HALF_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """One consumer warpgroup's 64 query rows of one tile; c: the key blocks
    its CTA went through before (block c + j is in slot (c + j) % STAGES),
    t: the tiles before (Q's phase). Per key block j (FA3's mainloop): wait
    for K_j; take the turn (named barrier `me`); issue S_j = Q K_j^T;
    rescale O by the previous block's alpha while S_j runs; issue
    O += P_{j-1} V_{j-1} with P_{j-1} in registers (the wgmma's A operand: no
    shared memory; P_REGS False: through the consumer's P buffer); hand the
    turn to the next warpgroup (`nxt`: round robin over NUM_WG); wait for S_j only
    (wgmma_wait(1)) and free K_j; the softmax of S_j runs while P V is in
    flight; wait for P V, free V_{j-1}. The epilogue writes O into o_buf
    and stores it by TMA. PERSISTENT: Q's buffer is handed back (qempty)
    once the last S is done, so the producer loads the next tile's Q under
    this tile's last P V and epilogue; o_buf is a buffer of its own, and
    its previous TMA store must be done before it is written. row0: the
    warpgroup's first row in the sequence; with 192-row tiles the last tile
    can reach past N_CTX (into the next head's rows, which another tile
    writes), and such a warpgroup does not store. Returns c."""
    me = tle.gpu.named_barrier(8 + ROLE, 256)
    nxt = tle.gpu.named_barrier(8 + (ROLE + 1) % NUM_WG, 256)
    tle.gpu.barrier_wait(qbar[ROLE], phaseIdx=t)
    m_i = tl.full([HALF_M], float("-inf"), tl.float32)
    l_i = tl.zeros([HALF_M], tl.float32)
    acc = tl.zeros([HALF_M, HEAD_DIM], tl.float32)
    # Block 0: S only.
    first = c % STAGES
    tle.gpu.barrier_wait(kfull[first], phaseIdx=c // STAGES)
    if PINGPONG:
        tle.gpu.barrier_wait(me)
    s = _fa3_s(q_buf, kbuf.slot(first))
    if PINGPONG:
        tle.gpu.barrier_arrive(nxt)
    s = tle.gpu.wgmma_wait(0, s)
    tle.gpu.barrier_arrive(kempty[first], phaseIdx=c // STAGES)
    # Blocks from the one holding the warpgroup's first row on are masked
    # when causal (one block with 128-row tiles; with 192-row tiles the
    # tile's last block can lie wholly right of a warpgroup's rows). Not
    # causal, no block is (diag == n_blocks), but S still goes through this
    # runtime branch: with no branch, Triton's layout propagation copies the
    # tle.gpu.wgmma marker that makes S for each of its users' layouts, and
    # each copy becomes a wgmma of its own (3x the Q K^T work; reproducer in
    # the report).
    if CAUSAL:
        diag = row0 // BLOCK_N
    else:
        diag = n_blocks
    if diag == 0:
        s = _causal_mask(s, rows, 0, BLOCK_N)
    p, alpha, m_i, l_i = _online_softmax(s, m_i, l_i, qk_scale)
    p = _fa3_p(p, _fa3_p_slot(p_buf, 0, P_REGS), P_REGS)
    for j in range(1, n_blocks):
        slot = (c + j) % STAGES
        prev = (c + j - 1) % STAGES
        tle.gpu.barrier_wait(kfull[slot], phaseIdx=(c + j) // STAGES)
        if PINGPONG:
            tle.gpu.barrier_wait(me)
        s = _fa3_s(q_buf, kbuf.slot(slot))
        acc = acc * alpha[:, None]
        tle.gpu.barrier_wait(vfull[prev], phaseIdx=(c + j - 1) // STAGES)
        acc = _fa3_pv(p, _fa3_p_slot(p_buf, j - 1, P_REGS), vbuf.slot(prev), acc, P_REGS)
        if PINGPONG:
            tle.gpu.barrier_arrive(nxt)
        s = tle.gpu.wgmma_wait(1, s)
        tle.gpu.barrier_arrive(kempty[slot], phaseIdx=(c + j) // STAGES)
        if j >= diag:
            s = _causal_mask(s, rows, j * BLOCK_N, BLOCK_N)
        p_next, alpha, m_i, l_i = _online_softmax(s, m_i, l_i, qk_scale)
        acc = tle.gpu.wgmma_wait(0, acc)
        tle.gpu.barrier_arrive(vempty[prev], phaseIdx=(c + j - 1) // STAGES)
        p = _fa3_p(p_next, _fa3_p_slot(p_buf, j, P_REGS), P_REGS)
    if PERSISTENT:
        tle.gpu.barrier_arrive(qempty[ROLE], phaseIdx=t)  # every S that read Q is done
    # The last block's P V.
    u = c + n_blocks - 1
    last = u % STAGES
    acc = acc * alpha[:, None]
    tle.gpu.barrier_wait(vfull[last], phaseIdx=u // STAGES)
    if PINGPONG:
        tle.gpu.barrier_wait(me)
    acc = _fa3_pv(p, _fa3_p_slot(p_buf, n_blocks - 1, P_REGS), vbuf.slot(last), acc, P_REGS)
    if PINGPONG:
        tle.gpu.barrier_arrive(nxt)
    acc = tle.gpu.wgmma_wait(0, acc)
    tle.gpu.barrier_arrive(vempty[last], phaseIdx=u // STAGES)
    acc = acc / l_i[:, None]
    if PERSISTENT:
        tle.gpu.tma_store_wait(0)  # the previous tile's O has left o_buf
    # Not persistent, O goes through the Q buffer (every S that read it is done).
    if row0 < N_CTX:
        tle.gpu.local_store(o_buf, acc.to(tl.bfloat16))
        tle.gpu.copy(o_buf, o_desc, [HALF_M, HEAD_DIM], [o_row, 0], is_async=True)
    if not PERSISTENT:
        tle.gpu.tma_store_wait(0)
    return c + n_blocks


@triton.jit
def _fa3_consumer(q_buf, o_buf, p_buf, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, start_m,
                  off_hz, m_tiles, hz, N_CTX, qk_scale, ROLE: tl.constexpr, CAUSAL: tl.constexpr,
                  PINGPONG: tl.constexpr, STAGES: tl.constexpr, P_REGS: tl.constexpr, PERSISTENT: tl.constexpr,
                  NUM_WG: tl.constexpr, HALF_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """One consumer warpgroup (ROLE 0: the default partition, 1 and 2: workers):
    its rows of the CTA's tile (start_m, off_hz), or, PERSISTENT, of every
    tile from program_id to m_tiles * hz by num_programs, the key-block
    count and Q's phase carried from tile to tile (_fa3_consumer_tile). The
    warpgroups take turns, in order, to issue wgmmas across tiles too."""
    BLOCK_M: tl.constexpr = NUM_WG * HALF_M
    me = tle.gpu.named_barrier(8 + ROLE, 256)
    nxt = tle.gpu.named_barrier(8 + (ROLE + 1) % NUM_WG, 256)
    if PINGPONG:
        if ROLE == NUM_WG - 1:
            tle.gpu.barrier_arrive(nxt)  # warpgroup 0 takes the first turn
    half = tl.arange(0, HALF_M) + ROLE * HALF_M
    if PERSISTENT:
        c = 0
        t = 0
        for tile in range(tl.program_id(0), m_tiles * hz, tl.num_programs(0)):
            sm, hzi = _fa3_tile_of(tile, m_tiles, hz)
            c = _fa3_consumer_tile(q_buf, o_buf, p_buf, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty,
                                   o_desc, hzi * N_CTX + sm * BLOCK_M + ROLE * HALF_M, sm * BLOCK_M + half,
                                   sm * BLOCK_M + ROLE * HALF_M, N_CTX, _fa3_blocks(sm, N_CTX, CAUSAL, BLOCK_M,
                                   BLOCK_N), qk_scale, c, t, ROLE, CAUSAL, PINGPONG, STAGES, P_REGS,
                                   PERSISTENT, NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)
            t += 1
        tle.gpu.tma_store_wait(0)
    else:
        _fa3_consumer_tile(q_buf, o_buf, p_buf, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc,
                           off_hz * N_CTX + start_m * BLOCK_M + ROLE * HALF_M, start_m * BLOCK_M + half,
                           start_m * BLOCK_M + ROLE * HALF_M, N_CTX, _fa3_blocks(start_m, N_CTX, CAUSAL, BLOCK_M,
                           BLOCK_N), qk_scale, 0, 0, ROLE, CAUSAL, PINGPONG, STAGES, P_REGS,
                           PERSISTENT, NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)
    if PINGPONG:
        if ROLE == 0:
            # The last warpgroup arrived once more than warpgroup 0 synced
            # (its opening arrive): take that arrival so the barrier ends empty.
            tle.gpu.barrier_wait(me)


@triton.jit
def _fa3_producer_tile(q_desc, k_desc, v_desc, q0, q1, q2, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty,
                       q_row, kv_row, n_blocks, c, t, PERSISTENT: tl.constexpr, STAGES: tl.constexpr,
                       NUM_WG: tl.constexpr, HALF_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """Q of each warpgroup (PERSISTENT: once it has handed its buffer
    back), then K_j and V_j by TMA into slot (c + j) % STAGES once both
    warpgroups freed it (empty barriers, READY at first). Returns c."""
    if PERSISTENT:
        tle.gpu.barrier_wait(qempty[0], phaseIdx=t)
    tle.gpu.copy(q_desc, q0, [HALF_M, HEAD_DIM], [q_row, 0], barrier=qbar[0])
    if PERSISTENT:
        tle.gpu.barrier_wait(qempty[1], phaseIdx=t)
    tle.gpu.copy(q_desc, q1, [HALF_M, HEAD_DIM], [q_row + HALF_M, 0], barrier=qbar[1])
    if NUM_WG == 3:
        if PERSISTENT:
            tle.gpu.barrier_wait(qempty[2], phaseIdx=t)
        tle.gpu.copy(q_desc, q2, [HALF_M, HEAD_DIM], [q_row + 2 * HALF_M, 0], barrier=qbar[2])
    for j in range(n_blocks):
        slot = (c + j) % STAGES
        use = (c + j) // STAGES
        row = kv_row + j * BLOCK_N
        tle.gpu.barrier_wait(kempty[slot], phaseIdx=use)
        tle.gpu.copy(k_desc, kbuf.slot(slot), [BLOCK_N, HEAD_DIM], [row, 0], barrier=kfull[slot])
        tle.gpu.barrier_wait(vempty[slot], phaseIdx=use)
        tle.gpu.copy(v_desc, vbuf.slot(slot), [BLOCK_N, HEAD_DIM], [row, 0], barrier=vfull[slot])
    return c + n_blocks


@triton.jit
def _fa3_producer(q_desc, k_desc, v_desc, q0, q1, q2, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, start_m,
                  off_hz, m_tiles, hz, N_CTX, CAUSAL: tl.constexpr, PERSISTENT: tl.constexpr,
                  STAGES: tl.constexpr, NUM_WG: tl.constexpr, HALF_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  HEAD_DIM: tl.constexpr):
    """One warp: the loads of the consumers' tiles, in their order."""
    BLOCK_M: tl.constexpr = NUM_WG * HALF_M
    if PERSISTENT:
        c = 0
        t = 0
        for tile in range(tl.program_id(0), m_tiles * hz, tl.num_programs(0)):
            sm, hzi = _fa3_tile_of(tile, m_tiles, hz)
            c = _fa3_producer_tile(q_desc, k_desc, v_desc, q0, q1, q2, kbuf, vbuf, qbar, qempty, kfull, vfull,
                                   kempty, vempty, hzi * N_CTX + sm * BLOCK_M, hzi * N_CTX,
                                   _fa3_blocks(sm, N_CTX, CAUSAL, BLOCK_M, BLOCK_N), c, t, PERSISTENT, STAGES,
                                   NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)
            t += 1
    else:
        _fa3_producer_tile(q_desc, k_desc, v_desc, q0, q1, q2, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty,
                           vempty, off_hz * N_CTX + start_m * BLOCK_M, off_hz * N_CTX,
                           _fa3_blocks(start_m, N_CTX, CAUSAL, BLOCK_M, BLOCK_N), 0, 0, PERSISTENT, STAGES,
                           NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)


@triton.jit
def attn_fwd_tle_fa3(q_desc, k_desc, v_desc, o_desc, qk_scale, N_CTX, HZ, HEAD_DIM: tl.constexpr,
                     BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr, STAGES: tl.constexpr = 2,
                     P_REGS: tl.constexpr = True, PINGPONG: tl.constexpr = True, PERSISTENT: tl.constexpr = False,
                     NUM_WG: tl.constexpr = 2, CONSUMER_REGS: tl.constexpr = 240, PRODUCER_REGS: tl.constexpr = 32):
    """64 * NUM_WG query rows of one (batch, head) a tile, one consumer
    warpgroup (64 rows) each, HZ = batch * heads; num_warps = 4 (the default
    partition is consumer 0). NUM_WG 3 (FA3's tile at D = 64: two
    warpgroups' softmax under one's wgmmas): a tile's last key block may be
    masked for some warpgroups only, and the last tile of a sequence that is
    not a multiple of 192 reaches past N_CTX and drops those rows. One CTA a tile
    (grid (cdiv(N_CTX, 64 * NUM_WG), HZ)), or PERSISTENT a 1-D grid of CTAs that take
    tiles in turn, heaviest first (O then leaves through buffers of its own,
    so the next tile's Q can load under this tile's epilogue). q_desc's and
    o_desc's block is [64, HEAD_DIM], k_desc's and v_desc's [BLOCK_N,
    HEAD_DIM], over [B * H * N, HEAD_DIM]."""
    HALF_M: tl.constexpr = 64
    BLOCK_M: tl.constexpr = NUM_WG * HALF_M
    tl.static_assert(NUM_WG == 2 or NUM_WG == 3, "NUM_WG: 2 or 3 consumer warpgroups")
    m_tiles = tl.cdiv(N_CTX, BLOCK_M)
    start_m = tl.num_programs(0) - 1 - tl.program_id(0)
    off_hz = tl.program_id(1)
    dt: tl.constexpr = tl.bfloat16
    q0 = tle.gpu.alloc([HALF_M, HEAD_DIM], dtype=dt)
    q1 = tle.gpu.alloc([HALF_M, HEAD_DIM], dtype=dt)
    if NUM_WG == 3:
        q2 = tle.gpu.alloc([HALF_M, HEAD_DIM], dtype=dt)
    else:
        q2 = q1  # not used
    if PERSISTENT:
        o0 = tle.gpu.alloc([HALF_M, HEAD_DIM], dtype=dt)
        o1 = tle.gpu.alloc([HALF_M, HEAD_DIM], dtype=dt)
        if NUM_WG == 3:
            o2 = tle.gpu.alloc([HALF_M, HEAD_DIM], dtype=dt)
        else:
            o2 = o1
    else:
        o0 = q0
        o1 = q1
        o2 = q2
    kbuf = tle.gpu.alloc([STAGES, BLOCK_N, HEAD_DIM], dtype=dt)
    vbuf = tle.gpu.alloc([STAGES, BLOCK_N, HEAD_DIM], dtype=dt)
    if P_REGS:
        p0 = q0  # not used: P stays in registers
        p1 = q1
        p2 = q2
    else:
        p0 = tle.gpu.alloc([2, HALF_M, BLOCK_N], dtype=dt)
        p1 = tle.gpu.alloc([2, HALF_M, BLOCK_N], dtype=dt)
        if NUM_WG == 3:
            p2 = tle.gpu.alloc([2, HALF_M, BLOCK_N], dtype=dt)
        else:
            p2 = p1
    qbar = tle.gpu.alloc_barriers(num_barriers=NUM_WG, arrive_count=1)
    if PERSISTENT:
        qempty = tle.gpu.alloc_barriers(num_barriers=NUM_WG, arrive_count=1, init=tle.gpu.READY)
    else:
        qempty = qbar  # not used
    kfull = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=1)
    vfull = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=1)
    kempty = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=NUM_WG, init=tle.gpu.READY)
    vempty = tle.gpu.alloc_barriers(num_barriers=STAGES, arrive_count=NUM_WG, init=tle.gpu.READY)
    if NUM_WG == 3:
        tle.gpu.warp_specialize(
            [(_fa3_consumer, (q0, o0, p0, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, start_m,
                              off_hz, m_tiles, HZ, N_CTX, qk_scale, 0, CAUSAL, PINGPONG, STAGES, P_REGS, PERSISTENT,
                              NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)),
             (_fa3_consumer, (q1, o1, p1, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, start_m,
                              off_hz, m_tiles, HZ, N_CTX, qk_scale, 1, CAUSAL, PINGPONG, STAGES, P_REGS, PERSISTENT,
                              NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)),
             (_fa3_consumer, (q2, o2, p2, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, start_m,
                              off_hz, m_tiles, HZ, N_CTX, qk_scale, 2, CAUSAL, PINGPONG, STAGES, P_REGS, PERSISTENT,
                              NUM_WG, HALF_M, BLOCK_N, HEAD_DIM)),
             (_fa3_producer, (q_desc, k_desc, v_desc, q0, q1, q2, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty,
                              vempty, start_m, off_hz, m_tiles, HZ, N_CTX, CAUSAL, PERSISTENT, STAGES, NUM_WG, HALF_M,
                              BLOCK_N, HEAD_DIM))],
            worker_num_warps=[4, 4, 1], worker_num_regs=[CONSUMER_REGS, CONSUMER_REGS, PRODUCER_REGS])
        return
    tle.gpu.warp_specialize(
        [(_fa3_consumer, (q0, o0, p0, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, start_m, off_hz,
                          m_tiles, HZ, N_CTX, qk_scale, 0, CAUSAL, PINGPONG, STAGES, P_REGS, PERSISTENT, NUM_WG,
                          HALF_M, BLOCK_N, HEAD_DIM)),
         (_fa3_consumer, (q1, o1, p1, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty, vempty, o_desc, start_m, off_hz,
                          m_tiles, HZ, N_CTX, qk_scale, 1, CAUSAL, PINGPONG, STAGES, P_REGS, PERSISTENT, NUM_WG,
                          HALF_M, BLOCK_N, HEAD_DIM)),
         (_fa3_producer, (q_desc, k_desc, v_desc, q0, q1, q2, kbuf, vbuf, qbar, qempty, kfull, vfull, kempty,
                          vempty, start_m, off_hz, m_tiles, HZ, N_CTX, CAUSAL, PERSISTENT, STAGES, NUM_WG, HALF_M,
                          BLOCK_N, HEAD_DIM))],
        worker_num_warps=[4, 1], worker_num_regs=[CONSUMER_REGS, PRODUCER_REGS])


# --------------------------------------------------------------------------------------------------
# Providers
# --------------------------------------------------------------------------------------------------

# Launch configurations of the TLE kernels (BLOCK_M is 128: two warpgroups of 64 rows; tle-fa3 at
# D = 64 from N = 2k: 192, three).
TLE_BLOCK_N = 128
TLE_PIPE_CONFIG = dict(BLOCK_N=128, STAGES=2, CONSUMER_REGS=232, PRODUCER_REGS=40)
TLE_FA3_CONFIG = dict(BLOCK_N=128, PINGPONG=True, CONSUMER_REGS=240, PRODUCER_REGS=32)
# Per head dim: K/V slots (as many as the shared memory holds: D = 128 fills
# 229672 B of the H100's 232448 with 3), and whether P stays in registers as
# the P V wgmma's A operand (P_REGS) or goes through a shared buffer (two
# slots a consumer: _fa3_p_slot). P in registers wins at both head dims since
# triton-tle-merge-marker-copies folds the copies Triton's layout propagation
# makes of the S and P V markers and drops the loop state carried once per
# layout (PTX 4336 -> 3626 lines at D = 64): one H200, N = 4k, Triton at
# 128,64,4,2, 2026-11-28: D = 64 register P 1.19x (non-causal) and 1.20x
# (causal) Triton, the shared buffer 1.12x both. At D = 64 4, 5 and 6 slots
# ran within 2% of each other (4 best at N = 1k causal); 8 do not fit.
# PERSISTENT_FULL: non-causal, one CTA a multiprocessor taking tiles in turn
# (head-major; O through buffers of its own, so the next Q loads under the
# epilogue). One H200, D = 64, 2026-11-28: 1.20x one-CTA-a-tile at N = 1k,
# 1.02x at 4k, level at 16k. Causal, the hardware's CTA scheduler balances
# the uneven tiles better than a fixed stride (persistent 0.95-1.04x at
# D = 64 head-major, 0.93-1.17x heaviest-first across heads); at D = 128 the
# O buffers leave room for 2 K / V slots only (0.87-0.96x, head-minor order).
TLE_FA3_HEAD_DIM_CONFIG = {64: dict(STAGES=4, P_REGS=True, PERSISTENT_FULL=True),
                           128: dict(STAGES=3, P_REGS=True, PERSISTENT_FULL=False)}
# From N = 2048 on at D = 64: FA3's 192-row tile, three consumer warpgroups
# taking turns (two softmaxes under one's wgmmas), registers split 168 / 160 /
# 160 / 24 (setmaxnreg; ptxas spills 56-72 B), one CTA a tile. One H200,
# 2026-11-29, do_bench median ms against the two-warpgroup form
# (`.devkit/probe_fa3c.py`): non-causal N = 4k 1.115 / 1.219, 16k 4.153 /
# 4.797; causal 4k 0.657 / 0.695, 16k 2.178 / 2.386. At N = 1k the last
# tile's unused third (1152 rows for 1024) makes it slower: 0.365 / 0.315
# non-causal, 0.301 / 0.270 causal. Persistent it ran level non-causal and
# 1.05-1.6x slower causal; 3 K / V slots level or slower.
TLE_FA3_WG3_MIN_N = {64: 2048}
TLE_FA3_WG3_CONFIG = dict(NUM_WG=3, CONSUMER_REGS=160, PRODUCER_REGS=24, PERSISTENT=False)


def tle_fa3_config(d, causal, n=None):
    """tle-fa3's constexprs at head dim d (and sequence length n, when
    known: the 192-row form from TLE_FA3_WG3_MIN_N on)."""
    cfg = dict(TLE_FA3_CONFIG, **TLE_FA3_HEAD_DIM_CONFIG[d])
    cfg["PERSISTENT"] = cfg.pop("PERSISTENT_FULL") and not causal
    if n is not None and d in TLE_FA3_WG3_MIN_N and n >= TLE_FA3_WG3_MIN_N[d]:
        cfg.update(TLE_FA3_WG3_CONFIG)
    return cfg


def make_inputs(shape, dev, gen, args):
    import torch
    b, h, n, d, causal = shape
    q, k, v = (torch.randn(b, h, n, d, device=dev, generator=gen, dtype=torch.float32).to(torch.bfloat16)
               for _ in range(3))
    return dict(q=q, k=k, v=v, causal=bool(causal), sm_scale=1.0 / math.sqrt(d), out=torch.empty_like(q),
                triton_config=args.triton_config)


def _desc(x2d, block):
    from triton.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor.from_tensor(x2d, block)


def _flat(x):
    b, h, n, d = x.shape
    return x.reshape(b * h * n, d)


def triton_provider(inp):
    q, k, v, o = inp["q"], inp["k"], inp["v"], inp["out"]
    b, h, n, d = q.shape
    # Block shapes are set per config by the autotuner's pre_hook.
    qd, kd, vd, od = (_desc(_flat(x), [64, d]) for x in (q, k, v, o))
    qk_scale = inp["sm_scale"] * LOG2E

    def grid(meta):
        return (triton.cdiv(n, meta["BLOCK_M"]), b * h)

    if inp.get("triton_config"):
        bm, bn, warps, stages = inp["triton_config"]
        meta = dict(BLOCK_M=bm, BLOCK_N=bn, HEAD_DIM=d)
        _triton_pre_hook(dict(meta, q_desc=qd, k_desc=kd, v_desc=vd, o_desc=od))

        def run_fixed():
            _attn_fwd_triton[grid(meta)](qd, kd, vd, od, qk_scale, n, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn,
                                         CAUSAL=inp["causal"], WARP_SPECIALIZE=False, num_warps=warps,
                                         num_stages=stages)
            return o
        return run_fixed

    def run():
        _attn_fwd_triton_tuned[grid](qd, kd, vd, od, qk_scale, n, HEAD_DIM=d, CAUSAL=inp["causal"])
        return o
    return run


def tle_provider(inp):
    q, k, v, o = inp["q"], inp["k"], inp["v"], inp["out"]
    b, h, n, d = q.shape
    qk_scale = inp["sm_scale"] * LOG2E
    grid = (n // 128, b * h)

    def run():
        attn_fwd_tle_pipe[grid](q, k, v, o, qk_scale, n, HEAD_DIM=d, CAUSAL=inp["causal"], num_warps=4,
                                **TLE_PIPE_CONFIG)
        return o
    return run


def tle_fa3_provider(inp):
    q, k, v, o = inp["q"], inp["k"], inp["v"], inp["out"]
    b, h, n, d = q.shape
    bn = TLE_FA3_CONFIG["BLOCK_N"]
    qd = _desc(_flat(q), [64, d])
    kd = _desc(_flat(k), [bn, d])
    vd = _desc(_flat(v), [bn, d])
    od = _desc(_flat(o), [64, d])
    qk_scale = inp["sm_scale"] * LOG2E
    cfg = tle_fa3_config(d, inp["causal"], n)
    m_tiles = triton.cdiv(n, 64 * cfg.get("NUM_WG", 2))
    grid = (min(m_tiles * b * h, _num_sms(q.device)),) if cfg.get("PERSISTENT") else (m_tiles, b * h)

    def run():
        attn_fwd_tle_fa3[grid](qd, kd, vd, od, qk_scale, n, b * h, HEAD_DIM=d, CAUSAL=inp["causal"], num_warps=4,
                               **cfg)
        return o
    return run


def _num_sms(device):
    import torch
    return torch.cuda.get_device_properties(device).multi_processor_count


def _sdpa_backends():
    """(name, SDPBackend) of the fused backends this torch has."""
    from torch.nn.attention import SDPBackend
    return [(name, getattr(SDPBackend, attr)) for name, attr in (("flash", "FLASH_ATTENTION"),
                                                                 ("cudnn", "CUDNN_ATTENTION"))
            if hasattr(SDPBackend, attr)]


def torch_provider(inp):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import sdpa_kernel
    q, k, v, causal = inp["q"], inp["k"], inp["v"], inp["causal"]

    def with_backend(backend):
        def run():
            with sdpa_kernel([backend]):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return run

    timed = []
    for name, backend in _sdpa_backends():
        fn = with_backend(backend)
        try:
            fn()
            torch.cuda.synchronize()
        except RuntimeError:  # the backend cannot run here (not built, unsupported GPU or shape)
            continue
        timed.append((_harness.time_ms(fn, 10, 30), name, fn))
    if not timed:
        raise RuntimeError("torch has neither the flash nor the cuDNN SDPA backend here")
    timed.sort(key=lambda t: t[0])
    print("#   torch sdpa: " + ", ".join(f"{name} {ms:.4f} ms" for ms, name, _ in timed) + f" -> {timed[0][1]}",
          flush=True)
    return timed[0][2]


def reference(inp):
    """fp32 attention of the bf16 inputs, chunked over queries (about 1 GB of
    scores at a time)."""
    import torch
    q, k, v, causal = inp["q"].float(), inp["k"].float(), inp["v"].float(), inp["causal"]
    b, h, n, d = q.shape
    out = torch.empty_like(q)
    chunk = max(1, min(n, (1 << 28) // max(1, b * h * n)))
    cols = torch.arange(n, device=q.device)
    for i in range(0, n, chunk):
        s = torch.matmul(q[:, :, i:i + chunk], k.transpose(-1, -2)) * inp["sm_scale"]
        if causal:
            rows = torch.arange(i, min(n, i + chunk), device=q.device)
            s.masked_fill_(cols[None, :] > rows[:, None], float("-inf"))
        out[:, :, i:i + chunk] = torch.matmul(torch.softmax(s, dim=-1), v)
        del s
    return out


def check(provider, inp, out):
    import torch
    if "ref" not in inp:
        inp["ref"] = reference(inp)
    ref = inp["ref"]
    assert tuple(out.shape) == tuple(ref.shape), f"shape {tuple(out.shape)} != {tuple(ref.shape)}"
    err = (out.float() - ref).abs()
    worst = float(err.max())
    assert torch.isfinite(out.float()).all(), "non-finite output"
    assert worst <= 2e-2, f"max |out - ref| = {worst:.4g} at {tuple(int(i) for i in (err == err.max()).nonzero()[0])}"
    rms = float(((out.float() - ref) ** 2).mean().sqrt())
    assert rms <= 5e-3 * max(1.0, float((ref ** 2).mean().sqrt())), f"rms error {rms:.4g}"


def unsupported(provider, shape):
    b, h, n, d, causal = shape
    if causal not in (0, 1):
        return "CAUSAL is 0 or 1"
    if provider == "torch":
        return None
    if d not in (64, 128):
        return "D must be 64 or 128"
    if n % N_MULTIPLE:
        return f"N must be a multiple of {N_MULTIPLE}"
    return None


def flops(shape):
    b, h, n, d, causal = shape
    return 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)


def min_bytes(shape):
    b, h, n, d, causal = shape
    return 4 * b * h * n * d * 2  # q, k, v read, out written, bf16


def _config(text):
    try:
        vals = tuple(int(x) for x in text.split(","))
    except ValueError:
        vals = ()
    if len(vals) != 4:
        raise ValueError(f"--triton-config wants BLOCK_M,BLOCK_N,num_warps,num_stages, got {text!r}")
    return vals


def extra_args(p):
    p.add_argument("--triton-config", type=_config, default=None, metavar="BM,BN,WARPS,STAGES",
                   help="run the triton provider at this config instead of autotuning it (quick checks)")


BENCH = _harness.Benchmark(
    name="attention",
    description=__doc__.split("\n\n")[0],
    shape_names=("B", "H", "N", "D", "CAUSAL"),
    default_shapes=DEFAULT_SHAPES,
    providers={"triton": triton_provider, "torch": torch_provider, "tle": tle_provider,
               "tle-fa3": tle_fa3_provider},
    make_inputs=make_inputs,
    check=check,
    min_bytes=min_bytes,
    flops=flops,
    flops_dtype="bf16",
    unsupported=unsupported,
    extra_args=extra_args,
    zero_ok=("CAUSAL",),
)


# --------------------------------------------------------------------------------------------------
# CI: every kernel compiled to PTX for sm_90 on a CPU (python/test/test_bench_smoke.py)
# --------------------------------------------------------------------------------------------------


def _desc_sig(block, d):
    return f"tensordesc<bf16[{block},{d}]>"


def smoke_kernels():
    out = []
    for d in (64, 128):
        for causal in (False, True):
            tag = f"d{d}-{'causal' if causal else 'full'}"
            cfg = TRITON_CONFIGS[0] if d == 64 else [c for c in TRITON_CONFIGS
                                                     if c.kwargs["BLOCK_M"] == 128 and c.num_warps == 8][0]
            bm, bn = cfg.kwargs["BLOCK_M"], cfg.kwargs["BLOCK_N"]
            out.append(dict(name=f"triton-{tag}", kernel=_attn_fwd_triton, tle=False,
                            signature={"q_desc": _desc_sig(bm, d), "k_desc": _desc_sig(bn, d),
                                       "v_desc": _desc_sig(bn, d), "o_desc": _desc_sig(bm, d),
                                       "qk_scale": "fp32", "N_CTX": "i32"},
                            constexprs=dict(HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
                                            WARP_SPECIALIZE=cfg.kwargs["WARP_SPECIALIZE"]),
                            options=dict(num_warps=cfg.num_warps, num_stages=cfg.num_stages),
                            expect=["wgmma.mma_async", "cp.async.bulk.tensor"]))
            pipe = {k: v for k, v in TLE_PIPE_CONFIG.items()}
            out.append(dict(name=f"tle-{tag}", kernel=attn_fwd_tle_pipe, tle=True,
                            signature={"Q": "*bf16", "K": "*bf16", "V": "*bf16", "O": "*bf16", "qk_scale": "fp32",
                                       "N_CTX": "i32"},
                            attrs={(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 5)},
                            constexprs=dict(HEAD_DIM=d, CAUSAL=causal, **pipe), options=dict(num_warps=4),
                            expect=["wgmma.mma_async", "cp.async.cg.shared.global", "setmaxnreg",
                                    "mbarrier.try_wait"]))
            bn = TLE_FA3_CONFIG["BLOCK_N"]
            out.append(dict(name=f"tle-fa3-{tag}", kernel=attn_fwd_tle_fa3, tle=True,
                            signature={"q_desc": _desc_sig(64, d), "k_desc": _desc_sig(bn, d),
                                       "v_desc": _desc_sig(bn, d), "o_desc": _desc_sig(64, d),
                                       "qk_scale": "fp32", "N_CTX": "i32", "HZ": "i32"},
                            attrs={(5,): [["tt.divisibility", 16]]},
                            constexprs=dict(HEAD_DIM=d, CAUSAL=causal, **tle_fa3_config(d, causal)),
                            options=dict(num_warps=4),
                            expect=["wgmma.mma_async", "cp.async.bulk.tensor", "setmaxnreg", "bar.sync 8, 256",
                                    "bar.arrive 9, 256", "mbarrier.try_wait"]))
            if d in TLE_FA3_WG3_MIN_N:
                out.append(dict(out[-1], name=f"tle-fa3-wg3-{tag}",
                                constexprs=dict(HEAD_DIM=d, CAUSAL=causal,
                                                **tle_fa3_config(d, causal, TLE_FA3_WG3_MIN_N[d])),
                                expect=["wgmma.mma_async", "bar.sync 10, 256", "bar.arrive 8, 256"]))
    return out


if __name__ == "__main__":
    _harness.main(BENCH)
