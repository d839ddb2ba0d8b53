//===- Cumsum.cpp - tle.exclusive_cumsum ----------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

using namespace mlir;
using namespace mlir::tle;

LogicalResult ExclusiveCumsumOp::verify() {
  auto srcType = getSrc().getType();
  int64_t rank = srcType.getRank();
  if (rank < 1)
    return emitOpError("expects an input of rank >= 1");
  int32_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " is out of range for a rank-"
                                << rank << " input";
  if (!srcType.hasStaticShape())
    return emitOpError("expects a statically shaped input");
  if (getExclusive().getType() != srcType)
    return emitOpError("exclusive result type ")
           << getExclusive().getType() << " must equal the input type "
           << srcType;

  Type elementType = srcType.getElementType();
  Type totalType = getTotal().getType();
  if (rank == 1) {
    if (totalType != elementType)
      return emitOpError("total of a rank-1 input must be a scalar of type ")
             << elementType << ", got " << totalType;
    return success();
  }

  auto totalTensor = dyn_cast<RankedTensorType>(totalType);
  SmallVector<int64_t> expectedShape(srcType.getShape());
  expectedShape.erase(expectedShape.begin() + axis);
  if (!totalTensor || totalTensor.getElementType() != elementType ||
      totalTensor.getShape() != ArrayRef<int64_t>(expectedShape))
    return emitOpError("total must be a tensor of the input shape without axis ")
           << axis << " and element type " << elementType << ", got "
           << totalType;

  Attribute srcEncoding = srcType.getEncoding();
  Attribute totalEncoding = totalTensor.getEncoding();
  if (!srcEncoding) {
    if (totalEncoding)
      return emitOpError("total has an encoding but the input has none");
    return success();
  }
  auto slice = dyn_cast_or_null<ttg::SliceEncodingAttr>(totalEncoding);
  if (!slice || slice.getDim() != static_cast<unsigned>(axis) ||
      slice.getParent() != srcEncoding)
    return emitOpError("total must have encoding #ttg.slice<{dim = ")
           << axis << ", parent = " << srcEncoding << "}>";
  return success();
}
