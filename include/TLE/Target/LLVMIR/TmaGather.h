//===- TmaGather.h - TMA row gathers on Hopper -----------------*- C++ -*-===//
//
// Part of TLE's llir stage (docs/warp-specialize.md, "Slot fills by TMA").
// Triton lowers `ttng.async_tma_gather` (rows of a tensor descriptor picked
// by an index tensor) to `cp.async.bulk.tensor.2d.tile::gather4`, which only
// sm_100 has. On sm_90 each gather4 becomes four 2-D tile copies of one row
// each from the same tensor map (its box is one row high): the copy of the
// i-th row lands at the gather4's destination + i * the row's bytes, where
// gather4 puts it, and the TMA unit swizzles by the destination address, so
// the rows land in the layout of the gather4's destination. All four copies
// complete on the gather4's mbarrier with the same bytes in total.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TARGET_LLVMIR_TMAGATHER_H
#define TLE_TARGET_LLVMIR_TMAGATHER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tle {

/// The asm of the gather4 that Triton 3.6 emits (a sm_100 instruction).
inline constexpr const char *kTmaGather4Asm =
    "@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::"
    "complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];";

/// Rewrites every gather4 inline-asm call into four one-row tile copies.
/// The tensor map operand must be a kernel argument marked
/// "nvvm.grid_constant" (a host tensor descriptor); `rowBytes[k]` is the
/// byte width of one row of the k-th such argument's box (its block's
/// inner dimension times the element size). Errors name a gather4 in any
/// other form or on another tensor map. Returns whether the module changed.
llvm::Expected<bool> splitTmaGathers(llvm::Module &module,
                                     llvm::ArrayRef<uint64_t> rowBytes);

} // namespace mlir::tle

#endif // TLE_TARGET_LLVMIR_TMAGATHER_H
