//===- Target.h - Which backend a TTGIR module targets ----------*- C++ -*-===//
//
// Header-only so that every conversion can ask without linking anything.
// Triton's TTGIR names its target in the module attribute `ttg.target`
// ("cuda:90"); Iluvatar (CoreX) modules carry "iluvatar:<arch>", <arch> a
// non-empty name such as "ivcore11" (docs/iluvatar.md).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_CONVERSION_TLETOILUVATAR_TARGET_H
#define TLE_CONVERSION_TLETOILUVATAR_TARGET_H

#include "TLE/Interop/Triton/ModuleContext.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tle {

/// The `ttg.target` string of `module`, or "" when it has none.
inline StringRef moduleTarget(ModuleOp module) {
  if (auto target = module->getAttrOfType<StringAttr>(interop::kTargetAttr))
    return target.getValue();
  return "";
}

/// Whether `target` has the `iluvatar:` prefix (well formed or not).
inline bool isIluvatarTarget(StringRef target) {
  return target.starts_with("iluvatar:");
}

/// The architecture of a well-formed `iluvatar:<arch>` target, else "".
inline StringRef iluvatarArch(StringRef target) {
  if (!target.consume_front("iluvatar:") || target.empty())
    return "";
  for (char c : target)
    if (!(llvm::isAlnum(c) || c == '_'))
      return "";
  return target;
}

} // namespace mlir::tle

#endif // TLE_CONVERSION_TLETOILUVATAR_TARGET_H
