//===- MergeMarkerCopies.cpp - one marker where layout propagation made several -===//
//
// triton-tle-number-markers (TTIR) gives every marker a number;
// triton-tle-merge-marker-copies (TTGIR) folds markers that share one back
// into one. Triton's remove-layout-conversions (in make_ttgir, between the
// two) rematerializes an op once per layout its users want, and it does so
// for a TLE marker too (a non-pure tt.elementwise_inline_asm: Triton's
// rematerialization does not ask). A copied marker is a copied op: one
// tle.gpu.wgmma whose result a row max and an exp2 read became four wgmma
// markers. The rules are documented with the passes in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "EraseDead.h"
#include "RaiseMarkers/MarkerRaiser.h"
#include "TLE/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>

#define DEBUG_TYPE "triton-tle-merge-marker-copies"

namespace mlir::tle {
#define GEN_PASS_DEF_TLENUMBERMARKERS
#define GEN_PASS_DEF_TLEMERGEMARKERCOPIES
#include "TLE/Transforms/Passes.h.inc"

namespace {

constexpr StringLiteral kMarkerId = "tle.marker.id";

struct TLENumberMarkers : impl::TLENumberMarkersBase<TLENumberMarkers> {
  void runOnOperation() override {
    SmallVector<tt::ElementwiseInlineAsmOp> markers;
    int64_t next = 0;
    getOperation()->walk([&](tt::ElementwiseInlineAsmOp op) {
      if (!raise_markers::isMarker(op))
        return;
      if (auto id = op->getAttrOfType<IntegerAttr>(kMarkerId))
        next = std::max(next, id.getInt() + 1);
      else
        markers.push_back(op);
    });
    Builder builder(&getContext());
    for (tt::ElementwiseInlineAsmOp op : markers) {
      op->setAttr(kMarkerId, builder.getI64IntegerAttr(next++));
      ++numNumbered;
    }
  }
};

/// The number triton-tle-number-markers gave `op`, if any.
std::optional<int64_t> markerId(tt::ElementwiseInlineAsmOp op) {
  if (auto id = op->getAttrOfType<IntegerAttr>(kMarkerId))
    return id.getInt();
  return std::nullopt;
}

/// Equal but for a ranked tensor's encoding.
bool sameUpToEncoding(Type a, Type b) {
  return a == b || raise_markers::isBridgeable(a, b);
}

/// May a copy of the marker `first` be folded into it across `op`? Ops free
/// of memory effects, and other copies of the same marker (its number),
/// change nothing a marker reads or orders against.
bool crossable(Operation *op, tt::ElementwiseInlineAsmOp first) {
  if (auto other = dyn_cast<tt::ElementwiseInlineAsmOp>(op))
    return markerId(other) && markerId(other) == markerId(first);
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Whether `later` follows `earlier` in one block with only ops `crossable`
/// for `earlier` between them.
bool adjacentCopies(tt::ElementwiseInlineAsmOp earlier,
                    tt::ElementwiseInlineAsmOp later) {
  if (earlier->getBlock() != later->getBlock())
    return false;
  if (later->isBeforeInBlock(earlier))
    std::swap(earlier, later);
  for (Operation *op = earlier->getNextNode(); op != later.getOperation();
       op = op->getNextNode())
    if (!crossable(op, earlier))
      return false;
  return true;
}

/// Decides whether two values hold the same elements, one possibly in
/// another layout (Passes.td lists the rules). Loops and branches whose
/// results Triton duplicated per layout are compared coinductively: a pair
/// of iter_args is assumed equal while their inits and yields are compared,
/// and what was proved under an assumption that fails is forgotten.
class Equivalence {
public:
  bool operator()(Value a, Value b, unsigned depth = 0) {
    if (a == b)
      return true;
    if (depth > kMaxDepth || !sameUpToEncoding(a.getType(), b.getType()))
      return false;
    if (auto cvt = a.getDefiningOp<ttg::ConvertLayoutOp>())
      return (*this)(cvt.getSrc(), b, depth + 1);
    if (auto cvt = b.getDefiningOp<ttg::ConvertLayoutOp>())
      return (*this)(a, cvt.getSrc(), depth + 1);
    auto key = std::make_pair(a.getAsOpaquePointer(), b.getAsOpaquePointer());
    if (auto it = known.find(key); it != known.end())
      return it->second;
    size_t mark = log.size();
    record(key, true); // the coinductive assumption
    if (prove(a, b, depth))
      return true;
    for (size_t i = log.size(); i > mark; --i)
      known.erase(log[i - 1]);
    log.resize(mark);
    record(key, false);
    return false;
  }

  /// Whether two markers compute the same results: one number, text,
  /// attributes and location, equivalent operands.
  bool sameMarker(tt::ElementwiseInlineAsmOp x, tt::ElementwiseInlineAsmOp y,
                  unsigned depth = 0) {
    std::optional<int64_t> id = markerId(x);
    if (!id || id != markerId(y) || x.getAsmString() != y.getAsmString() ||
        x->getAttrDictionary() != y->getAttrDictionary() ||
        x.getLoc() != y.getLoc() ||
        x->getNumOperands() != y->getNumOperands() ||
        x->getNumResults() != y->getNumResults())
      return false;
    for (auto [r, s] : llvm::zip(x->getResults(), y->getResults()))
      if (!sameUpToEncoding(r.getType(), s.getType()))
        return false;
    for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
      if (!(*this)(p, q, depth + 1))
        return false;
    return true;
  }

private:
  using Key = std::pair<void *, void *>;
  static constexpr unsigned kMaxDepth = 64;

  void record(Key key, bool same) {
    known[key] = same;
    log.push_back(key);
  }

  bool prove(Value a, Value b, unsigned depth) {
    if (auto x = dyn_cast<BlockArgument>(a)) {
      auto y = dyn_cast<BlockArgument>(b);
      if (!y || x.getOwner() != y.getOwner() || x.getArgNumber() == 0 ||
          y.getArgNumber() == 0)
        return false;
      // Two iter_args of one scf.for (argument 0 is the induction variable).
      auto loop = dyn_cast<scf::ForOp>(x.getOwner()->getParentOp());
      if (!loop || x.getOwner() != loop.getBody())
        return false;
      unsigned i = x.getArgNumber() - 1, j = y.getArgNumber() - 1;
      Operation *yield = loop.getBody()->getTerminator();
      return (*this)(loop.getInitArgs()[i], loop.getInitArgs()[j], depth + 1) &&
             (*this)(yield->getOperand(i), yield->getOperand(j), depth + 1);
    }
    auto ra = dyn_cast<OpResult>(a);
    auto rb = dyn_cast<OpResult>(b);
    if (!ra || !rb)
      return false;
    Operation *x = ra.getOwner(), *y = rb.getOwner();
    if (x == y) {
      // Two results of one loop or branch that Triton duplicated per layout.
      unsigned i = ra.getResultNumber(), j = rb.getResultNumber();
      if (auto loop = dyn_cast<scf::ForOp>(x))
        return (*this)(loop.getRegionIterArgs()[i], loop.getRegionIterArgs()[j],
                       depth + 1);
      if (auto branch = dyn_cast<scf::IfOp>(x)) {
        for (Region *region :
             {&branch.getThenRegion(), &branch.getElseRegion()}) {
          if (region->empty())
            return false;
          Operation *yield = region->front().getTerminator();
          if (!(*this)(yield->getOperand(i), yield->getOperand(j), depth + 1))
            return false;
        }
        return true;
      }
      return false;
    }
    if (ra.getResultNumber() != rb.getResultNumber())
      return false;
    auto mx = dyn_cast<tt::ElementwiseInlineAsmOp>(x);
    auto my = dyn_cast<tt::ElementwiseInlineAsmOp>(y);
    if (mx && my && raise_markers::isMarker(mx) && raise_markers::isMarker(my))
      return adjacentCopies(mx, my) && sameMarker(mx, my, depth);
    return sameOps(x, y, depth);
  }

  bool sameOps(Operation *x, Operation *y, unsigned depth) {
    if (x->getName() != y->getName() || !isMemoryEffectFree(x) ||
        !isMemoryEffectFree(y) || x->getNumOperands() != y->getNumOperands() ||
        x->getNumRegions() != y->getNumRegions())
      return false;
    // Bodies (a tt.reduce's combiner) are compared as written: their values
    // are scalars, which a rematerialization copies unchanged.
    for (auto [rx, ry] : llvm::zip(x->getRegions(), y->getRegions()))
      if (!OperationEquivalence::isRegionEquivalentTo(
              &rx, &ry, OperationEquivalence::IgnoreLocations))
        return false;
    if (auto cx = dyn_cast<arith::ConstantOp>(x)) {
      auto vx = dyn_cast<SplatElementsAttr>(cx.getValue());
      auto vy =
          dyn_cast<SplatElementsAttr>(cast<arith::ConstantOp>(y).getValue());
      if (!vx || !vy)
        return cx.getValue() == cast<arith::ConstantOp>(y).getValue();
      return sameUpToEncoding(vx.getType(), vy.getType()) &&
             vx.getSplatValue<Attribute>() == vy.getSplatValue<Attribute>();
    }
    if (x->getAttrDictionary() != y->getAttrDictionary())
      return false;
    for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
      if (!(*this)(p, q, depth + 1))
        return false;
    return true;
  }

  llvm::DenseMap<Key, bool> known;
  SmallVector<Key> log;
};

struct TLEMergeMarkerCopies
    : impl::TLEMergeMarkerCopiesBase<TLEMergeMarkerCopies> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      mergeIn(*block);
    // Loops whose bodies had copies folded: the state Triton carried once
    // per layout for them is carried once.
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (foldedIn.contains(loop.getBody()))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      mergeIterArgs(loop);
  }

