//===- Rectangles.h - rectangular index sets of local pointers -*- C++ -*-===//
//
// Local pointers whose indices address a rectangle of their buffer
// (`local_ptr(buf, (rows, cols))` with `rows = r0 + arange` along the first
// dimension and `cols = c0 + arange` along the second, broadcast): such an
// access reads or writes a `ttg.memdesc_subslice` of the buffer whole.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_TRANSFORMS_RECTANGLES_H
#define TLE_LIB_TRANSFORMS_RECTANGLES_H

#include "TLE/Dialect/TLE/IR/TLE.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::tle {

/// The offsets of the block of `ptrs`' buffer that its indices address,
/// element `(i, j, ...)` of the pointers at `buffer[o0 + i, o1 + j, ...]`:
/// the pointers are a tensor of the buffer's rank and index `d` is
/// `o_d + position along dimension d` (constants, ranges, splats of
/// constants, additions, subtractions, multiplications by constants,
/// expand_dims, broadcast and layout conversions of them), with
/// `0 <= o_d` and `o_d + size_d <= buffer size d`, and a block Triton can
/// view (ttg::subsliceProblem: whole power-of-two tiles that do not cut
/// through the buffer's swizzle). std::nullopt for a full view (no indices)
/// and every other index set.
std::optional<llvm::SmallVector<int32_t>> rectangleOf(LocalPointersOp ptrs);

/// `ttg.memdesc_subslice %buffer[offsets]` with `shape`, built at `builder`
/// (the buffer itself when the offsets are zeros and the shape its own).
Value buildRectangleView(OpBuilder &builder, Location loc, Value buffer,
                         ArrayRef<int64_t> shape, ArrayRef<int32_t> offsets);

} // namespace mlir::tle

#endif // TLE_LIB_TRANSFORMS_RECTANGLES_H
