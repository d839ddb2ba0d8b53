//===- LowerBarriers.cpp - explicit barriers and TMA loads on a barrier ---===//
//
// Pass `triton-tle-lower-barriers` (include/TLE/Conversion/Passes.td,
// docs/barriers.md): the ops of TLEBarrierOps.td become TritonNVIDIAGPU's
// mbarrier and TMA ops and inline `bar.sync` / `bar.arrive`.
//
// - tle.barrier_alloc: `ttg.local_alloc` of the `Nx1xi64` array, one
//   `ttng.init_barrier` per barrier, then `gpu.barrier` so that every
//   thread sees the initialized barriers.
// - tle.barrier_arrive: `gpu.barrier` (when the thread group has more than
//   one warp: the group's work before the arrive is done), then
//   `ttng.barrier_expect` (arrive + expect_tx, with expect_tx) and / or
//   `ttng.arrive_barrier` (count arrivals), each from one thread.
// - tle.barrier_wait: `ttng.wait_barrier` on the phase's parity (flipped for
//   a barrier allocated `ready`).
// - tle.named_barrier_sync / _arrive: `bar.sync id, n;` / `bar.arrive id, n;`
//   as non-pure `tt.elementwise_inline_asm`.
// - tle.async_tma_load: TritonGPU's expansion of the descriptor load whose
//   value it takes is replaced by `ttng.barrier_expect` of the block's bytes
//   and `ttng.async_tma_copy_global_to_local` into the buffer on the barrier.
//
//===----------------------------------------------------------------------===//
#include "AsyncCopy.h"
#include "LayoutChain.h"
#include "LocalMemory.h"
#include "TLE/Conversion/Passes.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "TargetCheck.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERBARRIERS
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

/// `barriers[index]` as the `1xi64` view Triton's barrier ops take.
Value barrierAt(OpBuilder &b, Location loc, Value barriers, Value index) {
  auto type = cast<ttg::MemDescType>(barriers.getType());
  auto view = ttg::MemDescType::get(
      type.getShape().drop_front(), type.getElementType(), type.getEncoding(),
      type.getMemorySpace(), type.getMutableMemory());
  return ttg::MemDescIndexOp::create(b, loc, view, barriers, index);
}

/// The barrier_alloc behind `barriers`, or an error on `user`.
FailureOr<BarrierAllocOp> allocOf(Operation *user, Value barriers) {
  if (auto alloc = barriers.getDefiningOp<BarrierAllocOp>())
    return alloc;
  user->emitOpError("takes barriers that do not come from tle.barrier_alloc "
                    "(tle.gpu.alloc_barriers) in this function");
  return failure();
}

// The markers of a non-blocking test (lowerTryWait), resolved at the llir
// finish (TLE/Target/LLVMIR/TryWait.h names the same strings).
constexpr const char *kTryWaitBegin = "tle.barrier_try_wait.begin;";
constexpr const char *kTryWaitEnd = "tle.barrier_try_wait.end;";
// The marker of a TMA load with an L2 cache hint (lowerCacheHint), resolved
// at the llir finish (TLE/Target/LLVMIR/TmaCacheHints.h names the strings).
constexpr const char *kTmaHintPrefix = "tle.tma_cache_hint.";

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// The parity a wait on `phase` of a barrier of `alloc` waits for: the
/// phase's low bit, flipped for barriers that start READY (their phase 0
/// has completed at init).
Value waitParity(OpBuilder &b, Location loc, Value phase,
                 BarrierAllocOp alloc) {
  Value parity = arith::AndIOp::create(b, loc, phase, i32(b, loc, 1));
  if (alloc.getReady())
    parity = arith::XOrIOp::create(b, loc, parity, i32(b, loc, 1));
  return parity;
}

void inlineAsm(OpBuilder &b, Location loc, std::string ptx) {
  // One dummy result: every Triton lowering of the op expects one.
  tt::ElementwiseInlineAsmOp::create(
      b, loc, TypeRange{b.getI32Type()}, "mov.u32 $0, 0;\n" + ptx, "=r",
      /*pure=*/false, /*packed_element=*/1, ValueRange{});
}

/// Gives `buffer` (a tle.alloc, or a slot of one) the shared encoding `enc`
/// the TMA unit reads or writes, unless it has it already.
LogicalResult takeEncoding(Operation *op, Value buffer, Attribute enc) {
  auto bufType = cast<ttg::MemDescType>(buffer.getType());
  if (bufType.getEncoding() == enc)
    return success();
  AllocOp alloc = local_memory::bufferAlloc(buffer);
  auto plain = dyn_cast<ttg::SwizzledSharedEncodingAttr>(bufType.getEncoding());
  if (!alloc || alloc.isPointerBuffer() || !plain || plain.getMaxPhase() != 1 ||
      plain.getVec() != 1)
    return op->emitOpError("buffer of type ")
           << bufType << " cannot take the descriptor's TMA layout " << enc
           << " (it must be a tle.gpu.alloc buffer, or a slot of one, "
              "without local pointers, laid out by no other TMA copy or "
              "wgmma)";
  local_memory::setBufferEncoding(alloc, enc);
  return success();
}

