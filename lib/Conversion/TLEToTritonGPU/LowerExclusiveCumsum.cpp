//===- LowerExclusiveCumsum.cpp - tle.exclusive_cumsum -> tt.scan ---------===//
//
// Integers: exclusive = scan_add(x) - x, total = reduce_add(x).
// Floats:   a scan over pairs (s, v) from (0, x) with the associative combine
//           ((s1, v1), (s2, v2)) -> (s1 + v1 + s2, v2); its first result is the
//           exclusive sum. total = reduce_add(select(i == last, s + v, -0.0)).
//
// Works on TTIR and TTGIR alike: new tensors take the input's encoding, or
// slices of it, and no encoding when the input has none. One pattern
// (populateLowerExclusiveCumsumPatterns, TLE/Conversion/Patterns.h).
//
//===----------------------------------------------------------------------===//
#include "AxisIndex.h"
#include "TLE/Conversion/Passes.h"
#include "TLE/Conversion/Patterns.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Support/ApplyPatterns.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWEREXCLUSIVECUMSUM
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {
using CombineBody = function_ref<SmallVector<Value>(OpBuilder &, ValueRange)>;

/// Fills the (empty) combining region of a tt.scan / tt.reduce: one block
/// taking (acc..., cur...) scalars, ended by `ReturnOp` on what `body` yields.
template <typename ReturnOp>
void buildCombine(OpBuilder &b, Location loc, Region &region,
                  TypeRange elementTypes, CombineBody body) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Type> argTypes(elementTypes);
  argTypes.append(elementTypes.begin(), elementTypes.end());
  SmallVector<Location> argLocs(argTypes.size(), loc);
  Block *block = b.createBlock(&region, region.end(), argTypes, argLocs);
  ReturnOp::create(b, loc, body(b, block->getArguments()));
}

Value buildAddReduce(OpBuilder &b, Location loc, Value src, int32_t axis,
                     Type resultType) {
  auto reduce = tt::ReduceOp::create(b, loc, TypeRange{resultType},
                                     ValueRange{src}, axis);
  Type elementType = cast<RankedTensorType>(src.getType()).getElementType();
  bool isFloat = isa<FloatType>(elementType);
  buildCombine<tt::ReduceReturnOp>(
      b, loc, reduce.getCombineOp(), elementType,
      [&](OpBuilder &b, ValueRange args) -> SmallVector<Value> {
        if (isFloat)
          return {arith::AddFOp::create(b, loc, args[0], args[1])};
        return {arith::AddIOp::create(b, loc, args[0], args[1])};
      });
  return reduce.getResult()[0];
}

/// (exclusive, total) of `op`.
using Lowered = std::pair<Value, Value>;

Lowered lowerInteger(OpBuilder &b, ExclusiveCumsumOp op) {
  Location loc = op.getLoc();
  Value x = op.getSrc();
  auto type = cast<RankedTensorType>(x.getType());
  Type elementType = type.getElementType();
  int32_t axis = op.getAxis();

  auto scan = tt::ScanOp::create(b, loc, TypeRange{type}, ValueRange{x}, axis,
                                 op.getReverse());
  buildCombine<tt::ScanReturnOp>(
      b, loc, scan.getCombineOp(), elementType,
      [&](OpBuilder &b, ValueRange args) -> SmallVector<Value> {
        return {arith::AddIOp::create(b, loc, args[0], args[1])};
      });
  // Exact: integer addition wraps, so (sum of x[0..i]) - x[i] is the
  // exclusive sum even after overflow.
  Value exclusive = arith::SubIOp::create(b, loc, scan.getResult()[0], x);
  Value total = buildAddReduce(b, loc, x, axis, op.getTotal().getType());
  return Lowered{exclusive, total};
}

FailureOr<Lowered> lowerFloat(OpBuilder &b, ExclusiveCumsumOp op) {
  Location loc = op.getLoc();
  Value x = op.getSrc();
  auto type = cast<RankedTensorType>(x.getType());
  auto elementType = cast<FloatType>(type.getElementType());
  int32_t axis = op.getAxis();
  bool reverse = op.getReverse();
  int64_t extent = type.getDimSize(axis);
  if (extent > std::numeric_limits<int32_t>::max())
    return op.emitOpError("cannot be lowered: axis extent ")
           << extent << " does not fit tt.make_range's i32 bounds";

  const llvm::fltSemantics &semantics = elementType.getFloatSemantics();
  auto splat = [&](const APFloat &value) -> Value {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, FloatAttr::get(elementType, value)));
  };

  // Element i is (0, x[i]); after the inclusive scan, s[i] is the sum of the
  // x[j] before i in scan order and v[i] = x[i].
  Value zeros = splat(APFloat::getZero(semantics));
  auto scan = tt::ScanOp::create(b, loc, TypeRange{type, type},
                                 ValueRange{zeros, x}, axis, reverse);
  buildCombine<tt::ScanReturnOp>(
      b, loc, scan.getCombineOp(), {elementType, elementType},
      [&](OpBuilder &b, ValueRange args) -> SmallVector<Value> {
        // args = (s1, v1, s2, v2): accumulated pair, then current pair.
        Value t = arith::AddFOp::create(b, loc, args[0], args[1]);
        Value u = arith::AddFOp::create(b, loc, t, args[2]);
        return {u, args[3]};
      });
  Value exclusive = scan.getResult()[0];

  // total: the inclusive sum at the last position in scan order. Every other
  // position contributes -0.0, which leaves any sum (-0.0 included) unchanged.
  Value inclusive =
      arith::AddFOp::create(b, loc, exclusive, scan.getResult()[1]);
  Value index = conversion::buildAxisIndex(b, loc, type, axis);
  Value last = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type.clone(b.getI32Type()),
                             b.getI32IntegerAttr(reverse ? 0 : extent - 1)));
  Value isLast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index, last);
  Value negZeros = splat(APFloat::getZero(semantics, /*Negative=*/true));
  Value picked = arith::SelectOp::create(b, loc, isLast, inclusive, negZeros);
  Value total = buildAddReduce(b, loc, picked, axis, op.getTotal().getType());

  return Lowered{exclusive, total};
}

struct LowerExclusiveCumsum : OpRewritePattern<ExclusiveCumsumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ExclusiveCumsumOp op,
                                PatternRewriter &rewriter) const override {
    Type elementType = op.getSrc().getType().getElementType();
    FailureOr<Lowered> lowered = failure();
    if (elementType.isSignlessInteger(32) || elementType.isSignlessInteger(64))
      lowered = lowerInteger(rewriter, op);
    else if (elementType.isF16() || elementType.isBF16() ||
             elementType.isF32() || elementType.isF64())
      lowered = lowerFloat(rewriter, op);
    else
      return op.emitOpError("cannot be lowered: unsupported element type ")
             << elementType << " (supported: i32, i64, f16, bf16, f32, f64)";
    if (failed(lowered))
      return failure();
    rewriter.replaceOp(op, {lowered->first, lowered->second});
    return success();
  }
};

struct LowerExclusiveCumsumPass
    : public tle::impl::TLELowerExclusiveCumsumBase<LowerExclusiveCumsumPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](ExclusiveCumsumOp op) { ops.push_back(op); });
    RewritePatternSet patterns(&getContext());
    populateLowerExclusiveCumsumPatterns(patterns);
    // Each op the patterns leave has an error.
    if (applyPatternsInOrder(ops, std::move(patterns)) != ops.size())
      signalPassFailure();
  }
};
} // namespace

void tle::populateLowerExclusiveCumsumPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerExclusiveCumsum>(patterns.getContext());
}
