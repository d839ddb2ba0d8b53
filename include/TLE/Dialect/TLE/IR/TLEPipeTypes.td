//===- TLEPipeTypes.td - The `!tle.pipe` type -----------------------------===//
#ifndef TLE_DIALECT_TLEPIPETYPES_TD
#define TLE_DIALECT_TLEPIPETYPES_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "mlir/IR/OpAsmInterface.td"

def TLE_PipeType : TLE_Type<"Pipe", "pipe",
    [DeclareTypeInterfaceMethods<OpAsmTypeInterface,
                                 ["getAsmName", "getAlias"]>]> {
  let summary = "handle of a CTA-scoped producer/consumer pipe (`!tle.pipe`)";
  let description = [{
    The handle that `tle.pipe.create` returns and every other `tle.pipe.*` op
    takes. The type carries the whole pipe signature, so that ops that only see
    the handle (for instance inside a `tle.warp_specialize` partition, where it
    arrives as a block argument) can still be verified:

    * `capacity`: the number of slots in the ring (> 0);
    * `fields`: named shared-memory buffers, one `!ttg.memdesc` per field, each
      in `#ttg.shared_memory`, mutable, of rank >= 2, with dim 0 == capacity
      (dim 0 indexes the slot); names are unique identifiers. A pipe may have
      no fields (a pure signalling ring);
    * `readers`: the names of the consumers (at least one, unique identifiers);
      every reader must release a slot before the writer can reuse it;
    * `one_shot`: present when each slot is written at most once (see
      `tle.pipe.create`).

    Names print bare when they are identifiers and may also be written as
    quoted strings. The printer gives pipe types the alias `!pipe`.

    ```mlir
    !tle.pipe<capacity = 2,
              fields = [k: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>],
              readers = [mma], one_shot>
    ```
  }];
  let parameters = (ins
    "int32_t":$capacity,
    ArrayRefParameter<"::mlir::StringAttr", "field names">:$fieldNames,
    ArrayRefParameter<"::mlir::Type", "field buffer types">:$fieldTypes,
    ArrayRefParameter<"::mlir::StringAttr", "reader names">:$readers,
    "bool":$oneShot);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Index of the field called `name`, if any.
    std::optional<unsigned> getFieldIndex(::llvm::StringRef name) const;
    /// Whether `name` is one of the pipe's readers.
    bool hasReader(::llvm::StringRef name) const;
  }];
}

#endif // TLE_DIALECT_TLEPIPETYPES_TD
