//===- LowerLocalMemoryAtomics.cpp - shared-memory atomics -> inline asm --===//
//
// tle.atomic_rmw / tle.atomic_cas become one predicated PTX `atom` per
// element:
//
//   { .reg .pred %tle_p; setp.ne.b32 %tle_p, $pred, 0; mov.b32 $0, 0;
//     @%tle_p atom.<sem>.<scope>.shared::cta.add.f32 $0, [$addr], $val; }
//
// on the 32-bit shared address (address space 3: `.shared::cta`; 7:
// `.shared::cluster`, an address made by `mapa`). Values travel as integers
// of their width (bitcast), which PTX accepts for every typed `atom`.
//
// Owner mask. A blocked layout whose coverage (sizePerThread x
// threadsPerWarp x warpsPerCTA) exceeds the tensor's shape along a dimension
// gives several threads the same element. Along dimension d with
// n = shape[d] / sizePerThread[d] distinct thread positions, the thread
// coordinate t = warp_d * threadsPerWarp[d] + lane_d holds a new element
// only if t < n; everything is a power of two, so this is "the lane-id bits
// of lane_d at and above log2(n), and the warp-id bits of warp_d at and
// above log2(n / threadsPerWarp[d]), are zero". Lanes and warps are
// delinearized over `order`, like Triton's blocked layouts, so those bits
// are compile-time masks of the lane id (tid % 32) and the warp id
// (tid / 32). The element is updated by the one thread with
// (lane & laneMask) == 0 && (warp & warpMask) == 0. Operands in another
// encoding are first converted to a blocked layout (one element per thread
// and dimension, lanes on the fastest dimensions); a blocked layout holding
// one element in several registers of a thread (sizePerThread > shape) is
// replaced the same way. A scalar atomic is run by thread 0 only.
//
// Masked-off threads get 0 as the old value. Only an owner thread gets a
// replicated element's old value from its `atom`; when the result is used,
// the owners store it into a scratch buffer of the result's shape (made by
// prepareAtomicResults before the pointer buffers are planned) and every
// thread loads it back: gpu.barrier, owner-masked tt.store, gpu.barrier,
// tt.load (the first barrier keeps a loop's next store from overwriting a
// value a slower thread has not read). A scalar atomic's result likewise.
//
//===----------------------------------------------------------------------===//
#include "AxisIndex.h"
#include "LocalMemory.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tle;
using namespace mlir::tle::local_memory;

namespace {
constexpr int kClusterSharedAddressSpace = 7;

/// Blocked encoding for `shape` with one element per thread and dimension,
/// lanes then warps on the fastest dimensions first; left-over lanes and
/// warps replicate along the slowest dimension.
ttg::BlockedEncodingAttr buildBlocked(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                      unsigned lanes, unsigned warps) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order, spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  for (int d = rank - 1; d >= 0; --d)
    order.push_back(d);
  SmallVector<int64_t> left(shape.begin(), shape.end());
  for (unsigned d : order) {
    while (lanes > 1 && left[d] > 1) {
      tpw[d] *= 2;
      left[d] /= 2;
      lanes /= 2;
    }
  }
  tpw[order.back()] *= lanes;
  for (unsigned d : order) {
    while (warps > 1 && left[d] > 1) {
      wpc[d] *= 2;
      left[d] /= 2;
      warps /= 2;
    }
  }
  wpc[order.back()] *= warps;
  return ttg::BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
}

/// The blocked encoding the atomic runs in for `type`: its own when it is a
/// blocked layout without register replication, else a built one.
ttg::BlockedEncodingAttr atomicEncoding(RankedTensorType type,
                                        ModuleOp module) {
  if (auto blocked =
          dyn_cast_or_null<ttg::BlockedEncodingAttr>(type.getEncoding())) {
    bool registerReplication = false;
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      registerReplication |= blocked.getSizePerThread()[dim] > size;
    if (!registerReplication && !blocked.getCGALayout())
      return blocked;
  }
  return buildBlocked(type.getContext(), type.getShape(),
                      threadsPerWarp(module), numWarps(module));
}

