//===- LowerWgmma.cpp - explicit asynchronous warpgroup MMA ---------------===//
//
// Pass `triton-tle-lower-wgmma` (include/TLE/Conversion/Passes.td,
// docs/barriers.md): tle.wgmma -> ttng.warp_group_dot {isAsync = true},
// tle.wgmma_wait -> ttng.warp_group_dot_wait, tle.wgmma_shared_operand_fence
// -> ttng.fence_async_shared.
//
// An accumulator in flight lives in registers in the wgmma layout
// (`#ttg.nvidia_mma` version 3): no layout conversion may read it before
// its wait. The pass therefore retypes the *accumulator web* -- the results
// of tle.wgmma and tle.wgmma_wait and the scf.for / scf.if values they flow
// through (iter_args, yields, results) -- to that layout as a whole, and
// converts only where a value enters the web (the initial accumulator) or
// leaves it (a use by any other op: the user waits with pendings 0 first).
//
//===----------------------------------------------------------------------===//
#include "LocalMemory.h"
#include "TLE/Conversion/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "TargetCheck.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERWGMMA
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

/// The NVMMA layout wgmma reads a row-major tile in: the widest swizzle a
/// contiguous row fills (the last dimension, or the first when
/// `transposed`: the tile stored column-major, as 8-bit B operands are).
ttg::NVMMASharedEncodingAttr
wgmmaOperandLayout(MLIRContext *ctx, ttg::MemDescType type, bool transposed) {
  unsigned bits = type.getElementTypeBitWidth();
  int64_t rowBytes =
      (transposed ? type.getShape().front() : type.getShape().back()) * bits /
      8;
  unsigned swizzle = rowBytes >= 128  ? 128
                     : rowBytes >= 64 ? 64
                     : rowBytes >= 32 ? 32
                                      : 0;
  return ttg::NVMMASharedEncodingAttr::get(ctx, swizzle, transposed,
                                           /*elementBitWidth=*/bits,
                                           /*fp4Padded=*/false, /*rank=*/2,
                                           ArrayAttr());
}

bool isEightBit(Type t) { return t.getIntOrFloatBitWidth() == 8; }

