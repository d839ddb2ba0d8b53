"""Top-k selection kernels shared by bench/topk_selector.py and bench/topk.py.

All kernels select, per row of an fp32 matrix, the indices of the k largest
values by an MSB-first radix select over an order-preserving uint32 key:

* ``key(x)``: the float's bits with the sign bit flipped for x >= 0 and all
  bits flipped for x < 0, so unsigned key order is float order. ``-0.0`` is
  mapped to ``+0.0`` first (the two compare equal, as in torch.topk). NaN is
  not supported: a NaN gets a key above +inf or below -inf depending on its
  sign bit, whereas torch.topk ranks every NaN largest.
* The key is split into three digits (``BITS1`` + ``BITS2`` + the rest = 32).
  Each round counts the digit of the elements still matching the threshold
  prefix, an exclusive reverse prefix sum over the bins gives, per bin, how
  many elements lie above it, and the threshold bin ``b`` is the one with
  ``above[b] < need <= above[b] + hist[b]``.
* The output is every index whose key is above the final threshold key ``T``
  plus exactly ``k - #(key > T)`` indices with key ``T`` (ties; the first ones
  in scan order). Order within a row is unspecified (except for the
  ``SORTED`` variants, which sort the k selected by value, descending, ties by
  index).

TLE kernel (``tle_radix_select``): histograms are shared-memory atomics
(``tle.gpu.alloc`` + ``local_ptr`` + ``tl.atomic_add``), the bin scan is
``tle.cumsum(..., reverse=True)``. The first digit needs one pass over the row;
the second pass writes the indices above the first threshold digit straight
to the output and compacts the candidates (first digit == threshold) into a
shared-memory buffer (keys and indices) while it counts their second digit; the
remaining rounds read only that buffer. Output and buffer slots come from
shared-memory atomic counters (one ``atom.shared`` per selected element; few
elements are selected, so the counters are barely contended): no CTA-wide scan
per chunk. Which of the keys equal to the final threshold are chosen then
depends on the schedule when there are more of them than slots. ``DET=True``
takes the slots from prefix sums instead (``tle.cumsum`` of the masks plus a
running offset; ties in scan order), so the result is the same on every run. If a row has more than ``CAP``
candidates (tie-heavy input) the later rounds re-read the row from global
memory with a prefix filter instead: the result stays exact. The streaming
passes issue the next chunk's load before working on the current one; the two
output positions of a chunk come from one ``tle.cumsum`` of both masks packed
in an int32 (DET); ``RC > 0`` keeps the first RC keys of the slice in shared memory
after the first pass, so the second pass reads them there.

With ``C > 1`` (``MESH`` a ``block_cluster`` mesh of C CTAs) a thread-block
cluster works on one row: each CTA takes a slice, counts it into its own
shared histogram, adds the non-zero bins into rank 0's histogram with remote
atomics (``tle.remote`` + ``tl.atomic_add``), and after a cluster barrier every
CTA reads rank 0's merged histogram and finds the same threshold. Output
positions: each CTA publishes its per-round counts (taken from its own local
histograms) in rank 0's shared memory, and after a barrier takes the exclusive
prefix over the lower ranks. One buffer per round, so no buffer is ever
cleared while a peer may still use it.

Plain-Triton kernel (``triton_radix_select``): the same digits and rounds with
``tl.histogram(..., mask=)`` and ``tl.cumsum``, re-reading the row (from L2)
every round (4 passes, with the same next-chunk prefetch and packed scan) —
plain Triton has neither addressable shared memory nor cross-CTA
synchronisation inside a kernel. For few long rows (``triton_split_hist`` x3
+ ``triton_split_final``) a row is split over P programs and every round is
its own launch: partial histograms are merged in global memory with atomics,
each launch re-derives the earlier thresholds from them, and the last one
takes output slots from per-row global atomic counters.

``triton_stream_topk``: plain Triton's ``tl.topk`` (bitonic sort) on packed
(key, ~index) uint64 values, streaming the row in chunks and merging the
running top-k with each chunk's top-k.
"""

import triton
import triton.language as tl

import tle


@triton.jit
def _key(x):
    """Order-preserving uint32 key of an fp32 value (-0.0 treated as +0.0)."""
    bits = x.to(tl.uint32, bitcast=True)
    bits = tl.where(bits == 0x80000000, 0, bits)
    flip = tl.where((bits >> 31) != 0, 0xFFFFFFFF, 0x80000000).to(tl.uint32)
    return bits ^ flip


