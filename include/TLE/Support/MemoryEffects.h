//===- MemoryEffects.h - may an op write memory? ----------------*- C++ -*-===//
//
// The question passes ask before they move a read, a wait or a copy across
// other ops: may this op (or an op nested in it) write memory? Declared
// write and free effects count (allocations when asked); an op that declares
// no effects at all (unknown ops, calls, non-pure inline asm) counts as a
// write; an op whose effects are those of its nested ops is answered by them.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_SUPPORT_MEMORYEFFECTS_H
#define TLE_SUPPORT_MEMORYEFFECTS_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tle {

inline bool mayWriteMemory(Operation *op, bool countAllocate = true) {
  if (auto iface = dyn_cast<MemoryEffectOpInterface>(op)) {
    if (iface.hasEffect<MemoryEffects::Write>() ||
        iface.hasEffect<MemoryEffects::Free>() ||
        (countAllocate && iface.hasEffect<MemoryEffects::Allocate>()))
      return true;
  } else if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    return true;
  }
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          if (mayWriteMemory(&nested, countAllocate))
            return true;
  return false;
}

} // namespace mlir::tle

#endif // TLE_SUPPORT_MEMORYEFFECTS_H
