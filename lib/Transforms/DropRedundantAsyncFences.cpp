//===- DropRedundantAsyncFences.cpp - one proxy fence where one suffices --===//
//
// triton-tle-drop-redundant-async-fences: Triton fences the async proxy
// (`ttng.fence_async_shared`) before every wgmma whose shared operands it
// cannot prove were written through the async proxy. A fence that follows
// another in its block, with nothing in between that writes memory or
// synchronizes, orders nothing the first did not: it is erased. The rules
// are documented with the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Transforms/Passes.h"
#include "WgmmaOps.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEDROPREDUNDANTASYNCFENCES
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// Whether a fence before `op` still orders everything a fence after it
/// would: `op` neither writes memory (through the generic proxy) nor
/// synchronizes with other threads (a wgmma wait only waits for this
/// thread's wgmmas).
bool keepsFenceCurrent(Operation *op) {
  return isa<ttng::WarpGroupDotWaitOp>(op) || readsOrIssuesWgmma(op);
}

struct TLEDropRedundantAsyncFences
    : impl::TLEDropRedundantAsyncFencesBase<TLEDropRedundantAsyncFences> {
  void runOnOperation() override {
    SmallVector<Operation *> redundant;
    getOperation()->walk([&](Block *block) {
      ttng::FenceAsyncSharedOp current;
      for (Operation &op : *block) {
        auto fence = dyn_cast<ttng::FenceAsyncSharedOp>(op);
        if (!fence) {
          if (!keepsFenceCurrent(&op))
            current = {};
          continue;
        }
        // A cluster-scope fence covers a CTA-scope one, not the reverse.
        if (current && (current.getBCluster() || !fence.getBCluster()))
          redundant.push_back(fence);
        else
          current = fence;
      }
    });
    for (Operation *op : redundant)
      op->erase();
  }
};

} // namespace
} // namespace mlir::tle
