//===- TTGOps.cpp - Interop ops of Triton 3.6's `ttg` dialect -------------===//
//
// Verifiers check only rules that are simple and certain; anything Triton
// 3.6.0 prints must parse.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/WarpSpecializeSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ttg;

Type mlir::ttg::getI1SameShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  return RankedTensorType::get(tensor.getShape(),
                               IntegerType::get(type.getContext(), 1),
                               tensor.getEncoding());
}

Type mlir::ttg::getPointeeSameShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  auto ptr = dyn_cast<tt::PointerType>(tensor.getElementType());
  if (!ptr)
    return type;
  return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                               tensor.getEncoding());
}

//===----------------------------------------------------------------------===//
// `custom<Offsets>`: `0, 32`
//===----------------------------------------------------------------------===//

static ParseResult parseOffsets(OpAsmParser &parser, DenseI32ArrayAttr &attr) {
  SmallVector<int32_t> offsets;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        return parser.parseInteger(offsets.emplace_back());
      }))
    return failure();
  attr = DenseI32ArrayAttr::get(parser.getContext(), offsets);
  return success();
}

static void printOffsets(OpAsmPrinter &printer, Operation *,
                         DenseI32ArrayAttr attr) {
  llvm::interleaveComma(attr.asArrayRef(), printer);
}

#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTGOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

LogicalResult mlir::ttg::verifySameShapeAndElement(Operation *op,
                                                   RankedTensorType tensor,
                                                   MemDescType memdesc) {
  if (tensor.getShape() != memdesc.getShape())
    return op->emitOpError("tensor and memdesc shapes must match");
  if (tensor.getElementType() != memdesc.getElementType())
    return op->emitOpError("tensor and memdesc element types must match");
  return success();
}

LogicalResult mlir::ttg::verifyAlloc(Operation *op, Value src,
                                     MemDescType result) {
  if (!src) {
    if (!result.getMutableMemory())
      return op->emitOpError(
          "without a source must allocate a mutable memdesc");
    return success();
  }
  return verifySameShapeAndElement(op, cast<RankedTensorType>(src.getType()),
                                   result);
}

//===----------------------------------------------------------------------===//
// LocalAllocOp
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  return verifyAlloc(*this, getSrc(), cast<MemDescType>(getResult().getType()));
}

void LocalAllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // An immutable buffer made from a tensor is a value: nothing observes it
  // but its readers, so it carries no effect and may be CSE'd or erased.
  auto type = cast<MemDescType>(getResult().getType());
  if (getSrc() && !type.getMutableMemory())
    return;
  OpResult alloc = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), alloc,
                       SharedMemory::get());
  if (getSrc())
    effects.emplace_back(MemoryEffects::Write::get(), alloc,
                         SharedMemory::get());
}

//===----------------------------------------------------------------------===//
// LocalLoadOp / LocalStoreOp
//===----------------------------------------------------------------------===//

LogicalResult LocalLoadOp::verify() {
  return verifySameShapeAndElement(
      *this, cast<RankedTensorType>(getResult().getType()),
      cast<MemDescType>(getSrc().getType()));
}

LogicalResult LocalStoreOp::verify() {
  auto dst = cast<MemDescType>(getDst().getType());
  if (!dst.getMutableMemory())
    return emitOpError("cannot store into an immutable memdesc");
  return verifySameShapeAndElement(
      *this, cast<RankedTensorType>(getSrc().getType()), dst);
}

//===----------------------------------------------------------------------===//
// Fp4ToFpOp: the result has twice the source's extent along `axis`
//===----------------------------------------------------------------------===//

LogicalResult Fp4ToFpOp::verify() {
  RankedTensorType src = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range [0, " << src.getRank() << ")";
  SmallVector<int64_t> shape(src.getShape());
  shape[axis] *= 2;
  if (getResult().getType().getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("result shape must be the source shape with axis ")
           << axis << " doubled";
  return success();
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Views keep the element type and the mutability of their source; with
/// `mayDropMutable`, a view of a mutable source may be immutable (Triton
/// 3.6's prefetch pass makes read-only subslices of pipelined buffers).
static LogicalResult verifyView(Operation *op, MemDescType src,
                                MemDescType result,
                                bool mayDropMutable = false) {
  if (src.getElementType() != result.getElementType())
    return op->emitOpError("result element type must match the source's");
  if (mayDropMutable && src.getMutableMemory() && !result.getMutableMemory())
    return success();
  if (src.getMutableMemory() != result.getMutableMemory())
    return op->emitOpError(mayDropMutable
                               ? "result cannot be mutable when the source "
                                 "is not"
                               : "result mutability must match the source's");
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto result = cast<MemDescType>(getResult().getType());
  if (failed(verifyView(*this, src, result)))
    return failure();
  if (src.getShape().empty() ||
      result.getShape() != src.getShape().drop_front())
    return emitOpError("result shape must be the source shape without its "
                       "leading dimension");
  // Triton 3.6 indexes whole allocations only, and the view is one too.
  if (src.getAllocShape() != src.getShape() ||
      result.getAllocShape() != result.getShape())
    return emitOpError("alloc shape must match shape for both result and src");
  return success();
}

LogicalResult MemDescSubsliceOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto result = cast<MemDescType>(getResult().getType());
  if (failed(verifyView(*this, src, result, /*mayDropMutable=*/true)))
    return failure();
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != src.getShape().size() ||
      result.getShape().size() != src.getShape().size())
    return emitOpError("offsets, source and result must have the same rank");
  for (auto [offset, dim, srcDim] :
       llvm::zip_equal(offsets, result.getShape(), src.getShape()))
    if (offset < 0 || offset + dim > srcDim)
      return emitOpError("subslice must lie within the source");
  if (src.getEncoding() != result.getEncoding())
    return emitOpError("result encoding must match the source's");
  if (const char *problem =
          subsliceProblem(src, result.getShape(), getOffsets()))
    return emitOpError(problem);
  return success();
}

