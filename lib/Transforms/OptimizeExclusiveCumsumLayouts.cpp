//===- OptimizeExclusiveCumsumLayouts.cpp - scan layouts for cumsum -------===//
//
// Gives every tle.exclusive_cumsum in TTGIR an input encoding that Triton
// 3.6's tt.scan lowering accepts, choosing among nearby encodings the one that
// needs the fewest ttg.convert_layout ops. The cost model is documented with
// the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <string>

#define DEBUG_TYPE "triton-tle-optimize-exclusive-cumsum-layouts"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEOPTIMIZEEXCLUSIVECUMSUMLAYOUTS
#include "TLE/Transforms/Passes.h.inc"

namespace {

RankedTensorType withEncoding(RankedTensorType type, Attribute encoding) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               encoding);
}

/// The CTA-layout bases (`CGALayout`) of a distributed encoding, one row per
/// basis with one entry per tensor dimension; a null ArrayAttr when the
/// encoding spells none (single-CTA modules). Fails for encodings whose CTA
/// layout this pass does not know how to read.
FailureOr<ArrayAttr> getCGABases(Attribute encoding) {
  if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(encoding))
    return blocked.getCGALayout();
  if (auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(encoding))
    return mma.getCGALayout();
  if (auto linear = dyn_cast<ttg::LinearEncodingAttr>(encoding)) {
    ArrayAttr block = linear.getBlockBases();
    return block && !block.empty() ? block : ArrayAttr();
  }
  if (auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(encoding))
    return getCGABases(dot.getParent());
  if (auto slice = dyn_cast<ttg::SliceEncodingAttr>(encoding)) {
    FailureOr<ArrayAttr> parent = getCGABases(slice.getParent());
    if (failed(parent) || !*parent)
      return parent;
    // The sliced tensor lacks dimension `dim`: drop that coordinate.
    SmallVector<Attribute> rows;
    for (Attribute row : *parent) {
      SmallVector<Attribute> kept;
      for (auto [i, coordinate] : llvm::enumerate(cast<ArrayAttr>(row)))
        if (i != slice.getDim())
          kept.push_back(coordinate);
      rows.push_back(ArrayAttr::get(encoding.getContext(), kept));
    }
    return ArrayAttr::get(encoding.getContext(), rows);
  }
  return failure();
}

/// True when some CTA-layout basis is non-zero, i.e. the CTAs of a cluster
/// hold different parts of the tensor rather than copies of all of it.
bool splitsAcrossCTAs(ArrayAttr cga) {
  if (!cga)
    return false;
  for (Attribute row : cga)
    for (Attribute coordinate : cast<ArrayAttr>(row))
      if (cast<IntegerAttr>(coordinate).getInt() != 0)
        return true;
  return false;
}

/// Whether Triton 3.6 lowers a tt.scan whose input has this encoding (see
/// the pass description and python/test/test_cumsum_layouts_triton.py).
bool isScanSupported(Attribute encoding, unsigned rank) {
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(encoding);
  return blocked && blocked.getRank() == rank &&
         !splitsAcrossCTAs(blocked.getCGALayout());
}

