//===- MergeWgmmaWaits.cpp - one wgmma wait for several groups ------------===//
//
// triton-tle-merge-wgmma-waits: Triton waits for every wgmma right after it
// (`ttng.warp_group_dot_wait {pendings = 0}`) outside its pipelined loops, so
// a chain of dots (an accumulation split over several operands) or a run of
// independent dots drains the wgmma pipeline once per dot. A wait whose
// results are not needed before the next such wait is folded into it. The
// rules are documented with the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Transforms/Passes.h"
#include "WgmmaOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "triton-tle-merge-wgmma-waits"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEMERGEWGMMAWAITS
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// A pendings-0 wait directly after the async dot whose result it waits for.
ttng::WarpGroupDotOp waitedDot(ttng::WarpGroupDotWaitOp wait) {
  if (wait.getPendings() != 0 || wait.getInputs().empty())
    return {};
  auto dot = wait.getInputs().front().getDefiningOp<ttng::WarpGroupDotOp>();
  if (!dot || !dot.getIsAsync() || dot->getNextNode() != wait.getOperation())
    return {};
  return dot;
}

/// May a wait move down across `op`? Ops that only compute values, read
/// shared memory, or issue more wgmma can be crossed, and so can an mbarrier
/// wait: it only blocks this warpgroup until other threads' writes (a pipe
/// slot's fill) are complete and visible, so a wgmma issued before it, whose
/// operands were ready then, may still be running after it (a scorer starts
/// S on one half of a chunk while it waits for the other half). Anything
/// that writes memory, signals other threads, or holds regions cannot be
/// crossed (a later write could race with the wgmma still reading its
/// operands; a barrier or arrive could publish a buffer it still reads).
bool crossable(Operation *op) {
  return isa<ttng::FenceAsyncSharedOp, ttng::WaitBarrierOp>(op) ||
         readsOrIssuesWgmma(op);
}

/// Folds `first` (a pendings-0 wait of an async dot) into the next wait of
/// its block when the rules hold; returns true when it did.
bool mergeIntoNext(ttng::WarpGroupDotWaitOp first) {
  if (!waitedDot(first))
    return false;
  ttng::WarpGroupDotWaitOp next;
  SmallVector<Operation *> crossed;
  auto keep = [&](StringRef why) {
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": wait at " << first.getLoc()
                            << " stays: " << why << "\n");
    return false;
  };
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    if (auto wait = dyn_cast<ttng::WarpGroupDotWaitOp>(op)) {
      next = wait;
      break;
    }
    if (!crossable(op))
      return keep(("it cannot move across " + op->getName().getStringRef() +
                   " (writes memory, signals or holds regions)")
                      .str());
    crossed.push_back(op);
  }
  if (!next)
    return keep("no later wait in its block");
  if (next.getPendings() != 0)
    return keep("the next wait has pendings > 0 (a pipelined loop's)");
  ttng::WarpGroupDotOp nextDot = waitedDot(next);
  if (!nextDot)
    return keep("the next wait does not directly follow its own async dot");
  // Before `next`, the awaited values may only feed later dots' accumulators
  // (wgmma orders accumulation into the same registers); any other use needs
  // `first` where it is.
  llvm::SmallPtrSet<Operation *, 8> between(crossed.begin(), crossed.end());
  for (OpOperand &use : first->getUses()) {
    Operation *user = use.getOwner();
    if (!between.contains(user))
      continue;
    auto dot = dyn_cast<ttng::WarpGroupDotOp>(user);
    if (!dot || use.getOperandNumber() != 2 || use.get() != first->getResult(0))
      return keep(("its result is used before the next wait by " +
                   user->getName().getStringRef() +
                   ", not as a wgmma accumulator")
                      .str());
  }
  // Accumulator uses read the dot's result itself; the merged wait carries
  // `first`'s values (and keeps its operand buffers alive) for later users.
  for (OpOperand &use : llvm::make_early_inc_range(first->getUses()))
    if (between.contains(use.getOwner()))
      use.set(first.getInputs().front());
  // The merged wait carries `first`'s values that are still used (a
  // tensor carried for nothing would be one more live accumulator) and its
  // operand buffers (so that they stay allocated until the wait).
  SmallVector<Value> inputs(next.getInputs());
  unsigned offset = inputs.size();
  SmallVector<std::pair<unsigned, unsigned>>
      carried; // first's result -> merged's
  for (unsigned i = 0, e = first->getNumResults(); i < e; ++i) {
    Value in = first.getInputs()[i];
    if (first->getResult(i).use_empty() && !isa<ttg::MemDescType>(in.getType()))
      continue;
    carried.push_back({i, static_cast<unsigned>(inputs.size())});
    inputs.push_back(in);
  }
  OpBuilder b(next);
  auto merged = ttng::WarpGroupDotWaitOp::create(b, next.getLoc(), inputs, 0);
  for (unsigned i = 0; i < offset; ++i)
    next->getResult(i).replaceAllUsesWith(merged->getResult(i));
  for (auto [from, to] : carried)
    first->getResult(from).replaceAllUsesWith(merged->getResult(to));
  LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": wait at " << first.getLoc()
                          << " merged into the wait at " << next.getLoc()
                          << "\n");
  next->erase();
  first->erase();
  return true;
}

struct TLEMergeWgmmaWaits : impl::TLEMergeWgmmaWaitsBase<TLEMergeWgmmaWaits> {
  void runOnOperation() override {
    // Last wait first: a wait merges into the next one as that one stands
    // after its own merges (the merged wait takes its place, right after its
    // dot), so one pass folds a whole chain.
    SmallVector<ttng::WarpGroupDotWaitOp> waits;
    getOperation()->walk(
        [&](ttng::WarpGroupDotWaitOp wait) { waits.push_back(wait); });
    for (ttng::WarpGroupDotWaitOp wait : llvm::reverse(waits))
      if (mergeIntoNext(wait))
        ++numWaitsMerged;
  }
};
} // namespace
} // namespace mlir::tle
