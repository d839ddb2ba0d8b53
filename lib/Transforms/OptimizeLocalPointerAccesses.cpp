//===- OptimizeLocalPointerAccesses.cpp - whole-buffer pointer accesses ----===//
//
// triton-tle-optimize-local-pointer-loads / -stores: a plain tt.load / tt.store
// of every element of a buffer through its full-view tle.local_pointers
// becomes tle.local_load / tle.local_store, and one of a rectangle of it
// (constant row / column ranges) a tle.local_load / tle.local_store of its
// ttg.memdesc_subslice when no pointer into that memory is left
// (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "EraseDead.h"
#include "Rectangles.h"
#include "Rematerializer.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEOPTIMIZELOCALPOINTERLOADS
#define GEN_PASS_DEF_TLEOPTIMIZELOCALPOINTERSTORES
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// The full-view tle.local_pointers that produces `ptr`, or null.
LocalPointersOp getFullView(Value ptr) {
  auto view = ptr.getDefiningOp<LocalPointersOp>();
  if (!view || !view.getIndices().empty() ||
      !isa<RankedTensorType>(view.getType()))
    return {};
  return view;
}

void eraseIfDead(LocalPointersOp view) {
  if (view && view->use_empty())
    view.erase();
}

/// The tle.gpu.alloc whose memory `buffer` views through tle.buffer_slot
/// and tle.pipe.slot views (a pipe slot's field is the alloc the pipe was
/// created with), or null when the chain leaves these ops.
Value memoryRoot(Value buffer) {
  for (;;) {
    if (auto slot = buffer.getDefiningOp<BufferSlotOp>()) {
      buffer = slot.getSrc();
    } else if (auto view = buffer.getDefiningOp<PipeSlotOp>()) {
      auto create = view.getPipe().getDefiningOp<PipeCreateOp>();
      auto type = cast<PipeType>(view.getPipe().getType());
      if (!create)
        return {};
      buffer = create.getFields()[*type.getFieldIndex(view.getField())];
    } else {
      break;
    }
  }
  return buffer.getDefiningOp<AllocOp>() ? buffer : Value();
}

/// Every view of the memory allocated by `root` (memoryRoot): the alloc
/// itself, its tle.buffer_slots, and the tle.pipe.slot views of the pipe
/// fields it is (and their slots).
SmallVector<Value> viewsOfMemory(Value root) {
  SmallVector<Value> views{root};
  for (size_t i = 0; i < views.size(); ++i)
    for (OpOperand &use : views[i].getUses()) {
      Operation *user = use.getOwner();
      if (auto slot = dyn_cast<BufferSlotOp>(user)) {
        views.push_back(slot.getResult());
      } else if (auto create = dyn_cast<PipeCreateOp>(user)) {
        auto type = cast<PipeType>(create.getPipe().getType());
        StringAttr name =
            type.getFieldNames()[use.getOperandNumber() -
                                 create.getFields().getBeginOperandIndex()];
        for (Operation *pipeUser : create.getPipe().getUsers())
          if (auto view = dyn_cast<PipeSlotOp>(pipeUser);
              view && view.getFieldAttr() == name)
            views.push_back(view.getView());
      }
    }
  return views;
}

/// Whether every use of `view` reads it: tle.local_load, or local pointers
/// only tt.loaded.
bool onlyRead(PipeSlotOp view) {
  return llvm::all_of(view.getView().getUsers(), [](Operation *user) {
    if (isa<LocalLoadOp>(user))
      return true;
    auto ptrs = dyn_cast<LocalPointersOp>(user);
    return ptrs && llvm::all_of(ptrs->getUsers(), [&](Operation *access) {
             auto load = dyn_cast<tt::LoadOp>(access);
             return load && load.getPtr() == ptrs.getResult();
           });
  });
}

