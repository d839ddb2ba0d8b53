//===- AxisIndex.h - index tensors for TLE's TritonGPU lowerings -----------===//
#ifndef TLE_CONVERSION_TLETOTRITONGPU_AXISINDEX_H
#define TLE_CONVERSION_TLETOTRITONGPU_AXISINDEX_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tle::conversion {

/// The index along `axis` at every position of `type`'s shape (i32, with
/// `type`'s encoding): a tt.make_range whose encoding is `type`'s with every
/// other dimension sliced away, expanded back to full rank and broadcast.
Value buildAxisIndex(OpBuilder &b, Location loc, RankedTensorType type,
                     int32_t axis);

} // namespace mlir::tle::conversion

#endif