  /// Drops the iter_args of `loop` that carry what an earlier one carries,
  /// in another layout (`Equivalence`): their uses in the body and after the
  /// loop read the kept one through a convert.
  void mergeIterArgs(scf::ForOp loop) {
    Equivalence equivalent;
    unsigned n = loop.getNumRegionIterArgs();
    SmallVector<int> keptAs(n, -1); // for a dropped arg, the arg it repeats
    for (unsigned j = 0; j < n; ++j) {
      if (!isa<RankedTensorType>(loop.getRegionIterArgs()[j].getType()))
        continue;
      for (unsigned i = 0; i < j; ++i)
        if (keptAs[i] < 0 && equivalent(loop.getRegionIterArgs()[i],
                                        loop.getRegionIterArgs()[j])) {
          keptAs[j] = i;
          break;
        }
    }
    if (llvm::all_of(keptAs, [](int k) { return k < 0; }))
      return;
    OpBuilder inBody = OpBuilder::atBlockBegin(loop.getBody());
    OpBuilder after(loop->getContext());
    after.setInsertionPointAfter(loop);
    auto convert = [&](OpBuilder &b, Value from, Type to) -> Value {
      if (from.getType() == to)
        return from;
      return ttg::ConvertLayoutOp::create(b, loop.getLoc(), to, from);
    };
    for (unsigned j = 0; j < n; ++j) {
      if (keptAs[j] < 0)
        continue;
      unsigned i = keptAs[j];
      BlockArgument arg = loop.getRegionIterArgs()[j];
      if (!arg.use_empty())
        arg.replaceAllUsesWith(
            convert(inBody, loop.getRegionIterArgs()[i], arg.getType()));
      Value result = loop->getResult(j);
      if (!result.use_empty())
        result.replaceAllUsesWith(
            convert(after, loop->getResult(i), result.getType()));
    }
    // A loop without the dropped iter_args, the body moved over.
    SmallVector<Value> inits;
    SmallVector<unsigned> kept;
    for (unsigned k = 0; k < n; ++k)
      if (keptAs[k] < 0) {
        kept.push_back(k);
        inits.push_back(loop.getInitArgs()[k]);
      }
    OpBuilder builder(loop);
    auto merged =
        scf::ForOp::create(builder, loop.getLoc(), loop.getLowerBound(),
                           loop.getUpperBound(), loop.getStep(), inits);
    merged->setAttrs(loop->getAttrs());
    merged.getRegion().takeBody(loop.getRegion());
    Operation *yield = merged.getBody()->getTerminator();
    SmallVector<Value> droppedYields;
    for (int k = n - 1; k >= 0; --k)
      if (keptAs[k] >= 0) {
        droppedYields.push_back(yield->getOperand(k));
        yield->eraseOperand(k);
        merged.getBody()->eraseArgument(k + 1);
      }
    for (auto [index, k] : llvm::enumerate(kept))
      loop->getResult(k).replaceAllUsesWith(merged->getResult(index));
    loop->erase();
    numIterArgsMerged += n - kept.size();
    // What only the dropped args' yields read (converts of the kept value).
    eraseDeadChains(droppedYields);
  }

