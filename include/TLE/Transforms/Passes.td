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

def TLERaiseMarkers : Pass<"triton-tle-raise-markers", "mlir::ModuleOp"> {
  let summary = "Raise the frontend's tt.elementwise_inline_asm markers to tle ops";
  let description = [{
    Reads the marker convention of `docs/markers.md`: every
    `tt.elementwise_inline_asm` whose asm string starts with `tle.` names a
    `tle` op and spells its attributes. The pass builds that op from the
    marker's operands (taking the source of each `tt.splat` listed in
    `tle.marker.scalar_operands`), with result types from the op's
    `InferTypeOpInterface` when it has one, verifies it at once (errors point
    at the marker's location, the user's call), and replaces the marker's
    results; a result listed in `tle.marker.narrowed` replaces its pick
    `tt.reduce` (through single-use `ttg.convert_layout`s). Where a result
    type differs from the replaced value's only in its encoding, a
    `ttg.convert_layout` bridges them. Other inline asm is left alone.
  }];
  let options = [
    Option<"verifyOnly", "verify-only", "bool", /*default=*/"false",
           "Build and verify every marker's op, report errors, change nothing">
  ];
  let dependentDialects = ["::mlir::tle::TLEDialect", "::mlir::ttg::TTGDialect"];
}

#endif // TLE_TRANSFORMS_PASSES_TD
