//===- TT.td - Interop definition of Triton 3.6's `tt` dialect ------------===//
//
// Written by TLE from the textual IR that pip Triton 3.6.0 prints. It mirrors
// Triton's syntax so IR can cross between Triton and TLE as text; it is not
// ours to redesign. Keep in step with Triton as described in docs/interop.md.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TT_TD
#define TLE_INTEROP_TT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypes.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::tt";
  let summary = "Interop definition of Triton 3.6's `tt` dialect";
  let useDefaultTypePrinterParser = 1;
  // `tt.num_stages` must be what Triton prints (`3 : i32`).
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Ops outside TLE's interop set fail to parse with a clear error.
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
}

class TT_Type<string name, string typeMnemonic> : TypeDef<TT_Dialect, name> {
  let mnemonic = typeMnemonic;
}

// `!tt.ptr<f32>` (global, address space 1 is not printed) or `!tt.ptr<f32, 3>`.
def TT_PtrType : TT_Type<"Pointer", "ptr"> {
  let summary = "Triton pointer type";
  let parameters = (ins "Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "Type":$pointeeType, "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

// `!tt.tensordesc<tensor<128x64xf16, #shared>>`
def TT_TensorDescType : TT_Type<"TensorDesc", "tensordesc"> {
  let summary = "TMA tensor descriptor of a block";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

def TT_Ptr : Type<CPred<"::llvm::isa<::mlir::tt::PointerType>($_self)">,
                  "Triton pointer", "::mlir::tt::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

#endif // TLE_INTEROP_TT_TD
