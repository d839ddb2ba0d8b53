//===- ForwardPipeMmaOperands.cpp - wgmma reads pipe slots in place -------===//
//
// triton-tle-forward-pipe-mma-operands: a pipe field that a reader only
// copies into a wgmma operand (`ttg.local_alloc (tle.local_load %slot)`) is
// allocated in that operand's NVMMA encoding and read in place; the reader's
// release moves after the wgmma that reads the slot is waited for. A field
// that synchronous TMA copies fill or store out takes the descriptors'
// encoding instead, and the TMA copies move the slot in place. The rules
// are documented with the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEFORWARDPIPEMMAOPERANDS
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// The default layout of a buffer the frontend allocated: unswizzled.
bool isDefaultLayout(ttg::MemDescType type) {
  auto enc = dyn_cast<ttg::SwizzledSharedEncodingAttr>(type.getEncoding());
  return enc && enc.getVec() == 1 && enc.getPerPhase() == 1 &&
         enc.getMaxPhase() == 1;
}

/// One `ttg.local_alloc (tle.local_load %slot)` to forward (`slot`: null
/// for a buffer a pipe guards, below).
struct Forward {
  ttg::LocalAllocOp copy;
  PipeSlotOp slot;
  PipeReaderReleaseOp release;
  /// The last op of the release's block that reads the slot through `copy`.
  Operation *lastRead = nullptr;
  /// What replaces the copy: a `ttg.memdesc_subslice` of the slot when the
  /// load read one (a rectangle of the slot), else null (the slot view).
  ttg::MemDescSubsliceOp block = {};
};

/// Triton's synchronous TMA load of a whole slot: a staging buffer filled by
/// `ttng.async_tma_copy_global_to_local` on a barrier of its own, waited
/// for, `ttg.local_load`ed and `tle.local_store`d into the slot.
struct TmaFill {
  LocalStoreOp store;
  ttg::LocalLoadOp load;
  ttg::LocalAllocOp staging;
  ttng::AsyncTMACopyGlobalToLocalOp copy;
  PipeSlotOp slot;
};

/// Triton's synchronous TMA store of a whole slot: `ttg.local_alloc
/// (tle.local_load %slot)` read only by `ttng.async_tma_copy_local_to_global`,
/// which a `ttng.async_tma_store_wait {pendings = 0}` follows.
struct TmaStore {
  ttg::LocalAllocOp staging;
  ttng::AsyncTMACopyLocalToGlobalOp copy;
  PipeSlotOp slot;
};

