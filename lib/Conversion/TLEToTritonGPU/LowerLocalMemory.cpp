//===- LowerLocalMemory.cpp - TLE buffers and pointers -> Triton ops ------===//
//
// triton-tle-lower-local-memory (docs/local-memory.md section 4):
//
// - memdesc buffers -> ttg.local_alloc / ttg.local_load / ttg.local_store;
// - pointer buffers -> a slot of TLE's shared-memory region (module attribute
//   `tle.shared`), addressed from `tle.smem.base <offset>;` inline asm turned
//   into a `!tt.ptr<T, 3>` (tt.int_to_ptr with a 16-byte divisibility hint);
//   tle.local_pointers -> tt.addptr of row-major offsets; whole-buffer
//   accesses -> tt.load / tt.store through full-view pointers;
// - atomics (LowerLocalMemoryAtomics.cpp) and cluster ops
//   (LowerLocalMemoryCluster.cpp).
//
//===----------------------------------------------------------------------===//
#include "AxisIndex.h"
#include "LocalMemory.h"
#include "TargetCheck.h"

#include "TLE/Conversion/Passes.h"
#include "TLE/Conversion/TLEToIluvatar/Target.h"
#include "TLE/Conversion/TritonBuilders.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERLOCALMEMORY
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;
using namespace mlir::tle::local_memory;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

Value local_memory::buildScalarAsm(OpBuilder &b, Location loc,
                                   StringRef asmString, bool pure) {
  return tt::ElementwiseInlineAsmOp::create(b, loc, TypeRange{b.getI32Type()},
                                            asmString, "=r", pure,
                                            /*packed_element=*/1, ValueRange{})
      ->getResult(0);
}

Value local_memory::splatLike(OpBuilder &b, Location loc, Value value,
                              Type like) {
  auto tensor = dyn_cast<RankedTensorType>(like);
  if (!tensor)
    return value;
  return tt::SplatOp::create(b, loc, tensor.clone(value.getType()), value);
}

Value local_memory::intConstant(OpBuilder &b, Location loc, Type type,
                                int64_t value) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr attr = b.getIntegerAttr(element, value);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    attr = DenseElementsAttr::get(tensor, attr);
  return arith::ConstantOp::create(b, loc, attr);
}

unsigned local_memory::threadsPerWarp(ModuleOp module) {
  return interop::lookupThreadsPerWarp(module).value_or(
      interop::kDefaultThreadsPerWarp);
}

unsigned local_memory::numWarps(ModuleOp module) {
  return interop::lookupNumWarps(module).value_or(interop::kDefaultNumWarps);
}

unsigned local_memory::groupWarps(Operation *op, ModuleOp module) {
  if (std::optional<int64_t> warps = interop::lookupNumWarps(op))
    return *warps;
  return numWarps(module);
}

Value local_memory::allocAtEntry(Operation *at, ArrayRef<int64_t> shape,
                                 Type element) {
  MLIRContext *ctx = at->getContext();
  SmallVector<unsigned> order;
  for (int64_t d = shape.size() - 1; d >= 0; --d)
    order.push_back(static_cast<unsigned>(d));
  auto memdesc = ttg::MemDescType::get(
      shape, element, ttg::SwizzledSharedEncodingAttr::get(ctx, 1, 1, 1, order),
      ttg::SharedMemorySpaceAttr::get(ctx), /*mutableMemory=*/true);
  auto func = at->getParentOfType<FunctionOpInterface>();
  OpBuilder entry(ctx);
  entry.setInsertionPointToStart(&func.getFunctionBody().front());
  return AllocOp::create(entry, at->getLoc(), memdesc,
                         MemorySpaceAttr::get(ctx, MemorySpace::smem), Value());
}

AllocOp local_memory::bufferAlloc(Value buffer) {
  while (auto slot = buffer.getDefiningOp<BufferSlotOp>())
    buffer = slot.getSrc();
  return buffer.getDefiningOp<AllocOp>();
}

void local_memory::setBufferEncoding(AllocOp alloc, Attribute enc) {
  SmallVector<Value> work{alloc.getResult()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    auto type = cast<ttg::MemDescType>(v.getType());
    v.setType(type.withEncoding(enc));
    for (Operation *user : v.getUsers())
      if (auto slot = dyn_cast<BufferSlotOp>(user))
        work.push_back(slot.getResult());
  }
}