/// A blocked layout for a scan of `type` along `axis`: the axis is the
/// fastest dimension, takes the lanes first, the warps last, and keeps the
/// rest of its extent contiguous in each thread. On failure `error` says why.
ttg::BlockedEncodingAttr buildScanLayout(ExclusiveCumsumOp op,
                                         std::string &error) {
  auto type = cast<RankedTensorType>(op.getSrc().getType());
  unsigned axis = op.getAxis();
  unsigned rank = type.getRank();

  // The module's warps, also inside a warp_specialize partition (not
  // interop::lookupNumWarps, which would give the partition's).
  std::optional<int64_t> numWarps =
      interop::lookupIntAttr(op, interop::kNumWarpsAttr);
  std::optional<int64_t> lanesPerWarp = interop::lookupThreadsPerWarp(op);
  if (!numWarps || !lanesPerWarp) {
    error = std::string("needs a blocked layout for the scan, but no "
                        "enclosing op has a '") +
            (numWarps ? interop::kThreadsPerWarpAttr : interop::kNumWarpsAttr)
                .str() +
            "' attribute";
    return {};
  }
  if (*numWarps <= 0 || !llvm::isPowerOf2_64(*numWarps) || *lanesPerWarp <= 0 ||
      !llvm::isPowerOf2_64(*lanesPerWarp)) {
    error = "needs a blocked layout for the scan, but 'ttg.num-warps' (" +
            std::to_string(*numWarps) + ") or 'ttg.threads-per-warp' (" +
            std::to_string(*lanesPerWarp) + ") is not a power of two";
    return {};
  }

  Attribute encoding = type.getEncoding();
  FailureOr<ArrayAttr> cga = getCGABases(encoding);
  int64_t numCTAs =
      interop::lookupIntAttr(op, interop::kNumCTAsAttr).value_or(1);
  if (failed(cga) && numCTAs > 1) {
    llvm::raw_string_ostream os(error);
    os << "cannot read the CTA layout of " << encoding
       << " (ttg.num-ctas = " << numCTAs << ")";
    return {};
  }
  ArrayAttr cgaLayout = succeeded(cga) ? *cga : ArrayAttr();
  if (splitsAcrossCTAs(cgaLayout)) {
    llvm::raw_string_ostream os(error);
    os << "input layout splits the tensor across CTAs (CGALayout = "
       << cgaLayout << "); Triton 3.6's tt.scan lowering cannot lower that";
    return {};
  }

  // The layout's sizes are 32-bit: a dimension of 2^31 or more has no
  // blocked layout (its extent truncated to 0 and was divided by).
  if (llvm::any_of(type.getShape(),
                   [](int64_t size) { return size >= (int64_t(1) << 31); })) {
    llvm::raw_string_ostream os(error);
    os << "needs a blocked layout for the scan, but " << type
       << " has a dimension of 2^31 elements or more";
    return {};
  }
  auto extent = [&](unsigned dim) -> unsigned {
    return llvm::PowerOf2Ceil(std::max<int64_t>(type.getDimSize(dim), 1));
  };
  SmallVector<unsigned> order{axis};
  for (int dim = rank - 1; dim >= 0; --dim)
    if (static_cast<unsigned>(dim) != axis)
      order.push_back(dim);

  SmallVector<unsigned> sizePerThread(rank, 1), threadsPerWarp(rank, 1),
      warpsPerCTA(rank, 1);
  // Lanes: the axis first, then the other dimensions, fastest first; lanes
  // left over (a small tensor) repeat along the slowest dimension.
  unsigned lanes = *lanesPerWarp;
  for (unsigned dim : order) {
    unsigned take = std::min(lanes, extent(dim));
    threadsPerWarp[dim] = take;
    lanes /= take;
  }
  threadsPerWarp[order.back()] *= lanes;
  // Warps: the other dimensions first, slowest first, so the axis stays in a
  // warp while they have room; then the axis; left over warps repeat along
  // the slowest dimension.
  SmallVector<unsigned> warpOrder(llvm::reverse(ArrayRef(order).drop_front()));
  warpOrder.push_back(axis);
  unsigned warps = *numWarps;
  for (unsigned dim : warpOrder) {
    unsigned room = std::max(1u, extent(dim) / threadsPerWarp[dim]);
    unsigned take = std::min(warps, room);
    warpsPerCTA[dim] = take;
    warps /= take;
  }
  warpsPerCTA[warpOrder.front()] *= warps;
  // Each thread scans a contiguous run of the axis before the lanes do.
  sizePerThread[axis] =
      std::max(1u, extent(axis) / (threadsPerWarp[axis] * warpsPerCTA[axis]));

  return ttg::BlockedEncodingAttr::get(op.getContext(), sizePerThread,
                                       threadsPerWarp, warpsPerCTA, order,
                                       cgaLayout);
}

/// The op's result types once its input has encoding `encoding`.
std::pair<Type, Type> resultTypesFor(ExclusiveCumsumOp op, Attribute encoding) {
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  Type exclusive = withEncoding(srcType, encoding);
  Type total = op.getTotal().getType();
  if (auto totalTensor = dyn_cast<RankedTensorType>(total))
    total = withEncoding(
        totalTensor,
        ttg::SliceEncodingAttr::get(op.getContext(), op.getAxis(), encoding));
  return {exclusive, total};
}

/// Converts that would remain on `result` once its type is `newType`.
unsigned resultCost(Value result, Type newType) {
  unsigned cost = 0;
  bool otherUsers = false;
  for (Operation *user : result.getUsers()) {
    if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(user))
      cost += convert.getType() != newType;
    else
      otherUsers = true;
  }
  return cost + (otherUsers && newType != result.getType());
}

/// Replaces the identity converts among `value`'s users by `value`.
void foldConvertUsers(Value value) {
  for (Operation *user : llvm::make_early_inc_range(value.getUsers())) {
    auto convert = dyn_cast<ttg::ConvertLayoutOp>(user);
    if (!convert)
      continue;
    if (convert.getType() == value.getType()) {
      convert.replaceAllUsesWith(value);
      convert.erase();
    }
  }
}

