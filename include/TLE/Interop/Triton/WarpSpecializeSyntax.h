//===- WarpSpecializeSyntax.h - the warp_specialize assembly ---*- C++ -*-===//
//
// ttg.warp_specialize (Triton 3.6) and tle.warp_specialize share one
// assembly, parsed and printed here:
//
//   [%r = ]<op>(%c0, %c1)[ attributes {...}]
//   default {
//     ...
//   }
//   partition0(%arg0: T0, %arg1: T1) num_warps(4)[ num_regs(232)] {
//     ...
//   } : (T0, T1) -> R
//
// `partitionK` takes every capture as a block argument; `num_warps(n)` (and
// `num_regs(n)`, TLE's only) of partition K is element K of an array
// attribute. The partitions live in a nested op, the only op of the second
// region.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_WARPSPECIALIZESYNTAX_H
#define TLE_INTEROP_TRITON_WARPSPECIALIZESYNTAX_H

#include "mlir/IR/OpImplementation.h"

#include <optional>

namespace mlir::tle::interop {

/// What differs between the dialects' forms.
struct WarpSpecializeSyntax {
  /// The op holding the partition regions ("ttg.warp_specialize.partitions").
  StringRef partitionsOpName;
  /// The array attribute of the partitions' `num_warps(n)`.
  StringRef numWarpsAttrName;
  /// The array attribute of the partitions' `num_regs(n)`; empty when the
  /// form has no `num_regs` (then it stays in the attribute dictionary).
  StringRef numRegsAttrName;
  /// Completes a parsed region (the default one first, then each
  /// partition's), e.g. with an implicit terminator; may be null.
  function_ref<void(Region &region, bool isDefault, Location loc)> finishRegion;
};

/// Parses the form into `result`: the captures as operands, the result
/// types, the default region, then the holder region with the partitions op.
ParseResult parseWarpSpecialize(OpAsmParser &parser, OperationState &result,
                                const WarpSpecializeSyntax &syntax);

/// Prints `op` in the form. `partitions` is empty when the op has no
/// partitions op (a malformed op printed directly).
void printWarpSpecialize(OpAsmPrinter &printer, Operation *op,
                         ValueRange captures, Region &defaultRegion,
                         MutableArrayRef<Region> partitions,
                         ArrayRef<int32_t> numWarps,
                         std::optional<ArrayRef<int32_t>> numRegs,
                         const WarpSpecializeSyntax &syntax);

} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_WARPSPECIALIZESYNTAX_H
