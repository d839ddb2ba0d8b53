//===- LowerWarpSpecialize.cpp - tle.warp_specialize -> ttg ---------------===//
//
// triton-tle-lower-warp-specialize (Passes.td, docs/warp-specialize.md):
// captures, recomputation of pure tensors, and per-partition encodings.
//
//===----------------------------------------------------------------------===//
#include "LocalMemory.h"
#include "TargetCheck.h"

#include "TLE/Conversion/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERWARPSPECIALIZE
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

bool isCapturable(Type type) {
  return isa<ttg::MemDescType, IntegerType, FloatType, IndexType,
             tt::PointerType, tt::TensorDescType>(type);
}

/// `warps` (product M) reshaped to product `target`, halving (or doubling)
/// dimensions from the last one listed in `dims`.
SmallVector<unsigned> refit(ArrayRef<unsigned> warps, unsigned target,
                            ArrayRef<unsigned> dims) {
  SmallVector<unsigned> out(warps);
  // 64-bit and saturating: an unsigned product of [2^31, 2^31] was 0, and
  // doubling 0 up to `target` never ended (found by scripts/fuzz_tle_opt.py).
  uint64_t total = 1;
  for (unsigned w : out)
    total = llvm::SaturatingMultiply(total, uint64_t(w));
  while (total > target) {
    for (unsigned d : llvm::reverse(dims))
      if (out[d] > 1) {
        out[d] /= 2;
        break;
      }
    total /= 2;
  }
  while (total < target) {
    out[dims.front()] *= 2;
    total *= 2;
  }
  return out;
}

/// Encodings for a partition of `warps` warps.
struct Reencoder {
  unsigned warps;
  llvm::DenseMap<Attribute, Attribute> cache;
  Operation *errorAt = nullptr;
  bool failed = false;

  Attribute encoding(Attribute enc, Operation *at) {
    if (!enc ||
        isa<ttg::SwizzledSharedEncodingAttr, ttg::NVMMASharedEncodingAttr>(enc))
      return enc;
    if (auto it = cache.find(enc); it != cache.end())
      return it->second;
    MLIRContext *ctx = enc.getContext();
    Attribute out;
    if (auto blocked = dyn_cast<ttg::BlockedEncodingAttr>(enc)) {
      SmallVector<unsigned> order(blocked.getOrder());
      out = ttg::BlockedEncodingAttr::get(
          ctx, blocked.getSizePerThread(), blocked.getThreadsPerWarp(),
          refit(blocked.getWarpsPerCTA(), warps, order), blocked.getOrder(),
          blocked.getCGALayout());
    } else if (auto slice = dyn_cast<ttg::SliceEncodingAttr>(enc)) {
      if (Attribute parent = encoding(slice.getParent(), at))
        out = ttg::SliceEncodingAttr::get(ctx, slice.getDim(), parent);
    } else if (auto dot = dyn_cast<ttg::DotOperandEncodingAttr>(enc)) {
      if (Attribute parent = encoding(dot.getParent(), at))
        out = ttg::DotOperandEncodingAttr::get(ctx, dot.getOpIdx(), parent,
                                               dot.getKWidth());
    } else if (auto mma = dyn_cast<ttg::NvidiaMmaEncodingAttr>(enc)) {
      if (mma.getVersionMajor() == 3 && warps % 4 != 0) {
        report(at) << "a wgmma layout needs a partition of a multiple of 4 "
                      "warps, got "
                   << warps;
        return {};
      }
      SmallVector<unsigned> dims{0, 1};
      out = ttg::NvidiaMmaEncodingAttr::get(
          ctx, mma.getVersionMajor(), mma.getVersionMinor(),
          refit(mma.getWarpsPerCTA(), warps, dims), mma.getCGALayout(),
          mma.getInstrShape());
    } else {
      report(at) << "cannot re-lay out " << enc << " for a partition of "
                 << warps << " warps; give the partition the kernel's "
                 << "num_warps";
      return {};
    }
    if (out)
      cache[enc] = out;
    return out;
  }

