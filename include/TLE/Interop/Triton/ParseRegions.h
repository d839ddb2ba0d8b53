//===- ParseRegions.h - Failed parsers with several regions -----*- C++ -*-===//
//
// The parser resolves a name used in one region and defined in a sibling
// region of the same op (the verifier rejects that later). A custom parser
// that keeps regions outside `result` (the partitions of a warp_specialize,
// which go into a nested op) destroys them first when it fails: a definition
// with a use left in another region is then fatal ("operation destroyed but
// still has uses"). Such parsers drop every reference before failing.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_PARSEREGIONS_H
#define TLE_INTEROP_TRITON_PARSEREGIONS_H

#include "mlir/IR/Region.h"

#include <memory>

namespace mlir::tle::interop {
/// Drops all references of the operations in `regions`.
inline void dropAllReferences(MutableArrayRef<std::unique_ptr<Region>> regions) {
  for (std::unique_ptr<Region> &region : regions)
    if (region)
      region->dropAllReferences();
}
} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_PARSEREGIONS_H