/// Whether `op` is, or contains, an endpoint op of `pipe` (an op other than
/// a slot view taking the pipe: acquire, commit, wait, release) or, when
/// given, a user of `view`.
bool touchesPipe(Operation *op, Value pipe, Value view = Value()) {
  return op
      ->walk([&](Operation *inner) {
        bool touches =
            (view && llvm::is_contained(inner->getOperands(), view)) ||
            (!isa<PipeSlotOp>(inner) &&
             llvm::is_contained(inner->getOperands(), pipe));
        return touches ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether an op strictly between `from` and `to` (one block, `from` first)
/// uses `slot`'s view or its pipe (a commit or release there would hand the
/// slot on before the TMA copy that now writes or reads it in place).
bool usedBetween(Operation *from, Operation *to, PipeSlotOp slot) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (touchesPipe(op, slot.getPipe(), slot.getView()))
      return true;
  return false;
}

/// `store` as a TmaFill of `slot`, if it is one whose TMA copy can write the
/// slot in place: the slot view is defined before the copy, in its block,
/// and nothing between the copy and the store uses the slot.
std::optional<TmaFill> tmaFill(LocalStoreOp store, PipeSlotOp slot) {
  auto load = store.getValue().getDefiningOp<ttg::LocalLoadOp>();
  if (!load || !load->hasOneUse())
    return std::nullopt;
  auto staging = load.getSrc().getDefiningOp<ttg::LocalAllocOp>();
  if (!staging || staging.getSrc())
    return std::nullopt;
  ttng::AsyncTMACopyGlobalToLocalOp copy;
  for (Operation *user : staging->getUsers()) {
    if (user == load.getOperation())
      continue;
    auto tma = dyn_cast<ttng::AsyncTMACopyGlobalToLocalOp>(user);
    if (!tma || copy || tma.getResult() != staging.getResult())
      return std::nullopt;
    copy = tma;
  }
  Block *block = store->getBlock();
  if (!copy || copy->getBlock() != block || load->getBlock() != block ||
      slot->getBlock() != block || !slot->isBeforeInBlock(copy) ||
      !copy->isBeforeInBlock(load) || !load->isBeforeInBlock(store) ||
      staging.getType().getShape() != slot.getView().getType().getShape() ||
      staging.getType().getElementType() !=
          slot.getView().getType().getElementType() ||
      usedBetween(copy, store, slot))
    return std::nullopt;
  // The copy's barrier is Triton's own: initialized, armed, waited for
  // (between the copy and the load) and invalidated, nothing else.
  auto barrier = copy.getBarrier().getDefiningOp<ttg::LocalAllocOp>();
  if (!barrier)
    return std::nullopt;
  bool waited = false;
  for (Operation *user : barrier->getUsers()) {
    if (auto wait = dyn_cast<ttng::WaitBarrierOp>(user)) {
      waited |= wait->getBlock() == block && copy->isBeforeInBlock(wait) &&
                wait->isBeforeInBlock(load);
      continue;
    }
    if (!isa<ttng::InitBarrierOp, ttng::BarrierExpectOp, ttng::InvalBarrierOp,
             ttng::AsyncTMACopyGlobalToLocalOp>(user) ||
        (isa<ttng::AsyncTMACopyGlobalToLocalOp>(user) && user != copy))
      return std::nullopt;
  }
  if (!waited)
    return std::nullopt;
  return TmaFill{store, load, staging, copy, slot};
}

/// `staging` (a `ttg.local_alloc` of a `tle.local_load` of `slot`) as a
/// TmaStore, if its only reader is a TMA store waited for at once and
/// nothing between the load and the store uses the slot.
std::optional<TmaStore> tmaStore(ttg::LocalAllocOp staging, PipeSlotOp slot) {
  if (!staging->hasOneUse())
    return std::nullopt;
  auto copy =
      dyn_cast<ttng::AsyncTMACopyLocalToGlobalOp>(*staging->getUsers().begin());
  Operation *load = staging.getSrc().getDefiningOp();
  if (!copy || !load || copy->getBlock() != load->getBlock() ||
      !load->isBeforeInBlock(copy) ||
      staging.getType().getShape() != slot.getView().getType().getShape() ||
      usedBetween(load, copy, slot))
    return std::nullopt;
  auto wait = dyn_cast_or_null<ttng::AsyncTMAStoreWaitOp>(copy->getNextNode());
  if (!wait || wait.getPendings() != 0)
    return std::nullopt;
  return TmaStore{staging, copy, slot};
}

/// Whether the uses of `copy`, through `ttng.warp_group_dot_wait` (and
/// `ttg.memdesc_trans` with `throughTrans`), are only wgmma operands and its
/// elements 16-bit: the copy may become a view in another NVMMA encoding
/// (both major orders are wgmma operands for 16-bit types).
bool retypable(ttg::LocalAllocOp copy, bool throughTrans = false) {
  if (copy.getType().getElementTypeBitWidth() != 16 ||
      (throughTrans && copy.getType().getRank() != 2))
    return false;
  SmallVector<Value> worklist{copy.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(user)) {
        worklist.push_back(wait.getResult(use.getOperandNumber()));
        continue;
      }
      if (auto trans = dyn_cast<ttg::MemDescTransOp>(user);
          trans && throughTrans) {
        worklist.push_back(trans.getResult());
        continue;
      }
      auto dot = dyn_cast<ttng::WarpGroupDotOp>(user);
      if (!dot || (use.get() != dot.getA() && use.get() != dot.getB()))
        return false;
    }
  }
  return true;
}

