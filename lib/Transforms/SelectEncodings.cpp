//===- SelectEncodings.cpp - encodings of local pointers and buffers ------===//
//
// triton-tle-select-encodings: register encodings for tle.local_pointers and
// whole-buffer accesses that save ttg.convert_layout ops, and a swizzled
// shared encoding for memdesc buffers read or written across banks. The
// rules are documented with the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "EraseDead.h"
#include "IndexSets.h"
#include "Rematerializer.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "triton-tle-select-encodings"

namespace mlir::tle {
#define GEN_PASS_DEF_TLESELECTENCODINGS
#include "TLE/Transforms/Passes.h.inc"

namespace {

RankedTensorType withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

Attribute encodingOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getEncoding() : Attribute();
}

/// The one encoding every user of `value` converts it to, when all users
/// are ttg.convert_layout ops to one encoding other than `value`'s.
Attribute commonConvertTarget(Value value) {
  Attribute target;
  if (value.use_empty())
    return {};
  for (Operation *user : value.getUsers()) {
    auto convert = dyn_cast<ttg::ConvertLayoutOp>(user);
    if (!convert)
      return {};
    Attribute encoding = convert.getType().getEncoding();
    if (target && target != encoding)
      return {};
    target = encoding;
  }
  return target == encodingOf(value) ? Attribute() : target;
}

/// Replaces every convert user of `old` by `replacement` (which has the
/// converts' type) and erases them.
void replaceConvertUsers(Value old, Value replacement) {
  for (Operation *user : llvm::make_early_inc_range(old.getUsers())) {
    user->getResult(0).replaceAllUsesWith(replacement);
    user->erase();
  }
}

void eraseIfDead(Operation *op) {
  if (op && op->use_empty())
    op->erase();
}

/// A copy of `load` reading through `ptr` (whose encoding it takes).
tt::LoadOp rebuildLoad(OpBuilder &builder, tt::LoadOp load, Value ptr) {
  OperationState state(load.getLoc(), load->getName());
  state.addOperands(ptr);
  state.addTypes(withEncoding(load.getType(), encodingOf(ptr)));
  state.addAttributes(load->getAttrs());
  return cast<tt::LoadOp>(builder.create(state));
}

//===----------------------------------------------------------------------===//
// (a) full views, (b) indexed pointers
//===----------------------------------------------------------------------===//

LocalPointersOp tensorPointers(Value ptr) {
  auto view = ptr.getDefiningOp<LocalPointersOp>();
  return view && isa<RankedTensorType>(view.getType()) ? view
                                                       : LocalPointersOp();
}

/// `index` in `encoding` without a new convert, or null if it needs one.
Value freeIndex(OpBuilder &builder, Value index, Attribute encoding) {
  RankedTensorType type = withEncoding(index.getType(), encoding);
  if (auto convert = index.getDefiningOp<ttg::ConvertLayoutOp>())
    if (convert.getSrc().getType() == type)
      return convert.getSrc();
  if (auto splat = index.getDefiningOp<tt::SplatOp>())
    return tt::SplatOp::create(builder, index.getLoc(), type, splat.getSrc());
  if (auto constant = index.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<SplatElementsAttr>(constant.getValue()))
      return arith::ConstantOp::create(
          builder, index.getLoc(), type,
          SplatElementsAttr::get(type, dense.getSplatValue<Attribute>()));
  return {};
}

/// (a), (b): a load through local pointers whose users all convert it to
/// one encoding is rebuilt in that encoding, with its pointers (indices
/// recomputed there when that adds no more converts than it removes).
bool selectLoadEncoding(tt::LoadOp load) {
  LocalPointersOp view = tensorPointers(load.getPtr());
  if (!view || load.getMask() || load.getOther() ||
      !encodingOf(view.getResult()))
    return false;
  Attribute target = commonConvertTarget(load.getResult());
  if (!target)
    return false;
  // New pointers next to the old ones (not inside a loop the load may be
  // in), the new load where the old one was.
  OpBuilder builder(view->getBlock(), std::next(view->getIterator()));
  auto ptrType = withEncoding(view.getType(), target);
  SmallVector<Value> indices;
  if (!view.getIndices().empty()) {
    // (b): converts removed vs converts the indices need (none for an index
    // recomputed in the target encoding, (d)).
    Rematerializer remat(builder);
    bool recompute = isRematTarget(target);
    unsigned removed = llvm::range_size(load->getUsers());
    unsigned added = 0;
    for (Value index : view.getIndices()) {
      auto convert = index.getDefiningOp<ttg::ConvertLayoutOp>();
      added += !(convert && encodingOf(convert.getSrc()) == target) &&
               !index.getDefiningOp<tt::SplatOp>() &&
               !(index.getDefiningOp<arith::ConstantOp>() &&
                 isa<SplatElementsAttr>(
                     index.getDefiningOp<arith::ConstantOp>().getValue())) &&
               !(recompute && remat.possible(index, target));
    }
    if (added > removed) {
      LLVM_DEBUG(llvm::dbgs()
                 << DEBUG_TYPE ": load at " << load.getLoc()
                 << " stays: moving its pointers to " << target << " adds "
                 << added << " index converts, removes " << removed << "\n");
      return false;
    }
    for (Value index : view.getIndices()) {
      Value moved = freeIndex(builder, index, target);
      if (!moved && recompute && remat.possible(index, target))
        moved = remat.build(index, target);
      if (!moved)
        moved = ttg::ConvertLayoutOp::create(
            builder, index.getLoc(), withEncoding(index.getType(), target),
            index);
      indices.push_back(moved);
    }
  }
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": load at " << load.getLoc()
                          << " moved to " << target
                          << ", the encoding every user converts it to\n");
  auto newView = LocalPointersOp::create(builder, view.getLoc(), ptrType,
                                         view.getBuffer(), indices);
  builder.setInsertionPoint(load);
  tt::LoadOp newLoad = rebuildLoad(builder, load, newView.getResult());
  replaceConvertUsers(load.getResult(), newLoad.getResult());
  load.erase();
  SmallVector<Value> oldIndices(view.getIndices());
  eraseIfDead(view);
  eraseDeadChains(oldIndices);
  return true;
}

