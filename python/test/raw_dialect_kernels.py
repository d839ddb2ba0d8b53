"""TLE-Raw in FlagTree's form (docs/raw.md): ``@tle.raw.dialect`` functions
with ``Input`` / ``InOut`` parameters, called with ``tle.raw.call(fn, inouts,
inputs)``. Shared by test_raw_dialect.py (CPU, to PTX) and
test_raw_dialect_gpu.py (results against torch).

One kernel per pattern of FlagTree's five raw tutorials, written here:

- ``axpy_kernel``: elementwise over global pointers (``!llvm.ptr<1>``) with
  ``i32`` / ``f32`` scalars, a grid-stride loop over the hardware's
  ``ctaid`` / ``ntid`` / ``nctaid``;
- ``softmax_kernel``: a row staged in shared memory (``memref<?xf32, 3>``),
  tree reductions (max, then sum) in a scratch buffer, the result an
  ``InOut``;
- ``matmul_kernel``: a tiled matmul whose fp32 accumulator is an ``InOut``
  ``memref<?x?xf32, 3>`` updated from fp16 tiles in the K loop;
- ``hello_kernel``: ``tle.raw.vprintf`` from every thread, no operands;
- ``topk_kernel``: top-k of small integers through a 256-bin histogram in
  shared memory (``memref.atomic_rmw``), a threshold found by one thread,
  indices written through a global pointer.
"""

import triton.language as tl
from mlir import ir
from mlir.dialects import arith, llvm, math, memref, nvvm, scf

import tle
from tle.raw import InOut, Input

I32 = lambda: ir.IntegerType.get_signless(32)  # noqa: E731
INDEX = lambda: ir.IndexType.get()  # noqa: E731


def _thread_view():
    """(tid, ntid) as index values."""
    tid = arith.index_cast(INDEX(), nvvm.read_ptx_sreg_tid_x(I32()))
    ntid = arith.index_cast(INDEX(), nvvm.read_ptx_sreg_ntid_x(I32()))
    return tid, ntid


def _c(value, type_=None):
    return arith.constant(type_ or INDEX(), value)


# --- elementwise over global pointers ---------------------------------------


@tle.raw.dialect(name="mlir")
def axpy(out: Input["!llvm.ptr<1>"], x: Input["!llvm.ptr<1>"], y: Input["!llvm.ptr<1>"],  # noqa: F722
         n: Input["i32"], alpha: Input["f32"]):  # noqa: F821
    i32 = I32()
    f32 = ir.F32Type.get()
    ptr = ir.Type.parse("!llvm.ptr<1>")
    first = arith.addi(arith.muli(nvvm.read_ptx_sreg_ctaid_x(i32), nvvm.read_ptx_sreg_ntid_x(i32)),
                       nvvm.read_ptx_sreg_tid_x(i32))
    stride = arith.muli(nvvm.read_ptx_sreg_ntid_x(i32), nvvm.read_ptx_sreg_nctaid_x(i32))
    for i in scf.for_(arith.index_cast(INDEX(), first), arith.index_cast(INDEX(), n),
                      arith.index_cast(INDEX(), stride)):
        k = arith.index_cast(i32, i)
        xv = llvm.load(f32, llvm.getelementptr(ptr, x, [k], [-2147483648], f32, 0))
        yv = llvm.load(f32, llvm.getelementptr(ptr, y, [k], [-2147483648], f32, 0))
        llvm.store(arith.addf(arith.mulf(alpha, xv), yv), llvm.getelementptr(ptr, out, [k], [-2147483648], f32, 0))
        scf.yield_([])


@tle.jit
def axpy_kernel(X, Y, OUT, n, alpha, BLOCK: tl.constexpr):
    # Every program covers the whole range in grid-stride steps from its own
    # start, so any grid computes out = alpha * x + y.
    tle.raw.call(axpy, [], [OUT, X, Y, n, alpha])


# --- shared-memory row reduction: softmax ------------------------------------


