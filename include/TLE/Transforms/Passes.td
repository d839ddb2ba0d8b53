//===- Passes.td - TLE passes ---------------------------------------------===//
//
// Pass names mirror FlagTree's TLE (`triton-tle-*`) where FlagTree has the pass.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TRANSFORMS_PASSES_TD
#define TLE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLEAssertLowered : Pass<"tle-assert-lowered", "mlir::ModuleOp"> {
  let summary = "Fail if any tle op is left, before IR goes back to Triton";
  let description = [{
    Triton cannot read `tle.*` ops, so the backend hook runs this pass last in
    every TLE stage: each remaining `tle` op is reported as an error at its
    location, naming the op, and the pass fails.
  }];
}

#endif // TLE_TRANSFORMS_PASSES_TD