  void mergeIn(Block &block) {
    SmallVector<tt::ElementwiseInlineAsmOp> markers;
    for (Operation &op : block)
      if (auto marker = dyn_cast<tt::ElementwiseInlineAsmOp>(&op))
        if (raise_markers::isMarker(marker) && markerId(marker))
          markers.push_back(marker);
    Equivalence equivalent;
    // The markers kept so far, which later copies fold into.
    SmallVector<tt::ElementwiseInlineAsmOp> kept;
    for (tt::ElementwiseInlineAsmOp marker : markers) {
      bool folded = false;
      for (tt::ElementwiseInlineAsmOp first : llvm::reverse(kept)) {
        if (!adjacentCopies(first, marker) ||
            !equivalent.sameMarker(marker, first))
          continue;
        std::optional<Plan> plan = planFold(marker, first);
        if (!plan)
          continue;
        fold(marker, first, *plan);
        foldedIn.insert(&block);
        equivalent = Equivalence(); // what it proved may name erased values
        folded = true;
        break;
      }
      if (!folded)
        kept.push_back(marker);
    }
  }

  /// For each result of a copy, the value whose uses move to the first
  /// marker's: the result itself, or for a tiled or narrowed result
  /// (docs/markers.md) the end of its carrier chain (converts, the tile's
  /// tt.reshape, pick tt.reduces), which is erased with the copy.
  struct Plan {
    SmallVector<Value> from, to;
    SmallVector<Operation *> chain; // the copy's carriers, users first
    Operation *after = nullptr; // converts go after this op (or at the copy)
  };

