//===- Layout.cpp - user-chosen distributed layouts -----------------------===//
//
// Verifier and type inference of tle.set_layout (TLELayoutOps.td).
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/TLE/IR/TLE.h"

using namespace mlir;
using namespace mlir::tle;
using tle::common::shapeStr;

/// Whether `layout` is a distributed (register) encoding TLE knows.
static bool isDistributedLayout(Attribute layout) {
  return isa<ttg::BlockedEncodingAttr, ttg::SliceEncodingAttr,
             ttg::DotOperandEncodingAttr, ttg::NvidiaMmaEncodingAttr,
             ttg::LinearEncodingAttr>(layout);
}

LogicalResult
SetLayoutOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                              ValueRange operands, DictionaryAttr attributes,
                              OpaqueProperties properties, RegionRange regions,
                              SmallVectorImpl<Type> &inferred) {
  Adaptor adaptor(operands, attributes, properties, regions);
  auto src = dyn_cast<RankedTensorType>(adaptor.getSrc().getType());
  if (!src)
    return failure();
  // TTIR: no encodings yet, the result is src's type.
  if (!src.getEncoding() || !adaptor.getLayout()) {
    inferred.push_back(src);
    return success();
  }
  inferred.push_back(RankedTensorType::get(src.getShape(), src.getElementType(),
                                           adaptor.getLayout()));
  return success();
}

LogicalResult SetLayoutOp::verify() {
  auto src = getSrc().getType();
  auto result = getResult().getType();
  Attribute layout = getLayout();
  if (!isDistributedLayout(layout))
    return emitOpError("layout must be a distributed register layout "
                       "(#ttg.blocked, #ttg.slice, #ttg.dot_op, "
                       "#ttg.nvidia_mma or #ttg.linear), got ")
           << layout;
  std::optional<unsigned> rank = ttg::getLayoutRank(layout);
  if (rank && *rank != src.getRank())
    return emitOpError("layout ")
           << layout << " lays out rank-" << *rank << " tensors, but src "
           << shapeStr(src.getShape()) << " has rank " << src.getRank();
  if (result.getShape() != src.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError("result must keep src's shape and element type");
  if (src.getEncoding() && result.getEncoding() != layout)
    return emitOpError("result encoding must be the layout ") << layout;
  if (!src.getEncoding() && result.getEncoding())
    return emitOpError("result of a src without encoding (TTIR) has none");
  return success();
}
