//===- WgmmaOps.h - ops a wgmma-related rewrite may cross -------*- C++ -*-===//
//
// The ops both triton-tle-merge-wgmma-waits (a wait moved down) and
// triton-tle-drop-redundant-async-fences (a fence kept current) may step
// over: ops that write no memory and synchronize with no other thread.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TRANSFORMS_WGMMAOPS_H
#define TLE_TRANSFORMS_WGMMAOPS_H

#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tle {

/// Whether `op` holds no regions and only computes values, reads shared
/// memory (`ttg.local_load`, `ttg.memdesc_*` views) or issues a wgmma
/// (which reads shared memory through the async proxy and writes
/// registers): it writes no memory and synchronizes with no other thread.
inline bool readsOrIssuesWgmma(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isa<ttng::WarpGroupDotOp, ttg::LocalLoadOp, ttg::MemDescIndexOp,
          ttg::MemDescSubsliceOp, ttg::MemDescTransOp, ttg::MemDescReshapeOp,
          ttg::MemDescReinterpretOp>(op))
    return true;
  return isMemoryEffectFree(op);
}

} // namespace mlir::tle

#endif // TLE_TRANSFORMS_WGMMAOPS_H
