//===- LowerTiles.cpp - tle.extract_tile / tle.insert_tile on TTGIR -------===//
//
// Pass `triton-tle-lower-tiles` (include/TLE/Conversion/Passes.td): the
// general path through shared memory. The source goes into a
// `ttg.local_alloc` with a plain row-major `#ttg.swizzled_shared` layout;
// a tile is the `ttg.memdesc_subslice` at its offsets.
//
// - extract, static index, when the source is computed elementwise from
//   ranges, splats, constants and a load used only here (`narrowTile`): the
//   same computation on the tile's elements only (ranges from the tile's
//   offsets, the load of the tile's pointers), so the source is never built;
//   the loads of a tile taken from a large loaded tensor read only the tile.
// - extract, static index, otherwise: local_alloc(src), subslice,
//   local_load in the result's encoding.
// - insert, static index, whose result only a `tt.store` stores, through
//   pointers (and a mask) narrowTile can narrow to the tile: two stores
//   to disjoint addresses, no buffer. The source goes through the store's
//   pointers with the tile's elements masked off; the tile through the
//   pointers narrowed to the tile (`splitInsertStore`). A tile inserted
//   into a large loaded tensor and stored needs no shared memory.
// - insert, static index, otherwise: local_alloc (mutable), local_store(src),
//   local_store(tile) into the subslice, local_load of the whole buffer in
//   src's encoding.
// - dynamic index (grids of at most kMaxDynamicTiles tiles): extract loads
//   every tile and keeps the one whose number equals the index
//   (`arith.select`); insert stores the tile under `scf.if (index == k)` for
//   every tile k. An index outside the grid extracts tile 0 and inserts
//   nothing (the frontend checks constant indices).
//
// Triton's allocation and membar passes place the buffers and the barriers.
// Two patterns (populateLowerTilesPatterns, TLE/Conversion/Patterns.h); the
// pass offers them the tile ops users first, so that a tile op only feeding
// an unused one is dropped too.
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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERTILES
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {
/// Largest tile grid a dynamic index is lowered for (one local_load or one
/// predicated local_store per tile).
constexpr int64_t kMaxDynamicTiles = 64;

/// The tile grid of `shape` cut in tiles of `tile`.
SmallVector<int64_t> gridOf(ArrayRef<int64_t> shape, ArrayRef<int64_t> tile) {
  SmallVector<int64_t> grid;
  for (auto [s, t] : llvm::zip(shape, tile))
    grid.push_back(s / t);
  return grid;
}

/// Element offsets of tile number `linear` (row-major over the grid).
SmallVector<int64_t> tileOffsets(int64_t linear, ArrayRef<int64_t> grid,
                                 ArrayRef<int64_t> tile) {
  SmallVector<int64_t> offsets(grid.size());
  for (int64_t d = grid.size() - 1; d >= 0; --d) {
    offsets[d] = (linear % grid[d]) * tile[d];
    linear /= grid[d];
  }
  return offsets;
}

struct Buffer {
  ttg::MemDescType type;
  Value value;
};

/// A shared buffer for a tensor of `type`; filled from `init` when given
/// (immutable then), else mutable and empty.
Buffer allocBuffer(OpBuilder &b, Location loc, RankedTensorType type,
                   Value init) {
  MLIRContext *ctx = b.getContext();
  SmallVector<unsigned> order;
  for (int64_t d = type.getRank() - 1; d >= 0; --d)
    order.push_back(static_cast<unsigned>(d));
  auto shared = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, order);
  auto memdesc =
      ttg::MemDescType::get(type.getShape(), type.getElementType(), shared,
                            ttg::SharedMemorySpaceAttr::get(ctx),
                            /*mutableMemory=*/!init);
  Value value = ttg::LocalAllocOp::create(b, loc, memdesc, init, IntegerAttr());
  return {memdesc, value};
}

