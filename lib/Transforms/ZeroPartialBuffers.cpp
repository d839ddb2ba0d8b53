//===- ZeroPartialBuffers.cpp - zero buffers read where never written -----===//
//
// triton-tle-zero-partial-buffers: a shared-memory buffer that partial writes
// fill (masked or indexed stores, read-modify-writes, atomics) and whole reads
// read starts zeroed, so that the elements no write reached read as zero rather
// than as whatever an earlier kernel left there. Rules in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "triton-tle-zero-partial-buffers"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEZEROPARTIALBUFFERS
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// Views of the same memory (slots, sub-slices, reshapes, transposes).
bool isView(Operation *op) {
  return isa<BufferSlotOp, ttg::MemDescIndexOp, ttg::MemDescSubsliceOp,
             ttg::MemDescReshapeOp, ttg::MemDescTransOp>(op);
}

/// `store` is a read-modify-write of `buffer`: its value is
/// `arith.select %m, %v, (tle.local_load %buffer)`.
LocalLoadOp rmwLoad(LocalStoreOp store) {
  auto select = store.getValue().getDefiningOp<arith::SelectOp>();
  if (!select)
    return {};
  auto load = select.getFalseValue().getDefiningOp<LocalLoadOp>();
  return load && load.getBuffer() == store.getBuffer() ? load : LocalLoadOp();
}

struct Uses {
  bool partialWrite = false;
  bool wholeRead = false;
  bool remote = false;     // remote (cluster) pointers reach it
  bool asyncProxy = false; // used other than by generic-proxy accesses
};

/// How the memory of `alloc` is written and read, through every view.
Uses classify(AllocOp alloc) {
  Uses uses;
  SmallVector<Value> views{alloc.getResult()};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers())
      if (isView(user))
        views.push_back(user->getResult(0));
  llvm::SmallPtrSet<Operation *, 4> rmwLoads;
  for (Value view : views)
    for (Operation *user : view.getUsers())
      if (auto store = dyn_cast<LocalStoreOp>(user))
        if (LocalLoadOp load = rmwLoad(store)) {
          uses.partialWrite = true;
          rmwLoads.insert(load);
        }
  for (Value view : views) {
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isView(user))
        continue;
      if (auto ptrs = dyn_cast<LocalPointersOp>(user)) {
        bool full = ptrs.getIndices().empty();
        for (Operation *access : ptrs->getUsers()) {
          if (auto store = dyn_cast<tt::StoreOp>(access)) {
            if (store.getPtr() == ptrs.getResult())
              uses.partialWrite |= !full || store.getMask();
          } else if (auto load = dyn_cast<tt::LoadOp>(access)) {
            uses.wholeRead |= full && !load.getMask();
          } else if (isa<RemotePointersOp>(access)) {
            uses.remote = true;
          } else {
            // Atomics and pointer arithmetic: the elements they reach are
            // not known.
            uses.partialWrite = true;
          }
        }
        continue;
      }
      if (isa<LocalStoreOp>(user) && use.getOperandNumber() == 1)
        continue; // a whole write (or a read-modify-write, counted above)
      if (rmwLoads.contains(user))
        continue; // reads what it writes back unchanged
      // tle.local_load, copies out, wgmma operands, TMA stores, anything
      // else taking the buffer: it may read every element (wgmma and TMA
      // through the async proxy).
      uses.wholeRead = true;
      uses.asyncProxy |=
          !isa<LocalLoadOp, CopyOp, ttg::LocalLoadOp, ttg::LocalStoreOp>(user);
    }
  }
  return uses;
}

