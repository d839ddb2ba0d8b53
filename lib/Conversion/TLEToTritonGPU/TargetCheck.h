//===- TargetCheck.h - what a ttg.target can run ----------------*- C++ -*-===//
//
// The minimum NVIDIA architecture of each TLE feature (docs/targets.md). A
// lowering pass refuses a feature the module's `ttg.target` lacks with an
// error naming the op, the feature, the minimum and the target, before
// Triton's LLVM backend meets an instruction it cannot select (an abort).
// Modules without a CUDA `ttg.target` are not checked.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_CONVERSION_TLETOTRITONGPU_TARGETCHECK_H
#define TLE_LIB_CONVERSION_TLETOTRITONGPU_TARGETCHECK_H

#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::tle::target {

/// The compute capability of the `ttg.target` of `op`'s module (`op` itself
/// when it is the module): 90 for `cuda:90`; std::nullopt when the module has
/// no CUDA target.
inline std::optional<unsigned> capability(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<StringAttr>(interop::kTargetAttr)
                       : StringAttr();
  return target ? common::cudaCapability(target.getValue()) : std::nullopt;
}

/// Fails with an error on `op` when its module targets a CUDA architecture
/// below sm_`minimum`: "<feature> needs sm_90 or newer; ttg.target is
/// "cuda:80"".
inline LogicalResult require(Operation *op, unsigned minimum,
                             StringRef feature) {
  std::optional<unsigned> cap = capability(op);
  if (!cap || *cap >= minimum)
    return success();
  return op->emitOpError() << feature << " needs sm_" << minimum
                           << " or newer; this module's ttg.target is \"cuda:"
                           << *cap << "\" (docs/targets.md)";
}

/// Whether the target has the async proxy (sm_90+: wgmma operands, TMA), so
/// that generic-proxy shared-memory writes read by it need a
/// `fence.proxy.async`; older targets have no such instruction (and no such
/// readers). True when the target is unknown.
inline bool hasAsyncProxy(Operation *op) {
  std::optional<unsigned> cap = capability(op);
  return !cap || *cap >= 90;
}

} // namespace mlir::tle::target

#endif // TLE_LIB_CONVERSION_TLETOTRITONGPU_TARGETCHECK_H
