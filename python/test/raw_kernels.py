"""TLE-Raw kernels (docs/raw.md) shared by test_raw.py (CPU) and test_raw_gpu.py.

``vector_add_tile`` / ``add_kernel`` are the FlagTree wiki's TLE-Raw example,
as written there (BLOCK_SIZE = 1024, so num_warps = 32).
"""

from typing import Annotated

import triton.language as tl
from mlir import ir
from mlir.dialects import arith, nvvm, scf, tensor

import tle


@tle.raw.language(name="mlir")
@tle.hardware_constraint(threads_dim=1, sync_scope="block")
def vector_add_tile(
    x: Annotated[ir.RankedTensorType, "tensor<1024xf32>"],
    y: Annotated[ir.RankedTensorType, "tensor<1024xf32>"],
    output: Annotated[ir.RankedTensorType, "tensor<1024xf32>"]
):
    tidx = nvvm.ThreadIdXOp(ir.IntegerType.get_signless(32)).res
    bidx = nvvm.BlockIdXOp(ir.IntegerType.get_signless(32)).res
    bdimx = nvvm.BlockDimXOp(ir.IntegerType.get_signless(32)).res
    idx = arith.addi(arith.muli(bidx, bdimx), tidx)
    idx = arith.index_cast(ir.IndexType.get(), idx)
    xval = tensor.extract(x, [idx])
    yval = tensor.extract(y, [idx])
    result = arith.addf(xval, yval)
    tensor.insert(result, output, [idx])


@tle.jit
def add_kernel(
    x_ptr, y_ptr, output_ptr,
    n_elements,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = tl.zeros_like(x)
    tle.call(
        vector_add_tile,
        args=[x, y, output],
        hardware={
            "threads": (BLOCK_SIZE,),  # must match threads_dim=1
        },
        layout={
            x: {"space": "shared", "order": [0]},
            y: {"space": "shared", "order": [0]},
            output: {"space": "shared", "order": [0]}
        }
    )
    tl.store(output_ptr + offsets, output, mask=mask)


# A 2-D thread block (x = column, y = row), a scalar argument, a loop and
# reads of other threads' elements: out[r, c] = alpha * sum(x[r, :c + 1]),
# out stored column-major in shared memory.
ROWS, COLS = 16, 8


def _index(value):
    return arith.index_cast(ir.IndexType.get(), value)


@tle.raw.language(name="mlir")
@tle.hardware_constraint(threads_dim=2)
def scaled_row_cumsum(
    x: Annotated[ir.RankedTensorType, "tensor<16x8xf32>"],
    alpha: Annotated[ir.F32Type, "f32"],
    out: Annotated[ir.RankedTensorType, "tensor<16x8xf32>"],
):
    i32 = ir.IntegerType.get_signless(32)
    col = _index(nvvm.ThreadIdXOp(i32).res)
    row = _index(nvvm.ThreadIdYOp(i32).res)
    index = ir.IndexType.get()
    zero = arith.constant(index, 0)
    one = arith.constant(index, 1)
    stop = arith.addi(col, one)
    acc0 = arith.constant(ir.F32Type.get(), 0.0)
    loop = scf.ForOp(zero, stop, one, [acc0])
    with ir.InsertionPoint(loop.body):
        v = tensor.extract(x, [row, loop.induction_variable])
        scf.YieldOp([arith.addf(loop.inner_iter_args[0], v)])
    tensor.insert(arith.mulf(loop.results[0], alpha), out, [row, col])


@tle.jit
def row_cumsum_kernel(X, Y, alpha, R: tl.constexpr, C: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * R * C + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(X + offs)
    out = tl.zeros([R, C], dtype=tl.float32)
    tle.call(scaled_row_cumsum, [x, alpha, out], hardware={"threads": (C, R)},
             layout={out: {"space": "shared", "order": [0, 1]}})
    tl.store(Y + offs, out)


# tle.call returns the written arguments; arguments may be expressions.
@tle.raw.language(name="mlir")
def reverse_128(
    src: Annotated[ir.RankedTensorType, "tensor<128xi32>"],
    dst: Annotated[ir.RankedTensorType, "tensor<128xi32>"],
):
    i32 = ir.IntegerType.get_signless(32)
    t = nvvm.ThreadIdXOp(i32).res
    last = arith.constant(i32, 127)
    v = tensor.extract(src, [_index(t)])
    tensor.insert(v, dst, [_index(arith.subi(last, t))])


@tle.jit
def reverse_kernel(X, Y):
    offs = tl.arange(0, 128)
    x = tl.load(X + offs)
    y = tle.call(reverse_128, args=[x + 1, tl.zeros([128], dtype=tl.int32)])
    tl.store(Y + offs, y)
