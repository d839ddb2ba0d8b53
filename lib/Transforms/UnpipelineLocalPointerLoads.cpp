//===- UnpipelineLocalPointerLoads.cpp - no cp.async from shared memory ---===//
//
// triton-tle-unpipeline-local-pointer-loads: a loop that loads through
// shared (address space 3) or cluster (7) pointers in a way Triton 3.6's
// software pipeliner would take gets tt.num_stages = 1, so that Triton does
// not turn the load into an early cp.async (which has no shared source, and
// would read the buffer before the iteration's writes). Rules: Passes.td.
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

/// A tensor load through shared or cluster pointers that Triton's pipeliner
/// may issue as cp.async (see the pass description).
bool isPipelinableLocalLoad(Operation *op) {
  if (op->getName().getStringRef() != "tt.load" || op->getNumOperands() == 0)
    return false;
  Value ptr = op->getOperand(0);
  auto tensorTy = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensorTy)
    return false; // Triton never pipelines a scalar load.
  auto ptrTy = dyn_cast<tt::PointerType>(tensorTy.getElementType());
  if (!ptrTy || (ptrTy.getAddressSpace() != 3 && ptrTy.getAddressSpace() != 7))
    return false;
  Type pointee = ptrTy.getPointeeType();
  unsigned bits = pointee.isIntOrFloat() ? pointee.getIntOrFloatBitWidth() : 64;
  Operation *def = ptr.getDefiningOp();
  bool contiguityOne =
      def && def->getName().getStringRef() == "tt.elementwise_inline_asm";
  return !(contiguityOne && bits < 32);
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
      if (risky.empty())
        return;
      auto i32 = IntegerType::get(loop.getContext(), 32);
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