namespace {

//===----------------------------------------------------------------------===//
// Pointer buffers
//===----------------------------------------------------------------------===//

constexpr int kSharedAddressSpace = 3;

/// One pointer buffer: its slot in TLE's region and, per function, the base
/// pointer built at the function's entry.
struct PointerBuffer {
  AllocOp alloc;
  int64_t offset = 0;
  /// Row-major strides (in elements) over the shared encoding's order.
  SmallVector<int64_t> strides;
  Value base;
};

/// Strides of a row-major layout whose fastest dimension is order[0].
SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape,
                                     ArrayRef<unsigned> order) {
  SmallVector<int64_t> strides(shape.size(), 1);
  int64_t stride = 1;
  for (unsigned dim : order) {
    strides[dim] = stride;
    stride *= shape[dim];
  }
  return strides;
}

/// The dimension order (all dims, fastest first) of an unswizzled shared
/// encoding, or failure (after reporting at `op`).
FailureOr<SmallVector<unsigned>> unswizzledOrder(Operation *op,
                                                 ttg::MemDescType type) {
  auto swizzled =
      dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(type.getEncoding());
  if (!swizzled || swizzled.getMaxPhase() != 1) {
    op->emitOpError("a buffer accessed through tle.local_pointers needs an "
                    "unswizzled shared encoding (#ttg.swizzled_shared with "
                    "maxPhase = 1), got ")
        << type.getEncoding();
    return failure();
  }
  ArrayRef<unsigned> order = swizzled.getOrder();
  // Triton's multi-buffer convention (a pipe's field, the slots laid out
  // like one slot): the order covers the slot's dims, the slot index is
  // outermost.
  if (order.size() + 1 == static_cast<size_t>(type.getRank())) {
    SmallVector<unsigned> full;
    for (unsigned d : order)
      full.push_back(d + 1);
    full.push_back(0);
    return full;
  }
  if (order.size() != static_cast<size_t>(type.getRank())) {
    op->emitOpError("shared encoding order has ")
        << order.size() << " entries for a rank-" << type.getRank()
        << " buffer";
    return failure();
  }
  return SmallVector<unsigned>(order.begin(), order.end());
}

/// `value` as i32 (indices of any integer width).
Value toI32(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Type i32 = b.getI32Type();
  Type target = i32;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    target = tensor.clone(i32);
  if (width == 32)
    return value;
  if (width > 32)
    return arith::TruncIOp::create(b, loc, target, value);
  return arith::ExtSIOp::create(b, loc, target, value);
}

/// Pointers `base + sum(index[d] * stride[d])` of type `resultType`.
Value buildPointers(OpBuilder &b, Location loc, const PointerBuffer &buffer,
                    ValueRange indices, Type resultType) {
  Value offset;
  Type offsetType = b.getI32Type();
  if (auto tensor = dyn_cast<RankedTensorType>(resultType))
    offsetType = tensor.clone(b.getI32Type());
  for (auto [dim, index] : llvm::enumerate(indices)) {
    Value term = toI32(b, loc, index);
    if (buffer.strides[dim] != 1)
      term = arith::MulIOp::create(
          b, loc, term, intConstant(b, loc, offsetType, buffer.strides[dim]));
    offset =
        offset ? arith::AddIOp::create(b, loc, offset, term).getResult() : term;
  }
  if (!offset)
    offset = intConstant(b, loc, offsetType, 0);
  Value base = splatLike(b, loc, buffer.base, resultType);
  return tt::AddPtrOp::create(b, loc, resultType, base, offset);
}

/// Full-view pointers to `buffer`, or to its slot at the scalar indices
/// `slot` (outermost first: tle.buffer_slots of it), in the shape and
/// encoding of `like` (a tensor of any element type, the slot's shape).
Value buildFullView(OpBuilder &b, Location loc, const PointerBuffer &buffer,
                    RankedTensorType like, ValueRange slot = {}) {
  auto memdesc = cast<ttg::MemDescType>(
      const_cast<AllocOp &>(buffer.alloc).getResult().getType());
  auto ptrType =
      tt::PointerType::get(memdesc.getElementType(), kSharedAddressSpace);
  auto resultType = like.clone(ptrType);
  auto indexType = like.clone(b.getI32Type());
  SmallVector<Value> indices;
  for (Value index : slot)
    indices.push_back(
        tt::SplatOp::create(b, loc, indexType, toI32(b, loc, index)));
  for (int32_t d = 0; d < like.getRank(); ++d)
    indices.push_back(conversion::buildAxisIndex(b, loc, indexType, d));
  return buildPointers(b, loc, buffer, indices, resultType);
}

