//===- Barrier.cpp - mbarriers, named barriers, TMA loads on a barrier ----===//
//
// Verifiers and memory effects of the ops in TLEBarrierOps.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tle;
using tle::common::shapeStr;

// An mbarrier counts at most 2^20 - 1 arrivals and transaction bytes.
static constexpr int64_t kMaxBarrierCount = (int64_t(1) << 20) - 1;

/// An array of mbarriers: a `Nx1xi64` memdesc in shared memory, mutable.
static LogicalResult verifyBarriers(Operation *op, Type type,
                                    StringRef what = "barriers") {
  auto desc = dyn_cast<ttg::MemDescType>(type);
  if (!desc)
    return op->emitOpError() << what << " must be a !ttg.memdesc, got " << type;
  if (!isa<ttg::SharedMemorySpaceAttr>(desc.getMemorySpace()))
    return op->emitOpError() << what << " must live in #ttg.shared_memory, got "
                             << desc.getMemorySpace();
  if (!desc.getElementType().isInteger(64) || desc.getRank() != 2 ||
      desc.getShape()[1] != 1 || desc.getShape()[0] < 1)
    return op->emitOpError()
           << what
           << " must be an array of mbarriers, Nx1xi64 with N >= 1, got "
           << shapeStr(desc.getShape()) << " x " << desc.getElementType();
  if (!desc.getMutableMemory())
    return op->emitOpError() << what << " must be mutable";
  return success();
}

/// A constant index into `N` barriers must be in [0, N).
static LogicalResult verifyIndex(Operation *op, Value barriers, Value index) {
  APInt value;
  if (!matchPattern(index, m_ConstantInt(&value)))
    return success();
  int64_t n = cast<ttg::MemDescType>(barriers.getType()).getShape()[0];
  int64_t i = value.getSExtValue();
  if (i < 0 || i >= n)
    return op->emitOpError() << "barrier index " << i << " is out of range for "
                             << n << " barrier" << (n == 1 ? "" : "s");
  return success();
}

LogicalResult BarrierAllocOp::verify() {
  if (failed(verifyBarriers(*this, getResult().getType(), "result")))
    return failure();
  auto type = getResult().getType();
  if (type.getAllocShape() != type.getShape())
    return emitOpError("result must describe the whole allocation");
  if (getArriveCount() > kMaxBarrierCount)
    return emitOpError("arrive_count must be below 2^20, got ")
           << getArriveCount();
  return success();
}

void BarrierAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  OpResult barriers = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), barriers);
  effects.emplace_back(MemoryEffects::Write::get(), barriers);
}

LogicalResult BarrierArriveOp::verify() {
  if (failed(verifyBarriers(*this, getBarriers().getType())) ||
      failed(verifyIndex(*this, getBarriers(), getIndex())))
    return failure();
  if (getCount() > kMaxBarrierCount)
    return emitOpError("count must be below 2^20, got ") << getCount();
  if (auto tx = getExpectTx(); tx && *tx > kMaxBarrierCount)
    return emitOpError("expect_tx must be below 2^20 bytes, got ") << *tx;
  return success();
}

LogicalResult BarrierWaitOp::verify() {
  if (failed(verifyBarriers(*this, getBarriers().getType())))
    return failure();
  return verifyIndex(*this, getBarriers(), getIndex());
}

LogicalResult BarrierTryWaitOp::verify() {
  if (failed(verifyBarriers(*this, getBarriers().getType())))
    return failure();
  return verifyIndex(*this, getBarriers(), getIndex());
}

static LogicalResult verifyNamedBarrier(Operation *op, int32_t numThreads) {
  if (numThreads % 32 != 0 || numThreads > 1024)
    return op->emitOpError("num_threads must be a multiple of 32 (whole warps) "
                           "and at most 1024, got ")
           << numThreads;
  return success();
}

LogicalResult NamedBarrierSyncOp::verify() {
  return verifyNamedBarrier(*this, getNumThreads());
}

LogicalResult NamedBarrierArriveOp::verify() {
  return verifyNamedBarrier(*this, getNumThreads());
}

