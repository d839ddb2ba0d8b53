//===- ForwardPipeMmaOperands.cpp - wgmma reads pipe slots in place -------===//
//
// triton-tle-forward-pipe-mma-operands: a pipe field that a reader only
// copies into a wgmma operand (`ttg.local_alloc (tle.local_load %slot)`) is
// allocated in that operand's NVMMA encoding and read in place; the reader's
// release moves after the wgmma that reads the slot is waited for. The rules
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

/// One `ttg.local_alloc (tle.local_load %slot)` to forward.
struct Forward {
  ttg::LocalAllocOp copy;
  PipeSlotOp slot;
  PipeReaderReleaseOp release;
  /// The last op of the release's block that reads the slot through `copy`.
  Operation *lastRead = nullptr;
};

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
  if (auto wait = slot.getSlot().getDefiningOp<PipeReaderWaitOp>();
      wait && wait.getStage())
    indices.push_back(wait.getStage());
  PipeReaderReleaseOp found;
  for (Value index : indices)
    for (Operation *user : index.getUsers()) {
      auto release = dyn_cast<PipeReaderReleaseOp>(user);
      if (!release || release.getPipe() != slot.getPipe() || release == found)
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
       op = op->getNextNode()) {
    bool touchesPipe = false;
    op->walk([&](Operation *inner) {
      if (inner->getDialect() == release->getDialect() &&
          llvm::is_contained(inner->getOperands(), release.getPipe()) &&
          !isa<PipeSlotOp>(inner))
        touchesPipe = true;
    });
    if (touchesPipe)
      return false;
  }
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
  unsigned index;
  Attribute encoding;
  SmallVector<PipeSlotOp> slots;
  SmallVector<Forward> forwards;
};

/// Whether field `index` of `create` can be read in place; fills `plan`.
bool planField(PipeCreateOp create, unsigned index, FieldPlan &plan) {
  Value field = create.getFields()[index];
  auto fieldType = cast<ttg::MemDescType>(field.getType());
  if (!isDefaultLayout(fieldType) || !field.hasOneUse())
    return false;
  StringAttr name =
      cast<PipeType>(create.getPipe().getType()).getFieldNames()[index];
  plan.index = index;
  for (Operation *user : create.getPipe().getUsers()) {
    auto slot = dyn_cast<PipeSlotOp>(user);
    if (slot && slot.getFieldAttr() == name)
      plan.slots.push_back(slot);
  }
  for (PipeSlotOp slot : plan.slots) {
    for (Operation *user : slot.getView().getUsers()) {
      if (isa<LocalStoreOp>(user))
        continue;
      auto load = dyn_cast<LocalLoadOp>(user);
      if (!load || load.getBuffer() != slot.getView())
        return false;
      for (Operation *loadUser : load.getResult().getUsers()) {
        auto copy = dyn_cast<ttg::LocalAllocOp>(loadUser);
        if (!copy)
          continue; // a register use: the load stays
        // A copy some other op reads (a TMA store's staging buffer) stays,
        // with its load.
        Operation *lastInBlock = lastReadIn(copy->getBlock(), copy.getResult());
        if (!lastInBlock)
          continue;
        ttg::MemDescType copyType = copy.getType();
        auto enc =
            dyn_cast<ttg::NVMMASharedEncodingAttr>(copyType.getEncoding());
        ttg::MemDescType viewType = slot.getView().getType();
        if (!enc || copyType.getShape() != viewType.getShape() ||
            copyType.getElementType() != viewType.getElementType() ||
            copyType.getMemorySpace() != viewType.getMemorySpace() ||
            copyType.getAllocShape() != copyType.getShape() ||
            (plan.encoding && plan.encoding != enc))
          return false;
        plan.encoding = enc;
        Forward f{copy, slot, releaseOf(slot, copy->getBlock())};
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
  return !plan.forwards.empty();
}

/// Retypes the results of the ops that carry `value` on (views, waits) after
/// `value` became mutable.
void propagateMutable(Value value) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    Value result;
    if (auto trans = dyn_cast<ttg::MemDescTransOp>(user))
      result = trans.getResult();
    else if (auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(user))
      result = wait.getResult(use.getOperandNumber());
    if (!result)
      continue;
    auto type = cast<ttg::MemDescType>(result.getType());
    if (type.getMutableMemory())
      continue;
    result.setType(type.asMutable());
    propagateMutable(result);
  }
}

void apply(PipeCreateOp create, FieldPlan &plan) {
  MLIRContext *ctx = create.getContext();
  // The field, the pipe type and every slot view of the field.
  Value field = create.getFields()[plan.index];
  field.setType(
      cast<ttg::MemDescType>(field.getType()).withEncoding(plan.encoding));
  auto pipeType = cast<PipeType>(create.getPipe().getType());
  SmallVector<Type> fieldTypes(create.getFields().getTypes());
  create.getPipe().setType(
      PipeType::get(ctx, pipeType.getCapacity(), pipeType.getFieldNames(),
                    fieldTypes, pipeType.getReaders(), pipeType.getOneShot()));
  for (PipeSlotOp slot : plan.slots)
    slot.getView().setType(
        slot.getView().getType().withEncoding(plan.encoding));

  // The copies become the views; releases follow the last read.
  for (Forward &f : plan.forwards) {
    Value load = f.copy.getSrc();
    f.copy.getResult().replaceAllUsesWith(f.slot.getView());
    propagateMutable(f.slot.getView());
    f.copy->erase();
    if (load.use_empty())
      load.getDefiningOp()->erase();
    if (f.release && f.release->isBeforeInBlock(f.lastRead))
      f.release->moveAfter(f.lastRead);
  }
}

struct ForwardPipeMmaOperandsPass
    : public impl::TLEForwardPipeMmaOperandsBase<ForwardPipeMmaOperandsPass> {
  void runOnOperation() override {
    SmallVector<PipeCreateOp> creates;
    getOperation().walk([&](PipeCreateOp op) { creates.push_back(op); });
    for (PipeCreateOp create : creates)
      for (unsigned i = 0, e = create.getFields().size(); i < e; ++i) {
        FieldPlan plan;
        if (planField(create, i, plan))
          apply(create, plan);
      }
  }
};

} // namespace
} // namespace mlir::tle
