//===- Tiles.cpp - tle.marker.tile_shape / tiled_* ------------------------===//
//
// Part of triton-tle-raise-markers (MarkerRaiser.h lists the parts).
// Operands and results of a tile's shape cross the marker repeated over the
// tile grid (docs/markers.md, "Tiles"): tle.extract_tile / tle.insert_tile,
// and tle.reshard between shardings of different local shapes.
//
//===----------------------------------------------------------------------===//
#include "MarkerRaiser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tle::raise_markers {
namespace {
constexpr llvm::StringLiteral kTileShape = "tle.marker.tile_shape";
constexpr llvm::StringLiteral kTiledOperands = "tle.marker.tiled_operands";

/// Follows `value` back through ttg.convert_layout.
Value skipConverts(Value value) {
  while (auto convert = value.getDefiningOp<ttg::ConvertLayoutOp>())
    value = convert.getSrc();
  return value;
}

/// A type for a tile of `shape` cut from `like`: `like`'s encoding when it
/// is a blocked one (valid for any shape of the same rank) or absent.
std::optional<RankedTensorType> tileTypeLike(RankedTensorType like,
                                             ArrayRef<int64_t> shape) {
  Attribute encoding = like.getEncoding();
  if (encoding && !isa<ttg::BlockedEncodingAttr>(encoding))
    return std::nullopt;
  return RankedTensorType::get(shape, like.getElementType(), encoding);
}

} // namespace

bool isTileCarrier(Operation *op) {
  return isa<tt::ReshapeOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::SplatOp,
             ttg::ConvertLayoutOp>(op);
}

LogicalResult MarkerRaiser::readTiles() {
  if (failed(takeIndices(kTiledOperands, marker->getNumOperands(), "operand",
                         tiledOperands)) ||
      failed(takeIndices(kTiledResults, marker->getNumResults(), "result",
                         tiledResults)))
    return failure();
  if (Attribute value = attrs.erase(kTileShape)) {
    auto array = dyn_cast<DenseI64ArrayAttr>(value);
    if (!array)
      return emitError() << "'" << kTileShape
                         << "' must be an array<i64: ...>, got " << value;
    // Tile types are built from these sizes before any op verifies them.
    if (llvm::any_of(array.asArrayRef(), [](int64_t size) { return size < 1; }))
      return emitError() << "'" << kTileShape
                         << "' must hold positive sizes, got " << value;
    tileShape.assign(array.asArrayRef().begin(), array.asArrayRef().end());
  }
  return success();
}

LogicalResult MarkerRaiser::checkTileKeys() {
  if ((!tiledOperands.empty() || !tiledResults.empty()) != !tileShape.empty())
    return emitError() << "TLE marker '" << name << "': '" << kTileShape
                       << "' goes with '" << kTiledOperands << "' or '"
                       << kTiledResults << "'";
  return success();
}

