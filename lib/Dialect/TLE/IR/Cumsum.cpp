//===- Cumsum.cpp - tle.exclusive_cumsum ----------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/Integer.h"

using namespace mlir;
using namespace mlir::tle;

// `axis` from the properties when the op has them, else from the attribute
// dictionary; null when missing or not an integer (the verifier reports it).
static IntegerAttr readAxisAttr(DictionaryAttr attributes,
                                OpaqueProperties properties) {
  if (properties) {
    if (auto axis = properties.as<ExclusiveCumsumOp::Properties *>()->axis)
      return axis;
  }
  return attributes ? attributes.getAs<IntegerAttr>("axis") : IntegerAttr();
}

LogicalResult ExclusiveCumsumOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  // Called on unverified operations too (marker raising): anything malformed
  // fails quietly and is left to the verifier to report.
  if (operands.size() != 1)
    return failure();
  auto srcType = dyn_cast<RankedTensorType>(operands[0].getType());
  IntegerAttr axisAttr = readAxisAttr(attributes, properties);
  if (!srcType || !axisAttr)
    return failure();
  int64_t rank = srcType.getRank();
  // Unverified, the axis may be any integer (`1 : i128`, `2^70`, `0 : i0`).
  std::optional<int64_t> axis = interop::signlessInt(axisAttr);
  if (rank < 1 || !axis || *axis < 0 || *axis >= rank)
    return failure();

  inferredReturnTypes.push_back(srcType);
  Type elementType = srcType.getElementType();
  if (rank == 1) {
    inferredReturnTypes.push_back(elementType);
    return success();
  }
  SmallVector<int64_t> shape(srcType.getShape());
  shape.erase(shape.begin() + *axis);
  Attribute encoding;
  if (Attribute srcEncoding = srcType.getEncoding()) {
    // Unverified, the source's encoding may be one no slice can have as
    // parent (`#ttng.tensor_memory`): only a distributed layout can.
    if (!isa<VerifiableTensorEncoding>(srcEncoding))
      return failure();
    encoding = ttg::SliceEncodingAttr::get(context, *axis, srcEncoding);
  }
  inferredReturnTypes.push_back(
      RankedTensorType::get(shape, elementType, encoding));
  return success();
}

LogicalResult ExclusiveCumsumOp::verify() {
  auto srcType = getSrc().getType();
  int64_t rank = srcType.getRank();
  if (rank < 1)
    return emitOpError("expects an input of rank >= 1");
  int32_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ")
           << axis << " is out of range for a rank-" << rank << " input";
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
    return emitOpError(
               "total must be a tensor of the input shape without axis ")
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
