//===- RejectDSA.cpp - tle.dsa is for DSA targets only --------------------===//
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEREJECTDSA
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h.inc"

namespace {
constexpr llvm::StringLiteral kDSAPrefix = "tle.dsa.";

struct RejectDSAPass : public impl::TLERejectDSABase<RejectDSAPass> {
  void runOnOperation() override {
    bool found = false;
    auto report = [&](Operation *op, StringRef name) {
      op->emitError("'") << name
                         << "' is for DSA targets only; the NVIDIA (TTGIR) "
                            "pipeline cannot lower it (DSA kernels go through "
                            "tle.dsa_pipeline / triton-tle-lower-dsa)";
      found = true;
    };
    getOperation()->walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (name.starts_with(kDSAPrefix)) {
        report(op, name);
        return;
      }
      // A marker (docs/markers.md) naming a tle.dsa op.
      if (auto asmOp = dyn_cast<tt::ElementwiseInlineAsmOp>(op)) {
        StringRef text = asmOp.getAsmString();
        if (text.starts_with(kDSAPrefix))
          report(op, text.take_front(text.find_first_of(" {")));
      }
    });
    if (found)
      signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tle