/// Erases each op of `ops` once nothing uses it. An op listed twice (a
/// barrier's user list names an op once per operand) is erased once.
void eraseUnused(SmallVector<Operation *> &ops) {
  llvm::SetVector<Operation *> pending(ops.begin(), ops.end());
  for (bool progress = true; progress && !pending.empty();) {
    progress = false;
    for (Operation *op : SmallVector<Operation *>(pending.getArrayRef())) {
      if (!op->use_empty())
        continue;
      pending.remove(op);
      op->erase();
      progress = true;
    }
  }
  ops.assign(pending.begin(), pending.end());
}

/// The tt.load behind a cp.async copy's value (through layout conversions)
/// and whether its layout and uses let it be one: only the copy uses it, and
/// each thread holds a run of 4 to 16 bytes.
struct CopiedLoad {
  tt::LoadOp load;
  SmallVector<Operation *> converts;
  unsigned bits = 0;
  bool fits = false;
};

FailureOr<CopiedLoad> copiedLoad(Operation *op, Value value) {
  CopiedLoad c;
  bool single;
  value = conversion::throughConverts(value, c.converts, &single);
  c.load = value.getDefiningOp<tt::LoadOp>();
  if (!c.load)
    return op->emitOpError("value is not a tt.load of global pointers");
  auto type = cast<RankedTensorType>(c.load.getType());
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(type.getEncoding());
  c.bits = type.getElementType().getIntOrFloatBitWidth();
  unsigned bytes =
      blocked
          ? blocked.getSizePerThread()[blocked.getOrder().front()] * c.bits / 8
          : 0;
  c.fits = single && c.load->hasOneUse() && blocked && c.bits % 8 == 0 &&
           bytes >= async_copy::kMinCopyBytes &&
           bytes <= async_copy::kMaxCopyBytes;
  return c;
}

/// Drops `op` (the copy now issued by cp.async) and the load behind it.
void eraseCopied(Operation *op, CopiedLoad &c) {
  op->dropAllReferences();
  SmallVector<Operation *> dead(c.converts);
  dead.push_back(c.load);
  eraseUnused(dead);
}

