//===- TTG.h - Interop definition of Triton 3.6's `ttg` dialect -*- C++ -*-===//
//
// Written by TLE to match Triton 3.6.0's textual IR; see TTG.td.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_TTG_H
#define TLE_INTEROP_TRITON_TTG_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TLE/Interop/Triton/TT.h"

namespace mlir::ttg {
/// Shared memory of a CTA, the resource of the `local_*` and barrier ops.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};
/// Global memory, read or written by the async and TMA copies.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// `tensor<S x i1, E>` for `tensor<S x T, E>`; the type itself otherwise.
Type getI1SameShape(Type type);
/// `tensor<S x T, E>` for `tensor<S x !tt.ptr<T>, E>`; the type itself
/// otherwise.
Type getPointeeSameShape(Type type);
/// The rank of the tensors a distributed (register) layout lays out; none for
/// other attributes and for a linear layout without bases.
std::optional<unsigned> getLayoutRank(Attribute layout);
} // namespace mlir::ttg

#include "TLE/Interop/Triton/TTGDialect.h.inc"
#include "TLE/Interop/Triton/TTGEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTGAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTGTypes.h.inc"

namespace mlir::ttg {
/// Checks that a tensor and a memdesc hold the same shape and element type.
LogicalResult verifySameShapeAndElement(Operation *op, RankedTensorType tensor,
                                        MemDescType memdesc);
/// Why Triton 3.6 refuses a ttg.memdesc_subslice of a buffer of type `src`
/// with result shape `shape` at `offsets` (its verifier's rules: a split
/// dimension has power-of-two sizes and an offset that is a multiple of the
/// result's size; the split does not cut through the swizzle pattern of the
/// shared encoding), or null when it accepts it. Offsets must lie within
/// `src` (checked separately).
const char *subsliceProblem(MemDescType src, ArrayRef<int64_t> shape,
                            ArrayRef<int32_t> offsets);
/// The rules of a buffer allocation (ttg.local_alloc, ttng.tmem_alloc): with
/// a source tensor, the tensor's shape and element type; without, mutable.
LogicalResult verifyAlloc(Operation *op, Value src, MemDescType result);
} // namespace mlir::ttg

#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTGOps.h.inc"

#endif // TLE_INTEROP_TRITON_TTG_H