def _tree(buf, length, combine):
    """buf[0] = combine over buf[0:length] (length a power of two), by halving
    with a block barrier after each step; every thread reads the result."""
    tid, ntid = _thread_view()
    loop = scf.WhileOp([INDEX()], [arith.divui(length, _c(2))])
    before = loop.before.blocks.append(INDEX())
    with ir.InsertionPoint(before):
        scf.condition(arith.cmpi(arith.CmpIPredicate.uge, before.arguments[0], _c(1)), [before.arguments[0]])
    after = loop.after.blocks.append(INDEX())
    with ir.InsertionPoint(after):
        half = after.arguments[0]
        for i in scf.for_(tid, half, ntid):
            memref.store(combine(memref.load(buf, [i]), memref.load(buf, [arith.addi(i, half)])), buf, [i])
            scf.yield_([])
        nvvm.barrier0()
        scf.yield_([arith.divui(half, _c(2))])
    total = memref.load(buf, [_c(0)])
    nvvm.barrier0()  # everyone has read buf[0] before buf is reused
    return total


@tle.raw.dialect(name="mlir")
def row_softmax(y: InOut["memref<?xf32, 3>"], x: Input["memref<?xf32, 3>"],  # noqa: F722
                scratch: Input["memref<?xf32, 3>"]):  # noqa: F722
    tid, ntid = _thread_view()
    length = memref.dim(x, _c(0))
    for i in scf.for_(tid, length, ntid):
        memref.store(memref.load(x, [i]), scratch, [i])
        scf.yield_([])
    nvvm.barrier0()
    peak = _tree(scratch, length, arith.maximumf)
    for i in scf.for_(tid, length, ntid):
        e = math.exp(arith.subf(memref.load(x, [i]), peak))
        memref.store(e, y, [i])
        memref.store(e, scratch, [i])
        scf.yield_([])
    nvvm.barrier0()
    total = _tree(scratch, length, arith.addf)
    for i in scf.for_(tid, length, ntid):
        memref.store(arith.divf(memref.load(y, [i]), total), y, [i])
        scf.yield_([])


