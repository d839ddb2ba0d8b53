//===- EraseDead.h - erase the dead ops a rewrite leaves behind -----------===//
//
// After a rewrite replaces an op, the ops that only fed it (index
// arithmetic, converts, splats) are dead. eraseDeadChains erases them.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TRANSFORMS_ERASEDEAD_H
#define TLE_TRANSFORMS_ERASEDEAD_H

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tle {

/// Erases (through `erase`) the ops defining `roots` and, in turn, the ops
/// defining their operands, each while it is unused and free of memory
/// effects (and, with `keepRegionOps`, has no regions). A worklist of ops
/// whose definers are all taken before anything is erased: an op reached
/// twice (a value passed twice, chains sharing an op) is looked at only
/// while it is alive. (The recursive form this replaces asked an erased
/// op's result for its definer: a use after free that AddressSanitizer
/// caught in triton-tle-merge-marker-copies.)
inline void eraseDeadChains(ArrayRef<Value> roots,
                            llvm::function_ref<void(Operation *)> erase,
                            bool keepRegionOps = true) {
  SmallVector<Operation *> worklist;
  for (Value v : roots)
    if (Operation *def = v.getDefiningOp())
      worklist.push_back(def);
  llvm::SmallPtrSet<Operation *, 16> erased;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (erased.contains(op) || !op->use_empty() || !isMemoryEffectFree(op) ||
        (keepRegionOps && op->getNumRegions() != 0))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    erase(op);
  }
}

inline void eraseDeadChains(ArrayRef<Value> roots) {
  eraseDeadChains(roots, [](Operation *op) { op->erase(); });
}

} // namespace mlir::tle

#endif // TLE_TRANSFORMS_ERASEDEAD_H
