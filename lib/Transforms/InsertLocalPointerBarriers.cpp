//===- InsertLocalPointerBarriers.cpp - sync pointer buffers --------------===//
//
// triton-tle-insert-local-pointer-barriers: gpu.barrier and cluster barriers
// between conflicting accesses to pointer buffers (TLE's own shared-memory
// region, invisible to Triton's membar). The algorithm is documented with
// the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Transforms/Passes.h"

#include "IndexSets.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "triton-tle-insert-local-pointer-barriers"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEINSERTLOCALPOINTERBARRIERS
#include "TLE/Transforms/Passes.h.inc"

namespace {

// Access kinds (bit flags).
constexpr uint8_t kRead = 1, kWrite = 2, kAtomic = 4;

enum class Barrier : uint8_t { None = 0, CTA = 1, Cluster = 2 };
Barrier maxBarrier(Barrier a, Barrier b) { return a < b ? b : a; }

/// Whether a new access of kind `kind` conflicts with pending `pending`:
/// one of them writes and they are not both atomic.
bool conflicts(uint8_t pending, uint8_t kind) {
  if (kind & (kWrite))
    return pending != 0;
  if (kind & kRead) // a non-atomic read (possibly also atomic: covered)
    return pending & (kWrite | kAtomic);
  return pending & (kRead | kWrite); // atomic
}

/// The address space of a pointer or tensor of pointers; -1 otherwise.
int addressSpaceOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  if (auto ptr = dyn_cast<tt::PointerType>(type))
    return ptr.getAddressSpace();
  return -1;
}
bool isTracked(Type type) {
  int space = addressSpaceOf(type);
  return space == 3 || space == 7;
}

/// Which buffers a pointer may point into: one bit per pointer buffer, the
/// last bit standing for "unknown" (any buffer).
struct Origin {
  llvm::BitVector local, remote;
  bool operator==(const Origin &other) const {
    return local == other.local && remote == other.remote;
  }
  Origin &operator|=(const Origin &other) {
    local |= other.local;
    remote |= other.remote;
    return *this;
  }
};

struct Access {
  llvm::BitVector slots; // buffers touched ("unknown" already expanded)
  uint8_t kind;
  bool remote;
  /// Index of the elements it touches in FunctionAnalysis::footprints, or
  /// -1 (unknown: any element of the slots).
  int footprint = -1;
};

/// Pending local accesses of one slot: (footprint, kinds), sorted by
/// footprint, one entry per footprint (-1: unknown elements).
using Pending = SmallVector<std::pair<int, uint8_t>, 2>;

void addPending(Pending &pending, int footprint, uint8_t kind) {
  auto it = llvm::lower_bound(pending, std::make_pair(footprint, uint8_t(0)));
  if (it != pending.end() && it->first == footprint)
    it->second |= kind;
  else
    pending.insert(it, {footprint, kind});
}

/// Accesses pending per slot.
struct State {
  SmallVector<Pending> cta;    // local accesses since the last CTA barrier
  SmallVector<Pending> local;  // local accesses since the last cluster barrier
  SmallVector<Pending> remote; // remote accesses since the last cluster barrier
  State() = default;
  explicit State(unsigned n) : cta(n), local(n), remote(n) {}
  bool operator==(const State &other) const {
    return cta == other.cta && local == other.local && remote == other.remote;
  }
  State &operator|=(const State &other) {
    for (unsigned i = 0, e = cta.size(); i < e; ++i) {
      for (auto [footprint, kind] : other.cta[i])
        addPending(cta[i], footprint, kind);
      for (auto [footprint, kind] : other.local[i])
        addPending(local[i], footprint, kind);
      for (auto [footprint, kind] : other.remote[i])
        addPending(remote[i], footprint, kind);
    }
    return *this;
  }
  void apply(Barrier barrier) {
    if (barrier == Barrier::None)
      return;
    for (Pending &pending : cta)
      pending.clear();
    if (barrier == Barrier::Cluster) {
      for (Pending &pending : local)
        pending.clear();
      for (Pending &pending : remote)
        pending.clear();
    }
  }
  bool anyRemote() const {
    return llvm::any_of(remote, [](const Pending &p) { return !p.empty(); });
  }
  /// Replaces each footprint f by `map(f)` (-1: unknown elements).
  template <typename Map> void remap(Map map) {
    for (SmallVector<Pending> *list : {&cta, &local, &remote})
      for (Pending &pending : *list) {
        if (llvm::all_of(pending,
                         [&](auto p) { return map(p.first) == p.first; }))
          continue;
        Pending mapped;
        for (auto [footprint, kind] : pending)
          addPending(mapped, map(footprint), kind);
        pending = std::move(mapped);
      }
  }
};

