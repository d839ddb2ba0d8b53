//===- AsyncCopy.h - what a cp.async can carry ------------------*- C++ -*-===//
//
// Shared by triton-tle-async-copy-loads (LowerAsyncLoads.cpp) and the
// asynchronous slot fills of triton-tle-lower-pipes (LowerPipeFills.cpp),
// which both turn a tt.load into ttg.async_copy_global_to_local.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_CONVERSION_TLETOTRITONGPU_ASYNCCOPY_H
#define TLE_LIB_CONVERSION_TLETOTRITONGPU_ASYNCCOPY_H

#include "TLE/Interop/Triton/TT.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tle::async_copy {

/// cp.async copies 4, 8 or 16 bytes per instruction.
constexpr unsigned kMinCopyBytes = 4;
constexpr unsigned kMaxCopyBytes = 16;

/// A load carrying nothing a cp.async cannot: no volatile flag, cache
/// modifier, eviction policy, boundary check or padding.
inline bool isPlainLoad(tt::LoadOp load) {
  return !load.getIsVolatile() && load.getCache() == tt::CacheModifier::NONE &&
         load.getEvict() == tt::EvictionPolicy::NORMAL &&
         load.getBoundaryCheck().empty() && !load.getPadding();
}

/// Is `other` what cp.async's zero-fill already gives (+0.0 or 0)?
inline bool isZeroFill(Value other) {
  return matchPattern(other, m_Zero()) || matchPattern(other, m_PosZeroFloat());
}

/// Whether every thread's run of `load` (its blocked layout's elements along
/// the fastest dimension) is consecutive in memory and starts at a multiple
/// of its own size in bytes, as the pointers' construction proves: additions
/// of ranges, constants and splats of scalars (a function argument's
/// `tt.divisibility`), products with uniform factors, shifts, expand_dims,
/// broadcast and layout conversions. Triton's lowering then copies each run
/// whole, so a cp.async of 16-bit elements moves at least 4 bytes.
bool alignedRuns(tt::LoadOp load);

} // namespace mlir::tle::async_copy

#endif // TLE_LIB_CONVERSION_TLETOTRITONGPU_ASYNCCOPY_H