/// Whether the row-major NVMMA encoding `enc` of a 2-D buffer of `shape`
/// gives the block `sub` of it (offsets, shape) the same layout it gives a
/// buffer of the block's shape: rows from a multiple of 8 (the swizzle's
/// period), columns in whole swizzle atoms.
bool blockFits(ttg::NVMMASharedEncodingAttr enc, ArrayRef<int64_t> shape,
               ttg::MemDescSubsliceOp sub) {
  int64_t atom = enc.getSwizzlingByteWidth() ? enc.getSwizzlingByteWidth() * 8 /
                                                   enc.getElementBitWidth()
                                             : 1;
  ArrayRef<int32_t> offsets = sub.getOffsets();
  ArrayRef<int64_t> block =
      cast<ttg::MemDescType>(sub.getResult().getType()).getShape();
  return shape.size() == 2 && shape[1] % atom == 0 && offsets[0] % 8 == 0 &&
         block[0] % 8 == 0 && offsets[1] % atom == 0 && block[1] % atom == 0;
}

/// The op in `block` that is or contains `op`, if any.
Operation *inBlock(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Later of two ops of one block (null-tolerant).
Operation *later(Operation *a, Operation *b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return a->isBeforeInBlock(b) ? b : a;
}

/// Every use of `copy`'s result, followed through memdesc views and wgmma
/// waits, must be a read the rules know; returns the last such read in
/// `block` (a wgmma counts at its pendings-0 wait), or null if a use is
/// outside the rules.
Operation *lastReadIn(Block *block, Value copy) {
  SmallVector<Value> worklist{copy};
  llvm::SmallPtrSet<Value, 8> seen;
  Operation *last = nullptr;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      Operation *at = inBlock(block, user);
      if (!at)
        return nullptr;
      if (auto trans = dyn_cast<ttg::MemDescTransOp>(user)) {
        worklist.push_back(trans.getResult());
      } else if (auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(user)) {
        worklist.push_back(wait.getResult(use.getOperandNumber()));
      } else if (auto dot = dyn_cast<ttng::WarpGroupDotOp>(user)) {
        // The wgmma reads until a pendings-0 wait of its result.
        Operation *done = nullptr;
        for (Operation *waiter : dot.getD().getUsers()) {
          auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(waiter);
          if (wait && wait.getPendings() == 0 && wait->getBlock() == block &&
              dot->isBeforeInBlock(wait))
            done = done && done->isBeforeInBlock(wait) ? done : wait;
        }
        if (!done && dot.getIsAsync())
          return nullptr;
        at = later(at, done);
      } else if (!isa<ttg::LocalLoadOp>(user)) {
        return nullptr;
      }
      last = later(last, at);
    }
  }
  return last;
}

/// The reader_release of `slot`'s index in `block`, if exactly one. A slot
/// a positioned wait took (`at [%stage, %phase]`, FlagTree's cursors) is
/// `%stage`, which the release names.
PipeReaderReleaseOp releaseOf(PipeSlotOp slot, Block *block) {
  SmallVector<Value, 2> indices{slot.getSlot()};
  auto wait = slot.getSlot().getDefiningOp<PipeReaderWaitOp>();
  if (wait && wait.getStage())
    indices.push_back(wait.getStage());
  PipeReaderReleaseOp found;
  for (Value index : indices)
    for (Operation *user : index.getUsers()) {
      auto release = dyn_cast<PipeReaderReleaseOp>(user);
      // Another reader's release of the same stage is not this slot's.
      if (!release || release.getPipe() != slot.getPipe() || release == found ||
          (wait && release.getReader() != wait.getReader()))
        continue;
      if (found || release->getBlock() != block)
        return {};
      found = release;
    }
  return found;
}

