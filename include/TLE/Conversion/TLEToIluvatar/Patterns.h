//===- Patterns.h - TLE -> iluvatar_tle rewrite patterns --------*- C++ -*-===//
#ifndef TLE_CONVERSION_TLETOILUVATAR_PATTERNS_H
#define TLE_CONVERSION_TLETOILUVATAR_PATTERNS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::tle {

/// FlagTree's Iluvatar rules for the TLE-Struct ops (tle.alloc,
/// tle.local_pointers, tle.copy, tle.local_load / local_store,
/// tle.extract_tile / insert_tile; triton-tle-lower-to-iluvatar). They
/// assume what the pass checks first (smem buffers with a swizzled shared
/// layout, tiles on #ttg.blocked tensors).
void populateTLEToIluvatarPatterns(RewritePatternSet &patterns);

} // namespace mlir::tle

#endif // TLE_CONVERSION_TLETOILUVATAR_PATTERNS_H