/// Size in bytes of a buffer of `type`.
int64_t bufferBytes(ttg::MemDescType type) {
  int64_t elements = 1;
  for (int64_t dim : type.getShape())
    elements *= dim;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return (elements * bits + 7) / 8;
}

int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

struct LowerLocalMemoryPass
    : public tle::impl::TLELowerLocalMemoryBase<LowerLocalMemoryPass> {
  void runOnOperation() override;

  LogicalResult planPointerBuffers(ModuleOp module);
  LogicalResult lowerPointerBufferUses(PointerBuffer &buffer);
  LogicalResult lowerPointerViewUses(PointerBuffer &buffer, Value view,
                                     SmallVector<Value> slot);
  LogicalResult lowerMemdescBuffer(AllocOp alloc);

  SmallVector<PointerBuffer> pointerBuffers;
  int64_t regionBytes = 0;
  llvm::DenseMap<Operation *, Operation *> lastBase;
};

LogicalResult LowerLocalMemoryPass::planPointerBuffers(ModuleOp module) {
  bool ok = true;
  module.walk([&](AllocOp alloc) {
    if (!alloc.isPointerBuffer())
      return;
    ttg::MemDescType type = alloc.getResult().getType();
    if (alloc.getScope() != MemorySpace::smem) {
      alloc.emitOpError("only shared-memory buffers can be accessed through "
                        "tle.local_pointers");
      ok = false;
      return;
    }
    FailureOr<SmallVector<unsigned>> order = unswizzledOrder(alloc, type);
    if (failed(order)) {
      ok = false;
      return;
    }
    int64_t bytes = bufferBytes(type);
    int64_t alignment = bytes > 4096 ? 128 : 16;
    PointerBuffer buffer;
    buffer.alloc = alloc;
    buffer.offset = alignTo(regionBytes, alignment);
    buffer.strides = rowMajorStrides(type.getShape(), *order);
    regionBytes = buffer.offset + bytes;
    pointerBuffers.push_back(buffer);
  });
  return success(ok);
}

/// Base pointer of `buffer` at the entry of the function holding its alloc:
/// `tle.smem.base <offset>;` -> i64 -> !tt.ptr<T, 3> (16-byte aligned).
/// Bases are built in program order after the previous one of the same
/// function (`lastBase`).
Value buildBase(PointerBuffer &buffer,
                llvm::DenseMap<Operation *, Operation *> &lastBase) {
  AllocOp alloc = buffer.alloc;
  Location loc = alloc.getLoc();
  auto func = alloc->getParentOfType<FunctionOpInterface>();
  OpBuilder b(alloc);
  if (func) {
    if (Operation *previous = lastBase.lookup(func))
      b.setInsertionPointAfter(previous);
    else
      b.setInsertionPointToStart(&func.getFunctionBody().front());
  }
  std::string asmString =
      "tle.smem.base " + std::to_string(buffer.offset) + ";";
  Value address = buildScalarAsm(b, loc, asmString, /*pure=*/true);
  Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), address);
  auto ptrType = tt::PointerType::get(
      alloc.getResult().getType().getElementType(), kSharedAddressSpace);
  auto base = tt::IntToPtrOp::create(b, loc, ptrType, wide);
  // Triton's AxisInfo reads hints from any op; 16 bytes lets contiguous
  // accesses vectorize.
  base->setDiscardableAttr(
      "tt.divisibility",
      DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                             b.getI32IntegerAttr(16)));
  if (func)
    lastBase[func] = base;
  return base;
}

LogicalResult
LowerLocalMemoryPass::lowerPointerBufferUses(PointerBuffer &buffer) {
  AllocOp alloc = buffer.alloc;
  buffer.base = buildBase(buffer, lastBase);
  if (Value init = alloc.getInit()) {
    OpBuilder b(alloc);
    auto initType = cast<RankedTensorType>(init.getType());
    Value ptrs = buildFullView(b, alloc.getLoc(), buffer, initType);
    createPlainStore(b, alloc.getLoc(), ptrs, init);
  }
  if (failed(lowerPointerViewUses(buffer, alloc.getResult(), {})))
    return failure();
  alloc.erase();
  return success();
}

