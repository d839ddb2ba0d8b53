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
