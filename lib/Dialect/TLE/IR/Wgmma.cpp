//===- Wgmma.cpp - asynchronous warpgroup MMA -----------------------------===//
//
// Verifiers of the ops in TLEWgmmaOps.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Dialect/Common/DialectCommon.h"

using namespace mlir;
using namespace mlir::tle;
using tle::common::shapeStr;

LogicalResult WgmmaOp::verify() {
  auto a = getA().getType();
  auto b = getB().getType();
  auto acc = getAcc().getType();
  for (auto [name, type] : {std::pair<StringRef, ttg::MemDescType>{"a", a},
                            {"b", b}}) {
    if (!isa<ttg::SharedMemorySpaceAttr>(type.getMemorySpace()))
      return emitOpError() << name << " must live in #ttg.shared_memory, got "
                           << type.getMemorySpace();
    if (type.getRank() != 2)
      return emitOpError() << name << " must have rank 2, got "
                           << shapeStr(type.getShape());
    if (!type.getElementType().isF16() && !type.getElementType().isBF16())
      return emitOpError() << name << " must hold f16 or bf16, got "
                           << type.getElementType();
  }
  if (a.getElementType() != b.getElementType())
    return emitOpError("a and b must hold the same element type, got ")
           << a.getElementType() << " and " << b.getElementType();
  if (acc.getRank() != 2 || !acc.getElementType().isF32())
    return emitOpError("acc must be a rank-2 f32 tensor, got ") << acc;
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  if (b.getShape()[0] != k || acc.getShape()[0] != m || acc.getShape()[1] != n)
    return emitOpError("shapes do not multiply: a ")
           << shapeStr(a.getShape()) << " @ b " << shapeStr(b.getShape())
           << " + acc " << shapeStr(acc.getShape());
  if (m % 64 != 0)
    return emitOpError("M must be a multiple of 64 (one warpgroup's rows), got ")
           << m;
  if (n % 8 != 0)
    return emitOpError("N must be a multiple of 8, got ") << n;
  if (k % 16 != 0)
    return emitOpError("K must be a multiple of 16, got ") << k;
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
    return emitOpError("src must have rank 2, got ") << shapeStr(src.getShape());
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != 2 || !((order[0] == 0 && order[1] == 1) ||
                             (order[0] == 1 && order[1] == 0)))
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