  InFlightDiagnostic report(Operation *at) {
    failed = true;
    return at->emitOpError("in a tle.warp_specialize partition: ");
  }

  Type type(Type t, Operation *at) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.getEncoding())
      return t;
    Attribute enc = encoding(tensor.getEncoding(), at);
    return enc ? RankedTensorType::get(tensor.getShape(),
                                       tensor.getElementType(), enc)
               : t;
  }

  void region(Region &region) {
    region.walk([&](Operation *op) {
      for (Region &r : op->getRegions())
        for (Block &block : r)
          for (BlockArgument arg : block.getArguments())
            arg.setType(type(arg.getType(), op));
      for (OpResult result : op->getResults())
        result.setType(type(result.getType(), op));
      // Dense constants carry their type.
      for (NamedAttribute attr : op->getAttrs())
        if (auto dense = dyn_cast<DenseElementsAttr>(attr.getValue())) {
          Type t = type(dense.getType(), op);
          if (t != dense.getType())
            op->setAttr(attr.getName(), dense.reshape(cast<ShapedType>(t)));
        }
    });
  }
};

/// Clones into `region` the side-effect-free ops computing the tensors (and
/// shared-memory pointers) from above that it uses; fails (after reporting) on
/// a tensor that cannot be recomputed.
LogicalResult recompute(Region &region, unsigned index) {
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(region, above);
  // Backward slice of recomputable ops, in dependency order.
  llvm::SetVector<Operation *> slice;
  std::function<LogicalResult(Value, OpOperand *)> visit =
      [&](Value v, OpOperand *use) -> LogicalResult {
    Operation *def = v.getDefiningOp();
    // Constants are recomputed, whatever their type (as Triton does).
    if (def && def->hasTrait<OpTrait::ConstantLike>() &&
        def->getNumOperands() == 0) {
      slice.insert(def);
      return success();
    }
    // A scalar pointer into shared or cluster memory (a pointer buffer's
    // base, tle.smem.base at the function's entry) is recomputed too: the
    // llir finish follows such pointers only through their own ops, not
    // through Triton's capture buffer.
    auto pointer = dyn_cast<tt::PointerType>(v.getType());
    bool sharedPointer = pointer && pointer.getAddressSpace() != 1;
    if (!sharedPointer &&
        (!isa<RankedTensorType>(v.getType()) || isCapturable(v.getType())))
      return success();
    if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def)) {
      InFlightDiagnostic diag =
          use->getOwner()->emitOpError()
          << "in partition " << index << " of tle.warp_specialize uses a "
          << (sharedPointer ? "shared-memory pointer" : "tensor")
          << " computed outside it";
      if (def)
        diag << " by '" << def->getName()
             << "', which has memory effects; compute it inside the "
                "partition or send it through a tle.pipe";
      else
        diag << " (a block argument); compute it inside the partition or "
                "send it through a tle.pipe";
      if (def)
        diag.attachNote(def->getLoc()) << "computed here";
      return failure();
    }
    if (slice.contains(def))
      return success();
    for (OpOperand &operand : def->getOpOperands())
      if (failed(visit(operand.get(), &operand)))
        return failure();
    slice.insert(def);
    return success();
  };
  for (Value v : above)
    for (OpOperand &use : v.getUses())
      if (region.isAncestor(use.getOwner()->getParentRegion()))
        if (failed(visit(v, &use)))
          return failure();
  if (slice.empty())
    return success();
  Block &entry = region.front();
  OpBuilder b(&entry, entry.begin());
  IRMapping map;
  for (Operation *op : slice)
    b.clone(*op, map);
  for (Operation *op : slice)
    for (Value result : op->getResults())
      replaceAllUsesInRegionWith(result, map.lookup(result), region);
  return success();
}

