"""All-reduce kernels written with TLE (``tle.remote`` over device axes and
``tle.distributed_barrier`` across devices); the host API is
``tle.distributed.all_reduce``.

Both kernels are persistent: program ``pid`` of ``P`` owns blocks ``pid,
pid + P, ...`` of the flattened tensor, and meets the program ``pid`` of
every peer once (one-shot) or twice (two-shot) per launch. The symmetric
staging buffers are double-buffered by launch parity, read from a per-program
launch counter in device memory, so one launch needs no barrier at its end
and the kernels run from CUDA graphs (no host epoch).
"""

import triton
import triton.language as tl

from .. import language as tle  # the in-kernel primitives (tle.remote, ...)


@triton.jit
def _launch_count(counter):
    """How many times this program ran before (``counter[pid]``), counting this launch."""
    pid = tl.program_id(0)
    n = tl.load(counter + pid)
    # Every warp reads the count before any writes the next one (warps run
    # apart: without this, a late warp read n + 1 and took the other half).
    tl.debug_barrier()
    tl.store(counter + pid, n + 1)
    return n


@triton.jit
def _launch_parity(counter):
    """This program's launch count modulo 2 (``_launch_count``)."""
    return _launch_count(counter) % 2


@triton.jit
def _halves(w, KIND: tl.constexpr):
    """The fp32 values of the 32-bit words ``w``: (one, 0) for fp32 (KIND 0),
    (low half, high half) for bf16 (1) or fp16 (2)."""
    if KIND == 0:
        return w.to(tl.float32, bitcast=True), tl.zeros(w.shape, tl.float32)
    dt: tl.constexpr = tl.bfloat16 if KIND == 1 else tl.float16
    lo = (w & 0xFFFF).to(tl.int16).to(dt, bitcast=True).to(tl.float32)
    hi = ((w >> 16) & 0xFFFF).to(tl.int16).to(dt, bitcast=True).to(tl.float32)
    return lo, hi


@triton.jit
def _word(lo, hi, KIND: tl.constexpr):
    """``_halves``' inverse: the 32-bit words of the sums, rounded to the dtype."""
    if KIND == 0:
        return lo.to(tl.int32, bitcast=True)
    dt: tl.constexpr = tl.bfloat16 if KIND == 1 else tl.float16
    lo16 = lo.to(dt).to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
    hi16 = hi.to(dt).to(tl.int16, bitcast=True).to(tl.int32) << 16
    return hi16 | lo16


@triton.jit
def one_shot_ll_all_reduce_kernel(X, Y, LL, COUNTER, C, NW, MESH: tl.constexpr, D: tl.constexpr,
                                  BLOCK: tl.constexpr, KIND: tl.constexpr):
    """Y = sum over devices of X, pushed with its flag in every word (the
    "low-latency" protocol): X and Y are seen as NW 32-bit words; each word
    goes to every device as one 8-byte store, the data in the low half and
    the launch count + 1 in the high half, so a receiver polls the data
    itself: no barrier, no fence, one one-way NVLink trip. LL: symmetric
    int64, 2 x D x NW words (two halves by launch parity, one slot per
    source device). The host launches the same grid every time, so every
    program's count is the launch's: a word left by an older launch carries
    another count, so nothing stale passes. A half is written again two
    launches later, when every peer has pushed the launch between, so is
    done reading it. Every device sums the D copies in rank
    order: the same result bits everywhere."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    pid = tl.program_id(0)
    P = tl.num_programs(0)
    n = _launch_count(COUNTER)
    flag = n + 1
    area = LL + (n % 2) * D * NW
    nblocks = tl.cdiv(NW, BLOCK)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        mask = offs < NW
        w = tl.load(X + offs, mask=mask, other=0)
        packed = (flag.to(tl.int64) << 32) | (w.to(tl.int64) & 0xFFFFFFFF)
        for q in tl.static_range(D):  # this device's own slot too: the sum below reads every slot alike
            tl.store(tle.remote(area + rank * NW + offs, q, MESH, context=ctx), packed, mask=mask)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        mask = offs < NW
        lo = tl.zeros([BLOCK], tl.float32)
        hi = tl.zeros([BLOCK], tl.float32)
        for q in tl.static_range(D):
            slot = area + q * NW + offs
            v = tl.load(slot, mask=mask, other=0, volatile=True)
            while tl.sum(tl.where(mask & ((v >> 32).to(tl.int32) != flag), 1, 0)) > 0:
                v = tl.load(slot, mask=mask, other=0, volatile=True)
            a, c = _halves(v.to(tl.int32), KIND)
            lo += a
            hi += c
        tl.store(Y + offs, _word(lo, hi, KIND), mask=mask)


@triton.jit
def one_shot_all_reduce_kernel(X, Y, STAGE, COUNTER, C, N, MESH: tl.constexpr, D: tl.constexpr,
                               BLOCK: tl.constexpr):
    """Y = sum over devices of X. STAGE: symmetric, 2 * N elements (two
    halves by launch parity). Every device reads every peer's whole copy."""
    ctx = tle.device_context(MESH, C)
    pid = tl.program_id(0)
    P = tl.num_programs(0)
    stage = STAGE + _launch_parity(COUNTER) * N
    nblocks = tl.cdiv(N, BLOCK)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        tl.store(stage + offs, tl.load(X + offs, mask=mask), mask=mask)
    tle.distributed_barrier(MESH, context=ctx)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        mask = offs < N
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for q in tl.static_range(D):
            peer = tle.remote(stage + offs, q, MESH, context=ctx)
            acc += tl.load(peer, mask=mask).to(tl.float32)
        tl.store(Y + offs, acc.to(Y.dtype.element_ty), mask=mask)