/// The uses of `view` (the pointer buffer, or its slot at `slot`) as plain
/// loads and stores through pointers; a slot's own uses first, then the
/// slot goes.
LogicalResult
LowerLocalMemoryPass::lowerPointerViewUses(PointerBuffer &buffer, Value view,
                                           SmallVector<Value> slot) {
  SmallVector<Operation *> users(view.getUsers());
  for (Operation *user : users) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    if (auto ptrs = dyn_cast<LocalPointersOp>(user)) {
      // pointersThroughSlots moved the indexed ones of slots onto the
      // buffer; a slot's full view is here.
      assert((slot.empty() || ptrs.getIndices().empty()) &&
             "indexed local pointers of a slot");
      Type resultType = ptrs.getResult().getType();
      Value lowered;
      if (ptrs.getIndices().empty())
        lowered = buildFullView(b, loc, buffer,
                                cast<RankedTensorType>(resultType), slot);
      else
        lowered = buildPointers(b, loc, buffer, ptrs.getIndices(), resultType);
      ptrs.getResult().replaceAllUsesWith(lowered);
      ptrs.erase();
    } else if (auto sub = dyn_cast<BufferSlotOp>(user)) {
      SmallVector<Value> inner(slot);
      inner.push_back(sub.getIndex());
      if (failed(lowerPointerViewUses(buffer, sub.getResult(), inner)))
        return failure();
      sub.erase();
    } else if (auto load = dyn_cast<LocalLoadOp>(user)) {
      RankedTensorType type = load.getResult().getType();
      Value ptrs = buildFullView(b, loc, buffer, type, slot);
      auto lowered = createPlainLoad(b, loc, ptrs);
      load.getResult().replaceAllUsesWith(lowered);
      load.erase();
    } else if (auto store = dyn_cast<LocalStoreOp>(user)) {
      auto type = cast<RankedTensorType>(store.getValue().getType());
      Value ptrs = buildFullView(b, loc, buffer, type, slot);
      createPlainStore(b, loc, ptrs, store.getValue());
      store.erase();
    } else if (auto copy = dyn_cast<CopyOp>(user)) {
      bool toBuffer = copy.getDst() == view;
      Value global = toBuffer ? copy.getSrc() : copy.getDst();
      auto type = cast<RankedTensorType>(global.getType());
      Value ptrs = buildFullView(b, loc, buffer, type, slot);
      Value from = toBuffer ? global : ptrs;
      Value to = toBuffer ? ptrs : global;
      auto value = createPlainLoad(b, loc, from);
      createPlainStore(b, loc, to, value);
      copy.erase();
    } else {
      return user->emitOpError("cannot use a buffer that tle.local_pointers "
                               "also uses (a pointer buffer); expected "
                               "tle.local_pointers, tle.buffer_slot, "
                               "tle.local_load, tle.local_store or tle.copy");
    }
  }
  return success();
}

/// tle.local_load / tle.local_store / tle.copy of the memdesc `buffer` ->
/// ttg.local_load / ttg.local_store (plus tt.load / tt.store for copies).
/// Returns false when `user` is none of them.
static bool lowerMemdescAccess(Operation *user, Value buffer) {
  OpBuilder ub(user);
  Location loc = user->getLoc();
  if (auto load = dyn_cast<LocalLoadOp>(user)) {
    auto v = ttg::LocalLoadOp::create(ub, loc, load.getResult().getType(),
                                      buffer, Value());
    load.getResult().replaceAllUsesWith(v.getResult());
  } else if (auto store = dyn_cast<LocalStoreOp>(user)) {
    ttg::LocalStoreOp::create(ub, loc, store.getValue(), buffer);
  } else if (auto copy = dyn_cast<CopyOp>(user)) {
    if (isa<ttg::MemDescType>(copy.getDst().getType())) {
      auto value = createPlainLoad(ub, loc, copy.getSrc());
      ttg::LocalStoreOp::create(ub, loc, value, buffer);
    } else {
      auto ptrType = cast<RankedTensorType>(copy.getDst().getType());
      auto valueType = ptrType.clone(
          cast<tt::PointerType>(ptrType.getElementType()).getPointeeType());
      auto value =
          ttg::LocalLoadOp::create(ub, loc, valueType, buffer, Value());
      createPlainStore(ub, loc, copy.getDst(), value);
    }
  } else {
    return false;
  }
  user->erase();
  return true;
}

