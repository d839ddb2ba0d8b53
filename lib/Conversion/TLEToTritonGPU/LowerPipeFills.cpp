//===- LowerPipeFills.cpp - pipe slot fills: cp.async and TMA -------------===//
//
// triton-tle-lower-pipes (LowerPipes.cpp), the slot fills: a
// tle.gpu.copy(is_async=True) into a writer's slot becomes one cp.async
// (docs/warp-specialize.md, "Asynchronous slot fills"), and a tle.gpu.copy
// from a tensor descriptor gathers by TMA straight into the slot, on the
// slot's ready barrier ("Slot fills by TMA").
//
//===----------------------------------------------------------------------===//
#include "AsyncCopy.h"
#include "LayoutChain.h"
#include "Pipes.h"
#include "TargetCheck.h"

#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TTG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;

namespace mlir::tle::pipes {

/// Can `load`, stored whole into a slot view, be one cp.async? Its layout
/// (Triton's coalescing chose it from the pointers' contiguity and
/// alignment) must give each thread 4 to 16 contiguous bytes: cp.async
/// copies 4, 8 or 16.
static bool asyncCopyable(tt::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || !type.getElementType().isIntOrFloat())
    return false;
  auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(type.getEncoding());
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (!blocked || bits % 8 || !async_copy::isPlainLoad(load))
    return false;
  unsigned fastest = blocked.getOrder().front();
  unsigned bytes = blocked.getSizePerThread()[fastest] * bits / 8;
  return bytes >= async_copy::kMinCopyBytes &&
         bytes <= async_copy::kMaxCopyBytes && !load.getMask() &&
         !load.getOther();
}

/// The tle.gpu.copy(is_async=True) stores into this pipe's slot views.
LogicalResult PipeLowering::collectAsyncFills() {
  bool ok = true;
  for (Operation *user : create.getPipe().getUsers()) {
    auto view = dyn_cast<PipeSlotOp>(user);
    if (!view)
      continue;
    for (Operation *viewUser :
         llvm::make_early_inc_range(view.getView().getUsers())) {
      if (auto tma = dyn_cast<LocalStoreOp>(viewUser);
          tma && tma->hasAttr(kTmaFillAttr) &&
          tma.getBuffer() == view.getView()) {
        tma->removeAttr(kTmaFillAttr);
        if (isPointerView(view)) {
          error(tma) << "tle.gpu.copy from a tensor descriptor fills field '"
                     << view.getField()
                     << "', which tle.gpu.local_ptr also reads or writes: a "
                        "TMA fill needs a shared-memory buffer, local "
                        "pointers a pointer buffer; give the field one kind "
                        "of access";
          ok = false;
        } else if (failed(collectTmaFill(tma, view))) {
          ok = false;
        }
        continue;
      }
      // Both stores take (value, buffer).
      Operation *store = viewUser;
      auto load = isa<LocalStoreOp, ttg::LocalStoreOp>(store) &&
                          store->getOperand(1) == view.getView()
                      ? store->getOperand(0).getDefiningOp<tt::LoadOp>()
                      : tt::LoadOp();
      if (!load || !load->hasAttr(kAsyncCopyAttr))
        continue;
      load->removeAttr(kAsyncCopyAttr);
      if (!view.getSlot().getDefiningOp<PipeWriterAcquireOp>()) {
        error(store) << "tle.gpu.copy(is_async=True) writes a slot a reader "
                        "waited for; asynchronous copies fill the writer's "
                        "slots (from acquire())";
        ok = false;
        continue;
      }
      // Not one cp.async (e.g. 2-byte vectors), or into a field read through
      // local pointers (plain stores into TLE's region): the load and store
      // stay, synchronous and correct; the commit publishes them as usual.
      if (asyncCopyable(load) && !isPointerView(view))
        asyncFills.push_back({store, load});
    }
  }
  return success(ok);
}

SmallVector<PipeWriterCommitOp> PipeLowering::commitsOf(PipeSlotOp view) {
  SmallVector<Value, 2> slots{view.getSlot()};
  if (auto acquire = view.getSlot().getDefiningOp<PipeWriterAcquireOp>())
    if (Value stage = acquire.getStage())
      slots.push_back(stage);
  SmallVector<PipeWriterCommitOp> commits;
  for (Value slot : slots)
    for (Operation *user : slot.getUsers())
      if (auto commit = dyn_cast<PipeWriterCommitOp>(user);
          commit && commit.getPipe() == create.getPipe())
        commits.push_back(commit);
  return commits;
}