struct LowerBarriersPass
    : public mlir::tle::impl::TLELowerBarriersBase<LowerBarriersPass> {
  ModuleOp module;

  void runOnOperation() override {
    module = getOperation();
    // Triton's warp specialization takes named barriers 0 (the CTA), the
    // start barrier and one per worker partition; with a margin of one.
    int64_t reserved = 0;
    module.walk([&](WarpSpecializeOp ws) {
      reserved =
          std::max<int64_t>(reserved, ws.getPartitionNumWarps().size() + 2);
    });
    if (failed(lowerNamedArrays(reserved)))
      return signalPassFailure();
    SmallVector<Operation *> ops;
    SmallVector<BarrierAllocOp> allocs;
    module.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<BarrierAllocOp>(op))
        allocs.push_back(alloc);
      else if (isa<BarrierArriveOp, BarrierWaitOp, BarrierTryWaitOp,
                   NamedBarrierSyncOp, NamedBarrierArriveOp, AsyncTMALoadOp,
                   AsyncCopyLoadOp, AsyncTMAStoreOp, TMAStoreWaitOp,
                   AsyncCopyOp, AsyncCommitGroupOp, AsyncWaitGroupOp,
                   TensorMapFenceAcquireOp, ReinterpretTensorMapOp>(op))
        ops.push_back(op);
    });
    bool ok = true;
    // Cache hints first: they mark Triton's TMA loads, which the TMA load
    // lowering below may retarget.
    SmallVector<TMALoadCacheHintOp> hints;
    module.walk([&](TMALoadCacheHintOp hint) { hints.push_back(hint); });
    for (TMALoadCacheHintOp hint : hints)
      if (failed(lowerCacheHint(hint)))
        ok = false;
    if (!ok)
      return signalPassFailure();
    // Before anything is lowered: each explicit cp.async is committed.
    for (Operation *op : ops)
      if (auto copy = dyn_cast<AsyncCopyOp>(op);
          copy && !committedLater(copy)) {
        copy.emitOpError(
            "is never committed: tle.gpu.copy(is_async=True) into a buffer "
            "outside a pipe completes with tle.gpu.async_commit_group() and "
            "tle.gpu.async_wait_group(n), and no commit follows this copy");
        ok = false;
      }
    if (!ok)
      return signalPassFailure();
    // Uses first: a wait reads its alloc's `ready`.
    for (Operation *op : ops) {
      OpBuilder b(op);
      LogicalResult result = success();
      if (auto arrive = dyn_cast<BarrierArriveOp>(op))
        result = lowerArrive(b, arrive);
      else if (auto wait = dyn_cast<BarrierWaitOp>(op))
        result = lowerWait(b, wait);
      else if (auto test = dyn_cast<BarrierTryWaitOp>(op))
        result = lowerTryWait(b, test);
      else if (auto sync = dyn_cast<NamedBarrierSyncOp>(op))
        result = lowerNamed(b, op, "bar.sync", sync.getId(),
                            sync.getNumThreads(), reserved);
      else if (auto arr = dyn_cast<NamedBarrierArriveOp>(op))
        result = lowerNamed(b, op, "bar.arrive", arr.getId(),
                            arr.getNumThreads(), reserved);
      else if (auto load = dyn_cast<AsyncTMALoadOp>(op))
        result = lowerTmaLoad(b, load);
      else if (auto copy = dyn_cast<AsyncCopyLoadOp>(op))
        result = lowerAsyncCopy(b, copy);
      else if (auto store = dyn_cast<AsyncTMAStoreOp>(op))
        result = lowerTmaStore(store);
      else if (auto wait = dyn_cast<TMAStoreWaitOp>(op))
        ttng::AsyncTMAStoreWaitOp::create(b, wait.getLoc(), wait.getPendings());
      else if (auto copy = dyn_cast<AsyncCopyOp>(op))
        result = lowerGroupCopy(b, copy);
      else if (isa<AsyncCommitGroupOp>(op))
        ttg::AsyncCommitGroupOp::create(b, op->getLoc(), ValueRange{});
      else if (auto wait = dyn_cast<AsyncWaitGroupOp>(op))
        ttg::AsyncWaitOp::create(b, wait.getLoc(), ValueRange{},
                                 b.getI32IntegerAttr(wait.getPendings()));
      else if (isa<TensorMapFenceAcquireOp, ReinterpretTensorMapOp>(op))
        result = lowerTensorMap(b, op);
      if (failed(result))
        ok = false;
      else
        op->erase();
    }
    if (!ok)
      return signalPassFailure();
    for (BarrierAllocOp alloc : allocs)
      lowerAlloc(alloc);
  }

  /// `tle.tma_load_cache_hint %v P`: the TMA copy of TritonGPU's expansion
  /// of the descriptor load giving `%v` (a `ttg.local_load`, through layout
  /// conversions, of a scratch buffer one `ttng.async_tma_copy_global_to_local`
  /// fills) is predicated on `pred && (%m != 0)`, `%m` the marker
  /// `"tle.tma_cache_hint.P;" -> i32` that the llir finish turns into the
  /// copy's `.L2::cache_hint` (TLE/Target/LLVMIR/TmaCacheHints.h). Erases
  /// the hint.
  LogicalResult lowerCacheHint(TMALoadCacheHintOp hint) {
    if (failed(target::require(hint, 90,
                               "tle.gpu.copy(desc, ..., eviction_policy=) "
                               "(an L2 cache hint on a TMA load)")))
      return failure();
    SmallVector<Operation *> converts;
    Value value = conversion::throughConverts(hint.getValue(), converts);
    auto load = value.getDefiningOp<ttg::LocalLoadOp>();
    ttng::AsyncTMACopyGlobalToLocalOp copy;
    if (load)
      for (Operation *user : load.getSrc().getUsers())
        if (auto c = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(user);
            c && c.getResult() == load.getSrc())
          copy = c;
    if (!copy)
      return hint.emitOpError(
          "value is not TritonGPU's TMA load of a tensor descriptor (a "
          "ttg.local_load of a buffer that a "
          "ttng.async_tma_copy_global_to_local fills)");
    OpBuilder b(copy);
    Location loc = hint.getLoc();
    Value mark = tt::ElementwiseInlineAsmOp::create(
                     b, loc, TypeRange{b.getI32Type()},
                     (kTmaHintPrefix + hint.getPolicy() + ";").str(), "=r",
                     /*pure=*/false, /*packed_element=*/1, ValueRange{})
                     ->getResult(0);
    Value on = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, mark,
                                     i32(b, loc, 0));
    copy.getPredMutable().assign(
        arith::AndIOp::create(b, loc, copy.getPred(), on));
    // The hint goes, and the layout conversions Triton put before it: the
    // TMA load lowering wants the value used once.
    hint->erase();
    eraseUnused(converts);
    return success();
  }

  /// `tle.tensor_map_fence_acquire` / `tle.reinterpret_tensor_map`:
  /// Triton's `ttng.tensormap_fenceproxy_acquire` /
  /// `ttng.reinterpret_tensor_descriptor` of the map's address as an i8
  /// pointer (a `tt.bitcast` of any other).
  LogicalResult lowerTensorMap(OpBuilder &b, Operation *op) {
    if (failed(target::require(op, 90, "a TMA descriptor in global memory")))
      return failure();
    Location loc = op->getLoc();
    Value ptr = op->getOperand(0);
    auto bytes = tt::PointerType::get(b.getI8Type(), 1);
    if (ptr.getType() != bytes)
      ptr = tt::BitcastOp::create(b, loc, bytes, ptr);
    if (isa<TensorMapFenceAcquireOp>(op)) {
      ttng::TensormapFenceproxyAcquireOp::create(b, loc, ptr);
      return success();
    }
    auto map = cast<ReinterpretTensorMapOp>(op);
    map.replaceAllUsesWith(
        ttng::ReinterpretTensorDescOp::create(b, loc, map.getType(), ptr)
            .getResult());
    return success();
  }

  void lowerAlloc(BarrierAllocOp alloc) {
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    auto type = alloc.getResult().getType();
    Value array =
        ttg::LocalAllocOp::create(b, loc, type, Value(), IntegerAttr());
    for (int64_t i = 0, n = type.getShape()[0]; i < n; ++i)
      ttng::InitBarrierOp::create(b, loc,
                                  barrierAt(b, loc, array, i32(b, loc, i)),
                                  alloc.getArriveCount());
    gpu::BarrierOp::create(b, loc);
    alloc.getResult().replaceAllUsesWith(array);
    alloc.erase();
  }

  LogicalResult lowerArrive(OpBuilder &b, BarrierArriveOp arrive) {
    if (failed(allocOf(arrive, arrive.getBarriers())))
      return failure();
    Location loc = arrive.getLoc();
    if (local_memory::groupWarps(arrive, module) > 1)
      gpu::BarrierOp::create(b, loc);
    Value bar = barrierAt(b, loc, arrive.getBarriers(), arrive.getIndex());
    int32_t count = arrive.getCount();
    if (auto tx = arrive.getExpectTx()) {
      if (failed(target::require(arrive, 90,
                                 "tle.gpu.barrier_arrive with expect_tx "
                                 "(mbarrier transaction counts)")))
        return failure();
      ttng::BarrierExpectOp::create(b, loc, bar, static_cast<int32_t>(*tx),
                                    arith::ConstantIntOp::create(b, loc, 1, 1));
      --count;
    }
    if (count > 0)
      ttng::ArriveBarrierOp::create(b, loc, bar, count, Value());
    return success();
  }

  LogicalResult lowerWait(OpBuilder &b, BarrierWaitOp wait) {
    FailureOr<BarrierAllocOp> alloc = allocOf(wait, wait.getBarriers());
    if (failed(alloc))
      return failure();
    Location loc = wait.getLoc();
    Value parity = waitParity(b, loc, wait.getPhase(), *alloc);
    Value bar = barrierAt(b, loc, wait.getBarriers(), wait.getIndex());
    ttng::WaitBarrierOp::create(b, loc, bar, parity, Value(), ValueRange{});
    return success();
  }

  /// TTGIR has no non-blocking test of a phase, and a memdesc's address
  /// reaches inline asm only in LLVM IR. So the test is a predicated
  /// `ttng.wait_barrier` between two markers that the llir finish
  /// (lib/Target/LLVMIR/TryWait.cpp) turns into one
  /// `mbarrier.try_wait.parity` on the wait's address and parity:
  ///   %begin = "tle.barrier_try_wait.begin;" -> i32
  ///   ttng.wait_barrier %bar, %parity, (%begin != 0)
  ///   %end = "tle.barrier_try_wait.end;" %begin -> i32
  ///   %result = %end != 0
  LogicalResult lowerTryWait(OpBuilder &b, BarrierTryWaitOp test) {
    FailureOr<BarrierAllocOp> alloc = allocOf(test, test.getBarriers());
    if (failed(alloc) || failed(target::require(test, 90,
                                                "tle.gpu.barrier_try_wait "
                                                "(mbarrier.try_wait.parity)")))
      return failure();
    Location loc = test.getLoc();
    Value parity = waitParity(b, loc, test.getPhase(), *alloc);
    Value bar = barrierAt(b, loc, test.getBarriers(), test.getIndex());
    Type i32Type = b.getI32Type();
    Value begin = tt::ElementwiseInlineAsmOp::create(
                      b, loc, TypeRange{i32Type}, kTryWaitBegin, "=r",
                      /*pure=*/false, /*packed_element=*/1, ValueRange{})
                      ->getResult(0);
    Value zero = i32(b, loc, 0);
    Value pred =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, begin, zero);
    ttng::WaitBarrierOp::create(b, loc, bar, parity, pred, ValueRange{});
    Value end = tt::ElementwiseInlineAsmOp::create(
                    b, loc, TypeRange{i32Type}, kTryWaitEnd, "=r,r",
                    /*pure=*/false, /*packed_element=*/1, ValueRange{begin})
                    ->getResult(0);
    Value result =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, end, zero);
    test.getResult().replaceAllUsesWith(result);
    return success();
  }

  /// FlagTree's named use of an mbarrier array: an array some
  /// `tle.barrier_wait {named}` waits on (FlagTree's barrier_wait without
  /// phaseIdx) gets consecutive named-barrier ids, free of the module's
  /// explicit ones and above Triton's (`reserved`); its waits become
  /// `tle.named_barrier_sync base + index, arrive_count` and its arrives
  /// `tle.named_barrier_arrive`. Mixing phase waits, tests or counted
  /// arrives with that is an error.
  LogicalResult lowerNamedArrays(int64_t reserved) {
    llvm::MapVector<Operation *, SmallVector<Operation *>> named;
    SmallVector<Operation *> barrierUses;
    llvm::SmallBitVector used(16);
    bool ok = true;
    module.walk([&](Operation *op) {
      if (auto wait = dyn_cast<BarrierWaitOp>(op); wait && wait.getNamed()) {
        if (auto alloc = wait.getBarriers().getDefiningOp<BarrierAllocOp>())
          named[alloc];
      }
      if (isa<BarrierWaitOp, BarrierArriveOp, BarrierTryWaitOp>(op))
        barrierUses.push_back(op);
      if (auto sync = dyn_cast<NamedBarrierSyncOp>(op))
        used.set(sync.getId());
      if (auto arrive = dyn_cast<NamedBarrierArriveOp>(op))
        used.set(arrive.getId());
    });
    if (named.empty())
      return success();
    for (Operation *op : barrierUses) {
      Value barriers = op->getOperand(0);
      auto it = named.find(barriers.getDefiningOp());
      if (it == named.end())
        continue;
      auto wait = dyn_cast<BarrierWaitOp>(op);
      auto arrive = dyn_cast<BarrierArriveOp>(op);
      if ((wait && !wait.getNamed()) || isa<BarrierTryWaitOp>(op) ||
          (arrive && (arrive.getCount() != 1 || arrive.getExpectTx()))) {
        op->emitOpError("uses as an mbarrier an array that a barrier_wait "
                        "without phaseIdx uses as named barriers (FlagTree's "
                        "rule); give every wait on it a phaseIdx, or use it "
                        "only through waits without one and plain arrives");
        ok = false;
        continue;
      }
      it->second.push_back(op);
    }
    if (!ok)
      return failure();
    for (auto &[allocOp, uses] : named) {
      auto alloc = cast<BarrierAllocOp>(allocOp);
      int64_t count = alloc.getArriveCount();
      int64_t size = alloc.getResult().getType().getShape()[0];
      if (count % 32 != 0 || count > 1024)
        return alloc.emitOpError()
               << "is used as named barriers (a barrier_wait without "
                  "phaseIdx), whose arrive_count counts threads: a multiple "
                  "of 32 up to 1024, got "
               << count;
      int64_t base = -1;
      for (int64_t first = reserved + 1; first + size - 1 <= 15 && base < 0;
           ++first) {
        bool free = true;
        for (int64_t id = first; id < first + size; ++id)
          free &= !used.test(id);
        if (free)
          base = first;
      }
      if (base < 0)
        return alloc.emitOpError()
               << "is used as " << size
               << " named barriers (a barrier_wait without phaseIdx), but "
                  "fewer consecutive named-barrier ids are free between "
               << reserved + 1 << " and 15";
      for (int64_t id = base; id < base + size; ++id)
        used.set(id);
      for (Operation *op : uses) {
        Value index = op->getOperand(1);
        APInt value;
        if (!matchPattern(index, m_ConstantInt(&value)) ||
            value.getSExtValue() < 0 || value.getSExtValue() >= size)
          return op->emitOpError("uses named barriers (FlagTree's "
                                 "barrier_wait without phaseIdx) at an index "
                                 "that is not a constant in range");
        OpBuilder b(op);
        int32_t id = static_cast<int32_t>(base + value.getSExtValue());
        if (isa<BarrierWaitOp>(op))
          NamedBarrierSyncOp::create(b, op->getLoc(), id,
                                     static_cast<int32_t>(count));
        else
          NamedBarrierArriveOp::create(b, op->getLoc(), id,
                                       static_cast<int32_t>(count));
        op->erase();
      }
    }
    return success();
  }

  LogicalResult lowerNamed(OpBuilder &b, Operation *op, StringRef ptx,
                           int32_t id, int32_t threads, int64_t reserved) {
    if (id <= reserved)
      return op->emitOpError()
             << "uses named barrier " << id
             << ", which Triton's warp specialization uses in this kernel "
                "(ids 0 to "
             << reserved << "); pick an id from " << reserved + 1 << " to 15";
    inlineAsm(b, op->getLoc(),
              (ptx + " " + Twine(id) + ", " + Twine(threads) + ";").str());
    return success();
  }

  /// The calling group's one arrival on `bar` once all its warps are done
  /// (a CTA barrier first when the group has more than one warp): what a
  /// copy on a barrier ends with when its data is already in place.
  void groupArrive(OpBuilder &b, Operation *op, Value bar) {
    if (local_memory::groupWarps(op, module) > 1)
      gpu::BarrierOp::create(b, op->getLoc());
    ttng::ArriveBarrierOp::create(b, op->getLoc(), bar, 1, Value());
  }

  /// TritonGPU's expansion of a descriptor load: the value is a
  /// ttg.local_load (through layout conversions used only there) of a
  /// scratch buffer that one ttng.async_tma_copy_global_to_local fills on a
  /// barrier of its own (init / expect / wait / inval).
  LogicalResult lowerTmaLoad(OpBuilder &b, AsyncTMALoadOp op) {
    if (failed(target::require(op, 90,
                               "tle.gpu.copy(desc, buffer, ..., barrier=) "
                               "(an asynchronous TMA load)")) ||
        failed(allocOf(op, op.getBarriers())))
      return failure();
    // A buffer read through local pointers keeps its plain layout in TLE's
    // own region, out of reach of Triton's memdesc ops: Triton's TMA load
    // (synchronous: its own barrier, then a load into registers) is stored
    // into it, then the barrier arrives. Complete before any wait, as
    // lowerAsyncCopy's fallback for cp.async.
    if (isPointerBuffer(op.getBuffer())) {
      Location loc = op.getLoc();
      Value bar = barrierAt(b, loc, op.getBarriers(), op.getIndex());
      LocalStoreOp::create(b, loc, op.getValue(), op.getBuffer());
      groupArrive(b, op, bar);
      return success();
    }
    SmallVector<Operation *> expansion;
    bool shaped;
    Value value =
        conversion::throughConverts(op.getValue(), expansion, &shaped);
    auto load = value.getDefiningOp<ttg::LocalLoadOp>();
    auto scratch = load ? load.getSrc().getDefiningOp<ttg::LocalAllocOp>()
                        : ttg::LocalAllocOp();
    ttng::AsyncTMACopyGlobalToLocalOp copy;
    shaped = shaped && scratch && !scratch.getSrc() && load->hasOneUse();
    if (shaped) {
      expansion.push_back(load);
      expansion.push_back(scratch);
      for (Operation *user : scratch->getUsers()) {
        if (auto c = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(user);
            c && c.getResult() == scratch.getResult() && !copy)
          copy = c;
        else if (user != load.getOperation())
          shaped = false;
      }
    }
    auto barrier = copy ? copy.getBarrier().getDefiningOp<ttg::LocalAllocOp>()
                        : ttg::LocalAllocOp();
    shaped = shaped && barrier;
    if (shaped) {
      expansion.push_back(barrier);
      for (Operation *user : barrier->getUsers()) {
        if (user == copy.getOperation())
          continue;
        if (!isa<ttng::InitBarrierOp, ttng::BarrierExpectOp,
                 ttng::WaitBarrierOp, ttng::InvalBarrierOp>(user)) {
          shaped = false;
          break;
        }
        expansion.push_back(user);
      }
    }
    if (!shaped)
      return op.emitOpError(
          "value is not TritonGPU's TMA load of a tensor descriptor used only "
          "here (a ttg.local_load of a buffer that one "
          "ttng.async_tma_copy_global_to_local fills on a barrier of its own)");
    auto descType = cast<tt::TensorDescType>(copy.getDesc().getType());
    auto enc = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(
        descType.getBlockType().getEncoding());
    if (!enc)
      return op.emitOpError("the descriptor's block ")
             << descType.getBlockType()
             << " has no NVMMA shared layout for TMA";
    // The buffer takes the layout the TMA unit writes.
    Value buffer = op.getBuffer();
    auto bufType = cast<ttg::MemDescType>(buffer.getType());
    if (failed(takeEncoding(op, buffer, enc)))
      return failure();
    Location loc = op.getLoc();
    int64_t bytes =
        bufType.getNumElements() * bufType.getElementTypeBitWidth() / 8;
    Value bar = barrierAt(b, loc, op.getBarriers(), op.getIndex());
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    ttng::BarrierExpectOp::create(b, loc, bar, static_cast<int32_t>(bytes),
                                  yes);
    // The copy keeps its predicate (a cache hint's marker, lowerCacheHint).
    ttng::AsyncTMACopyGlobalToLocalOp::create(
        b, copy.getLoc(), copy.getDesc(), copy.getCoord(), bar, buffer,
        copy.getPred(), copy.getCache(), copy.getEvict());
    // Each op of the expansion once nothing uses it.
    op->dropAllReferences();
    copy->erase();
    eraseUnused(expansion);
    return success();
  }

  /// tt.load + tle.async_copy_load: a cp.async into the buffer, each
  /// thread's copies counted on the barrier, then the group's arrival.
  /// A load cp.async cannot carry stays a load and a store (synchronous,
  /// then the arrival).
  LogicalResult lowerAsyncCopy(OpBuilder &b, AsyncCopyLoadOp op) {
    if (failed(target::require(op, 80,
                               "tle.gpu.copy(ptrs, buffer, ..., barrier=) "
                               "(cp.async)")) ||
        failed(allocOf(op, op.getBarriers())))
      return failure();
    Location loc = op.getLoc();
    FailureOr<CopiedLoad> c = copiedLoad(op, op.getValue());
    if (failed(c))
      return failure();
    tt::LoadOp load = c->load;
    bool copyable = c->fits && async_copy::isPlainLoad(load) &&
                    !load.getOther() && !load.getMask() &&
                    !isPointerBuffer(op.getBuffer());
    Value bar = barrierAt(b, loc, op.getBarriers(), op.getIndex());
    if (copyable) {
      ttg::AsyncCopyGlobalToLocalOp::create(
          b, load.getLoc(), load.getPtr(), op.getBuffer(), Value(), Value(),
          ttg::CacheModifier::NONE, ttg::EvictionPolicy::NORMAL);
      // Each thread: an arrival when its copies land, balanced by a pending
      // count it adds now; the group's own arrival below completes the phase.
      ttng::AsyncCopyMbarrierArriveOp::create(b, loc, bar,
                                              /*noIncrement=*/false);
    } else {
      LocalStoreOp::create(b, loc, op.getValue(), op.getBuffer());
    }
    groupArrive(b, op, bar);
    if (copyable)
      eraseCopied(op, *c);
    return success();
  }

  /// A buffer accessed through tle.local_pointers lives in TLE's own shared
  /// region and is reached through pointers (docs/local-memory.md, section
  /// 4): no memdesc for ttg.async_copy_global_to_local, so a copy into it,
  /// or into a slot of it, is a synchronous tle.local_store (complete
  /// before any wait, correct).
  static bool isPointerBuffer(Value buffer) {
    AllocOp alloc = local_memory::bufferAlloc(buffer);
    return alloc && alloc.isPointerBuffer();
  }

  /// Whether a tle.async_commit_group follows `op` in its function: later
  /// in its block (or nested in a later op), or after an op enclosing it.
  static bool committedLater(Operation *op) {
    for (Operation *at = op; at && !isa<FunctionOpInterface>(at);
         at = at->getParentOp()) {
      for (Operation *next = at->getNextNode(); next;
           next = next->getNextNode()) {
        bool found = false;
        next->walk([&](AsyncCommitGroupOp) {
          found = true;
          return WalkResult::interrupt();
        });
        if (found)
          return true;
      }
    }
    return false;
  }

  /// tle.async_copy: the tt.load that made the value becomes a cp.async
  /// into the buffer with the load's mask and eviction policy (committed
  /// and waited for by the kernel's own group ops); a load cp.async cannot
  /// carry becomes a store of the value (synchronous, correct).
  LogicalResult lowerGroupCopy(OpBuilder &b, AsyncCopyOp op) {
    if (failed(target::require(op, 80,
                               "tle.gpu.copy(ptrs, buffer, ..., "
                               "is_async=True) (cp.async)")))
      return failure();
    Location loc = op.getLoc();
    FailureOr<CopiedLoad> c = copiedLoad(op, op.getValue());
    if (failed(c))
      return failure();
    tt::LoadOp load = c->load;
    // Triton's lowering copies runs as long as the pointers' proven
    // contiguity and alignment (and the mask's) allow, down to one element,
    // and cp.async moves at least 4 bytes: 32-bit elements and wider are
    // safe whatever the pointers; narrower ones when no mask splits a run
    // and the pointers' construction proves the runs whole and aligned
    // (alignedRuns); the rest are stored synchronously.
    bool wide =
        c->bits >= 32 || (!load.getMask() && async_copy::alignedRuns(load));
    bool copyable =
        c->fits && wide && !load.getIsVolatile() &&
        load.getCache() == tt::CacheModifier::NONE &&
        load.getBoundaryCheck().empty() && !load.getPadding() &&
        (!load.getOther() || async_copy::isZeroFill(load.getOther()));
    if (!copyable || isPointerBuffer(op.getBuffer())) {
      LocalStoreOp::create(b, loc, op.getValue(), op.getBuffer());
      return success();
    }
    ttg::AsyncCopyGlobalToLocalOp::create(
        b, load.getLoc(), load.getPtr(), op.getBuffer(), load.getMask(),
        Value(), ttg::CacheModifier::NONE,
        static_cast<ttg::EvictionPolicy>(load.getEvict()));
    eraseCopied(op, *c);
    return success();
  }

  /// TritonGPU's expansion of the descriptor store right before `op`: the
  /// TMA copy reads the buffer in place; the staging buffer, the store into
  /// it and the waits that protected it go.
  LogicalResult lowerTmaStore(AsyncTMAStoreOp op) {
    if (failed(target::require(op, 90,
                               "tle.gpu.copy(buffer, desc, ..., is_async=True) "
                               "(an asynchronous TMA store)")))
      return failure();
    Value buffer = op.getBuffer();
    // Whether `v` is a whole load of the buffer (through layout conversions).
    auto loadsBuffer = [&](Value v, SmallVector<Operation *> &chain) {
      auto load =
          conversion::throughConverts(v, chain).getDefiningOp<LocalLoadOp>();
      if (load)
        chain.push_back(load);
      return load && load.getBuffer() == buffer;
    };
    // The copy: the nearest one before the op in its block.
    ttng::AsyncTMACopyLocalToGlobalOp copy;
    for (Operation *prev = op->getPrevNode(); prev && !copy;
         prev = prev->getPrevNode())
      copy = dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(prev);
    SmallVector<Operation *> dead;
    ttg::LocalAllocOp staging =
        copy ? copy.getSrc().getDefiningOp<ttg::LocalAllocOp>()
             : ttg::LocalAllocOp();
    Operation *stagingStore = nullptr;
    bool shaped = false;
    if (staging && staging.getSrc()) {
      // ttg.local_alloc %value, fence, copy.
      shaped = loadsBuffer(staging.getSrc(), dead) && staging->hasOneUse();
      dead.insert(dead.begin(), staging);
    } else if (staging) {
      // A staging buffer (hoisted out of a loop): wait 0, ttg.local_store
      // %value into it, fence, copy.
      for (Operation *prev = copy->getPrevNode(); prev;
           prev = prev->getPrevNode()) {
        if (auto store = dyn_cast<ttg::LocalStoreOp>(prev)) {
          if (store.getDst() == staging.getResult())
            stagingStore = store;
          break;
        }
        if (!isa<ttng::FenceAsyncSharedOp>(prev) && !isMemoryEffectFree(prev))
          break;
      }
      shaped =
          stagingStore &&
          loadsBuffer(cast<ttg::LocalStoreOp>(stagingStore).getSrc(), dead);
      dead.push_back(staging);
    }
    if (!shaped)
      return op.emitOpError(
          "is not after TritonGPU's TMA store of a whole load of its buffer "
          "(a ttng.async_tma_copy_local_to_global of a staging buffer that "
          "holds a tle.local_load of the buffer)");
    auto descType = cast<tt::TensorDescType>(copy.getDesc().getType());
    Attribute enc = descType.getBlockType().getEncoding();
    if (!isa_and_nonnull<ttg::NVMMASharedEncodingAttr>(enc))
      return op.emitOpError("the descriptor's block ")
             << descType.getBlockType()
             << " has no NVMMA shared layout for TMA";
    if (failed(takeEncoding(op, buffer, enc)))
      return failure();
    copy.getSrcMutable().assign(buffer);
    // The waits that kept the staging buffer safe: the one right before its
    // store, and one right after the copy.
    auto eraseWaitNear = [](Operation *from, bool forward) {
      for (Operation *it = forward ? from->getNextNode() : from->getPrevNode();
           it; it = forward ? it->getNextNode() : it->getPrevNode()) {
        if (auto wait = dyn_cast<ttng::AsyncTMAStoreWaitOp>(it)) {
          if (wait.getPendings() == 0)
            wait->erase();
          return;
        }
        if (!isMemoryEffectFree(it) && !isa<LocalLoadOp, AsyncTMAStoreOp>(it))
          return;
      }
    };
    if (stagingStore) {
      eraseWaitNear(stagingStore, /*forward=*/false);
      stagingStore->erase();
    }
    eraseWaitNear(copy, /*forward=*/true);
    // A staging buffer that the last of its copies has left keeps only its
    // deallocations; they go with it (Triton's allocator would still give
    // the buffer its shared memory).
    if (staging && llvm::all_of(staging->getUsers(), [](Operation *user) {
          return isa<ttg::LocalDeallocOp>(user);
        }))
      for (Operation *user : llvm::make_early_inc_range(staging->getUsers()))
        user->erase();
    SmallVector<Operation *> chain;
    loadsBuffer(op.getValue(), chain);
    dead.append(chain);
    op->dropAllReferences();
    eraseUnused(dead);
    return success();
  }
};

} // namespace