namespace {
/// The two dimensions a shared encoding swizzles (fastest first) with its
/// swizzle: `phase = (row / perPhase) % maxPhase` XORed into the column's
/// vector index, row counted along `slow`.
struct Swizzle {
  unsigned fast, slow, perPhase, maxPhase;
};

std::optional<Swizzle> swizzleOf(MemDescType type) {
  unsigned rank = type.getRank();
  if (auto s = dyn_cast<SwizzledSharedEncodingAttr>(type.getEncoding())) {
    if (s.getOrder().size() < 2)
      return std::nullopt;
    return Swizzle{s.getOrder()[0], s.getOrder()[1], s.getPerPhase(),
                   s.getMaxPhase()};
  }
  if (auto n = dyn_cast<NVMMASharedEncodingAttr>(type.getEncoding())) {
    unsigned bytes = n.getSwizzlingByteWidth();
    if (rank < 2 || bytes < 32)
      return std::nullopt;
    // 16-byte vectors; 128 / bytes rows share a phase, bytes / 16 phases.
    unsigned last = rank - 1, prev = rank - 2;
    return n.getTransposed() ? Swizzle{prev, last, 128 / bytes, bytes / 16}
                             : Swizzle{last, prev, 128 / bytes, bytes / 16};
  }
  return std::nullopt;
}
} // namespace

const char *mlir::ttg::subsliceProblem(MemDescType src, ArrayRef<int64_t> shape,
                                       ArrayRef<int32_t> offsets) {
  bool split = false;
  for (auto [d, size] : llvm::enumerate(shape)) {
    if (size == src.getShape()[d])
      continue; // its offset is 0: the subslice lies within the source
    split = true;
    if (!llvm::isPowerOf2_64(size) || !llvm::isPowerOf2_64(src.getShape()[d]))
      return "a dimension the subslice splits must have power-of-two sizes "
             "in the source and the result";
    if (offsets[d] & (size - 1))
      return "the offset of a split dimension must be a multiple of the "
             "result's size there (Triton: the split offset may not touch "
             "the tile)";
  }
  if (!split)
    return nullptr;
  Attribute encoding = src.getEncoding();
  ArrayAttr cga;
  if (auto s = dyn_cast<SwizzledSharedEncodingAttr>(encoding))
    cga = s.getCGALayout();
  else if (auto n = dyn_cast<NVMMASharedEncodingAttr>(encoding))
    cga = n.getCGALayout();
  else
    return "a split subslice needs a swizzled_shared or nvmma_shared source";
  if (cga)
    return "a split subslice of a buffer with a CGALayout is not supported";
  // Each power of two from the result's size up to the source's along the
  // swizzled rows must move by whole swizzle periods: an offset that is a
  // single bit of the buffer (Triton: no splitting along the swizzling
  // pattern).
  if (std::optional<Swizzle> sw = swizzleOf(src); sw && sw->maxPhase > 1)
    for (int64_t p = shape[sw->slow]; p < src.getShape()[sw->slow]; p *= 2)
      if ((p / sw->perPhase) % sw->maxPhase != 0)
        return "a split subslice may not cut through the swizzle pattern "
               "(rows of a split dimension must span whole swizzle periods, "
               "perPhase x maxPhase rows)";
  return nullptr;
}

LogicalResult MemDescTransOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto result = cast<MemDescType>(getResult().getType());
  if (failed(verifyView(*this, src, result)))
    return failure();
  ArrayRef<int32_t> order = getOrder();
  ArrayRef<int64_t> shape = src.getShape();
  if (order.size() != shape.size())
    return emitOpError("order must have one entry per source dimension");
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> permuted;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= static_cast<int32_t>(order.size()) || seen[dim])
      return emitOpError("order must be a permutation of the dimensions");
    seen[dim] = true;
    permuted.push_back(shape[dim]);
  }
  if (result.getShape() != ArrayRef<int64_t>(permuted))
    return emitOpError("result shape must be the source shape permuted by "
                       "order");
  return success();
}

