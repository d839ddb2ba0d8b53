//===- AssertLowered.cpp - no tle op may reach Triton ---------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEASSERTLOWERED
#include "TLE/Transforms/Passes.h.inc"

namespace {
struct AssertLoweredPass
    : public impl::TLEAssertLoweredBase<AssertLoweredPass> {
  void runOnOperation() override {
    Dialect *tle = getContext().getLoadedDialect<TLEDialect>();
    bool found = false;
    getOperation()->walk([&](Operation *op) {
      if (tle && op->getDialect() == tle) {
        op->emitError("'") << op->getName()
                           << "' was not lowered; Triton cannot read tle ops";
        found = true;
      }
    });
    if (found)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tle