/// Whether nothing else may write `buffer` while `store` runs, so that a
/// masked store may read the elements its mask leaves out and write them
/// back unchanged: outside tle.warp_specialize (one group of warps runs);
/// a pipe slot the writer acquired (readers wait for its commit); a pipe
/// slot a reader waited for when the other readers only read that field
/// (the writer takes the slot again only after the release; a reader
/// reading an element the mask leaves out sees it unchanged).
bool storesAlone(tt::StoreOp store, Value buffer) {
  if (!store->getParentOfType<WarpSpecializeOp>())
    return true;
  auto view = buffer.getDefiningOp<PipeSlotOp>();
  if (!view)
    return false;
  Value slot = view.getSlot();
  if (slot.getDefiningOp<PipeWriterAcquireOp>())
    return true;
  auto wait = slot.getDefiningOp<PipeReaderWaitOp>();
  if (!wait)
    return false;
  for (Operation *user : view.getPipe().getUsers()) {
    auto other = dyn_cast<PipeSlotOp>(user);
    if (!other || other.getField() != view.getField())
      continue;
    if (other.getSlot().getDefiningOp<PipeWriterAcquireOp>())
      continue;
    auto otherWait = other.getSlot().getDefiningOp<PipeReaderWaitOp>();
    if (!otherWait ||
        (otherWait.getReader() != wait.getReader() && !onlyRead(other)))
      return false;
  }
  return true;
}

bool plainLoad(tt::LoadOp load) {
  return !load.getMask() && !load.getOther() &&
         load.getBoundaryCheck().empty() && !load.getPadding() &&
         load.getCache() == tt::CacheModifier::NONE &&
         load.getEvict() == tt::EvictionPolicy::NORMAL &&
         !load.getIsVolatile() && isa<RankedTensorType>(load.getType());
}

bool plainStore(tt::StoreOp store) {
  return store.getBoundaryCheck().empty() &&
         store.getCache() == tt::CacheModifier::NONE &&
         store.getEvict() == tt::EvictionPolicy::NORMAL &&
         isa<RankedTensorType>(store.getValue().getType());
}

/// Whether every pointer into the memory allocated by `root` goes once its
/// accesses become whole-view ones: every tle.local_pointers of that memory
/// is a full view or a rectangle (rectangleOf), used only by plain stores
/// into mutable memory (masked ones storesAlone: they become
/// read-modify-writes) and, with `loadsPending` (the loads pass, before the
/// stores pass), plain loads. The buffer then leaves TLE's pointer region:
/// a shared-memory buffer that wgmma, TMA and Triton's own accesses can use.
bool leavesPointers(Value root, bool loadsPending) {
  for (Value view : viewsOfMemory(root))
    for (Operation *user : view.getUsers()) {
      auto ptrs = dyn_cast<LocalPointersOp>(user);
      if (!ptrs)
        continue;
      if (!getFullView(ptrs.getResult()) && !rectangleOf(ptrs))
        return false;
      for (Operation *access : ptrs->getUsers()) {
        if (auto load = dyn_cast<tt::LoadOp>(access)) {
          if (!loadsPending || !plainLoad(load))
            return false;
          continue;
        }
        auto store = dyn_cast<tt::StoreOp>(access);
        if (!store || store.getPtr() != ptrs.getResult() ||
            !plainStore(store) ||
            !ptrs.getBuffer().getType().getMutableMemory() ||
            (store.getMask() && !storesAlone(store, view)))
          return false;
      }
    }
  return true;
}

/// leavesPointers of the memory a buffer views, computed once per memory
/// (a pipe field is reached through one slot view per acquire or wait).
/// Rewriting accesses only removes pointers, so an answer stays true.
class PointerExits {
public:
  explicit PointerExits(bool loadsPending) : loadsPending(loadsPending) {}

  bool leave(Value buffer) {
    Value root = memoryRoot(buffer);
    if (!root)
      return false;
    auto [it, fresh] = memo.try_emplace(root, false);
    if (fresh)
      it->second = leavesPointers(root, loadsPending);
    return it->second;
  }

private:
  bool loadsPending;
  llvm::DenseMap<Value, bool> memo;
};

