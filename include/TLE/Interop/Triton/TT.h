//===- TT.h - Interop definition of Triton 3.6's `tt` dialect -*- C++ -*-===//
//
// Written by TLE to match Triton 3.6.0's textual IR; see TT.td.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_TT_H
#define TLE_INTEROP_TRITON_TT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TLE/Interop/Triton/TTDialect.h.inc"
#include "TLE/Interop/Triton/TTEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTTypes.h.inc"
namespace mlir::tt {
/// The memory that tt.load, tt.store, the atomics and TMA ops touch.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// What a pointer-like type addresses: `!tt.ptr<T>` -> T (a block pointer
/// `!tt.ptr<tensor<..>>` gives the tensor); `tensor<NxM x !tt.ptr<T>, #enc>`
/// -> `tensor<NxMxT, #enc>`. Any other type is returned unchanged.
Type getPointeeTypeOf(Type ptrLike);
/// `i1`, or a tensor of `i1` with the shape and encoding of `type`.
Type getI1SameShape(Type type);
/// The base pointer of a block pointer: `!tt.ptr<tensor<..xT>, A>` ->
/// `!tt.ptr<T, A>`.
Type getBlockPtrBaseType(Type blockPtr);
} // namespace mlir::tt

namespace mlir::tt::OpTrait {
LogicalResult verifySameOperandsEncoding(Operation *op, bool withResults);

/// Every ranked-tensor operand and result has the same encoding.
template <typename ConcreteType>
class SameOperandsAndResultEncoding
    : public mlir::OpTrait::TraitBase<ConcreteType,
                                      SameOperandsAndResultEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifySameOperandsEncoding(op, /*withResults=*/true);
  }
};

/// Every ranked-tensor operand has the same encoding.
template <typename ConcreteType>
class SameOperandsEncoding
    : public mlir::OpTrait::TraitBase<ConcreteType, SameOperandsEncoding> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifySameOperandsEncoding(op, /*withResults=*/false);
  }
};
} // namespace mlir::tt::OpTrait

#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTOps.h.inc"

#endif // TLE_INTEROP_TRITON_TT_H
