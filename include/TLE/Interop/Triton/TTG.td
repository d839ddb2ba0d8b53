//===- TTG.td - Interop definition of Triton 3.6's `ttg` dialect ----------===//
//
// Written by TLE from the textual IR that pip Triton 3.6.0 prints (see TT.td).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTG_TD
#define TLE_INTEROP_TTG_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::ttg";
  let summary = "Interop definition of Triton 3.6's `ttg` dialect";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TTG_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Memory spaces
//===----------------------------------------------------------------------===//

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "CTA shared memory (`#ttg.shared_memory`)";
}

//===----------------------------------------------------------------------===//
// Distributed (register) encodings
//===----------------------------------------------------------------------===//

// `#ttg.blocked<{sizePerThread = [..], threadsPerWarp = [..], warpsPerCTA = [..], order = [..]}>`
def TTG_BlockedEncodingAttr : TTG_Attr<"BlockedEncoding", "blocked"> {
  let summary = "Blocked register layout";
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// `#ttg.slice<{dim = 1, parent = #blocked}>`
def TTG_SliceEncodingAttr : TTG_Attr<"SliceEncoding", "slice"> {
  let summary = "A parent layout with one dimension removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//

// `#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>`
def TTG_SwizzledSharedEncodingAttr
    : TTG_Attr<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "Swizzled shared-memory layout";
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// `!ttg.memdesc<2x64xf32, #shared, #smem, mutable[, 4x64]>`
def TTG_MemDescType : TypeDef<TTG_Dialect, "MemDesc", [ShapedTypeInterface]> {
  let mnemonic = "memdesc";
  let summary = "Descriptor of a buffer in shared or tensor memory";
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$shape,
    "Type":$elementType,
    "Attribute":$encoding,
    "Attribute":$memorySpace,
    "bool":$mutableMemory,
    ArrayRefParameter<"int64_t">:$allocShape);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "Type":$elementType, "Attribute":$encoding, "Attribute":$memorySpace,
        CArg<"bool", "false">:$mutableMemory), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, shape);
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          Type elementType) const {
      return MemDescType::get(shape.value_or(getShape()), elementType,
                              getEncoding(), getMemorySpace(), getMutableMemory());
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

def TTG_MemDesc : Type<CPred<"::llvm::isa<::mlir::ttg::MemDescType>($_self)">,
                       "memory descriptor", "::mlir::ttg::MemDescType">;

#endif // TLE_INTEROP_TTG_TD
