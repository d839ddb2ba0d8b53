//===- NarrowedResults.cpp - tle.marker.narrowed --------------------------===//
//
// Part of triton-tle-raise-markers (MarkerRaiser.h lists the parts). A
// result whose real shape drops one axis (tle.exclusive_cumsum's total)
// comes out of the marker at its shape and is picked down by one tt.reduce
// (docs/markers.md, "The marker").
//
//===----------------------------------------------------------------------===//
#include "MarkerRaiser.h"
#include "TLE/Interop/Triton/Integer.h"

namespace mlir::tle::raise_markers {

bool isPickReduce(tt::ReduceOp reduce) {
  if (reduce->getNumOperands() != 1 || reduce->getNumResults() != 1)
    return false;
  Region &region = reduce->getRegion(0);
  if (!region.hasOneBlock())
    return false;
  Block &body = region.front();
  if (body.empty() || body.getNumArguments() < 1)
    return false;
  auto ret = dyn_cast<tt::ReduceReturnOp>(body.back());
  return ret && ret->getNumOperands() == 1 &&
         ret->getOperand(0) == body.getArgument(0);
}

Value followConverts(Value value, SmallVectorImpl<Operation *> &converts) {
  while (value.hasOneUse()) {
    auto convert = dyn_cast<ttg::ConvertLayoutOp>(*value.user_begin());
    if (!convert)
      break;
    converts.push_back(convert);
    value = convert.getResult();
  }
  return value;
}

LogicalResult MarkerRaiser::readNarrowed() {
  return takeIndices(kNarrowed, marker->getNumResults(), "result", narrowed);
}

LogicalResult MarkerRaiser::collectNarrowed() {
  auto axisAttr = attrs.get("axis");
  // An axis that is not a signless integer of at most 64 bits (`1 : i128`,
  // `0 : i0`) is left to the op's verifier.
  std::optional<int64_t> axis = interop::signlessInt(axisAttr);

  for (unsigned index : narrowed) {
    Value value = marker->getResult(index);
    if (value.use_empty()) {
      replaced[index] = nullptr;
      continue;
    }
    SmallVector<Operation *> converts;
    value = followConverts(value, converts);
    auto diagnose = [&]() {
      InFlightDiagnostic diag = emitError();
      diag << "narrowed result " << index << " of TLE marker '" << name
           << "' must have no user or exactly one pick tt.reduce (through "
              "single-use ttg.convert_layouts), but ";
      if (!converts.empty())
        diag << "the ttg.convert_layout on it ";
      return diag;
    };
    if (!value.hasOneUse())
      return diagnose() << "has "
                        << std::distance(value.use_begin(), value.use_end())
                        << " uses";
    Operation *user = *value.user_begin();
    auto reduce = dyn_cast<tt::ReduceOp>(user);
    if (!reduce)
      return diagnose() << "is used by '" << user->getName() << "'";
    if (!isPickReduce(reduce))
      return diagnose() << "is used by a tt.reduce that does not return its "
                           "first argument";
    if (axis && reduce.getAxis() != *axis)
      return emitError() << "narrowed result " << index << " of TLE marker '"
                         << name << "' is picked along axis "
                         << reduce.getAxis() << ", but the op's axis is "
                         << *axis;
    replaced[index] = reduce->getResult(0);
    chains.push_back(reduce);
    chains.append(converts.rbegin(), converts.rend());
  }
  return success();
}

/// Without inference, a narrowed result's type comes from its pick reduce.
LogicalResult MarkerRaiser::checkNarrowedTypes() {
  if (opName->hasInterface<InferTypeOpInterface>())
    return success();
  for (unsigned index : narrowed) {
    if (replaced[index])
      continue;
    return emitError() << "narrowed result " << index << " of TLE marker '"
                       << name << "' has no user, and '" << name
                       << "' does not infer its result types";
  }
  return success();
}

} // namespace mlir::tle::raise_markers
