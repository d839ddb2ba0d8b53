//===- ForwardBufferMmaOperands.cpp - wgmma reads read-only buffers -------===//
//
// triton-tle-forward-buffer-mma-operands: a shared buffer that the parent of
// a ttg.warp_specialize fills and its partitions only read is read in place
// by the partitions' wgmmas (its A operand in shared memory, in the NVMMA
// encoding), instead of through a per-partition copy and registers. The
// rules are documented with the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEFORWARDBUFFERMMAOPERANDS
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// The NVMMA encoding a wgmma reads a row-major (K-contiguous) A operand of
/// `type` in, or null when there is none (rank, element or row size).
Attribute nvmmaEncodingFor(ttg::MemDescType type) {
  Type element = type.getElementType();
  if (type.getRank() != 2 || !element.isIntOrFloat())
    return {};
  unsigned bits = element.getIntOrFloatBitWidth();
  int64_t rowBytes = type.getShape()[1] * bits / 8;
  unsigned swizzle = 0;
  for (unsigned width : {128u, 64u, 32u})
    if (rowBytes % width == 0) {
      swizzle = width;
      break;
    }
  if (!swizzle)
    return {};
  return ttg::NVMMASharedEncodingAttr::get(type.getContext(), swizzle,
                                           /*transposed=*/false, bits,
                                           /*fp4Padded=*/false, /*rank=*/2,
                                           /*CGALayout=*/nullptr);
}

/// Whether every use of `load`'s result is the A operand of a
/// `ttng.warp_group_dot` or an input of a `ttng.warp_group_dot_wait` whose
/// matching result is unused (the load can then become the buffer itself).
bool feedsOnlyWgmmaA(ttg::LocalLoadOp load) {
  if (load.getToken() || load.getResult().use_empty())
    return false;
  for (OpOperand &use : load.getResult().getUses()) {
    Operation *user = use.getOwner();
    if (isa<ttng::WarpGroupDotOp>(user) && use.getOperandNumber() == 0)
      continue;
    auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(user);
    if (wait && wait.getResult(use.getOperandNumber()).use_empty())
      continue;
    return false;
  }
  return true;
}

/// Whether `copy` holds a whole buffer of `type`: same shape, element type
/// and memory space (encodings may differ).
bool copiesWhole(ttg::LocalAllocOp copy, ttg::MemDescType type) {
  ttg::MemDescType copyType = copy.getType();
  return copyType.getShape() == type.getShape() &&
         copyType.getElementType() == type.getElementType() &&
         copyType.getMemorySpace() == type.getMemorySpace();
}

/// Points every use of `from` (a load or copy of a buffer, or a transposed
/// view of a copy) at `to` (the buffer, or a view of it), retyping the wait
/// results that pass it on.
void redirect(Value from, Value to) {
  for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
    Operation *user = use.getOwner();
    unsigned number = use.getOperandNumber();
    if (auto trans = dyn_cast<ttg::MemDescTransOp>(user)) {
      auto old = cast<ttg::MemDescType>(trans.getType());
      auto type = ttg::MemDescType::get(
          old.getShape(), old.getElementType(), old.getEncoding(),
          old.getMemorySpace(),
          cast<ttg::MemDescType>(to.getType()).getMutableMemory());
      OpBuilder builder(trans);
      auto view = ttg::MemDescTransOp::create(builder, trans.getLoc(), type, to,
                                              trans.getOrderAttr());
      redirect(trans.getResult(), view.getResult());
      trans->erase();
      continue;
    }
    user->setOperand(number, to);
    if (auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(user))
      wait.getResult(number).setType(to.getType());
  }
}

/// One buffer captured by one ttg.warp_specialize, read-only inside it.
struct BufferPlan {
  ttg::LocalAllocOp alloc;
  ttg::WarpSpecializeOp ws;
  unsigned capture = 0;
  /// (alias, load of it) for every read inside the op; the alias is the
  /// buffer itself in the default region, a block argument in a partition.
  SmallVector<std::pair<Value, ttg::LocalLoadOp>> reads;
};

