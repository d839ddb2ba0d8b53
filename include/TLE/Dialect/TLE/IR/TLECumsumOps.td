//===- TLECumsumOps.td - TLE-Lite exclusive cumsum ------------------------===//
#ifndef TLE_DIALECT_TLECUMSUMOPS_TD
#define TLE_DIALECT_TLECUMSUMOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

def TLE_ExclusiveCumsumOp : TLE_Op<"exclusive_cumsum", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Exclusive prefix sum along one axis, plus the total";
  let description = [{
    `exclusive[i] = sum(src[j] for j < i)` along `axis` (`j > i` when
    `reverse`), and `total` is the sum of the whole axis. For a rank-1 input
    `total` is a scalar; for rank > 1 it is a tensor with `axis` removed, whose
    encoding is `#ttg.slice<{dim = axis, parent = <src encoding>}>` when the
    input carries a distributed encoding. Both result types follow from the
    input and `axis` (`InferTypeOpInterface`); the syntax still spells them.

    ```mlir
    %excl, %total = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false}
        : tensor<128xi32> -> tensor<128xi32>, i32
    ```
  }];
  let arguments = (ins TLE_NumericTensor:$src, I32Attr:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$reverse);
  let results = (outs TLE_NumericTensor:$exclusive, AnyType:$total);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` type($exclusive) `,` type($total)
  }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLECUMSUMOPS_TD