/// Whether the reader that took `slot` never releases it: a one-shot pipe's
/// slot is written once, so a reader may keep it (FlagTree's Q hand-off).
bool keptForever(PipeSlotOp slot) {
  auto wait = slot.getSlot().getDefiningOp<PipeReaderWaitOp>();
  auto type = cast<PipeType>(slot.getPipe().getType());
  if (!wait || !type.getOneShot())
    return false;
  return llvm::none_of(slot.getPipe().getUsers(), [&](Operation *user) {
    auto release = dyn_cast<PipeReaderReleaseOp>(user);
    return release && release.getReader() == wait.getReader();
  });
}

/// Whether `release` may move down to just after `lastRead`: no other
/// endpoint op of its pipe lies between them (a later wait must still see
/// this slot released).
bool releaseCanMove(PipeReaderReleaseOp release, Operation *lastRead) {
  if (lastRead->isBeforeInBlock(release))
    return true;
  for (Operation *op = release->getNextNode(); op && op != lastRead;
       op = op->getNextNode())
    if (touchesPipe(op, release.getPipe()))
      return false;
  return true;
}

/// Whether no op between `f`'s load and its last read (its release aside,
/// which moves after the read) may tell another partition to go on: the
/// ops there only compute, read memory, issue and wait for wgmmas, or wait
/// themselves.
bool quietRead(Forward f) {
  Operation *load = f.copy.getSrc().getDefiningOp();
  Block *block = f.lastRead->getBlock();
  Operation *from = load ? inBlock(block, load) : nullptr;
  if (!from)
    return false;
  auto quiet = [&](Operation *op) {
    if ((f.release && op == f.release.getOperation()) ||
        isMemoryEffectFree(op) ||
        isa<ttng::WarpGroupDotOp, ttng::WarpGroupDotWaitOp,
            ttng::FenceAsyncSharedOp, ttg::LocalAllocOp, ttg::LocalLoadOp,
            LocalLoadOp, tt::LoadOp, PipeReaderWaitOp, PipeWriterAcquireOp,
            BarrierWaitOp, scf::ForOp, scf::IfOp, scf::YieldOp>(op))
      return true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    return effects && effects.onlyHasEffect<MemoryEffects::Read>();
  };
  for (Operation *op = from; op; op = op->getNextNode()) {
    if (op->walk([&](Operation *inner) {
            return quiet(inner) ? WalkResult::advance()
                                : WalkResult::interrupt();
          }).wasInterrupted())
      return false;
    if (op == f.lastRead)
      return true;
  }
  return false;
}

struct FieldPlan {
  /// The pipes whose field (at `index` of each) the buffer is: one, or
  /// several sharing it (FlagTree's FlashMLA kernel guards the column
  /// halves of one KV buffer by two pipes).
  SmallVector<std::pair<PipeCreateOp, unsigned>> uses;
  SmallVector<ttg::MemDescSubsliceOp> blocks;
  Attribute encoding;
  SmallVector<PipeSlotOp> slots;
  SmallVector<Forward> forwards;
  SmallVector<TmaFill> fills;
  SmallVector<TmaStore> stores;
};

