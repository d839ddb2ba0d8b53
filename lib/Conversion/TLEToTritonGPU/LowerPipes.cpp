//===- LowerPipes.cpp - tle.pipe -> mbarrier rings ------------------------===//
//
// triton-tle-lower-pipes (docs/warp-specialize.md, Passes.td): each pipe gets
// a `ready` and an `empty` mbarrier ring; each endpoint counts the slots it
// takes with a counter threaded through its partition's control flow.
//
//===----------------------------------------------------------------------===//
#include "AsyncCopy.h"
#include "LocalMemory.h"
#include "TargetCheck.h"

#include "TLE/Conversion/Passes.h"
#include "TLE/Conversion/TritonBuilders.h"
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERPIPES
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

/// The unit attribute frontend tle.gpu.copy(is_async=True) puts on its load.
constexpr llvm::StringLiteral kAsyncCopyAttr = "tle.async_copy";
/// The unit attribute tle.gpu.copy from a tensor descriptor puts on its
/// tle.local_store of Triton's gather into the slot.
constexpr llvm::StringLiteral kTmaFillAttr = "tle.tma_fill";

/// A TMA row gather into a writer's slot (tle.gpu.copy from a tensor
/// descriptor): the tle.local_store into the slot view and Triton's
/// expansion of the tt.descriptor_gather it stores, which TritonGPU's TMA
/// lowering made a gather into a scratch buffer on a barrier of its own,
/// waited for and loaded (docs/warp-specialize.md, "Slot fills by TMA").
struct TmaFill {
  LocalStoreOp store;
  PipeSlotOp view;
  ttng::AsyncTMAGatherOp gather;
  /// The scratch buffer, its barrier, every op on them but the gather and
  /// the layout conversions of the loaded value.
  SmallVector<Operation *> expansion;
};

/// Where an endpoint op runs: a tle.warp_specialize and its region (-1: the
/// default region, i: worker partition i).
struct Place {
  WarpSpecializeOp ws;
  int region = 0;
  bool operator==(const Place &o) const {
    return ws == o.ws && region == o.region;
  }
};

std::string regionName(int region) {
  return region < 0 ? std::string("the default partition")
                    : "partition " + std::to_string(region);
}

FailureOr<Place> placeOf(Operation *op) {
  for (Operation *child = op, *parent = op->getParentOp(); parent;
       child = parent, parent = parent->getParentOp()) {
    if (auto ws = dyn_cast<WarpSpecializeOp>(parent))
      return Place{ws, -1};
    if (auto parts = dyn_cast<WarpSpecializePartitionsOp>(parent)) {
      auto ws = cast<WarpSpecializeOp>(parts->getParentOp());
      return Place{ws, static_cast<int>(
                           child->getParentRegion()->getRegionNumber())};
    }
  }
  op->emitOpError("must be inside a tle.gpu.warp_specialize partition (pipe "
                  "endpoints synchronize concurrent partitions)");
  return failure();
}

unsigned placeWarps(Place place, ModuleOp module) {
  if (place.region < 0)
    return local_memory::numWarps(module);
  return place.ws.getPartitionNumWarps()[place.region];
}

/// The ops of one endpoint (the writer when `reader` is empty).
struct Endpoint {
  std::string reader;
  SmallVector<Operation *> ops;
  std::optional<Place> place;
  bool isWriter() const { return reader.empty(); }
  std::string name() const {
    return isWriter() ? std::string("the writer") : "reader '" + reader + "'";
  }
  /// Ops that take a slot (and advance the counter).
  bool counts(Operation *op) const {
    return isa<PipeWriterAcquireOp, PipeWriterCloseOp, PipeReaderWaitOp>(op);
  }
};

struct PipeLowering {
  PipeCreateOp create;
  PipeType type;
  ModuleOp module;
  SmallVector<Endpoint> endpoints; // [0] = writer, then the readers
  bool closes = false;
  Value ready, empty, flags;       // the rings and the closed flags
  std::optional<Place> place;
  /// tle.gpu.copy(is_async=True) into the writer's slots: the store
  /// (tle.local_store or ttg.local_store) into the slot view and the tagged
  /// load it stores (docs/warp-specialize.md,
  /// "Asynchronous slot fills").
  SmallVector<std::pair<Operation *, tt::LoadOp>> asyncFills;
  SmallVector<TmaFill> tmaFills;
  /// The bytes the TMA fills of each commit's slot bring (its expect_tx).
  llvm::DenseMap<Operation *, int64_t> commitBytes;

