//===- Patterns.h - TLE -> TritonGPU rewrite patterns -----------*- C++ -*-===//
//
// The lowerings of include/TLE/Conversion/Passes.td that rewrite one op into
// Triton ops, as patterns other drivers can apply. Each pattern reports an
// op it cannot lower (an error on the op) and leaves it.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_CONVERSION_PATTERNS_H
#define TLE_CONVERSION_PATTERNS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::tle {

/// tle.exclusive_cumsum -> tt.scan / tt.reduce
/// (triton-tle-lower-exclusive-cumsum).
void populateLowerExclusiveCumsumPatterns(RewritePatternSet &patterns);

/// tle.extract_tile / tle.insert_tile -> shared-memory buffers
/// (triton-tle-lower-tiles); an unused tile op is erased.
void populateLowerTilesPatterns(RewritePatternSet &patterns);

} // namespace mlir::tle

#endif // TLE_CONVERSION_PATTERNS_H
