//===- Wgmma.cpp - asynchronous warpgroup MMA -----------------------------===//
//
// Verifiers of the ops in TLEWgmmaOps.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/TLE/IR/TLE.h"

using namespace mlir;
using namespace mlir::tle;
using tle::common::shapeStr;

static bool isWgmma16(Type t) { return t.isF16() || t.isBF16(); }
static bool isWgmma8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(t);
}

LogicalResult WgmmaOp::verify() {
  Type aType = getA().getType();
  auto b = getB().getType();
  auto acc = getAcc().getType();
  ArrayRef<int64_t> aShape;
  Type aElement;
  if (auto a = dyn_cast<ttg::MemDescType>(aType)) {
    if (!isa<ttg::SharedMemorySpaceAttr>(a.getMemorySpace()))
      return emitOpError("a must live in #ttg.shared_memory, got ")
             << a.getMemorySpace();
    aShape = a.getShape();
    aElement = a.getElementType();
  } else {
    auto t = cast<RankedTensorType>(aType);
    aShape = t.getShape();
    aElement = t.getElementType();
    if (!isWgmma16(aElement))
      return emitOpError("a register a operand must hold f16 or bf16, got ")
             << aElement;
  }
  if (!isa<ttg::SharedMemorySpaceAttr>(b.getMemorySpace()))
    return emitOpError("b must live in #ttg.shared_memory, got ")
           << b.getMemorySpace();
  for (auto [name, shape, element] :
       {std::tuple<StringRef, ArrayRef<int64_t>, Type>{"a", aShape, aElement},
        {"b", b.getShape(), b.getElementType()}}) {
    if (shape.size() != 2)
      return emitOpError() << name << " must have rank 2, got "
                           << shapeStr(shape);
    if (!isWgmma16(element) && !isWgmma8(element))
      return emitOpError() << name
                           << " must hold f16, bf16, f8E4M3FN or f8E5M2, got "
                           << element;
  }
  bool eightBit = isWgmma8(aElement);
  if (eightBit != isWgmma8(b.getElementType()) ||
      (!eightBit && aElement != b.getElementType()))
    return emitOpError("a and b must hold the same 16-bit type or two 8-bit "
                       "floats, got ")
           << aElement << " and " << b.getElementType();
  if (getMaxNumImpreciseAcc() && !eightBit)
    return emitOpError("max_num_imprecise_acc is for 8-bit operands only");
  if (acc.getRank() != 2 || !acc.getElementType().isF32())
    return emitOpError("acc must be a rank-2 f32 tensor, got ") << acc;
  int64_t m = aShape[0], k = aShape[1], n = b.getShape()[1];
  if (b.getShape()[0] != k || acc.getShape()[0] != m || acc.getShape()[1] != n)
    return emitOpError("shapes do not multiply: a ")
           << shapeStr(aShape) << " @ b " << shapeStr(b.getShape()) << " + acc "
           << shapeStr(acc.getShape());
  if (m % 64 != 0)
    return emitOpError(
               "M must be a multiple of 64 (one warpgroup's rows), got ")
           << m;
  if (n % 8 != 0)
    return emitOpError("N must be a multiple of 8, got ") << n;
  int64_t kStep = eightBit ? 32 : 16;
  if (k % kStep != 0)
    return emitOpError("K must be a multiple of ")
           << kStep << (eightBit ? " for 8-bit operands" : "") << ", got " << k;
  return success();
}

LogicalResult WgmmaWaitOp::verify() {
  if (getValues().empty())
    return emitOpError("waits for at least one value");
  return success();
}

LogicalResult MemDescWgmmaViewOp::verify() {
  auto src = getSrc().getType();
  auto result = getResult().getType();
  if (src.getRank() != 2)
    return emitOpError("src must have rank 2, got ")
           << shapeStr(src.getShape());
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != 2 ||
      !((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0)))
    return emitOpError("order must be [0, 1] or [1, 0]");
  SmallVector<int64_t> permuted{src.getShape()[order[0]],
                                src.getShape()[order[1]]};
  if (result.getShape() != ArrayRef<int64_t>(permuted))
    return emitOpError("result shape must be ")
           << shapeStr(permuted) << " (src permuted by order), got "
           << shapeStr(result.getShape());
  if (result.getElementType() != src.getElementType() ||
      result.getMemorySpace() != src.getMemorySpace())
    return emitOpError("result must keep src's element type and memory space");
  return success();
}

LogicalResult AllocAliasOp::verify() {
  auto src = getSrc().getType();
  auto result = getResult().getType();
  if (!isa<ttg::SharedMemorySpaceAttr>(src.getMemorySpace()) ||
      !isa<ttg::SharedMemorySpaceAttr>(result.getMemorySpace()))
    return emitOpError("aliases buffers in #ttg.shared_memory only");
  if (!result.getElementType().isIntOrFloat())
    return emitOpError("result must hold integers or floats");
  auto bytes = [](ttg::MemDescType t) {
    int64_t n = t.getElementTypeBitWidth();
    for (int64_t d : t.getShape())
      n *= d;
    return n / 8;
  };
  if (bytes(result) > bytes(src))
    return emitOpError("a view of ")
           << bytes(result) << " bytes cannot alias a buffer of " << bytes(src)
           << " bytes";
  if (result.getMutableMemory() && !src.getMutableMemory())
    return emitOpError("a mutable view cannot alias an immutable buffer");
  return success();
}
