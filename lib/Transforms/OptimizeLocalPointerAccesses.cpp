//===- OptimizeLocalPointerAccesses.cpp - whole-buffer pointer accesses ----===//
//
// triton-tle-optimize-local-pointer-loads / -stores: a plain tt.load / tt.store
// of every element of a buffer through its full-view tle.local_pointers
// becomes tle.local_load / tle.local_store (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEOPTIMIZELOCALPOINTERLOADS
#define GEN_PASS_DEF_TLEOPTIMIZELOCALPOINTERSTORES
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// The full-view tle.local_pointers that produces `ptr`, or null.
LocalPointersOp getFullView(Value ptr) {
  auto view = ptr.getDefiningOp<LocalPointersOp>();
  if (!view || !view.getIndices().empty() ||
      !isa<RankedTensorType>(view.getType()))
    return {};
  return view;
}

void eraseIfDead(LocalPointersOp view) {
  if (view && view->use_empty())
    view.erase();
}

struct OptimizeLocalPointerLoadsPass
    : public impl::TLEOptimizeLocalPointerLoadsBase<
          OptimizeLocalPointerLoadsPass> {
  void runOnOperation() override {
    SmallVector<tt::LoadOp> loads;
    getOperation()->walk([&](tt::LoadOp load) { loads.push_back(load); });
    for (tt::LoadOp load : loads) {
      LocalPointersOp view = getFullView(load.getPtr());
      if (!view || load.getMask() || load.getOther() ||
          !load.getBoundaryCheck().empty() || load.getPadding() ||
          load.getCache() != tt::CacheModifier::NONE ||
          load.getEvict() != tt::EvictionPolicy::NORMAL ||
          load.getIsVolatile() || !isa<RankedTensorType>(load.getType()))
        continue;
      OpBuilder builder(load);
      auto local = LocalLoadOp::create(builder, load.getLoc(), load.getType(),
                                       view.getBuffer());
      load.replaceAllUsesWith(local.getResult());
      load.erase();
      eraseIfDead(view);
    }
  }
};

struct OptimizeLocalPointerStoresPass
    : public impl::TLEOptimizeLocalPointerStoresBase<
          OptimizeLocalPointerStoresPass> {
  void runOnOperation() override {
    SmallVector<tt::StoreOp> stores;
    getOperation()->walk([&](tt::StoreOp store) { stores.push_back(store); });
    for (tt::StoreOp store : stores) {
      LocalPointersOp view = getFullView(store.getPtr());
      if (!view || store.getMask() || !store.getBoundaryCheck().empty() ||
          store.getCache() != tt::CacheModifier::NONE ||
          store.getEvict() != tt::EvictionPolicy::NORMAL ||
          !view.getBuffer().getType().getMutableMemory() ||
          !isa<RankedTensorType>(store.getValue().getType()))
        continue;
      OpBuilder builder(store);
      LocalStoreOp::create(builder, store.getLoc(), store.getValue(),
                           view.getBuffer());
      store.erase();
      eraseIfDead(view);
    }
  }
};
} // namespace
} // namespace mlir::tle