/// Finds TritonGPU's expansion of the tt.descriptor_gather whose value
/// `store` writes into the slot `view`, checks the fill, and lays the
/// field out as the descriptor's TMA writes it.
LogicalResult PipeLowering::collectTmaFill(LocalStoreOp store,
                                           PipeSlotOp view) {
  if (!view.getSlot().getDefiningOp<PipeWriterAcquireOp>())
    return error(store) << "tle.gpu.copy from a tensor descriptor writes a "
                           "slot a reader waited for; TMA fills fill the "
                           "writer's slots (from acquire())";
  // local_store(local_load(scratch)) (through layout conversions used only
  // there), scratch filled by one gather.
  if (failed(target::require(store, 90,
                             "tle.gpu.copy from a tensor descriptor (a TMA "
                             "fill of a pipe slot)")))
    return failure();
  TmaFill fill{store, view, {}, {}};
  SmallVector<Operation *> converts;
  Value value = conversion::throughConverts(store.getValue(), converts);
  auto load = value.getDefiningOp<ttg::LocalLoadOp>();
  auto scratch = load ? load.getSrc().getDefiningOp<ttg::LocalAllocOp>()
                      : ttg::LocalAllocOp();
  ttng::AsyncTMAGatherOp gather;
  bool shaped =
      scratch && !scratch.getSrc() && load->hasOneUse() &&
      llvm::all_of(converts, [](Operation *op) { return op->hasOneUse(); });
  if (shaped) {
    fill.expansion.push_back(scratch);
    for (Operation *user : scratch->getUsers()) {
      if (auto g = dyn_cast<ttng::AsyncTMAGatherOp>(user);
          g && g.getResult() == scratch.getResult() && !gather) {
        gather = g;
      } else if (user == load.getOperation()) {
        fill.expansion.push_back(load);
        llvm::append_range(fill.expansion, converts);
      } else {
        shaped = false;
      }
    }
  }
  auto barrier = gather ? gather.getBarrier().getDefiningOp<ttg::LocalAllocOp>()
                        : ttg::LocalAllocOp();
  shaped = shaped && barrier;
  if (shaped) {
    fill.expansion.push_back(barrier);
    for (Operation *user : barrier->getUsers()) {
      if (user == gather.getOperation())
        continue;
      if (!isa<ttng::InitBarrierOp, ttng::BarrierExpectOp, ttng::WaitBarrierOp,
               ttng::InvalBarrierOp>(user)) {
        shaped = false;
        break;
      }
      fill.expansion.push_back(user);
    }
  }
  if (!shaped)
    return error(store)
           << "tle.gpu.copy from a tensor descriptor: the value stored is not "
              "TritonGPU's TMA gather of the descriptor rows (a ttg.local_load "
              "of a buffer that one ttng.async_tma_gather fills on a barrier "
              "of "
              "its own)";
  fill.gather = gather;
  auto descType = cast<tt::TensorDescType>(gather.getDesc().getType());
  auto block = descType.getBlockType();
  auto enc =
      dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(block.getEncoding());
  auto viewType = cast<ttg::MemDescType>(view.getView().getType());
  if (!enc)
    return error(store) << "tle.gpu.copy from a tensor descriptor: the "
                           "descriptor's block "
                        << block << " has no NVMMA shared layout for TMA";
  auto gatherType = cast<ttg::MemDescType>(gather.getResult().getType());
  if (gatherType.getShape() != viewType.getShape() ||
      gatherType.getElementType() != viewType.getElementType())
    return error(store) << "tle.gpu.copy from a tensor descriptor gathers "
                        << gatherType << " into a slot field of type "
                        << viewType;
  // sm_90 has no gather4: each row is a tile copy of its own (llir finish,
  // TmaGather.h) to the row's address, which TMA needs 128-byte aligned.
  int64_t boxBytes = llvm::divideCeil(
      viewType.getShape().back() * viewType.getElementTypeBitWidth(), 8);
  if (enc.getSwizzlingByteWidth())
    boxBytes = std::min<int64_t>(boxBytes, enc.getSwizzlingByteWidth());
  auto target = module->getAttrOfType<StringAttr>(interop::kTargetAttr);
  std::optional<unsigned> capability =
      target ? common::cudaCapability(target.getValue()) : std::nullopt;
  if (capability && *capability < 100 && boxBytes % 128)
    return error(store) << "tle.gpu.copy from a tensor descriptor on "
                        << target.getValue()
                        << " copies each gathered row to its own 128-byte "
                           "aligned address (Hopper has no TMA gather4): a row "
                           "of the descriptor's box must be a multiple of 128 "
                           "bytes, got "
                        << boxBytes;
  int64_t bytes = llvm::divideCeil(
      viewType.getNumElements() * viewType.getElementTypeBitWidth(), 8);

  // The commit of the slot, after the fill in the same block: its expect_tx
  // must count exactly the fills that ran.
  PipeWriterCommitOp commit;
  for (PipeWriterCommitOp c : commitsOf(view))
    if (c->getBlock() == store->getBlock() && store->isBeforeInBlock(c))
      commit = c;
  if (!commit)
    return error(store) << "tle.gpu.copy from a tensor descriptor must be "
                           "committed by a writer commit of its slot in the "
                           "same block (the commit expects the bytes of the "
                           "fills before it; with cursors, commit the cursor "
                           "the slot was acquired with)";
  commitBytes[commit] += bytes;
  if (commitBytes[commit] >= (int64_t(1) << 20))
    return error(commit) << "commits " << commitBytes[commit]
                         << " bytes of TMA fills; an mbarrier counts fewer "
                            "than 2^20 per phase";

  // The field's layout: the descriptor's, unless it is laid out already.
  unsigned fieldIndex = *type.getFieldIndex(view.getField());
  Value field = create.getFields()[fieldIndex];
  auto fieldType = cast<ttg::MemDescType>(field.getType());
  if (fieldType.getEncoding() != enc) {
    auto plain =
        dyn_cast<ttg::SwizzledSharedEncodingAttr>(fieldType.getEncoding());
    if (!plain || plain.getMaxPhase() != 1 || plain.getVec() != 1)
      return error(store) << "field '" << view.getField() << "' is laid out as "
                          << fieldType.getEncoding()
                          << ", but the tensor descriptor's TMA writes " << enc;
    if (!field.getDefiningOp())
      return error(store) << "field '" << view.getField()
                          << "' is a block argument; a TMA-filled field must "
                             "be allocated where it can take the descriptor's "
                          << enc << " layout";
    field.setType(fieldType.withEncoding(enc));
    SmallVector<Type> fieldTypes(create.getFields().getTypes());
    create.getPipe().setType(PipeType::get(
        create.getContext(), type.getCapacity(), type.getFieldNames(),
        fieldTypes, type.getReaders(), type.getOneShot()));
    type = cast<PipeType>(create.getPipe().getType());
    for (Operation *user : create.getPipe().getUsers())
      if (auto other = dyn_cast<PipeSlotOp>(user);
          other && other.getField() == view.getField())
        other.getView().setType(
            cast<ttg::MemDescType>(other.getView().getType())
                .withEncoding(enc));
  }
  tmaFills.push_back(std::move(fill));
  return success();
}