  InFlightDiagnostic error(Operation *op) {
    return op->emitOpError() << "(pipe '" << create.getName() << "'): ";
  }

  Endpoint &endpointOf(StringRef reader) {
    for (Endpoint &e : endpoints)
      if (e.reader == reader)
        return e;
    llvm_unreachable("reader checked by the op verifier");
  }

  /// The pipe's users in program order (diagnostics name the first misuse).
  SmallVector<Operation *> usersInOrder() {
    llvm::SmallPtrSet<Operation *, 16> users;
    for (Operation *user : create.getPipe().getUsers())
      users.insert(user);
    SmallVector<Operation *> ordered;
    create->getParentOp()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (users.contains(op))
        ordered.push_back(op);
    });
    return ordered;
  }
  LogicalResult collect();
  LogicalResult checkSlots();
  LogicalResult collectAsyncFills();
  LogicalResult collectTmaFill(LocalStoreOp store, PipeSlotOp view);
  void lowerAsyncFills();
  void lowerTmaFills();
  void buildRings();
  Value index(OpBuilder &b, Location loc, Value ring, Value slot);
  LogicalResult thread(Endpoint &e);
  FailureOr<Value> threadBlock(Endpoint &e, Block &block, Value count,
                               const llvm::SmallPtrSetImpl<Operation *> &holders);
  void lowerCounting(Endpoint &e, Operation *op, Value count);
  void lowerRest();
  void barrierIfWide(OpBuilder &b, Location loc, Operation *at);
  void publishSlot(OpBuilder &b, Location loc, Operation *at, Value slot,
                   bool fence);
  void setFlag(OpBuilder &b, Location loc, Value slot, int64_t value);
  Value readFlag(OpBuilder &b, Location loc, Value slot);
};

LogicalResult PipeLowering::collect() {
  endpoints.push_back(Endpoint{});
  for (StringAttr reader : type.getReaders())
    endpoints.push_back(Endpoint{reader.str(), {}, {}});
  bool ok = true;
  for (Operation *user : usersInOrder()) {
    Endpoint *e = nullptr;
    if (isa<PipeWriterAcquireOp, PipeWriterCommitOp, PipeWriterCloseOp>(user)) {
      e = &endpoints.front();
      closes |= isa<PipeWriterCloseOp>(user);
    } else if (auto wait = dyn_cast<PipeReaderWaitOp>(user)) {
      e = &endpointOf(wait.getReader());
    } else if (auto release = dyn_cast<PipeReaderReleaseOp>(user)) {
      e = &endpointOf(release.getReader());
    } else if (isa<PipeSlotOp>(user)) {
      continue; // checked with its slot
    } else {
      user->emitOpError("uses pipe '")
          << create.getName()
          << "', but only tle.pipe.* ops may use a pipe handle";
      ok = false;
      continue;
    }
    e->ops.push_back(user);
    FailureOr<Place> at = placeOf(user);
    if (failed(at)) {
      ok = false;
      continue;
    }
    if (place && place->ws != at->ws) {
      error(user) << "is in another tle.warp_specialize than the pipe's "
                     "other endpoint ops; a pipe serves one warp_specialize";
      ok = false;
      continue;
    }
    place = *at;
    if (e->place && !(*e->place == *at)) {
      error(user) << e->name() << " is used in " << regionName(at->region)
                  << " and in " << regionName(e->place->region)
                  << "; each endpoint belongs to one partition";
      ok = false;
      continue;
    }
    e->place = *at;
  }
  if (!ok)
    return failure();
  // An endpoint that takes slots but never gives one back hangs its peer:
  // readers would wait forever for a slot the writer never commits, the
  // writer for one a reader never releases (a one-shot pipe's writer never
  // waits, so its readers need not release).
  for (Endpoint &e : endpoints) {
    auto takes = llvm::find_if(e.ops, [](Operation *op) {
      return isa<PipeWriterAcquireOp, PipeReaderWaitOp>(op);
    });
    if (takes == e.ops.end())
      continue;
    bool gives = llvm::any_of(e.ops, [](Operation *op) {
      return isa<PipeWriterCommitOp, PipeReaderReleaseOp>(op);
    });
    if (gives || (!e.isWriter() && type.getOneShot()))
      continue;
    if (e.isWriter())
      error(*takes) << "the writer acquires slots but never commits one: "
                       "its readers would wait forever; commit every slot "
                       "it acquires (writer.commit(slot))";
    else
      error(*takes) << e.name()
                    << " waits for slots but never releases one: the writer "
                       "would wait forever for a free slot once the ring is "
                       "full; release every slot it waits for "
                       "(reader.release(slot)), or make the pipe one_shot";
    ok = false;
  }
  if (!ok)
    return failure();
  Endpoint &writer = endpoints.front();
  for (Endpoint &r : llvm::drop_begin(endpoints))
    if (writer.place && r.place && *writer.place == *r.place) {
      error(r.ops.front()) << "the writer is used by a reader partition: "
                           << regionName(r.place->region)
                           << " both writes the pipe and reads it as reader '"
                           << r.reader << "'";
      return failure();
    }
  return success();
}

