//===- UnpipelineLocalPointerLoads.cpp - no cp.async from shared memory ---===//
//
// triton-tle-unpipeline-local-pointer-loads: a loop that loads through
// shared (address space 3) or cluster (7) pointers in a way Triton 3.6's
// software pipeliner would take gets tt.num_stages = 1, so that Triton does
// not turn the load into an early cp.async (which has no shared source, and
// would read the buffer before the iteration's writes); so does a loop
// Triton would pipeline whose body orders shared-memory reads after writes or
// barriers it cannot see (its schedule would reorder them). Rules: Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Transforms/Passes.h"

#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEUNPIPELINELOCALPOINTERLOADS
#include "TLE/Transforms/Passes.h.inc"

namespace {

using interop::kLatencyAttr;
using interop::kNumStagesAttr;

/// The address space of a shared/cluster pointer operand (3 or 7), else 0.
unsigned localSpace(Value ptr) {
  Type type = ptr.getType();
  if (auto tensorTy = dyn_cast<RankedTensorType>(type))
    type = tensorTy.getElementType();
  auto ptrTy = dyn_cast<tt::PointerType>(type);
  if (!ptrTy || (ptrTy.getAddressSpace() != 3 && ptrTy.getAddressSpace() != 7))
    return 0;
  return ptrTy.getAddressSpace();
}

/// A tensor load through shared or cluster pointers that Triton's pipeliner
/// may issue as cp.async (see the pass description).
bool isPipelinableLocalLoad(Operation *op) {
  if (op->getName().getStringRef() != "tt.load" || op->getNumOperands() == 0)
    return false;
  Value ptr = op->getOperand(0);
  auto tensorTy = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensorTy)
    return false; // Triton never pipelines a scalar load.
  if (!localSpace(ptr))
    return false;
  Type pointee =
      cast<tt::PointerType>(tensorTy.getElementType()).getPointeeType();
  unsigned bits = pointee.isIntOrFloat() ? pointee.getIntOrFloatBitWidth() : 64;
  Operation *def = ptr.getDefiningOp();
  bool contiguityOne =
      def && def->getName().getStringRef() == "tt.elementwise_inline_asm";
  return !(contiguityOne && bits < 32);
}

/// A TLE marker with side effects other than computing pointers (a barrier,
/// a copy into a buffer, a store, ...): an ordering point Triton cannot see.
bool isOrderingMarker(Operation *op) {
  if (op->getName().getStringRef() != "tt.elementwise_inline_asm")
    return false;
  auto asmString = op->getAttrOfType<StringAttr>("asm_string");
  auto pure = op->getAttrOfType<BoolAttr>("pure");
  if (!asmString || !asmString.getValue().starts_with("tle.") ||
      (pure && pure.getValue()))
    return false;
  return !asmString.getValue().starts_with("tle.local_pointers") &&
         !asmString.getValue().starts_with("tle.remote_pointers");
}

/// Whether Triton 3.6's pipeliner would schedule `loop` in stages: it holds,
/// directly, a tensor load of global memory or a descriptor load, and either
/// a dot (the loads feeding it) or a tt.num_stages above 1 (every load).
bool tritonWouldPipeline(scf::ForOp loop) {
  bool load = false, dot = false;
  for (Operation &op : *loop.getBody()) {
    StringRef name = op.getName().getStringRef();
    if (name == "tt.descriptor_load" || name == "tt.descriptor_gather")
      load = true;
    if (name == "tt.load" && op.getNumOperands() > 0 &&
        isa<RankedTensorType>(op.getOperand(0).getType()) &&
        localSpace(op.getOperand(0)) == 0)
      load = true;
    dot |= name == "tt.dot" || name == "tt.dot_scaled";
  }
  auto stages = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr);
  return load && (dot || (stages && stages.getInt() > 1));
}

/// Whether the loop's body (nested regions included) reads shared or
/// cluster memory and also writes it or holds a TLE ordering marker: the
/// order between them is invisible to Triton's scheduler, which may put a
/// read that feeds a pipelined op before the write or barrier it follows.
bool hasHiddenOrdering(scf::ForOp loop) {
  bool read = false, ordering = false;
  loop.getBody()->walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name == "tt.load" && op->getNumOperands() > 0)
      read |= localSpace(op->getOperand(0)) != 0;
    if ((name == "tt.store" || name == "tt.atomic_rmw" ||
         name == "tt.atomic_cas") &&
        op->getNumOperands() > 0 && localSpace(op->getOperand(0)) != 0) {
      ordering = true;
      read |= name != "tt.store"; // an atomic reads too
    }
    ordering |= isOrderingMarker(op);
  });
  return read && ordering;
}

struct TLEUnpipelineLocalPointerLoads
    : impl::TLEUnpipelineLocalPointerLoadsBase<TLEUnpipelineLocalPointerLoads> {
  void runOnOperation() override {
    getOperation()->walk([&](scf::ForOp loop) {
      Block *body = loop.getBody();
      bool userSchedule = false;
      SmallVector<Operation *> risky;
      for (Operation &op : *body) {
        userSchedule |= op.hasAttr(kLatencyAttr);
        if (isPipelinableLocalLoad(&op))
          risky.push_back(&op);
      }
      auto i32 = IntegerType::get(loop.getContext(), 32);
      if (!userSchedule && tritonWouldPipeline(loop) &&
          hasHiddenOrdering(loop)) {
        loop->setAttr(kNumStagesAttr, IntegerAttr::get(i32, 1));
        return;
      }
      if (risky.empty())
        return;
      if (!userSchedule) {
        loop->setAttr(kNumStagesAttr, IntegerAttr::get(i32, 1));
        return;
      }
      // A user schedule: its local loads are not issued early (latency 0,
      // as lower-pipeline-groups gives a load its consumers leave no
      // latency); the rest of the schedule stays.
      for (Operation *load : risky)
        if (load->hasAttr(kLatencyAttr))
          load->setAttr(kLatencyAttr, IntegerAttr::get(i32, 0));
    });
  }
};

} // namespace
} // namespace mlir::tle
