//===- Patterns.h - TLE rewrite patterns ------------------------*- C++ -*-===//
#ifndef TLE_TRANSFORMS_PATTERNS_H
#define TLE_TRANSFORMS_PATTERNS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::tle {

/// A one-element-per-thread tt.store rebuilt in its operands' layout
/// (triton-tle-fold-scatter-converts).
void populateFoldScatterConvertsPatterns(RewritePatternSet &patterns);

} // namespace mlir::tle

#endif // TLE_TRANSFORMS_PATTERNS_H
