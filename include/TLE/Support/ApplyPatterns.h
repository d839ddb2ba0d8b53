//===- ApplyPatterns.h - patterns applied once, in order --------*- C++ -*-===//
//
// The driver of TLE's one-op-to-one-result lowerings (LowerTiles,
// LowerExclusiveCumsum, LowerToIluvatar, FoldScatterConverts): like
// mlir::walkAndApplyPatterns, each op is offered to the patterns once and
// nothing is folded or removed besides what the patterns do, but in the
// order the pass collected the ops (users first, for instance), every op
// reachable or not. A pattern that reports an error fails to match and
// leaves its op, which the pass then finds.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_SUPPORT_APPLYPATTERNS_H
#define TLE_SUPPORT_APPLYPATTERNS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace mlir::tle {

/// Offers each op of `ops`, in order, to `patterns`; the rewriter's insertion
/// point is before the op. A rewrite may erase its op and ops not after it
/// in `ops`. Returns how many ops were rewritten.
inline unsigned applyPatternsInOrder(ArrayRef<Operation *> ops,
                                     const FrozenRewritePatternSet &patterns) {
  if (ops.empty())
    return 0;
  PatternRewriter rewriter(ops.front()->getContext());
  PatternApplicator applicator(patterns);
  applicator.applyDefaultCostModel();
  unsigned rewritten = 0;
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    rewritten += succeeded(applicator.matchAndRewrite(op, rewriter));
  }
  return rewritten;
}

} // namespace mlir::tle

#endif // TLE_SUPPORT_APPLYPATTERNS_H
