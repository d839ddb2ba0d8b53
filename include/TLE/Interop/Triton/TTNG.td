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

#endif // TLE_INTEROP_TTNG_TD
