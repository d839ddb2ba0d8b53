//===- RaiseMarkers.cpp - raise frontend markers to tle ops ---------------===//
//
// The reading side of docs/markers.md: a `tt.elementwise_inline_asm` whose asm
// string is `tle.<op> {attrs}` stands for that tle op. Each marker is turned
// into the op it names, verified at the marker's location, and replaces the
// marker's results. This file is the pass itself; RaiseMarkers/MarkerRaiser.h
// lists the parts that read the markers.
//
//===----------------------------------------------------------------------===//
#include "RaiseMarkers/MarkerRaiser.h"
#include "TLE/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLERAISEMARKERS
#include "TLE/Transforms/Passes.h.inc"

namespace {
using namespace raise_markers;

struct RaiseMarkersPass : public impl::TLERaiseMarkersBase<RaiseMarkersPass> {
  using TLERaiseMarkersBase::TLERaiseMarkersBase;

  void runOnOperation() override {
    SmallVector<tt::ElementwiseInlineAsmOp> markers;
    llvm::StringSet<> only;
    for (const std::string &name : ops)
      only.insert(name);
    getOperation()->walk([&](tt::ElementwiseInlineAsmOp op) {
      if (!isMarker(op))
        return;
      StringRef text = op.getAsmString();
      if (!only.empty() &&
          !only.contains(text.take_front(text.find_first_of(" {"))))
        return;
      markers.push_back(op);
    });
    // Every marker is checked, so one run reports every bad one.
    bool failedAny = false;
    RaiseState state;
    for (tt::ElementwiseInlineAsmOp marker : markers)
      if (failed(MarkerRaiser(marker, verifyOnly, state).raise())) {
        if (marker.getAsmString().contains(kResultTypes))
          state.failed.insert(marker);
        failedAny = true;
      }
    for (Operation *op : llvm::reverse(state.temporaries))
      op->erase();
    if (failedAny || failed(eraseHandleMarkers(state)))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tle