/// Tiled operands and results (docs/markers.md, "Tiles"). A tiled operand
/// is the op's operand of shape `tile_shape`, repeated over the tile grid to
/// the marker's shape: `tt.reshape(tt.broadcast(tt.expand_dims*(tile)))`;
/// the tile is taken back from that chain (or, when Triton folded it, from a
/// splat, or cut out with a `tle.extract_tile` at grid position 0). A tiled
/// result is consumed by one `tt.reshape` to the grid view followed by one
/// pick `tt.reduce` per added axis (through single-use convert_layouts); the
/// op's result replaces the last reduce.
LogicalResult MarkerRaiser::collectTiled() {
  if (tileShape.empty())
    return success();
  // A tiled operand or result is a tensor of the tile's rank.
  auto tensorOfTileRank = [&](Value value, StringRef what,
                              unsigned index) -> RankedTensorType {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (type && type.getRank() == (int64_t)tileShape.size())
      return type;
    emitError() << "tiled " << what << " " << index << " of TLE marker '"
                << name << "' must be a tensor of the rank of '" << kTileShape
                << "'";
    return nullptr;
  };
  for (unsigned index : tiledOperands) {
    Value tiled = operands[index];
    RankedTensorType tiledType = tensorOfTileRank(tiled, "operand", index);
    if (!tiledType)
      return failure();
    int64_t rank = tiledType.getRank();
    Value value = skipConverts(tiled);
    if (auto reshape = value.getDefiningOp<tt::ReshapeOp>();
        reshape && !reshape.getAllowReorder()) {
      value = skipConverts(reshape.getSrc());
      if (auto broadcast = value.getDefiningOp<tt::BroadcastOp>()) {
        value = skipConverts(broadcast.getSrc());
        while (cast<RankedTensorType>(value.getType()).getRank() > rank) {
          auto expand = value.getDefiningOp<tt::ExpandDimsOp>();
          if (!expand)
            break;
          value = skipConverts(expand.getSrc());
        }
        if (cast<RankedTensorType>(value.getType()).getShape() ==
            ArrayRef<int64_t>(tileShape)) {
          operands[index] = value;
          continue;
        }
      }
    }
    // Triton rewrote the chain: recover the tile from the repeated value.
    std::optional<RankedTensorType> type = tileTypeLike(tiledType, tileShape);
    if (!type)
      return emitError() << "cannot recover tiled operand " << index
                         << " of TLE marker '" << name << "' from "
                         << tiled.getType();
    OpBuilder builder(marker);
    Value uniform = tiled;
    while (Operation *def = uniform.getDefiningOp()) {
      if (!isa<tt::BroadcastOp, ttg::ConvertLayoutOp>(def))
        break;
      uniform = def->getOperand(0);
    }
    Operation *made;
    DenseElementsAttr dense;
    if (auto splat = uniform.getDefiningOp<tt::SplatOp>())
      made =
          tt::SplatOp::create(builder, marker.getLoc(), *type, splat.getSrc());
    else if (matchPattern(uniform, m_Constant(&dense)) && dense.isSplat())
      made = arith::ConstantOp::create(
          builder, marker.getLoc(),
          DenseElementsAttr::get(*type, dense.getSplatValue<Attribute>()));
    else
      made = ExtractTileOp::create(builder, marker.getLoc(), *type, tiled,
                                   Value(), builder.getI64IntegerAttr(0),
                                   builder.getDenseI64ArrayAttr(tileShape));
    if (verifyOnly)
      state.temporaries.push_back(made);
    operands[index] = made->getResult(0);
  }

  for (unsigned index : tiledResults) {
    Value value = marker->getResult(index);
    RankedTensorType type = tensorOfTileRank(value, "result", index);
    if (!type)
      return failure();
    int64_t rank = type.getRank();
    if (value.use_empty()) {
      replaced[index] = nullptr;
      unusedTiledTypes[index] =
          RankedTensorType::get(tileShape, type.getElementType());
      continue;
    }
    SmallVector<Operation *> chain;
    auto next = [&]() -> Operation * {
      value = followConverts(value, chain);
      return value.hasOneUse() ? *value.user_begin() : nullptr;
    };
    auto diagnose = [&]() {
      return emitError() << "tiled result " << index << " of TLE marker '"
                         << name
                         << "' must be used by one tt.reshape and "
                            "pick tt.reduces down to the tile shape";
    };
    auto reshape = dyn_cast_or_null<tt::ReshapeOp>(next());
    if (!reshape || reshape.getAllowReorder())
      return diagnose();
    chain.push_back(reshape);
    value = reshape.getResult();
    while (cast<RankedTensorType>(value.getType()).getRank() > rank) {
      auto reduce = dyn_cast_or_null<tt::ReduceOp>(next());
      if (!reduce || !isPickReduce(reduce))
        return diagnose();
      chain.push_back(reduce);
      value = reduce->getResult(0);
    }
    if (cast<RankedTensorType>(value.getType()).getShape() !=
        ArrayRef<int64_t>(tileShape))
      return diagnose() << " (got " << value.getType() << ")";
    replaced[index] = value;
    chains.append(chain.rbegin(), chain.rend());
  }
  return success();
}

} // namespace mlir::tle::raise_markers
