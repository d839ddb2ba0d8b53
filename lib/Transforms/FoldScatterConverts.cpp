//===- FoldScatterConverts.cpp - scattered stores keep their operands' layout -===//
//
// triton-tle-fold-scatter-converts: a tt.store that Coalesce gave one
// element per thread (its pointers are not contiguous) is rebuilt in the
// layout its operands are computed in, when that needs no new convert. The
// rules are documented with the pass in Passes.td. One pattern on tt.store
// (populateFoldScatterConvertsPatterns, TLE/Transforms/Patterns.h).
//
//===----------------------------------------------------------------------===//
#include "EraseDead.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Support/ApplyPatterns.h"
#include "TLE/Transforms/Passes.h"
#include "TLE/Transforms/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEFOLDSCATTERCONVERTS
#include "TLE/Transforms/Passes.h.inc"

namespace {

constexpr unsigned kMaxDepth = 6;

Attribute encodingOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getEncoding() : Attribute();
}

RankedTensorType inEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

/// One element per thread: the layout Coalesce gives unprovably contiguous
/// pointers.
bool isOnePerThread(Attribute encoding) {
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(encoding);
  return blocked && llvm::all_of(blocked.getSizePerThread(),
                                 [](unsigned n) { return n == 1; });
}

bool isSplatConstant(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  return constant && isa<SplatElementsAttr>(constant.getValue());
}

/// A pure op computing its result element by element from operands of the
/// result's shape and encoding.
bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !isMemoryEffectFree(op))
    return false;
  if (!(isa<arith::ArithDialect>(op->getDialect()) &&
        op->hasTrait<OpTrait::Elementwise>()) &&
      !isa<tt::AddPtrOp, tt::BitcastOp, tt::IntToPtrOp, tt::PtrToIntOp>(op))
    return false;
  Type resultType = op->getResult(0).getType();
  auto result = dyn_cast<RankedTensorType>(resultType);
  return result && llvm::all_of(op->getOperands(), [&](Value operand) {
           auto type = dyn_cast<RankedTensorType>(operand.getType());
           return type && type.getShape() == result.getShape() &&
                  type.getEncoding() == result.getEncoding();
         });
}

/// Whether `value` can be had in `target` without a new convert.
bool available(Value value, Attribute target, unsigned depth) {
  if (encodingOf(value) == target)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(def))
    return encodingOf(convert.getSrc()) == target;
  if (isa<tt::SplatOp, tt::MakeRangeOp>(def) || isSplatConstant(def))
    return true;
  if (depth == 0 || !isElementwise(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return available(operand, target, depth - 1);
  });
}

/// `value` in `target`, cloning what `available` accepted before `builder`'s
/// insertion point (each value once).
Value materialize(RewriterBase &builder, Value value, Attribute target,
                  IRMapping &done) {
  if (encodingOf(value) == target)
    return value;
  if (Value known = done.lookupOrNull(value))
    return known;
  Operation *def = value.getDefiningOp();
  Value result;
  if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(def)) {
    result = convert.getSrc();
  } else if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto type = inEncoding(constant.getType(), target);
    result = arith::ConstantOp::create(
        builder, def->getLoc(), type,
        SplatElementsAttr::get(type,
                               cast<SplatElementsAttr>(constant.getValue())
                                   .getSplatValue<Attribute>()));
  } else {
    IRMapping operands;
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        operands.map(operand, materialize(builder, operand, target, done));
    Operation *clone = builder.clone(*def, operands);
    builder.modifyOpInPlace(clone, [&] {
      clone->getResult(0).setType(inEncoding(value.getType(), target));
    });
    result = clone->getResult(0);
  }
  done.map(value, result);
  return result;
}

/// The source encoding of the converts among `operands`, if they agree.
Attribute convertSource(ValueRange operands) {
  Attribute source;
  for (Value operand : operands) {
    auto convert = operand.getDefiningOp<ttg::ConvertLayoutOp>();
    if (!convert)
      continue;
    Attribute encoding = encodingOf(convert.getSrc());
    if (source && source != encoding)
      return {};
    source = encoding;
  }
  return source;
}

struct FoldScatterConvert : OpRewritePattern<tt::StoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tt::StoreOp store,
                                PatternRewriter &rewriter) const override {
    Value ptr = store.getPtr();
    Attribute current = encodingOf(ptr);
    if (!isOnePerThread(current))
      return failure();
    SmallVector<Value> operands(store->getOperands());
    Attribute target = convertSource(operands);
    if (!isa_and_nonnull<ttg::BlockedEncodingAttr>(target) ||
        !llvm::all_of(operands, [&](Value operand) {
          return available(operand, target, kMaxDepth);
        }))
      return failure();
    rewriter.setInsertionPoint(store);
    IRMapping done;
    for (OpOperand &operand : store->getOpOperands()) {
      Value value = materialize(rewriter, operand.get(), target, done);
      rewriter.modifyOpInPlace(store, [&] { operand.set(value); });
    }
    eraseDeadChains(
        operands, [&](Operation *op) { rewriter.eraseOp(op); },
        /*keepRegionOps=*/false);
    return success();
  }
};

struct FoldScatterConvertsPass
    : public impl::TLEFoldScatterConvertsBase<FoldScatterConvertsPass> {
  void runOnOperation() override {
    // By hand, not a walk: a fold erases ops before its store.
    SmallVector<Operation *> stores;
    getOperation()->walk([&](tt::StoreOp store) { stores.push_back(store); });
    RewritePatternSet patterns(&getContext());
    populateFoldScatterConvertsPatterns(patterns);
    applyPatternsInOrder(stores, std::move(patterns));
  }
};
} // namespace
} // namespace mlir::tle

void mlir::tle::populateFoldScatterConvertsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldScatterConvert>(patterns.getContext());
}
