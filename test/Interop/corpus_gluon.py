"""Gluon kernels of TLE's interop corpus: warp specialization with mbarriers,
and ops that only Gluon lets a kernel write.

Written with Triton 3.6's Gluon frontend, so that the corpus holds what Triton
prints for warp-specialized Hopper kernels: ttg.warp_specialize (default and
worker partitions, captures, num_warps, requestedRegisters), ttg.warp_yield,
ttg.warp_return, mbarrier ops (init/expect/arrive/wait/inval), TMA and cp.async
copies signalling mbarriers, and wgmma in a partition. The other kernels hold
memdesc views (subslice, reshape, reinterpret), mbarrier forms (arrive counts
and predicates, waits with deps), wgmma with a runtime use-accumulator flag
and, for sm_100 (GLUON_SM100), tcgen05 MMAs in Gluon's form (async tokens,
several barriers), tcgen05_commit and tensor-memory views. Entries have the
format of corpus_kernels.KERNELS.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.blackwell import (TensorMemoryLayout, allocate_tensor_memory,
                                                                 get_tmem_reg_layout, tcgen05_commit, tcgen05_mma)
from triton.experimental.gluon.language.nvidia.hopper import (async_copy, fence_async_shared, mbarrier, tma,
                                                              warpgroup_mma, warpgroup_mma_wait)


@gluon.jit
def _ring_producer(in_ptr, smem, ready, empty, n_tiles, BLOCK: gl.constexpr, STAGES: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [1], [0])
    offs = gl.arange(0, BLOCK, layout)
    for i in range(n_tiles):
        s = i % STAGES
        ph = (i // STAGES) & 1
        mbarrier.wait(empty.index(s), ph ^ 1)
        x = gl.load(in_ptr + i * BLOCK + offs)
        smem.index(s).store(x)
        fence_async_shared()
        mbarrier.arrive(ready.index(s))


@gluon.jit
def _ring_consumer(out_ptr, smem, ready, empty, n_tiles, BLOCK: gl.constexpr, STAGES: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.arange(0, BLOCK, layout)
    for i in range(n_tiles):
        s = i % STAGES
        ph = (i // STAGES) & 1
        mbarrier.wait(ready.index(s), ph)
        x = smem.index(s).load(layout)
        mbarrier.arrive(empty.index(s))
        gl.store(out_ptr + i * BLOCK + offs, x * 2)


@gluon.jit
def ws_ring_copy(in_ptr, out_ptr, n_tiles, BLOCK: gl.constexpr, STAGES: gl.constexpr):
    """Producer/consumer ring: a 1-warp worker copies global tiles into a
    STAGES-deep shared ring; the default partition (4 warps) consumes them.
    ready[s] / empty[s] mbarriers hand each slot back and forth."""
    smem = gl.allocate_shared_memory(gl.float32, [STAGES, BLOCK], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)
        mbarrier.init(empty.index(s), count=1)
    gl.warp_specialize([(_ring_consumer, (out_ptr, smem, ready, empty, n_tiles, BLOCK, STAGES)),
                        (_ring_producer, (in_ptr, smem, ready, empty, n_tiles, BLOCK, STAGES))],
                       [1], [40])
    for s in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(s))
        mbarrier.invalidate(empty.index(s))


@gluon.jit
def _tma_loader(desc, bufs, ready, empty, off_m, k_tiles, IS_B: gl.constexpr, BK: gl.constexpr,
                STAGES: gl.constexpr):
    for k in range(k_tiles):
        s = k % STAGES
        mbarrier.wait(empty.index(s), ((k // STAGES) & 1) ^ 1)
        mbarrier.expect(ready.index(s), desc.block_type.nbytes)
        if IS_B:
            tma.async_copy_global_to_shared(desc, [k * BK, 0], ready.index(s), bufs.index(s))
        else:
            tma.async_copy_global_to_shared(desc, [off_m, k * BK], ready.index(s), bufs.index(s))


@gluon.jit
def _wgmma_consumer(a_bufs, b_bufs, a_ready, b_ready, a_empty, b_empty, k_tiles, BM: gl.constexpr, BN: gl.constexpr,
                    STAGES: gl.constexpr):
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                         instr_shape=[16, BN, 16])
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    for k in range(k_tiles):
        s = k % STAGES
        ph = (k // STAGES) & 1
        mbarrier.wait(a_ready.index(s), ph)
        mbarrier.wait(b_ready.index(s), ph)
        acc = warpgroup_mma(a_bufs.index(s), b_bufs.index(s), acc, is_async=True)
        acc = warpgroup_mma_wait(0, deps=[acc])
        mbarrier.arrive(a_empty.index(s))
        mbarrier.arrive(b_empty.index(s))
    return (acc, )


@gluon.jit
def ws_tma_wgmma(a_desc, b_desc, c_ptr, k_tiles, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr,
                 STAGES: gl.constexpr):
    """Two 1-warp TMA loader partitions (A and B, barrier_expect + TMA into
    STAGES-deep rings) feed a wgmma default partition that returns the
    accumulator through ttg.warp_yield."""
    off_m = gl.program_id(0) * BM
    a_bufs = gl.allocate_shared_memory(gl.float16, [STAGES, BM, BK], a_desc.layout)
    b_bufs = gl.allocate_shared_memory(gl.float16, [STAGES, BK, BN], b_desc.layout)
    a_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    b_ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    a_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    b_empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(a_ready.index(s), count=1)
        mbarrier.init(b_ready.index(s), count=1)
        mbarrier.init(a_empty.index(s), count=1)
        mbarrier.init(b_empty.index(s), count=1)
    fence_async_shared()
    (acc, ) = gl.warp_specialize([
        (_wgmma_consumer, (a_bufs, b_bufs, a_ready, b_ready, a_empty, b_empty, k_tiles, BM, BN, STAGES)),
        (_tma_loader, (a_desc, a_bufs, a_ready, a_empty, off_m, k_tiles, False, BK, STAGES)),
        (_tma_loader, (b_desc, b_bufs, b_ready, b_empty, off_m, k_tiles, True, BK, STAGES)),
    ], [1, 1], [24, 24])
    out_layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    acc = gl.convert_layout(acc, out_layout)
    rm = off_m + gl.arange(0, BM, gl.SliceLayout(1, out_layout))
    rn = gl.arange(0, BN, gl.SliceLayout(0, out_layout))
    gl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(gl.float16))


@gluon.jit
def _cp_async_worker(in_ptr, buf, bar, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [2], [0])
    offs = gl.arange(0, BLOCK, layout)
    async_copy.async_copy_global_to_shared(buf, in_ptr + offs, mask=offs < BLOCK)
    async_copy.mbarrier_arrive(bar, increment_count=False)
    mbarrier.arrive(bar)


@gluon.jit
def _cp_async_default(buf, bar, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    mbarrier.wait(bar, 0)
    x = buf.load(layout)
    return gl.sum(x, axis=0), x


@gluon.jit
def ws_cp_async(in_ptr, out_ptr, BLOCK: gl.constexpr):
    """A 2-warp worker fills shared memory with cp.async and signals an
    mbarrier when the copies land; the default partition waits on it and
    returns two values (a scalar and a tensor)."""
    buf = gl.allocate_shared_memory(gl.float32, [BLOCK], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    total, x = gl.warp_specialize([(_cp_async_default, (buf, bar, BLOCK)),
                                   (_cp_async_worker, (in_ptr, buf, bar, BLOCK))], [2], [48])
    mbarrier.invalidate(bar)
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    gl.store(out_ptr + gl.arange(0, BLOCK, layout), x + total)


@gluon.jit
def memdesc_views(in_ptr, out_ptr, BLOCK: gl.constexpr):
    """Views of one [2 * BLOCK, BLOCK] buffer: row and column subslices, a
    3-D reshape (rank-3 NVMMA layout) and an int16 reinterpretation."""
    layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    l3: gl.constexpr = gl.BlockedLayout([1, 1, 8], [1, 4, 8], [1, 4, 1], [2, 1, 0])
    r = gl.arange(0, 2 * BLOCK, gl.SliceLayout(1, layout))
    c = gl.arange(0, BLOCK, gl.SliceLayout(0, layout))
    rb = gl.arange(0, BLOCK, gl.SliceLayout(1, layout))
    ch = gl.arange(0, BLOCK // 2, gl.SliceLayout(0, layout))
    shared: gl.constexpr = gl.NVMMASharedLayout.get_default_for([2 * BLOCK, BLOCK], gl.float16)
    smem = gl.allocate_shared_memory(gl.float16, [2 * BLOCK, BLOCK], shared,
                                     gl.load(in_ptr + r[:, None] * BLOCK + c[None, :]))
    bottom = smem.slice(BLOCK, BLOCK, dim=0).load(layout)
    left = smem.slice(0, BLOCK // 2, dim=1).load(layout)
    halves = gl.convert_layout(gl.sum(smem.reshape([2, BLOCK, BLOCK]).load(l3), axis=0), layout)
    ints = smem._reinterpret(gl.int16, [2 * BLOCK, BLOCK],
                             gl.NVMMASharedLayout.get_default_for([2 * BLOCK, BLOCK], gl.int16)).load(layout)
    gl.store(out_ptr + rb[:, None] * BLOCK + c[None, :], bottom + halves)
    gl.store(out_ptr + BLOCK * BLOCK + r[:, None] * (BLOCK // 2) + ch[None, :], left)
    gl.store(out_ptr + 2 * BLOCK * BLOCK + r[:, None] * BLOCK + c[None, :], ints.to(gl.float16))


@gluon.jit
def mbarrier_forms(in_ptr, out_ptr, flag, BLOCK: gl.constexpr):
    """Arrive with a count and a predicate; waits with deps, with and without
    a predicate."""
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.arange(0, BLOCK, layout)
    buf = gl.allocate_shared_memory(gl.float32, [BLOCK], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=2)
    buf.store(gl.load(in_ptr + offs))
    mbarrier.arrive(bar, count=2, pred=flag > 0)
    mbarrier.wait(bar, 0, deps=[buf])
    mbarrier.wait(bar, 0, pred=flag > 1, deps=[buf, buf])
    mbarrier.invalidate(bar)
    gl.store(out_ptr + offs, buf.load(layout))


@gluon.jit
def _mma_operands(a_ptr, b_ptr, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr, ld: gl.constexpr):
    """A [BM, BK] and B [BK, BN] (row-major fp16) in NVMMA shared memory."""
    rm = gl.arange(0, BM, gl.SliceLayout(1, ld))
    rk = gl.arange(0, BK, gl.SliceLayout(0, ld))
    rk2 = gl.arange(0, BK, gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, gl.SliceLayout(0, ld))
    a = gl.allocate_shared_memory(gl.float16, [BM, BK], gl.NVMMASharedLayout.get_default_for([BM, BK], gl.float16),
                                  gl.load(a_ptr + rm[:, None] * BK + rk[None, :]))
    b = gl.allocate_shared_memory(gl.float16, [BK, BN], gl.NVMMASharedLayout.get_default_for([BK, BN], gl.float16),
                                  gl.load(b_ptr + rk2[:, None] * BN + rn[None, :]))
    return a, b


@gluon.jit
def wgmma_use_acc(a_ptr, b_ptr, c_ptr, flag, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    """wgmma whose use of the accumulator is a runtime flag, then a constant
    false (ttng.warp_group_dot's optional useC operand)."""
    ld: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    acc_layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BN, 16])
    a, b = _mma_operands(a_ptr, b_ptr, BM, BN, BK, ld)
    rm = gl.arange(0, BM, gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, gl.SliceLayout(0, ld))
    fence_async_shared()
    acc = gl.zeros([BM, BN], gl.float32, acc_layout)
    acc = warpgroup_mma(a, b, acc, use_acc=flag > 0)
    acc = warpgroup_mma(a, b, acc, use_acc=False, is_async=True)
    acc = warpgroup_mma_wait(0, deps=[acc])
    gl.store(c_ptr + rm[:, None] * BN + rn[None, :], gl.convert_layout(acc, ld))