//===----------------------------------------------------------------------===//
// (e) vector layouts of indexed loads
//===----------------------------------------------------------------------===//

/// The longest run (a power of two, at most `limit`) of consecutive
/// elements along some dimension whose offsets `elems` (row-major over
/// `shape`) are consecutive too: {dimension, run}; run 1 when none.
std::pair<unsigned, int64_t> contiguousRun(ArrayRef<int64_t> shape,
                                           const std::vector<int64_t> &elems,
                                           int64_t limit) {
  unsigned rank = shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int d = int(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  std::pair<unsigned, int64_t> best{rank ? rank - 1 : 0, 1};
  for (unsigned d = 0; d < rank; ++d) {
    for (int64_t run = std::min(limit, shape[d]); run > best.second; run /= 2) {
      bool ok = true;
      for (int64_t e = 0; ok && e < int64_t(elems.size()); ++e) {
        int64_t coord = (e / strides[d]) % shape[d];
        if (coord % run != 0)
          continue;
        for (int64_t j = 1; ok && j < run; ++j)
          ok = elems[e + j * strides[d]] == elems[e] + j;
      }
      if (ok) {
        best = {d, run};
        break;
      }
    }
  }
  return best;
}

/// A blocked layout of `shape` with `run` elements per thread along `dim`
/// (the fastest), the other dimensions in `old`'s order, lanes and warps
/// laid along that order (any left over replicate along the slowest), and
/// `old`'s lane and warp counts and CTA layout.
ttg::BlockedEncodingAttr vectorLayout(ttg::BlockedEncodingAttr old,
                                      ArrayRef<int64_t> shape, unsigned dim,
                                      int64_t run) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order{dim};
  for (unsigned d : old.getOrder())
    if (d != dim)
      order.push_back(d);
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  spt[dim] = unsigned(run);
  SmallVector<int64_t> left(shape.begin(), shape.end());
  left[dim] /= run;
  unsigned lanes = 1, warps = 1;
  for (unsigned d = 0; d < rank; ++d) {
    lanes *= old.getThreadsPerWarp()[d];
    warps *= old.getWarpsPerCTA()[d];
  }
  // `count` lanes (then warps) along `order` while elements are left, the
  // rest replicating along the slowest dimension.
  auto spread = [&](unsigned count, SmallVector<unsigned> &per) {
    for (unsigned d : order)
      for (; count > 1 && left[d] > 1; count /= 2, left[d] /= 2)
        per[d] *= 2;
    per[order.back()] *= count;
  };
  spread(lanes, tpw);
  spread(warps, wpc);
  return ttg::BlockedEncodingAttr::get(old.getContext(), spt, tpw, wpc, order,
                                       old.getCGALayout());
}

/// Whether every index of `view`, and `mask` when given, can be recomputed
/// in `target` ((d), (e)).
bool recomputable(Rematerializer &remat, LocalPointersOp view, Value mask,
                  Attribute target) {
  return llvm::all_of(
             view.getIndices(),
             [&](Value index) { return remat.possible(index, target); }) &&
         (!mask || remat.possible(mask, target));
}

