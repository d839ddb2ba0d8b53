//===- TTNG.h - Interop definition of Triton 3.6's `ttng` dialect -*- C++ -*-===//
//
// Written by TLE to match Triton 3.6.0's textual IR; see TTNG.td.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_TTNG_H
#define TLE_INTEROP_TRITON_TTNG_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"

namespace mlir::ttng {
/// Blackwell tensor memory, the resource of the tmem and tcgen05 ops.
struct TensorMemory : public SideEffects::Resource::Base<TensorMemory> {
  StringRef getName() final { return "<TensorMemory>"; }
};
} // namespace mlir::ttng

#include "TLE/Interop/Triton/TTNGDialect.h.inc"
#include "TLE/Interop/Triton/TTNGEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTNGAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTNGTypes.h.inc"
#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTNGOps.h.inc"

#endif // TLE_INTEROP_TRITON_TTNG_H