/// What a copy into a shared buffer counted on a barrier needs (TMA and
/// cp.async alike): a valid barrier index, a mutable shared buffer of the
/// value's shape and element type, and a buffer that is not the barrier.
/// A copy's destination: a mutable shared buffer of the value's shape and
/// element type (cp.async and TMA copies, with or without a barrier).
static LogicalResult verifyCopyBuffer(Operation *op, RankedTensorType value,
                                      ttg::MemDescType buffer) {
  if (!isa<ttg::SharedMemorySpaceAttr>(buffer.getMemorySpace()))
    return op->emitOpError("buffer must live in #ttg.shared_memory, got ")
           << buffer.getMemorySpace();
  if (!buffer.getMutableMemory())
    return op->emitOpError("buffer must be mutable");
  if (value.getShape() != buffer.getShape() ||
      value.getElementType() != buffer.getElementType())
    return op->emitOpError("value ")
           << shapeStr(value.getShape()) << " x " << value.getElementType()
           << " does not match the buffer " << shapeStr(buffer.getShape())
           << " x " << buffer.getElementType();
  return success();
}

template <typename CopyOp> static LogicalResult verifyBarrierCopy(CopyOp op) {
  if (failed(verifyBarriers(op, op.getBarriers().getType())) ||
      failed(verifyIndex(op, op.getBarriers(), op.getIndex())) ||
      failed(verifyCopyBuffer(op, op.getValue().getType(),
                              op.getBuffer().getType())))
    return failure();
  if (op.getBuffer() == op.getBarriers())
    return op.emitOpError("the buffer cannot be its own barrier");
  return success();
}

LogicalResult AsyncTMALoadOp::verify() {
  if (failed(verifyBarrierCopy(*this)))
    return failure();
  auto value = getValue().getType();
  int64_t bytes = value.getNumElements() *
                  value.getElementType().getIntOrFloatBitWidth() / 8;
  if (bytes > kMaxBarrierCount)
    return emitOpError("copies ")
           << bytes << " bytes; an mbarrier counts fewer than 2^20 a phase";
  return success();
}

LogicalResult AsyncCopyLoadOp::verify() { return verifyBarrierCopy(*this); }

LogicalResult AsyncCopyOp::verify() {
  return verifyCopyBuffer(*this, getValue().getType(), getBuffer().getType());
}

LogicalResult AsyncWaitGroupOp::verify() {
  int32_t pendings = getPendings();
  if (pendings < 0 || pendings > 7)
    return emitOpError("pendings must be in [0, 7], got ") << pendings;
  return success();
}

LogicalResult AsyncTMAStoreOp::verify() {
  auto buffer = getBuffer().getType();
  if (!isa<ttg::SharedMemorySpaceAttr>(buffer.getMemorySpace()))
    return emitOpError("buffer must live in #ttg.shared_memory, got ")
           << buffer.getMemorySpace();
  auto value = getValue().getType();
  if (value.getShape() != buffer.getShape() ||
      value.getElementType() != buffer.getElementType())
    return emitOpError("value ")
           << shapeStr(value.getShape()) << " x " << value.getElementType()
           << " does not match the buffer " << shapeStr(buffer.getShape())
           << " x " << buffer.getElementType();
  return success();
}

/// A scalar pointer into global memory, where a CUDA tensor map lives.
static LogicalResult verifyTensorMapPointer(Operation *op, Type type) {
  auto ptr = cast<tt::PointerType>(type);
  if (ptr.getAddressSpace() != 1)
    return op->emitOpError()
           << "takes a pointer into global memory (address space 1) to a "
              "128-byte tensor map, got "
           << type;
  return success();
}

LogicalResult TensorMapFenceAcquireOp::verify() {
  return verifyTensorMapPointer(*this, getPtr().getType());
}

LogicalResult ReinterpretTensorMapOp::verify() {
  if (failed(verifyTensorMapPointer(*this, getPtr().getType())))
    return failure();
  RankedTensorType block = getResult().getType().getBlockType();
  ArrayRef<int64_t> shape = block.getShape();
  if (shape.empty() || shape.size() > 5)
    return emitOpError("a TMA block has rank 1 to 5, got rank ")
           << shape.size();
  for (int64_t dim : shape)
    if (dim < 1 || dim > 256)
      return emitOpError("a TMA block has 1 to 256 elements a dimension, got ")
             << shapeStr(shape);
  if (!block.getElementType().isIntOrFloat())
    return emitOpError("a TMA block holds integers or floats, got ")
           << block.getElementType();
  unsigned bits = block.getElementType().getIntOrFloatBitWidth();
  if ((shape.back() * bits) % 128 != 0)
    return emitOpError("a TMA block's last dimension must be a multiple of "
                       "16 bytes, got ")
           << shape.back() << " x " << block.getElementType();
  return success();
}

LogicalResult TMALoadCacheHintOp::verify() {
  if (getPolicy() != "evict_first" && getPolicy() != "evict_last")
    return emitOpError("policy must be \"evict_first\" or \"evict_last\", "
                       "got \"")
           << getPolicy() << "\"";
  return success();
}
