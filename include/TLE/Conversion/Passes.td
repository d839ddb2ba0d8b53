//===- Passes.td - TLE conversions ----------------------------------------===//
//
// Conversions from TLE ops to Triton ops. Pass names mirror FlagTree's TLE
// (`triton-tle-*`) where FlagTree has the pass.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_CONVERSION_PASSES_TD
#define TLE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLELowerExclusiveCumsum
    : Pass<"triton-tle-lower-exclusive-cumsum", "mlir::ModuleOp"> {
  let summary = "Lower tle.exclusive_cumsum to tt.scan and tt.reduce";
  let description = [{
    Rewrites every `tle.exclusive_cumsum` into Triton ops, in TTIR (tensors
    without encoding) or TTGIR (the new values carry the input's encoding, or
    slices of it). Every created op gets the cumsum's location.

    Integers (i32, i64): `incl = tt.scan(x)` with `arith.addi`,
    `exclusive = incl - x` (exact in wraparound arithmetic) and
    `total = tt.reduce(x)` with `arith.addi`.

    Floats (f16, bf16, f32, f64): a two-operand `tt.scan` over pairs
    `(s, v)`, starting from `(0.0, x)`, with the associative combine
    `((s1, v1), (s2, v2)) -> (s1 + v1 + s2, v2)`; its first result is the
    exclusive sum (no `incl - x`, which turns `inf` into `NaN` and cancels).
    `total` is the inclusive value `s + v` at the last position in scan order,
    picked by a `tt.reduce` with `arith.addf` over
    `select(index == last, s + v, -0.0)`; the index is a `tt.make_range` along
    the axis, expanded and broadcast to the input shape.

    Any other element type is an error at the op.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect"];
}

#endif // TLE_CONVERSION_PASSES_TD