  /// The end of a tiled (reshape, then pick reduces down to the marker's
  /// rank) or narrowed (one pick reduce) result's carrier chain, through
  /// single-use converts; null when the uses do not have that shape.
  static Value chainEnd(Value value, bool tiled,
                        SmallVectorImpl<Operation *> &chain) {
    int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
    auto next = [&]() -> Operation * {
      value = raise_markers::followConverts(value, chain);
      return value.hasOneUse() ? *value.user_begin() : nullptr;
    };
    if (tiled) {
      auto reshape = dyn_cast_or_null<tt::ReshapeOp>(next());
      if (!reshape)
        return {};
      chain.push_back(reshape);
      value = reshape.getResult();
    }
    do {
      auto reduce = dyn_cast_or_null<tt::ReduceOp>(next());
      if (!reduce || !raise_markers::isPickReduce(reduce))
        return {};
      chain.push_back(reduce);
      value = reduce->getResult(0);
    } while (tiled && cast<RankedTensorType>(value.getType()).getRank() > rank);
    return value;
  }

  static std::optional<Plan> planFold(tt::ElementwiseInlineAsmOp copy,
                                      tt::ElementwiseInlineAsmOp first) {
    Plan plan;
    SmallVector<unsigned> tiled =
        raise_markers::listedIndices(copy, raise_markers::kTiledResults);
    SmallVector<unsigned> narrowed =
        raise_markers::listedIndices(copy, raise_markers::kNarrowed);
    for (unsigned k = 0; k < copy->getNumResults(); ++k) {
      Value r = copy->getResult(k), s = first->getResult(k);
      bool isTiled = llvm::is_contained(tiled, k);
      if ((!isTiled && !llvm::is_contained(narrowed, k)) || r.use_empty()) {
        plan.from.push_back(r);
        plan.to.push_back(s);
        continue;
      }
      SmallVector<Operation *> chain, firstChain;
      Value end = chainEnd(r, isTiled, chain);
      Value firstEnd =
          s.use_empty() ? Value() : chainEnd(s, isTiled, firstChain);
      if (!end || !firstEnd ||
          !sameUpToEncoding(end.getType(), firstEnd.getType()))
        return std::nullopt;
      // The converts go after both chains' ends; every use of the copy's
      // end must come later in the block.
      Operation *a = end.getDefiningOp(), *b = firstEnd.getDefiningOp();
      if (a->getBlock() != b->getBlock() || a->getBlock() != copy->getBlock())
        return std::nullopt;
      Operation *after = a->isBeforeInBlock(b) ? b : a;
      if (plan.after && plan.after->isBeforeInBlock(after))
        plan.after = after;
      else if (!plan.after)
        plan.after = after;
      for (Operation *user : end.getUsers()) {
        Operation *at = copy->getBlock()->findAncestorOpInBlock(*user);
        if (!at || !plan.after->isBeforeInBlock(at))
          return std::nullopt;
      }
      plan.from.push_back(end);
      plan.to.push_back(firstEnd);
      plan.chain.append(chain.rbegin(), chain.rend());
    }
    return plan;
  }

  /// Moves the uses of `copy`'s results (or their chains' ends) to
  /// `first`'s, converted to `copy`'s layouts, and erases `copy`, its
  /// chains and what only it used.
  void fold(tt::ElementwiseInlineAsmOp copy, tt::ElementwiseInlineAsmOp first,
            Plan &plan) {
    for (auto [from, to] : llvm::zip(plan.from, plan.to)) {
      if (from.use_empty())
        continue;
      // A result's converts go at the copy; a chain end's after both ends.
      OpBuilder builder(copy);
      if (from.getDefiningOp() != copy.getOperation())
        builder.setInsertionPointAfter(plan.after);
      Value v = to;
      if (from.getType() != to.getType())
        v = ttg::ConvertLayoutOp::create(builder, copy.getLoc(), from.getType(),
                                         to);
      from.replaceAllUsesWith(v);
    }
    for (Operation *op : plan.chain)
      op->erase();
    SmallVector<Value> operands(copy->getOperands());
    copy->erase();
    ++numMerged;
    eraseDeadChains(operands);
  }

  llvm::SmallPtrSet<Block *, 8> foldedIn; // blocks where copies were folded
};

} // namespace
} // namespace mlir::tle
