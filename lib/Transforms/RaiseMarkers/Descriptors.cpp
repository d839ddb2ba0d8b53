//===- Descriptors.cpp - tle.marker.descriptor ----------------------------===//
//
// Part of triton-tle-raise-markers (MarkerRaiser.h lists the parts). A tle op
// whose result is a tensor descriptor (tle.reinterpret_tensor_map) cannot
// come out of an inline asm, which yields scalars and tensors: its marker
// yields the descriptor's base pointer instead, and the frontend makes the
// descriptor from it with `tl.make_tensor_descriptor`, which gives Triton
// the block (and, in TTGIR, the block's shared layout). The raised op takes
// that descriptor's place, and Triton's making of it goes (docs/markers.md,
// "Descriptors").
//
//===----------------------------------------------------------------------===//
#include "MarkerRaiser.h"

namespace mlir::tle::raise_markers {

LogicalResult MarkerRaiser::readDescriptor() {
  Attribute value = attrs.erase(kDescriptor);
  if (!value)
    return success();
  auto flag = dyn_cast<BoolAttr>(value);
  if (!flag)
    return emitError() << "'" << kDescriptor << "' must be true or false, got "
                       << value;
  descriptor = flag.getValue();
  if (descriptor && marker->getNumResults() != 1)
    return emitError() << "a '" << kDescriptor
                       << "' marker has one result (the descriptor's base), "
                          "got "
                       << marker->getNumResults();
  return success();
}

LogicalResult MarkerRaiser::collectDescriptor() {
  if (!descriptor)
    return success();
  if (hasResultTypes || noResults || !narrowed.empty() || !tiledResults.empty())
    return emitError() << "'" << kDescriptor
                       << "' cannot be combined with other result keys";
  Value base = marker->getResult(0);
  auto diagnose = [&](Operation *user) {
    InFlightDiagnostic diag = emitError();
    diag << "the result of TLE marker '" << name
         << "' must be the base of one tt.make_tensor_descriptor (TTIR) or of "
            "Triton's expansion of one (TTGIR: ttg.global_scratch_alloc, "
            "ttng.tensormap_create, ttng.tensormap_fenceproxy_acquire, "
            "ttng.reinterpret_tensor_descriptor)";
    if (user)
      diag.attachNote(user->getLoc()) << "used by '" << user->getName() << "'";
    return diag;
  };
  if (!base.hasOneUse())
    return diagnose(base.use_empty() ? nullptr : *base.user_begin());
  Operation *user = *base.user_begin();
  Value desc;
  if (auto make = dyn_cast<tt::MakeTensorDescOp>(user)) {
    if (make.getBase() != base)
      return diagnose(user);
    desc = make.getResult();
    chains.push_back(make);
  } else if (auto create = dyn_cast<ttng::TensormapCreateOp>(user)) {
    auto scratch =
        create.getDescPtr().getDefiningOp<ttg::GlobalScratchAllocOp>();
    if (create.getGlobalAddress() != base || !scratch)
      return diagnose(user);
    SmallVector<Operation *> fences;
    ttng::ReinterpretTensorDescOp reinterpret;
    for (Operation *other : scratch->getUsers()) {
      if (other == create)
        continue;
      if (isa<ttng::TensormapFenceproxyAcquireOp>(other)) {
        fences.push_back(other);
        continue;
      }
      auto r = dyn_cast<ttng::ReinterpretTensorDescOp>(other);
      if (!r || reinterpret)
        return diagnose(other);
      reinterpret = r;
    }
    if (!reinterpret)
      return diagnose(user);
    desc = reinterpret.getResult();
    chains.push_back(reinterpret);
    chains.append(fences);
    chains.push_back(create);
    chains.push_back(scratch);
  } else {
    return diagnose(user);
  }
  resultTypes.push_back(desc.getType());
  hasResultTypes = true;
  replaced[0] = desc;
  return success();
}

} // namespace mlir::tle::raise_markers