LogicalResult lower(WarpSpecializeOp ws, unsigned moduleWarps) {
  if (ws->getParentOfType<WarpSpecializeOp>())
    return ws.emitOpError("nested tle.warp_specialize is not supported");
  // Partitions synchronize through named barriers and mbarriers (sm_80);
  // per-partition register budgets are Hopper's setmaxnreg, which LLVM
  // cannot select for older targets.
  if (failed(target::require(ws, 80, "warp specialization")))
    return failure();
  if (ws.getPartitionNumRegsAttr() &&
      failed(target::require(ws, 90,
                             "partition_num_regs (register reallocation with "
                             "setmaxnreg; worker_num_regs in Python)")))
    return failure();
  MutableArrayRef<Region> partitions = ws.getPartitionRegions();
  ArrayRef<int32_t> numWarps = ws.getPartitionNumWarps();
  // Explicit captures first: every partition's block arguments are replaced
  // by the captured values, and captures are recomputed below.
  for (Region &region : partitions) {
    Block &entry = region.front();
    for (auto [arg, value] :
         llvm::zip_equal(entry.getArguments(), ws.getCaptures()))
      arg.replaceAllUsesWith(value);
    entry.eraseArguments(0, entry.getNumArguments());
  }
  for (auto [index, region] : llvm::enumerate(partitions)) {
    if (failed(recompute(region, index)))
      return failure();
    if (static_cast<unsigned>(numWarps[index]) != moduleWarps) {
      Reencoder re{static_cast<unsigned>(numWarps[index])};
      re.region(region);
      if (re.failed)
        return failure();
    }
  }
  llvm::SetVector<Value> captures;
  for (auto [index, region] : llvm::enumerate(partitions)) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(region, above);
    for (Value v : above) {
      if (!isCapturable(v.getType()))
        return ws.emitOpError("partition ")
               << index << " uses a value of type " << v.getType()
               << " from above, which cannot be captured";
      captures.insert(v);
    }
  }

  OpBuilder b(ws);
  Location loc = ws.getLoc();
  SmallVector<Value> captureList(captures.begin(), captures.end());
  auto lowered = ttg::WarpSpecializeOp::create(
      b, loc, ws.getResultTypes(), captureList, ws.getPartitionNumWarpsAttr(),
      ws.getPartitionNumRegsAttr());
  lowered.getDefaultRegion().takeBody(ws.getDefaultRegion());
  Block &defaultBlock = lowered.getDefaultRegion().front();
  {
    Operation *yield = defaultBlock.getTerminator();
    OpBuilder yb(yield);
    ttg::WarpYieldOp::create(yb, yield->getLoc(), yield->getOperands());
    yield->erase();
  }
  Block *holder = b.createBlock(&lowered.getPartitionOpHolder());
  b.setInsertionPointToEnd(holder);
  OperationState state(loc,
                       ttg::WarpSpecializePartitionsOp::getOperationName());
  for (size_t i = 0; i < partitions.size(); ++i)
    state.addRegion();
  Operation *holderOp = b.create(state);
  SmallVector<Location> locs(captureList.size(), loc);
  SmallVector<Type> types;
  for (Value v : captureList)
    types.push_back(v.getType());
  for (auto [index, region] : llvm::enumerate(partitions)) {
    Region &target = holderOp->getRegion(index);
    target.takeBody(region);
    Block &entry = target.front();
    entry.addArguments(types, locs);
    for (auto [value, arg] : llvm::zip_equal(captureList, entry.getArguments()))
      replaceAllUsesInRegionWith(value, arg, target);
    Operation *ret = entry.getTerminator();
    OpBuilder rb(ret);
    ttg::WarpReturnOp::create(rb, ret->getLoc());
    ret->erase();
  }
  ws.replaceAllUsesWith(lowered->getResults());
  ws.erase();
  return success();
}

struct LowerWarpSpecializePass
    : public tle::impl::TLELowerWarpSpecializeBase<LowerWarpSpecializePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned warps = local_memory::numWarps(module);
    SmallVector<WarpSpecializeOp> ops;
    module.walk([&](WarpSpecializeOp op) { ops.push_back(op); });
    for (WarpSpecializeOp op : ops)
      if (failed(lower(op, warps)))
        return signalPassFailure();
  }
};
} // namespace
