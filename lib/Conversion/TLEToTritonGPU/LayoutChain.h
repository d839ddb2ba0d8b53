//===- LayoutChain.h - values seen through layout conversions --------------===//
#ifndef TLE_CONVERSION_TLETOTRITONGPU_LAYOUTCHAIN_H
#define TLE_CONVERSION_TLETOTRITONGPU_LAYOUTCHAIN_H

#include "TLE/Interop/Triton/TTG.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tle::conversion {

/// The value a chain of `ttg.convert_layout`s ending at `value` converts
/// (`value` itself when no convert makes it); the converts, outermost
/// first, are appended to `chain`. `singleUse`, when given, is set to
/// whether `value` and every convert on the way have one use each.
inline Value throughConverts(Value value, SmallVectorImpl<Operation *> &chain,
                             bool *singleUse = nullptr) {
  bool single = value.hasOneUse();
  while (auto cvt = value.getDefiningOp<ttg::ConvertLayoutOp>()) {
    chain.push_back(cvt);
    single = single && cvt->hasOneUse();
    value = cvt.getSrc();
  }
  if (singleUse)
    *singleUse = single;
  return value;
}

} // namespace mlir::tle::conversion

#endif