@triton.jit
def _threshold_tle(h, need, scratch):
    """Threshold bin b (above[b] < need <= above[b] + h[b]) and above[b]. The
    one thread holding bin b writes both, packed, to the shared int64
    ``scratch``; everyone reads them back (one barrier, no CTA-wide reductions)."""
    above, total = tle.cumsum(h, axis=0, reverse=True)
    bins = tl.arange(0, h.shape[0])
    sel = (above < need) & (above + h >= need)
    packed = (bins.to(tl.int64) << 32) | above.to(tl.int64)
    tl.store(tle.gpu.local_ptr(scratch, (tl.zeros_like(bins),)), packed, mask=sel)
    v = tl.load(tle.gpu.local_ptr(scratch, (0,)))
    return (v >> 32).to(tl.int32), (v & 0xFFFFFFFF).to(tl.int32)


@triton.jit
def _threshold_tl(h, need):
    above = tl.cumsum(h, axis=0, reverse=True) - h
    bins = tl.arange(0, h.shape[0])
    sel = (above < need) & (above + h >= need)
    return tl.sum(tl.where(sel, bins, 0)), tl.sum(tl.where(sel, above, 0))


@triton.jit
def _merge_hist(local, merged, bins, rank, C: tl.constexpr, MESH: tl.constexpr):
    """Rank 0's merged histogram after every CTA added its non-zero bins (C > 1),
    else the local one. Every CTA of the cluster must call it."""
    h = tl.load(tle.gpu.local_ptr(local))
    if C > 1:
        home = tle.remote(merged, 0, scope=MESH)
        tl.atomic_add(tle.gpu.local_ptr(home, (bins,)), h, mask=h > 0, sem="relaxed", scope="gpu")
        tle.distributed_barrier(MESH)
        hh = tl.load(tle.gpu.local_ptr(home, (bins,)))
    else:
        hh = h
    return h, hh


@triton.jit
def _publish(info, slot, value, rank, C: tl.constexpr, MESH: tl.constexpr):
    """Exclusive prefix of ``value`` over the cluster's lower ranks (0 if C == 1).
    ``slot`` selects one of the per-round count arrays in rank 0's ``info``."""
    if C > 1:
        home = tle.remote(info, 0, scope=MESH)
        ranks = tl.arange(0, C)
        tl.store(tle.gpu.local_ptr(home, (slot * C + ranks,)), tl.where(ranks == rank, value, 0),
                 mask=ranks == rank)
        tle.distributed_barrier(MESH)
        counts = tl.load(tle.gpu.local_ptr(home, (slot * C + ranks,)))
        base = tl.sum(tl.where(ranks < rank, counts, 0))
    else:
        base = 0
    return base


@triton.jit
def _claim(ctr, which, mask):
    """Slots for the elements of ``mask``: the old value of the shared counter
    ``ctr[which]`` (per element) after one atomic increment per element
    (order among the elements unspecified)."""
    return tl.atomic_add(tle.gpu.local_ptr(ctr, (which,)), tl.full(which.shape, 1, tl.int32), mask=mask,
                         sem="relaxed", scope="cta")


@triton.jit
def _emit2(out_row, obuf, pos, sel, tpos, tie_base, need, tie, idx, SORTED: tl.constexpr, ctr,
           DET: tl.constexpr):
    """Write ``idx`` where ``sel`` at pos + (its slot among sel), and the ties
    (``tie``) whose cluster-wide rank tpos + (slot among tie) is below ``need``
    at tie_base + rank. DET: slots are exclusive prefixes, from one scan of both
    masks packed in an int32 (a chunk holds fewer than 2**16 elements); else
    from the counters ctr[2], ctr[3]. Returns the new pos, tpos (DET; else
    unchanged: the counters carry on)."""
    if DET:
        s, tot = tle.cumsum(sel.to(tl.int32) | (tie.to(tl.int32) << 16), axis=0)
        p = pos + (s & 0xFFFF)
        r = tpos + (s >> 16)
        pos = pos + (tot & 0xFFFF)
        tpos = tpos + (tot >> 16)
    else:
        # sel and tie are exclusive: one atomic, on ctr[2] or ctr[3].
        slot = _claim(ctr, 2 + tie.to(tl.int32), sel | tie)
        p = pos + slot
        r = tpos + slot
    mt = tie & (r < need)
    if SORTED:
        tl.store(tle.gpu.local_ptr(obuf, (p,)), idx, mask=sel)
        tl.store(tle.gpu.local_ptr(obuf, (tie_base + r,)), idx, mask=mt)
    else:
        tl.store(out_row + p, idx, mask=sel)
        tl.store(out_row + tie_base + r, idx, mask=mt)
    return pos, tpos