/// (laneMask, warpMask) of the owner rule above.
std::pair<uint64_t, uint64_t> ownerMasks(ttg::BlockedEncodingAttr blocked,
                                         ArrayRef<int64_t> shape) {
  uint64_t laneMask = 0, warpMask = 0;
  unsigned laneShift = 0, warpShift = 0;
  for (unsigned d : blocked.getOrder()) {
    unsigned tpw = blocked.getThreadsPerWarp()[d];
    unsigned wpc = blocked.getWarpsPerCTA()[d];
    unsigned logTpw = llvm::Log2_32(tpw), logWpc = llvm::Log2_32(wpc);
    int64_t positions =
        std::max<int64_t>(1, shape[d] / blocked.getSizePerThread()[d]);
    unsigned logN = llvm::Log2_64(positions);
    // Lane bits [logN, logTpw) of this dimension must be zero.
    for (unsigned bit = std::min(logN, logTpw); bit < logTpw; ++bit)
      laneMask |= uint64_t(1) << (laneShift + bit);
    // Warp bits [logN - logTpw, logWpc) must be zero.
    unsigned warpFree = logN > logTpw ? logN - logTpw : 0;
    for (unsigned bit = std::min(warpFree, logWpc); bit < logWpc; ++bit)
      warpMask |= uint64_t(1) << (warpShift + bit);
    laneShift += logTpw;
    warpShift += logWpc;
  }
  return {laneMask, warpMask};
}

/// Scalar i1: this thread owns the elements of `type` (a tensor in a
/// blocked encoding) or, for a scalar, is thread 0. Null when every thread
/// owns its elements.
Value buildOwner(OpBuilder &b, Location loc, Type type, ModuleOp module) {
  Type i32 = b.getI32Type();
  unsigned lanes = threadsPerWarp(module);
  auto tensor = dyn_cast<RankedTensorType>(type);
  uint64_t laneMask = 0, warpMask = 0;
  if (tensor)
    std::tie(laneMask, warpMask) =
        ownerMasks(cast<ttg::BlockedEncodingAttr>(tensor.getEncoding()),
                   tensor.getShape());
  if (tensor && !laneMask && !warpMask)
    return {};
  Value tid = buildScalarAsm(b, loc, "mov.u32 $0, %tid.x;");
  Value zero = intConstant(b, loc, i32, 0);
  if (!tensor)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
  // (tid % lanes) & laneMask == tid & laneMask, as laneMask < lanes.
  Value owner;
  auto check = [&](Value id, uint64_t mask) {
    if (!mask)
      return;
    Value bits =
        arith::AndIOp::create(b, loc, id, intConstant(b, loc, i32, mask));
    Value ok =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits, zero);
    owner = owner ? arith::AndIOp::create(b, loc, owner, ok).getResult() : ok;
  };
  check(tid, laneMask);
  if (warpMask) {
    Value warp =
        arith::DivUIOp::create(b, loc, tid, intConstant(b, loc, i32, lanes));
    check(warp, warpMask);
  }
  return owner;
}

/// PTX type suffix and inline-asm constraint for an element type.
struct AsmType {
  std::string suffix;
  char constraint;
  unsigned width;
};

FailureOr<AsmType> rmwAsmType(Operation *op, AtomicRMWKind kind, Type element) {
  unsigned width = element.getIntOrFloatBitWidth();
  char constraint = width == 16 ? 'h' : width == 32 ? 'r' : 'l';
  std::string bits = std::to_string(width);
  switch (kind) {
  case AtomicRMWKind::fadd:
    if (element.isF16())
      return AsmType{"add.noftz.f16", constraint, width};
    if (element.isBF16())
      return AsmType{"add.noftz.bf16", constraint, width};
    return AsmType{"add.f" + bits, constraint, width};
  case AtomicRMWKind::add:
    return AsmType{"add.u" + bits, constraint, width};
  case AtomicRMWKind::max:
    return AsmType{"max.s" + bits, constraint, width};
  case AtomicRMWKind::min:
    return AsmType{"min.s" + bits, constraint, width};
  case AtomicRMWKind::umax:
    return AsmType{"max.u" + bits, constraint, width};
  case AtomicRMWKind::umin:
    return AsmType{"min.u" + bits, constraint, width};
  case AtomicRMWKind::band:
    return AsmType{"and.b" + bits, constraint, width};
  case AtomicRMWKind::bor:
    return AsmType{"or.b" + bits, constraint, width};
  case AtomicRMWKind::bxor:
    return AsmType{"xor.b" + bits, constraint, width};
  case AtomicRMWKind::xchg:
    return AsmType{"exch.b" + bits, constraint, width};
  }
  return op->emitOpError("unknown atomic kind");
}

/// `atom.<sem>.<scope>.<space>` for the op's attributes and pointer space.
std::string atomPrefix(MemSemantic sem, MemSyncScope scope, int space) {
  std::string text = "atom.";
  text += stringifyMemSemantic(sem);
  text += ".";
  text += stringifyMemSyncScope(scope);
  text += space == kClusterSharedAddressSpace ? ".shared::cluster."
                                              : ".shared::cta.";
  return text;
}

/// Integer of `width` bits in `like`'s shape.
Type intLike(OpBuilder &b, Type like, unsigned width) {
  Type i = b.getIntegerType(width);
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(i);
  return i;
}