struct LowerWgmmaPass
    : public mlir::tle::impl::TLELowerWgmmaBase<LowerWgmmaPass> {
  ModuleOp module;

  void runOnOperation() override {
    module = getOperation();
    SmallVector<WgmmaOp> mmas;
    SmallVector<WgmmaWaitOp> waits;
    SmallVector<WgmmaSharedOperandFenceOp> fences;
    SmallVector<AllocAliasOp> aliases;
    SmallVector<MemDescWgmmaViewOp> views;
    module.walk([&](Operation *op) {
      if (auto mma = dyn_cast<WgmmaOp>(op))
        mmas.push_back(mma);
      else if (auto wait = dyn_cast<WgmmaWaitOp>(op))
        waits.push_back(wait);
      else if (auto fence = dyn_cast<WgmmaSharedOperandFenceOp>(op))
        fences.push_back(fence);
      else if (auto alias = dyn_cast<AllocAliasOp>(op))
        aliases.push_back(alias);
      else if (auto view = dyn_cast<MemDescWgmmaViewOp>(op))
        views.push_back(view);
    });
    bool ok = true;
    for (AllocAliasOp alias : aliases)
      if (failed(lowerAlias(alias)))
        ok = false;
    for (MemDescWgmmaViewOp view : views)
      if (failed(lowerView(view)))
        ok = false;
    for (WgmmaSharedOperandFenceOp fence : fences) {
      if (failed(target::require(fence, 90,
                                 "tle.gpu.wgmma_shared_operand_fence "
                                 "(fence.proxy.async)"))) {
        ok = false;
        continue;
      }
      OpBuilder b(fence);
      ttng::FenceAsyncSharedOp::create(b, fence.getLoc(), /*bCluster=*/false);
      fence.erase();
    }
    if (mmas.empty() && waits.empty()) {
      if (!ok)
        signalPassFailure();
      return;
    }
    // The layout of every accumulator: one per M x N shape.
    llvm::DenseMap<Operation *, RankedTensorType> mmaType;
    for (WgmmaOp mma : mmas) {
      if (failed(prepare(mma, mmaType)))
        ok = false;
    }
    for (WgmmaWaitOp wait : waits)
      if (failed(target::require(wait, 90, "tle.gpu.wgmma_wait")))
        ok = false;
    if (!ok)
      return signalPassFailure();
    if (failed(retypeWeb(mmas, waits, mmaType)))
      return signalPassFailure();
    for (WgmmaOp mma : mmas) {
      OpBuilder b(mma);
      auto accType = cast<RankedTensorType>(mma.getAcc().getType());
      Value a = mma.getA();
      if (auto aType = dyn_cast<RankedTensorType>(a.getType())) {
        // A register operand: the wgmma's A fragment layout, derived from
        // the accumulator's (kWidth: 32 bits of K per register).
        auto operand = ttg::DotOperandEncodingAttr::get(
            mma.getContext(), 0, accType.getEncoding(),
            32 / aType.getElementTypeBitWidth());
        a = ttg::ConvertLayoutOp::create(
            b, mma.getLoc(),
            RankedTensorType::get(aType.getShape(), aType.getElementType(),
                                  operand),
            a);
      }
      bool eightBit = isEightBit(
          cast<ttg::MemDescType>(mma.getB().getType()).getElementType());
      // FlagTree's default for 8-bit operands, as Triton's: 2^30 (accumulate
      // in the wgmma's own precision throughout).
      int32_t imprecise =
          eightBit ? mma.getMaxNumImpreciseAcc().value_or(1 << 30) : 0;
      auto dot = ttng::WarpGroupDotOp::create(
          b, mma.getLoc(), accType, a, mma.getB(), mma.getAcc(), Value(),
          /*inputPrecision=*/2, /*maxNumImpreciseAcc=*/imprecise,
          /*isAsync=*/true);
      mma.getResult().replaceAllUsesWith(dot.getResult());
      mma.erase();
    }
    for (WgmmaWaitOp wait : waits) {
      OpBuilder b(wait);
      auto w = ttng::WarpGroupDotWaitOp::create(
          b, wait.getLoc(), wait.getValues(), wait.getPendings());
      wait.replaceAllUsesWith(w.getResults());
      wait.erase();
    }
  }

  /// alloc(alias=): a ttg.memdesc_reinterpret of the source buffer.
  LogicalResult lowerAlias(AllocAliasOp alias) {
    auto pointers = [](Value v) {
      return llvm::any_of(v.getUsers(),
                          [](Operation *u) { return isa<LocalPointersOp>(u); });
    };
    auto src = alias.getSrc().getDefiningOp<AllocOp>();
    if ((src && src.isPointerBuffer()) || pointers(alias.getSrc()) ||
        pointers(alias.getResult()))
      return alias.emitOpError(
          "a buffer accessed through local pointers cannot be aliased (nor "
          "the alias accessed through them): pointer buffers live in TLE's "
          "own region");
    OpBuilder b(alias);
    Value view = ttg::MemDescReinterpretOp::create(
        b, alias.getLoc(), alias.getResult().getType(), alias.getSrc());
    alias.getResult().replaceAllUsesWith(view);
    alias.erase();
    return success();
  }

  /// memdesc_wgmma_view: the buffer itself, or a ttg.memdesc_trans of it
  /// in its NVMMA layout.
  LogicalResult lowerView(MemDescWgmmaViewOp view) {
    for (OpOperand &use : view.getResult().getUses()) {
      auto mma = dyn_cast<WgmmaOp>(use.getOwner());
      if (!mma || &use == &mma.getAccMutable())
        return view.emitOpError("is used by ")
               << use.getOwner()->getName()
               << "; a wgmma view may only be a tle.gpu.wgmma operand";
    }
    Value src = view.getSrc();
    if (failed(layOut(view, src, /*transposed=*/false)))
      return failure();
    ArrayRef<int32_t> order = view.getOrder();
    Value result = src;
    if (order[0] == 1) {
      auto type = cast<ttg::MemDescType>(src.getType());
      auto enc = cast<ttg::NVMMASharedEncodingAttr>(type.getEncoding());
      auto transposed = enc.withTransposed(!enc.getTransposed());
      auto resultType = ttg::MemDescType::get(
          {type.getShape()[1], type.getShape()[0]}, type.getElementType(),
          transposed, type.getMemorySpace(), type.getMutableMemory());
      OpBuilder b(view);
      result = ttg::MemDescTransOp::create(b, view.getLoc(), resultType, src,
                                           b.getDenseI32ArrayAttr({1, 0}));
    }
    view.getResult().replaceAllUsesWith(result);
    view.erase();
    return success();
  }

  /// Gives the buffer `operand` (a tle.alloc or a slot of one) an NVMMA
  /// layout wgmma reads, stored `transposed` or not, unless it has one (a
  /// TMA copy's, say).
  LogicalResult layOut(Operation *op, Value operand, bool transposed) {
    auto type = cast<ttg::MemDescType>(operand.getType());
    if (isa<ttg::NVMMASharedEncodingAttr>(type.getEncoding()))
      return success();
    AllocOp alloc = local_memory::bufferAlloc(operand);
    auto plain = dyn_cast<ttg::SwizzledSharedEncodingAttr>(type.getEncoding());
    if (!alloc || alloc.isPointerBuffer() || !plain ||
        plain.getMaxPhase() != 1 || plain.getVec() != 1 || type.getRank() != 2)
      return op->emitOpError("operand of type ")
             << type << " cannot take a wgmma layout (it must be a "
             << "tle.gpu.alloc buffer, or a slot of one, without local "
             << "pointers)";
    local_memory::setBufferEncoding(
        alloc, wgmmaOperandLayout(op->getContext(), type, transposed));
    return success();
  }

  /// wgmma reads 8-bit operands K-major only: A row-major (`M x K`, K
  /// contiguous), B column-major (`K x N` stored `N x K`).
  LogicalResult checkEightBitMajor(WgmmaOp mma) {
    auto b = cast<ttg::MemDescType>(mma.getB().getType());
    if (!isEightBit(b.getElementType()))
      return success();
    if (auto a = dyn_cast<ttg::MemDescType>(mma.getA().getType()))
      if (cast<ttg::NVMMASharedEncodingAttr>(a.getEncoding()).getTransposed())
        return mma.emitOpError(
            "reads an 8-bit a operand stored K x M (a transposed view); "
            "wgmma reads 8-bit operands K-major only: store a as M x K");
    if (!cast<ttg::NVMMASharedEncodingAttr>(b.getEncoding()).getTransposed())
      return mma.emitOpError(
          "reads an 8-bit b operand stored K x N with N contiguous (a TMA "
          "copy's layout, say); wgmma reads 8-bit operands K-major only: "
          "load b as N x K and pass tle.gpu.memdesc_wgmma_view(b)");
    return success();
  }

  /// Checks the target and the thread group, lays the operand buffers out
  /// for wgmma and picks the accumulator's layout.
  LogicalResult
  prepare(WgmmaOp mma, llvm::DenseMap<Operation *, RankedTensorType> &mmaType) {
    if (failed(target::require(mma, 90, "tle.gpu.wgmma (wgmma.mma_async)")))
      return failure();
    unsigned warps = local_memory::groupWarps(mma, module);
    unsigned kernelWarps = local_memory::numWarps(module);
    if (warps != kernelWarps || warps % 4 != 0)
      return mma.emitOpError("runs on ")
             << warps << " warps; a wgmma needs whole warpgroups, in the "
             << "default partition or a partition of the kernel's "
             << kernelWarps << " warps (a multiple of 4)";
    MLIRContext *ctx = mma.getContext();
    auto bType = cast<ttg::MemDescType>(mma.getB().getType());
    bool eightBit = isEightBit(bType.getElementType());
    bool registerA = isa<RankedTensorType>(mma.getA().getType());
    if ((!registerA && failed(layOut(mma, mma.getA(), /*transposed=*/false))) ||
        failed(layOut(mma, mma.getB(), /*transposed=*/eightBit)) ||
        failed(checkEightBitMajor(mma)))
      return failure();
    auto acc = mma.getAcc().getType();
    int64_t m = acc.getShape()[0], n = acc.getShape()[1];
    // One warpgroup per 64 rows; the warpgroups left over split N.
    unsigned groups = warps / 4;
    unsigned rowGroups = std::min<unsigned>(groups, m / 64);
    while (groups % rowGroups || m % (64 * rowGroups))
      --rowGroups;
    unsigned colGroups = groups / rowGroups;
    if (registerA && colGroups != 1)
      return mma.emitOpError("a register a operand needs one warpgroup per 64 "
                             "rows of a (each warpgroup holds its own rows); "
                             "M = ")
             << m << " cannot be split over " << groups << " warpgroups";
    if (n % (8 * colGroups))
      return mma.emitOpError("an ")
             << m << " x " << n << " accumulator cannot be split over "
             << groups << " warpgroups (" << rowGroups << " x " << colGroups
             << ")";
    int64_t nPerGroup = n / colGroups;
    int64_t instrN = 8;
    for (int64_t cand = std::min<int64_t>(256, nPerGroup); cand >= 8; cand -= 8)
      if (nPerGroup % cand == 0) {
        instrN = cand;
        break;
      }
    SmallVector<unsigned> warpsPerCTA{4 * rowGroups, colGroups};
    auto layout = ttg::NvidiaMmaEncodingAttr::get(
        ctx, 3, 0, warpsPerCTA, ArrayAttr(),
        ArrayRef<unsigned>{16, static_cast<unsigned>(instrN),
                           eightBit ? 32u : 16u});
    mmaType[mma] =
        RankedTensorType::get(acc.getShape(), acc.getElementType(), layout);
    return success();
  }

  /// Retypes the accumulator web (see the file comment) and converts where
  /// values enter or leave it.
  LogicalResult
  retypeWeb(ArrayRef<WgmmaOp> mmas, ArrayRef<WgmmaWaitOp> waits,
            llvm::DenseMap<Operation *, RankedTensorType> &mmaType) {
    llvm::SetVector<Value> web;
    llvm::DenseMap<Value, RankedTensorType> target;
    SmallVector<Value> work;
    auto add = [&](Value v, RankedTensorType t) -> LogicalResult {
      auto it = target.find(v);
      if (it != target.end()) {
        if (it->second != t) {
          (v.getDefiningOp() ? v.getDefiningOp()
                             : v.getParentBlock()->getParentOp())
              ->emitOpError(
                  "carries two wgmma accumulators of different layouts");
          return failure();
        }
        return success();
      }
      target[v] = t;
      web.insert(v);
      work.push_back(v);
      return success();
    };
    for (WgmmaOp mma : mmas)
      if (failed(add(mma.getResult(), mmaType[mma])))
        return failure();
    // A wait's result i takes its operand i's layout; operands outside the
    // web (a wait on a value of no wgmma) are left in their own layout.
    auto propagateWaits = [&]() -> LogicalResult {
      for (WgmmaWaitOp wait : waits)
        for (auto [in, out] : llvm::zip(wait.getValues(), wait.getResults()))
          if (target.count(in) && failed(add(out, target[in])))
            return failure();
      return success();
    };
    do {
      if (failed(propagateWaits()))
        return failure();
      while (!work.empty()) {
        Value v = work.pop_back_val();
        RankedTensorType t = target[v];
        for (OpOperand &use : v.getUses()) {
          Operation *user = use.getOwner();
          if (auto wait = dyn_cast<WgmmaWaitOp>(user)) {
            if (failed(add(wait.getResults()[use.getOperandNumber()], t)))
              return failure();
          } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
            Operation *parent = yield->getParentOp();
            unsigned i = use.getOperandNumber();
            if (auto loop = dyn_cast<scf::ForOp>(parent)) {
              if (failed(add(loop.getResult(i), t)) ||
                  failed(add(loop.getRegionIterArg(i), t)))
                return failure();
            } else if (auto branch = dyn_cast<scf::IfOp>(parent)) {
              if (failed(add(branch.getResult(i), t)))
                return failure();
            }
          }
        }
        // A loop-carried accumulator used as a wgmma acc through its iter_arg
        // is found from the yield; nothing flows backwards otherwise.
      }
      if (failed(propagateWaits()))
        return failure();
    } while (!work.empty());

    // Enter / leave: conversions at the web's edges, then the new types.
    for (Value v : web) {
      RankedTensorType t = target[v];
      auto original = cast<RankedTensorType>(v.getType());
      if (original == t)
        continue;
      // Uses by ops outside the web get the value in its original layout.
      for (OpOperand &use : llvm::make_early_inc_range(v.getUses())) {
        Operation *user = use.getOwner();
        if (consumesInWeb(use, target))
          continue;
        OpBuilder b(user);
        auto cvt = ttg::ConvertLayoutOp::create(b, user->getLoc(), original, v);
        use.set(cvt.getResult());
      }
      v.setType(t);
    }
    // Operands that feed the web from outside it: converted into the layout.
    auto enter = [&](OpOperand &operand, RankedTensorType t) {
      Value in = operand.get();
      if (in.getType() == t)
        return;
      Operation *at = operand.getOwner();
      OpBuilder b(at);
      operand.set(ttg::ConvertLayoutOp::create(b, at->getLoc(), t, in));
    };
    for (WgmmaOp mma : mmas)
      enter(mma.getAccMutable(), mmaType[mma]);
    for (WgmmaWaitOp wait : waits)
      for (auto [operand, out] :
           llvm::zip(wait.getValuesMutable(), wait.getResults()))
        if (target.count(out))
          enter(operand, target[out]);
    for (Value v : web) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg)
        continue;
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        continue;
      unsigned i = arg.getArgNumber() - 1;
      enter(loop.getInitArgsMutable()[i], target[v]);
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      enter(yield->getOpOperand(i), target[v]);
    }
    for (Value v : web) {
      auto result = dyn_cast<OpResult>(v);
      auto branch =
          result ? dyn_cast<scf::IfOp>(result.getOwner()) : scf::IfOp();
      if (!branch)
        continue;
      unsigned i = result.getResultNumber();
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          enter(region->front().getTerminator()->getOpOperand(i), target[v]);
    }
    return success();
  }

  /// Whether `use` keeps the value in the wgmma layout: a wgmma's acc, a
  /// wait, or a yield into a loop-carried / if result of the web.
  bool consumesInWeb(OpOperand &use,
                     const llvm::DenseMap<Value, RankedTensorType> &target) {
    Operation *user = use.getOwner();
    if (auto mma = dyn_cast<WgmmaOp>(user))
      return &use == &mma.getAccMutable();
    if (auto wait = dyn_cast<WgmmaWaitOp>(user))
      return target.count(wait.getResults()[use.getOperandNumber()]);
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      if (isa<scf::ForOp, scf::IfOp>(parent))
        return target.count(parent->getResult(use.getOperandNumber()));
    }
    return false;
  }
};

} // namespace
