//===- LowerPipelineGroups.cpp - tle.range pipeline groups -> schedule ----===//
//
// triton-tle-lower-pipeline-groups (include/TLE/Transforms/Passes.td,
// docs/pipeline-groups.md): the groups of a tle.range loop become Triton
// 3.6's user schedule inputs (tt.latency on the loads, tt.num_stages on the
// loop) and the order of the loop body's ops.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERPIPELINEGROUPS
#include "TLE/Transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {
using interop::kLatencyAttr;
using interop::kNumStagesAttr;

bool isGroupOp(Operation *op) {
  return isa<PipelineGroupBeginOp, PipelineGroupEndOp>(op);
}

/// The loads Triton 3.6's pipeliner can issue early (and whose tt.latency
/// its AssignLatencies takes as the user's).
bool isLoadLike(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "tt.load" || name == "tt.descriptor_load" ||
         name == "tt.descriptor_gather";
}

bool writesMemory(Operation *op) {
  if (isMemoryEffectFree(op))
    return false;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  return !iface || op->getNumRegions() > 0 ||
         iface.hasEffect<MemoryEffects::Write>() ||
         iface.hasEffect<MemoryEffects::Free>() ||
         iface.hasEffect<MemoryEffects::Allocate>();
}

/// True when `user` (or an op nested in it) uses a result of `def`.
bool usesResultOf(Operation *user, Operation *def) {
  bool found = false;
  user->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (v.getDefiningOp() == def)
        found = true;
  });
  return found;
}

struct Group {
  PipelineGroupBeginOp begin;
  int32_t stage = 0;
  int32_t order = 0;
};

class LoopLowering {
public:
  LoopLowering(Operation *loop)
      : loop(loop), body(&loop->getRegion(0).front()) {}

  LogicalResult run() {
    if (failed(collect()) || failed(checkInnermost()) ||
        failed(assignUngrouped()) || failed(checkStages()) || failed(reorder()))
      return failure();
    setLatencies();
    return success();
  }

private:
  Operation *loop;
  Block *body;
  int32_t numGroups = 0, numStages = 0;
  SmallVector<Group> groups;
  SmallVector<Operation *> groupOps;      // begin/end ops, erased at the end
  SmallVector<Operation *> ops;           // the body's other ops, in order
  DenseMap<Operation *, int32_t> groupOf; // op -> group
  DenseMap<Operation *, int32_t>
      groupBefore;         // ungrouped op -> last group block before it (-1)
  int32_t firstGroup = -1; // first group in program order