/// Whether the buffer that `plan.uses` name (a field of each of those
/// pipes) can be read in place; fills `plan`.
bool planField(FieldPlan &plan) {
  auto [create, index] = plan.uses.front();
  Value field = create.getFields()[index];
  auto fieldType = cast<ttg::MemDescType>(field.getType());
  if (!isDefaultLayout(fieldType))
    return false;
  for (auto [pipe, i] : plan.uses) {
    StringAttr name =
        cast<PipeType>(pipe.getPipe().getType()).getFieldNames()[i];
    for (Operation *user : pipe.getPipe().getUsers()) {
      auto slot = dyn_cast<PipeSlotOp>(user);
      if (slot && slot.getFieldAttr() == name)
        plan.slots.push_back(slot);
    }
  }
  // Encodings the wgmma copies want, and the one the TMA copies use.
  Attribute tmaEncoding;
  bool tmaAgree = true;
  auto tmaWants = [&](Attribute enc) {
    if (!isa_and_nonnull<ttg::NVMMASharedEncodingAttr>(enc) ||
        (tmaEncoding && tmaEncoding != enc))
      tmaAgree = false;
    tmaEncoding = enc;
  };
  SmallVector<Attribute> copyEncodings;
  for (PipeSlotOp slot : plan.slots) {
    // The slot, and the blocks of it (rectangles) the local-pointer passes
    // made views of.
    SmallVector<Value> views{slot.getView()};
    for (Operation *user : slot.getView().getUsers())
      if (auto sub = dyn_cast<ttg::MemDescSubsliceOp>(user)) {
        plan.blocks.push_back(sub);
        views.push_back(sub.getResult());
      }
    for (Value view : views) {
      auto block = view.getDefiningOp<ttg::MemDescSubsliceOp>();
      for (Operation *user : view.getUsers()) {
        if (!block && isa<ttg::MemDescSubsliceOp>(user))
          continue;
        if (auto store = dyn_cast<LocalStoreOp>(user)) {
          if (!block)
            if (std::optional<TmaFill> fill = tmaFill(store, slot)) {
              plan.fills.push_back(*fill);
              tmaWants(fill->staging.getType().getEncoding());
            }
          continue;
        }
        auto load = dyn_cast<LocalLoadOp>(user);
        if (!load || load.getBuffer() != view)
          return false;
        for (Operation *loadUser : load.getResult().getUsers()) {
          auto copy = dyn_cast<ttg::LocalAllocOp>(loadUser);
          if (!copy)
            continue; // a register use: the load stays
          if (!block)
            if (std::optional<TmaStore> store = tmaStore(copy, slot)) {
              plan.stores.push_back(*store);
              tmaWants(copy.getType().getEncoding());
              continue;
            }
          // A copy some other op reads stays, with its load.
          Operation *lastInBlock =
              lastReadIn(copy->getBlock(), copy.getResult());
          if (!lastInBlock)
            continue;
          ttg::MemDescType copyType = copy.getType();
          auto enc =
              dyn_cast<ttg::NVMMASharedEncodingAttr>(copyType.getEncoding());
          auto viewType = cast<ttg::MemDescType>(view.getType());
          if (!enc || copyType.getShape() != viewType.getShape() ||
              copyType.getElementType() != viewType.getElementType() ||
              copyType.getMemorySpace() != viewType.getMemorySpace() ||
              copyType.getAllocShape() != copyType.getShape() ||
              (block && !retypable(copy, /*throughTrans=*/true)))
            return false;
          copyEncodings.push_back(enc);
          Forward f{copy, slot, releaseOf(slot, copy->getBlock())};
          f.block = block;
          if (!f.release) {
            if (!keptForever(slot))
              return false;
            f.lastRead = lastInBlock;
          } else {
            f.lastRead = lastReadIn(f.release->getBlock(), copy.getResult());
            if (!f.lastRead || !releaseCanMove(f.release, f.lastRead))
              return false;
          }
          plan.forwards.push_back(f);
        }
      }
    }
  }
  // The field's encoding: the TMA copies' when they agree and every wgmma
  // copy in another encoding may become a view in it; else the wgmma
  // copies' one (and the TMA copies keep their staging buffers).
  bool tmaFits =
      tmaEncoding && tmaAgree && llvm::all_of(plan.forwards, [&](Forward &f) {
        return f.copy.getType().getEncoding() == tmaEncoding ||
               retypable(f.copy);
      });
  if (!plan.blocks.empty()) {
    // Blocks of the slot are read in place: the field takes the copies'
    // encoding in row-major order (each copy is a wgmma operand in either
    // major order), which must lay every block out as a buffer of its own.
    // The TMA copies keep their staging buffers.
    plan.fills.clear();
    plan.stores.clear();
    for (Attribute enc : copyEncodings) {
      auto nvmma =
          cast<ttg::NVMMASharedEncodingAttr>(enc).withTransposed(false);
      if (plan.encoding && plan.encoding != nvmma)
        return false;
      plan.encoding = nvmma;
    }
    if (!plan.encoding || llvm::any_of(plan.forwards, [](Forward &f) {
          return !retypable(f.copy, /*throughTrans=*/true);
        }))
      return false;
    auto nvmma = cast<ttg::NVMMASharedEncodingAttr>(plan.encoding);
    ArrayRef<int64_t> slotShape =
        plan.slots.front().getView().getType().getShape();
    if (!llvm::all_of(plan.blocks, [&](ttg::MemDescSubsliceOp sub) {
          return blockFits(nvmma, slotShape, sub);
        }))
      return false;
  } else if (tmaFits) {
    plan.encoding = tmaEncoding;
  } else {
    plan.fills.clear();
    plan.stores.clear();
    for (Attribute enc : copyEncodings) {
      if (plan.encoding && plan.encoding != enc)
        return false;
      plan.encoding = enc;
    }
  }
  // A reader's store into the field (FlagTree's kernels write their output
  // tile into the Q slot): with the copy gone, the wgmma reads the slot
  // until its wait, no longer at the load. The same reader's store must
  // come after every forwarded read in program order; another reader's
  // store can only be ordered after a read by a signal the reading reader
  // sends, so none may be sent between the load and the wait.
  for (PipeSlotOp slot : plan.slots) {
    if (!slot.getSlot().getDefiningOp<PipeReaderWaitOp>())
      continue;
    for (Operation *user : slot.getView().getUsers()) {
      if (!isa<LocalStoreOp>(user))
        continue;
      for (Forward &f : plan.forwards) {
        Operation *read = inBlock(user->getBlock(), f.lastRead);
        if (read ? !read->isBeforeInBlock(user) : !quietRead(f))
          return false;
      }
    }
  }
  return !plan.forwards.empty() || !plan.fills.empty() || !plan.stores.empty();
}

