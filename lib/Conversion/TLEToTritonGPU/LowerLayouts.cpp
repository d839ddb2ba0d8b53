//===- LowerLayouts.cpp - user-chosen distributed layouts -----------------===//
//
// Pass `triton-tle-lower-layouts` (include/TLE/Conversion/Passes.td,
// docs/barriers.md "Layouts"): tle.set_layout -> ttg.convert_layout into the
// user's layout, which is then carried forward through the elementwise ops
// that use the value, so that they compute in it; conversions back to the
// layout Triton chose stay only before other uses.
//
//===----------------------------------------------------------------------===//
#include "LocalMemory.h"
#include "TLE/Conversion/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERLAYOUTS
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

int64_t product(ArrayRef<unsigned> v) {
  int64_t p = 1;
  for (unsigned x : v)
    p *= x;
  return p;
}

/// The warps and threads per warp a distributed layout spreads a tensor
/// over; std::nullopt where TLE cannot tell.
std::optional<std::pair<int64_t, int64_t>> warpsAndLanes(Attribute layout) {
  if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(layout))
    return std::make_pair(product(blocked.getWarpsPerCTA()),
                          product(blocked.getThreadsPerWarp()));
  if (auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(layout))
    return std::make_pair(product(mma.getWarpsPerCTA()), int64_t(32));
  if (auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(layout))
    return warpsAndLanes(dot.getParent());
  if (auto slice = dyn_cast<ttg::SliceEncodingAttr>(layout))
    return warpsAndLanes(slice.getParent());
  if (auto linear = dyn_cast<ttg::LinearEncodingAttr>(layout))
    return std::make_pair(int64_t(1) << linear.getWarpBases().size(),
                          int64_t(1) << linear.getLaneBases().size());
  return std::nullopt;
}

RankedTensorType withLayout(Type type, Attribute layout) {
  auto t = cast<RankedTensorType>(type);
  return RankedTensorType::get(t.getShape(), t.getElementType(), layout);
}

