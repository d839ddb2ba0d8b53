//===- TTNG.td - Interop definition of Triton 3.6's `ttng` dialect --------===//
//
// Written by TLE from the textual IR that pip Triton 3.6.0 prints (see TT.td).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTNG_TD
#define TLE_INTEROP_TTNG_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "TLE/Interop/Triton/TTG.td"

def TTNG_Dialect : Dialect {
  let name = "ttng";
  let cppNamespace = "::mlir::ttng";
  let summary = "Interop definition of Triton 3.6's `ttng` dialect";
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Reports ops outside TLE's interop set by name (see Unknown.h).
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
}

def TTNG_TensorMemorySpaceAttr : AttrDef<TTNG_Dialect, "TensorMemorySpace"> {
  let mnemonic = "tensor_memory";
  let summary = "Blackwell tensor memory (`#ttng.tensor_memory`)";
}

// Tensor-memory layouts print `key = value` pairs without braces; the CTA
// split factors (1) and `twoCTAs` (false) only when they differ from those.

// `#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1[, CTASplitM = 2][, CTASplitN = 2][, twoCTAs = true]>`
def TTNG_TensorMemoryEncodingAttr
    : AttrDef<TTNG_Dialect, "TensorMemoryEncoding"> {
  let mnemonic = "tensor_memory_encoding";
  let summary = "Layout of an accumulator or operand in tensor memory";
  let parameters = (ins "unsigned":$blockM, "unsigned":$blockN,
                        "unsigned":$colStride, "unsigned":$CTASplitM,
                        "unsigned":$CTASplitN, "bool":$twoCTAs);
  let hasCustomAssemblyFormat = 1;
}

// `#ttng.tensor_memory_scales_encoding<[CTASplitM = 2][, CTASplitN = 2]>`
def TTNG_TensorMemoryScalesEncodingAttr
    : AttrDef<TTNG_Dialect, "TensorMemoryScalesEncoding"> {
  let mnemonic = "tensor_memory_scales_encoding";
  let summary = "Layout of microscaling factors in tensor memory";
  let parameters = (ins "unsigned":$CTASplitM, "unsigned":$CTASplitN);
  let hasCustomAssemblyFormat = 1;
}

#endif // TLE_INTEROP_TTNG_TD