/// `view`'s pointers rebuilt in `target` from its indices recomputed there
/// (`recomputable` first), at `builder`'s insertion point.
LocalPointersOp recomputeView(OpBuilder &builder, Rematerializer &remat,
                              LocalPointersOp view, Attribute target) {
  SmallVector<Value> indices;
  for (Value index : view.getIndices())
    indices.push_back(remat.build(index, target));
  return LocalPointersOp::create(builder, view.getLoc(),
                                 withEncoding(view.getType(), target),
                                 view.getBuffer(), indices);
}

/// (e) An indexed load through local pointers (or a thread-block cluster's
/// remote ones) whose value only goes to shared memory (`ttg.local_alloc`,
/// a wgmma operand's copy) or through converts: Triton's Coalesce laid it
/// out before TLE lowered the pointers, when it could not see which
/// elements are adjacent, often one element per thread. When the offsets
/// (IndexSets: exact per element up to one scalar sum) run contiguously
/// along a dimension for more elements than the layout gives a thread
/// there, the load takes a layout with up to 16 bytes per thread along it;
/// indices and mask are recomputed in that layout, the copies take the new
/// value and converts convert from it.
bool selectVectorLoadEncoding(tt::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  auto old = dyn_cast_or_null<ttg::BlockedEncodingAttr>(encodingOf(load));
  if (!type || !old || load.getOther() || !type.getElementType().isIntOrFloat())
    return false;
  Value ptr = load.getPtr();
  auto remote = ptr.getDefiningOp<RemotePointersOp>();
  if (remote && (remote.getSpace() != RemoteSpace::cluster ||
                 isa<RankedTensorType>(remote.getShardId().getType())))
    return false;
  LocalPointersOp view = tensorPointers(remote ? remote.getSrc() : ptr);
  if (!view || view.getIndices().empty() ||
      (remote && !remote.getSrc().hasOneUse()) || !view->hasOneUse())
    return false;
  for (Operation *user : load->getUsers())
    if (!isa<ttg::LocalAllocOp, ttg::ConvertLayoutOp>(user))
      return false;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (bits % 8)
    return false;
  // A fresh analysis per load: its cache holds values this pass erases.
  FootprintAnalysis offsets(/*maxElements=*/1 << 16, /*anyScalar=*/true);
  std::optional<std::vector<int64_t>> elems = offsets.elementOffsets(ptr);
  if (!elems)
    return false;
  auto [dim, run] =
      contiguousRun(type.getShape(), *elems, std::max<int64_t>(1, 128 / bits));
  if (run < 2 || (old.getOrder().front() == dim &&
                  int64_t(old.getSizePerThread()[dim]) >= run))
    return false;
  Attribute target = vectorLayout(old, type.getShape(), dim, run);
  OpBuilder builder(load);
  Rematerializer remat(builder);
  if (!recomputable(remat, view, load.getMask(), target))
    return false;
  SmallVector<Value> dead(view.getIndices());
  Value pointers = recomputeView(builder, remat, view, target);
  IRMapping mapping;
  if (remote) {
    mapping.map(remote.getSrc(), pointers);
    Operation *clone = builder.clone(*remote, mapping);
    clone->getResult(0).setType(withEncoding(remote.getType(), target));
    pointers = clone->getResult(0);
  }
  mapping.map(ptr, pointers);
  if (Value mask = load.getMask()) {
    mapping.map(mask, remat.build(mask, target));
    dead.push_back(mask);
  }
  Operation *clone = builder.clone(*load, mapping);
  clone->getResult(0).setType(withEncoding(type, target));
  Value moved = clone->getResult(0);
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": load at " << load.getLoc()
                          << " runs " << run << " elements along dimension "
                          << dim << ": moved to " << target << "\n");
  for (Operation *user : llvm::make_early_inc_range(load->getUsers())) {
    if (auto copy = dyn_cast<ttg::LocalAllocOp>(user)) {
      copy.getSrcMutable().assign(moved);
    } else {
      auto convert = cast<ttg::ConvertLayoutOp>(user);
      convert.getSrcMutable().assign(moved);
      if (convert.getSrc().getType() == convert.getType()) {
        convert.getResult().replaceAllUsesWith(moved);
        convert.erase();
      }
    }
  }
  load.erase();
  if (remote)
    remote.erase();
  view.erase();
  eraseDeadChains(dead);
  return true;
}

