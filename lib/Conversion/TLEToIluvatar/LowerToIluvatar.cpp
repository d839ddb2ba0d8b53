//===- LowerToIluvatar.cpp - TLE ops -> Triton + iluvatar_tle ops ---------===//
//
// triton-tle-lower-to-iluvatar (docs/iluvatar.md): FlagTree's Iluvatar rules
// for the five TLE-Struct primitives. Buffers stay Triton memdescs
// (ttg.local_alloc), pointers into them are iluvatar_tle.local_pointers that
// the Iluvatar backend resolves from the shared layout, copies are plain
// loads and stores through such pointers, and tiles become iluvatar_tle
// tiles on #ttg.blocked tensors.
//
//===----------------------------------------------------------------------===//
#include "TLE/Conversion/TLEToIluvatar/Passes.h"
#include "TLE/Conversion/TLEToIluvatar/Target.h"
#include "TLE/Conversion/TritonBuilders.h"
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLE.h"
#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERTOILUVATAR
#include "TLE/Conversion/TLEToIluvatar/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

constexpr int kSharedAddressSpace = 3;

/// FlagTree's Iluvatar alloc rules: shared memory, swizzled shared layout.
LogicalResult checkAlloc(AllocOp alloc) {
  if (alloc.getScope() == MemorySpace::tmem)
    return alloc.emitError("iluvatar TLE alloc does not support tmem storage");
  ttg::MemDescType type = alloc.getResult().getType();
  if (!isa<ttg::SharedMemorySpaceAttr>(type.getMemorySpace()))
    return alloc.emitError("iluvatar TLE alloc only supports smem storage");
  Attribute encoding = type.getEncoding();
  if (isa_and_nonnull<ttg::NVMMASharedEncodingAttr>(encoding))
    return alloc.emitError(
        "iluvatar TLE alloc does not support nv_mma_shared_layout=True");
  if (!isa_and_nonnull<ttg::SwizzledSharedEncodingAttr>(encoding))
    return alloc.emitError("iluvatar TLE alloc only supports a "
                           "#ttg.swizzled_shared layout, got ")
           << tle::common::encodingStr(encoding);
  return success();
}

/// The Iluvatar tile lowering handles ranked tensors with a #ttg.blocked
/// encoding only.
LogicalResult checkBlocked(Operation *op, StringRef opName, Type type,
                           StringRef what) {
  auto tensor = cast<RankedTensorType>(type);
  if (!isa_and_nonnull<ttg::BlockedEncodingAttr>(tensor.getEncoding()))
    return op->emitError("iluvatar TLE ")
           << opName << " only supports BlockedEncodingAttr (#ttg.blocked); "
           << what << " encoding is "
           << tle::common::encodingStr(tensor.getEncoding());
  return success();
}


/// Full-view local pointers to `buffer` in the shape and encoding of the
/// global pointer tensor `like`.
Value fullView(OpBuilder &b, Location loc, Value buffer,
               RankedTensorType like) {
  auto memdesc = cast<ttg::MemDescType>(buffer.getType());
  auto ptrType = tt::PointerType::get(memdesc.getElementType(),
                                      kSharedAddressSpace);
  auto type = RankedTensorType::get(memdesc.getShape(), ptrType,
                                    like.getEncoding());
  return iluvatar_tle::LocalPointersOp::create(b, loc, type, buffer,
                                               ValueRange{});
}

