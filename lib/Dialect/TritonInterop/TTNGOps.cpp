//===- TTNGOps.cpp - Interop ops of Triton 3.6's `ttng` dialect -----------===//
//
// Verifiers check only rules that are simple and certain; anything Triton
// 3.6.0 prints must parse.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TTNG.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ttng;
using ttg::MemDescType;

#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTNGOps.cpp.inc"

//===----------------------------------------------------------------------===//
// WarpGroupDotOp
//===----------------------------------------------------------------------===//

void WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // wgmma reads its shared-memory operands; register operands are values.
  for (OpOperand &operand : getOperation()->getOpOperands())
    if (isa<MemDescType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           ttg::SharedMemory::get());
}

//===----------------------------------------------------------------------===//
// WarpGroupDotWaitOp: its results take its operands' types
//===----------------------------------------------------------------------===//

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncTMACopyGlobalToLocalOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (!cast<MemDescType>(getResult().getType()).getMutableMemory())
    return emitOpError("cannot copy into an immutable memdesc");
  return success();
}