/// Commit / release / slot take slots their endpoint handed out.
LogicalResult PipeLowering::checkSlots() {
  Value pipe = create.getPipe();
  bool ok = true;
  for (Operation *user : usersInOrder()) {
    Value slot;
    std::string expected;
    bool fromEndpoint = false;
    auto acquire = [&](Value v) {
      auto acq = v.getDefiningOp<PipeWriterAcquireOp>();
      return acq && acq.getPipe() == pipe;
    };
    auto waitOf = [&](Value v, std::optional<StringRef> reader) {
      auto wait = v.getDefiningOp<PipeReaderWaitOp>();
      return wait && wait.getPipe() == pipe &&
             (!reader || wait.getReader() == *reader);
    };
    if (auto commit = dyn_cast<PipeWriterCommitOp>(user)) {
      slot = commit.getSlot();
      fromEndpoint = acquire(slot);
      expected = "tle.pipe.writer_acquire of this pipe (commit before "
                 "acquire?)";
    } else if (auto release = dyn_cast<PipeReaderReleaseOp>(user)) {
      slot = release.getSlot();
      fromEndpoint = waitOf(slot, release.getReader());
      expected = ("tle.pipe.reader_wait of reader '" + release.getReader() +
                  "' on this pipe (release before acquire?)")
                     .str();
    } else if (auto view = dyn_cast<PipeSlotOp>(user)) {
      slot = view.getSlot();
      fromEndpoint = acquire(slot) || waitOf(slot, std::nullopt);
      expected = "tle.pipe.writer_acquire or tle.pipe.reader_wait of this pipe";
    } else {
      continue;
    }
    if (!fromEndpoint) {
      error(user) << "the slot must come from a " << expected;
      ok = false;
    }
  }
  return success(ok);
}

ttg::MemDescType barrierType(MLIRContext *ctx, int64_t slots) {
  auto layout = ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, {0});
  return ttg::MemDescType::get({slots, 1}, IntegerType::get(ctx, 64), layout,
                               ttg::SharedMemorySpaceAttr::get(ctx),
                               /*mutableMemory=*/true);
}

Value PipeLowering::index(OpBuilder &b, Location loc, Value ring, Value slot) {
  auto type = cast<ttg::MemDescType>(ring.getType());
  auto view = ttg::MemDescType::get(
      type.getShape().drop_front(), type.getElementType(), type.getEncoding(),
      type.getMemorySpace(), type.getMutableMemory());
  return ttg::MemDescIndexOp::create(b, loc, view, ring, slot);
}

Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// Triton lays a ring of buffers out like one buffer: the shared encoding's
/// order covers the trailing dims only (a slot view keeps the encoding, and
/// an encoding must not have more dims than its memdesc). A field allocated
/// with an unswizzled row-major order over all its dims (tle.gpu.alloc)
/// describes the same addresses with the order of one slot.
LogicalResult relayoutField(PipeCreateOp create, Value field) {
  auto type = cast<ttg::MemDescType>(field.getType());
  auto enc = dyn_cast<ttg::SwizzledSharedEncodingAttr>(type.getEncoding());
  int64_t rank = type.getRank();
  if (!enc || static_cast<int64_t>(enc.getOrder().size()) != rank)
    return success();
  SmallVector<unsigned> rowMajor;
  for (int64_t d = rank - 1; d >= 0; --d)
    rowMajor.push_back(d);
  if (enc.getMaxPhase() != 1 || enc.getOrder() != ArrayRef<unsigned>(rowMajor))
    return create.emitOpError("pipe field of type ")
           << type << " needs a row-major unswizzled layout (or one whose "
           << "order covers one slot)";
  SmallVector<unsigned> slotOrder(rowMajor.begin() + 1, rowMajor.end());
  auto slotEnc = ttg::SwizzledSharedEncodingAttr::get(
      create.getContext(), enc.getVec(), enc.getPerPhase(), enc.getMaxPhase(),
      slotOrder);
  field.setType(type.withEncoding(slotEnc));
  return success();
}