@triton.jit
def two_shot_all_reduce_kernel(X, Y, STAGE, COUNTER, C, N, MESH: tl.constexpr, D: tl.constexpr,
                               BLOCK: tl.constexpr):
    """Y = sum over devices of X, as a reduce-scatter then an all-gather.
    Each block of BLOCK elements is cut into D slices; device r sums slice r
    of the block from every peer and publishes it, then gathers the other
    slices. STAGE: symmetric, 4 * N elements (inputs and sums, two halves
    each by launch parity). N must be a multiple of BLOCK."""
    ctx = tle.device_context(MESH, C)
    pid = tl.program_id(0)
    P = tl.num_programs(0)
    rank = ctx.rank
    parity = _launch_parity(COUNTER)
    inputs = STAGE + parity * N
    sums = STAGE + 2 * N + parity * N
    nblocks = N // BLOCK
    SLICE: tl.constexpr = BLOCK // D
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + tl.arange(0, BLOCK)
        tl.store(inputs + offs, tl.load(X + offs))
    tle.distributed_barrier(MESH, context=ctx)
    for b in range(pid, nblocks, P):
        offs = b * BLOCK + rank * SLICE + tl.arange(0, SLICE)
        acc = tl.zeros([SLICE], dtype=tl.float32)
        for q in tl.static_range(D):
            acc += tl.load(tle.remote(inputs + offs, q, MESH, context=ctx)).to(tl.float32)
        total = acc.to(Y.dtype.element_ty)
        tl.store(sums + offs, total)
        tl.store(Y + offs, total)
    tle.distributed_barrier(MESH, context=ctx)
    for b in range(pid, nblocks, P):
        for s in tl.static_range(1, D):
            q = (rank + s) % D
            offs = b * BLOCK + q * SLICE + tl.arange(0, SLICE)
            tl.store(Y + offs, tl.load(tle.remote(sums + offs, q, MESH, context=ctx)))


# An LL128 line: 32 words, 30 of data, then a check word, then the flag (the launch count + 1).
LL128_DATA = tl.constexpr(30)
# The check word's multipliers: word j of a line is hashed times _MIX + 2 j (odd, so each a bijection mod 2^32).
_MIX = tl.constexpr(-1640531535)  # 0x9E3779B1 as an int32