/// Collects `plan` for capture `index` of `ws`; false when the buffer is not
/// a plain allocation written only outside the op and read only inside it.
bool planBuffer(ttg::WarpSpecializeOp ws, unsigned index, BufferPlan &plan) {
  Value buffer = ws.getExplicitCaptures()[index];
  auto alloc = buffer.getDefiningOp<ttg::LocalAllocOp>();
  if (!alloc || alloc.getSrc() ||
      llvm::count(ws.getExplicitCaptures(), buffer) != 1 ||
      !isa<ttg::SharedMemorySpaceAttr>(alloc.getType().getMemorySpace()))
    return false;
  plan.alloc = alloc;
  plan.ws = ws;
  plan.capture = index;
  for (Operation *user : buffer.getUsers()) {
    if (user == ws.getOperation())
      continue;
    auto load = dyn_cast<ttg::LocalLoadOp>(user);
    if (ws->isAncestor(user)) {
      // The default region uses the buffer directly: reads only.
      if (!load)
        return false;
      plan.reads.push_back({buffer, load});
      continue;
    }
    if (!load && !isa<ttg::LocalStoreOp, ttg::LocalDeallocOp>(user))
      return false;
  }
  ttg::WarpSpecializePartitionsOp partitions = ws.getPartitionOp();
  if (partitions)
    for (Region &region : partitions.getPartitionRegions()) {
      Value arg = region.getArgument(index);
      for (Operation *user : arg.getUsers()) {
        auto load = dyn_cast<ttg::LocalLoadOp>(user);
        if (!load)
          return false;
        plan.reads.push_back({arg, load});
      }
    }
  return !plan.reads.empty();
}

/// Applies `plan`; returns whether a wgmma now reads the buffer in place.
bool apply(BufferPlan &plan) {
  ttg::MemDescType type = plan.alloc.getType();
  // Loads in a wgmma's operand layout that can read the buffer in place,
  // with the alias they would read; every other load of a copy reads the
  // buffer instead of the copy.
  SmallVector<std::pair<Value, ttg::LocalLoadOp>> inPlace;
  SmallVector<std::pair<Value, ttg::LocalLoadOp>> retarget;
  // Copies and the first loads they copy, erased if left without users.
  SmallVector<ttg::LocalAllocOp> deadCopies;
  SmallVector<ttg::LocalLoadOp> deadLoads;
  for (auto [alias, load] : plan.reads) {
    if (feedsOnlyWgmmaA(load)) {
      inPlace.push_back({alias, load});
      continue;
    }
    for (Operation *user : load.getResult().getUsers()) {
      auto copy = dyn_cast<ttg::LocalAllocOp>(user);
      if (!copy)
        continue;
      if (!copiesWhole(copy, type) ||
          !llvm::all_of(copy->getUsers(),
                        [](Operation *u) { return isa<ttg::LocalLoadOp>(u); }))
        continue;
      for (Operation *copyUser : copy->getUsers()) {
        auto read = cast<ttg::LocalLoadOp>(copyUser);
        if (feedsOnlyWgmmaA(read))
          inPlace.push_back({alias, read});
        else
          retarget.push_back({alias, read});
      }
      deadCopies.push_back(copy);
    }
    deadLoads.push_back(load);
  }
  Attribute encoding = inPlace.empty() ? Attribute() : nvmmaEncodingFor(type);
  if (!encoding) {
    retarget.append(inPlace.begin(), inPlace.end());
    inPlace.clear();
  }
  if (inPlace.empty() && retarget.empty())
    return false;

  if (encoding && encoding != type.getEncoding()) {
    auto retyped = type.withEncoding(encoding);
    plan.alloc.getResult().setType(retyped);
    if (ttg::WarpSpecializePartitionsOp partitions = plan.ws.getPartitionOp())
      for (Region &region : partitions.getPartitionRegions())
        region.getArgument(plan.capture).setType(retyped);
  }
  for (auto [alias, read] : retarget) {
    if (read.getSrc() == alias)
      continue;
    OpBuilder builder(read);
    auto direct = ttg::LocalLoadOp::create(
        builder, read.getLoc(), read.getResult().getType(), alias, Value());
    read.getResult().replaceAllUsesWith(direct.getResult());
    read->erase();
  }
  for (auto [alias, read] : inPlace) {
    redirect(read.getResult(), alias);
    read->erase();
  }
  // Copies and first loads left without users go (copies before the loads
  // they copy; two lists, so that no erased op is looked at again).
  for (ttg::LocalAllocOp copy : deadCopies)
    if (copy->use_empty())
      copy->erase();
  for (ttg::LocalLoadOp load : deadLoads)
    if (load->use_empty())
      load->erase();
  return !inPlace.empty();
}