void forwardCopies(FieldPlan &plan);

/// Retypes the results of the ops that carry `value` on (views, waits) after
/// `value` changed type: a wait's result takes it; a `ttg.memdesc_trans`
/// becomes mutable and, with `relayout` (a block of a slot now, not a copy
/// in the transposed view's own encoding), takes the permuted allocation
/// shape and the other major order of `value`'s NVMMA encoding.
void retypeUsers(Value value, bool relayout) {
  auto type = cast<ttg::MemDescType>(value.getType());
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    Value result;
    Type retyped;
    if (auto trans = dyn_cast<ttg::MemDescTransOp>(user)) {
      result = trans.getResult();
      auto old = cast<ttg::MemDescType>(result.getType());
      retyped = old.asMutable();
      auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(type.getEncoding());
      if (relayout && nvmma && type.getRank() == 2) {
        SmallVector<int64_t> alloc;
        for (int32_t d : trans.getOrder())
          alloc.push_back(type.getAllocShape()[d]);
        retyped = ttg::MemDescType::get(
            old.getShape(), old.getElementType(),
            nvmma.withTransposed(!nvmma.getTransposed()), old.getMemorySpace(),
            /*mutableMemory=*/true, alloc);
      }
    } else if (auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(user)) {
      result = wait.getResult(use.getOperandNumber());
      retyped = type;
    }
    if (!result || result.getType() == retyped)
      continue;
    result.setType(retyped);
    retypeUsers(result, relayout);
  }
}