LogicalResult MemDescReshapeOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto result = cast<MemDescType>(getResult().getType());
  if (failed(verifyView(*this, src, result)))
    return failure();
  auto product = [](ArrayRef<int64_t> shape) {
    int64_t n = 1;
    for (int64_t dim : shape)
      n *= dim;
    return n;
  };
  if (product(src.getShape()) != product(result.getShape()))
    return emitOpError("reshape must keep the number of elements");
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncCopyGlobalToLocalOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto dst = cast<MemDescType>(getResult().getType());
  if (!dst.getMutableMemory())
    return emitOpError("cannot copy into an immutable memdesc");
  auto src = cast<RankedTensorType>(getSrc().getType());
  return verifySameShapeAndElement(
      *this, cast<RankedTensorType>(getPointeeSameShape(src)), dst);
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//
//   [%r = ]ttg.warp_specialize(%c0, %c1)[ attributes {...}]
//   default {
//     ...
//   }
//   partition0(%arg0: T0 loc(...), %arg1: T1 loc(...)) num_warps(1) {
//     ...
//   } : (T0, T1) -> R
//
// (TLE/Interop/Triton/WarpSpecializeSyntax.h, shared with tle.warp_specialize)
//===----------------------------------------------------------------------===//

WarpSpecializePartitionsOp WarpSpecializeOp::getPartitionOp() {
  Region &holder = getPartitionOpHolder();
  if (holder.empty() || holder.front().empty())
    return nullptr;
  return dyn_cast<WarpSpecializePartitionsOp>(holder.front().front());
}

static tle::interop::WarpSpecializeSyntax syntaxOf(OperationName name) {
  return {WarpSpecializePartitionsOp::getOperationName(),
          WarpSpecializeOp::getPartitionNumWarpsAttrName(name).getValue(),
          /*numRegsAttrName=*/{}, /*finishRegion=*/nullptr};
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  return tle::interop::parseWarpSpecialize(parser, result,
                                           syntaxOf(result.name));
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  WarpSpecializePartitionsOp partitionOp = getPartitionOp();
  tle::interop::printWarpSpecialize(
      printer, *this, getExplicitCaptures(), getDefaultRegion(),
      partitionOp ? partitionOp.getPartitionRegions()
                  : MutableArrayRef<Region>(),
      getPartitionNumWarps(), /*numRegs=*/std::nullopt,
      syntaxOf((*this)->getName()));
}

LogicalResult WarpSpecializeOp::verify() {
  Region &holder = getPartitionOpHolder();
  if (holder.empty() || holder.front().getOperations().size() != 1 ||
      !getPartitionOp())
    return emitOpError("partition holder region must contain exactly one "
                       "ttg.warp_specialize.partitions op");
  WarpSpecializePartitionsOp partitionOp = getPartitionOp();
  size_t numPartitions = partitionOp.getPartitionRegions().size();
  if (getPartitionNumWarps().size() != numPartitions)
    return emitOpError("has ")
           << numPartitions << " partitions but "
           << getPartitionNumWarps().size() << " partitionNumWarps entries";
  if (std::optional<ArrayRef<int32_t>> regs = getRequestedRegisters())
    if (regs->size() != numPartitions)
      return emitOpError("has ")
             << numPartitions << " partitions but " << regs->size()
             << " requestedRegisters entries";
  for (int32_t warps : getPartitionNumWarps())
    if (warps <= 0)
      return emitOpError("partition warp counts must be positive");
  for (auto [index, region] :
       llvm::enumerate(partitionOp.getPartitionRegions())) {
    if (region.getArgumentTypes() != getExplicitCaptures().getTypes())
      return emitOpError("partition")
             << index << "'s block arguments must match the capture types";
    if (region.empty() || region.back().empty() ||
        !isa<WarpReturnOp>(region.back().back()))
      return emitOpError("partition")
             << index << " must end with ttg.warp_return";
  }
  Region &defaultRegion = getDefaultRegion();
  if (!defaultRegion.empty() && defaultRegion.front().getNumArguments() != 0)
    return emitOpError("default region takes no block arguments");
  if (defaultRegion.empty() || defaultRegion.back().empty() ||
      !isa<WarpYieldOp>(defaultRegion.back().back()))
    return emitOpError("default region must end with ttg.warp_yield");
  return success();
}

LogicalResult WarpYieldOp::verify() {
  auto parent = cast<WarpSpecializeOp>((*this)->getParentOp());
  if (getValues().getTypes() != parent.getResultTypes())
    return emitOpError("operand types must match the ttg.warp_specialize "
                       "result types");
  return success();
}