struct LowerToIluvatarPass
    : public mlir::tle::impl::TLELowerToIluvatarBase<LowerToIluvatarPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef target = moduleTarget(module);
    if (!isIluvatarTarget(target)) {
      module.emitError("triton-tle-lower-to-iluvatar lowers TLE for Iluvatar "
                       "targets only (ttg.target = \"iluvatar:<arch>\"); ")
          << (target.empty() ? std::string("this module has no ttg.target")
                             : "this module targets '" + target.str() + "'")
          << " (NVIDIA modules use triton-tle-lower-local-memory)";
      return signalPassFailure();
    }
    if (iluvatarArch(target).empty()) {
      module.emitError("malformed Iluvatar target '")
          << target << "'; expected \"iluvatar:<arch>\" with <arch> made of "
                       "letters, digits and '_'";
      return signalPassFailure();
    }

    // Check everything first, so that every error is reported and nothing
    // is rewritten when one is.
    bool ok = true;
    module.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<AllocOp>(op))
        ok &= succeeded(checkAlloc(alloc));
      else if (auto extract = dyn_cast<ExtractTileOp>(op))
        ok &= succeeded(checkBlocked(op, "extract_tile",
                                     extract.getSrc().getType(), "source")) &&
              succeeded(checkBlocked(op, "extract_tile",
                                     extract.getResult().getType(), "result"));
      else if (auto insert = dyn_cast<InsertTileOp>(op))
        ok &= succeeded(checkBlocked(op, "insert_tile",
                                     insert.getSrc().getType(), "source")) &&
              succeeded(checkBlocked(op, "insert_tile",
                                     insert.getTile().getType(), "tile"));
    });
    if (!ok)
      return signalPassFailure();

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<AllocOp, LocalPointersOp, CopyOp, LocalLoadOp, LocalStoreOp,
              ExtractTileOp, InsertTileOp>(op))
        ops.push_back(op);
    });
    // Program order: an alloc is rewritten before its users.
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<AllocOp>(op)) {
        auto lowered = ttg::LocalAllocOp::create(
            b, loc, alloc.getResult().getType(), alloc.getInit(),
            IntegerAttr());
        alloc.getResult().replaceAllUsesWith(lowered.getResult());
      } else if (auto pointers = dyn_cast<LocalPointersOp>(op)) {
        auto lowered = iluvatar_tle::LocalPointersOp::create(
            b, loc, pointers.getResult().getType(), pointers.getBuffer(),
            pointers.getIndices());
        pointers.getResult().replaceAllUsesWith(lowered.getResult());
      } else if (auto copy = dyn_cast<CopyOp>(op)) {
        if (isa<ttg::MemDescType>(copy.getDst().getType())) {
          auto ptrs = cast<RankedTensorType>(copy.getSrc().getType());
          Value value = createPlainLoad(b, loc, copy.getSrc());
          createPlainStore(b, loc, fullView(b, loc, copy.getDst(), ptrs), value);
        } else {
          auto ptrs = cast<RankedTensorType>(copy.getDst().getType());
          Value local = fullView(b, loc, copy.getSrc(), ptrs);
          createPlainStore(b, loc, copy.getDst(), createPlainLoad(b, loc, local));
        }
      } else if (auto load = dyn_cast<LocalLoadOp>(op)) {
        auto lowered = ttg::LocalLoadOp::create(
            b, loc, load.getResult().getType(), load.getBuffer(), Value());
        load.getResult().replaceAllUsesWith(lowered.getResult());
      } else if (auto store = dyn_cast<LocalStoreOp>(op)) {
        ttg::LocalStoreOp::create(b, loc, store.getValue(), store.getBuffer());
      } else if (auto extract = dyn_cast<ExtractTileOp>(op)) {
        auto lowered = iluvatar_tle::ExtractTileOp::create(
            b, loc, extract.getResult().getType(), extract.getSrc(),
            extract.getIndex(), extract.getStaticIndexAttr());
        extract.getResult().replaceAllUsesWith(lowered.getResult());
      } else if (auto insert = dyn_cast<InsertTileOp>(op)) {
        auto lowered = iluvatar_tle::InsertTileOp::create(
            b, loc, insert.getResult().getType(), insert.getSrc(),
            insert.getTile(), insert.getIndex(), insert.getStaticIndexAttr());
        insert.getResult().replaceAllUsesWith(lowered.getResult());
      }
    }
    // Users first: an alloc's uses are gone once its users are erased.
    for (Operation *op : llvm::reverse(ops))
      op->erase();
  }
};

} // namespace
