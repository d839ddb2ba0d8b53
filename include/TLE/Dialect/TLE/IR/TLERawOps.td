//===- TLERawOps.td - TLE-Raw: code in another language, inlined ----------===//
//
// `tle.dsl_region` (FlagTree's name): the body of a `@tle.raw.language`
// function, called by `tle.call`. docs/raw.md. Verifier in
// lib/Dialect/TLE/IR/Raw.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_TLERAWOPS_TD
#define TLE_DIALECT_TLERAWOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "mlir/IR/RegionKindInterface.td"

def TLE_DSLRegionOp : TLE_Op<"dsl_region",
    [IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "Per-thread code of a TLE-Raw function, run by every thread";
  let description = [{
    The body of a TLE-Raw function (docs/raw.md), in one of two forms that
    share this op and its lowering (`triton-tle-lower-dsl-region`). Every
    thread of the program runs the body once. `threads` is the thread-block
    shape the body sees; its product must be the kernel's thread count
    (checked when the op is lowered).

    **`@tle.raw.language` + `tle.call` (the wiki form; `hardware_ids`
    absent).** Thread `tid` of a thread block of shape `threads`
    (`hardware={"threads": ...}`). Operands are the call's arguments: ranked
    tensors (of one shape in the frontend's markers, any shapes here) and
    integer or float scalars. The region has one block whose arguments
    correspond to the operands: a tensor operand's argument is the same
    tensor type *without encoding*, a scalar's the same type. A tensor
    argument stands for a buffer that holds the operand (staged in shared
    memory when lowered): `tensor.extract` reads it and `tensor.insert` into
    it, or into a `tensor.insert` result rooted at it, writes it in place
    (the insert's result needs no use). Result `i` is the `i`-th tensor
    operand's buffer after the body, of that operand's type.

    Body ops: `arith`, `math`, `index`; `scf.for`, `scf.if`, `scf.while`,
    `scf.condition`, `scf.yield`; `tensor.extract`, `tensor.insert`,
    `tensor.dim`; `nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}`,
    `nvvm.read.ptx.sreg.laneid`, `nvvm.read.ptx.sreg.warpsize`,
    `nvvm.barrier0`, `nvvm.shfl.sync`. Only the three tensor ops may take or
    produce tensors. Thread ids are the call's: `tid` is the thread's index
    in `threads` (x fastest), `ntid` is `threads`, `ctaid` is 0 and `nctaid`
    1 (the body is one thread block over its operands).

    `orders`, when present, gives per operand the order in which the
    dimensions of its buffer are laid out (fastest first, Triton's `order`);
    an empty array for a scalar. Absent: row-major for every tensor.

    **`@tle.raw.dialect` + `tle.raw.call(fn, inouts, inputs)` (FlagTree's
    form; `hardware_ids` set).** The thread-id registers are the hardware's
    (`ctaid` is the program id, `ntid` the program's thread count). Operands
    are shared-memory buffers (`!ttg.memdesc`, row-major and unswizzled:
    the frontend stages each `memref` argument in one), pointers
    (`!tt.ptr<T, AS>`, scalar) and integer or float scalars; no tensors, no
    results (the frontend reads the `InOut` buffers back after the op).
    Block arguments: a buffer's is a `memref` of the buffer's rank and
    element type in address space 3 with the identity layout, each size
    either the buffer's or dynamic (`memref<?x?xf16, 3>`); a pointer's is
    `!llvm.ptr<AS>`; a scalar's the same type. Body ops: every op of
    `arith`, `math`, `index`, `scf`, `memref`, `llvm`, `nvvm`, and
    `gpu.printf` (`tle.raw.mlir.vprintf`), none of which may take or yield
    a tensor or name a symbol.

    ```mlir
    %r:3 = tle.dsl_region (%x, %y, %o) {language = "mlir", name = "vector_add_tile",
        threads = array<i64: 128>, sync_scope = "block"}
        : (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>)
        -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) {
    ^bb0(%a: tensor<128xf32>, %b: tensor<128xf32>, %c: tensor<128xf32>):
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %i = arith.index_cast %t : i32 to index
      %u = tensor.extract %a[%i] : tensor<128xf32>
      %v = tensor.extract %b[%i] : tensor<128xf32>
      %s = arith.addf %u, %v : f32
      %w = tensor.insert %s into %c[%i] : tensor<128xf32>
    }

    tle.dsl_region (%buf, %p, %n) {language = "mlir", name = "edsl",
        threads = array<i64: 128>, sync_scope = "block", hardware_ids}
        : (!ttg.memdesc<64xf32, #shared, #smem, mutable>, !tt.ptr<f32>, i32) -> () {
    ^bb0(%m: memref<?xf32, 3>, %q: !llvm.ptr<1>, %k: i32):
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0] : memref<?xf32, 3>
      %g = llvm.getelementptr %q[%k] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %v, %g : f32, !llvm.ptr<1>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$args, StrAttr:$language,
                       StrAttr:$name, DenseI64ArrayAttr:$threads,
                       StrAttr:$sync_scope, OptionalAttr<ArrayAttr>:$orders,
                       UnitAttr:$hardware_ids);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $args `)` attr-dict `:` functional-type($args, $results) $body
  }];
  let extraClassDeclaration = [{
    /// The tensor operands, in order (result `i` belongs to the `i`-th).
    ::llvm::SmallVector<unsigned> tensorOperandIndices();
    /// For each region argument: whether the body may write it (some
    /// `tensor.insert` chain is rooted at it).
    ::llvm::SmallVector<bool> writtenArguments();
    /// The buffer order of operand `index` (row-major when `orders` is absent).
    ::llvm::SmallVector<unsigned> orderOf(unsigned index);
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

#endif // TLE_DIALECT_TLERAWOPS_TD
