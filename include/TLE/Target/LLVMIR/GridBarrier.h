//===- GridBarrier.h - barriers of every program of a launch ----*- C++ -*-===//
//
// Part of TLE's llir stage (docs/distributed.md, "Grid barriers"). A barrier
// of the whole launch needs one counter that every CTA of the grid reaches,
// which TTGIR cannot declare. So `triton-tle-lower-local-memory` lowers
// `tle.distributed_barrier grid` to a CTA barrier, a marker call and a CTA
// barrier; the finish gives the module one zero-initialized global pair
// (arrival count, generation) and replaces each marker by the grid barrier on
// it: thread 0 of every CTA reads the generation, arrives with a release
// atomic add, and either (the last arrival) resets the count and publishes
// the next generation, or polls the generation with acquire loads until it
// changes. The count is back at 0 after every barrier, so the next barrier
// and the next launch start clean; the launch must be cooperative (all
// CTAs resident), which the Python bridge asks Triton's launcher for.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TARGET_LLVMIR_GRIDBARRIER_H
#define TLE_TARGET_LLVMIR_GRIDBARRIER_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tle {

/// The marker `triton-tle-lower-local-memory` emits for a grid barrier.
inline constexpr const char *kGridBarrierAsm = "tle.grid_barrier;";
/// The global the barriers of a module share: i32 count, i32 generation.
inline constexpr const char *kGridBarrierGlobal = "__tle_grid_barrier";

/// Replaces every grid-barrier marker. Errors name a marker in another
/// shape (operands or results). Returns whether the module changed.
llvm::Expected<bool> finishGridBarriers(llvm::Module &module);

} // namespace mlir::tle

#endif // TLE_TARGET_LLVMIR_GRIDBARRIER_H