/// Whether the first access to `alloc`'s memory after it, in its block,
/// writes the whole buffer: an unmasked tt.store through full-view local
/// pointers of the buffer itself or a tle.local_store into it that is no
/// read-modify-write (the kernel initializes the buffer itself, e.g. a
/// histogram it zeroes before its atomics). An access inside a region op
/// (a loop, a branch, a warp_specialize) comes first: not known.
bool writtenWholeFirst(AllocOp alloc) {
  llvm::SmallPtrSet<Value, 8> tracked{alloc.getResult()};
  for (Operation *op = alloc->getNextNode(); op; op = op->getNextNode()) {
    bool uses = llvm::any_of(op->getOperands(),
                             [&](Value v) { return tracked.contains(v); });
    if (uses && (isView(op) || isa<LocalPointersOp>(op))) {
      tracked.insert(op->getResult(0));
      continue;
    }
    if (uses) {
      if (auto store = dyn_cast<tt::StoreOp>(op)) {
        auto ptrs = store.getPtr().getDefiningOp<LocalPointersOp>();
        return ptrs && ptrs.getBuffer() == alloc.getResult() &&
               ptrs.getIndices().empty() && !store.getMask();
      }
      if (auto store = dyn_cast<LocalStoreOp>(op))
        return store.getBuffer() == alloc.getResult() && !rmwLoad(store);
      return false;
    }
    bool inside =
        op->getNumRegions() != 0 &&
        op->walk([&](Operation *inner) {
            return llvm::any_of(inner->getOperands(),
                                [&](Value v) { return tracked.contains(v); })
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted();
    if (inside)
      return false;
  }
  return false;
}

/// A blocked encoding for `shape` on `warps` warps of `lanes` lanes, up to
/// 16 bytes a thread along the fastest dimension.
ttg::BlockedEncodingAttr fillEncoding(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                      unsigned elementBytes, unsigned lanes,
                                      unsigned warps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order, spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  for (int d = rank - 1; d >= 0; --d)
    order.push_back(d);
  SmallVector<int64_t> left(shape.begin(), shape.end());
  unsigned fastest = order.front();
  while (spt[fastest] * elementBytes < 16 && left[fastest] > 1) {
    spt[fastest] *= 2;
    left[fastest] /= 2;
  }
  for (unsigned d : order)
    for (; lanes > 1 && left[d] > 1; lanes /= 2, left[d] /= 2)
      tpw[d] *= 2;
  tpw[order.back()] *= lanes;
  for (unsigned d : order)
    for (; warps > 1 && left[d] > 1; warps /= 2, left[d] /= 2)
      wpc[d] *= 2;
  wpc[order.back()] *= warps;
  return ttg::BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
}

/// Stores zeros into `view` (a memdesc) at `builder`'s point, laid out for
/// the warps that run there.
void storeZeros(OpBuilder &builder, Location loc, Value view) {
  auto type = cast<ttg::MemDescType>(view.getType());
  Type element = type.getElementType();
  unsigned bytes = std::max(1u, element.getIntOrFloatBitWidth() / 8);
  Operation *at = view.getDefiningOp();
  auto encoding = fillEncoding(
      builder.getContext(), type.getShape(), bytes,
      interop::lookupThreadsPerWarp(at).value_or(
          interop::kDefaultThreadsPerWarp),
      interop::lookupNumWarps(at).value_or(interop::kDefaultNumWarps));
  auto tensor = RankedTensorType::get(type.getShape(), element, encoding);
  Value zeros = arith::ConstantOp::create(builder, loc, tensor,
                                          builder.getZeroAttr(tensor));
  LocalStoreOp::create(builder, loc, zeros, view);
}

/// Zeros `alloc` right after it: slot by slot through a view like the one
/// its users take when it is a ring of slots, else whole.
void zero(AllocOp alloc, bool fence) {
  OpBuilder builder(alloc->getBlock(), std::next(alloc->getIterator()));
  Location loc = alloc.getLoc();
  Operation *slotView = nullptr;
  for (Operation *user : alloc->getUsers())
    if (isa<BufferSlotOp, ttg::MemDescIndexOp>(user)) {
      slotView = user;
      break;
    }
  if (!slotView) {
    storeZeros(builder, loc, alloc.getResult());
  } else {
    int64_t slots = alloc.getType().getShape().front();
    for (int64_t s = 0; s < slots; ++s) {
      IRMapping mapping;
      mapping.map(slotView->getOperand(1),
                  arith::ConstantIntOp::create(builder, loc, s, 32));
      Operation *view = builder.clone(*slotView, mapping);
      storeZeros(builder, loc, view->getResult(0));
    }
  }
  if (fence)
    ttng::FenceAsyncSharedOp::create(builder, loc, /*bCluster=*/false);
}

struct ZeroPartialBuffersPass
    : public impl::TLEZeroPartialBuffersBase<ZeroPartialBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The async proxy (wgmma, TMA) exists on CUDA sm_90+; a module without
    // a target is taken to have it. The fence is for buffers it may access.
    StringRef target = interop::lookupTarget(module);
    std::optional<unsigned> cap = common::cudaCapability(target);
    bool fence = target.empty() || (cap && *cap >= 90);
    SmallVector<AllocOp> allocs;
    module.walk([&](AllocOp alloc) {
      // Allocations in loops are left: zeroing each iteration would not be
      // the buffer's first contents only.
      if (isa<FunctionOpInterface>(alloc->getParentOp()) &&
          isa<ttg::SharedMemorySpaceAttr>(alloc.getType().getMemorySpace()) &&
          !alloc.getInit())
        allocs.push_back(alloc);
    });
    for (AllocOp alloc : allocs) {
      Uses uses = classify(alloc);
      if (!uses.partialWrite || !uses.wholeRead || uses.remote ||
          writtenWholeFirst(alloc))
        continue;
      LLVM_DEBUG(llvm::dbgs()
                 << DEBUG_TYPE ": zeroing " << alloc.getLoc() << "\n");
      zero(alloc, fence && uses.asyncProxy);
      ++numZeroed;
    }
  }
};
} // namespace
} // namespace mlir::tle