@triton.jit
def _ll128_lines(b, NW, BLOCK: tl.constexpr):
    """Block ``b`` of BLOCK words of the LL128 lines of NW words: per word
    its index k (line k // 32, position j = k % 32), j, the data word it
    carries (30 * line + j, for j < 30) and whether its line exists."""
    k = b * BLOCK + tl.arange(0, BLOCK)
    j = k % 32
    return k, j, (k // 32) * LL128_DATA + j, k < tl.cdiv(NW, LL128_DATA) * 32


@triton.jit
def _ll128_check(words, BLOCK: tl.constexpr):
    """Per line of ``words`` (BLOCK words, whole lines), the check word: the
    XOR over its data words and its flag of word j times (_MIX + 2 j). Any
    one word that differs changes it; so do the data of another launch
    beside this launch's flag, but for a 2^-32 chance when several words
    differ. Returns the lines' check words as a [BLOCK // 32, 32] tensor
    (each row the line's value) and the words in that shape."""
    w = tl.reshape(words, [BLOCK // 32, 32])
    jj = tl.arange(0, 32)[None, :]
    mixed = tl.where(jj == LL128_DATA, 0, w * (_MIX + 2 * jj))
    return tl.xor_sum(mixed, axis=1)[:, None] + tl.zeros_like(w), w, jj


@triton.jit
def _ll128_seal(words, flag, BLOCK: tl.constexpr):
    """``words`` (the data in each line's first 30 words) with each line's
    flag (word 31) and check word (word 30) set."""
    j = tl.arange(0, BLOCK) % 32
    flagged = tl.where(j == 31, flag, words)
    check, w, jj = _ll128_check(flagged, BLOCK)
    return tl.reshape(tl.where(jj == LL128_DATA, check, w), [BLOCK])


@triton.jit
def _ll128_pack(X, b, NW, BLOCK: tl.constexpr, flag):
    """Block ``b`` of BLOCK words of X's LL128 lines: word k of a line is
    X's word 30 * line + k for k < 30, the check word for k = 30 and
    ``flag`` for k = 31. Returns the words and, per word, whether its line
    exists."""
    k, j, src, live = _ll128_lines(b, NW, BLOCK)
    w = tl.load(X + src, mask=live & (j < LL128_DATA) & (src < NW), other=0)
    return _ll128_seal(w, flag, BLOCK), live


@triton.jit
def _ll128_bad_lines(v, live, flag, BLOCK: tl.constexpr):
    """How many live lines of ``v`` do not carry ``flag`` or whose check
    word does not match their words."""
    check, w, jj = _ll128_check(v, BLOCK)
    ok = tl.where(jj == 31, w == flag, True) & tl.where(jj == LL128_DATA, w == check, True)
    return tl.sum(tl.where(tl.reshape(live, [BLOCK // 32, 32]), tl.where(ok, 0, 1), 0))


@triton.jit
def _ll128_wait(slot, live, flag, BLOCK: tl.constexpr):
    """The BLOCK words at ``slot`` once every live line carries ``flag`` and
    its check word matches its words (a line seen half written, this
    launch's flag beside older data, is polled again)."""
    v = tl.load(slot, mask=live, other=0, volatile=True)
    while _ll128_bad_lines(v, live, flag, BLOCK) > 0:
        v = tl.load(slot, mask=live, other=0, volatile=True)
    return v


@triton.jit
def _ll128_start(AREA, COUNTER, NW, SLOT, D: tl.constexpr, BLOCK: tl.constexpr):
    """What both LL128 kernels start with: this program's index and the
    grid's size, this launch's flag (its count + 1), the half of AREA its
    parity takes (2 phases x D x SLOT words) and how many blocks of BLOCK
    words the lines of NW words make."""
    tl.static_assert(BLOCK % 32 == 0, "a block is whole 32-word lines")
    n = _launch_count(COUNTER)
    area = AREA + (n % 2) * 2 * D * SLOT
    return tl.program_id(0), tl.num_programs(0), n + 1, area, tl.cdiv(tl.cdiv(NW, LL128_DATA) * 32, BLOCK)


@triton.jit
def _ll128_unpack(Y, b, NW, words, BLOCK: tl.constexpr):
    """Store the data words of block ``b`` of LL128 lines (``words``) into
    Y, as NW 32-bit words (``_ll128_pack``'s inverse)."""
    k, j, src, live = _ll128_lines(b, NW, BLOCK)
    tl.store(Y + src, words, mask=live & (j < LL128_DATA) & (src < NW))


@triton.jit
def _ll128_sum(slots, SLOT, live, flag, D: tl.constexpr, BLOCK: tl.constexpr, KIND: tl.constexpr):
    """The sum, in rank order, of the D blocks of lines at ``slots + q *
    SLOT`` (q = 0 ... D - 1), each once its lines carry ``flag``: the
    32-bit words of the sums, rounded to the dtype (``_word``)."""
    lo = tl.zeros([BLOCK], tl.float32)
    hi = tl.zeros([BLOCK], tl.float32)
    for q in tl.static_range(D):
        a, c = _halves(_ll128_wait(slots + q * SLOT, live, flag, BLOCK), KIND)
        lo += a
        hi += c
    return _word(lo, hi, KIND)


@triton.jit
def two_shot_ll128_all_reduce_kernel(X, Y, AREA, COUNTER, C, NW, SLOT, MESH: tl.constexpr, D: tl.constexpr,
                                     BLOCK: tl.constexpr, KIND: tl.constexpr):
    """Y = sum over devices of X as a reduce-scatter then an all-gather, both
    pushed in LL128 lines (``one_shot_ll128_all_reduce_kernel``): block b of
    BLOCK words of lines belongs to device b mod D. Every device pushes its
    copy of block b to the block's owner; the owner sums the D copies (in
    rank order), rounds them to the dtype and pushes the sum, in lines with
    the flag again, to every device, which unpacks it into Y. No fence, no
    barrier: two one-way trips, each device sending 2 (D - 1) / D of the
    data. AREA: symmetric int32, 2 parities x 2 phases x D x SLOT words
    (SLOT >= ceil(blocks / D) x BLOCK); it and the launch counter are shared
    with the one-shot LL128 kernel (which uses the first phase's slots), so
    a launch's flag is unique whichever kernel ran it."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    pid, P, flag, rs, nblocks = _ll128_start(AREA, COUNTER, NW, SLOT, D, BLOCK)  # rs: [source][SLOT], the copies
    ag = rs + D * SLOT  # [owner][SLOT]: the sums of every device's blocks
    for b in range(pid, nblocks, P):
        word, live = _ll128_pack(X, b, NW, BLOCK, flag)
        dst = rs + rank * SLOT + (b // D) * BLOCK + tl.arange(0, BLOCK)
        tl.store(tle.remote(dst, b % D, MESH, context=ctx), word, mask=live)
    for i in range(pid, tl.cdiv(nblocks - rank, D), P):  # this device's blocks: b = i * D + rank
        k, j, src, live = _ll128_lines(i * D + rank, NW, BLOCK)
        total = _ll128_seal(_ll128_sum(rs + i * BLOCK + tl.arange(0, BLOCK), SLOT, live, flag, D, BLOCK, KIND), flag,
                            BLOCK)
        for q in tl.static_range(D):
            tl.store(tle.remote(ag + rank * SLOT + i * BLOCK + tl.arange(0, BLOCK), q, MESH, context=ctx), total,
                     mask=live)
    for b in range(pid, nblocks, P):
        k, j, src, live = _ll128_lines(b, NW, BLOCK)
        _ll128_unpack(Y, b, NW, _ll128_wait(ag + (b % D) * SLOT + (b // D) * BLOCK + tl.arange(0, BLOCK), live, flag,
                                            BLOCK), BLOCK)


@triton.jit
def one_shot_ll128_all_reduce_kernel(X, Y, AREA, COUNTER, C, NW, SLOT, MESH: tl.constexpr, D: tl.constexpr,
                                     BLOCK: tl.constexpr, KIND: tl.constexpr):
    """Y = sum over devices of X, pushed in 128-byte lines that carry their
    own flag (NCCL's "LL128" protocol): X and Y are seen as NW 32-bit words;
    line l carries words 30 l ... 30 l + 29, a check word (``_ll128_check``)
    and, in its last word, the launch count + 1. A warp writes a line with
    one 16-byte store per lane from 8 consecutive lanes, and a receiver
    polls the lines themselves (no fence, no barrier, one one-way trip), as
    the 8-byte low-latency one-shot does, at 15/16 of the bandwidth instead
    of half. NCCL's protocol trusts NVLink to deliver such a write whole; on
    2 x H200 a receiver saw a line's flag beside older data, so a line is
    taken only when its check word matches its words too (else polled
    again). AREA (shared with ``two_shot_ll128_all_reduce_kernel``, and the
    launch counter too): symmetric int32, 2 launch parities x 2 x D x SLOT
    words; this kernel takes the first D slots of its parity, one per
    source device, SLOT >= ceil(NW / 30) x 32. Stale lines carry an older count; a
    half is written again two launches later, when every peer has finished
    the launch between (and this device, by stream order, the launch
    before). Every device sums the D copies in rank order: the same result
    bits everywhere."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    pid, P, flag, area, nblocks = _ll128_start(AREA, COUNTER, NW, SLOT, D, BLOCK)
    for b in range(pid, nblocks, P):
        word, live = _ll128_pack(X, b, NW, BLOCK, flag)
        dst = area + rank * SLOT + b * BLOCK + tl.arange(0, BLOCK)
        for q in tl.static_range(D):  # this device's own slot too: the sum below reads every slot alike
            tl.store(tle.remote(dst, q, MESH, context=ctx), word, mask=live)
    for b in range(pid, nblocks, P):
        k, j, src, live = _ll128_lines(b, NW, BLOCK)
        _ll128_unpack(Y, b, NW, _ll128_sum(area + b * BLOCK + tl.arange(0, BLOCK), SLOT, live, flag, D, BLOCK, KIND),
                      BLOCK)