@gluon.jit
def tcgen05_forms(a_ptr, b_ptr, c_ptr, flag, BM: gl.constexpr, BN: gl.constexpr, BK: gl.constexpr):
    """tcgen05 MMAs as Gluon writes them (an async token result; no barrier,
    then two barriers with predicates), tcgen05_commit, a tensor-memory
    buffer filled from registers, a column subslice and a predicated store."""
    ld: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    a, b = _mma_operands(a_ptr, b_ptr, BM, BN, BK, ld)
    rm = gl.arange(0, BM, gl.SliceLayout(1, ld))
    rn = gl.arange(0, BN, gl.SliceLayout(0, ld))
    bars = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    mbarrier.init(bars.index(0), count=1)
    mbarrier.init(bars.index(1), count=1)
    fence_async_shared()
    tmem: gl.constexpr = TensorMemoryLayout((BM, BN), col_stride=1)
    acc = allocate_tensor_memory(gl.float32, [BM, BN], tmem)
    tcgen05_mma(a, b, acc, use_acc=False)
    tcgen05_mma(a, b, acc, mbarriers=[bars.index(0), bars.index(1)], mbarrier_preds=[True, flag > 0])
    mbarrier.wait(bars.index(0), 0)
    tcgen05_commit(bars.index(1))
    mbarrier.wait(bars.index(1), 1)
    reg: gl.constexpr = get_tmem_reg_layout(gl.float32, (BM, BN), tmem, 4)
    x = acc.load(reg)
    doubled = allocate_tensor_memory(gl.float32, [BM, BN], tmem, x * 2)
    half_reg: gl.constexpr = get_tmem_reg_layout(gl.float32, (BM, BN // 2), TensorMemoryLayout((BM, BN // 2), col_stride=1), 4)
    y = doubled.slice(BN // 2, BN // 2).load(half_reg)
    acc.store(x + 1.0, pred=flag > 1)
    z = acc.load(reg)
    mbarrier.invalidate(bars.index(0))
    mbarrier.invalidate(bars.index(1))
    gl.store(c_ptr + rm[:, None] * BN + rn[None, :], gl.convert_layout(z, ld))
    gl.store(c_ptr + BM * BN + rm[:, None] * (BN // 2) + gl.arange(0, BN // 2, gl.SliceLayout(0, ld))[None, :],
             gl.convert_layout(y, ld))


def _gluon_tma_sig(shape):
    return (f"tensordesc<fp16[{shape[0]}, {shape[1]}],"
            "NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)>")


GLUON_KERNELS = [
    ("ws_ring_copy", ws_ring_copy,
     {"in_ptr": "*fp32", "out_ptr": "*fp32", "n_tiles": "i32", "BLOCK": "constexpr", "STAGES": "constexpr"},
     {"BLOCK": 128, "STAGES": 2}, {"num_warps": 4}),
    ("ws_tma_wgmma", ws_tma_wgmma,
     {"a_desc": _gluon_tma_sig((128, 64)), "b_desc": _gluon_tma_sig((64, 128)), "c_ptr": "*fp16",
      "k_tiles": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr", "STAGES": "constexpr"},
     {"BM": 128, "BN": 128, "BK": 64, "STAGES": 3}, {"num_warps": 4}),
    ("ws_cp_async", ws_cp_async,
     {"in_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 256}, {"num_warps": 4}),
    ("memdesc_views", memdesc_views,
     {"in_ptr": "*fp16", "out_ptr": "*fp16", "BLOCK": "constexpr"}, {"BLOCK": 64}, {"num_warps": 4}),
    ("mbarrier_forms", mbarrier_forms,
     {"in_ptr": "*fp32", "out_ptr": "*fp32", "flag": "i32", "BLOCK": "constexpr"}, {"BLOCK": 128}, {"num_warps": 4}),
    ("wgmma_use_acc", wgmma_use_acc,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "flag": "i32", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64}, {"num_warps": 4}),
    ("tcgen05_forms", tcgen05_forms,
     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "flag": "i32", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"}, {"BM": 128, "BN": 128, "BK": 64}, {"num_warps": 4}),
]

# Gluon kernels captured for sm_100 (corpus_kernels.CAPABILITY).
GLUON_SM100 = ["tcgen05_forms"]