void PipeLowering::buildRings() {
  OpBuilder b(create);
  Location loc = create.getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t slots = type.getCapacity();
  auto ringType = barrierType(ctx, slots);
  ready = ttg::LocalAllocOp::create(b, loc, ringType, Value(), IntegerAttr());
  if (!type.getOneShot())
    empty = ttg::LocalAllocOp::create(b, loc, ringType, Value(), IntegerAttr());
  if (closes) {
    // One i32 per slot, accessed as a 1-element tensor (Triton has no scalar
    // shared-memory access).
    auto flagsType = ttg::MemDescType::get(
        {slots, 1}, b.getI32Type(),
        ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, {0}),
        ttg::SharedMemorySpaceAttr::get(ctx), /*mutableMemory=*/true);
    flags = ttg::LocalAllocOp::create(b, loc, flagsType, Value(), IntegerAttr());
  }
  int32_t readers = type.getReaders().size();
  // With asynchronous fills every writer thread's cp.async.mbarrier.arrive
  // .noinc counts as one arrival (when its copies have landed), besides the
  // elected arrive of the commit.
  int32_t readyCount = 1;
  if (!asyncFills.empty())
    readyCount += placeWarps(*endpoints.front().place, module) *
                  local_memory::threadsPerWarp(module);
  for (int64_t s = 0; s < slots; ++s) {
    Value idx = i32(b, loc, s);
    ttng::InitBarrierOp::create(b, loc, index(b, loc, ready, idx), readyCount);
    if (empty)
      ttng::InitBarrierOp::create(b, loc, index(b, loc, empty, idx), readers);
  }
  // Invalidate after the warp_specialize: every partition is done.
  OpBuilder after(place->ws);
  after.setInsertionPointAfter(place->ws);
  for (int64_t s = 0; s < slots; ++s) {
    Value idx = i32(after, loc, s);
    ttng::InvalBarrierOp::create(after, loc, index(after, loc, ready, idx));
    if (empty)
      ttng::InvalBarrierOp::create(after, loc, index(after, loc, empty, idx));
  }
}

void PipeLowering::barrierIfWide(OpBuilder &b, Location loc, Operation *at) {
  FailureOr<Place> where = placeOf(at);
  if (succeeded(where) && placeWarps(*where, module) > 1)
    gpu::BarrierOp::create(b, loc);
}

/// Completes the ready barrier's phase of `slot` (a commit, or a close when
/// `fence` is false): with asynchronous fills each writer thread arrives once
/// its cp.async copies have landed (.noinc: one of the arrivals buildRings
/// made the barrier expect); the partition barrier orders every thread's
/// stores before the elected arrive (after the async-proxy fence for readers
/// such as wgmma when `fence`).
void PipeLowering::publishSlot(OpBuilder &b, Location loc, Operation *at,
                               Value slot, bool fence) {
  if (!asyncFills.empty())
    ttng::AsyncCopyMbarrierArriveOp::create(b, loc, index(b, loc, ready, slot),
                                            /*noIncrement=*/true);
  barrierIfWide(b, loc, at);
  // Before sm_90 there is no async proxy (no wgmma, no TMA) to fence for.
  if (fence && target::hasAsyncProxy(module))
    ttng::FenceAsyncSharedOp::create(b, loc, /*bCluster=*/false);
  // TMA fills: the elected arrive also expects their bytes, which the TMA
  // unit's complete_tx counts down (before or after it, within the phase).
  auto bytes = commitBytes.find(at);
  if (bytes != commitBytes.end()) {
    Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
    ttng::BarrierExpectOp::create(b, loc, index(b, loc, ready, slot),
                                  static_cast<int32_t>(bytes->second), yes);
    return;
  }
  ttng::ArriveBarrierOp::create(b, loc, index(b, loc, ready, slot), 1, Value());
}