@tle.jit
def softmax_kernel(X, Y, n_rows, n_cols, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        x = tl.load(X + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
        y = tle.raw.call(row_softmax, [tl.zeros_like(x)], [x, tl.zeros_like(x)])
        tl.store(Y + row * n_cols + cols, y, mask=cols < n_cols)


# --- tiled matmul accumulating into an InOut --------------------------------


@tle.raw.dialect(name="mlir")
def mma_tile(acc: InOut["memref<?x?xf32, 3>"], a: Input["memref<?x?xf16, 3>"],  # noqa: F722
             b: Input["memref<?x?xf16, 3>"]):  # noqa: F722
    tid, ntid = _thread_view()
    m = memref.dim(acc, _c(0))
    n = memref.dim(acc, _c(1))
    k = memref.dim(a, _c(1))
    f32 = ir.F32Type.get()
    for e in scf.for_(tid, arith.muli(m, n), ntid):
        row = arith.divui(e, n)
        col = arith.remui(e, n)
        for j, partial, dot in scf.for_(_c(0), k, _c(1), [memref.load(acc, [row, col])]):
            prod = arith.mulf(arith.extf(f32, memref.load(a, [row, j])), arith.extf(f32, memref.load(b, [j, col])))
            scf.yield_([arith.addf(partial, prod)])
        memref.store(dot, acc, [row, col])
        scf.yield_([])


@tle.jit
def matmul_kernel(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K),
                    other=0.0)
        b = tl.load(B + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tle.raw.call(mma_tile, [acc], [a, b])
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# --- device print ------------------------------------------------------------


@tle.raw.dialect(name="mlir")
def hello():
    i32 = I32()
    tid = nvvm.read_ptx_sreg_tid_x(i32)
    first = arith.cmpi(arith.CmpIPredicate.eq, tid, arith.constant(i32, 0))
    branch = scf.IfOp(first)
    with ir.InsertionPoint(branch.then_block):
        tle.raw.vprintf("hello from program %d of %d, %d threads, x=%f\n", nvvm.read_ptx_sreg_ctaid_x(i32),
                        nvvm.read_ptx_sreg_nctaid_x(i32), nvvm.read_ptx_sreg_ntid_x(i32),
                        arith.constant(ir.F32Type.get(), 1.5))
        scf.yield_([])


@tle.jit
def hello_kernel():
    tle.raw.call(hello, [], [])


# --- top-k over a shared-memory histogram -----------------------------------

NBINS = 256
BINS = tl.constexpr(NBINS)


@tle.raw.dialect(name="mlir")
def histogram_topk(hist: InOut["memref<256xi32, 3>"], meta: InOut["memref<?xi32, 3>"],  # noqa: F722
                   x: Input["memref<?xi32, 3>"], out: Input["!llvm.ptr<1>"], k: Input["i32"]):  # noqa: F722, F821
    """x holds values in [0, 256): hist[v] counts them; meta = [threshold,
    count above it, slots taken above, slots taken at it]; out gets k indices
    of the k largest values (ties at the threshold in any order)."""
    i32 = I32()
    ptr = ir.Type.parse("!llvm.ptr<1>")
    tid, ntid = _thread_view()
    n = memref.dim(x, _c(0))
    one = arith.constant(i32, 1)
    for i in scf.for_(tid, n, ntid):
        bin_ = arith.index_cast(INDEX(), memref.load(x, [i]))
        memref.atomic_rmw(arith.AtomicRMWKind.addi, one, hist, [bin_])
        scf.yield_([])
    nvvm.barrier0()
    # One thread walks the bins from the top until k values are covered.
    branch = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, tid, _c(0)))
    with ir.InsertionPoint(branch.then_block):
        zero = arith.constant(i32, 0)
        for j, (above, found), results in scf.for_(_c(0), _c(NBINS), _c(1), [zero, arith.constant(i32, -1)]):
            b = arith.subi(_c(NBINS - 1), j)
            count = memref.load(hist, [b])
            searching = arith.cmpi(arith.CmpIPredicate.slt, found, zero)
            reaches = arith.cmpi(arith.CmpIPredicate.sge, arith.addi(above, count), k)
            hit = arith.andi(searching, reaches)
            new_found = arith.select(hit, arith.index_cast(i32, b), found)
            new_above = arith.select(arith.andi(searching, arith.xori(reaches, arith.constant(ir.IntegerType.get_signless(1), 1))),
                                     arith.addi(above, count), above)
            scf.yield_([new_above, new_found])
        memref.store(results[1], meta, [_c(0)])
        memref.store(results[0], meta, [_c(1)])
        scf.yield_([])
    nvvm.barrier0()
    threshold = memref.load(meta, [_c(0)])
    above = memref.load(meta, [_c(1)])
    for i in scf.for_(tid, n, ntid):
        v = memref.load(x, [i])
        idx = arith.index_cast(i32, i)
        over = scf.IfOp(arith.cmpi(arith.CmpIPredicate.sgt, v, threshold), has_else=True)
        with ir.InsertionPoint(over.then_block):
            slot = memref.atomic_rmw(arith.AtomicRMWKind.addi, one, meta, [_c(2)])
            llvm.store(idx, llvm.getelementptr(ptr, out, [slot], [-2147483648], i32, 0))
            scf.yield_([])
        with ir.InsertionPoint(over.else_block):
            at = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, v, threshold))
            with ir.InsertionPoint(at.then_block):
                slot = arith.addi(above, memref.atomic_rmw(arith.AtomicRMWKind.addi, one, meta, [_c(3)]))
                room = scf.IfOp(arith.cmpi(arith.CmpIPredicate.slt, slot, k))
                with ir.InsertionPoint(room.then_block):
                    llvm.store(idx, llvm.getelementptr(ptr, out, [slot], [-2147483648], i32, 0))
                    scf.yield_([])
                scf.yield_([])
            scf.yield_([])
        scf.yield_([])


@tle.jit
def topk_kernel(X, OUT, HIST, k, N: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(X + row * N + tl.arange(0, N))
    hist = tl.zeros([BINS], dtype=tl.int32)
    meta = tl.zeros([4], dtype=tl.int32)
    hist, meta = tle.raw.call(histogram_topk, [hist, meta], [x, OUT + row * k, k])
    tl.store(HIST + row * BINS + tl.arange(0, BINS), hist)