void apply(FieldPlan &plan) {
  auto [create, index] = plan.uses.front();
  MLIRContext *ctx = create.getContext();
  // The field, the pipe types and every slot view of the field.
  Value field = create.getFields()[index];
  field.setType(
      cast<ttg::MemDescType>(field.getType()).withEncoding(plan.encoding));
  for (auto [pipe, i] : plan.uses) {
    auto pipeType = cast<PipeType>(pipe.getPipe().getType());
    SmallVector<Type> fieldTypes(pipe.getFields().getTypes());
    pipe.getPipe().setType(PipeType::get(
        ctx, pipeType.getCapacity(), pipeType.getFieldNames(), fieldTypes,
        pipeType.getReaders(), pipeType.getOneShot()));
  }
  for (PipeSlotOp slot : plan.slots)
    slot.getView().setType(
        slot.getView().getType().withEncoding(plan.encoding));
  for (ttg::MemDescSubsliceOp sub : plan.blocks)
    sub.getResult().setType(cast<ttg::MemDescType>(sub.getResult().getType())
                                .withEncoding(plan.encoding));

  forwardCopies(plan);
  // The TMA copies write and read the slot in place.
  for (TmaFill &fill : plan.fills) {
    fill.copy.getResultMutable().assign(fill.slot.getView());
    fill.store->erase();
    fill.load->erase();
    fill.staging->erase();
  }
  for (TmaStore &store : plan.stores) {
    Operation *load = store.staging.getSrc().getDefiningOp();
    store.copy.getSrcMutable().assign(store.slot.getView());
    store.staging->erase();
    if (load->use_empty())
      load->erase();
  }
}

/// The copies become the views (or the guarded buffer); releases follow the
/// last read.
void forwardCopies(FieldPlan &plan) {
  for (Forward &f : plan.forwards) {
    Value load = f.copy.getSrc();
    Value view = f.block  ? f.block.getResult()
                 : f.slot ? f.slot.getView()
                          : load.getDefiningOp<LocalLoadOp>().getBuffer();
    f.copy.getResult().replaceAllUsesWith(view);
    retypeUsers(view, /*relayout=*/static_cast<bool>(f.block));
    f.copy->erase();
    if (load.use_empty())
      load.getDefiningOp()->erase();
    if (f.release && f.release->isBeforeInBlock(f.lastRead))
      f.release->moveAfter(f.lastRead);
  }
}

//===----------------------------------------------------------------------===//
// Buffers a pipe guards
//===----------------------------------------------------------------------===//

/// The nearest op before (`forward` false) or after `op` in its block that
/// is an endpoint op of `pipe` (acquire, commit, wait, release; not a slot
/// view), or null.
Operation *nearestEndpoint(Operation *op, Value pipe, bool forward) {
  for (Operation *it = forward ? op->getNextNode() : op->getPrevNode(); it;
       it = forward ? it->getNextNode() : it->getPrevNode())
    if (touchesPipe(it, pipe))
      return it;
  return nullptr;
}

/// The reader_release that closes the read section `load` sits in: after a
/// reader_wait of `pipe` and before a release by the same reader, with no
/// other endpoint op of `pipe` between them in `load`'s block.
PipeReaderReleaseOp readSection(Operation *load, Value pipe) {
  auto wait =
      dyn_cast_or_null<PipeReaderWaitOp>(nearestEndpoint(load, pipe, false));
  auto release =
      dyn_cast_or_null<PipeReaderReleaseOp>(nearestEndpoint(load, pipe, true));
  if (!wait || !release || wait.getReader() != release.getReader())
    return {};
  return release;
}

/// Whether `store` sits between a writer_acquire and a writer_commit of
/// `pipe`, with no other endpoint op of it between them in its block.
bool inWriteSection(Operation *store, Value pipe) {
  return isa_and_nonnull<PipeWriterAcquireOp>(
             nearestEndpoint(store, pipe, false)) &&
         isa_and_nonnull<PipeWriterCommitOp>(
             nearestEndpoint(store, pipe, true));
}

