//===- TLEMemoryOps.td - TLE-Struct GPU buffers, pointers and tiles -------===//
//
// Buffers (`tle.alloc`, `tle.copy`, `tle.local_load`, `tle.local_store`),
// pointers into them (`tle.local_pointers`, `tle.remote_pointers`) and
// register tiles (`tle.extract_tile`, `tle.insert_tile`). Verifiers live in
// lib/Dialect/TLE/IR/Memory.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEMEMORYOPS_TD
#define TLE_DIALECT_TLEMEMORYOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEMemoryAttrs.td"

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

def TLE_LocalPointersOp : TLE_Op<"local_pointers", [Pure]> {
  let summary = "Pointers (address space 3) to elements of a shared-memory buffer";
  let description = [{
    Turns a shared-memory buffer into `!tt.ptr<T, 3>` pointers that ordinary
    `tt.load` / `tt.store` / `tt.atomic_*` can use (`tle.gpu.local_ptr`). The
    op only computes addresses; it does not touch memory.

    - No indices (full view): the result is a tensor of pointers with the
      buffer's shape, element `(i, j, ...)` pointing at `buffer[i, j, ...]`.
      The result may carry any encoding.
    - With indices: one integer index per buffer dimension. Either all indices
      are scalars and the result is one scalar pointer, or all are tensors of
      the result's shape and encoding and the result points, per element, at
      `buffer[idx0[e], idx1[e], ...]`.

    The pointee type is the buffer's element type and the buffer must live in
    `#ttg.shared_memory`.

    ```mlir
    %all = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
        -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %one = tle.local_pointers %buf[%i, %j] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>,
        i32, i32 -> !tt.ptr<f32, 3>
    %some = tle.local_pointers %buf[%rows, %cols] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>,
        tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$buffer, Variadic<TLE_IntLike>:$indices);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = [{
    $buffer (`[` $indices^ `]`)? attr-dict `:` qualified(type($buffer))
    (`,` type($indices)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLE_RemotePointersOp : TLE_Op<"remote_pointers", [Pure]> {
  let summary = "Pointers into another CTA's shared memory or another device's memory";
  let description = [{
    Maps pointers that name an element of this shard's memory onto the same
    element in shard `shard_id`'s memory (`tle.remote`). `space` is a
    `#tle.remote_space<cluster|device>` attribute, written as the bare keyword:

    - `cluster`: `src` points into this CTA's shared memory (address space 3)
      or, re-targeted, into another CTA's (address space 7: FlagTree's
      `tle.remote` of an already remote pointer); the result points at the
      same offset in the shared memory of CTA `shard_id` (its rank in the
      thread-block cluster), in address space 7 (`shared::cluster`, lowered
      with `mapa`, which maps any shared::cluster address of the cluster).
      The result has the type of `src` with the address space 7: same
      scalar/tensor shape, encoding and pointee. No `offset`.
    - `device`: `src` points into this device's global memory (address space
      1, typically a symmetric-heap allocation); the result, also in address
      space 1 and of exactly `src`'s type, points at the corresponding element
      of device `shard_id`'s copy as mapped into this device's address space
      (peer-to-peer / unified addressing). `offset` (a scalar i64, required)
      is the signed byte displacement from this device's copy to the peer's
      copy in this address space; the lowering adds it to every pointer.

    ```mlir
    %r = tle.remote_pointers cluster %p, %cta
        : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    %q = tle.remote_pointers device %g, %peer offset %delta
        : tensor<128x!tt.ptr<f32>, #blocked> -> tensor<128x!tt.ptr<f32>, #blocked>
    ```

    `shard_id` is an i32, or (cluster only, for pointers of a tensor type) a
    tensor of i32 of the pointers' shape and encoding: one target CTA per
    pointer, written after the result type:

    ```mlir
    %r = tle.remote_pointers cluster %p, %ctas
        : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked> shard tensor<128xi32, #blocked>
    ```
  }];
  let arguments = (ins TT_PtrLike:$src,
                       AnyTypeOf<[I32, TensorOf<[I32]>]>:$shard_id,
                       TLE_RemoteSpaceAttr:$space, Optional<I64>:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = [{
    custom<RemoteSpaceKeyword>($space) $src `,` $shard_id (`offset` $offset^)?
    attr-dict `:` type($src) `->` custom<ResultAndShardType>(type($result), type($shard_id))
  }];
  let extraClassDeclaration = [{
    static ::mlir::ParseResult parseRemoteSpaceKeyword(
        ::mlir::OpAsmParser &parser, ::mlir::tle::RemoteSpaceAttr &space);
    static void printRemoteSpaceKeyword(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::tle::RemoteSpaceAttr space);
    // The result type, then the shard id's type: nothing for i32,
    // `shard <tensor type>` for one shard id per pointer.
    static ::mlir::ParseResult parseResultAndShardType(
        ::mlir::OpAsmParser &parser, ::mlir::Type &result, ::mlir::Type &shard);
    static void printResultAndShardType(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::Type result, ::mlir::Type shard);
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

// The index of a tile: `[3]` (static, attribute `static_index`) or `[%i]`
// (dynamic, operand `index` of any signless integer type, whose type follows
// the source type after a comma).
defvar TLE_TileIndexDecls = [{
    static ::mlir::ParseResult parseTileIndex(::mlir::OpAsmParser &parser,
        std::optional<::mlir::OpAsmParser::UnresolvedOperand> &index,
        ::mlir::IntegerAttr &staticIndex);
    static void printTileIndex(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::Value index,
        ::mlir::IntegerAttr staticIndex);
}];

def TLE_ExtractTileOp : TLE_Op<"extract_tile", [Pure]> {
  let summary = "Extract one tile of a tensor";
  let description = [{
    Views `src` as a row-major grid of tiles of shape `tile_shape` (each tile
    dimension divides the matching source dimension) and returns tile number
    `index` of that grid. For a 64x64 source and 16x32 tiles the grid is 4x2
    and tile 3 covers rows 16..31, columns 32..63.

    The index is either static (`%src[3]`, attribute `static_index`) or a
    scalar integer value of any width (`%src[%i]`, its type written after the
    source type). A static index, or a dynamic one produced by a constant, must
    lie in `[0, number of tiles)`. The result has shape `tile_shape`, the
    source's element type, and any encoding.

    ```mlir
    %t = tle.extract_tile %x[3] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
    %u = tle.extract_tile %x[%i] tile [16, 32] : tensor<64x64xf32>, i64 -> tensor<16x32xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, Optional<AnySignlessInteger>:$index,
                       OptionalAttr<I64Attr>:$static_index,
                       DenseI64ArrayAttr:$tile_shape);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `[` custom<TileIndex>($index, $static_index) `]` `tile` $tile_shape
    attr-dict `:` type($src) (`,` type($index)^)? `->` type($result)
  }];
  let extraClassDeclaration = TLE_TileIndexDecls;
  let hasVerifier = 1;
}

def TLE_InsertTileOp : TLE_Op<"insert_tile",
    [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Replace one tile of a tensor";
  let description = [{
    Returns `src` with tile number `index` of its row-major tile grid (tiles of
    `tile`'s shape, which divides `src`'s shape) replaced by `tile`. The result
    has exactly `src`'s type, encoding included. The index rules are those of
    `tle.extract_tile`.

    ```mlir
    %y = tle.insert_tile %t into %x[3] : tensor<16x32xf32> into tensor<64x64xf32>
    %z = tle.insert_tile %t into %x[%i] : tensor<16x32xf32> into tensor<64x64xf32>, i32
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
  let extraClassDeclaration = TLE_TileIndexDecls;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def TLE_AllocOp : TLE_Op<"alloc",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Allocate a shared- or tensor-memory buffer";
  let description = [{
    Allocates a mutable buffer (`tle.gpu.alloc`) in the memory named by
    `scope`, a `#tle.memory_space<smem|tmem>` written as the bare keyword:
    `smem` needs a memdesc in `#ttg.shared_memory`, `tmem` one in
    `#ttng.tensor_memory` of rank 2. Tensor memory exists on sm_100 and newer:
    when the enclosing `builtin.module` carries a `ttg.target` string other
    than `cuda:N` with N >= 100, `tmem` is rejected; without `ttg.target` the
    IR is target-neutral and `tmem` is accepted.

    An optional `init` tensor of the buffer's shape and element type is stored
    into the new buffer.

    ```mlir
    %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %b = tle.alloc smem %x : (tensor<64x32xf32, #blocked>)
        -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %c = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    ```
  }];
  let arguments = (ins TLE_MemorySpaceAttr:$scope,
                       Optional<AnyRankedTensor>:$init);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    custom<MemorySpaceKeyword>($scope) ($init^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    static ::mlir::ParseResult parseMemorySpaceKeyword(
        ::mlir::OpAsmParser &parser, ::mlir::tle::MemorySpaceAttr &scope);
    static void printMemorySpaceKeyword(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::tle::MemorySpaceAttr scope);

    /// A *pointer buffer* (docs/local-memory.md): some `tle.local_pointers`
    /// takes this buffer or a `tle.buffer_slot` of it (slots of slots
    /// included), so it lives in TLE's own shared-memory region and
    /// every access to it goes through pointers. Other buffers are *memdesc
    /// buffers*, allocated and synchronized by Triton.
    bool isPointerBuffer();
  }];
  let hasVerifier = 1;
}

def TLE_BufferSlotOp : TLE_Op<"buffer_slot", [Pure]> {
  let summary = "View one slot of a multi-stage shared-memory buffer";
  let description = [{
    `buffer.slot(index)` (FlagTree's `tle.gpu.buffered_tensor.slot`): the
    buffer `src` of shape `S x d1 x ... x dn` seen as `S` slots of shape
    `d1 x ... x dn`, and the view of slot `index` (an i32, constant or
    not). The result has `src`'s shape without its first dimension, its
    element type, memory space and mutability (and, as `ttg.memdesc_index`
    in Triton 3.6, no allocation shape of its own). A constant `index` must be in `[0, S)`; a runtime index is not
    checked. The view is a buffer like any other: a `tle.gpu.wgmma`
    operand, the destination of a TMA or cp.async copy on a barrier, the
    source of a `tle.local_load`, the destination of a `tle.local_store`.
    Lowered (`triton-tle-lower-local-memory`) to `ttg.memdesc_index`; or,
    when local pointers are taken through it (`tle.local_pointers %slot[...]`
    with indices), those become pointers into the whole buffer with the slot
    index prepended, and the buffer is a pointer buffer (then no other slot
    view of it may be used as a memdesc).

    ```mlir
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf16, #shared, #smem, mutable>, i32
        -> !ttg.memdesc<64x32xf16, #shared1, #smem, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `,` type($index) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLE_CopyOp : TLE_Op<"copy"> {
  let summary = "Copy between global memory and a shared-memory buffer";
  let description = [{
    Copies a block of `shape` elements (`tle.gpu.copy`) in either direction:
    one side is a tensor of global pointers (`!tt.ptr<T>`, address space 1),
    the other a `!ttg.memdesc` in `#ttg.shared_memory`. `shape` must equal the
    shape of both sides, the pointee type must equal the buffer's element type,
    and a destination buffer must be mutable. Buffer-to-buffer and
    pointer-to-pointer copies are rejected. `src` is read and `dst` written.

    ```mlir
    tle.copy %ptrs, %buf shape [64, 32]
        : tensor<64x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tle.copy %buf, %ptrs shape [64, 32]
        : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    ```
  }];
  let arguments = (ins
    Arg<AnyTypeOf<[TT_PtrTensor, TTG_MemDesc]>, "source", [MemRead]>:$src,
    Arg<AnyTypeOf<[TT_PtrTensor, TTG_MemDesc]>, "destination", [MemWrite]>:$dst,
    DenseI64ArrayAttr:$shape);
  let assemblyFormat = [{
    $src `,` $dst `shape` $shape attr-dict `:` type($src) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def TLE_LocalLoadOp : TLE_Op<"local_load"> {
  let summary = "Load a whole buffer into a tensor";
  let description = [{
    Reads every element of `buffer` into a tensor of the same shape and
    element type; the result may carry any encoding (`tle.gpu.local_load`
    in Python; `triton-tle-optimize-local-pointer-loads` also makes it from a
    plain load through full-view local pointers). The buffer lives in
    `#ttg.shared_memory` or `#ttng.tensor_memory`. Lowered by
    `triton-tle-lower-local-memory`: `ttg.local_load` for a memdesc buffer,
    a load through full-view pointers in the result's encoding for a
    pointer buffer.

    ```mlir
    %v = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
        -> tensor<64x32xf32, #blocked>
    ```
  }];
  let arguments = (ins Arg<TTG_MemDesc, "buffer", [MemRead]>:$buffer);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $buffer attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLE_LocalStoreOp : TLE_Op<"local_store"> {
  let summary = "Store a tensor into a whole buffer";
  let description = [{
    Writes every element of `value` into the mutable `buffer` of the same
    shape and element type (`tle.gpu.local_store` in Python;
    `triton-tle-optimize-local-pointer-stores` also makes it from a plain
    store through full-view local pointers). The buffer lives in
    `#ttg.shared_memory` or `#ttng.tensor_memory`. Lowered by
    `triton-tle-lower-local-memory`: `ttg.local_store` for a memdesc buffer,
    a store through full-view pointers in the value's encoding for a pointer
    buffer.

    ```mlir
    tle.local_store %v, %buf : tensor<64x32xf32, #blocked>
        -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       Arg<TTG_MemDesc, "buffer", [MemWrite]>:$buffer);
  let assemblyFormat = [{
    $value `,` $buffer attr-dict `:` type($value) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Atomics on shared memory
//===----------------------------------------------------------------------===//

// Keyword forms of the atomic enums: `fadd`, `acq_rel`, `cluster`.
defvar TLE_AtomicKeywordDecls = [{
    static ::mlir::ParseResult parseRMWKind(::mlir::OpAsmParser &parser,
        ::mlir::tle::AtomicRMWKindAttr &attr);
    static void printRMWKind(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::tle::AtomicRMWKindAttr attr);
    static ::mlir::ParseResult parseSemantic(::mlir::OpAsmParser &parser,
        ::mlir::tle::MemSemanticAttr &attr);
    static void printSemantic(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::tle::MemSemanticAttr attr);
    static ::mlir::ParseResult parseSyncScope(::mlir::OpAsmParser &parser,
        ::mlir::tle::MemSyncScopeAttr &attr);
    static void printSyncScope(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::tle::MemSyncScopeAttr attr);
}];

def TLE_AtomicRMWOp : TLE_Op<"atomic_rmw"> {
  let summary = "Atomic read-modify-write on shared memory (this CTA's or a cluster peer's)";
  let description = [{
    `tl.atomic_*` on pointers into shared memory: `ptr` is a `!tt.ptr<T, 3>`
    (this CTA, from `tle.local_pointers`) or `!tt.ptr<T, 7>` (a CTA of the
    cluster, from `tle.remote_pointers cluster`), or a tensor of them. Global
    pointers (address space 1) use Triton's own `tt.atomic_rmw`.

    Every element (where `mask` is true) atomically becomes `op(old, val)`
    and the result is `old`; masked-off elements yield 0. The syntax mirrors
    `tt.atomic_rmw`: kind, semantic, scope, then the operands.

    - kind: `add`, `fadd`, `max`, `min`, `umax`, `umin`, `and`, `or`, `xor`,
      `exch` (the keywords Triton prints for `tt.atomic_rmw`; generic
      attribute `kind = #tle.atomic_kind<...>`, C++ `AtomicRMWKind::xchg` for
      `exch`).
    - sem: `relaxed`, `acquire`, `release`, `acq_rel`
      (`sem = #tle.mem_semantic<...>`).
    - scope: `cta`, `cluster`, `gpu`, `sys` (`scope = #tle.mem_scope<...>`).

    ```mlir
    %old = tle.atomic_rmw fadd, relaxed, cta, %p, %v, %m
        : (tensor<128x!tt.ptr<f32, 3>, #blocked>, tensor<128xf32, #blocked>,
           tensor<128xi1, #blocked>) -> tensor<128xf32, #blocked>
    %o = tle.atomic_rmw add, acq_rel, cluster, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
    ```

    In a marker (docs/markers.md) the attributes are written generically:
    `tle.atomic_rmw {kind = #tle.atomic_kind<fadd>, sem = #tle.mem_semantic<relaxed>,
    scope = #tle.mem_scope<cta>}`.

    Rules: pointers in address space 3 or 7; `val` and the result have the
    pointee type and `ptr`'s shape and encoding; `mask` is i1 of that shape;
    element types: `add`, `max`, `min`, `umax`, `umin`, `and`, `or`, `xor`
    on i32 or i64 (integers only), `fadd` on f16, bf16, f32 or f64 (floats
    only), `exch` on i32, i64, f32 or f64.
  }];
  let arguments = (ins
    TLE_AtomicRMWKindAttr:$kind,
    Arg<TT_PtrLike, "pointers", [MemRead, MemWrite]>:$ptr,
    AnyType:$val, Optional<AnyType>:$mask,
    TLE_MemSemanticAttr:$sem, TLE_MemSyncScopeAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    custom<RMWKind>($kind) `,` custom<Semantic>($sem) `,`
    custom<SyncScope>($scope) `,` $ptr `,` $val (`,` $mask^)? attr-dict
    `:` functional-type(operands, $result)
  }];
  let extraClassDeclaration = TLE_AtomicKeywordDecls;
  let hasVerifier = 1;
}

def TLE_AtomicCASOp : TLE_Op<"atomic_cas"> {
  let summary = "Atomic compare-and-swap on shared memory (this CTA's or a cluster peer's)";
  let description = [{
    `tl.atomic_cas` on pointers into shared memory (address space 3 or 7,
    scalar or tensor; see `tle.atomic_rmw`). Every element atomically becomes
    `val` if it equals `cmp`; the result is the old value. Syntax mirrors
    `tt.atomic_cas`: semantic, scope, then the operands.

    ```mlir
    %old = tle.atomic_cas acq_rel, cta, %p, %cmp, %v
        : (tensor<128x!tt.ptr<i32, 3>, #blocked>, tensor<128xi32, #blocked>,
           tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    ```

    Rules: pointers in address space 3 or 7; `cmp`, `val` and the result have
    the pointee type and `ptr`'s shape and encoding; element type i16, i32,
    i64, f16, bf16, f32 or f64 (compared bitwise).
  }];
  let arguments = (ins
    Arg<TT_PtrLike, "pointers", [MemRead, MemWrite]>:$ptr,
    AnyType:$cmp, AnyType:$val,
    TLE_MemSemanticAttr:$sem, TLE_MemSyncScopeAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    custom<Semantic>($sem) `,` custom<SyncScope>($scope) `,` $ptr `,` $cmp
    `,` $val attr-dict `:` functional-type(operands, $result)
  }];
  let extraClassDeclaration = TLE_AtomicKeywordDecls;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous loads
//===----------------------------------------------------------------------===//

def TLE_AsyncLoadOp : TLE_Op<"async_load", [AttrSizedOperandSegments]> {
  let summary = "Load from global memory through an asynchronous copy";
  let description = [{
    `tle.load(ptr, mask=..., other=..., is_async=True)`: the value of
    `tt.load %ptr, %mask, %other`, fetched with an asynchronous global ->
    shared copy (`cp.async`) that the compiler overlaps with the work before
    the value's first use. Semantics are exactly the load's: element `e` is
    `*ptr[e]` where `mask[e]` (or everywhere without a mask), `other[e]`
    elsewhere (undefined without `other`).

    Rules: `ptr` is a ranked tensor of `!tt.ptr<T>` in global memory (address
    space 1); `mask`, when present, is a tensor of `i1` and `other` a tensor
    of `T`, both of `ptr`'s shape and encoding; `other` needs a `mask`; the
    result is a tensor of `T` of `ptr`'s shape and encoding.

    Lowering: `triton-tle-lower-async-loads` (TTIR, before Triton's software
    pipeliner) and `triton-tle-async-copy-loads` (TTGIR, after it).

    ```mlir
    %x = tle.async_load %p, %m, %o : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>,
        tensor<128xf32>) -> tensor<128xf32>
    ```
  }];
  let arguments = (ins Arg<AnyRankedTensor, "global pointers", [MemRead]>:$ptr,
                       Optional<AnyRankedTensor>:$mask,
                       Optional<AnyRankedTensor>:$other);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLEMEMORYOPS_TD