@triton.jit
def _chunk_keys(x_row, rcache, start, lo, hi, BLOCK: tl.constexpr, RC: tl.constexpr):
    """Offsets, mask and keys of the chunk at ``start``, from the shared row
    cache for the first RC elements of the slice, else from global memory."""
    offs = start + tl.arange(0, BLOCK)
    m = offs < hi
    if RC > 0:
        if start - lo < RC:
            key = tl.load(tle.gpu.local_ptr(rcache, (offs - lo,)), mask=m, other=0)
        else:
            key = _key(tl.load(x_row + offs, mask=m, other=0.0))
    else:
        key = _key(tl.load(x_row + offs, mask=m, other=0.0))
    return offs, m, key


@triton.jit
def tle_radix_select(X, OUT, VALS, seq, K, BLOCK: tl.constexpr, CBLOCK: tl.constexpr,
                     CAP: tl.constexpr, BITS1: tl.constexpr, BITS2: tl.constexpr, SORTED: tl.constexpr,
                     KS: tl.constexpr, C: tl.constexpr, MESH: tl.constexpr, RC: tl.constexpr = 0,
                     DET: tl.constexpr = False):
    """OUT[row, :K] = indices of the K largest X[row, :seq] (X contiguous, K <= seq).
    DET: output positions from prefix sums (the output, and which of the keys
    equal to the threshold are chosen, are the same on every run); else from
    shared-memory atomic counters (no CTA-wide scan per chunk; the selected set
    is the same except which ties at the threshold are chosen).
    SORTED (C == 1 only, K == KS a power of 2): OUT sorted by value descending
    and VALS[row] = values. RC > 0: the first RC keys of each CTA's slice are
    kept in shared memory by the first pass, so later passes read them there."""
    BITS3: tl.constexpr = 32 - BITS1 - BITS2
    S1: tl.constexpr = 32 - BITS1
    S2: tl.constexpr = BITS3
    N1: tl.constexpr = 1 << BITS1
    N2: tl.constexpr = 1 << BITS2
    N3: tl.constexpr = 1 << BITS3
    tl.static_assert(not (SORTED and C > 1), "SORTED output needs C == 1")
    tl.static_assert(BLOCK < 65536, "packed scans need BLOCK < 2**16")
    row = tl.program_id(0) // C  # a program is a CTA, C per cluster (one row)
    if C > 1:
        rank = tle.shard_id(MESH, "cluster_x")
    else:
        rank = 0
    per = tl.cdiv(tl.cdiv(seq, C), BLOCK) * BLOCK
    lo = rank * per
    hi = tl.minimum(lo + per, seq)
    x_row = X + row.to(tl.int64) * seq
    out_row = OUT + row.to(tl.int64) * K

    bins1 = tl.arange(0, N1)
    bins2 = tl.arange(0, N2)
    bins3 = tl.arange(0, N3)
    L1 = tle.gpu.alloc([N1], dtype=tl.int32)
    L2 = tle.gpu.alloc([N2], dtype=tl.int32)
    L3 = tle.gpu.alloc([N3], dtype=tl.int32)
    ckeys = tle.gpu.alloc([CAP], dtype=tl.uint32)
    cidx = tle.gpu.alloc([CAP], dtype=tl.int32)
    if SORTED:
        obuf = tle.gpu.alloc([KS], dtype=tl.int32)
    else:
        obuf = L3  # unused
    if RC > 0:
        rcache = tle.gpu.alloc([RC], dtype=tl.uint32)
    else:
        rcache = L3  # unused
    tl.store(tle.gpu.local_ptr(L1), tl.zeros([N1], tl.int32))
    tl.store(tle.gpu.local_ptr(L2), tl.zeros([N2], tl.int32))
    tl.store(tle.gpu.local_ptr(L3), tl.zeros([N3], tl.int32))
    thr_scr = tle.gpu.alloc([1], dtype=tl.int64)  # threshold bin and count above it
    if not DET:
        # Slot counters: above-threshold outputs and candidates of pass 2,
        # above-threshold outputs and ties of the final pass.
        ctr = tle.gpu.alloc([4], dtype=tl.int32)
        tl.store(tle.gpu.local_ptr(ctr), tl.zeros([4], tl.int32))
    else:
        ctr = L3  # unused
    if C > 1:
        M1 = tle.gpu.alloc([N1], dtype=tl.int32)
        M2 = tle.gpu.alloc([N2], dtype=tl.int32)
        M3 = tle.gpu.alloc([N3], dtype=tl.int32)
        info = tle.gpu.alloc([3 * C], dtype=tl.int32)
        tl.store(tle.gpu.local_ptr(M1), tl.zeros([N1], tl.int32))
        tl.store(tle.gpu.local_ptr(M2), tl.zeros([N2], tl.int32))
        tl.store(tle.gpu.local_ptr(M3), tl.zeros([N3], tl.int32))
        tle.distributed_barrier(MESH)
    else:
        M1 = L1
        M2 = L2
        M3 = L3
        info = L3

    # Round 1: histogram of the first digit over the slice (the next chunk's
    # load is issued before this chunk is counted).
    offs_n = lo + tl.arange(0, BLOCK)
    x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
    for start in range(lo, hi, BLOCK):
        x = x_n
        offs_n = start + BLOCK + tl.arange(0, BLOCK)
        x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
        offs = start + tl.arange(0, BLOCK)
        m = offs < hi
        key = _key(x)
        if RC > 0:
            tl.store(tle.gpu.local_ptr(rcache, (offs - lo,)), key, mask=m & (offs - lo < RC))
        tl.atomic_add(tle.gpu.local_ptr(L1, ((key >> S1).to(tl.int32),)), 1, mask=m, sem="relaxed", scope="cta")
    h1, hh1 = _merge_hist(L1, M1, bins1, rank, C, MESH)
    b1, g1 = _threshold_tle(hh1, K, thr_scr)
    need1 = K - g1
    n1 = tl.load(tle.gpu.local_ptr(L1, (b1,)))  # this CTA's candidates
    pos = _publish(info, 0, tl.sum(tl.where(bins1 > b1, h1, 0)), rank, C, MESH)
    overflow = n1 > CAP

    # Pass 2: indices above the threshold digit go out; candidates are compacted
    # into shared memory while their second digit is counted. One packed scan
    # gives both output positions.
    cpos = 0
    offs_n = lo + RC + tl.arange(0, BLOCK)
    x_n = tl.load(x_row + offs_n, mask=(offs_n < hi) & (offs_n < lo + per), other=0.0)
    for start in range(lo, hi, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < hi
        if RC > 0:
            if start - lo < RC:
                key = tl.load(tle.gpu.local_ptr(rcache, (offs - lo,)), mask=m, other=0)
            else:
                key = _key(x_n)
                offs_n = start + BLOCK + tl.arange(0, BLOCK)
                x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
        else:
            key = _key(x_n)
            offs_n = start + BLOCK + tl.arange(0, BLOCK)
            x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
        d1 = (key >> S1).to(tl.int32)
        gt = m & (d1 > b1)
        eq = m & (d1 == b1)
        if DET:
            s, tot = tle.cumsum(gt.to(tl.int32) | (eq.to(tl.int32) << 16), axis=0)
            p = pos + (s & 0xFFFF)
            pos += tot & 0xFFFF
            q = cpos + (s >> 16)
            cpos += tot >> 16
        else:
            # gt and eq are exclusive: one atomic, on ctr[0] or ctr[1].
            slot = _claim(ctr, eq.to(tl.int32), gt | eq)
            p = pos + slot
            q = slot
        if SORTED:
            tl.store(tle.gpu.local_ptr(obuf, (p,)), offs, mask=gt)
        else:
            tl.store(out_row + p, offs, mask=gt)
        cm = eq & (q < CAP)
        tl.store(tle.gpu.local_ptr(ckeys, (q,)), key, mask=cm)
        tl.store(tle.gpu.local_ptr(cidx, (q,)), offs, mask=cm)
        d2 = ((key >> S2) & (N2 - 1)).to(tl.int32)
        tl.atomic_add(tle.gpu.local_ptr(L2, (d2,)), 1, mask=eq, sem="relaxed", scope="cta")
    h2, hh2 = _merge_hist(L2, M2, bins2, rank, C, MESH)
    b2, g2 = _threshold_tle(hh2, need1, thr_scr)
    need2 = need1 - g2

    # Early exit (one CTA per row): when round 2's threshold bin holds exactly
    # the keys still needed, which is the usual case once two digits leave a
    # few candidates per bin, all of them are taken and round 3 has nothing to
    # decide. The final pass then takes every candidate with key >= T, T the
    # bin's lowest key (b3 = 0), and no ties.
    take_bin = False
    if C == 1:
        take_bin = tl.load(tle.gpu.local_ptr(L2, (b2,))) == need2
    h3 = tl.zeros([N3], tl.int32)
    b3 = b2 * 0
    g3 = b2 * 0
    # Round 3: last digit of the candidates matching both threshold digits.
    if take_bin == 0:
        if overflow:
            for start in range(lo, hi, BLOCK):
                offs, m, key = _chunk_keys(x_row, rcache, start, lo, hi, BLOCK, RC)
                v = m & ((key >> S1).to(tl.int32) == b1) & (((key >> S2) & (N2 - 1)).to(tl.int32) == b2)
                tl.atomic_add(tle.gpu.local_ptr(L3, ((key & (N3 - 1)).to(tl.int32),)), 1, mask=v,
                              sem="relaxed", scope="cta")
        else:
            for start in range(0, n1, CBLOCK):
                o = start + tl.arange(0, CBLOCK)
                m = o < n1
                key = tl.load(tle.gpu.local_ptr(ckeys, (o,)), mask=m, other=0)
                v = m & (((key >> S2) & (N2 - 1)).to(tl.int32) == b2)
                tl.atomic_add(tle.gpu.local_ptr(L3, ((key & (N3 - 1)).to(tl.int32),)), 1, mask=v,
                              sem="relaxed", scope="cta")
        h3, hh3 = _merge_hist(L3, M3, bins3, rank, C, MESH)
        b3, g3 = _threshold_tle(hh3, need2, thr_scr)
    need3 = need2 - g3
    thr = (b1.to(tl.uint32) << S1) | (b2.to(tl.uint32) << S2) | b3.to(tl.uint32)

    # Final pass over the candidates: keys above T, then the first need3 ties.
    gt_mine = tl.sum(tl.where(bins2 > b2, h2, 0)) + tl.sum(tl.where(bins3 > b3, h3, 0))
    pos = g1 + _publish(info, 1, gt_mine, rank, C, MESH)
    tpos = _publish(info, 2, tl.sum(tl.where(bins3 == b3, h3, 0)), rank, C, MESH)
    tie_base = K - need3
    if overflow:
        for start in range(lo, hi, BLOCK):
            offs, m, key = _chunk_keys(x_row, rcache, start, lo, hi, BLOCK, RC)
            v = m & ((key >> S1).to(tl.int32) == b1)
            eq = key == thr
            pos, tpos = _emit2(out_row, obuf, pos, v & ((key > thr) | (eq & take_bin)), tpos, tie_base, need3,
                               v & eq & (take_bin == 0), offs, SORTED, ctr, DET)
    else:
        for start in range(0, n1, CBLOCK):
            o = start + tl.arange(0, CBLOCK)
            m = o < n1
            key = tl.load(tle.gpu.local_ptr(ckeys, (o,)), mask=m, other=0)
            idx = tl.load(tle.gpu.local_ptr(cidx, (o,)), mask=m, other=0)
            eq = key == thr
            pos, tpos = _emit2(out_row, obuf, pos, m & ((key > thr) | (eq & take_bin)), tpos, tie_base, need3,
                               m & eq & (take_bin == 0), idx, SORTED, ctr, DET)

    if SORTED:
        _sort_selected(x_row, out_row, VALS + row.to(tl.int64) * K, tl.load(tle.gpu.local_ptr(obuf)), KS)


@triton.jit
def _sort_selected(x_row, out_row, val_row, idx, K: tl.constexpr):
    """Sort K selected indices by value (descending; ties by index) and store
    the indices and values."""
    key = _key(tl.load(x_row + idx))
    packed = (key.to(tl.uint64) << 32) | (~idx.to(tl.uint32)).to(tl.uint64)
    packed = tl.sort(packed, descending=True)
    sidx = (~(packed & 0xFFFFFFFF).to(tl.uint32)).to(tl.int32)
    o = tl.arange(0, K)
    tl.store(out_row + o, sidx)
    tl.store(val_row + o, tl.load(x_row + sidx))


@triton.jit
def tle_tile_topk(X, OUT, VALS, seq, K: tl.constexpr, BLOCK: tl.constexpr, BITS: tl.constexpr):
    """Top-K of rows that fit one tile (K <= seq <= BLOCK), sorted descending
    (ties by index). The row stays in registers: a radix select of the K-th
    largest key over 32 / BITS digits, one shared-memory histogram per round
    (atomics, then one reverse scan), stopping as soon as the threshold bin is
    taken whole; the K selected go to a shared buffer at the slots one scan
    gives them and are sorted there (the same sort as tle_radix_select's)."""
    tl.static_assert(32 % BITS == 0, "BITS must divide 32")
    tl.static_assert(BLOCK < 65536, "the packed scan needs BLOCK < 2**16")
    NB: tl.constexpr = 1 << BITS
    ROUNDS: tl.constexpr = 32 // BITS
    row = tl.program_id(0)
    x_row = X + row.to(tl.int64) * seq
    offs = tl.arange(0, BLOCK)
    m = offs < seq
    # A real key is never 0 (that is a NaN's), so padding never ties the threshold.
    key = tl.where(m, _key(tl.load(x_row + offs, mask=m, other=0.0)), 0)
    hist = tle.gpu.alloc([NB], dtype=tl.int32)
    scr = tle.gpu.alloc([1], dtype=tl.int64)
    obuf = tle.gpu.alloc([K], dtype=tl.int32)
    thr = tl.full([BLOCK], 0, tl.uint32)  # the digits found so far, as a key
    need = tl.full([], K, tl.int32)
    open_ = tl.full([], 1, tl.int32)  # 0 once the threshold bin is taken whole
    for r in tl.static_range(ROUNDS):
        SHIFT = 32 - BITS * (r + 1)
        if open_ != 0:
            tl.store(tle.gpu.local_ptr(hist), tl.zeros([NB], tl.int32))
            if r == 0:
                active = m
            else:
                active = m & ((key >> (SHIFT + BITS)) == (thr >> (SHIFT + BITS)))
            digit = ((key >> SHIFT) & (NB - 1)).to(tl.int32)
            tl.atomic_add(tle.gpu.local_ptr(hist, (digit,)), 1, mask=active, sem="relaxed", scope="cta")
            h = tl.load(tle.gpu.local_ptr(hist))
            b, above = _threshold_tle(h, need, scr)
            count = tl.load(tle.gpu.local_ptr(hist, (b,)))
            thr = thr | (b.to(tl.uint32) << SHIFT)
            need = need - above
            open_ = (count != need).to(tl.int32)
    # Every key above the threshold, then keys equal to it in index order up to
    # K. When the last round ran, K - need keys are above it; when a bin was
    # taken whole, `thr` is that bin's floor and the keys equal to it may be
    # fewer than `need` (the bin's others are above it): the ties' slots start
    # after the keys above, however many there are.
    gt = key > thr
    eq = key == thr
    s, tot = tle.cumsum(gt.to(tl.int32) | (eq.to(tl.int32) << 16), axis=0)
    n_gt = tot & 0xFFFF
    slot = tl.where(gt, s & 0xFFFF, n_gt + (s >> 16))
    take = gt | (eq & (slot < K))
    tl.store(tle.gpu.local_ptr(obuf, (slot,)), offs, mask=take)
    _sort_selected(x_row, OUT + row.to(tl.int64) * K, VALS + row.to(tl.int64) * K,
                   tl.load(tle.gpu.local_ptr(obuf)), K)


@triton.jit
def _tl_hist(x_row, lo, hi, b1, pre, ROUND: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr, NB: tl.constexpr,
             BLOCK: tl.constexpr):
    """Plain Triton: histogram of digit ROUND over [lo, hi) of the row, for the
    keys matching the threshold prefix (b1 for round 2, pre for round 3). The
    next chunk's load is issued before this chunk is counted."""
    h = tl.zeros([NB], tl.int32)
    offs_n = lo + tl.arange(0, BLOCK)
    x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
    for start in range(lo, hi, BLOCK):
        x = x_n
        offs_n = start + BLOCK + tl.arange(0, BLOCK)
        x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
        offs = start + tl.arange(0, BLOCK)
        m = offs < hi
        key = _key(x)
        if ROUND == 1:
            h += tl.histogram((key >> S1).to(tl.int32), NB, mask=m)
        elif ROUND == 2:
            v = m & ((key >> S1).to(tl.int32) == b1)
            h += tl.histogram(((key >> S2) & (NB - 1)).to(tl.int32), NB, mask=v)
        else:
            v = m & ((key >> S2) == pre)
            h += tl.histogram((key & (NB - 1)).to(tl.int32), NB, mask=v)
    return h


@triton.jit
def _tl_scan2(gt, tie):
    """Exclusive prefix sums of two masks with one scan (packed in an int32)
    and their totals, packed the same way."""
    packed = gt.to(tl.int32) | (tie.to(tl.int32) << 16)
    return tl.cumsum(packed, axis=0) - packed, tl.sum(packed, axis=0)


@triton.jit
def triton_radix_select(X, OUT, VALS, seq, K, BLOCK: tl.constexpr, BITS1: tl.constexpr,
                        BITS2: tl.constexpr, SORTED: tl.constexpr, KS: tl.constexpr):
    """Plain Triton: same digits and rounds, tl.histogram per chunk, the row is
    re-read every round (4 passes). SORTED: a CTA barrier, then the K selected
    are read back from OUT and sorted."""
    BITS3: tl.constexpr = 32 - BITS1 - BITS2
    S1: tl.constexpr = 32 - BITS1
    S2: tl.constexpr = BITS3
    N1: tl.constexpr = 1 << BITS1
    N2: tl.constexpr = 1 << BITS2
    N3: tl.constexpr = 1 << BITS3
    row = tl.program_id(0)
    x_row = X + row.to(tl.int64) * seq
    out_row = OUT + row.to(tl.int64) * K

    b1, g1 = _threshold_tl(_tl_hist(x_row, 0, seq, 0, 0, 1, S1, S2, N1, BLOCK), K)
    need1 = K - g1
    b2, g2 = _threshold_tl(_tl_hist(x_row, 0, seq, b1, 0, 2, S1, S2, N2, BLOCK), need1)
    need2 = need1 - g2
    pre = (b1.to(tl.uint32) << BITS2) | b2.to(tl.uint32)
    b3, g3 = _threshold_tl(_tl_hist(x_row, 0, seq, b1, pre, 3, S1, S2, N3, BLOCK), need2)
    need3 = need2 - g3
    thr = (pre << S2) | b3.to(tl.uint32)

    pos = 0
    tpos = 0
    tie_base = K - need3
    offs_n = tl.arange(0, BLOCK)
    x_n = tl.load(x_row + offs_n, mask=offs_n < seq, other=0.0)
    for start in range(0, seq, BLOCK):
        x = x_n
        offs_n = start + BLOCK + tl.arange(0, BLOCK)
        x_n = tl.load(x_row + offs_n, mask=offs_n < seq, other=0.0)
        offs = start + tl.arange(0, BLOCK)
        m = offs < seq
        key = _key(x)
        gt = m & (key > thr)
        tie = m & (key == thr)
        e, tot = _tl_scan2(gt, tie)
        tl.store(out_row + pos + (e & 0xFFFF), offs, mask=gt)
        r = tpos + (e >> 16)
        tl.store(out_row + tie_base + r, offs, mask=tie & (r < need3))
        pos += tot & 0xFFFF
        tpos += tot >> 16
    if SORTED:
        tl.debug_barrier()
        _sort_selected(x_row, out_row, VALS + row.to(tl.int64) * K, tl.load(out_row + tl.arange(0, KS)), KS)


@triton.jit
def _tl_thresholds(g_row, K, ROUND: tl.constexpr, NB: tl.constexpr, BITS1: tl.constexpr, BITS2: tl.constexpr):
    """Threshold digits of the rounds before ROUND from the row's merged
    histograms in global memory (layout [3, NB])."""
    BITS3: tl.constexpr = 32 - BITS1 - BITS2
    b1, g1 = _threshold_tl(tl.load(g_row + tl.arange(0, 1 << BITS1)), K)
    need = K - g1
    pre = b1.to(tl.uint32)
    if ROUND >= 3:
        b2, g2 = _threshold_tl(tl.load(g_row + NB + tl.arange(0, 1 << BITS2)), need)
        need = need - g2
        pre = (pre << BITS2) | b2.to(tl.uint32)
        if ROUND >= 4:
            b3, g3 = _threshold_tl(tl.load(g_row + 2 * NB + tl.arange(0, 1 << BITS3)), need)
            need = need - g3
            pre = (pre << BITS3) | b3.to(tl.uint32)
    return b1, pre, need


@triton.jit
def triton_split_hist(X, G, seq, per, K, ROUND: tl.constexpr, NB: tl.constexpr, BLOCK: tl.constexpr,
                      BITS1: tl.constexpr, BITS2: tl.constexpr):
    """Plain Triton, a row split over programs (grid (P, rows)): each program
    counts digit ROUND of its slice and adds it to the row's histogram in G
    (global atomics); the thresholds of earlier rounds come from G, written
    by the previous launches."""
    BITS3: tl.constexpr = 32 - BITS1 - BITS2
    S1: tl.constexpr = 32 - BITS1
    S2: tl.constexpr = BITS3
    pid = tl.program_id(0)
    row = tl.program_id(1)
    lo = pid * per
    hi = tl.minimum(lo + per, seq)
    x_row = X + row.to(tl.int64) * seq
    g_row = G + row * (3 * NB)
    if ROUND == 1:
        h = _tl_hist(x_row, lo, hi, 0, 0, 1, S1, S2, 1 << BITS1, BLOCK)
        bins = tl.arange(0, 1 << BITS1)
    elif ROUND == 2:
        b1, pre, need = _tl_thresholds(g_row, K, 2, NB, BITS1, BITS2)
        h = _tl_hist(x_row, lo, hi, b1, 0, 2, S1, S2, 1 << BITS2, BLOCK)
        bins = tl.arange(0, 1 << BITS2)
    else:
        b1, pre, need = _tl_thresholds(g_row, K, 3, NB, BITS1, BITS2)
        h = _tl_hist(x_row, lo, hi, b1, pre, 3, S1, S2, 1 << BITS3, BLOCK)
        bins = tl.arange(0, 1 << BITS3)
    tl.atomic_add(g_row + (ROUND - 1) * NB + bins, h, mask=h > 0, sem="relaxed")


@triton.jit
def triton_split_final(X, OUT, G, CNT, seq, per, K, NB: tl.constexpr, BLOCK: tl.constexpr,
                       BITS1: tl.constexpr, BITS2: tl.constexpr):
    """Plain Triton, last launch of the split scheme: keys above the threshold
    key and the first ``need`` ties; output slots from per-row global atomic
    counters CNT[row, 0:2] (order within a row depends on the schedule)."""
    pid = tl.program_id(0)
    row = tl.program_id(1)
    lo = pid * per
    hi = tl.minimum(lo + per, seq)
    x_row = X + row.to(tl.int64) * seq
    out_row = OUT + row.to(tl.int64) * K
    b1, thr, need3 = _tl_thresholds(G + row * (3 * NB), K, 4, NB, BITS1, BITS2)
    tie_base = K - need3
    offs_n = lo + tl.arange(0, BLOCK)
    x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
    for start in range(lo, hi, BLOCK):
        x = x_n
        offs_n = start + BLOCK + tl.arange(0, BLOCK)
        x_n = tl.load(x_row + offs_n, mask=offs_n < hi, other=0.0)
        offs = start + tl.arange(0, BLOCK)
        m = offs < hi
        key = _key(x)
        gt = m & (key > thr)
        tie = m & (key == thr)
        e, tot = _tl_scan2(gt, tie)
        pos = tl.atomic_add(CNT + row * 2, tot & 0xFFFF, sem="relaxed")
        tpos = tl.atomic_add(CNT + row * 2 + 1, tot >> 16, sem="relaxed")
        tl.store(out_row + pos + (e & 0xFFFF), offs, mask=gt)
        r = tpos + (e >> 16)
        tl.store(out_row + tie_base + r, offs, mask=tie & (r < need3))


@triton.jit
def single_tile_topk(X, OUT, VALS, seq, K: tl.constexpr, BLOCK: tl.constexpr):
    """Top-K of rows that fit one tile (K <= seq <= BLOCK), sorted descending
    (ties by index): one tl.topk of the packed (key, ~index) values, without
    triton_stream_topk's merge into a running top-K (a second network over
    2K values that a one-tile row does not need). Plain Triton."""
    tl.static_assert(BLOCK >= K, "BLOCK must be >= K")
    row = tl.program_id(0)
    x_row = X + row.to(tl.int64) * seq
    offs = tl.arange(0, BLOCK)
    m = offs < seq
    key = _key(tl.load(x_row + offs, mask=m, other=0.0))
    packed = (key.to(tl.uint64) << 32) | (~offs.to(tl.uint32)).to(tl.uint64)
    best = tl.topk(tl.where(m, packed, 0), K)
    idx = (~(best & 0xFFFFFFFF).to(tl.uint32)).to(tl.int32)
    o = tl.arange(0, K)
    tl.store(OUT + row.to(tl.int64) * K + o, idx)
    tl.store(VALS + row.to(tl.int64) * K + o, tl.load(x_row + idx))


@triton.jit
def triton_stream_topk(X, OUT, VALS, seq, K: tl.constexpr, BLOCK: tl.constexpr):
    """Plain Triton tl.topk: top-K of each BLOCK chunk of packed (key, ~index)
    values, merged with the running top-K; sorted descending (ties by index).
    Needs BLOCK >= K and seq >= K (a packed real key is never 0)."""
    tl.static_assert(BLOCK >= K, "BLOCK must be >= K")
    row = tl.program_id(0)
    x_row = X + row.to(tl.int64) * seq
    best = tl.zeros([K], tl.uint64)
    for start in range(0, seq, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < seq
        key = _key(tl.load(x_row + offs, mask=m, other=0.0))
        packed = (key.to(tl.uint64) << 32) | (~offs.to(tl.uint32)).to(tl.uint64)
        packed = tl.where(m, packed, 0)
        if BLOCK > K:
            top = tl.topk(packed, K)
        else:
            top = packed
        best = tl.topk(tl.reshape(tl.join(best, top), [2 * K]), K)
    idx = (~(best & 0xFFFFFFFF).to(tl.uint32)).to(tl.int32)
    o = tl.arange(0, K)
    tl.store(OUT + row.to(tl.int64) * K + o, idx)
    tl.store(VALS + row.to(tl.int64) * K + o, tl.load(x_row + idx))