/// The view of tile `linear` of `buffer`.
Value tileView(OpBuilder &b, Location loc, Buffer buffer,
               ArrayRef<int64_t> tile, int64_t linear) {
  ttg::MemDescType full = buffer.type;
  SmallVector<int64_t> grid = gridOf(full.getShape(), tile);
  auto type = ttg::MemDescType::get(tile, full.getElementType(),
                                    full.getEncoding(), full.getMemorySpace(),
                                    full.getMutableMemory(), full.getShape());
  SmallVector<int32_t> offsets;
  for (int64_t o : tileOffsets(linear, grid, tile))
    offsets.push_back(static_cast<int32_t>(o));
  return ttg::MemDescSubsliceOp::create(b, loc, type, buffer.value,
                                        b.getDenseI32ArrayAttr(offsets));
}

/// The index as a constant, when it is one.
std::optional<int64_t> staticIndex(Value index, IntegerAttr attr) {
  if (attr)
    return attr.getInt();
  APInt constant;
  if (matchPattern(index, m_ConstantInt(&constant)) &&
      constant.getSignificantBits() <= 64)
    return constant.getSExtValue();
  return std::nullopt;
}

Value indexIs(OpBuilder &b, Location loc, Value index, int64_t k) {
  Value constant =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(index.getType(), k));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                               constant);
}

int64_t product(ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

/// How deep narrowTile follows operands.
constexpr int kMaxNarrowDepth = 32;

/// The box of `shape` at `offsets` of a tensor `v`, computed without `v`:
/// the ops that make `v` replayed on the box only. Null when some op on the
/// way cannot be (the file's header names those that can). Only blocked and
/// sliced encodings are taken: they lay out any shape, so each replayed op
/// keeps its encoding.
Value narrowTile(OpBuilder &b, Value v, ArrayRef<int64_t> offsets,
                 ArrayRef<int64_t> shape, int depth = 0) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || depth > kMaxNarrowDepth ||
      !isa_and_nonnull<ttg::BlockedEncodingAttr, ttg::SliceEncodingAttr>(
          type.getEncoding()))
    return {};
  if (type.getShape() == shape) // the whole tensor
    return v;
  auto boxType = type.clone(shape);
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumResults() != 1)
    return {};
  Location loc = op->getLoc();
  if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
    int64_t start = range.getStart() + offsets[0];
    return tt::MakeRangeOp::create(b, loc, boxType, static_cast<int32_t>(start),
                                   static_cast<int32_t>(start + shape[0]));
  }
  if (auto splat = dyn_cast<tt::SplatOp>(op))
    return tt::SplatOp::create(b, loc, boxType, splat.getSrc());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (!dense)
      return {};
    return arith::ConstantOp::create(b, loc, dense.resizeSplat(boxType));
  }
  if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    unsigned axis = expand.getAxis();
    SmallVector<int64_t> o(offsets), sh(shape);
    o.erase(o.begin() + axis);
    sh.erase(sh.begin() + axis);
    Value src = narrowTile(b, expand.getSrc(), o, sh, depth + 1);
    return src ? tt::ExpandDimsOp::create(b, loc, boxType, src, axis) : Value();
  }
  if (auto bcast = dyn_cast<tt::BroadcastOp>(op)) {
    auto srcType = cast<RankedTensorType>(bcast.getSrc().getType());
    SmallVector<int64_t> o(offsets), sh(shape);
    for (auto [d, size] : llvm::enumerate(srcType.getShape()))
      if (size == 1 && type.getShape()[d] != 1) {
        o[d] = 0;
        sh[d] = 1;
      }
    Value src = narrowTile(b, bcast.getSrc(), o, sh, depth + 1);
    if (!src)
      return {};
    return sh == SmallVector<int64_t>(shape)
               ? src
               : tt::BroadcastOp::create(b, loc, boxType, src).getResult();
  }
  if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(op)) {
    Value src = narrowTile(b, cvt.getSrc(), offsets, shape, depth + 1);
    return src ? ttg::ConvertLayoutOp::create(b, loc, boxType, src) : Value();
  }
  // Elementwise ops: pure ones (arith, math, tt.addptr), and a load of a
  // tensor of pointers whose only user this is (its tensor then dies; a
  // load kept for other users is not repeated, a volatile one is kept).
  auto load = dyn_cast<tt::LoadOp>(op);
  bool replayable =
      load ? v.hasOneUse() && !load.getIsVolatile() &&
                 isa<RankedTensorType>(load.getPtr().getType())
           : (op->hasTrait<OpTrait::Elementwise>() || isa<tt::AddPtrOp>(op)) &&
                 isMemoryEffectFree(op);
  if (!replayable || op->getNumRegions())
    return {};
  IRMapping mapping;
  for (Value operand : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(operand.getType());
    if (!t)
      continue;
    if (t.getShape() != type.getShape())
      return {};
    Value n = narrowTile(b, operand, offsets, shape, depth + 1);
    if (!n)
      return {};
    mapping.map(operand, n);
  }
  Operation *clone = b.clone(*op, mapping);
  clone->getResult(0).setType(boxType);
  return clone->getResult(0);
}

