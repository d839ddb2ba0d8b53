//===- ParseRegions.h - Failed parsers with regions outside `result` -*- C++ -*-===//
//
// A custom parser that parses regions outside `result` (the partitions of a
// warp_specialize, which go into a nested op) destroys them itself when it
// fails, before the parser tears down everything else. A value they define
// may already have uses elsewhere (a use before the definition, in the
// enclosing block or a sibling region, resolves to it), and destroying a
// definition that still has uses is fatal ("operation destroyed but still
// has uses"). Handing the regions to `result` instead gets them torn down
// the way the parser tears down any op's regions.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_PARSEREGIONS_H
#define TLE_INTEROP_TRITON_PARSEREGIONS_H

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Region.h"

#include <memory>

namespace mlir::tle::interop {
/// Moves the regions left in `regions` into `result` (on a parse failure).
inline void keepRegions(MutableArrayRef<std::unique_ptr<Region>> regions,
                        OperationState &result) {
  for (std::unique_ptr<Region> &region : regions)
    if (region)
      result.addRegion(std::move(region));
}
} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_PARSEREGIONS_H