/// (d) An indexed store of a `ttg.convert_layout` result: the store takes
/// the convert's source encoding (the one the value is computed in) when
/// every index (and the mask) can be recomputed in it without a convert.
bool selectIndexedStoreEncoding(tt::StoreOp store, LocalPointersOp view) {
  auto convert = store.getValue().getDefiningOp<ttg::ConvertLayoutOp>();
  if (!convert)
    return false;
  Value value = convert.getSrc();
  Attribute target = encodingOf(value);
  if (!isRematTarget(target) || !encodingOf(view.getResult()) ||
      !isa<RankedTensorType>(view.getType()))
    return false;
  OpBuilder builder(view->getBlock(), std::next(view->getIterator()));
  Rematerializer remat(builder);
  if (!recomputable(remat, view, store.getMask(), target))
    return false;
  LocalPointersOp newView = recomputeView(builder, remat, view, target);
  SmallVector<Value> dead(view.getIndices()); // the old indices and mask
  if (Value mask = store.getMask()) {
    builder.setInsertionPoint(store);
    Rematerializer maskRemat(builder);
    store.getMaskMutable().assign(maskRemat.build(mask, target));
    dead.push_back(mask);
  }
  store.getPtrMutable().assign(newView.getResult());
  store.getValueMutable().assign(value);
  eraseIfDead(view);
  eraseIfDead(convert);
  eraseDeadChains(dead);
  return true;
}

bool selectStoreEncoding(tt::StoreOp store) {
  LocalPointersOp view = tensorPointers(store.getPtr());
  if (view && !view.getIndices().empty())
    return selectIndexedStoreEncoding(store, view);
  if (!view || store.getMask())
    return false;
  auto convert = store.getValue().getDefiningOp<ttg::ConvertLayoutOp>();
  if (!convert || !encodingOf(convert.getSrc()) ||
      !encodingOf(view.getResult()))
    return false;
  Value value = convert.getSrc();
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": store at " << store.getLoc()
                          << " moved to " << encodingOf(value)
                          << ", its value's encoding before the convert\n");
  OpBuilder builder(view->getBlock(), std::next(view->getIterator()));
  auto newView = LocalPointersOp::create(
      builder, view.getLoc(), withEncoding(view.getType(), encodingOf(value)),
      view.getBuffer(), ValueRange());
  store.getPtrMutable().assign(newView.getResult());
  store.getValueMutable().assign(value);
  eraseIfDead(view);
  eraseIfDead(convert);
  return true;
}

bool selectLocalLoadEncoding(LocalLoadOp load) {
  Attribute target = commonConvertTarget(load.getResult());
  if (!target)
    return false;
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": tle.local_load at " << load.getLoc()
                          << " moved to " << target
                          << ", the encoding every user converts it to\n");
  OpBuilder builder(load);
  auto newLoad = LocalLoadOp::create(builder, load.getLoc(),
                                     withEncoding(load.getType(), target),
                                     load.getBuffer());
  newLoad->setAttrs(load->getAttrs());
  replaceConvertUsers(load.getResult(), newLoad.getResult());
  load.erase();
  return true;
}

bool selectLocalStoreEncoding(LocalStoreOp store) {
  auto convert = store.getValue().getDefiningOp<ttg::ConvertLayoutOp>();
  if (!convert)
    return false;
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": tle.local_store at "
                          << store.getLoc()
                          << " stores its value before the convert\n");
  store.getValueMutable().assign(convert.getSrc());
  eraseIfDead(convert);
  return true;
}

//===----------------------------------------------------------------------===//
// (c) shared encodings of memdesc buffers
//===----------------------------------------------------------------------===//

bool isUnswizzled(Attribute encoding) {
  auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(encoding);
  return swizzled && swizzled.getVec() == 1 && swizzled.getPerPhase() == 1 &&
         swizzled.getMaxPhase() == 1;
}

/// The register layouts the buffer is read or written in, or failure when
/// some user is not a whole-buffer access.
FailureOr<SmallVector<Attribute>> accessLayouts(AllocOp alloc) {
  SmallVector<Attribute> layouts;
  for (Operation *user : alloc.getResult().getUsers()) {
    if (auto load = dyn_cast<LocalLoadOp>(user))
      layouts.push_back(encodingOf(load.getResult()));
    else if (auto store = dyn_cast<LocalStoreOp>(user))
      layouts.push_back(encodingOf(store.getValue()));
    else if (auto copy = dyn_cast<CopyOp>(user))
      layouts.push_back(encodingOf(
          isa<RankedTensorType>(copy.getSrc().getType()) ? copy.getSrc()
                                                         : copy.getDst()));
    else
      return failure();
  }
  return layouts;
}

