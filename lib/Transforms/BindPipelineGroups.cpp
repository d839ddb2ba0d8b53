//===- BindPipelineGroups.cpp - pipeline groups of folded loops -----------===//
//
// triton-tle-bind-pipeline-groups (include/TLE/Transforms/Passes.td,
// docs/pipeline-groups.md "Folded loops").
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEBINDPIPELINEGROUPS
#include "TLE/Transforms/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;

namespace {

constexpr StringLiteral kBegin = "tle.pipeline_group_begin";
constexpr StringLiteral kEnd = "tle.pipeline_group_end";

/// The marker's op name: its asm string up to the first space or brace.
StringRef markerName(tt::ElementwiseInlineAsmOp op) {
  StringRef text = op.getAsmString();
  return text.take_front(text.find_first_of(" {"));
}

/// The `group = N : i32` of a marker's text, or -1.
int64_t markerGroup(tt::ElementwiseInlineAsmOp op) {
  StringRef text = op.getAsmString();
  size_t at = text.find("group = ");
  if (at == StringRef::npos)
    return -1;
  int64_t group;
  if (text.drop_front(at + 8).take_while(llvm::isDigit).getAsInteger(10, group))
    return -1;
  return group;
}

bool isFor(Operation *op) { return op->getName().getStringRef() == "scf.for"; }

/// Whether `value` is, or is computed from, `iv` (a loop's induction
/// variable) by ops nested in `loop`.
bool derivesFrom(Value value, Value iv, Operation *loop) {
  SmallVector<Value> work{value};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == iv)
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !loop->isProperAncestor(def) || !seen.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The innermost enclosing scf.for whose induction variable `value` is
/// computed from, or null.
Operation *loopOf(Operation *marker, Value value) {
  for (Operation *op = marker->getParentOp(); op; op = op->getParentOp())
    if (isFor(op) && op->getNumRegions() == 1 && !op->getRegion(0).empty() &&
        op->getRegion(0).front().getNumArguments() > 0 &&
        derivesFrom(value, op->getRegion(0).front().getArgument(0), op))
      return op;
  return nullptr;
}

struct BindPipelineGroupsPass
    : public mlir::tle::impl::TLEBindPipelineGroupsBase<
          BindPipelineGroupsPass> {
  void runOnOperation() override {
    SmallVector<tt::ElementwiseInlineAsmOp> begins;
    getOperation()->walk([&](tt::ElementwiseInlineAsmOp op) {
      if (markerName(op) == kBegin && op->getNumOperands() == 1)
        begins.push_back(op);
    });
    for (tt::ElementwiseInlineAsmOp begin : begins) {
      if (loopOf(begin, begin->getOperand(0))) {
        dropOperand(begin);
        continue;
      }
      // A folded loop: its body now sits where the loop was. Erase the
      // group's end marker (the next one of the group in the block) too.
      int64_t group = markerGroup(begin);
      for (Operation *op = begin->getNextNode(); op; op = op->getNextNode()) {
        auto end = dyn_cast<tt::ElementwiseInlineAsmOp>(op);
        if (end && markerName(end) == kEnd && markerGroup(end) == group) {
          end->erase();
          break;
        }
      }
      begin->erase();
    }
  }

  /// The marker as the raising pass reads it: without the operand.
  static void dropOperand(tt::ElementwiseInlineAsmOp begin) {
    OpBuilder b(begin);
    auto bare = tt::ElementwiseInlineAsmOp::create(
        b, begin.getLoc(), begin->getResultTypes(), begin.getAsmString(), "=r",
        begin.getPure(), begin.getPackedElement(), ValueRange{});
    begin->replaceAllUsesWith(bare);
    begin->erase();
  }
};

} // namespace