  LogicalResult collect() {
    PipelineGroupBeginOp open;
    int32_t lastClosed = -1;
    // Keyed by group: `groups` is sized only once every declared group is
    // known to be used (a declared 2^31 - 1 groups ran out of memory).
    DenseMap<int32_t, Group> used;
    for (Operation &op : body->without_terminator()) {
      if (auto begin = dyn_cast<PipelineGroupBeginOp>(op)) {
        groupOps.push_back(&op);
        if (used.empty()) {
          numGroups = begin.getNumGroups();
          numStages = begin.getNumStages();
        }
        if (begin.getNumGroups() != numGroups ||
            begin.getNumStages() != numStages) {
          InFlightDiagnostic d =
              begin.emitError()
              << "pipeline group " << begin.getGroup() << " says the loop has "
              << begin.getNumGroups() << " group(s) and "
              << begin.getNumStages()
              << " stage(s), but an earlier group of the loop says "
              << numGroups << " and " << numStages;
          return failure();
        }
        if (open) {
          InFlightDiagnostic d = begin.emitError()
                                 << "pipeline group " << begin.getGroup()
                                 << " is nested in group " << open.getGroup()
                                 << "; pipeline groups cannot be nested";
          d.attachNote(open.getLoc())
              << "group " << open.getGroup() << " opened here";
          return failure();
        }
        int32_t g = static_cast<int32_t>(begin.getGroup());
        if (used.count(g)) {
          InFlightDiagnostic d =
              begin.emitError()
              << "pipeline group " << g
              << " is used twice in this loop; a group is one contiguous "
                 "`with tle.pipeline_group(i):` block";
          d.attachNote(used[g].begin.getLoc()) << "first used here";
          return failure();
        }
        used[g] = {begin, begin.getStage(), begin.getOrder()};
        if (firstGroup < 0)
          firstGroup = g;
        open = begin;
        continue;
      }
      if (auto end = dyn_cast<PipelineGroupEndOp>(op)) {
        groupOps.push_back(&op);
        if (!open || open.getGroup() != end.getGroup()) {
          InFlightDiagnostic d = end.emitError()
                                 << "end of pipeline group " << end.getGroup();
          if (open)
            d << " while group " << open.getGroup() << " is open";
          else
            d << " without a matching begin";
          return failure();
        }
        lastClosed = open.getGroup();
        open = PipelineGroupBeginOp();
        continue;
      }
      ops.push_back(&op);
      if (open)
        groupOf[&op] = open.getGroup();
      else
        groupBefore[&op] = lastClosed;
    }
    if (open)
      return open.emitError()
             << "pipeline group " << open.getGroup() << " is never closed";
    for (int32_t g = 0; g < numGroups; ++g)
      if (!used.count(g)) {
        InFlightDiagnostic d = groupOps.front()->emitError()
                               << "the loop declares " << numGroups
                               << " pipeline group(s) (pipe_stages / "
                                  "pipe_orders entries) but uses no "
                                  "group "
                               << g;
        return failure();
      }
    groups.resize(numGroups);
    for (auto &[g, group] : used)
      groups[g] = group;
    return success();
  }

  LogicalResult checkInnermost() {
    Operation *nested = nullptr;
    for (Operation *op : ops)
      op->walk([&](Operation *inner) {
        StringRef name = inner->getName().getStringRef();
        if (!nested && (name == "scf.for" || name == "scf.while"))
          nested = inner;
      });
    if (!nested)
      return success();
    InFlightDiagnostic d =
        groupOps.front()->emitError()
        << "a tle.range loop with pipeline groups must be an innermost loop "
           "(Triton 3.6 software-pipelines innermost loops only)";
    d.attachNote(nested->getLoc()) << "nested loop here";
    return failure();
  }

  /// Ungrouped ops: the group of the first user in the body, else the nearest
  /// group block before the op, else the first group.
  LogicalResult assignUngrouped() {
    for (Operation *op : llvm::reverse(ops)) {
      if (groupOf.count(op))
        continue;
      Operation *first = nullptr;
      for (Operation *user : op->getUsers()) {
        Operation *top = body->findAncestorOpInBlock(*user);
        if (!top || top == body->getTerminator() || !groupOf.count(top))
          continue;
        if (!first || top->isBeforeInBlock(first))
          first = top;
      }
      if (first)
        groupOf[op] = groupOf[first];
      else
        groupOf[op] =
            groupBefore.lookup(op) >= 0 ? groupBefore.lookup(op) : firstGroup;
    }
    return success();
  }