State join(State a, const State &b) {
  a |= b;
  return a;
}

class FunctionAnalysis {
public:
  FunctionAnalysis(FunctionOpInterface func, bool allBuffers)
      : func(func), allBuffers(allBuffers) {}

  void run(unsigned &cta, unsigned &cluster) {
    func->walk([&](AllocOp alloc) {
      if ((allBuffers && alloc.getScope() == MemorySpace::smem) ||
          alloc.isPointerBuffer())
        slotOf[alloc.getResult()] = numSlots++;
    });
    unknownSlot = numSlots++;
    computeOrigins();
    computeAccesses();
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << func.getName() << ": "
                            << numSlots - 1 << " tracked buffers, "
                            << accesses.size() << " ops accessing them\n");
    if (accesses.empty())
      return;
    Region &body = func.getFunctionBody();
    do {
      changed = false;
      visitRegion(body, State(numSlots));
    } while (changed);
    materialize(cta, cluster);
  }

private:
  FunctionOpInterface func;
  /// Track every buffer, not only pointer buffers (option all-buffers).
  bool allBuffers;
  DenseMap<Value, unsigned> slotOf;
  unsigned numSlots = 0, unknownSlot = 0;
  DenseMap<Value, Origin> origins;
  DenseMap<Operation *, SmallVector<Access>> accesses;
  /// The elements of the local tt.load / tt.store accesses whose indices
  /// are known (IndexSets.h), and which pairs are disjoint (cached).
  FootprintAnalysis footprintAnalysis{/*maxElements=*/1 << 16,
                                      /*anyScalar=*/false,
                                      /*loopVariant=*/true};
  std::vector<Footprint> footprints;
  /// Cached disjoint() of (2 * footprint + across CTAs, footprint).
  mutable DenseMap<std::pair<int, int>, bool> disjointPairs;
  /// Cached acrossBackEdge() of (footprint, loop).
  DenseMap<std::pair<int, Operation *>, int> acrossLoop;
  bool hasRemote = false;
  // Barriers to insert before an op, in the order they were decided.
  llvm::MapVector<Operation *, Barrier> decisions;
  bool changed = false;
  /// Ops already warned about (the analysis runs to a fixpoint).
  llvm::SmallPtrSet<Operation *, 4> warned;
  /// Values that provably differ between the CTAs of a cluster (cached).
  DenseMap<Value, bool> ctaDependent;
  // Probing: do not record accesses, only report what a barrier would need.
  bool dryRun = false;
  Barrier probeNeed = Barrier::None;

  //===--------------------------------------------------------------------===//
  // Provenance
  //===--------------------------------------------------------------------===//

  Origin empty() const {
    return {llvm::BitVector(numSlots), llvm::BitVector(numSlots)};
  }
  Origin unknown(Type type) const {
    Origin o = empty();
    (addressSpaceOf(type) == 7 ? o.remote : o.local).set(unknownSlot);
    return o;
  }
  Origin get(Value value) const {
    auto it = origins.find(value);
    return it == origins.end() ? empty() : it->second;
  }

  Origin compute(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *parent = arg.getOwner()->getParentOp();
      unsigned n = arg.getArgNumber();
      if (auto loop = dyn_cast<scf::ForOp>(parent)) {
        if (n == 0)
          return unknown(value.getType());
        Origin o = get(loop.getInitArgs()[n - 1]);
        o |= get(loop.getBody()->getTerminator()->getOperand(n - 1));
        return o;
      }
      if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
        if (arg.getParentRegion() == &loop.getBefore()) {
          Origin o = get(loop.getInits()[n]);
          o |= get(loop.getAfterBody()->getTerminator()->getOperand(n));
          return o;
        }
        return get(loop.getConditionOp().getArgs()[n]);
      }
      return unknown(value.getType());
    }
    auto result = cast<OpResult>(value);
    Operation *op = result.getOwner();
    unsigned n = result.getResultNumber();
    if (auto view = dyn_cast<LocalPointersOp>(op)) {
      Origin o = empty();
      auto it = slotOf.find(view.getBuffer());
      o.local.set(it == slotOf.end() ? unknownSlot : it->second);
      return o;
    }
    if (auto remote = dyn_cast<RemotePointersOp>(op)) {
      Origin src = get(remote.getSrc());
      Origin o = empty();
      o.remote = src.local;
      o.remote |= src.remote;
      return o;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Origin o = get(loop.getInitArgs()[n]);
      o |= get(loop.getBody()->getTerminator()->getOperand(n));
      return o;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      Origin o = empty();
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          o |= get(region->front().getTerminator()->getOperand(n));
      return o;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return get(loop.getConditionOp().getArgs()[n]);
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op)) {
      Origin o = empty();
      bool any = false;
      for (Value operand : op->getOperands())
        if (isTracked(operand.getType())) {
          o |= get(operand);
          any = true;
        }
      return any ? o : unknown(value.getType());
    }
    return unknown(value.getType());
  }

  void computeOrigins() {
    SmallVector<Value> values;
    func->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (isTracked(arg.getType()))
              values.push_back(arg);
      for (Value result : op->getResults())
        if (isTracked(result.getType()))
          values.push_back(result);
    });
    bool again = true;
    while (again) {
      again = false;
      for (Value value : values) {
        Origin o = compute(value);
        auto [it, inserted] = origins.try_emplace(value, o);
        if (inserted || !(it->second == o)) {
          it->second = o;
          again = true;
        }
      }
    }
  }

  //===--------------------------------------------------------------------===//
  // Accesses
  //===--------------------------------------------------------------------===//

  /// `withFootprint`: a plain load or store, whose elements are those of
  /// its pointers (when they are known).
  void addPointerAccess(SmallVector<Access> &list, Value ptr, uint8_t kind,
                        bool withFootprint = false) {
    Origin o = get(ptr);
    for (bool remote : {false, true}) {
      llvm::BitVector slots = remote ? o.remote : o.local;
      if (slots.none())
        continue;
      if (slots.test(unknownSlot))
        slots.set();
      int footprint = -1;
      if (withFootprint && slots.count() == 1)
        if (std::optional<Footprint> fp = footprintAnalysis.compute(ptr)) {
          auto it = slotOf.find(fp->buffer);
          if (it != slotOf.end() && slots.test(it->second)) {
            footprint = footprints.size();
            footprints.push_back(std::move(*fp));
          }
        }
      list.push_back({slots, kind, remote, footprint});
      hasRemote |= remote;
    }
  }

  /// Whether the accesses with footprints `a` and `b` provably touch no
  /// common element (`acrossCTAs`: when made by different CTAs).
  bool provablyDisjoint(int a, int b, bool acrossCTAs) const {
    if (a < 0 || b < 0 || a == b)
      return false;
    auto key =
        std::make_pair(2 * std::min(a, b) + int(acrossCTAs), std::max(a, b));
    auto it = disjointPairs.find(key);
    if (it != disjointPairs.end())
      return it->second;
    bool result = disjoint(footprints[a], footprints[b], acrossCTAs);
    disjointPairs[key] = result;
    return result;
  }

  /// `state` as it reaches the next iteration of `loop` (and leaves it): a
  /// footprint with terms defined inside the loop names other elements
  /// there. When its only such term is the induction variable of an scf.for
  /// with constant bounds, it becomes the union over the iterations (the
  /// term replaced by each value it takes); otherwise unknown (-1).
  void acrossBackEdge(State &state, Operation *loop) {
    state.remap([&](int footprint) {
      if (footprint < 0)
        return footprint;
      auto [it, inserted] = acrossLoop.try_emplace({footprint, loop}, 0);
      if (inserted)
        it->second = !definedIn(footprints[footprint], loop)
                         ? footprint
                         : overIterations(footprint, loop);
      return it->second;
    });
  }

  /// The union of footprint `index` over the iterations of `loop` (see
  /// acrossBackEdge), as a new footprint; -1 when not computable.
  int overIterations(int index, Operation *loop) {
    auto forOp = dyn_cast<scf::ForOp>(loop);
    if (!forOp || forOp.getUnsignedCmp())
      return -1;
    std::optional<int64_t> lb = getConstantIntValue(forOp.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(forOp.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return -1;
    Value iv = forOp.getInductionVar();
    Footprint summary = footprints[index];
    uint32_t coefficient = 0;
    summary.terms.clear();
    for (auto [term, k] : footprints[index].terms) {
      if (term == iv) {
        coefficient = k;
        continue;
      }
      if (definedIn(term, loop))
        return -1; // another value that changes with the iteration
      summary.terms.push_back({term, k});
    }
    int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
    const std::vector<uint32_t> &offsets = footprints[index].offsets;
    if (trips * int64_t(offsets.size()) > (1 << 16))
      return -1;
    summary.offsets.clear();
    for (int64_t t = 0; t < trips; ++t) {
      uint32_t shift = uint32_t(uint64_t(*lb + t * *step) * coefficient);
      for (uint32_t c : offsets)
        summary.offsets.push_back(c + shift);
    }
    llvm::sort(summary.offsets);
    summary.offsets.erase(llvm::unique(summary.offsets), summary.offsets.end());
    llvm::erase_if(summary.residues,
                   [&](const Residue &r) { return r.value == iv; });
    footprints.push_back(std::move(summary));
    return int(footprints.size()) - 1;
  }

  void addBufferAccess(SmallVector<Access> &list, Value buffer, uint8_t kind) {
    auto it = slotOf.find(buffer);
    if (it == slotOf.end())
      return; // a memdesc buffer: Triton synchronizes it
    llvm::BitVector slots(numSlots);
    slots.set(it->second);
    list.push_back({slots, kind, false});
  }

  static bool isAtomic(Operation *op) {
    StringRef name = op->getName().getStringRef();
    return name == "tle.atomic_rmw" || name == "tle.atomic_cas" ||
           isa<tt::AtomicRMWOp, tt::AtomicCASOp>(op);
  }

  /// Read/write flags of `op` on `operand`, from its memory effects.
  static uint8_t effectsOn(Operation *op, Value operand) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface)
      return kRead | kWrite;
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    uint8_t kind = 0;
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (effect.getValue() && effect.getValue() != operand)
        continue;
      if (isa<MemoryEffects::Read>(effect.getEffect()))
        kind |= kRead;
      else if (isa<MemoryEffects::Write>(effect.getEffect()))
        kind |= kWrite;
    }
    return kind;
  }

  void computeAccesses() {
    func->walk([&](Operation *op) {
      SmallVector<Access> list;
      if (auto load = dyn_cast<LocalLoadOp>(op)) {
        addBufferAccess(list, load.getBuffer(), kRead);
      } else if (auto store = dyn_cast<LocalStoreOp>(op)) {
        addBufferAccess(list, store.getBuffer(), kWrite);
      } else if (auto copy = dyn_cast<CopyOp>(op)) {
        addBufferAccess(list, copy.getSrc(), kRead);
        addBufferAccess(list, copy.getDst(), kWrite);
      } else if (isAtomic(op)) {
        for (Value operand : op->getOperands())
          if (isTracked(operand.getType()))
            addPointerAccess(list, operand, kAtomic);
      } else if (auto load = dyn_cast<tt::LoadOp>(op)) {
        if (isTracked(load.getPtr().getType()))
          addPointerAccess(list, load.getPtr(), kRead, /*withFootprint=*/true);
      } else if (auto store = dyn_cast<tt::StoreOp>(op)) {
        if (isTracked(store.getPtr().getType()))
          addPointerAccess(list, store.getPtr(), kWrite,
                           /*withFootprint=*/true);
      } else if (op->getNumRegions() == 0 &&
                 !op->hasTrait<OpTrait::IsTerminator>() &&
                 !isMemoryEffectFree(op)) {
        for (Value operand : op->getOperands())
          if (isTracked(operand.getType()))
            if (uint8_t kind = effectsOn(op, operand))
              addPointerAccess(list, operand, kind);
      }
      if (!list.empty())
        accesses[op] = std::move(list);
    });
  }

  //===--------------------------------------------------------------------===//
  // Dataflow
  //===--------------------------------------------------------------------===//

  /// Whether `access` conflicts with one of `pending` (the elements of
  /// two footprints proved disjoint do not).
  bool conflictsWith(const Pending &pending, const Access &access,
                     bool acrossCTAs) const {
    return llvm::any_of(pending, [&](auto p) {
      return conflicts(p.second, access.kind) &&
             !provablyDisjoint(p.first, access.footprint, acrossCTAs);
    });
  }

  Barrier needed(const Access &access, const State &state) const {
    Barrier need = Barrier::None;
    for (unsigned slot : access.slots.set_bits()) {
      if (access.remote) {
        if (conflictsWith(state.local[slot], access, true) ||
            conflictsWith(state.remote[slot], access, true))
          need = Barrier::Cluster;
      } else {
        if (conflictsWith(state.remote[slot], access, true))
          need = Barrier::Cluster;
        else if (conflictsWith(state.cta[slot], access, false))
          need = maxBarrier(need, Barrier::CTA);
      }
    }
    return need;
  }

  //===--------------------------------------------------------------------===//
  // Cluster-uniform control flow
  //===--------------------------------------------------------------------===//

  /// Whether `value` provably differs between the CTAs of a cluster: it is
  /// computed, through side-effect-free ops without regions (and the
  /// induction variables of scf.for loops with such bounds), from
  /// tt.get_program_id, tle.shard_id or an inline asm reading the CTA's
  /// ids. Loaded values, iter_args and region results end the chain: TLE
  /// cannot tell whether they are the same in every CTA and takes them to
  /// be (a data-dependent branch around a cluster barrier is the user's to
  /// keep cluster-uniform, as around tle.distributed_barrier).
  bool dependsOnCTA(Value value, unsigned depth = 0) {
    auto cached = ctaDependent.find(value);
    if (cached != ctaDependent.end())
      return cached->second;
    bool result = false;
    if (depth < 64) {
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
          result = arg.getArgNumber() == 0 &&
                   (dependsOnCTA(loop.getLowerBound(), depth + 1) ||
                    dependsOnCTA(loop.getUpperBound(), depth + 1) ||
                    dependsOnCTA(loop.getStep(), depth + 1));
      } else {
        Operation *op = value.getDefiningOp();
        if (isa<tt::GetProgramIdOp, ShardIdOp>(op)) {
          result = true;
        } else if (auto asmOp = dyn_cast<tt::ElementwiseInlineAsmOp>(op);
                   asmOp && op->getNumOperands() == 0) {
          StringRef text = asmOp.getAsmString();
          result = text.contains("ctaid") || text.contains("cluster_ctarank");
        } else if (op->getNumRegions() == 0 && isMemoryEffectFree(op)) {
          result = llvm::any_of(op->getOperands(), [&](Value operand) {
            return dependsOnCTA(operand, depth + 1);
          });
        }
      }
    }
    ctaDependent[value] = result;
    return result;
  }

  /// Where a cluster barrier needed before `op` goes: before the outermost
  /// op of the function enclosing `op` whose control flow provably differs
  /// between the CTAs of a cluster (an scf.if whose condition, or an scf.for
  /// whose bounds, `dependsOnCTA`), else before `op`. A cluster barrier
  /// that only some CTAs reach does not synchronize the cluster: it pairs
  /// with the others' next one.
  Operation *clusterUniformPoint(Operation *op) {
    Operation *at = op;
    for (Operation *parent = op->getParentOp();
         parent && parent != func.getOperation();
         parent = parent->getParentOp()) {
      bool divergent = false;
      if (auto branch = dyn_cast<scf::IfOp>(parent))
        divergent = dependsOnCTA(branch.getCondition());
      else if (auto loop = dyn_cast<scf::ForOp>(parent))
        divergent = dependsOnCTA(loop.getLowerBound()) ||
                    dependsOnCTA(loop.getUpperBound()) ||
                    dependsOnCTA(loop.getStep());
      if (divergent)
        at = parent;
    }
    return at;
  }

  /// Needs `need` before `op`: record it (or, probing, report it). A
  /// cluster barrier goes to `clusterUniformPoint(op)`; when one is already
  /// there and `op` still needs it, the conflicting accesses both lie in
  /// control flow some CTAs skip: a warning, and no barrier.
  void require(Operation *op, Barrier need, State &state) {
    if (need == Barrier::None)
      return;
    if (dryRun) {
      probeNeed = maxBarrier(probeNeed, need);
      return;
    }
    Operation *at = op;
    if (need == Barrier::Cluster) {
      at = clusterUniformPoint(op);
      if (at != op && decisions.lookup(at) == Barrier::Cluster) {
        // No placement every CTA reaches orders these accesses: leave them
        // to the user, as FlagTree does, and say so once.
        if (warned.insert(op).second) {
          InFlightDiagnostic diag = op->emitWarning(
              "accesses to a shared-memory buffer through cluster pointers "
              "may conflict here (TLE cannot prove otherwise), but this "
              "point is in control flow that not every CTA of the cluster "
              "runs, where a cluster barrier would pair with the other CTAs' "
              "next one: none is inserted; if they do conflict, synchronize "
              "the cluster with tle.distributed_barrier outside that control "
              "flow");
          diag.attachNote(at->getLoc())
              << "the control flow that depends on the CTA";
        }
        state.apply(need);
        return;
      }
    }
    Barrier &decided = decisions[at];
    if (decided < need) {
      decided = need;
      changed = true;
    }
    state.apply(need);
  }

  /// A cluster barrier, a grid one (every CTA of the launch, the cluster's
  /// among them, with gpu-scope fences), or a sub-mesh one: the user's
  /// sub-mesh barrier is taken to order the remote accesses around it, which
  /// must stay inside the sub-mesh (docs/local-memory.md; a remote access to
  /// a CTA outside it needs a cluster barrier).
  static bool isClusterBarrier(Operation *op) {
    if (isa<DistributedBarrierOp>(op))
      return true; // cluster, grid or submesh: every kind there is
    if (!isa<ttng::ClusterWaitOp>(op))
      return false;
    Operation *prev = op->getPrevNode();
    return prev && isa<ttng::ClusterArriveOp>(prev);
  }

  State visitOp(Operation *op, State state) {
    auto decided = decisions.find(op);
    if (decided != decisions.end())
      state.apply(decided->second);
    if (isa<gpu::BarrierOp>(op))
      state.apply(Barrier::CTA);
    if (isClusterBarrier(op))
      state.apply(Barrier::Cluster);

    auto it = accesses.find(op);
    if (it != accesses.end()) {
      Barrier need = Barrier::None;
      for (const Access &access : it->second)
        need = maxBarrier(need, needed(access, state));
      require(op, need, state);
      if (!dryRun)
        for (const Access &access : it->second)
          for (unsigned slot : access.slots.set_bits()) {
            if (access.remote) {
              addPending(state.remote[slot], access.footprint, access.kind);
            } else {
              addPending(state.cta[slot], access.footprint, access.kind);
              addPending(state.local[slot], access.footprint, access.kind);
            }
          }
    }

    if (isa<tt::ReturnOp>(op) && hasRemote && state.anyRemote())
      require(op, Barrier::Cluster, state);

    if (op->getNumRegions() == 0)
      return state;
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      State out = visitRegion(branch.getThenRegion(), state);
      return join(out, branch.getElseRegion().empty()
                           ? state
                           : visitRegion(branch.getElseRegion(), state));
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return visitLoop(op, {&loop.getRegion()}, state);
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return visitLoop(op, {&loop.getBefore(), &loop.getAfter()}, state);
    return visitAnyOrder(op->getRegions(), state);
  }

  State visitBlock(Block &block, State state) {
    for (Operation &op : block)
      state = visitOp(&op, std::move(state));
    return state;
  }

  State visitRegion(Region &region, State state) {
    if (region.empty())
      return state;
    if (region.hasOneBlock())
      return visitBlock(region.front(), std::move(state));
    // Unstructured: blocks in any order, any number of times.
    State entry = state;
    while (true) {
      State out = entry;
      for (Block &block : region)
        out |= visitBlock(block, entry);
      if (out == entry)
        return entry;
      entry = std::move(out);
    }
  }

  State visitAnyOrder(MutableArrayRef<Region> regions, State state) {
    State entry = state;
    while (true) {
      State out = entry;
      for (Region &region : regions)
        out |= visitRegion(region, entry);
      if (out == entry)
        return entry;
      entry = std::move(out);
    }
  }

  /// One trip through `regions` in sequence (a for body; a while's before
  /// then after region). For a while loop the state at the exit (after the
  /// before region) goes to `exit`.
  State visitTrip(ArrayRef<Region *> regions, State state, State *exit) {
    for (auto [i, region] : llvm::enumerate(regions)) {
      state = visitRegion(*region, std::move(state));
      if (exit && i == 0)
        *exit = state;
    }
    return state;
  }

  Barrier probe(ArrayRef<Region *> regions, const State &state) {
    bool savedDry = dryRun;
    Barrier savedNeed = probeNeed;
    dryRun = true;
    probeNeed = Barrier::None;
    visitTrip(regions, state, nullptr);
    Barrier need = probeNeed;
    dryRun = savedDry;
    probeNeed = savedNeed;
    return need;
  }

  State visitLoop(Operation *loop, ArrayRef<Region *> regions, State in) {
    bool isWhile = regions.size() == 2;
    if (!dryRun) {
      // A conflict with what precedes the loop: one barrier before the loop.
      require(loop, probe(regions, in), in);
      // A conflict across the back edge: one barrier at the end of the body.
      State end = visitTrip(regions, in, nullptr);
      acrossBackEdge(end, loop);
      Operation *yield = regions.back()->front().getTerminator();
      require(yield, probe(regions, end), end);
    }
    State entry = in;
    while (true) {
      State exit;
      State end = visitTrip(regions, entry, isWhile ? &exit : nullptr);
      acrossBackEdge(end, loop);
      State next = join(in, end);
      if (next == entry)
        return isWhile ? exit : entry;
      entry = std::move(next);
    }
  }

  /// Inserts the barriers decided; counts them in `cta` / `cluster`.
  void materialize(unsigned &cta, unsigned &cluster) {
    for (auto [op, barrier] : decisions) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      if (barrier == Barrier::CTA) {
        LLVM_DEBUG(llvm::dbgs()
                   << DEBUG_TYPE ": gpu.barrier before " << op->getName()
                   << " at " << loc
                   << ": an access of it conflicts with an earlier one of "
                      "this CTA's threads since the last barrier\n");
        gpu::BarrierOp::create(builder, loc);
        ++cta;
      } else if (barrier == Barrier::Cluster) {
        LLVM_DEBUG(llvm::dbgs()
                   << DEBUG_TYPE ": cluster barrier before " << op->getName()
                   << " at " << loc
                   << ": an access of it conflicts with one through cluster "
                      "pointers since the last cluster barrier\n");
        ttng::ClusterArriveOp::create(builder, loc, /*relaxed=*/false);
        ttng::ClusterWaitOp::create(builder, loc);
        ++cluster;
      }
    }
  }
};

struct InsertLocalPointerBarriersPass
    : public impl::TLEInsertLocalPointerBarriersBase<
          InsertLocalPointerBarriersPass> {
  using TLEInsertLocalPointerBarriersBase::TLEInsertLocalPointerBarriersBase;

  void runOnOperation() override {
    unsigned cta = 0, cluster = 0;
    getOperation()->walk([&](FunctionOpInterface func) {
      if (!func.isExternal())
        FunctionAnalysis(func, allBuffers).run(cta, cluster);
    });
    numCTABarriers += cta;
    numClusterBarriers += cluster;
  }
};
} // namespace
} // namespace mlir::tle