/// tensor<1xi32> in the module's blocked layout (a worker partition's is
/// refit when tle.warp_specialize is lowered).
RankedTensorType flagTensorType(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  auto layout = ttg::BlockedEncodingAttr::get(
      ctx, {1}, {local_memory::threadsPerWarp(module)},
      {local_memory::numWarps(module)}, {0}, ArrayAttr());
  return RankedTensorType::get({1}, IntegerType::get(ctx, 32), layout);
}

void PipeLowering::setFlag(OpBuilder &b, Location loc, Value slot,
                           int64_t value) {
  auto type = flagTensorType(module);
  Value v = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getI32IntegerAttr(value)));
  ttg::LocalStoreOp::create(b, loc, v, index(b, loc, flags, slot));
}

Value PipeLowering::readFlag(OpBuilder &b, Location loc, Value slot) {
  Value v = ttg::LocalLoadOp::create(b, loc, flagTensorType(module),
                                     index(b, loc, flags, slot), Value());
  Value flag = tt::UnsplatOp::create(b, loc, b.getI32Type(), v);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                               i32(b, loc, 0));
}

/// Lowers an op that takes a slot, for endpoint count `count`.
void PipeLowering::lowerCounting(Endpoint &e, Operation *op, Value count) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  int64_t slots = type.getCapacity();
  Value slot, phase;
  if (type.getOneShot()) {
    slot = count;
    phase = i32(b, loc, 0);
  } else if (llvm::isPowerOf2_64(slots)) {
    slot = arith::AndIOp::create(b, loc, count, i32(b, loc, slots - 1));
    Value round = arith::ShRUIOp::create(b, loc, count,
                                         i32(b, loc, llvm::Log2_64(slots)));
    phase = arith::AndIOp::create(b, loc, round, i32(b, loc, 1));
  } else {
    slot = arith::RemUIOp::create(b, loc, count, i32(b, loc, slots));
    Value round = arith::DivUIOp::create(b, loc, count, i32(b, loc, slots));
    phase = arith::AndIOp::create(b, loc, round, i32(b, loc, 1));
  }
  if (isa<PipeWriterAcquireOp, PipeWriterCloseOp>(op) && empty) {
    // A fresh barrier completes "phase -1": the first round passes at once.
    Value free = arith::XOrIOp::create(b, loc, phase, i32(b, loc, 1));
    ttng::WaitBarrierOp::create(b, loc, index(b, loc, empty, slot), free,
                                Value(), ValueRange());
  }
  if (auto acquire = dyn_cast<PipeWriterAcquireOp>(op)) {
    acquire.getSlot().replaceAllUsesWith(slot);
  } else if (isa<PipeWriterCloseOp>(op)) {
    // A close is a commit without data (nothing for an async-proxy reader).
    setFlag(b, loc, slot, 1);
    publishSlot(b, loc, op, slot, /*fence=*/false);
  } else if (auto wait = dyn_cast<PipeReaderWaitOp>(op)) {
    ttng::WaitBarrierOp::create(b, loc, index(b, loc, ready, slot), phase,
                                Value(), ValueRange());
    // cp.async writes are generic-proxy writes the writer could not fence
    // (it does not wait for them): order them before this reader's
    // async-proxy reads (wgmma operands) once the wait has observed them.
    if (!asyncFills.empty() && target::hasAsyncProxy(module))
      ttng::FenceAsyncSharedOp::create(b, loc, /*bCluster=*/false);
    Value closed = flags ? readFlag(b, loc, slot)
                         : arith::ConstantIntOp::create(b, loc, 0, 1);
    wait.getSlot().replaceAllUsesWith(slot);
    wait.getIsClosed().replaceAllUsesWith(closed);
  }
  op->erase();
}

