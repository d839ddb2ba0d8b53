//===- LowerAsyncLoads.cpp - tle.async_load -> cp.async --------------------===//
//
// Two passes (include/TLE/Conversion/Passes.td):
//
// - triton-tle-lower-async-loads (TTIR, before Triton's pipeliner):
//   tle.async_load -> tt.load {tle.async[, tt.latency = S - 1]}, so that
//   Triton's pipeliner turns loads in loops into multi-buffered cp.async.
// - triton-tle-async-copy-loads (TTGIR, after Triton's pipeliner): every
//   tt.load {tle.async} still synchronous -> local_alloc + async copy +
//   commit here, wait + local_load before the first use.
//
//===----------------------------------------------------------------------===//
#include "AsyncCopy.h"
#include "TargetCheck.h"

#include "TLE/Conversion/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Support/MemoryEffects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERASYNCLOADS
#define GEN_PASS_DEF_TLEASYNCCOPYLOADS
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {
constexpr llvm::StringLiteral kAsyncAttr = "tle.async";
using interop::kLatencyAttr;
using interop::kNumStagesAttr;

//===----------------------------------------------------------------------===//
// triton-tle-lower-async-loads
//===----------------------------------------------------------------------===//

/// The scf.for whose body directly holds `op`, when no loop is nested in it
/// (Triton pipelines innermost loops).
scf::ForOp innermostLoopOf(Operation *op) {
  auto forOp = dyn_cast_or_null<scf::ForOp>(op->getParentOp());
  if (!forOp)
    return {};
  bool nested = false;
  forOp.getBody()->walk([&](LoopLikeOpInterface) {
    nested = true;
    return WalkResult::interrupt();
  });
  return nested ? scf::ForOp() : forOp;
}

struct LowerAsyncLoadsPass
    : public tle::impl::TLELowerAsyncLoadsBase<LowerAsyncLoadsPass> {
  using TLELowerAsyncLoadsBase::TLELowerAsyncLoadsBase;

  void runOnOperation() override {
    SmallVector<AsyncLoadOp> ops;
    getOperation()->walk([&](AsyncLoadOp op) { ops.push_back(op); });
    for (AsyncLoadOp op : ops) {
      OpBuilder b(op);
      auto load =
          tt::LoadOp::create(b, op.getLoc(), op.getResult().getType(),
                             op.getPtr(), op.getMask(), op.getOther(),
                             /*boundaryCheck=*/ArrayRef<int32_t>{},
                             /*padding=*/nullptr, tt::CacheModifier::NONE,
                             tt::EvictionPolicy::NORMAL,
                             /*isVolatile=*/false);
      load->setAttr(kAsyncAttr, b.getUnitAttr());
      if (numStages > 0) {
        if (scf::ForOp loop = innermostLoopOf(op)) {
          int stages = numStages;
          if (auto attr = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr))
            stages = attr.getInt();
          if (stages > 1)
            load->setAttr(kLatencyAttr, b.getI32IntegerAttr(stages - 1));
        }
      }
      op.getResult().replaceAllUsesWith(load.getResult());
      op.erase();
    }
  }
};

//===----------------------------------------------------------------------===//
// triton-tle-async-copy-loads
//===----------------------------------------------------------------------===//

/// Where the wait goes: the first op after `load` in its block that uses the
/// result (itself or through an op nested in it) or may write memory; the
/// block's terminator (or end) otherwise.
Operation *waitPoint(tt::LoadOp load) {
  Block *block = load->getBlock();
  llvm::SmallPtrSet<Operation *, 8> users;
  for (Operation *user : load.getResult().getUsers())
    if (Operation *ancestor = block->findAncestorOpInBlock(*user))
      users.insert(ancestor);
  for (Operation *op = load->getNextNode(); op; op = op->getNextNode())
    if (users.contains(op) || mayWriteMemory(op, /*countAllocate=*/false) ||
        op->hasTrait<OpTrait::IsTerminator>())
      return op;
  return nullptr;
}

/// `encoding` with at most kMaxCopyBytes contiguous bytes per thread.
ttg::BlockedEncodingAttr clipToCopyWidth(ttg::BlockedEncodingAttr encoding,
                                         unsigned bytes) {
  SmallVector<unsigned> sizePerThread(encoding.getSizePerThread());
  unsigned fastest = encoding.getOrder().front();
  unsigned limit = std::max(1u, async_copy::kMaxCopyBytes / bytes);
  if (sizePerThread[fastest] <= limit)
    return encoding;
  sizePerThread[fastest] = limit;
  return ttg::BlockedEncodingAttr::get(
      encoding.getContext(), sizePerThread, encoding.getThreadsPerWarp(),
      encoding.getWarpsPerCTA(), encoding.getOrder(), encoding.getCGALayout());
}