/// `tle.local_pointers %slot[idx...]` of `%slot = tle.buffer_slot %buf[%i]`
/// (FlagTree's `local_ptr(buf.slot(i), ...)`) -> `tle.local_pointers
/// %buf[%i, idx...]` (`%i` splatted to the indices' type when they are
/// tensors), slots of slots included, so the pointers address the whole
/// buffer and it is planned as a pointer buffer. Slots left without users
/// go. Local pointers over a whole slot (no indices: a pipe slot's field,
/// FlagTree's `local_ptr(slot.field)`) stay on the slot: its full view is
/// built with the slot's pointer-buffer uses.
static LogicalResult pointersThroughSlots(ModuleOp module) {
  SmallVector<LocalPointersOp> ops;
  module.walk([&](LocalPointersOp op) {
    if (op.getBuffer().getDefiningOp<BufferSlotOp>() &&
        !op.getIndices().empty())
      ops.push_back(op);
  });
  for (LocalPointersOp op : ops) {
    Value buffer = op.getBuffer();
    SmallVector<Value> indices(op.getIndices());
    OpBuilder b(op);
    while (auto slot = buffer.getDefiningOp<BufferSlotOp>()) {
      Value index = slot.getIndex();
      if (auto tensor = dyn_cast<RankedTensorType>(indices.front().getType()))
        index = tt::SplatOp::create(b, op.getLoc(),
                                    tensor.clone(index.getType()), index);
      indices.insert(indices.begin(), index);
      buffer = slot.getSrc();
    }
    Value pointers =
        LocalPointersOp::create(b, op.getLoc(), op.getType(), buffer, indices);
    Value oldBuffer = op.getBuffer();
    op.getResult().replaceAllUsesWith(pointers);
    op.erase();
    // The chain of slots, innermost first, while nothing else uses them.
    while (auto slot = oldBuffer.getDefiningOp<BufferSlotOp>()) {
      if (!slot.getResult().use_empty())
        break;
      oldBuffer = slot.getSrc();
      slot.erase();
    }
  }
  return success();
}

/// tle.buffer_slot -> ttg.memdesc_index. An unswizzled row-major buffer
/// whose order names its slot dimension (a plain tle.gpu.alloc of rank 3)
/// is first given its slot's order, the same bytes in Triton's multi-buffer
/// convention (the slots laid out like one slot), so that the source and
/// the view share one encoding.
static LogicalResult lowerBufferSlot(BufferSlotOp slot) {
  auto srcType = cast<ttg::MemDescType>(slot.getSrc().getType());
  auto resultType = slot.getResult().getType();
  if (srcType.getEncoding() != resultType.getEncoding()) {
    auto alloc = slot.getSrc().getDefiningOp<ttg::LocalAllocOp>();
    if (!alloc)
      return slot.emitOpError("slot of a buffer of type ")
             << srcType << " that is not a whole tle.gpu.alloc buffer cannot "
             << "take its slot's layout " << resultType.getEncoding();
    alloc.getResult().setType(srcType.withEncoding(resultType.getEncoding()));
    srcType = alloc.getResult().getType();
  }
  OpBuilder b(slot);
  auto view = ttg::MemDescIndexOp::create(b, slot.getLoc(), resultType,
                                          slot.getSrc(), slot.getIndex());
  slot.getResult().replaceAllUsesWith(view.getResult());
  slot.erase();
  return success();
}

LogicalResult LowerLocalMemoryPass::lowerMemdescBuffer(AllocOp alloc) {
  if (alloc.getScope() != MemorySpace::smem)
    return alloc.emitOpError("tensor-memory buffers are not lowered by "
                             "triton-tle-lower-local-memory yet");
  // A buffer nothing reads or writes allocates nothing (a kernel's spare
  // ping-pong buffer at some sizes); as a ttg.local_alloc, Triton would also
  // check its shape.
  if (alloc.getResult().use_empty()) {
    alloc.erase();
    return success();
  }
  // Triton 3.6 parses a memdesc whose dimensions after the first (a ring's
  // slot count) are powers of two, and no other.
  ArrayRef<int64_t> shape = alloc.getResult().getType().getShape();
  if (!llvm::all_of(shape.drop_front(), [](int64_t d) {
        return d > 0 && llvm::isPowerOf2_64(d);
      })) {
    InFlightDiagnostic diag = alloc.emitOpError("a buffer of shape [");
    llvm::interleaveComma(shape, diag);
    return diag << "] used other than through tle.local_pointers becomes "
                   "Triton's ttg.local_alloc, whose dimensions after the "
                   "first must be powers of two";
  }
  OpBuilder b(alloc);
  Location allocLoc = alloc.getLoc();
  auto lowered = ttg::LocalAllocOp::create(
      b, allocLoc, alloc.getResult().getType(), alloc.getInit(), IntegerAttr());
  Value buffer = lowered.getResult();
  SmallVector<Operation *> users(alloc.getResult().getUsers());
  for (Operation *user : users)
    lowerMemdescAccess(user, buffer);
  // Any other user (Triton's own memdesc ops) takes the new buffer as is.
  alloc.getResult().replaceAllUsesWith(buffer);
  alloc.erase();
  return success();
}

void LowerLocalMemoryPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  if (isIluvatarTarget(moduleTarget(module))) {
    module.emitError("triton-tle-lower-local-memory lowers TLE for NVIDIA "
                     "targets; this module targets '")
        << moduleTarget(module)
        << "' (Iluvatar modules use triton-tle-lower-to-iluvatar)";
    return signalPassFailure();
  }
  pointerBuffers.clear();
  lastBase.clear();
  regionBytes = 0;

  // Cluster facts first: they decide whether remote pointers are legal.
  FailureOr<ClusterShape> cluster = analyzeCluster(module);
  if (failed(cluster))
    return signalPassFailure();
  remapProgramIds(module, *cluster);
  foldRemoteOfRemote(module);
  int64_t clusterSize = cluster->size;

  if (failed(lowerSubmeshBarriers(module)) ||
      failed(pointersThroughSlots(module)))
    return signalPassFailure();
  prepareAtomicResults(module);
  if (failed(planPointerBuffers(module)))
    return signalPassFailure();
  bool ok = true;
  for (PointerBuffer &buffer : pointerBuffers)
    ok &= succeeded(lowerPointerBufferUses(buffer));
  SmallVector<AllocOp> memdescBuffers;
  module.walk([&](AllocOp alloc) { memdescBuffers.push_back(alloc); });
  for (AllocOp alloc : memdescBuffers)
    ok &= succeeded(lowerMemdescBuffer(alloc));
  // Slots of buffers: ttg.memdesc_index (outer views first).
  SmallVector<BufferSlotOp> slots;
  module.walk<WalkOrder::PreOrder>(
      [&](BufferSlotOp slot) { slots.push_back(slot); });
  for (BufferSlotOp slot : slots)
    ok &= succeeded(lowerBufferSlot(slot));
  // Accesses to views of buffers (a pipe slot's ttg.memdesc_index, say).
  SmallVector<Operation *> viewAccesses;
  module.walk([&](Operation *op) {
    if (isa<LocalLoadOp, LocalStoreOp, CopyOp>(op))
      viewAccesses.push_back(op);
  });
  for (Operation *op : viewAccesses) {
    Value buffer;
    for (Value operand : op->getOperands())
      if (isa<ttg::MemDescType>(operand.getType()))
        buffer = operand;
    if (buffer)
      lowerMemdescAccess(op, buffer);
  }

  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<AtomicRMWOp, AtomicCASOp, RemotePointersOp, ShardIdOp,
            DistributedBarrierOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    // Thread-block clusters (mapa, barrier.cluster, %cluster_ctarank) are
    // sm_90's.
    if (!isa<AtomicRMWOp, AtomicCASOp>(op) && clusterSize > 1 &&
        failed(target::require(op, 90,
                               "a thread-block cluster (distributed shared "
                               "memory)"))) {
      ok = false;
      continue;
    }
    LogicalResult lowered =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](AtomicRMWOp op) { return lowerAtomicRMW(op); })
            .Case([&](AtomicCASOp op) { return lowerAtomicCAS(op); })
            .Case([&](RemotePointersOp op) {
              return lowerRemotePointers(op, clusterSize);
            })
            .Case([&](ShardIdOp op) { return lowerShardId(op); })
            .Case([&](DistributedBarrierOp op) {
              return lowerDistributedBarrier(op);
            });
    ok &= succeeded(lowered);
  }
  if (!ok)
    return signalPassFailure();

  Builder b(ctx);
  if (!pointerBuffers.empty())
    module->setAttr(interop::kTLESharedAttr, b.getI32IntegerAttr(regionBytes));
  if (cluster->size > 0) {
    module->setAttr(interop::kTLEClusterSizeAttr,
                    b.getI32IntegerAttr(cluster->size));
    auto [x, y, z] = cluster->dims;
    module->setAttr(interop::kTLEClusterDimsAttr,
                    b.getDenseI32ArrayAttr({static_cast<int32_t>(x),
                                            static_cast<int32_t>(y),
                                            static_cast<int32_t>(z)}));
  }
}
} // namespace
