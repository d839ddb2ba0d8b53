//===- TmaCacheHints.h - L2 eviction hints on TMA loads ---------*- C++ -*-===//
//
// Part of TLE's llir stage (docs/barriers.md, "Lowerings"). Triton 3.6
// refuses an eviction policy on `ttng.async_tma_copy_global_to_local`, so
// `triton-tle-lower-barriers` marks a hinted TMA load instead: its
// predicate is anded with `%m != 0`, where `%m` is an inline-asm marker
// naming the policy. In LLVM IR the TMA load is one inline-asm call whose
// predicate operand derives from the marker; the finish gives each such
// call the `.L2::cache_hint` qualifier and a cache-policy operand made by
// `createpolicy.fractional.L2::<policy>.b64`, and replaces the marker by 1.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TARGET_LLVMIR_TMACACHEHINTS_H
#define TLE_TARGET_LLVMIR_TMACACHEHINTS_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tle {

/// The markers' asm strings: the prefix, then the policy and `;`.
inline constexpr const char *kTmaHintPrefix = "tle.tma_cache_hint.";
inline constexpr const char *kTmaHintEvictFirstAsm =
    "tle.tma_cache_hint.evict_first;";
inline constexpr const char *kTmaHintEvictLastAsm =
    "tle.tma_cache_hint.evict_last;";

/// Hints every TMA load a marker predicates. Errors name a marker that
/// predicates no TMA load, or a TMA load in a form the rewrite does not
/// know. Returns whether the module changed.
llvm::Expected<bool> finishTmaCacheHints(llvm::Module &module);

} // namespace mlir::tle

#endif // TLE_TARGET_LLVMIR_TMACACHEHINTS_H
