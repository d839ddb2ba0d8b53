//===- IluvatarTLE.td - TLE ops of the Iluvatar backend -------------------===//
//
// The `iluvatar_tle` dialect: what `triton-tle-lower-to-iluvatar` turns TLE's
// local pointers and register tiles into for Iluvatar (CoreX) targets
// (docs/iluvatar.md). The Iluvatar backend lowers these ops to LLVM; buffers
// are plain `ttg.local_alloc` memdescs and copies are `tt.load` / `tt.store`
// through local pointers, so only three ops are needed. Verifiers live in
// lib/Dialect/IluvatarTLE/IR/IluvatarTLE.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_ILUVATARTLE_TD
#define TLE_DIALECT_ILUVATARTLE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "TLE/Interop/Triton/TT.td"
include "TLE/Interop/Triton/TTG.td"

def IluvatarTLE_Dialect : Dialect {
  let name = "iluvatar_tle";
  let cppNamespace = "::mlir::iluvatar_tle";
  let summary = "TLE ops for the Iluvatar (CoreX) backend";
  let description = [{
    Local pointers into `ttg.local_alloc` buffers and register tiles of
    `#ttg.blocked` tensors, as FlagTree's Iluvatar backend defines them. The
    ops are produced by `triton-tle-lower-to-iluvatar` from the target-neutral
    `tle` ops and consumed by the Iluvatar backend's LLVM lowering.
  }];
  let dependentDialects = ["::mlir::tt::TTDialect", "::mlir::ttg::TTGDialect"];
}

class IluvatarTLE_Op<string mnemonic, list<Trait> traits = []>
    : Op<IluvatarTLE_Dialect, mnemonic, traits>;

def IluvatarTLE_IntLike
    : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;

def IluvatarTLE_LocalPointersOp : IluvatarTLE_Op<"local_pointers", [Pure]> {
  let summary = "Pointers (address space 3) to elements of a shared-memory buffer";
  let description = [{
    `tle.local_pointers` for Iluvatar: the buffer is a `ttg.local_alloc`
    memdesc, and the backend computes each element's address from the
    buffer's shared layout. Rules are those of `tle.local_pointers`: buffer in
    `#ttg.shared_memory`; result pointers `!tt.ptr<T, 3>` with `T` the buffer
    element type; no indices = full view (a tensor of the buffer's shape, any
    encoding); otherwise one integer index per buffer dimension, all scalars
    (scalar pointer result) or all tensors of the result's shape and encoding.

    ```mlir
    %all = iluvatar_tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
        -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %one = iluvatar_tle.local_pointers %buf[%i, %j] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>,
        i32, i32 -> !tt.ptr<f32, 3>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$buffer, Variadic<IluvatarTLE_IntLike>:$indices);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = [{
    $buffer (`[` $indices^ `]`)? attr-dict `:` qualified(type($buffer))
    (`,` type($indices)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

// `[3]` (attribute `static_index`) or `[%i]` (operand `index`, any signless
// integer type, written after the source type).
defvar IluvatarTLE_TileIndexDecls = [{
    static ::mlir::ParseResult parseTileIndex(::mlir::OpAsmParser &parser,
        std::optional<::mlir::OpAsmParser::UnresolvedOperand> &index,
        ::mlir::IntegerAttr &staticIndex);
    static void printTileIndex(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::Value index,
        ::mlir::IntegerAttr staticIndex);
}];

def IluvatarTLE_ExtractTileOp : IluvatarTLE_Op<"extract_tile", [Pure]> {
  let summary = "Extract one tile of a #ttg.blocked tensor";
  let description = [{
    `tle.extract_tile` for Iluvatar. The tile shape is the result's shape
    (no `tile_shape` attribute): `src` is viewed as a row-major grid of tiles
    of that shape (each tile dimension > 0 and dividing the source dimension)
    and tile number `index` is returned. The index is static (`%src[3]`) or a
    scalar integer (`%src[%i]`); a static or constant index must lie in the
    grid. Source and result have the same element type and both carry a
    `#ttg.blocked` encoding (the only layout the Iluvatar lowering handles).

    ```mlir
    %t = iluvatar_tle.extract_tile %x[3] : tensor<64x64xf32, #blocked> -> tensor<16x32xf32, #blocked>
    %u = iluvatar_tle.extract_tile %x[%i] : tensor<64x64xf32, #blocked>, i32 -> tensor<16x32xf32, #blocked>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, Optional<AnySignlessInteger>:$index,
                       OptionalAttr<I64Attr>:$static_index);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `[` custom<TileIndex>($index, $static_index) `]`
    attr-dict `:` type($src) (`,` type($index)^)? `->` type($result)
  }];
  let extraClassDeclaration = IluvatarTLE_TileIndexDecls;
  let hasVerifier = 1;
}

def IluvatarTLE_InsertTileOp : IluvatarTLE_Op<"insert_tile",
    [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Replace one tile of a #ttg.blocked tensor";
  let description = [{
    `tle.insert_tile` for Iluvatar: `src` with tile number `index` of its
    row-major tile grid replaced by `tile`. The tile shape is inferred from
    the `tile` operand; the result type is `src`'s (inferred). Index rules as
    for `iluvatar_tle.extract_tile`; `src` and `tile` carry `#ttg.blocked`
    encodings.

    ```mlir
    %y = iluvatar_tle.insert_tile %t into %x[3] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #blocked>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, AnyRankedTensor:$tile,
                       Optional<AnySignlessInteger>:$index,
                       OptionalAttr<I64Attr>:$static_index);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $tile `into` $src `[` custom<TileIndex>($index, $static_index) `]`
    attr-dict `:` type($tile) `into` type($src) (`,` type($index)^)?
  }];
  let extraClassDeclaration = IluvatarTLE_TileIndexDecls;
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_ILUVATARTLE_TD
