//===- TryWait.h - non-blocking mbarrier phase tests ------------*- C++ -*-===//
//
// Part of TLE's llir stage (docs/barriers.md, "Lowerings"). TTGIR has no op
// that tests an mbarrier's phase without blocking, and inline asm in TTGIR
// cannot take a barrier's shared-memory address. So
// `triton-tle-lower-barriers` lowers `tle.barrier_try_wait` to a
// `ttng.wait_barrier` predicated on a begin marker, followed by an end
// marker that takes the begin marker's value; in LLVM IR the wait is one
// inline-asm call whose operands are the barrier's address, the parity and
// the predicate. The finish replaces the three calls by one
// `mbarrier.try_wait.parity` on that address and parity whose predicate
// result (0 or 1) takes the end marker's place.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TARGET_LLVMIR_TRYWAIT_H
#define TLE_TARGET_LLVMIR_TRYWAIT_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tle {

/// The markers `triton-tle-lower-barriers` emits around the wait.
inline constexpr const char *kTryWaitBeginAsm = "tle.barrier_try_wait.begin;";
inline constexpr const char *kTryWaitEndAsm = "tle.barrier_try_wait.end;";

/// Resolves every begin / wait / end triple. Errors name a marker in any
/// other shape (an end marker whose operand is not a begin marker, a begin
/// marker without Triton's predicated wait). Returns whether the module
/// changed.
llvm::Expected<bool> finishBarrierTryWaits(llvm::Module &module);

} // namespace mlir::tle

#endif // TLE_TARGET_LLVMIR_TRYWAIT_H