/// Whether every use of the copy `copy` is a wgmma operand in shared memory:
/// a `ttng.warp_group_dot` A or B operand, a `ttg.memdesc_trans` whose uses
/// are B operands, or a `ttng.warp_group_dot_wait` input (its result then
/// takes the new type).
bool copyFeedsOnlyWgmma(ttg::LocalAllocOp copy) {
  if (copy->use_empty())
    return false;
  for (OpOperand &use : copy->getUses()) {
    Operation *user = use.getOwner();
    if (isa<ttng::WarpGroupDotOp>(user) && use.getOperandNumber() < 2)
      continue;
    if (isa<ttng::WarpGroupDotWaitOp>(user))
      continue;
    auto trans = dyn_cast<ttg::MemDescTransOp>(user);
    if (trans && llvm::all_of(trans->getUses(), [](OpOperand &t) {
          return (isa<ttng::WarpGroupDotOp>(t.getOwner()) &&
                  t.getOperandNumber() == 1) ||
                 isa<ttng::WarpGroupDotWaitOp>(t.getOwner());
        }))
      continue;
    return false;
  }
  return true;
}

/// Outside warp_specialize: a function-level buffer whose every write
/// (`ttg.local_store`) comes before the top-level op holding any of its
/// reads is constant while they run, wgmma's asynchronous reads included.
/// A `ttg.local_alloc` copy of a load of it that only wgmmas read (A or B,
/// through a transposed view or not) is the buffer itself: the buffer takes
/// the copy's encoding (its other accesses are register loads and stores,
/// which take any) and the wgmmas read it. So does a load only wgmmas take
/// as their register A operand. A fence and a barrier follow the last
/// write.
void forwardReadOnlyCopies(tt::FuncOp func) {
  Block &body = func.getBody().front();
  SmallVector<ttg::LocalAllocOp> allocs;
  // Buffers without an initial value (copies have one; forwarding erases
  // them, so they must not be in the list).
  for (auto alloc : body.getOps<ttg::LocalAllocOp>())
    if (!alloc.getSrc())
      allocs.push_back(alloc);
  for (ttg::LocalAllocOp alloc : allocs) {
    ttg::MemDescType type = alloc.getType();
    if (!type.getMutableMemory() ||
        !isa<ttg::SharedMemorySpaceAttr>(type.getMemorySpace()))
      continue;
    SmallVector<Operation *> writes;
    SmallVector<ttg::LocalLoadOp> loads;
    bool plain = true;
    for (Operation *user : alloc->getUsers()) {
      if (auto load = dyn_cast<ttg::LocalLoadOp>(user))
        loads.push_back(load);
      else if (isa<ttg::LocalStoreOp>(user))
        writes.push_back(user);
      else if (!isa<ttg::LocalDeallocOp>(user))
        plain = false;
    }
    if (!plain || writes.empty())
      continue;
    Operation *lastWrite = nullptr;
    for (Operation *write : writes) {
      Operation *top = body.findAncestorOpInBlock(*write);
      if (!lastWrite || lastWrite->isBeforeInBlock(top))
        lastWrite = top;
    }
    // The copies to forward (wgmma readers only, all of one encoding) and
    // register A operands, among the loads after every write.
    SmallVector<ttg::LocalAllocOp> copies;
    SmallVector<ttg::LocalLoadOp> registerOperands;
    SmallVector<ttg::LocalAllocOp> readCopies;
    Attribute encoding;
    for (ttg::LocalLoadOp load : loads) {
      Operation *top = body.findAncestorOpInBlock(*load);
      if (!top || top == lastWrite || top->isBeforeInBlock(lastWrite))
        continue;
      if (feedsOnlyWgmmaA(load)) {
        registerOperands.push_back(load);
        continue;
      }
      for (Operation *user : load->getUsers()) {
        auto copy = dyn_cast<ttg::LocalAllocOp>(user);
        if (!copy)
          continue;
        if (!copiesWhole(copy, type))
          continue;
        // A copy loaded into wgmma A operands in registers (Triton's
        // layout conversion into the operand layout).
        if (!copy->use_empty() &&
            llvm::all_of(copy->getUsers(), [](Operation *u) {
              auto read = dyn_cast<ttg::LocalLoadOp>(u);
              return read && feedsOnlyWgmmaA(read);
            })) {
          for (Operation *u : copy->getUsers())
            registerOperands.push_back(cast<ttg::LocalLoadOp>(u));
          readCopies.push_back(copy);
          continue;
        }
        Attribute copyEncoding = copy.getType().getEncoding();
        if (!isa<ttg::NVMMASharedEncodingAttr>(copyEncoding) ||
            (encoding && copyEncoding != encoding) || !copyFeedsOnlyWgmma(copy))
          continue;
        encoding = copyEncoding;
        copies.push_back(copy);
      }
    }
    // A operands Triton keeps in registers read the buffer too, in the
    // copies' encoding or else the K-contiguous one (wgmma reads a 16-bit A
    // either way round; other widths only K-contiguous).
    if (!registerOperands.empty()) {
      if (!encoding)
        encoding = nvmmaEncodingFor(type);
      auto nvmma = dyn_cast_or_null<ttg::NVMMASharedEncodingAttr>(encoding);
      if (!nvmma || (nvmma.getTransposed() &&
                     type.getElementType().getIntOrFloatBitWidth() != 16)) {
        registerOperands.clear();
        readCopies.clear();
      }
    }
    if (copies.empty() && registerOperands.empty())
      continue;
    alloc.getResult().setType(type.withEncoding(encoding));
    for (ttg::LocalLoadOp load : registerOperands) {
      redirect(load.getResult(), alloc.getResult());
      load->erase();
    }
    for (ttg::LocalAllocOp copy : copies)
      redirect(copy.getResult(), alloc.getResult());
    // Copies, then the loads they copied, once without users.
    copies.append(readCopies.begin(), readCopies.end());
    for (ttg::LocalAllocOp copy : copies) {
      auto load = copy.getSrc().getDefiningOp<ttg::LocalLoadOp>();
      copy->erase();
      if (load->use_empty())
        load->erase();
    }
    // The stores are generic-proxy writes; the wgmmas read through the
    // async proxy.
    OpBuilder builder(lastWrite->getBlock(), ++Block::iterator(lastWrite));
    ttng::FenceAsyncSharedOp::create(builder, lastWrite->getLoc(),
                                     /*bCluster=*/false);
    gpu::BarrierOp::create(builder, lastWrite->getLoc());
  }
}