  /// Within one iteration no op may use a value of a later stage.
  LogicalResult checkStages() {
    for (Operation *op : ops) {
      int32_t g = groupOf[op];
      LogicalResult result = success();
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands()) {
          Operation *def = v.getDefiningOp();
          if (!def || failed(result))
            continue;
          Operation *top = body->findAncestorOpInBlock(*def);
          if (!top || top == op || !groupOf.count(top))
            continue;
          int32_t dg = groupOf[top];
          if (groups[dg].stage > groups[g].stage) {
            InFlightDiagnostic d =
                op->emitError()
                << "pipeline group " << g << " (stage " << groups[g].stage
                << ") uses a value computed in the same iteration by group "
                << dg << " (stage " << groups[dg].stage
                << "); a value can only flow to the same or a later stage";
            d.attachNote(top->getLoc()) << "the value is computed here";
            d.attachNote(groups[g].begin.getLoc())
                << "group " << g << " starts here";
            result = failure();
          }
        }
      });
      if (failed(result))
        return failure();
    }
    return success();
  }

  /// Stable sort of the body by the groups' orders.
  LogicalResult reorder() {
    auto orderOf = [&](Operation *op) { return groups[groupOf[op]].order; };
    for (size_t i = 0; i < ops.size(); ++i)
      for (size_t j = i + 1; j < ops.size(); ++j) {
        Operation *x = ops[i], *y = ops[j];
        if (orderOf(y) >= orderOf(x))
          continue;
        // y moves above x.
        bool depends = usesResultOf(y, x);
        bool conflict = !isMemoryEffectFree(x) && !isMemoryEffectFree(y) &&
                        (writesMemory(x) || writesMemory(y));
        if (!depends && !conflict)
          continue;
        int32_t gx = groupOf[x], gy = groupOf[y];
        InFlightDiagnostic d =
            groups[gy].begin.emitError()
            << "pipe_orders puts group " << gy << " (order " << orderOf(y)
            << ") before group " << gx << " (order " << orderOf(x)
            << "), but an op of group " << gy
            << (depends ? " uses a value of group "
                        : " accesses memory that group ")
            << gx << (depends ? "" : " also accesses (one of them writes)");
        d.attachNote(y->getLoc()) << "this op of group " << gy;
        d.attachNote(x->getLoc()) << "must stay after this op of group " << gx;
        return failure();
      }
    for (Operation *op : groupOps)
      op->erase();
    groupOps.clear();
    SmallVector<Operation *> sorted(ops);
    std::stable_sort(
        sorted.begin(), sorted.end(),
        [&](Operation *a, Operation *b) { return orderOf(a) < orderOf(b); });
    Operation *terminator = body->getTerminator();
    for (Operation *op : sorted)
      op->moveBefore(terminator);
    ops = std::move(sorted);
    return success();
  }

  /// tt.latency for each top-level load so that Triton 3.6's schedule_loops
  /// (stage = maxDistance - distance, distance = latency + max distance of
  /// the users in the body) puts it in its group's stage.
  void setLatencies() {
    Builder b(loop->getContext());
    int32_t maxStage = 0;
    for (const Group &g : groups)
      maxStage = std::max(maxStage, g.stage);
    DenseMap<Operation *, int64_t> distance;
    Operation *terminator = body->getTerminator();
    for (Operation *op : llvm::reverse(ops)) {
      int64_t users = -1;
      for (Operation *user : op->getUsers()) {
        Operation *top = body->findAncestorOpInBlock(*user);
        if (!top || top == terminator || top == op)
          continue;
        users = std::max(users, distance.lookup(top));
      }
      int64_t downstream = users < 0 ? 0 : users;
      if (!isLoadLike(op)) {
        distance[op] = downstream;
        continue;
      }
      int64_t wanted = maxStage - groups[groupOf[op]].stage;
      int64_t latency = std::max<int64_t>(0, wanted - downstream);
      op->setAttr(kLatencyAttr, b.getI32IntegerAttr(latency));
      distance[op] = latency + downstream;
    }
    loop->setAttr(kNumStagesAttr, b.getI32IntegerAttr(numStages));
  }
};

struct LowerPipelineGroupsPass
    : public mlir::tle::impl::TLELowerPipelineGroupsBase<
          LowerPipelineGroupsPass> {
  void runOnOperation() override {
    llvm::SetVector<Operation *> loops;
    bool failedAny = false;
    getOperation()->walk([&](Operation *op) {
      if (!isGroupOp(op))
        return;
      Operation *parent = op->getParentOp();
      if (!parent || parent->getName().getStringRef() != "scf.for") {
        op->emitError("a pipeline group must be directly in the body of a "
                      "tle.range loop");
        failedAny = true;
        return;
      }
      loops.insert(parent);
    });
    if (failedAny)
      return signalPassFailure();
    for (Operation *loop : loops)
      if (failed(LoopLowering(loop).run()))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
