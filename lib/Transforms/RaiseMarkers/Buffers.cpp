//===- Buffers.cpp - buffer handles ---------------------------------------===//
//
// Part of triton-tle-raise-markers (MarkerRaiser.h lists the parts). A
// marker result that `tle.marker.result_types` gives a buffer type is a
// handle that only later markers take (docs/markers.md, "Buffers and
// result-less ops", "DSA buffers"): !ttg.memdesc (tle.alloc, tle.pipe.slot),
// !tle.pipe (tle.pipe.create), !tle.dsa.buffer (tle.dsa.alloc,
// tle.dsa.to_buffer).
//
//===----------------------------------------------------------------------===//
#include "MarkerRaiser.h"

namespace mlir::tle::raise_markers {

bool isBufferType(Type type) {
  return isa<ttg::MemDescType, PipeType, DSABufferType>(type);
}

LogicalResult MarkerRaiser::checkHandleUses(unsigned index) {
  Value handle = marker->getResult(index);
  // A DSA buffer made from a tensor (tle.dsa.to_buffer) has a handle of the
  // marker's shape; every other handle is a scalar.
  if (isa<ShapedType>(handle.getType()) &&
      !(isa<DSABufferType>(resultTypes[index]) && marker->getNumOperands() > 0))
    return emitError() << "buffer result " << index << " of TLE marker '"
                       << name << "' must be a scalar handle, got "
                       << handle.getType();
  SmallVector<Value> work{handle};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isHandleCarrier(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (auto other = dyn_cast<tt::ElementwiseInlineAsmOp>(user);
          other && isMarker(other))
        continue;
      InFlightDiagnostic diag = emitError();
      diag << "buffer handle (result " << index << " of TLE marker '" << name
           << "') is used by '" << user->getName()
           << "'; a buffer handle may only be passed to TLE markers, "
              "directly or through tt.splat, tt.broadcast and "
              "ttg.convert_layout";
      diag.attachNote(user->getLoc()) << "used here";
      return diag;
    }
  }
  return success();
}

LogicalResult eraseHandleMarkers(RaiseState &state) {
  // Every marker that took a handle is gone; so are the handles' users.
  for (Operation *marker : llvm::reverse(state.handleMarkers)) {
    for (Value handle : marker->getResults()) {
      SmallVector<Operation *> carriers(handle.getUsers());
      for (Operation *user : carriers)
        if (isHandleCarrier(user))
          eraseDeadCarriers(user->getResult(0));
    }
    if (!marker->use_empty())
      return marker->emitError("buffer handle still used after raising");
    marker->erase();
  }
  return success();
}

} // namespace mlir::tle::raise_markers