/// Threads `count` through `block`: lowers the endpoint's counting ops and
/// carries the count through the scf.for / scf.if ops (`holders`) that
/// contain some. Returns the count after the block.
FailureOr<Value>
PipeLowering::threadBlock(Endpoint &e, Block &block, Value count,
                          const llvm::SmallPtrSetImpl<Operation *> &holders) {
  IRRewriter rewriter(block.getParentOp()->getContext());
  for (Operation &opRef : llvm::make_early_inc_range(block)) {
    Operation *op = &opRef;
    if (e.counts(op) && llvm::is_contained(e.ops, op)) {
      OpBuilder b(op);
      Value next = arith::AddIOp::create(b, op->getLoc(), count,
                                         i32(b, op->getLoc(), 1));
      lowerCounting(e, op, count);
      count = next;
      continue;
    }
    if (!holders.contains(op))
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      rewriter.setInsertionPoint(loop);
      auto grown = loop.replaceWithAdditionalYields(
          rewriter, ValueRange{count}, /*replaceInitOperandUsesInLoop=*/false,
          [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
            return SmallVector<Value>{args.front()};
          });
      if (failed(grown))
        return loop.emitOpError("cannot carry a pipe slot counter");
      auto newLoop = cast<scf::ForOp>(grown->getOperation());
      Block *body = newLoop.getBody();
      BlockArgument arg = body->getArguments().back();
      auto yield = cast<scf::YieldOp>(body->getTerminator());
      FailureOr<Value> out = threadBlock(e, *body, arg, holders);
      if (failed(out))
        return failure();
      yield->setOperand(yield->getNumOperands() - 1, *out);
      count = newLoop->getResults().back();
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      rewriter.setInsertionPoint(branch);
      SmallVector<Type> types(branch.getResultTypes());
      types.push_back(count.getType());
      auto grown = scf::IfOp::create(rewriter, branch.getLoc(), types,
                                     branch.getCondition(),
                                     /*withElseRegion=*/false);
      grown.getThenRegion().takeBody(branch.getThenRegion());
      if (branch.getElseRegion().empty()) {
        Block *elseBlock = rewriter.createBlock(&grown.getElseRegion());
        rewriter.setInsertionPointToEnd(elseBlock);
        scf::YieldOp::create(rewriter, branch.getLoc(), ValueRange{});
      } else {
        grown.getElseRegion().takeBody(branch.getElseRegion());
      }
      for (Region *region : {&grown.getThenRegion(), &grown.getElseRegion()}) {
        Block &inner = region->front();
        FailureOr<Value> out = threadBlock(e, inner, count, holders);
        if (failed(out))
          return failure();
        auto yield = cast<scf::YieldOp>(inner.getTerminator());
        SmallVector<Value> values(yield.getOperands());
        values.push_back(*out);
        yield->setOperands(values);
      }
      branch->replaceAllUsesWith(grown->getResults().drop_back());
      branch->erase();
      count = grown->getResults().back();
      continue;
    }
    return op->emitOpError("contains uses of ")
           << e.name() << " of pipe '" << create.getName()
           << "'; pipe slots can only be tracked through scf.for and scf.if";
  }
  return count;
}

LogicalResult PipeLowering::thread(Endpoint &e) {
  if (e.ops.empty())
    return success();
  // The scf ops between the partition's region and each counting op.
  llvm::SmallPtrSet<Operation *, 8> holders;
  Region *top = nullptr;
  for (Operation *op : e.ops) {
    if (!e.counts(op))
      continue;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp()) {
      if (isa<WarpSpecializeOp, WarpSpecializePartitionsOp>(parent))
        break;
      holders.insert(parent);
    }
  }
  Operation *any = e.ops.front();
  for (Operation *op = any; op; op = op->getParentOp())
    if (isa<WarpSpecializeOp, WarpSpecializePartitionsOp>(op->getParentOp())) {
      top = op->getParentRegion();
      break;
    }
  Block &entry = top->front();
  OpBuilder b(&entry, entry.begin());
  Value zero = i32(b, create.getLoc(), 0);
  return threadBlock(e, entry, zero, holders);
}