Value convertTo(OpBuilder &b, Location loc, Value value, Attribute encoding) {
  if (!value)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getEncoding() == encoding)
    return value;
  return ttg::ConvertLayoutOp::create(
      b, loc,
      RankedTensorType::get(type.getShape(), type.getElementType(), encoding),
      value);
}

/// Rewrites `load` to cp.async; false when it stays a synchronous load.
bool lowerToAsyncCopy(tt::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getResult().getType());
  auto ptrType = dyn_cast<RankedTensorType>(load.getPtr().getType());
  if (!type || !ptrType)
    return false;
  auto pointer = dyn_cast<tt::PointerType>(ptrType.getElementType());
  Type element = type.getElementType();
  if (!pointer || pointer.getAddressSpace() != 1 || !element.isIntOrFloat())
    return false;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 32 || bits % 8)
    return false;
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(type.getEncoding());
  if (!blocked)
    return false;
  // The destination is a memdesc of the tensor's shape: dimensions positive.
  if (llvm::any_of(type.getShape(), [](int64_t size) { return size <= 0; }))
    return false;
  if (!async_copy::isPlainLoad(load))
    return false;

  MLIRContext *ctx = load.getContext();
  Location loc = load.getLoc();
  OpBuilder b(load);
  auto shared = ttg::SwizzledSharedEncodingAttr::get(
      ctx, 1, 1, 1, blocked.getOrder(), blocked.getCGALayout());
  auto memdesc = ttg::MemDescType::get(type.getShape(), element, shared,
                                       ttg::SharedMemorySpaceAttr::get(ctx),
                                       /*mutableMemory=*/true);
  Value buffer =
      ttg::LocalAllocOp::create(b, loc, memdesc, Value(), IntegerAttr());
  ttg::BlockedEncodingAttr copyLayout = clipToCopyWidth(blocked, bits / 8);
  Value ptr = convertTo(b, loc, load.getPtr(), copyLayout);
  Value mask = convertTo(b, loc, load.getMask(), copyLayout);
  Value other = convertTo(b, loc, load.getOther(), copyLayout);
  Value token = ttg::AsyncCopyGlobalToLocalOp::create(
      b, loc, ptr, buffer, mask, other, ttg::CacheModifier::NONE,
      ttg::EvictionPolicy::NORMAL);
  Value group = ttg::AsyncCommitGroupOp::create(b, loc, ValueRange{token});

  Operation *point = waitPoint(load);
  if (point)
    b.setInsertionPoint(point);
  else
    b.setInsertionPointToEnd(load->getBlock());
  Value ready = ttg::AsyncWaitOp::create(b, loc, ValueRange{group},
                                         b.getI32IntegerAttr(0));
  if (!load.getResult().use_empty()) {
    Value value = ttg::LocalLoadOp::create(b, loc, type, buffer, ready);
    if (load.getOther() && !async_copy::isZeroFill(load.getOther()))
      value = arith::SelectOp::create(b, loc, load.getMask(), value,
                                      load.getOther());
    load.getResult().replaceAllUsesWith(value);
  }
  load->erase();
  return true;
}

struct AsyncCopyLoadsPass
    : public tle::impl::TLEAsyncCopyLoadsBase<AsyncCopyLoadsPass> {
  void runOnOperation() override {
    SmallVector<tt::LoadOp> loads;
    getOperation()->walk([&](tt::LoadOp load) {
      if (load->hasAttr(kAsyncAttr))
        loads.push_back(load);
    });
    // cp.async (and its wait-group) is sm_80's: LLVM cannot select it for
    // older targets.
    bool ok = true;
    for (tt::LoadOp load : loads)
      ok &= succeeded(target::require(
          load, 80, "tle.load(is_async=True) (a cp.async copy)"));
    if (!ok)
      return signalPassFailure();
    for (tt::LoadOp load : loads) {
      load->removeAttr(kAsyncAttr);
      load->removeAttr(kLatencyAttr);
      lowerToAsyncCopy(load);
    }
  }
};
} // namespace