/// The memory a plain access through `ptrs` reads or writes whole: the
/// buffer of a full view (with `wholeMemory`, only when every pointer into
/// its memory goes); for a rectangle, when every pointer into its memory
/// goes, a ttg.memdesc_subslice of it built at `builder`; else null.
Value wholeView(OpBuilder &builder, LocalPointersOp ptrs, PointerExits &exits,
                bool wholeMemory = false) {
  if (getFullView(ptrs.getResult()))
    return !wholeMemory || exits.leave(ptrs.getBuffer()) ? ptrs.getBuffer()
                                                         : Value();
  std::optional<SmallVector<int32_t>> offsets = rectangleOf(ptrs);
  if (!offsets || !exits.leave(ptrs.getBuffer()))
    return {};
  auto shape = cast<RankedTensorType>(ptrs.getResult().getType()).getShape();
  return buildRectangleView(builder, ptrs.getLoc(), ptrs.getBuffer(), shape,
                            *offsets);
}

struct OptimizeLocalPointerLoadsPass
    : public impl::TLEOptimizeLocalPointerLoadsBase<
          OptimizeLocalPointerLoadsPass> {
  void runOnOperation() override {
    SmallVector<tt::LoadOp> loads;
    getOperation()->walk([&](tt::LoadOp load) { loads.push_back(load); });
    PointerExits exits(/*loadsPending=*/true);
    for (tt::LoadOp load : loads) {
      auto ptrs = load.getPtr().getDefiningOp<LocalPointersOp>();
      if (!ptrs || !plainLoad(load))
        continue;
      OpBuilder builder(load);
      Value view = wholeView(builder, ptrs, exits);
      if (!view)
        continue;
      auto local =
          LocalLoadOp::create(builder, load.getLoc(), load.getType(), view);
      load.replaceAllUsesWith(local.getResult());
      load.erase();
      eraseIfDead(ptrs);
    }
  }
};

/// A masked store's value that Triton converted to the pointers' encoding
/// (`value` = ttg.convert_layout %v): the read-modify-write is built in
/// %v's encoding instead, with the mask recomputed there (small 1-D leaves
/// it cannot recompute, such as loaded indices, converted), so that the
/// tile's convert -- a trip through shared-memory scratch as large as the
/// tile -- goes. `value` and `mask` are replaced when it applies.
bool moveToValueEncoding(OpBuilder &builder, Rematerializer::Cache &leaves,
                         Value &value, Value &mask) {
  auto convert = value.getDefiningOp<ttg::ConvertLayoutOp>();
  if (!convert)
    return false;
  Attribute encoding = convert.getSrc().getType().getEncoding();
  Rematerializer remat(builder, /*convertLeaves=*/true, &leaves);
  if (!isMaskRematTarget(encoding) || !remat.possible(mask, encoding))
    return false;
  mask = remat.build(mask, encoding);
  value = convert.getSrc();
  return true;
}

struct OptimizeLocalPointerStoresPass
    : public impl::TLEOptimizeLocalPointerStoresBase<
          OptimizeLocalPointerStoresPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<tt::StoreOp> stores;
    getOperation()->walk([&](tt::StoreOp store) { stores.push_back(store); });
    PointerExits exits(/*loadsPending=*/false);
    Rematerializer::Cache remats; // leaves converted for masks
    for (tt::StoreOp store : stores) {
      auto ptrs = store.getPtr().getDefiningOp<LocalPointersOp>();
      if (!ptrs || !plainStore(store) ||
          !ptrs.getBuffer().getType().getMutableMemory())
        continue;
      OpBuilder builder(store);
      // A masked store into a full view needs the whole memory to leave the
      // pointer region too (its read-modify-write must be alone).
      Value buffer = wholeView(builder, ptrs, exits,
                               /*wholeMemory=*/bool(store.getMask()));
      if (!buffer)
        continue;
      Value value = store.getValue();
      SmallVector<Value> dead; // what fed the store before it moved
      if (Value mask = store.getMask()) {
        if (inValueEncoding &&
            moveToValueEncoding(builder, remats, value, mask))
          dead = {store.getValue(), store.getMask()};
        // The elements the mask leaves out keep their value.
        Value old = LocalLoadOp::create(builder, store.getLoc(),
                                        value.getType(), buffer);
        value =
            arith::SelectOp::create(builder, store.getLoc(), mask, value, old);
      }
      LocalStoreOp::create(builder, store.getLoc(), value, buffer);
      store.erase();
      eraseIfDead(ptrs);
      eraseDeadChains(dead);
    }
  }
};
} // namespace
} // namespace mlir::tle