/// The swizzle of Passes.td for a buffer of `type` with `order`.
Attribute swizzleFor(ttg::MemDescType type,
                     ttg::SwizzledSharedEncodingAttr current) {
  ArrayRef<unsigned> order = current.getOrder();
  unsigned bytes =
      std::max<unsigned>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
  // 64-bit: a row of 2^32 elements or more truncated to 0 in 32 bits and
  // divided by zero below.
  uint64_t row =
      llvm::PowerOf2Ceil(std::max<int64_t>(1, type.getShape()[order.front()]));
  unsigned vec = std::min<uint64_t>(std::max(1u, 16 / bytes), row);
  unsigned perPhase = row * bytes >= 128 ? 1 : 128 / (row * bytes);
  unsigned maxPhase =
      std::max<uint64_t>(1, std::min<uint64_t>(8 / perPhase, row / vec));
  vec = llvm::bit_floor(vec);
  perPhase = llvm::bit_floor(perPhase);
  maxPhase = llvm::bit_floor(maxPhase);
  return ttg::SwizzledSharedEncodingAttr::get(type.getContext(), vec, perPhase,
                                              maxPhase, order,
                                              current.getCGALayout());
}

/// Counts a swizzled buffer in `swizzled`.
LogicalResult selectSharedEncoding(AllocOp alloc, unsigned &swizzled) {
  ttg::MemDescType type = alloc.getResult().getType();
  if (!isa<ttg::SharedMemorySpaceAttr>(type.getMemorySpace()))
    return success();
  if (alloc.isPointerBuffer()) {
    if (!isUnswizzled(type.getEncoding()))
      return alloc.emitOpError()
             << "is accessed through tle.local_pointers, which need the "
                "unswizzled #ttg.swizzled_shared<{vec = 1, perPhase = 1, "
                "maxPhase = 1}> encoding, got "
             << type.getEncoding();
    return success();
  }
  if (type.getRank() < 2 || !isUnswizzled(type.getEncoding()) ||
      !type.getElementType().isIntOrFloat())
    return success();
  auto current = cast<ttg::SwizzledSharedEncodingAttr>(type.getEncoding());
  // The swizzle is picked for an encoding that orders every dimension of the
  // buffer (a multi-buffered one orders only the trailing ones): leave others.
  if (current.getOrder().size() != static_cast<size_t>(type.getRank()))
    return success();
  FailureOr<SmallVector<Attribute>> layouts = accessLayouts(alloc);
  if (failed(layouts) || layouts->empty())
    return success();
  bool rowAccess = llvm::all_of(*layouts, [&](Attribute layout) {
    auto blocked = dyn_cast_or_null<ttg::BlockedEncodingAttr>(layout);
    return blocked && blocked.getOrder() == current.getOrder();
  });
  Attribute swizzle = swizzleFor(type, current);
  if (rowAccess ||
      cast<ttg::SwizzledSharedEncodingAttr>(swizzle).getMaxPhase() == 1) {
    LLVM_DEBUG(llvm::dbgs()
               << DEBUG_TYPE ": buffer at " << alloc.getLoc() << " stays "
               << current << ": "
               << (rowAccess ? "every access runs along its rows"
                             : "a swizzle would not permute its chunks")
               << "\n");
    return success();
  }
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": buffer at " << alloc.getLoc()
                          << " swizzled to " << swizzle
                          << ": some access runs across its rows\n");
  alloc.getResult().setType(type.withEncoding(swizzle));
  ++swizzled;
  return success();
}

struct SelectEncodingsPass
    : public impl::TLESelectEncodingsBase<SelectEncodingsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> accesses;
    getOperation()->walk([&](Operation *op) {
      if (isa<tt::LoadOp, tt::StoreOp, LocalLoadOp, LocalStoreOp>(op))
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      bool moved;
      if (auto load = dyn_cast<tt::LoadOp>(op))
        moved = selectLoadEncoding(load) || selectVectorLoadEncoding(load);
      else if (auto store = dyn_cast<tt::StoreOp>(op))
        moved = selectStoreEncoding(store);
      else if (auto load = dyn_cast<LocalLoadOp>(op))
        moved = selectLocalLoadEncoding(load);
      else
        moved = selectLocalStoreEncoding(cast<LocalStoreOp>(op));
      numAccessesMoved += moved;
    }
    unsigned swizzled = 0;
    getOperation()->walk([&](AllocOp alloc) {
      if (failed(selectSharedEncoding(alloc, swizzled)))
        signalPassFailure();
    });
    numBuffersSwizzled += swizzled;
  }
};
} // namespace
} // namespace mlir::tle