struct TLEForwardBufferMmaOperands
    : impl::TLEForwardBufferMmaOperandsBase<TLEForwardBufferMmaOperands> {
  void runOnOperation() override {
    getOperation()->walk([](tt::FuncOp func) {
      if (func.isPublic() && !func.getBody().empty())
        forwardReadOnlyCopies(func);
    });
    SmallVector<ttg::WarpSpecializeOp> ops;
    getOperation()->walk([&](ttg::WarpSpecializeOp ws) { ops.push_back(ws); });
    for (ttg::WarpSpecializeOp ws : ops) {
      bool asyncReads = false;
      for (unsigned i = 0, e = ws.getExplicitCaptures().size(); i < e; ++i) {
        BufferPlan plan;
        if (planBuffer(ws, i, plan))
          asyncReads |= apply(plan);
      }
      if (!asyncReads)
        continue;
      // The parent's stores are generic-proxy writes; the wgmmas read
      // through the async proxy: fence, then sync the parent's warps (the
      // workers start behind Triton's own hand-off barrier).
      OpBuilder builder(ws);
      ttng::FenceAsyncSharedOp::create(builder, ws.getLoc(),
                                       /*bCluster=*/false);
      gpu::BarrierOp::create(builder, ws.getLoc());
    }
  }
};

} // namespace
} // namespace mlir::tle