/// Erases the op making `v` once nothing uses it, and so on up its operands,
/// as far as the ops are pure or loads (what narrowTile replays).
void eraseDeadChain(PatternRewriter &b, Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || !op->use_empty() ||
      !(isMemoryEffectFree(op) || isa<tt::LoadOp>(op)))
    return;
  SmallVector<Value> operands(op->getOperands());
  b.eraseOp(op);
  for (Value operand : operands)
    eraseDeadChain(b, operand);
}

LogicalResult checkTTGIR(Operation *op, RankedTensorType type, StringRef what) {
  if (!isa_and_nonnull<ttg::BlockedEncodingAttr, ttg::SliceEncodingAttr,
                       ttg::LinearEncodingAttr, ttg::NvidiaMmaEncodingAttr,
                       ttg::DotOperandEncodingAttr>(type.getEncoding()))
    return op->emitOpError("cannot be lowered: the ")
           << what << " " << type
           << " has no distributed encoding (triton-tle-lower-tiles runs on "
              "TTGIR)";
  return success();
}

/// The number of tiles of `src` and the tile index when it is static or a
/// constant; fails when a dynamic index spans more tiles than supported.
FailureOr<std::pair<int64_t, std::optional<int64_t>>>
tileGridIndex(Operation *op, RankedTensorType src, ArrayRef<int64_t> tile,
              Value dynamicIndex, IntegerAttr staticIndexAttr) {
  int64_t tiles = product(gridOf(src.getShape(), tile));
  std::optional<int64_t> index = staticIndex(dynamicIndex, staticIndexAttr);
  if (!index && tiles > kMaxDynamicTiles)
    return op->emitOpError("cannot be lowered: a dynamic tile index over ")
           << tiles << " tiles is not supported (at most " << kMaxDynamicTiles
           << "); use a constant index or larger tiles";
  return std::make_pair(tiles, index);
}

