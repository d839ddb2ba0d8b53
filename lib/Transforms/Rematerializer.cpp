//===- Rematerializer.cpp - recompute index and mask tensors --------------===//
#include "Rematerializer.h"

#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tle {

namespace {
/// Encodings whose slices tt.expand_dims results are recomputed from.
bool slicesRecomputed(Attribute encoding) {
  return isa<ttg::BlockedEncodingAttr, ttg::NvidiaMmaEncodingAttr>(encoding);
}
} // namespace

bool isRematTarget(Attribute encoding) {
  return isa_and_nonnull<ttg::BlockedEncodingAttr, ttg::LinearEncodingAttr>(
      encoding);
}

bool isMaskRematTarget(Attribute encoding) {
  return isRematTarget(encoding) ||
         isa_and_nonnull<ttg::NvidiaMmaEncodingAttr>(encoding);
}

Value Rematerializer::convertLeaf(Value value, Attribute encoding, bool build) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!convertLeaves || type.getRank() != 1 ||
      type.getNumElements() > kMaxConvertedLeaf || !type.getEncoding())
    return {};
  if (!build)
    return value; // a probe: possible
  if (leafConverts)
    if (Value known = leafConverts->lookup({value, encoding}))
      return known;
  // After the leaf's definition, so that it dominates every use a
  // recomputed chain may have.
  OpBuilder::InsertionGuard guard(builder);
  if (Operation *def = value.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
  Value converted = ttg::ConvertLayoutOp::create(
      builder, value.getLoc(), type.cloneWithEncoding(encoding), value);
  built[{value, encoding}] = converted;
  if (leafConverts)
    (*leafConverts)[{value, encoding}] = converted;
  return converted;
}

Value Rematerializer::walk(Value value, Attribute encoding, unsigned &budget,
                           bool build) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return {};
  RankedTensorType target = type.cloneWithEncoding(encoding);
  if (type == target)
    return value;
  if (build) {
    auto it = built.find({value, encoding});
    if (it != built.end())
      return it->second;
  }
  Operation *op = value.getDefiningOp();
  if (!op || op->getNumResults() != 1)
    return convertLeaf(value, encoding, build);
  if (budget == 0)
    return {};
  if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(op))
    return walk(convert.getSrc(), encoding, budget, build);
  --budget;
  SmallVector<Value> operands;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense)
      return {};
    if (!build)
      return value;
    Value result = arith::ConstantOp::create(builder, op->getLoc(), target,
                                             dense.reshape(target));
    built[{value, encoding}] = result;
    return result;
  }
  if (isa<tt::SplatOp, tt::MakeRangeOp>(op)) {
    // Scalar or no operands: kept.
    operands.assign(op->getOperands().begin(), op->getOperands().end());
  } else if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    if (!slicesRecomputed(encoding))
      return {};
    Attribute slice = ttg::SliceEncodingAttr::get(builder.getContext(),
                                                  expand.getAxis(), encoding);
    Value src = walk(expand.getSrc(), slice, budget, build);
    if (!src)
      return {};
    operands.push_back(src);
  } else if (isa<tt::BroadcastOp>(op) ||
             (op->hasTrait<OpTrait::Elementwise>() &&
              op->getDialect()->getNamespace() == "arith" &&
              op->getNumRegions() == 0 && isMemoryEffectFree(op))) {
    for (Value operand : op->getOperands()) {
      Value moved = walk(operand, encoding, budget, build);
      if (!moved)
        return {};
      operands.push_back(moved);
    }
  } else {
    return convertLeaf(value, encoding, build);
  }
  if (!build)
    return value; // a probe: possible
  IRMapping mapping;
  for (auto [from, to] : llvm::zip(op->getOperands(), operands))
    mapping.map(from, to);
  Operation *clone = builder.clone(*op, mapping);
  clone->getResult(0).setType(target);
  built[{value, encoding}] = clone->getResult(0);
  return clone->getResult(0);
}

} // namespace mlir::tle
