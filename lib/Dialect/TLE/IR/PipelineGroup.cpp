//===- PipelineGroup.cpp - tle.pipeline_group_begin / _end ----------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

using namespace mlir;
using namespace mlir::tle;

/// The group ops bracket ops of one loop body: their parent must be the loop.
static LogicalResult verifyInLoopBody(Operation *op) {
  Operation *parent = op->getParentOp();
  if (!parent || parent->getName().getStringRef() != "scf.for")
    return op->emitOpError(
               "must be directly in the body of a tle.range loop (an "
               "scf.for), not inside ")
           << (parent ? parent->getName().getStringRef()
                      : StringRef("nothing"));
  return success();
}

LogicalResult PipelineGroupBeginOp::verify() {
  // I32Attr getters are unsigned: read the attributes as signed values.
  int32_t group = getGroup(), stage = getStage(), order = getOrder();
  int32_t numGroups = getNumGroups(), numStages = getNumStages();
  if (numGroups < 1)
    return emitOpError("needs at least one group, got ") << numGroups;
  if (numStages < 1)
    return emitOpError("needs num_stages >= 1, got ") << numStages;
  if (group < 0 || group >= numGroups)
    return emitOpError("group ") << group << " is out of range: the loop has "
                                 << numGroups << " group(s)";
  if (stage < 0 || stage >= numStages)
    return emitOpError("stage ")
           << stage << " of group " << group
           << " must be in [0, num_stages = " << numStages << ")";
  if (order < 0)
    return emitOpError("order ")
           << order << " of group " << group << " must be >= 0";
  return verifyInLoopBody(*this);
}

LogicalResult PipelineGroupEndOp::verify() {
  // I32Attr getters are unsigned: read the attributes as signed values.
  int32_t group = getGroup();
  if (group < 0)
    return emitOpError("group ") << group << " must be >= 0";
  return verifyInLoopBody(*this);
}