/// `value` with an integer element of its width (bitcast for floats).
Value asInt(OpBuilder &b, Location loc, Value value, unsigned width) {
  Type target = intLike(b, value.getType(), width);
  if (value.getType() == target)
    return value;
  return tt::BitcastOp::create(b, loc, target, value);
}

constexpr llvm::StringLiteral kScratchAttr = "tle.atomic_scratch";

/// The pointers prepareAtomicResults made for `op`, taken from their
/// placeholder (which is erased); null when there are none.
Value takeScratch(Operation *op) {
  auto id = op->getAttrOfType<IntegerAttr>(kScratchAttr);
  if (!id)
    return {};
  op->removeAttr(kScratchAttr);
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(prev))
      if (cast->getAttr(kScratchAttr) == id) {
        Value pointers = cast.getOperand(0);
        cast.erase();
        return pointers;
      }
  return {};
}

/// Shared lowering: converts operands to the atomic's blocked encoding,
/// builds address, predicate and values, emits the asm and bridges the
/// result back. `values` are the data operands (val, or cmp and val).
LogicalResult lowerAtomic(Operation *op, Value ptr, ValueRange values,
                          Value mask, StringRef instruction, AsmType asmType,
                          int space) {
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type resultType = op->getResult(0).getType();
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (tensor && !tensor.getEncoding())
    return op->emitOpError("cannot be lowered without a layout: run it on "
                           "TTGIR, where tensors carry encodings");

  // Work in a blocked encoding.
  auto convert = [&](Value v) -> Value {
    if (!v || !tensor)
      return v;
    auto type = cast<RankedTensorType>(v.getType());
    auto blocked = atomicEncoding(tensor, module);
    if (type.getEncoding() == blocked)
      return v;
    return ttg::ConvertLayoutOp::create(
        b, loc,
        RankedTensorType::get(type.getShape(), type.getElementType(), blocked),
        v);
  };
  Value ptrB = convert(ptr);
  Type workType = ptrB.getType();

  // Predicate: mask && owner, as i32.
  Value scratch = takeScratch(op);
  Value pred = convert(mask);
  Value ownerLike;
  if (Value owner = buildOwner(b, loc, workType, module)) {
    // Only the owner thread of an element gets its old value; the others
    // get it through the scratch buffer.
    if (!op->getResult(0).use_empty() && !scratch)
      return op->emitOpError()
             << "returns the old value, but no scratch buffer was prepared "
                "for the threads that do not own its elements (run "
                "triton-tle-lower-local-memory on the module)";
    ownerLike = splatLike(b, loc, owner, workType);
    pred = pred ? arith::AndIOp::create(b, loc, pred, ownerLike).getResult()
                : ownerLike;
  }
  if (pred)
    pred = arith::ExtUIOp::create(b, loc, intLike(b, workType, 32), pred);
  else
    pred = intConstant(b, loc, intLike(b, workType, 32), 1);

  Value address =
      tt::PtrToIntOp::create(b, loc, intLike(b, workType, 64), ptrB);
  address = arith::TruncIOp::create(b, loc, intLike(b, workType, 32), address);

  SmallVector<Value> args{address};
  for (Value v : values)
    args.push_back(asInt(b, loc, convert(v), asmType.width));
  args.push_back(pred);

  // $0 = result, $1 = address, $2.. = values, last = predicate.
  unsigned predIndex = args.size();
  std::string body;
  llvm::raw_string_ostream os(body);
  os << "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $" << predIndex
     << ", 0; mov.b" << asmType.width << " $0, 0; @%tle_p " << instruction
     << " $0, [$1]";
  for (unsigned i = 0; i < values.size(); ++i)
    os << ", $" << i + 2;
  os << "; }";
  std::string constraints = std::string("=") + asmType.constraint + ",r";
  for (unsigned i = 0; i < values.size(); ++i)
    constraints += std::string(",") + asmType.constraint;
  constraints += ",r";

  Type intResult = intLike(b, workType, asmType.width);
  Value result = tt::ElementwiseInlineAsmOp::create(
                     b, loc, TypeRange{intResult}, body, constraints,
                     /*pure=*/false, /*packed_element=*/1, args)
                     ->getResult(0);
  Type element = getElementTypeOrSelf(resultType);
  Type workResult = element;
  if (auto t = dyn_cast<RankedTensorType>(workType))
    workResult = t.clone(element);
  if (result.getType() != workResult)
    result = tt::BitcastOp::create(b, loc, workResult, result);
  if (ownerLike && scratch && !op->getResult(0).use_empty()) {
    // The owners' old values to every thread holding the element.
    MLIRContext *ctx = b.getContext();
    gpu::BarrierOp::create(b, loc);
    tt::StoreOp::create(
        b, loc, scratch, result, ownerLike, b.getDenseI32ArrayAttr({}),
        tt::CacheModifierAttr::get(ctx, tt::CacheModifier::NONE),
        tt::EvictionPolicyAttr::get(ctx, tt::EvictionPolicy::NORMAL));
    gpu::BarrierOp::create(b, loc);
    result = tt::LoadOp::create(
        b, loc, scratch, Value(), Value(), b.getDenseI32ArrayAttr({}),
        tt::PaddingOptionAttr(),
        tt::CacheModifierAttr::get(ctx, tt::CacheModifier::NONE),
        tt::EvictionPolicyAttr::get(ctx, tt::EvictionPolicy::NORMAL),
        b.getBoolAttr(false));
  }
  if (result.getType() != resultType)
    result = ttg::ConvertLayoutOp::create(b, loc, resultType, result);
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  (void)space;
  return success();
}

