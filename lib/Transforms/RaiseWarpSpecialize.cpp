//===- RaiseWarpSpecialize.cpp - region markers -> tle.warp_specialize ----===//
//
// triton-tle-raise-warp-specialize: the `scf.if`s that tle.gpu.warp_specialize
// emits (one per partition, conditioned on a region marker; docs/markers.md,
// "Regions") become one tle.warp_specialize.
//
//===----------------------------------------------------------------------===//
#include "MarkerText.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/Integer.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLERAISEWARPSPECIALIZE
#include "TLE/Transforms/Passes.h.inc"

namespace {
constexpr llvm::StringLiteral kName = "tle.warp_specialize";
constexpr llvm::StringLiteral kPartition = "tle.marker.partition";
constexpr llvm::StringLiteral kGroup = "tle.marker.group";

struct RegionMarker {
  tt::ElementwiseInlineAsmOp marker;
  scf::IfOp branch;
  int32_t region = -1;
  DictionaryAttr attrs;
};

bool isRegionMarker(tt::ElementwiseInlineAsmOp op) {
  StringRef text = op.getAsmString();
  return text.starts_with(kName) && text.contains(kPartition);
}

LogicalResult parse(RegionMarker &m, int32_t &group) {
  StringRef text = m.marker.getAsmString();
  StringRef rest = text.drop_front(kName.size()).trim();
  std::string unloaded;
  auto dict = dyn_cast_or_null<DictionaryAttr>(
      parseMarkerAttribute(rest, m.marker.getContext(), unloaded));
  if (!unloaded.empty())
    return m.marker.emitError("warp_specialize region marker: '")
           << rest << "' names the dialect '" << unloaded
           << "', which TLE markers do not use";
  if (!dict)
    return m.marker.emitError("warp_specialize region marker: cannot parse '")
           << rest << "' as an attribute dictionary";
  // Signless 32-bit integers, as the frontend writes them (`0 : i32`).
  std::optional<int64_t> region =
      interop::signlessInt(dict.get(kPartition), 32);
  std::optional<int64_t> grp = interop::signlessInt(dict.get(kGroup), 32);
  if (!region || !grp)
    return m.marker.emitError(
               "warp_specialize region marker needs 32-bit integer '")
           << kPartition << "' and '" << kGroup << "'";
  for (NamedAttribute attr : dict)
    if (!llvm::is_contained({StringRef(kPartition), StringRef(kGroup),
                             StringRef("partition_num_warps"),
                             StringRef("partition_num_regs")},
                            attr.getName().strref()))
      return m.marker.emitError("warp_specialize region marker: unknown key '")
             << attr.getName().strref() << "'";
  m.region = *region;
  m.attrs = dict;
  group = static_cast<int32_t>(*grp);
  // The marker must be the condition of exactly one scf.if: the partition's
  // body. Triton deletes the scf.if of an empty body: an unused marker
  // stands for an empty partition.
  if (m.marker->getNumResults() == 1 && m.marker->getNumOperands() == 0 &&
      m.marker->getResult(0).use_empty())
    return success();
  Value cond = m.marker->getResult(0);
  if (m.marker->getNumResults() != 1 || m.marker->getNumOperands() != 0 ||
      !cond.hasOneUse())
    return m.marker.emitError("warp_specialize region marker must have no "
                              "operands and one result used once");
  m.branch = dyn_cast<scf::IfOp>(*cond.getUsers().begin());
  if (!m.branch || m.branch.getCondition() != cond)
    return m.marker.emitError("warp_specialize region marker must be the "
                              "condition of an scf.if");
  if (m.branch->getNumResults() == 0) {
    if (!m.branch.getElseRegion().empty() &&
        !llvm::hasSingleElement(m.branch.getElseRegion().front()))
      return m.marker.emitError("warp_specialize region marker must be the "
                                "condition of a result-less scf.if without an "
                                "else branch, or of an scf.if yielding the "
                                "default partition's results");
    return success();
  }
  // The default partition's results: the then-branch yields them; the else
  // branch (never taken) yields placeholders (ub.poison) and may hold only
  // side-effect-free ops, which are dropped.
  if (m.region != 0)
    return m.marker.emitError("warp_specialize region ")
           << m.region << " (a worker partition) yields "
           << m.branch->getNumResults()
           << " results; only the default partition (region 0) returns values";
  for (Operation &op : m.branch.getElseRegion().front().without_terminator())
    if (!isMemoryEffectFree(&op))
      return m.marker.emitError("warp_specialize region 0: the else branch "
                                "of its scf.if must be free of side effects, "
                                "found '")
             << op.getName() << "'";
  return success();
}

/// Moves the body of `branch`'s then-block (without its scf.yield) to the
/// end of `block`.
void moveBody(scf::IfOp branch, Block *block) {
  if (!branch)
    return;
  Block &then = branch.getThenRegion().front();
  block->getOperations().splice(block->end(), then.getOperations(),
                                then.begin(), std::prev(then.end()));
}

LogicalResult raiseGroup(int32_t group, SmallVector<RegionMarker> &regions) {
  llvm::sort(regions, [](const RegionMarker &a, const RegionMarker &b) {
    return a.region < b.region;
  });
  for (auto [index, m] : llvm::enumerate(regions))
    if (m.region != static_cast<int32_t>(index))
      return m.marker.emitError("warp_specialize group ")
             << group << ": expected region " << index << ", got region "
             << m.region << " (regions must be 0.." << regions.size() - 1
             << ", each once)";
  RegionMarker &def = regions.front();
  unsigned numWorkers = regions.size() - 1;
  auto warps =
      dyn_cast_or_null<DenseI32ArrayAttr>(def.attrs.get("partition_num_warps"));
  auto regs =
      dyn_cast_or_null<DenseI32ArrayAttr>(def.attrs.get("partition_num_regs"));
  if (!warps)
    return def.marker.emitError("warp_specialize region 0 marker needs "
                                "'partition_num_warps' (array<i32>)");
  if (warps.size() != static_cast<int64_t>(numWorkers))
    return def.marker.emitError("warp_specialize has ")
           << numWorkers << " worker regions but partition_num_warps has "
           << warps.size() << " entries";
  // Markers and scf.ifs of one call sit in one block; the op goes where the
  // first of them is.
  Block *block = def.marker->getBlock();
  Operation *first = def.marker;
  for (RegionMarker &m : regions) {
    for (Operation *op : {m.marker.getOperation(), m.branch.getOperation()}) {
      if (!op)
        continue;
      if (op->getBlock() != block)
        return m.marker.emitError("warp_specialize regions of one call must "
                                  "be in one block");
      if (op->isBeforeInBlock(first))
        first = op;
    }
  }
  OpBuilder b(first);
  OperationState state(def.marker.getLoc(),
                       WarpSpecializeOp::getOperationName());
  state.addAttribute("partition_num_warps", warps);
  if (regs)
    state.addAttribute("partition_num_regs", regs);
  if (def.branch)
    state.addTypes(def.branch.getResultTypes());
  state.addRegion();
  state.addRegion();
  Operation *ws = b.create(state);
  Region *defaultRegion = &ws->getRegion(0);
  Region *holder = &ws->getRegion(1);

  Block *defaultBlock = new Block();
  defaultRegion->push_back(defaultBlock);
  moveBody(def.branch, defaultBlock);
  OpBuilder db = OpBuilder::atBlockEnd(defaultBlock);
  SmallVector<Value> yielded;
  if (def.branch)
    yielded = llvm::to_vector(def.branch.thenYield().getOperands());
  WarpYieldOp::create(db, def.marker.getLoc(), yielded);

  Block *holderBlock = new Block();
  holder->push_back(holderBlock);
  OpBuilder hb = OpBuilder::atBlockEnd(holderBlock);
  OperationState pstate(def.marker.getLoc(),
                        WarpSpecializePartitionsOp::getOperationName());
  for (unsigned i = 0; i < numWorkers; ++i)
    pstate.addRegion();
  Operation *partitions = hb.create(pstate);
  for (unsigned i = 0; i < numWorkers; ++i) {
    Block *body = new Block();
    partitions->getRegion(i).push_back(body);
    moveBody(regions[i + 1].branch, body);
    OpBuilder pb = OpBuilder::atBlockEnd(body);
    WarpReturnOp::create(pb, regions[i + 1].marker.getLoc());
  }
  // The results are used after the partitions' scf.ifs, so after the op.
  llvm::SetVector<Operation *> placeholders;
  if (def.branch && def.branch->getNumResults() != 0) {
    def.branch->replaceAllUsesWith(ws->getResults());
    for (Value v : def.branch.elseYield().getOperands())
      if (Operation *op = v.getDefiningOp();
          op && !def.branch->isAncestor(op) && isMemoryEffectFree(op))
        placeholders.insert(op);
  }
  for (RegionMarker &m : regions) {
    if (m.branch)
      m.branch->erase();
    m.marker->erase();
  }
  // Placeholders hoisted out of the else branch (Triton's canonicalizer
  // moves ub.poison up like a constant) go once unused.
  for (Operation *op : placeholders)
    if (op->use_empty())
      op->erase();
  return mlir::verify(ws);
}

struct RaiseWarpSpecializePass
    : public impl::TLERaiseWarpSpecializeBase<RaiseWarpSpecializePass> {
  void runOnOperation() override {
    llvm::MapVector<std::pair<Operation *, int32_t>, SmallVector<RegionMarker>>
        groups;
    bool ok = true;
    getOperation()->walk([&](tt::ElementwiseInlineAsmOp op) {
      if (!isRegionMarker(op))
        return;
      RegionMarker m;
      m.marker = op;
      int32_t group = 0;
      if (failed(parse(m, group))) {
        ok = false;
        return;
      }
      Operation *func = op->getParentOfType<FunctionOpInterface>();
      groups[{func, group}].push_back(m);
    });
    if (!ok)
      return signalPassFailure();
    for (auto &[key, regions] : groups)
      if (failed(raiseGroup(key.second, regions)))
        return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::tle