/// A plain `tle.alloc` buffer (not a pipe field) that a capacity-1 pipe
/// guards: every `tle.local_store` of it lies in a write section of the
/// pipe (acquire .. commit) and every `tle.local_load` in a read section
/// (wait .. release of one reader), so a reader's copy of it into a wgmma
/// operand may read the buffer in place until the wgmma is waited for, if
/// the release moves after that wait (FlagTree's sparse MLA: the P tile
/// its score pipe hands from one warpgroup to the other). Fills `plan`
/// (its `uses` and `slots` empty).
bool planGuarded(AllocOp alloc, PipeCreateOp create, FieldPlan &plan) {
  auto type = cast<PipeType>(create.getPipe().getType());
  auto bufType = cast<ttg::MemDescType>(alloc.getResult().getType());
  if (type.getCapacity() != 1 || type.getOneShot() ||
      alloc.getScope() != MemorySpace::smem || !isDefaultLayout(bufType) ||
      bufType.getElementTypeBitWidth() != 16)
    return false;
  Value pipe = create.getPipe();
  for (Operation *user : alloc->getUsers()) {
    if (auto store = dyn_cast<LocalStoreOp>(user)) {
      if (store.getBuffer() != alloc.getResult() ||
          !inWriteSection(store, pipe))
        return false;
      continue;
    }
    auto load = dyn_cast<LocalLoadOp>(user);
    if (!load)
      return false;
    PipeReaderReleaseOp release = readSection(load, pipe);
    if (!release)
      return false;
    for (Operation *loadUser : load.getResult().getUsers()) {
      auto copy = dyn_cast<ttg::LocalAllocOp>(loadUser);
      if (!copy)
        continue;
      if (copy->getBlock() != release->getBlock())
        return false;
      Operation *lastRead = lastReadIn(release->getBlock(), copy.getResult());
      ttg::MemDescType copyType = copy.getType();
      auto enc = dyn_cast<ttg::NVMMASharedEncodingAttr>(copyType.getEncoding());
      if (!lastRead || !enc || copyType.getShape() != bufType.getShape() ||
          copyType.getElementType() != bufType.getElementType() ||
          !releaseCanMove(release, lastRead))
        return false;
      if (plan.encoding && plan.encoding != enc)
        return false;
      plan.encoding = enc;
      plan.forwards.push_back(Forward{copy, PipeSlotOp(), release, lastRead});
    }
  }
  return !plan.forwards.empty();
}

void applyGuarded(AllocOp alloc, FieldPlan &plan) {
  // Its stores and loads take the buffer's type as it is.
  alloc.getResult().setType(cast<ttg::MemDescType>(alloc.getResult().getType())
                                .withEncoding(plan.encoding));
  forwardCopies(plan);
}

struct ForwardPipeMmaOperandsPass
    : public impl::TLEForwardPipeMmaOperandsBase<ForwardPipeMmaOperandsPass> {
  void runOnOperation() override {
    SmallVector<PipeCreateOp> creates;
    getOperation().walk([&](PipeCreateOp op) { creates.push_back(op); });
    // Each buffer once, with every pipe it is a field of (when only pipes
    // use it).
    llvm::SmallPtrSet<Value, 8> planned;
    for (PipeCreateOp create : creates)
      for (unsigned i = 0, e = create.getFields().size(); i < e; ++i) {
        Value field = create.getFields()[i];
        if (!planned.insert(field).second)
          continue;
        FieldPlan plan;
        for (OpOperand &use : field.getUses()) {
          auto pipe = dyn_cast<PipeCreateOp>(use.getOwner());
          if (!pipe) {
            plan.uses.clear();
            break;
          }
          plan.uses.push_back(
              {pipe, use.getOperandNumber() -
                         pipe.getFields().getBeginOperandIndex()});
        }
        if (plan.uses.empty())
          continue;
        if (planField(plan))
          apply(plan);
      }
    // Plain buffers a pipe guards (not fields of any pipe).
    llvm::SmallPtrSet<Value, 8> fields;
    for (PipeCreateOp create : creates)
      fields.insert(create.getFields().begin(), create.getFields().end());
    SmallVector<AllocOp> allocs;
    getOperation().walk([&](AllocOp alloc) {
      if (!fields.contains(alloc.getResult()))
        allocs.push_back(alloc);
    });
    for (AllocOp alloc : allocs)
      for (PipeCreateOp create : creates) {
        FieldPlan plan;
        if (planGuarded(alloc, create, plan)) {
          applyGuarded(alloc, plan);
          break;
        }
      }
  }
};

} // namespace
} // namespace mlir::tle
