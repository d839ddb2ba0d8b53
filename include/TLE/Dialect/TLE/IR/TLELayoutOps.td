//===- TLELayoutOps.td - user-chosen distributed layouts ------------------===//
//
// FlagTree's `tle.gpu.set_layout` (FEP-0065, its PR #908): a tensor value
// pinned to a distributed layout the kernel author chose. The verifier lives
// in lib/Dialect/TLE/IR/Layout.cpp; the lowering is
// `triton-tle-lower-layouts` (lib/Conversion/TLEToTritonGPU/LowerLayouts.cpp);
// docs/barriers.md ("Layouts") describes it for users.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_TLELAYOUTOPS_TD
#define TLE_DIALECT_TLELAYOUTOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TLE_SetLayoutOp : TLE_Op<"set_layout", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A tensor in a distributed layout the user chose";
  let description = [{
    `tle.gpu.set_layout(value, layout)`: `src` itself (same shape, element
    type and values) in the distributed layout `layout`: a
    `#ttg.blocked`, `#ttg.nvidia_mma`, `#ttg.dot_op`, `#ttg.slice` or
    `#ttg.linear` encoding of `src`'s rank. The result's type is `src`'s
    with `layout` as its encoding. In TTIR, where tensors have no
    encoding yet, `src` and the result carry none.

    The layout is a constraint, not a hint: `triton-tle-lower-layouts`
    makes the value a `ttg.convert_layout` into `layout` and carries the
    layout forward through the elementwise computation that uses it
    (until a value that needs another layout), so that work happens in the
    chosen layout; the thread group's warps (the kernel's, or a
    `warp_specialize` partition's) must be the layout's.

    ```mlir
    %y = tle.set_layout %x {layout = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>}
        : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, AnyAttr:$layout);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{ $src attr-dict `:` type($src) `->` type($result) }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLELAYOUTOPS_TD