struct OptimizeExclusiveCumsumLayoutsPass
    : public impl::TLEOptimizeExclusiveCumsumLayoutsBase<
          OptimizeExclusiveCumsumLayoutsPass> {
  void runOnOperation() override {
    SmallVector<ExclusiveCumsumOp> ops;
    getOperation()->walk([&](ExclusiveCumsumOp op) { ops.push_back(op); });
    for (ExclusiveCumsumOp op : ops)
      if (failed(optimize(op)))
        signalPassFailure();
  }

  LogicalResult optimize(ExclusiveCumsumOp op) {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    Attribute current = srcType.getEncoding();
    if (!current)
      return success(); // TTIR: nothing to lay out.
    ++numScans;
    unsigned rank = srcType.getRank();
    unsigned axis = op.getAxis();

    auto inputConvert = op.getSrc().getDefiningOp<ttg::ConvertLayoutOp>();
    Attribute before =
        inputConvert ? cast<RankedTensorType>(inputConvert.getSrc().getType())
                           .getEncoding()
                     : Attribute();

    // Candidates, in tie-breaking order.
    SmallVector<Attribute> candidates;
    auto consider = [&](Attribute encoding) {
      if (encoding && isScanSupported(encoding, rank) &&
          !llvm::is_contained(candidates, encoding))
        candidates.push_back(encoding);
    };
    consider(current);
    consider(before);
    for (Operation *user : op.getExclusive().getUsers())
      if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(user))
        consider(convert.getType().getEncoding());
    for (Operation *user : op.getTotal().getUsers())
      if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(user))
        if (auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(
                convert.getType().getEncoding()))
          if (slice.getDim() == axis)
            consider(slice.getParent());
    if (!isScanSupported(current, rank)) {
      std::string error;
      ttg::BlockedEncodingAttr built = buildScanLayout(op, error);
      if (built) {
        ++numLayoutsBuilt;
        consider(built);
      } else if (candidates.empty()) {
        return op.emitOpError() << error;
      }
    }

    auto cost = [&](Attribute encoding) {
      unsigned input;
      if (inputConvert && encoding == before)
        input = 0; // the convert is bypassed
      else if (encoding == current)
        input = inputConvert && inputConvert->hasOneUse() ? 1 : 0;
      else
        input = 1;
      auto [exclusive, total] = resultTypesFor(op, encoding);
      return input + resultCost(op.getExclusive(), exclusive) +
             resultCost(op.getTotal(), total);
    };
    Attribute best;
    unsigned bestCost = 0;
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": scan at " << op.getLoc() << " on "
                            << current << ", " << candidates.size()
                            << " candidates (cost: converts left)\n");
    for (Attribute encoding : candidates) {
      unsigned c = cost(encoding);
      LLVM_DEBUG(llvm::dbgs() << "  " << c << "  " << encoding << "\n");
      if (!best || c < bestCost) {
        best = encoding;
        bestCost = c;
      }
    }

    LLVM_DEBUG(llvm::dbgs()
               << "  -> " << best << (best == current ? " (stays)" : " (moves)")
               << "\n");
    if (best == current) {
      // Nothing to move; only drop identity converts around the op.
      foldConvertUsers(op.getExclusive());
      foldConvertUsers(op.getTotal());
      if (inputConvert && inputConvert.getSrc().getType() == srcType) {
        op.getSrcMutable().assign(inputConvert.getSrc());
        if (inputConvert->use_empty())
          inputConvert.erase();
      }
      return success();
    }
    rebuild(op, best, inputConvert);
    ++numRelaidOut;
    return success();
  }

  void rebuild(ExclusiveCumsumOp op, Attribute encoding,
               ttg::ConvertLayoutOp inputConvert) {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    Location loc = op.getLoc();
    OpBuilder builder(op);

    // The input on `encoding`, converting from the earliest value available.
    RankedTensorType newSrcType = withEncoding(srcType, encoding);
    Value from = inputConvert ? inputConvert.getSrc() : op.getSrc();
    Value newSrc =
        from.getType() == newSrcType
            ? from
            : ttg::ConvertLayoutOp::create(builder, loc, newSrcType, from)
                  .getResult();

    auto [exclusiveType, totalType] = resultTypesFor(op, encoding);
    OperationState state(loc, op->getName());
    state.addOperands(newSrc);
    state.addTypes({exclusiveType, totalType});
    state.addAttributes(op->getAttrs());
    Operation *newOp = builder.create(state);

    // Old results: converted back for the users that want the old types,
    // then converts of those converts folded.
    builder.setInsertionPointAfter(newOp);
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), newOp->getResults())) {
      if (oldResult.use_empty())
        continue;
      if (oldResult.getType() == newResult.getType()) {
        oldResult.replaceAllUsesWith(newResult);
        continue;
      }
      auto back = ttg::ConvertLayoutOp::create(builder, loc,
                                               oldResult.getType(), newResult);
      oldResult.replaceAllUsesWith(back.getResult());
      for (Operation *user : llvm::make_early_inc_range(back->getUsers()))
        if (auto convert = dyn_cast<ttg::ConvertLayoutOp>(user))
          convert.getSrcMutable().assign(newResult);
      foldConvertUsers(newResult);
      if (back->use_empty())
        back.erase();
    }

    op.erase();
    if (inputConvert && inputConvert->use_empty())
      inputConvert.erase();
  }
};
} // namespace
} // namespace mlir::tle