/// Whether `v` can be rebuilt in another layout where it is used: a splat
/// constant or a tt.splat of a scalar.
bool isRebuildable(Value v) {
  if (auto cst = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      return dense.isSplat();
  return v.getDefiningOp<tt::SplatOp>() != nullptr;
}

Value rebuild(OpBuilder &b, Value v, Attribute layout) {
  Location loc = v.getLoc();
  RankedTensorType type = withLayout(v.getType(), layout);
  if (auto cst = v.getDefiningOp<arith::ConstantOp>()) {
    auto dense = cast<DenseElementsAttr>(cst.getValue());
    return arith::ConstantOp::create(
        b, loc, type,
        DenseElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  }
  auto splat = v.getDefiningOp<tt::SplatOp>();
  return tt::SplatOp::create(b, loc, type, splat.getSrc());
}

struct LowerLayoutsPass
    : public mlir::tle::impl::TLELowerLayoutsBase<LowerLayoutsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<SetLayoutOp> ops;
    module.walk([&](SetLayoutOp op) { ops.push_back(op); });
    bool ok = true;
    for (SetLayoutOp op : ops)
      ok &= succeeded(lower(op, module));
    if (!ok)
      signalPassFailure();
  }

  LogicalResult lower(SetLayoutOp op, ModuleOp module) {
    Attribute layout = op.getLayout();
    if (!cast<RankedTensorType>(op.getSrc().getType()).getEncoding())
      return op.emitOpError("is lowered on TTGIR (its tensors have encodings)");
    if (auto counts = warpsAndLanes(layout)) {
      int64_t warps = local_memory::groupWarps(op, module);
      int64_t lanes = local_memory::threadsPerWarp(module);
      if (counts->first != warps)
        return op.emitOpError("layout ")
               << layout << " spreads over " << counts->first
               << " warps, but its thread group has " << warps
               << " (the kernel's num_warps, or the warp_specialize "
                  "partition's)";
      if (counts->second != lanes)
        return op.emitOpError("layout ")
               << layout << " spreads over " << counts->second
               << " threads per warp, but the module has " << lanes;
    }
    OpBuilder b(op);
    Value pinned = op.getSrc();
    if (pinned.getType() != op.getResult().getType())
      pinned = ttg::ConvertLayoutOp::create(b, op.getLoc(),
                                            op.getResult().getType(), pinned);
    op.getResult().replaceAllUsesWith(pinned);
    op.erase();
    propagate(pinned, layout);
    return success();
  }

  /// The value `v` in `layout`, for `user`: `v` itself, the source of a
  /// conversion out of `layout`, or a rebuilt splat; null otherwise.
  Value inLayout(OpBuilder &b, Value v, Attribute layout) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      return v; // scalars pass through
    if (type.getEncoding() == layout)
      return v;
    if (auto cvt = v.getDefiningOp<ttg::ConvertLayoutOp>())
      if (cast<RankedTensorType>(cvt.getSrc().getType()).getEncoding() ==
          layout)
        return cvt.getSrc();
    if (isRebuildable(v))
      return rebuild(b, v, layout);
    return Value();
  }

  /// Moves elementwise users of `root` (through conversions out of
  /// `layout`) into `layout`, transitively.
  void propagate(Value root, Attribute layout) {
    SmallVector<Value> work{root};
    llvm::SetVector<Operation *> converts;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      // Uses through conversions to other layouts (the raise's bridges,
      // Triton's own) and direct uses.
      SmallVector<Operation *> users;
      for (Operation *user : v.getUsers()) {
        if (auto cvt = dyn_cast<ttg::ConvertLayoutOp>(user)) {
          converts.insert(cvt);
          for (Operation *u : cvt->getUsers())
            users.push_back(u);
        } else {
          users.push_back(user);
        }
      }
      for (Operation *user : users) {
        if (!user->hasTrait<OpTrait::Elementwise>() ||
            user->getNumResults() == 0 || user->getNumRegions() != 0)
          continue;
        bool tensors = llvm::all_of(user->getResultTypes(), [&](Type t) {
          auto r = dyn_cast<RankedTensorType>(t);
          return r && r.getEncoding() && r.getEncoding() != layout;
        });
        if (!tensors)
          continue;
        OpBuilder b(user);
        SmallVector<Value> operands;
        for (Value operand : user->getOperands()) {
          Value in = inLayout(b, operand, layout);
          if (!in)
            break;
          operands.push_back(in);
        }
        if (operands.size() != user->getNumOperands())
          continue;
        user->setOperands(operands);
        b.setInsertionPointAfter(user);
        for (OpResult result : user->getResults()) {
          auto old = cast<RankedTensorType>(result.getType());
          result.setType(withLayout(old, layout));
          // Uses that do not move get the old layout back.
          auto back =
              ttg::ConvertLayoutOp::create(b, user->getLoc(), old, result);
          result.replaceAllUsesExcept(back.getResult(), back);
          converts.insert(back);
          work.push_back(result);
        }
      }
    }
    // Chains L -> X -> L fold; then conversions nothing uses go.
    llvm::SetVector<Operation *> deadSet(converts.begin(), converts.end());
    for (Operation *cvt : converts) {
      auto c = cast<ttg::ConvertLayoutOp>(cvt);
      for (Operation *user : llvm::to_vector(c->getUsers())) {
        auto next = dyn_cast<ttg::ConvertLayoutOp>(user);
        if (next && next.getResult().getType() == c.getSrc().getType()) {
          next.getResult().replaceAllUsesWith(c.getSrc());
          deadSet.insert(next);
        }
      }
    }
    SmallVector<Operation *> dead(deadSet.begin(), deadSet.end());
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&cvt : dead) {
        if (cvt && cvt->use_empty()) {
          cvt->erase();
          cvt = nullptr;
          erased = true;
        }
      }
    }
  }
};

} // namespace
