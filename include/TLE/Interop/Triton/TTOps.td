//===- TTOps.td - Interop ops of Triton 3.6's `tt` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
// Written from Triton's printed IR (the corpus under test/Interop and IR that
// pip Triton 3.6.0 prints back after parsing); not derived from Triton's
// sources. Enum values are the ones Triton's Python bindings expose.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTOPS_TD
#define TLE_INTEROP_TTOPS_TD

include "TLE/Interop/Triton/TT.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums. Triton stores them as i32 attributes: `padding = 1 : i32` in an
// attribute dictionary, the case's keyword (`ca`, `acq_rel`) in custom syntax.
//===----------------------------------------------------------------------===//

class TT_I32Enum<string name, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, "", cases> {
  let cppNamespace = "::mlir::tt";
}

def TT_CacheModifierAttr : TT_I32Enum<"CacheModifier", [
  I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
  I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
  I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
  I32EnumAttrCase<"CV", 7, "cv">]>;

def TT_EvictionPolicyAttr : TT_I32Enum<"EvictionPolicy", [
  I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
  I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
  I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]>;

def TT_PaddingOptionAttr : TT_I32Enum<"PaddingOption", [
  I32EnumAttrCase<"PAD_ZERO", 1, "zero">, I32EnumAttrCase<"PAD_NAN", 2, "nan">]>;

def TT_AtomicRMWOpAttr : TT_I32Enum<"RMWOp", [
  I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
  I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
  I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
  I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
  I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">]>;

def TT_MemSemanticAttr : TT_I32Enum<"MemSemantic", [
  I32EnumAttrCase<"RELAXED", 1, "relaxed">,
  I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
  I32EnumAttrCase<"RELEASE", 3, "release">,
  I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]>;

def TT_MemSyncScopeAttr : TT_I32Enum<"MemSyncScope", [
  I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
  I32EnumAttrCase<"SYSTEM", 3, "sys">]>;

def TT_ProgramDimAttr : TT_I32Enum<"ProgramIDDim", [
  I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
  I32EnumAttrCase<"Z", 2, "z">]>;

def TT_RoundingModeAttr : TT_I32Enum<"RoundingMode", [
  I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">]>;

def TT_PropagateNanAttr : TT_I32Enum<"PropagateNan", [
  I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 0xFFFF, "all">]>;

def TT_InputPrecisionAttr : TT_I32Enum<"InputPrecision", [
  I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
  I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
  I32EnumAttrCase<"BF16x6", 4, "bf16x6">]>;

def TT_DescriptorReduceKindAttr : TT_I32Enum<"DescriptorReduceKind", [
  I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
  I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
  I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
  I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">]>;

// The element formats of tt.dot_scaled operands (`lhs = e2m1 rhs = bf16`).
def TT_ScaleDotElemTypeAttr : TT_I32Enum<"ScaleDotElemType", [
  I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
  I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
  I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
  I32EnumAttrCase<"FP16", 6, "fp16">]>;

//===----------------------------------------------------------------------===//
// Type constraints and traits
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[AnyFloat]>;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;
def TT_Int : AnyTypeOf<[AnySignlessInteger]>;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;
def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;
def TT_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def TT_Tensor : RankedTensorOf<[AnyType]>;
// A pointer to a block (`!tt.ptr<tensor<..>>`), made by tt.make_tensor_ptr.
def TT_TensorPtr : Type<And<[TT_Ptr.predicate, CPred<
    "::llvm::isa<::mlir::RankedTensorType>("
    "::llvm::cast<::mlir::tt::PointerType>($_self).getPointeeType())">]>,
    "pointer to a tensor", "::mlir::tt::PointerType">;
def TT_TensorDesc : Type<CPred<"::llvm::isa<::mlir::tt::TensorDescType>($_self)">,
    "tensor descriptor", "::mlir::tt::TensorDescType">;
// Anything a tt.load / tt.store addresses: pointers, tensors of pointers and
// block pointers.
def TT_AnyPtr : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;
// Scalars and tensors of scalars or pointers.
def TT_Type : AnyTypeOf<[TT_Float, TT_Int, Index, TT_Ptr, TT_Tensor]>;

// Every ranked-tensor operand and result carries the same encoding.
def TT_SameOperandsAndResultEncoding
    : NativeOpTrait<"SameOperandsAndResultEncoding"> {
  let cppNamespace = "::mlir::tt::OpTrait";
}
// Every ranked-tensor operand carries the same encoding.
def TT_SameOperandsEncoding : NativeOpTrait<"SameOperandsEncoding"> {
  let cppNamespace = "::mlir::tt::OpTrait";
}

def TT_GlobalMemory : Resource<"::mlir::tt::GlobalMemory">;

// The type a pointer-like type points to, with the pointer's shape.
class TT_PointeeOf<string ptr, string value>
    : TypesMatchWith<value # " type matches the pointee of " # ptr, ptr, value,
                     "::mlir::tt::getPointeeTypeOf($_self)">;
class TT_OptionalPointeeOf<string ptr, string value>
    : OptionalTypesMatchWith<value # " type matches the pointee of " # ptr, ptr,
                             value, "::mlir::tt::getPointeeTypeOf($_self)">;
class TT_OptionalMaskOf<string ptr, string mask>
    : OptionalTypesMatchWith<mask # " has the shape of " # ptr, ptr, mask,
                             "::mlir::tt::getI1SameShape($_self)">;

class TT_Op<string mnemonic, list<Trait> traits = []>
    : Op<TT_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Functions and calls
//===----------------------------------------------------------------------===//

// `tt.func public @f(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, ...) attributes {noinline = false} {`
def TT_FuncOp : TT_Op<"func", [AffineScope, AutomaticAllocationScope,
    FunctionOpInterface, IsolatedFromAbove, CallableOpInterface]> {
  let summary = "A Triton function (kernel or device function)";
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
      "::mlir::FunctionType":$type,
      CArg<"::llvm::ArrayRef<::mlir::NamedAttribute>", "{}">:$attrs)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return isExternal() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    bool isDeclaration() { return isExternal(); }
  }];
  let hasCustomAssemblyFormat = 1;
}

