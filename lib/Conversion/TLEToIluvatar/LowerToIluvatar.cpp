//===- LowerToIluvatar.cpp - TLE ops -> Triton + iluvatar_tle ops ---------===//
//
// triton-tle-lower-to-iluvatar (docs/iluvatar.md): FlagTree's Iluvatar rules
// for the five TLE-Struct primitives. Buffers stay Triton memdescs
// (ttg.local_alloc), pointers into them are iluvatar_tle.local_pointers that
// the Iluvatar backend resolves from the shared layout, copies are plain
// loads and stores through such pointers, and tiles become iluvatar_tle
// tiles on #ttg.blocked tensors. One pattern per op
// (populateTLEToIluvatarPatterns, TLE/Conversion/TLEToIluvatar/Patterns.h),
// offered the ops in program order once the pass has checked them all.
//
//===----------------------------------------------------------------------===//
#include "TLE/Conversion/TLEToIluvatar/Passes.h"
#include "TLE/Conversion/TLEToIluvatar/Patterns.h"
#include "TLE/Conversion/TLEToIluvatar/Target.h"
#include "TLE/Conversion/TritonBuilders.h"
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLE.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Support/ApplyPatterns.h"

#include "mlir/IR/PatternMatch.h"
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
  auto ptrType =
      tt::PointerType::get(memdesc.getElementType(), kSharedAddressSpace);
  auto type =
      RankedTensorType::get(memdesc.getShape(), ptrType, like.getEncoding());
  return iluvatar_tle::LocalPointersOp::create(b, loc, type, buffer,
                                               ValueRange{});
}

/// tle.alloc -> ttg.local_alloc.
struct LowerAlloc : OpRewritePattern<AllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllocOp alloc,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttg::LocalAllocOp>(
        alloc, alloc.getResult().getType(), alloc.getInit(), IntegerAttr());
    return success();
  }
};

/// tle.local_pointers -> iluvatar_tle.local_pointers.
struct LowerLocalPointers : OpRewritePattern<LocalPointersOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalPointersOp pointers,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<iluvatar_tle::LocalPointersOp>(
        pointers, pointers.getResult().getType(), pointers.getBuffer(),
        pointers.getIndices());
    return success();
  }
};

/// tle.copy -> a plain load and a plain store, one side through full-view
/// local pointers.
struct LowerCopy : OpRewritePattern<CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CopyOp copy,
                                PatternRewriter &rewriter) const override {
    Location loc = copy.getLoc();
    if (isa<ttg::MemDescType>(copy.getDst().getType())) {
      auto ptrs = cast<RankedTensorType>(copy.getSrc().getType());
      Value value = createPlainLoad(rewriter, loc, copy.getSrc());
      createPlainStore(rewriter, loc,
                       fullView(rewriter, loc, copy.getDst(), ptrs), value);
    } else {
      auto ptrs = cast<RankedTensorType>(copy.getDst().getType());
      Value local = fullView(rewriter, loc, copy.getSrc(), ptrs);
      createPlainStore(rewriter, loc, copy.getDst(),
                       createPlainLoad(rewriter, loc, local));
    }
    rewriter.eraseOp(copy);
    return success();
  }
};

/// tle.local_load -> ttg.local_load.
struct LowerLocalLoad : OpRewritePattern<LocalLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalLoadOp load,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttg::LocalLoadOp>(
        load, load.getResult().getType(), load.getBuffer(), Value());
    return success();
  }
};

/// tle.local_store -> ttg.local_store.
struct LowerLocalStore : OpRewritePattern<LocalStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalStoreOp store,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttg::LocalStoreOp>(store, store.getValue(),
                                                   store.getBuffer());
    return success();
  }
};

/// tle.extract_tile -> iluvatar_tle.extract_tile.
struct LowerExtractTile : OpRewritePattern<ExtractTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExtractTileOp extract,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<iluvatar_tle::ExtractTileOp>(
        extract, extract.getResult().getType(), extract.getSrc(),
        extract.getIndex(), extract.getStaticIndexAttr());
    return success();
  }
};

/// tle.insert_tile -> iluvatar_tle.insert_tile.
struct LowerInsertTile : OpRewritePattern<InsertTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(InsertTileOp insert,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<iluvatar_tle::InsertTileOp>(
        insert, insert.getResult().getType(), insert.getSrc(), insert.getTile(),
        insert.getIndex(), insert.getStaticIndexAttr());
    return success();
  }
};

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
          << target
          << "'; expected \"iluvatar:<arch>\" with <arch> made of "
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
    RewritePatternSet patterns(&getContext());
    populateTLEToIluvatarPatterns(patterns);
    applyPatternsInOrder(ops, std::move(patterns));
  }
};

} // namespace

void tle::populateTLEToIluvatarPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerAlloc, LowerLocalPointers, LowerCopy, LowerLocalLoad,
               LowerLocalStore, LowerExtractTile, LowerInsertTile>(
      patterns.getContext());
}