LogicalResult lowerExtract(ExtractTileOp op, PatternRewriter &b) {
  RankedTensorType srcType = op.getSrc().getType();
  RankedTensorType resultType = op.getResult().getType();
  if (failed(checkTTGIR(op, srcType, "source")) ||
      failed(checkTTGIR(op, resultType, "result")))
    return failure();
  ArrayRef<int64_t> tile = op.getTileShape();
  auto grid =
      tileGridIndex(op, srcType, tile, op.getIndex(), op.getStaticIndexAttr());
  if (failed(grid))
    return failure();
  auto [tiles, index] = *grid;

  Location loc = op.getLoc();
  if (index) {
    SmallVector<int64_t> offsets =
        tileOffsets(*index, gridOf(srcType.getShape(), tile), tile);
    if (Value box = narrowTile(b, op.getSrc(), offsets, tile)) {
      if (box.getType() != resultType)
        box = ttg::ConvertLayoutOp::create(b, loc, resultType, box);
      Value src = op.getSrc();
      b.replaceOp(op, box);
      eraseDeadChain(b, src);
      return success();
    }
  }
  Buffer buffer = allocBuffer(b, loc, srcType, op.getSrc());
  Value result;
  if (index) {
    result = ttg::LocalLoadOp::create(
        b, loc, resultType, tileView(b, loc, buffer, tile, *index), Value());
  } else {
    for (int64_t k = 0; k < tiles; ++k) {
      Value value = ttg::LocalLoadOp::create(
          b, loc, resultType, tileView(b, loc, buffer, tile, k), Value());
      if (!result) {
        result = value;
        continue;
      }
      auto maskType = RankedTensorType::get(
          resultType.getShape(), b.getI1Type(), resultType.getEncoding());
      Value mask = tt::SplatOp::create(b, loc, maskType,
                                       indexIs(b, loc, op.getIndex(), k));
      result = arith::SelectOp::create(b, loc, mask, value, result);
    }
  }
  b.replaceOp(op, result);
  return success();
}

/// An i1 tensor of `type`'s shape and encoding, true on the box of `shape`
/// at `offsets`; null when the box is the whole tensor.
Value boxMask(OpBuilder &b, Location loc, RankedTensorType type,
              ArrayRef<int64_t> offsets, ArrayRef<int64_t> shape) {
  auto maskType = type.clone(b.getI1Type());
  auto bound = [&](int64_t value) {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type.clone(b.getI32Type()),
                               b.getI32IntegerAttr(value)));
  };
  Value mask;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (offsets[d] == 0 && shape[d] == type.getDimSize(d))
      continue;
    Value index = conversion::buildAxisIndex(b, loc, type, d);
    // Only the bounds inside the tensor: one of them is, at least.
    SmallVector<Value, 2> bounds;
    if (offsets[d] != 0)
      bounds.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                             index, bound(offsets[d])));
    if (offsets[d] + shape[d] != type.getDimSize(d))
      bounds.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                             index,
                                             bound(offsets[d] + shape[d])));
    for (Value inside : bounds)
      mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult()
                  : inside;
  }
  assert((!mask || mask.getType() == maskType) && "mask type");
  return mask;
}

/// `tt.store ptr, insert_tile(src, tile, index)[, mask]` as a store of src
/// with the tile's box masked off and a store of the tile through the
/// pointers (and mask) narrowed to the box. Fails, creating nothing, when
/// the insert has another user, or the pointers or the mask do not narrow.
LogicalResult splitInsertStore(InsertTileOp op, ArrayRef<int64_t> offsets,
                               PatternRewriter &b) {
  if (!op->hasOneUse())
    return failure();
  auto store = dyn_cast<tt::StoreOp>(*op->user_begin());
  if (!store || store.getValue() != op.getResult() ||
      !isa<RankedTensorType>(store.getPtr().getType()))
    return failure();
  ArrayRef<int64_t> tile = op.getTile().getType().getShape();
  // narrowTile creates ops as it goes, so a failure part-way leaves some:
  // they go into a scratch block, out of the rewriter's sight, and move
  // before the store only once both narrowings succeed.
  Block scratch;
  OpBuilder sb(op.getContext());
  sb.setInsertionPointToStart(&scratch);
  Value ptr = narrowTile(sb, store.getPtr(), offsets, tile);
  Value mask = store.getMask();
  Value tileMask = ptr && mask ? narrowTile(sb, mask, offsets, tile) : Value();
  if (!ptr || (mask && !tileMask)) {
    while (!scratch.empty())
      scratch.back().erase();
    return failure();
  }
  for (Operation &created : llvm::make_early_inc_range(scratch))
    b.moveOpBefore(&created, store);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(store);

  Location loc = op.getLoc();
  RankedTensorType srcType = op.getSrc().getType();
  if (Value outside = boxMask(b, loc, srcType, offsets, tile)) {
    Value ones = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(cast<ShapedType>(outside.getType()),
                               b.getBoolAttr(true)));
    outside = arith::XOrIOp::create(b, loc, outside, ones);
    if (mask)
      outside = arith::AndIOp::create(b, loc, outside, mask);
    tt::StoreOp::create(b, store.getLoc(), store.getPtr(), op.getSrc(), outside,
                        store.getBoundaryCheckAttr(), store.getCacheAttr(),
                        store.getEvictAttr());
  }
  auto ptrType = cast<RankedTensorType>(ptr.getType());
  Value value = op.getTile();
  auto valueType = ptrType.clone(op.getTile().getType().getElementType());
  if (value.getType() != valueType)
    value = ttg::ConvertLayoutOp::create(b, loc, valueType, value);
  tt::StoreOp::create(b, store.getLoc(), ptr, value, tileMask,
                      store.getBoundaryCheckAttr(), store.getCacheAttr(),
                      store.getEvictAttr());
  b.eraseOp(store);
  b.eraseOp(op);
  return success();
}