/// Can `load`, stored whole into a slot view, be one cp.async? Its layout
/// (Triton's coalescing chose it from the pointers' contiguity and
/// alignment) must give each thread 4 to 16 contiguous bytes: cp.async
/// copies 4, 8 or 16.
bool asyncCopyable(tt::LoadOp load) {
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
        if (failed(collectTmaFill(tma, view)))
          ok = false;
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
      // Not one cp.async (e.g. 2-byte vectors): the load and store stay,
      // synchronous and correct; the commit publishes them as usual.
      if (asyncCopyable(load))
        asyncFills.push_back({store, load});
    }
  }
  return success(ok);
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
  Value value = store.getValue();
  while (auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>()) {
    converts.push_back(cvt);
    value = cvt.getSrc();
  }
  auto load = value.getDefiningOp<ttg::LocalLoadOp>();
  auto scratch = load ? load.getSrc().getDefiningOp<ttg::LocalAllocOp>()
                      : ttg::LocalAllocOp();
  ttng::AsyncTMAGatherOp gather;
  bool shaped = scratch && !scratch.getSrc() && load->hasOneUse() &&
                llvm::all_of(converts,
                             [](Operation *op) { return op->hasOneUse(); });
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
              "of a buffer that one ttng.async_tma_gather fills on a barrier of "
              "its own)";
  fill.gather = gather;
  auto descType = cast<tt::TensorDescType>(gather.getDesc().getType());
  auto block = descType.getBlockType();
  auto enc = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(block.getEncoding());
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
  auto target = module->getAttrOfType<StringAttr>("ttg.target");
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
  for (Operation *user : view.getSlot().getUsers())
    if (auto c = dyn_cast<PipeWriterCommitOp>(user);
        c && c->getBlock() == store->getBlock() && store->isBeforeInBlock(c))
      commit = c;
  if (!commit)
    return error(store) << "tle.gpu.copy from a tensor descriptor must be "
                           "committed by a writer commit of its slot in the "
                           "same block (the commit expects the bytes of the "
                           "fills before it)";
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
    auto plain = dyn_cast<ttg::SwizzledSharedEncodingAttr>(fieldType.getEncoding());
    if (!plain || plain.getMaxPhase() != 1 || plain.getVec() != 1)
      return error(store) << "field '" << view.getField() << "' is laid out as "
                          << fieldType.getEncoding()
                          << ", but the tensor descriptor's TMA writes "
                          << enc;
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
            cast<ttg::MemDescType>(other.getView().getType()).withEncoding(enc));
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

/// Commit / release / slot views, once the slots are plain values.
void PipeLowering::lowerRest() {
  lowerTmaFills();
  for (Operation *user : llvm::make_early_inc_range(create.getPipe().getUsers())) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    if (auto commit = dyn_cast<PipeWriterCommitOp>(user)) {
      if (flags)
        setFlag(b, loc, commit.getSlot(), 0);
      publishSlot(b, loc, user, commit.getSlot(), /*fence=*/true);
    } else if (auto release = dyn_cast<PipeReaderReleaseOp>(user)) {
      if (empty) {
        barrierIfWide(b, loc, user);
        ttng::ArriveBarrierOp::create(
            b, loc, index(b, loc, empty, release.getSlot()), 1, Value());
      }
    } else if (auto view = dyn_cast<PipeSlotOp>(user)) {
      unsigned field = *type.getFieldIndex(view.getField());
      Value lowered = index(b, loc, create.getFields()[field], view.getSlot());
      view.getView().replaceAllUsesWith(lowered);
    }
    user->erase();
  }
}

struct LowerPipesPass : public tle::impl::TLELowerPipesBase<LowerPipesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<PipeCreateOp> creates;
    module.walk([&](PipeCreateOp op) { creates.push_back(op); });
    bool ok = true;
    for (PipeCreateOp create : creates) {
      // mbarrier (the rings' synchronization) is sm_80's.
      if (failed(target::require(create, 80, "a pipe (mbarrier rings)"))) {
        ok = false;
        continue;
      }
      PipeLowering pipe{create, cast<PipeType>(create.getPipe().getType()),
                        module};
      if (failed(pipe.checkSlots()) || failed(pipe.collect()) ||
          failed(pipe.collectAsyncFills())) {
        ok = false;
        continue;
      }
      if (!pipe.place) { // never used
        create.erase();
        continue;
      }
      for (Value field : create.getFields())
        if (failed(relayoutField(create, field)))
          ok = false;
      if (!ok)
        continue;
      pipe.buildRings();
      for (Endpoint &e : pipe.endpoints)
        if (failed(pipe.thread(e))) {
          ok = false;
          break;
        }
      if (!ok)
        continue;
      pipe.lowerRest();
      pipe.lowerAsyncFills();
      create.erase();
    }
    // Tagged loads left: async copies whose destination is no pipe slot.
    module.walk([&](tt::LoadOp load) {
      if (!load->hasAttr(kAsyncCopyAttr))
        return;
      load.emitOpError("tle.gpu.copy(is_async=True) must copy into a field of "
                     "a pipe slot taken by the writer's acquire() (the copy "
                     "completes at the writer's commit); copy synchronously "
                     "into other buffers");
      ok = false;
    });
    module.walk([&](LocalStoreOp store) {
      if (!store->hasAttr(kTmaFillAttr))
        return;
      store.emitOpError("tle.gpu.copy from a tensor descriptor must fill a "
                        "field of a pipe slot taken by the writer's acquire() "
                        "(the TMA copy completes at the writer's commit)");
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