int pointerSpace(Value ptr) {
  return cast<tt::PointerType>(getElementTypeOrSelf(ptr.getType()))
      .getAddressSpace();
}
} // namespace

void local_memory::prepareAtomicResults(ModuleOp module) {
  SmallVector<Operation *> atomics;
  module.walk([&](Operation *op) {
    if (isa<AtomicRMWOp, AtomicCASOp>(op) && !op->getResult(0).use_empty())
      atomics.push_back(op);
  });
  int64_t id = 0;
  for (Operation *op : atomics) {
    Value ptr = op->getOperand(0);
    auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
    if (tensor && !tensor.getEncoding())
      continue; // the lowering reports it
    ttg::BlockedEncodingAttr work;
    if (tensor) {
      work = atomicEncoding(tensor, module);
      auto [laneMask, warpMask] = ownerMasks(work, tensor.getShape());
      if (!laneMask && !warpMask)
        continue; // every thread owns its elements
    }
    MLIRContext *ctx = op->getContext();
    Location loc = op->getLoc();
    Type element = getElementTypeOrSelf(op->getResult(0).getType());
    SmallVector<int64_t> shape = tensor
                                     ? SmallVector<int64_t>(tensor.getShape())
                                     : SmallVector<int64_t>{1};
    Value buffer = allocAtEntry(op, shape, element);
    OpBuilder b(op);
    auto ptrElement = tt::PointerType::get(element, /*addressSpace=*/3);
    SmallVector<Value> indices;
    Type ptrType = ptrElement;
    if (tensor) {
      auto indexType = RankedTensorType::get(shape, b.getI32Type(), work);
      for (int64_t d = 0, e = shape.size(); d < e; ++d)
        indices.push_back(conversion::buildAxisIndex(b, loc, indexType, d));
      ptrType = RankedTensorType::get(shape, ptrElement, work);
    } else {
      indices.push_back(intConstant(b, loc, b.getI32Type(), 0));
    }
    Value pointers = LocalPointersOp::create(b, loc, ptrType, buffer, indices);
    auto placeholder = UnrealizedConversionCastOp::create(
        b, loc, TypeRange{ptrType}, pointers);
    IntegerAttr tag = b.getI64IntegerAttr(id++);
    placeholder->setAttr(kScratchAttr, tag);
    op->setAttr(kScratchAttr, tag);
  }
}

LogicalResult local_memory::lowerAtomicRMW(AtomicRMWOp op) {
  Type element = getElementTypeOrSelf(op.getVal().getType());
  FailureOr<AsmType> asmType = rmwAsmType(op, op.getKind(), element);
  if (failed(asmType))
    return failure();
  int space = pointerSpace(op.getPtr());
  std::string instruction =
      atomPrefix(op.getSem(), op.getScope(), space) + asmType->suffix;
  return lowerAtomic(op, op.getPtr(), ValueRange{op.getVal()}, op.getMask(),
                     instruction, *asmType, space);
}

LogicalResult local_memory::lowerAtomicCAS(AtomicCASOp op) {
  Type element = getElementTypeOrSelf(op.getVal().getType());
  unsigned width = element.getIntOrFloatBitWidth();
  AsmType asmType{"cas.b" + std::to_string(width),
                  width == 16   ? 'h'
                  : width == 32 ? 'r'
                                : 'l',
                  width};
  int space = pointerSpace(op.getPtr());
  std::string instruction =
      atomPrefix(op.getSem(), op.getScope(), space) + asmType.suffix;
  return lowerAtomic(op, op.getPtr(), ValueRange{op.getCmp(), op.getVal()},
                     Value(), instruction, asmType, space);
}