LogicalResult lowerInsert(InsertTileOp op, PatternRewriter &b) {
  RankedTensorType srcType = op.getSrc().getType();
  RankedTensorType tileType = op.getTile().getType();
  if (failed(checkTTGIR(op, srcType, "source")) ||
      failed(checkTTGIR(op, tileType, "tile")))
    return failure();
  ArrayRef<int64_t> tile = tileType.getShape();
  auto grid =
      tileGridIndex(op, srcType, tile, op.getIndex(), op.getStaticIndexAttr());
  if (failed(grid))
    return failure();
  auto [tiles, index] = *grid;

  if (index) {
    SmallVector<int64_t> offsets =
        tileOffsets(*index, gridOf(srcType.getShape(), tile), tile);
    if (succeeded(splitInsertStore(op, offsets, b)))
      return success();
  }
  Location loc = op.getLoc();
  Buffer buffer = allocBuffer(b, loc, srcType, Value());
  ttg::LocalStoreOp::create(b, loc, op.getSrc(), buffer.value);
  if (index) {
    ttg::LocalStoreOp::create(b, loc, op.getTile(),
                              tileView(b, loc, buffer, tile, *index));
  } else {
    for (int64_t k = 0; k < tiles; ++k) {
      auto branch = scf::IfOp::create(b, loc, TypeRange{},
                                      indexIs(b, loc, op.getIndex(), k),
                                      /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      ttg::LocalStoreOp::create(b, loc, op.getTile(),
                                tileView(b, loc, buffer, tile, k));
    }
  }
  Value result =
      ttg::LocalLoadOp::create(b, loc, srcType, buffer.value, Value());
  b.replaceOp(op, result);
  return success();
}

/// Lowers a tile op, or erases it when unused (tile ops are pure).
template <typename TileOp> struct LowerTile : OpRewritePattern<TileOp> {
  using OpRewritePattern<TileOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(TileOp op,
                                PatternRewriter &rewriter) const override {
    if (op->use_empty()) {
      rewriter.eraseOp(op);
      return success();
    }
    if constexpr (std::is_same_v<TileOp, ExtractTileOp>)
      return lowerExtract(op, rewriter);
    else
      return lowerInsert(op, rewriter);
  }
};

struct LowerTilesPass
    : public mlir::tle::impl::TLELowerTilesBase<LowerTilesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<ExtractTileOp, InsertTileOp>(op))
        ops.push_back(op);
    });
    // Users first, so a tile op only feeding an unused one is dropped too.
    std::reverse(ops.begin(), ops.end());
    RewritePatternSet patterns(&getContext());
    populateLowerTilesPatterns(patterns);
    // Each op the patterns leave has an error.
    if (applyPatternsInOrder(ops, std::move(patterns)) != ops.size())
      signalPassFailure();
  }
};
} // namespace

void tle::populateLowerTilesPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerTile<ExtractTileOp>, LowerTile<InsertTileOp>>(
      patterns.getContext());
}
