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
include "mlir/IR/TensorEncoding.td"
include "TLE/Interop/Triton/TT.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::ttg";
  let summary = "Interop definition of Triton 3.6's `ttg` dialect";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `ttg.num-warps` & co. must be what Triton prints (`4 : i32`).
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Reports ops outside TLE's interop set by name (see Unknown.h).
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
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

// Every `<{key = value, ...}>` encoding prints its keys in Triton's order;
// `CGALayout` (thread-block-cluster bases) appears only when num-ctas > 1.
class TTG_DictAttr<string name, string attrMnemonic, list<Trait> traits = []>
    : TTG_Attr<name, attrMnemonic, traits> {
  let hasCustomAssemblyFormat = 1;
}

// A distributed (register) layout checks the tensors it is attached to
// (VerifiableTensorEncoding): it must have the tensor's rank, as Triton's
// verifyTensorLayouts requires. (Shared layouts do appear on tensors: the
// block type of a !tt.tensordesc.)
class TTG_LayoutAttr<string name, string attrMnemonic>
    : TTG_DictAttr<name, attrMnemonic,
                   [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]>;

// `#ttg.blocked<{sizePerThread = [..], threadsPerWarp = [..], warpsPerCTA = [..], order = [..][, CGALayout = [[..]]]}>`
def TTG_BlockedEncodingAttr : TTG_LayoutAttr<"BlockedEncoding", "blocked"> {
  let summary = "Blocked register layout";
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order,
    OptionalParameter<"::mlir::ArrayAttr">:$CGALayout);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<unsigned>":$sizePerThread,
                     "::llvm::ArrayRef<unsigned>":$threadsPerWarp,
                     "::llvm::ArrayRef<unsigned>":$warpsPerCTA,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get($_ctxt, sizePerThread, threadsPerWarp, warpsPerCTA, order,
                   ::mlir::ArrayAttr());
    }]>
  ];
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
  let genVerifyDecl = 1;
}

// `#ttg.slice<{dim = 1, parent = #blocked}>`
def TTG_SliceEncodingAttr : TTG_LayoutAttr<"SliceEncoding", "slice"> {
  let summary = "A parent layout with one dimension removed";
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
}

// `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>` (kWidth omitted when 0)
def TTG_DotOperandEncodingAttr : TTG_LayoutAttr<"DotOperandEncoding", "dot_op"> {
  let summary = "Layout of a dot operand, derived from the result's layout";
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        "unsigned":$kWidth);
  let genVerifyDecl = 1;
}

// `#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1][, CGALayout = ..], instrShape = [16, 128, 16]}>`
def TTG_NvidiaMmaEncodingAttr : TTG_LayoutAttr<"NvidiaMmaEncoding", "nvidia_mma"> {
  let summary = "NVIDIA mma (v2) / wgmma (v3) accumulator layout";
  let parameters = (ins "unsigned":$versionMajor, "unsigned":$versionMinor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        OptionalParameter<"::mlir::ArrayAttr">:$CGALayout,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let extraClassDeclaration = [{
    bool isHopper() const { return getVersionMajor() == 3; }
  }];
}

// `#ttg.linear<{register = [[..]], lane = [[..]], warp = [[..]], block = [[..]]}>`
def TTG_LinearEncodingAttr : TTG_LayoutAttr<"LinearEncoding", "linear"> {
  let summary = "Layout given by its linear-layout bases";
  let parameters = (ins "::mlir::ArrayAttr":$registerBases, "::mlir::ArrayAttr":$laneBases,
                        "::mlir::ArrayAttr":$warpBases, "::mlir::ArrayAttr":$blockBases);
}

// `#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0][, CGALayout = ..]}>`
def TTG_SwizzledSharedEncodingAttr
    : TTG_DictAttr<"SwizzledSharedEncoding", "swizzled_shared"> {
  let summary = "Swizzled shared-memory layout";
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                        "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order,
                        OptionalParameter<"::mlir::ArrayAttr">:$CGALayout);
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                     "::llvm::ArrayRef<unsigned>":$order), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, order, ::mlir::ArrayAttr());
    }]>
  ];
  let genVerifyDecl = 1;
}

// `#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16[, fp4Padded = true][, rank = 3 | , CGALayout = ..]}>`
// `rank` (2 when absent) is printed only when it is not 2 and there is no
// CGALayout, whose bases have one entry per dimension.
def TTG_NVMMASharedEncodingAttr
    : TTG_DictAttr<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "Shared-memory layout for wgmma / TMA operands";
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded,
                        "unsigned":$rank,
                        OptionalParameter<"::mlir::ArrayAttr">:$CGALayout);
  let extraClassDeclaration = [{
    /// This layout with the other major order when `transposed` differs
    /// (the layout of a ttg.memdesc_trans view of a buffer laid out so).
    NVMMASharedEncodingAttr withTransposed(bool transposed) const {
      return get(getContext(), getSwizzlingByteWidth(), transposed,
                 getElementBitWidth(), getFp4Padded(), getRank(),
                 getCGALayout());
    }
  }];
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
    }]>,
    // A view (e.g. a ttg.memdesc_subslice result) of a buffer of `allocShape`.
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
        "Type":$elementType, "Attribute":$encoding, "Attribute":$memorySpace,
        "bool":$mutableMemory, "::llvm::ArrayRef<int64_t>":$allocShape), [{
      return $_get(elementType.getContext(), shape, elementType, encoding,
                   memorySpace, mutableMemory, allocShape);
    }]>
  ];
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                          Type elementType) const {
      return MemDescType::get(shape.value_or(getShape()), elementType,
                              getEncoding(), getMemorySpace(), getMutableMemory());
    }
    /// The same buffer or view described with another layout.
    MemDescType withEncoding(Attribute encoding) const {
      return MemDescType::get(getShape(), getElementType(), encoding,
                              getMemorySpace(), getMutableMemory(),
                              getAllocShape());
    }
    /// The same buffer or view, mutable.
    MemDescType asMutable() const {
      return MemDescType::get(getShape(), getElementType(), getEncoding(),
                              getMemorySpace(), /*mutableMemory=*/true,
                              getAllocShape());
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
}

// `!ttg.async.token`
def TTG_AsyncTokenType : TypeDef<TTG_Dialect, "AsyncToken"> {
  let mnemonic = "async.token";
  let summary = "Token of an async copy group";
}

def TTG_MemDesc : Type<CPred<"::llvm::isa<::mlir::ttg::MemDescType>($_self)">,
                       "memory descriptor", "::mlir::ttg::MemDescType">;
def TTG_AsyncToken : Type<CPred<"::llvm::isa<::mlir::ttg::AsyncTokenType>($_self)">,
                          "async token", "::mlir::ttg::AsyncTokenType">,
                     BuildableType<"$_builder.getType<::mlir::ttg::AsyncTokenType>()">;

#endif // TLE_INTEROP_TTG_TD