/// Each TMA fill gathers straight into the slot, on the slot's ready
/// barrier; TritonGPU's scratch buffer, its barrier and its wait go.
void PipeLowering::lowerTmaFills() {
  for (TmaFill &fill : tmaFills) {
    OpBuilder b(fill.store);
    Location loc = fill.store.getLoc();
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    ttng::AsyncTMAGatherOp::create(
        b, fill.gather.getLoc(), fill.gather.getDesc(),
        fill.gather.getXOffsets(), fill.gather.getYOffset(),
        index(b, loc, ready, fill.view.getSlot()), fill.store.getBuffer(), yes);
    fill.store->erase();
    fill.gather->erase();
    // Each op once nothing uses it (collectTmaFill checked that nothing
    // outside the expansion does).
    SmallVector<Operation *> left(fill.expansion);
    for (bool progress = true; progress && !left.empty();) {
      progress = false;
      for (auto *it = left.begin(); it != left.end();) {
        if (!(*it)->use_empty()) {
          ++it;
          continue;
        }
        (*it)->erase();
        it = left.erase(it);
        progress = true;
      }
    }
    assert(left.empty() && "a TMA fill's expansion is used outside it");
  }
}

/// Each fill becomes a cp.async into the slot, where the store was (after the
/// acquire that freed the slot); the load goes when nothing else reads it.
void PipeLowering::lowerAsyncFills() {
  for (auto [store, load] : asyncFills) {
    OpBuilder b(store);
    ttg::AsyncCopyGlobalToLocalOp::create(
        b, load.getLoc(), load.getPtr(), store->getOperand(1), load.getMask(),
        load.getOther(), ttg::CacheModifier::NONE, ttg::EvictionPolicy::NORMAL);
    store->erase();
    if (load->use_empty())
      load.erase();
  }
}

} // namespace mlir::tle::pipes
