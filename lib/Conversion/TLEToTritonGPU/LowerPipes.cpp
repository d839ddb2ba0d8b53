//===- LowerPipes.cpp - tle.pipe -> mbarrier rings ------------------------===//
//
// triton-tle-lower-pipes (docs/warp-specialize.md, Passes.td): each pipe gets
// a `ready` and an `empty` mbarrier ring; each endpoint counts the slots it
// takes with a counter threaded through its partition's control flow. The
// slot fills (cp.async and TMA) are LowerPipeFills.cpp's; Pipes.h holds what
// both share.
//
//===----------------------------------------------------------------------===//
#include "LocalMemory.h"
#include "Pipes.h"
#include "TargetCheck.h"

#include "TLE/Conversion/Passes.h"
#include "TLE/Conversion/TritonBuilders.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERPIPES
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;
using namespace mlir::tle::pipes;

namespace mlir::tle::pipes {

static std::string regionName(int region) {
  if (region == kBeforeRegion)
    return "the kernel body before the tle.gpu.warp_specialize";
  return region < 0 ? std::string("the default partition")
                    : "partition " + std::to_string(region);
}

/// The tle.warp_specialize that follows `op` or one of its ancestors in the
/// same block, or null.
static WarpSpecializeOp warpSpecializeAfter(Operation *op) {
  for (Operation *at = op; at; at = at->getParentOp()) {
    for (Operation *next = at->getNextNode(); next; next = next->getNextNode())
      if (auto ws = dyn_cast<WarpSpecializeOp>(next))
        return ws;
    if (isa<FunctionOpInterface>(at->getParentOp()))
      break;
  }
  return {};
}

static FailureOr<Place> placeOf(Operation *op) {
  for (Operation *child = op, *parent = op->getParentOp(); parent;
       child = parent, parent = parent->getParentOp()) {
    if (auto ws = dyn_cast<WarpSpecializeOp>(parent))
      return Place{ws, -1};
    if (auto parts = dyn_cast<WarpSpecializePartitionsOp>(parent)) {
      auto ws = cast<WarpSpecializeOp>(parts->getParentOp());
      return Place{
          ws, static_cast<int>(child->getParentRegion()->getRegionNumber())};
    }
  }
  // FlagTree's one-shot hand-off: the writer fills its slots in the kernel
  // body, with every warp, before the warp_specialize its readers run in.
  bool writer = isa<PipeWriterAcquireOp, PipeWriterCommitOp>(op);
  if (writer)
    if (WarpSpecializeOp ws = warpSpecializeAfter(op))
      return Place{ws, kBeforeRegion};
  op->emitOpError("must be inside a tle.gpu.warp_specialize partition (pipe "
                  "endpoints synchronize concurrent partitions)")
      << (writer ? ", or before one (a writer filling the slots its "
                   "partitions read)"
                 : "");
  return failure();
}

/// The warps running `place`: the partition's, or for the default region
/// those around the tle.warp_specialize (the module's).
static unsigned placeWarps(Place place) {
  if (place.region >= 0)
    return place.ws.getPartitionNumWarps()[place.region];
  return interop::lookupNumWarps(place.ws).value_or(interop::kDefaultNumWarps);
}

/// The position (`at [%stage, %phase]`) of an op that takes a slot; a null
/// stage when it has none.
static std::pair<Value, Value> positionOf(Operation *op) {
  if (auto acquire = dyn_cast<PipeWriterAcquireOp>(op))
    return {acquire.getStage(), acquire.getPhase()};
  if (auto close = dyn_cast<PipeWriterCloseOp>(op))
    return {close.getStage(), close.getPhase()};
  if (auto wait = dyn_cast<PipeReaderWaitOp>(op))
    return {wait.getStage(), wait.getPhase()};
  return {};
}

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
  // Positions (cursors) on every slot-taking op of an endpoint or on none:
  // a threaded counter cannot follow a kernel's own position, nor the
  // kernel the counter.
  for (Endpoint &e : endpoints) {
    std::optional<bool> mode; // of the first slot-taking op (program order)
    for (Operation *op : e.ops) {
      if (!e.counts(op))
        continue;
      bool positioned = static_cast<bool>(positionOf(op).first);
      if (!mode) {
        mode = positioned;
      } else if (*mode != positioned) {
        error(op) << e.name()
                  << " takes slots both at cursor positions and in ring "
                     "order: give every acquire / wait / close of an "
                     "endpoint a cursor, or none";
        ok = false;
        break;
      }
    }
    e.positioned = mode.value_or(false);
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
  if (writer.place && writer.place->region == kBeforeRegion &&
      !type.getOneShot()) {
    error(writer.ops.front())
        << "the writer fills slots before the tle.gpu.warp_specialize its "
           "readers run in, so it cannot wait for a released slot: make the "
           "pipe one_shot (at most `capacity` items)";
    return failure();
  }
  // A ring's writer waits for releases: in its readers' partition it could
  // wait for itself. A one-shot writer never waits (FlagTree's FlashMLA
  // prefill fills its Q pipe in a partition that reads it too).
  for (Endpoint &r : llvm::drop_begin(endpoints))
    if (writer.place && r.place && *writer.place == *r.place &&
        !type.getOneShot()) {
      error(r.ops.front()) << "the writer is used by a reader partition: "
                           << regionName(r.place->region)
                           << " both writes the pipe and reads it as reader '"
                           << r.reader
                           << "'; only a one_shot pipe, whose writer never "
                              "waits, may be read where it is written";
      return failure();
    }
  return success();
}

/// Commit / release / slot take slots their endpoint handed out.
LogicalResult PipeLowering::checkSlots() {
  Value pipe = create.getPipe();
  bool ok = true;
  // Endpoints with a positioned op (collect() checks they have no other):
  // they commit / release the stage of a cursor, not an op's result ("" is
  // the writer).
  llvm::StringSet<> positioned;
  for (Operation *user : pipe.getUsers()) {
    if (!positionOf(user).first)
      continue;
    auto wait = dyn_cast<PipeReaderWaitOp>(user);
    positioned.insert(wait ? wait.getReader() : "");
  }
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
      // A positioned writer commits the stage of its cursor.
      if (positioned.contains(""))
        continue;
      slot = commit.getSlot();
      fromEndpoint = acquire(slot);
      expected = "tle.pipe.writer_acquire of this pipe (commit before "
                 "acquire?)";
    } else if (auto release = dyn_cast<PipeReaderReleaseOp>(user)) {
      if (positioned.contains(release.getReader()))
        continue;
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

static ttg::MemDescType barrierType(MLIRContext *ctx, int64_t slots) {
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

void PipeLowering::collectPointerFields() {
  for (Operation *user : create.getPipe().getUsers())
    if (auto view = dyn_cast<PipeSlotOp>(user))
      if (llvm::any_of(view.getView().getUsers(),
                       [](Operation *op) { return isa<LocalPointersOp>(op); }))
        pointerFields.insert(*type.getFieldIndex(view.getField()));
}

/// The encoding of one slot of `ring` (a tle.gpu.alloc field): its order
/// without the slot dimension, as tle.buffer_slot takes it.
static Attribute slotEncoding(ttg::MemDescType ring) {
  auto enc = dyn_cast<ttg::SwizzledSharedEncodingAttr>(ring.getEncoding());
  if (!enc || static_cast<int64_t>(enc.getOrder().size()) != ring.getRank())
    return ring.getEncoding();
  SmallVector<unsigned> order;
  for (unsigned d : enc.getOrder())
    if (d != 0)
      order.push_back(d - 1);
  return ttg::SwizzledSharedEncodingAttr::get(ring.getContext(), enc.getVec(),
                                              enc.getPerPhase(),
                                              enc.getMaxPhase(), order);
}

/// Sub-block views of a slot view that took the slot's encoding
/// (`ttg.memdesc_subslice`s the local-pointer passes made of rectangles)
/// take it too, with the view's allocation shape.
static void retypeSubslices(Value view) {
  auto type = cast<ttg::MemDescType>(view.getType());
  for (Operation *user : view.getUsers()) {
    auto sub = dyn_cast<ttg::MemDescSubsliceOp>(user);
    if (!sub)
      continue;
    auto old = cast<ttg::MemDescType>(sub.getResult().getType());
    sub.getResult().setType(ttg::MemDescType::get(
        old.getShape(), old.getElementType(), type.getEncoding(),
        old.getMemorySpace(), old.getMutableMemory(), type.getAllocShape()));
    retypeSubslices(sub.getResult());
  }
}

static Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// Triton lays a ring of buffers out like one buffer: the shared encoding's
/// order covers the trailing dims only (a slot view keeps the encoding, and
/// an encoding must not have more dims than its memdesc). A field allocated
/// with an unswizzled row-major order over all its dims (tle.gpu.alloc)
/// describes the same addresses with the order of one slot.
static LogicalResult relayoutField(PipeCreateOp create, Value field) {
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
  field.setType(type.withEncoding(slotEncoding(type)));
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
    flags =
        ttg::LocalAllocOp::create(b, loc, flagsType, Value(), IntegerAttr());
  }
  int32_t readers = type.getReaders().size();
  // With asynchronous fills every writer thread's cp.async.mbarrier.arrive
  // .noinc counts as one arrival (when its copies have landed), besides the
  // elected arrive of the commit.
  int32_t readyCount = 1;
  if (!asyncFills.empty())
    readyCount += placeWarps(*endpoints.front().place) *
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
  if (succeeded(where) && placeWarps(*where) > 1)
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
static RankedTensorType flagTensorType(ModuleOp module) {
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
  lowerTaking(op, slot, phase);
}

/// Lowers an op that takes slot `slot` in the round of parity `phase` (i32).
void PipeLowering::lowerTaking(Operation *op, Value slot, Value phase) {
  OpBuilder b(op);
  Location loc = op->getLoc();
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

/// An endpoint whose ops carry positions: each takes the slot its cursor
/// names (the phase an i1: the round's parity).
void PipeLowering::lowerPositioned(Endpoint &e) {
  for (Operation *op : e.ops) {
    if (!e.counts(op))
      continue;
    auto [stage, phase] = positionOf(op);
    OpBuilder b(op);
    Value parity =
        arith::ExtUIOp::create(b, op->getLoc(), b.getI32Type(), phase);
    lowerTaking(op, stage, parity);
  }
}

LogicalResult PipeLowering::thread(Endpoint &e) {
  if (e.ops.empty())
    return success();
  if (e.positioned) {
    lowerPositioned(e);
    return success();
  }
  // The scf ops between the partition's region and each counting op.
  llvm::SmallPtrSet<Operation *, 8> holders;
  Region *top = nullptr;
  for (Operation *op : e.ops) {
    if (!e.counts(op))
      continue;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp()) {
      if (isa<WarpSpecializeOp, WarpSpecializePartitionsOp,
              FunctionOpInterface>(parent))
        break;
      holders.insert(parent);
    }
  }
  // The partition's region, or the function's body for a writer before the
  // warp_specialize.
  Operation *any = e.ops.front();
  for (Operation *op = any; op; op = op->getParentOp())
    if (isa<WarpSpecializeOp, WarpSpecializePartitionsOp, FunctionOpInterface>(
            op->getParentOp())) {
      top = op->getParentRegion();
      break;
    }
  Block &entry = top->front();
  OpBuilder b(&entry, entry.begin());
  Value zero = i32(b, create.getLoc(), 0);
  return threadBlock(e, entry, zero, holders);
}

/// Commit / release / slot views, once the slots are plain values.
void PipeLowering::lowerRest() {
  lowerTmaFills();
  for (Operation *user :
       llvm::make_early_inc_range(create.getPipe().getUsers())) {
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
      Value ring = create.getFields()[field];
      Value lowered;
      if (pointerFields.contains(field)) {
        // A slot of a pointer buffer (triton-tle-lower-local-memory turns
        // the local pointers through it into pointers into the field).
        auto ringType = cast<ttg::MemDescType>(ring.getType());
        auto viewType = ttg::MemDescType::get(
            ringType.getShape().drop_front(), ringType.getElementType(),
            slotEncoding(ringType), ringType.getMemorySpace(),
            ringType.getMutableMemory());
        lowered = BufferSlotOp::create(b, loc, viewType, ring, view.getSlot());
      } else {
        lowered = index(b, loc, ring, view.getSlot());
      }
      view.getView().replaceAllUsesWith(lowered);
      retypeSubslices(lowered);
    }
    user->erase();
  }
}

} // namespace mlir::tle::pipes

namespace {

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
      pipe.collectPointerFields();
      if (failed(pipe.checkSlots()) || failed(pipe.collect()) ||
          failed(pipe.collectAsyncFills())) {
        ok = false;
        continue;
      }
      if (!pipe.place) { // never used
        create.erase();
        continue;
      }
      for (auto [i, field] : llvm::enumerate(create.getFields()))
        if (!pipe.pointerFields.contains(i) &&
            failed(relayoutField(create, field)))
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
    // Tagged loads left: async copies into buffers that are no pipe slot,
    // completed by the kernel's own commit / wait groups
    // (triton-tle-lower-barriers lowers the tle.async_copy).
    SmallVector<tt::LoadOp> tagged;
    module.walk([&](tt::LoadOp load) {
      if (load->hasAttr(kAsyncCopyAttr))
        tagged.push_back(load);
    });
    for (tt::LoadOp load : tagged) {
      load->removeAttr(kAsyncCopyAttr);
      Operation *store = nullptr;
      if (load->hasOneUse())
        store = *load->user_begin();
      if (!store || !isa<LocalStoreOp, ttg::LocalStoreOp>(store) ||
          store->getOperand(0) != load.getResult()) {
        load.emitOpError("tle.gpu.copy(is_async=True): the load must only be "
                         "stored into the copy's buffer");
        ok = false;
        continue;
      }
      OpBuilder b(store);
      AsyncCopyOp::create(b, store->getLoc(), store->getOperand(0),
                          store->getOperand(1));
      store->erase();
    }
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
