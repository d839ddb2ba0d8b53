//===- AxisIndex.cpp - index tensors for TLE's TritonGPU lowerings ---------===//
#include "AxisIndex.h"

#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"

using namespace mlir;

namespace mlir::tle::conversion {

Value buildAxisIndex(OpBuilder &b, Location loc, RankedTensorType type,
                     int32_t axis) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  int64_t rank = type.getRank(), extent = type.getDimSize(axis);
  Attribute encoding = type.getEncoding();

  // tt.expand_dims inserts the other dimensions in increasing order, so the
  // dimension being inserted always sits at its final index. Each
  // expand_dims's operand has encoding #ttg.slice<{dim = d, parent =
  // result's}>; walk back from the full encoding to the make_range's.
  SmallVector<int32_t> others;
  for (int32_t d = 0; d < rank; ++d)
    if (d != axis)
      others.push_back(d);
  SmallVector<Attribute> encodingAfter(others.size());
  Attribute rangeEncoding = encoding;
  for (int64_t k = others.size() - 1; k >= 0; --k) {
    encodingAfter[k] = rangeEncoding;
    if (rangeEncoding)
      rangeEncoding =
          ttg::SliceEncodingAttr::get(ctx, others[k], rangeEncoding);
  }

  Value index = tt::MakeRangeOp::create(
      b, loc, RankedTensorType::get({extent}, i32, rangeEncoding), 0, extent);
  if (rank == 1)
    return index;
  SmallVector<bool> present(rank, false);
  present[axis] = true;
  for (auto [k, d] : llvm::enumerate(others)) {
    present[d] = true;
    SmallVector<int64_t> shape;
    for (int64_t i = 0; i < rank; ++i)
      if (present[i])
        shape.push_back(i == axis ? extent : 1);
    index = tt::ExpandDimsOp::create(
        b, loc, RankedTensorType::get(shape, i32, encodingAfter[k]), index, d);
  }
  return tt::BroadcastOp::create(b, loc, type.clone(i32), index);
}

} // namespace mlir::tle::conversion