// `tt.return` / `tt.return %x : i32`
def TT_ReturnOp : TT_Op<"return", [Pure, HasParent<"FuncOp">, ReturnLike,
                                   Terminator]> {
  let summary = "Return from a tt.func";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let assemblyFormat = "attr-dict ($srcs^ `:` type($srcs))?";
  let hasVerifier = 1;
}

// `tt.call @f(%a) : (i32) -> i32`
def TT_CallOp : TT_Op<"call", [CallOpInterface,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Call a tt.func";
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>);
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
  }];
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Program ids and index ranges
//===----------------------------------------------------------------------===//

// `tt.get_program_id x : i32`
def TT_GetProgramIdOp : TT_Op<"get_program_id", [Pure]> {
  let summary = "Index of this program along an axis of the launch grid";
  let arguments = (ins TT_ProgramDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

// `tt.get_num_programs x : i32`
def TT_GetNumProgramsOp : TT_Op<"get_num_programs", [Pure]> {
  let summary = "Number of programs along an axis of the launch grid";
  let arguments = (ins TT_ProgramDimAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

// `tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>`
def TT_MakeRangeOp : TT_Op<"make_range", [Pure]> {
  let summary = "The 1-D tensor [start, end)";
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

// `tt.splat %x : i32 -> tensor<128xi32>`
def TT_SplatOp : TT_Op<"splat", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Fill a tensor with one scalar";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

// `tt.unsplat %x : tensor<1x1xf32>`
def TT_UnsplatOp : TT_Op<"unsplat", [Pure,
    TypesMatchWith<"result is the element type of src", "src", "result",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "The element of a one-element tensor";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

// `tt.broadcast %x : tensor<1x64xf32> -> tensor<128x64xf32>`
def TT_BroadcastOp : TT_Op<"broadcast", [Pure, SameOperandsAndResultElementType,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Broadcast size-1 dimensions";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// `tt.expand_dims %x {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>`
def TT_ExpandDimsOp : TT_Op<"expand_dims", [Pure,
    SameOperandsAndResultElementType]> {
  let summary = "Insert a size-1 dimension";
  let arguments = (ins TT_Tensor:$src, I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// `tt.reshape %x [allow_reorder] [efficient_layout] : tensor<128xf32> -> tensor<2x64xf32>`
def TT_ReshapeOp : TT_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reshape a tensor (same number of elements)";
  let arguments = (ins TT_Tensor:$src, UnitAttr:$allow_reorder,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src (`allow_reorder` $allow_reorder^)? (`efficient_layout` $efficient_layout^)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

// `tt.trans %x {order = array<i32: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>`
def TT_TransOp : TT_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a tensor";
  let arguments = (ins TT_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// `tt.join %a, %b : tensor<128xf32> -> tensor<128x2xf32>`
def TT_JoinOp : TT_Op<"join", [Pure, SameTypeOperands]> {
  let summary = "Stack two tensors along a new minor dimension of size 2";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
  let hasVerifier = 1;
}

// `%outLHS, %outRHS = tt.split %x : tensor<128x2xf32> -> tensor<128xf32>`
def TT_SplitOp : TT_Op<"split", [Pure, AllTypesMatch<["outLHS", "outRHS"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "Split a tensor along its minor dimension of size 2";
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$outLHS, TT_Tensor:$outRHS);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($outLHS)";
  let hasVerifier = 1;
}

// `tt.cat %a, %b : tensor<16xf32> -> tensor<32xf32>`
def TT_CatOp : TT_Op<"cat", [Pure, SameTypeOperands,
    SameOperandsAndResultElementType]> {
  let summary = "Concatenate two tensors (element order unspecified)";
  let arguments = (ins TT_Tensor:$lhs, TT_Tensor:$rhs);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)";
}

// `tt.histogram %x[, %mask] : tensor<1024xi32> -> tensor<64xi32>`
def TT_HistogramOp : TT_Op<"histogram", [Pure,
    TT_OptionalMaskOf<"src", "mask">]> {
  let summary = "Histogram of the values of a tensor";
  let arguments = (ins TT_IntTensor:$src, Optional<RankedTensorOf<[I1]>>:$mask);
  let results = (outs TT_IntTensor:$result);
  let assemblyFormat = [{
    $src (`,` $mask^)? attr-dict `:` type($src) `->` type($result)
  }];
}

// `tt.gather %src[%idx] {axis = 0 : i32} : (tensor<..>, tensor<..>) -> tensor<..>`
def TT_GatherOp : TT_Op<"gather", [Pure]> {
  let summary = "Gather elements of src along an axis";
  let arguments = (ins TT_Tensor:$src, TT_IntTensor:$indices, I32Attr:$axis,
                       UnitAttr:$efficient_layout);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Casts and element-wise math
//===----------------------------------------------------------------------===//

// `tt.bitcast %x : tensor<128xf32> -> tensor<128xi32>`
def TT_BitcastOp : TT_Op<"bitcast", [Pure, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Reinterpret the bits of each element";
  let arguments = (ins TT_Type:$src);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

// `tt.int_to_ptr %x : i64 -> !tt.ptr<f32>`
def TT_IntToPtrOp : TT_Op<"int_to_ptr", [Pure, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Cast an i64 to a pointer";
  let arguments = (ins TT_I64Like:$src);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

// `tt.ptr_to_int %p : !tt.ptr<f32> -> i64`
def TT_PtrToIntOp : TT_Op<"ptr_to_int", [Pure, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Cast a pointer to an i64";
  let arguments = (ins TT_PtrLike:$src);
  let results = (outs TT_I64Like:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

// `tt.fp_to_fp %x[, rounding = rtne] : tensor<..xf32> -> tensor<..xf8E4M3FN>`
def TT_FpToFpOp : TT_Op<"fp_to_fp", [Pure, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Convert between floating-point types";
  let arguments = (ins TT_FloatLike:$src,
                       OptionalAttr<TT_RoundingModeAttr>:$rounding);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $src attr-dict (`,` `rounding` `=` $rounding^)? `:` type($src) `->` type($result)
  }];
}

// `tt.clampf %x, %min, %max, propagateNan = none : tensor<128xf32>`
def TT_ClampFOp : TT_Op<"clampf", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "Clamp x to [min, max]";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$min, TT_FloatLike:$max,
                       TT_PropagateNanAttr:$propagateNan);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = [{
    $x `,` $min `,` $max `,` `propagateNan` `=` $propagateNan attr-dict `:` type($result)
  }];
}

// `tt.precise_sqrt %x : tensor<128xf32>`
def TT_PreciseSqrtOp : TT_Op<"precise_sqrt", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "Correctly rounded square root";
  let arguments = (ins TT_FloatLike:$x);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

// `tt.precise_divf %x, %y : tensor<128xf32>`
def TT_PreciseDivFOp : TT_Op<"precise_divf", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "Correctly rounded division";
  let arguments = (ins TT_FloatLike:$x, TT_FloatLike:$y);
  let results = (outs TT_FloatLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

// `tt.mulhiui %x, %y : i32`
def TT_MulhiUIOp : TT_Op<"mulhiui", [Pure, Elementwise,
    SameOperandsAndResultType]> {
  let summary = "High half of the unsigned product";
  let arguments = (ins TT_IntLike:$x, TT_IntLike:$y);
  let results = (outs TT_IntLike:$result);
  let assemblyFormat = "$x `,` $y attr-dict `:` type($x)";
}

// `tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (..) -> ..`
def TT_ExternElementwiseOp : TT_Op<"extern_elementwise", [
    TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Call an element-wise function of an external library";
  let arguments = (ins Variadic<TT_Type>:$srcs, StrAttr:$libname,
                       StrAttr:$libpath, StrAttr:$symbol, BoolAttr:$pure);
  let results = (outs TT_Type:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, $result)";
}

// `tt.elementwise_inline_asm "asm" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<..> -> tensor<..>`
def TT_ElementwiseInlineAsmOp : TT_Op<"elementwise_inline_asm", [
    TT_SameOperandsAndResultEncoding,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Inline assembly applied element-wise";
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                       BoolAttr:$pure, I32Attr:$packed_element,
                       Variadic<TT_Type>:$args);
  let results = (outs Variadic<TT_Type>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

// `tt.addptr %p, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>`
def TT_AddPtrOp : TT_Op<"addptr", [Pure, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by element offsets";
  let arguments = (ins TT_PtrLike:$ptr, TT_IntLike:$offset);
  let results = (outs TT_PtrLike:$result);
  let assemblyFormat = [{
    $ptr `,` $offset attr-dict `:` qualified(type($result)) `,` type($offset)
  }];
}

// `tt.make_tensor_ptr %base, [%shape..], [%strides..], [%offsets..] {order = array<i32: 1, 0>} : <tensor<..>>`
def TT_MakeTensorPtrOp : TT_Op<"make_tensor_ptr", [Pure,
    SameVariadicOperandSize,
    TypesMatchWith<"base points to the block's element type", "result", "base",
                   "::mlir::tt::getBlockPtrBaseType($_self)">]> {
  let summary = "Make a pointer to a block of a strided tensor";
  let arguments = (ins TT_Ptr:$base, Variadic<I64>:$shape,
                       Variadic<I64>:$strides, Variadic<I32>:$offsets,
                       DenseI32ArrayAttr:$order);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]` attr-dict
    `:` type($result)
  }];
  let hasVerifier = 1;
}

// `tt.advance %p, [%i, %j] : <tensor<..>>`
def TT_AdvanceOp : TT_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Move a block pointer by element offsets";
  let arguments = (ins TT_TensorPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs TT_TensorPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($result)";
}

// `tt.load %p[, %mask[, %other]] [cacheModifier = ca] [evictionPolicy = evict_last] {..} : tensor<128x!tt.ptr<f32>>`
def TT_LoadOp : TT_Op<"load", [AttrSizedOperandSegments,
    TT_SameOperandsAndResultEncoding, TT_PointeeOf<"ptr", "result">,
    TT_OptionalMaskOf<"ptr", "mask">, TT_OptionalPointeeOf<"ptr", "other">,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Load from global memory";
  let arguments = (ins
    AnyTypeOf<[TT_AnyPtr, TT_TensorPtr]>:$ptr,
    Optional<TT_BoolLike>:$mask,
    Optional<TT_Type>:$other,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    OptionalAttr<TT_PaddingOptionAttr>:$padding,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($ptr))
  }];
}

// `tt.store %p, %v[, %mask] [cacheModifier = ..] [evictionPolicy = ..] {..} : tensor<128x!tt.ptr<f32>>`
def TT_StoreOp : TT_Op<"store", [TT_SameOperandsAndResultEncoding,
    TT_PointeeOf<"ptr", "value">, TT_OptionalMaskOf<"ptr", "mask">]> {
  let summary = "Store to global memory";
  let arguments = (ins
    Arg<AnyTypeOf<[TT_AnyPtr, TT_TensorPtr]>, "", [MemWrite<TT_GlobalMemory>]>:$ptr,
    TT_Type:$value,
    Optional<TT_BoolLike>:$mask,
    DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$boundaryCheck,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $ptr `,` $value (`,` $mask^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($ptr))
  }];
}

// `tt.atomic_rmw add, acq_rel, gpu, %p, %v[, %mask] : (..) -> ..`
def TT_AtomicRMWOp : TT_Op<"atomic_rmw", [TT_SameOperandsAndResultEncoding,
    TT_PointeeOf<"ptr", "val">, TT_OptionalMaskOf<"ptr", "mask">]> {
  let summary = "Atomic read-modify-write on global memory";
  let arguments = (ins
    TT_AtomicRMWOpAttr:$atomic_rmw_op,
    Arg<TT_AnyPtr, "", [MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>:$ptr,
    TT_Type:$val, Optional<TT_BoolLike>:$mask,
    TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $atomic_rmw_op `,` $sem `,` $scope `,` $ptr `,` $val (`,` $mask^)? attr-dict
    `:` functional-type(operands, $result)
  }];
}

// `tt.atomic_cas acq_rel, gpu, %p, %cmp, %val : (..) -> ..`
def TT_AtomicCASOp : TT_Op<"atomic_cas", [TT_SameOperandsAndResultEncoding,
    TT_PointeeOf<"ptr", "cmp">, TT_PointeeOf<"ptr", "val">]> {
  let summary = "Atomic compare-and-swap on global memory";
  let arguments = (ins
    Arg<TT_AnyPtr, "", [MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>:$ptr,
    TT_Type:$cmp, TT_Type:$val,
    TT_MemSemanticAttr:$sem, TT_MemSyncScopeAttr:$scope);
  let results = (outs TT_Type:$result);
  let assemblyFormat = [{
    $sem `,` $scope `,` $ptr `,` $cmp `,` $val attr-dict
    `:` functional-type(operands, $result)
  }];
}

//===----------------------------------------------------------------------===//
// Tensor descriptors (TMA)
//===----------------------------------------------------------------------===//

// `tt.make_tensor_descriptor %base, [%shape..], [%strides..] : <f32>, <tensor<..>>`
def TT_MakeTensorDescOp : TT_Op<"make_tensor_descriptor", [Pure,
    SameVariadicOperandSize]> {
  let summary = "Make a TMA descriptor of a strided global tensor";
  let arguments = (ins TT_Ptr:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides,
                       DefaultValuedAttr<TT_PaddingOptionAttr,
                           "::mlir::tt::PaddingOption::PAD_ZERO">:$padding);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `,`
    type($result)
  }];
}

// `tt.descriptor_load %desc[%i, %j] [cacheModifier = ..] [evictionPolicy = ..] : !tt.tensordesc<..> -> tensor<..>`
def TT_DescriptorLoadOp : TT_Op<"descriptor_load", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "Load a block through a TMA descriptor";
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$indices,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::tt::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::tt::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $indices `]`
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `->` type($result)
  }];
}

// `tt.descriptor_store %desc[%i, %j], %src : !tt.tensordesc<..>, tensor<..>`
def TT_DescriptorStoreOp : TT_Op<"descriptor_store", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Store a block through a TMA descriptor";
  let arguments = (ins TT_TensorDesc:$desc, TT_Tensor:$src,
                       Variadic<I32>:$indices);
  let assemblyFormat = [{
    $desc `[` $indices `]` `,` $src attr-dict `:` qualified(type($desc)) `,`
    type($src)
  }];
}

// `tt.descriptor_reduce add, %desc[%i, %j], %src : !tt.tensordesc<..>, tensor<..>`
def TT_DescriptorReduceOp : TT_Op<"descriptor_reduce", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Reduce a block into global memory through a TMA descriptor";
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDesc:$desc,
                       TT_Tensor:$src, Variadic<I32>:$indices);
  let assemblyFormat = [{
    $kind `,` $desc `[` $indices `]` `,` $src attr-dict `:`
    qualified(type($desc)) `,` type($src)
  }];
}

// `%x = tt.descriptor_gather %desc[%rows, %col] : (!tt.tensordesc<..>, tensor<Nxi32>, i32) -> tensor<NxKxT>`:
// the rows `%rows` of a 2-D descriptor, from column `%col` (TMA gather4).
def TT_DescriptorGatherOp : TT_Op<"descriptor_gather", [
    MemoryEffects<[MemRead<TT_GlobalMemory>]>]> {
  let summary = "Gather rows of a block through a TMA descriptor";
  let arguments = (ins TT_TensorDesc:$desc, RankedTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// `tt.descriptor_scatter %desc[%rows, %col], %src : !tt.tensordesc<..>, tensor<Nxi32>, i32, tensor<NxKxT>`
def TT_DescriptorScatterOp : TT_Op<"descriptor_scatter", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Scatter rows of a block through a TMA descriptor";
  let arguments = (ins TT_TensorDesc:$desc, RankedTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset, TT_Tensor:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` `,` $src attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

// `tt.dot %a, %b, %c[, inputPrecision = tf32] : tensor<..> * tensor<..> -> tensor<..>`
def TT_DotOp : TT_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product d = a * b + c";
  let arguments = (ins TT_Tensor:$a, TT_Tensor:$b, TT_Tensor:$c,
    DefaultValuedAttr<TT_InputPrecisionAttr,
                      "::mlir::tt::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` `inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
}

// `%d = tt.dot_scaled %a[ scale %as], %b[ scale %bs], %c lhs = e4m3 rhs = e2m1 {fastMath = false}
//      : tensor<..>[, tensor<..xi8>] * tensor<..>[, tensor<..xi8>] -> tensor<..>`
// Microscaled matrix product; e2m1 operands pack two values per i8, along K
// unless `lhs_k_pack` / `rhs_k_pack = false` (printed only then).
def TT_DotScaledOp : TT_Op<"dot_scaled", [Pure, AttrSizedOperandSegments,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "Matrix product d = (a * a_scale) * (b * b_scale) + c";
  let arguments = (ins TT_Tensor:$a, TT_Tensor:$b, TT_FloatTensor:$c,
    Optional<TT_Tensor>:$a_scale, Optional<TT_Tensor>:$b_scale,
    TT_ScaleDotElemTypeAttr:$a_elem_type, TT_ScaleDotElemTypeAttr:$b_elem_type,
    BoolAttr:$fastMath,
    DefaultValuedAttr<BoolAttr, "true">:$lhs_k_pack,
    DefaultValuedAttr<BoolAttr, "true">:$rhs_k_pack);
  let results = (outs TT_FloatTensor:$d);
  let assemblyFormat = [{
    $a (`scale` $a_scale^)? `,` $b (`scale` $b_scale^)? `,` $c
    `lhs` `=` $a_elem_type `rhs` `=` $b_elem_type attr-dict `:`
    type($a) (`,` type($a_scale)^)? `*` type($b) (`,` type($b_scale)^)?
    `->` type($d)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans. Triton prints both in generic form:
//   %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({ ^bb0(..): .. tt.reduce.return %s : f32 }) : (..) -> ..
//===----------------------------------------------------------------------===//

def TT_ReduceOp : TT_Op<"reduce", [RecursiveMemoryEffects,
    RecursivelySpeculatable, SingleBlock, SameOperandsShape,
    TT_SameOperandsEncoding]> {
  let summary = "Reduce tensors along an axis with a combining region";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

// `tt.reduce.return %a, %b : f32, i32`
def TT_ReduceReturnOp : TT_Op<"reduce.return", [Pure, HasParent<"ReduceOp">,
    ReturnLike, Terminator]> {
  let summary = "Terminator of a tt.reduce combining region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

def TT_ScanOp : TT_Op<"scan", [RecursiveMemoryEffects,
    RecursivelySpeculatable, SingleBlock, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Inclusive scan of tensors along an axis";
  let arguments = (ins Variadic<TT_Tensor>:$srcs, I32Attr:$axis,
                       BoolAttr:$reverse);
  let results = (outs Variadic<TT_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

// `tt.scan.return %a : i32`
def TT_ScanReturnOp : TT_Op<"scan.return", [Pure, HasParent<"ScanOp">,
    ReturnLike, Terminator]> {
  let summary = "Terminator of a tt.scan combining region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Element-wise maps. Triton prints tt.map_elementwise in generic form; its
// region (any number of blocks, cf branches included) maps `pack` elements of
// every operand, as scalars, to `pack` elements of every result:
//   %r = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
//   ^bb0(%a: f32, %b: f32):
//     ...
//     tt.map_elementwise.return %s : f32
//   }) : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
//===----------------------------------------------------------------------===//

def TT_MapElementwiseOp : TT_Op<"map_elementwise", [RecursiveMemoryEffects,
    RecursivelySpeculatable, SameOperandsAndResultShape,
    TT_SameOperandsAndResultEncoding]> {
  let summary = "Apply a scalar function element-wise";
  let arguments = (ins Variadic<TT_Type>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<TT_Type>:$result);
  let regions = (region MinSizedRegion<1>:$scalarOp);
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

// `tt.map_elementwise.return %a, %b : f32, f32`
def TT_MapElementwiseReturnOp : TT_Op<"map_elementwise.return", [Pure,
    HasParent<"MapElementwiseOp">, ReturnLike, Terminator]> {
  let summary = "Terminator of a tt.map_elementwise region";
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "$result attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

// `tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<..>`
def TT_PrintOp : TT_Op<"print", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Device-side print";
  let arguments = (ins StrAttr:$prefix, BoolAttr:$hex, Variadic<AnyType>:$args,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = [{
    $prefix attr-dict (`:` $args^ `:` type($args))?
  }];
}

// `tt.assert %cond, "message" : tensor<..xi1>`
def TT_AssertOp : TT_Op<"assert", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "Device-side assertion";
  let arguments = (ins AnyTypeOf<[I1, RankedTensorOf<[I1]>]>:$condition,
                       StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

#endif // TLE_INTEROP_TTOPS_TD
