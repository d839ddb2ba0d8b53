//===- LowerDistributed.cpp - sharded tensors and reshards on TTGIR -------===//
//
// Pass `triton-tle-lower-distributed` (include/TLE/Conversion/Passes.td,
// docs/distributed.md). Runs right after triton-tle-raise-markers, so that
// the TLE ops it creates (buffers, local/remote pointers, shard ids, cluster
// barriers) go through the rest of TLE's TTGIR pipeline: barrier insertion
// and triton-tle-lower-local-memory.
//
// - tle.make_sharded_tensor: erased (its operand is the local block).
// - tle.reshard whose changed mesh axes are block_cluster axes (distributed
//   shared memory): each CTA stores its block into a fresh shared buffer, a
//   cluster barrier, then each CTA *pulls* every element of its target block
//   from the CTA that holds it (one `mapa` per element: a tensor of shard
//   ids), summing over the axes whose partial sums are resolved, in a fixed
//   order (so every CTA computes bitwise the same sums).
// - tle.reshard whose changed axes are device axes (multi-GPU): the same
//   pull over global memory through a symmetric workspace, with two
//   flag barriers (arrive before the reads, depart after them) at system
//   scope; peers are reached through tle.remote_pointers device with the
//   peer's byte offset.
//
//===----------------------------------------------------------------------===//
#include "AxisIndex.h"
#include "LocalMemory.h"
#include "TLE/Conversion/Passes.h"
#include "TLE/Conversion/TritonBuilders.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLELOWERDISTRIBUTED
#include "TLE/Conversion/Passes.h.inc"
} // namespace mlir::tle

using namespace mlir;
using namespace mlir::tle;
using local_memory::intConstant;

namespace {
using interop::kMeshLevelBlockCluster;
using interop::kMeshLevelDevice;

/// What one mesh axis does in a reshard.
struct AxisRole {
  StringRef name;
  StringRef level;
  int64_t size;
  std::optional<unsigned> srcDim, tgtDim;
  bool srcPartial, tgtPartial;
  bool changed() const { return srcDim != tgtDim || srcPartial != tgtPartial; }
  /// The partial sums over this axis are added up by the reshard.
  bool reduced() const { return srcPartial && !tgtPartial; }
};

struct Reshard {
  ReshardOp op;
  DeviceMeshAttr mesh;
  SmallVector<AxisRole> axes;
  SmallVector<int64_t> shape, srcLocal, tgtLocal;
  StringRef level; // of the changed axes
};

/// Row-major linear index of `coords` (scalars or tensors, same shape) over
/// `sizes`; `like` gives the type of the constants.
Value linearize(OpBuilder &b, Location loc, ArrayRef<Value> coords,
                ArrayRef<int64_t> sizes, Type like) {
  Value linear;
  for (auto [coord, size] : llvm::zip(coords, sizes)) {
    if (!linear) {
      linear = coord;
      continue;
    }
    linear =
        arith::MulIOp::create(b, loc, linear, intConstant(b, loc, like, size));
    linear = arith::AddIOp::create(b, loc, linear, coord);
  }
  return linear ? linear : intConstant(b, loc, like, 0);
}

Value splatTo(OpBuilder &b, Location loc, Value scalar, Type like) {
  return local_memory::splatLike(b, loc, scalar, like);
}

class Lowering {
public:
  Lowering(Reshard &r, int64_t waitLimit)
      : r(r), op(r.op), loc(op.getLoc()), waitLimit(waitLimit) {}

  LogicalResult run();

private:
  /// The calling shard's coordinate along mesh axis `i` (an i32 scalar).
  Value selfCoord(OpBuilder &b, unsigned i);
  /// For every element of the target block: per mesh axis, the coordinate
  /// of the shard that holds it (a tensor, or null = not determined by the
  /// element: the caller's own coordinate or a reduction variable), and the
  /// element's index in that shard's block, per dimension.
  void sourceOf(OpBuilder &b, RankedTensorType indexType,
                SmallVectorImpl<Value> &axisCoords,
                SmallVectorImpl<Value> &offsets);
  /// The peer's rank at the reshard's level for reduction combination
  /// `combo` (values of the reduced axes, in mesh order).
  Value peerRank(OpBuilder &b, ArrayRef<Value> axisCoords,
                 ArrayRef<int64_t> combo, Type like);
  /// The caller's rank in its thread-block cluster (row-major over the
  /// mesh's block_cluster axes, as tle.shard_id decomposes it).
  Value clusterRank(OpBuilder &b);
  /// Whether any target element lives in another shard.
  bool needsPeers() const;
  /// Whether the peer an element comes from depends on the element (it
  /// does when a changed axis splits the source).
  bool peerVaries(ArrayRef<Value> axisCoords) const;
  Value accumulate(OpBuilder &b, Value acc, Value value);
  SmallVector<SmallVector<int64_t>> reductionCombos() const;

  LogicalResult lowerCluster();
  LogicalResult lowerDevice();
  /// Spin until the flag at `address` (i64) is >= the op's epoch
  /// (`ld.acquire.sys`). With a wait limit, give up after that many polls
  /// and fail a `tt.assert` naming the peer `q` and the phase.
  void waitForFlag(OpBuilder &b, Value address, int64_t q, int64_t phase);

  Reshard &r;
  ReshardOp op;
  Location loc;
  /// Polls before a flag wait gives up (0: wait for ever).
  int64_t waitLimit;
  DenseMap<unsigned, Value> selfCoords;
};

Value Lowering::selfCoord(OpBuilder &b, unsigned i) {
  if (Value v = selfCoords.lookup(i))
    return v;
  const AxisRole &axis = r.axes[i];
  Value coord;
  if (axis.level == kMeshLevelDevice && op.hasDeviceContext()) {
    // The device rank, decomposed row-major over the mesh's device axes.
    int64_t inner = 1;
    for (unsigned j = i + 1; j < r.axes.size(); ++j)
      if (r.axes[j].level == kMeshLevelDevice)
        inner *= r.axes[j].size;
    Type i32 = b.getI32Type();
    coord = op.getDeviceRank();
    if (inner != 1)
      coord = arith::DivUIOp::create(b, loc, coord,
                                     intConstant(b, loc, i32, inner));
    coord = arith::RemUIOp::create(b, loc, coord,
                                   intConstant(b, loc, i32, axis.size));
  } else {
    coord = ShardIdOp::create(b, loc, b.getI32Type(), r.mesh,
                              b.getStringAttr(axis.name));
  }
  selfCoords[i] = coord;
  return coord;
}

bool Lowering::peerVaries(ArrayRef<Value> axisCoords) const {
  for (auto [i, axis] : llvm::enumerate(r.axes))
    if (axis.level == r.level && !axis.reduced() && axis.changed() &&
        axisCoords[i])
      return true;
  return false;
}

bool Lowering::needsPeers() const {
  for (const AxisRole &axis : r.axes)
    if (axis.changed() && (axis.srcDim || axis.reduced()))
      return true;
  return false;
}

void Lowering::sourceOf(OpBuilder &b, RankedTensorType indexType,
                        SmallVectorImpl<Value> &axisCoords,
                        SmallVectorImpl<Value> &offsets) {
  ShardingAttr source = op.getSource(), target = op.getTarget();
  unsigned rank = r.shape.size();
  axisCoords.assign(r.axes.size(), Value());
  offsets.clear();
  for (unsigned d = 0; d < rank; ++d) {
    Value t = conversion::buildAxisIndex(b, loc, indexType, d);
    // Global index: target shard number along d times the block, plus t.
    ArrayAttr tgtAxes = target.getSplit()[d];
    if (!tgtAxes.empty()) {
      SmallVector<Value> coords;
      SmallVector<int64_t> sizes;
      for (Attribute name : tgtAxes) {
        unsigned i = *r.mesh.getAxisIndex(cast<StringAttr>(name).getValue());
        coords.push_back(selfCoord(b, i));
        sizes.push_back(r.axes[i].size);
      }
      Value shard = linearize(b, loc, coords, sizes, b.getI32Type());
      Value start = arith::MulIOp::create(
          b, loc, shard, intConstant(b, loc, b.getI32Type(), r.tgtLocal[d]));
      t = arith::AddIOp::create(b, loc, t, splatTo(b, loc, start, indexType));
    }
    ArrayAttr srcAxes = source.getSplit()[d];
    if (srcAxes.empty()) {
      offsets.push_back(t);
      continue;
    }
    Value block = intConstant(b, loc, indexType, r.srcLocal[d]);
    Value shard = arith::DivUIOp::create(b, loc, t, block);
    offsets.push_back(arith::RemUIOp::create(b, loc, t, block));
    // Delinearize the source shard number over the dimension's axes.
    int64_t inner = 1;
    for (int64_t k = srcAxes.size() - 1; k >= 0; --k) {
      unsigned i =
          *r.mesh.getAxisIndex(cast<StringAttr>(srcAxes[k]).getValue());
      Value c = shard;
      if (inner != 1)
        c = arith::DivUIOp::create(b, loc, c,
                                   intConstant(b, loc, indexType, inner));
      if (k != 0)
        c = arith::RemUIOp::create(
            b, loc, c, intConstant(b, loc, indexType, r.axes[i].size));
      axisCoords[i] = c;
      inner *= r.axes[i].size;
    }
  }
}

Value Lowering::peerRank(OpBuilder &b, ArrayRef<Value> axisCoords,
                         ArrayRef<int64_t> combo, Type like) {
  SmallVector<Value> coords;
  SmallVector<int64_t> sizes;
  unsigned next = 0;
  for (auto [i, axis] : llvm::enumerate(r.axes)) {
    if (axis.level != r.level)
      continue;
    Value c;
    if (axis.reduced())
      c = intConstant(b, loc, like, combo[next++]);
    else if (axis.changed() && axisCoords[i])
      c = axisCoords[i];
    else // unchanged, or the source replicates it: the caller's own copy
      c = splatTo(b, loc, selfCoord(b, i), like);
    coords.push_back(c);
    sizes.push_back(axis.size);
  }
  return linearize(b, loc, coords, sizes, like);
}

SmallVector<SmallVector<int64_t>> Lowering::reductionCombos() const {
  SmallVector<SmallVector<int64_t>> combos{{}};
  for (const AxisRole &axis : r.axes) {
    if (axis.level != r.level || !axis.reduced())
      continue;
    SmallVector<SmallVector<int64_t>> grown;
    for (const auto &combo : combos)
      for (int64_t v = 0; v < axis.size; ++v) {
        grown.push_back(combo);
        grown.back().push_back(v);
      }
    combos = std::move(grown);
  }
  return combos;
}

Value Lowering::accumulate(OpBuilder &b, Value acc, Value value) {
  if (!acc)
    return value;
  if (isa<FloatType>(getElementTypeOrSelf(value.getType())))
    return arith::AddFOp::create(b, loc, acc, value);
  return arith::AddIOp::create(b, loc, acc, value);
}

/// A zero of `type` (a tensor).
Value zeros(OpBuilder &b, Location loc, RankedTensorType type) {
  Type element = type.getElementType();
  TypedAttr zero = isa<FloatType>(element)
                       ? TypedAttr(b.getFloatAttr(element, 0.0))
                       : TypedAttr(b.getIntegerAttr(element, 0));
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, zero));
}

Value load(OpBuilder &b, Location loc, Value ptrs, Value mask, Value other,
           tt::CacheModifier cache = tt::CacheModifier::NONE) {
  MLIRContext *ctx = b.getContext();
  return tt::LoadOp::create(
      b, loc, ptrs, mask, mask ? other : Value(), b.getDenseI32ArrayAttr({}),
      tt::PaddingOptionAttr(), tt::CacheModifierAttr::get(ctx, cache),
      tt::EvictionPolicyAttr::get(ctx, tt::EvictionPolicy::NORMAL),
      b.getBoolAttr(false));
}

LogicalResult Lowering::lowerCluster() {
  MLIRContext *ctx = op.getContext();
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Type element = srcType.getElementType();
  Type i32 = IntegerType::get(ctx, 32);
  RankedTensorType indexType = resultType.clone(i32);
  bool peers = needsPeers();

  // The buffer: a fresh row-major shared buffer of the source block,
  // allocated at the function entry.
  Value buffer = local_memory::allocAtEntry(op, srcType.getShape(), element);

  OpBuilder b(op);
  LocalStoreOp::create(b, loc, op.getSrc(), buffer);
  if (peers) // CTA barriers around local-only reads come from the barrier pass
    DistributedBarrierOp::create(
        b, loc,
        DistributedGroupKindAttr::get(ctx, DistributedGroupKind::cluster),
        IntegerAttr(), DenseI64ArrayAttr(), ArrayAttr(), DeviceMeshAttr(),
        DictionaryAttr());

  SmallVector<Value> axisCoords, offsets;
  sourceOf(b, indexType, axisCoords, offsets);
  auto localPtrType =
      resultType.clone(tt::PointerType::get(element, /*addressSpace=*/3));
  Value local = LocalPointersOp::create(b, loc, localPtrType, buffer, offsets);

  Value mask, other;
  if (std::optional<int64_t> root = op.getRoot()) {
    Value me = clusterRank(b);
    Value isRoot = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, me,
                                         intConstant(b, loc, i32, *root));
    mask = tt::SplatOp::create(b, loc, resultType.clone(b.getI1Type()), isRoot);
    other = zeros(b, loc, resultType);
  }

  // Peers are reached through one mapa of the buffer's base per load (the
  // accesses stay contiguous and vectorize): with the peer the same for
  // every element, one load; with the peer varying per element (gathers),
  // one load per CTA of the cluster, masked to the elements it holds.
  auto remoteType =
      resultType.clone(tt::PointerType::get(element, /*addressSpace=*/7));
  auto remote = [&](Value shard) -> Value {
    return RemotePointersOp::create(
        b, loc, remoteType, local, shard,
        RemoteSpaceAttr::get(ctx, RemoteSpace::cluster), Value());
  };
  bool varies = peerVaries(axisCoords);
  int64_t ctas = r.mesh.getLevelSize(kMeshLevelBlockCluster);
  Value acc;
  for (ArrayRef<int64_t> combo : reductionCombos()) {
    if (!peers) {
      acc = accumulate(b, acc, load(b, loc, local, mask, other));
      continue;
    }
    if (!varies) {
      Value peer = peerRank(b, axisCoords, combo, i32);
      acc = accumulate(b, acc, load(b, loc, remote(peer), mask, other));
      continue;
    }
    Value peer = peerRank(b, axisCoords, combo, indexType);
    Value zero = other ? other : zeros(b, loc, resultType);
    Value value;
    for (int64_t q = 0; q < ctas; ++q) {
      Value hit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, peer,
                                        intConstant(b, loc, indexType, q));
      Value m = mask ? arith::AndIOp::create(b, loc, mask, hit) : hit;
      Value v = load(b, loc, remote(intConstant(b, loc, i32, q)), m, zero);
      value = value ? arith::SelectOp::create(b, loc, hit, v, value) : v;
    }
    acc = accumulate(b, acc, value);
  }
  op.getResult().replaceAllUsesWith(acc);
  op.erase();
  return success();
}

Value Lowering::clusterRank(OpBuilder &b) {
  SmallVector<Value> coords;
  SmallVector<int64_t> sizes;
  for (auto [i, axis] : llvm::enumerate(r.axes))
    if (axis.level == kMeshLevelBlockCluster) {
      coords.push_back(selfCoord(b, i));
      sizes.push_back(axis.size);
    }
  return linearize(b, loc, coords, sizes, b.getI32Type());
}

/// A scalar `tt.elementwise_inline_asm` with one i32 result (not pure).
Value scalarAsm(OpBuilder &b, Location loc, StringRef asmString,
                StringRef constraints, ValueRange operands) {
  return tt::ElementwiseInlineAsmOp::create(
             b, loc, TypeRange{b.getI32Type()}, asmString, constraints,
             /*pure=*/false, /*packed_element=*/1, operands)
      ->getResult(0);
}

/// Row-major offsets of `indices` in a block of `shape`.
Value rowMajor(OpBuilder &b, Location loc, ArrayRef<Value> indices,
               ArrayRef<int64_t> shape) {
  return linearize(b, loc, indices, shape, indices.front().getType());
}

LogicalResult Lowering::lowerDevice() {
  MLIRContext *ctx = op.getContext();
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  Type element = srcType.getElementType();
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  RankedTensorType indexType = resultType.clone(i32);
  int64_t devices = r.mesh.getLevelSize(kMeshLevelDevice);
  int64_t blockElems = 1;
  for (int64_t size : r.srcLocal)
    blockElems *= size;
  OpBuilder b(op);

  // The program's slot in the workspace and in the flag arrays:
  // pid = x + nx * (y + ny * z).
  auto pidOf = [&](tt::ProgramIDDim dim) -> Value {
    return tt::GetProgramIdOp::create(b, loc, i32, dim);
  };
  auto numOf = [&](tt::ProgramIDDim dim) -> Value {
    return tt::GetNumProgramsOp::create(b, loc, i32, dim);
  };
  Value pid = arith::AddIOp::create(
      b, loc, pidOf(tt::ProgramIDDim::Y),
      arith::MulIOp::create(b, loc, numOf(tt::ProgramIDDim::Y),
                            pidOf(tt::ProgramIDDim::Z)));
  pid = arith::AddIOp::create(
      b, loc, pidOf(tt::ProgramIDDim::X),
      arith::MulIOp::create(b, loc, numOf(tt::ProgramIDDim::X), pid));
  Value slot = tt::AddPtrOp::create(
      b, loc, op.getWorkspace().getType(), op.getWorkspace(),
      arith::MulIOp::create(b, loc, pid, intConstant(b, loc, i32, blockElems)));

  // 1. This device's block into its slot of its own workspace.
  {
    RankedTensorType srcIndex = srcType.clone(i32);
    SmallVector<Value> idx;
    for (unsigned d = 0; d < r.shape.size(); ++d)
      idx.push_back(conversion::buildAxisIndex(b, loc, srcIndex, d));
    Value offs = rowMajor(b, loc, idx, r.srcLocal);
    auto ptrType = srcType.clone(op.getWorkspace().getType());
    Value ptrs = tt::AddPtrOp::create(
        b, loc, ptrType, tt::SplatOp::create(b, loc, ptrType, slot), offs);
    createPlainStore(b, loc, ptrs, op.getSrc());
  }

  // Peer byte offsets, loaded once.
  SmallVector<Value> peerOffset;
  for (int64_t q = 0; q < devices; ++q) {
    Value p =
        tt::AddPtrOp::create(b, loc, op.getPeerOffsets().getType(),
                             op.getPeerOffsets(), intConstant(b, loc, i32, q));
    peerOffset.push_back(createPlainLoad(b, loc, p));
  }
  Value myRank = op.getDeviceRank();
  Value flagBase = tt::PtrToIntOp::create(b, loc, i64, op.getFlags());

  // A flag barrier of every device's program `pid`, phase 0 (arrive: the
  // blocks are written) or 1 (depart: every read is done). Each CTA writes
  // `epoch` into flag [(pid * 2 + phase) * D + myRank] of every device
  // (itself included; release at system scope, by thread 0 after a CTA
  // barrier) and every thread waits until its own D flags reach `epoch`
  // (acquire at system scope).
  auto flagBarrier = [&](int64_t phase) {
    gpu::BarrierOp::create(b, loc);
    Value row = arith::MulIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, pid, intConstant(b, loc, i32, 2)),
            intConstant(b, loc, i32, phase)),
        intConstant(b, loc, i32, devices));
    auto flagAddress = [&](Value index) -> Value {
      Value bytes = arith::MulIOp::create(
          b, loc, arith::ExtUIOp::create(b, loc, i64, index),
          intConstant(b, loc, i64, 4));
      return arith::AddIOp::create(b, loc, flagBase, bytes);
    };
    Value tid = local_memory::buildScalarAsm(b, loc, "mov.u32 $0, %tid.x;");
    Value mine = flagAddress(arith::AddIOp::create(b, loc, row, myRank));
    for (int64_t q = 0; q < devices; ++q) {
      Value remote = arith::AddIOp::create(b, loc, mine, peerOffset[q]);
      scalarAsm(b, loc,
                "{ .reg .pred %tle_p; setp.eq.u32 %tle_p, $1, 0; "
                "@%tle_p fence.acq_rel.sys; "
                "@%tle_p st.relaxed.sys.global.b32 [$2], $3; mov.u32 $0, 0; }",
                "=r,r,l,r", ValueRange{tid, remote, op.getEpoch()});
    }
    for (int64_t q = 0; q < devices; ++q) {
      Value address = flagAddress(
          arith::AddIOp::create(b, loc, row, intConstant(b, loc, i32, q)));
      waitForFlag(b, address, q, phase);
    }
  };

  // 2. Every device's block is written.
  flagBarrier(0);

  // 3. Pull every element of the target block from the device holding it.
  SmallVector<Value> axisCoords, offsets;
  sourceOf(b, indexType, axisCoords, offsets);
  auto ptrType = resultType.clone(op.getWorkspace().getType());
  Value local = tt::AddPtrOp::create(b, loc, ptrType,
                                     tt::SplatOp::create(b, loc, ptrType, slot),
                                     rowMajor(b, loc, offsets, r.srcLocal));
  Value zero = zeros(b, loc, resultType);
  Value acc;
  for (ArrayRef<int64_t> combo : reductionCombos()) {
    Value peer = peerRank(b, axisCoords, combo, indexType);
    Value value;
    for (int64_t q = 0; q < devices; ++q) {
      Value ptrs = RemotePointersOp::create(
          b, loc, ptrType, local, intConstant(b, loc, i32, q),
          RemoteSpaceAttr::get(ctx, RemoteSpace::device), peerOffset[q]);
      Value hit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, peer,
                                        intConstant(b, loc, indexType, q));
      // A plain (weak) load: this thread's acquire of the peer's flag makes
      // the peer's block visible (PTX memory model).
      Value v = load(b, loc, ptrs, hit, zero);
      value = value ? arith::SelectOp::create(b, loc, hit, v, value) : v;
    }
    acc = accumulate(b, acc, value);
  }

  // 4. Nobody reads this device's workspace any more: the next reshard may
  // overwrite it.
  flagBarrier(1);
  op.getResult().replaceAllUsesWith(acc);
  op.erase();
  return success();
}

void Lowering::waitForFlag(OpBuilder &b, Value address, int64_t q,
                           int64_t phase) {
  Type i32 = b.getI32Type();
  auto poll = [&](OpBuilder &wb, Location wl) {
    Value seen = scalarAsm(wb, wl, "ld.acquire.sys.global.b32 $0, [$1];",
                           "=r,l", ValueRange{address});
    return arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt, seen,
                                 op.getEpoch());
  };
  if (waitLimit <= 0) {
    scf::WhileOp::create(
        b, loc, TypeRange{}, ValueRange{},
        [&](OpBuilder &wb, Location wl, ValueRange) {
          scf::ConditionOp::create(wb, wl, poll(wb, wl), ValueRange{});
        },
        [&](OpBuilder &wb, Location wl, ValueRange) {
          scf::YieldOp::create(wb, wl);
        });
    return;
  }
  // Debug mode: (polls, still waiting) through the loop; the loop ends when
  // the flag arrived or the polls ran out.
  Type i1 = b.getI1Type();
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i32, i1},
      ValueRange{intConstant(b, loc, i32, 0),
                 arith::ConstantIntOp::create(b, loc, i1, 1)},
      [&](OpBuilder &wb, Location wl, ValueRange args) {
        Value waiting = poll(wb, wl);
        Value left =
            arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt, args[0],
                                  intConstant(wb, wl, i32, waitLimit));
        Value go = arith::AndIOp::create(wb, wl, waiting, left);
        scf::ConditionOp::create(wb, wl, go, ValueRange{args[0], waiting});
      },
      [&](OpBuilder &wb, Location wl, ValueRange args) {
        Value next =
            arith::AddIOp::create(wb, wl, args[0], intConstant(wb, wl, i32, 1));
        scf::YieldOp::create(
            wb, wl,
            ValueRange{next, arith::ConstantIntOp::create(wb, wl, i1, 1)});
      });
  Value arrived = arith::XOrIOp::create(
      b, loc, loop.getResult(1), arith::ConstantIntOp::create(b, loc, i1, 1));
  std::string message =
      ("TLE device wait timed out: tle.reshard's " +
       Twine(phase == 0 ? "arrive" : "depart") + " flag of device " + Twine(q) +
       " did not reach this launch's epoch after " + Twine(waitLimit) +
       " polls (a peer that did not launch this kernel, launched another "
       "one, or a reused epoch)")
          .str();
  tt::AssertOp::create(b, loc, arrived, b.getStringAttr(message));
}

LogicalResult Lowering::run() {
  // The level whose axes change.
  SmallVector<StringRef> levels;
  for (const AxisRole &axis : r.axes) {
    if (!axis.changed())
      continue;
    if (axis.level != kMeshLevelBlockCluster && axis.level != kMeshLevelDevice)
      return op.emitOpError("changes the layout over mesh axis \"")
             << axis.name << "\", "
             << (axis.level.empty()
                     ? std::string("which has no level (the mesh has no "
                                   "`levels`)")
                     : ("at level \"" + axis.level + "\"").str())
             << "; TLE reshards block_cluster axes (distributed shared "
                "memory) and device axes (symmetric memory)";
    if (!llvm::is_contained(levels, axis.level))
      levels.push_back(axis.level);
  }
  if (levels.size() > 1)
    return op.emitOpError("changes the layout over block_cluster and device "
                          "axes at once; reshard one level at a time");
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  if (levels.empty() && !op.getRoot()) {
    Value src = op.getSrc();
    if (src.getType() != resultType) {
      OpBuilder b(op);
      src = ttg::ConvertLayoutOp::create(b, op.getLoc(), resultType, src);
    }
    op.getResult().replaceAllUsesWith(src);
    op.erase();
    return success();
  }
  if (!resultType.getEncoding() ||
      !cast<RankedTensorType>(op.getSrc().getType()).getEncoding())
    return op.emitOpError("is lowered on TTGIR: its tensors need an encoding");
  r.level = levels.empty() ? StringRef(kMeshLevelBlockCluster) : levels.front();
  if (r.level == kMeshLevelDevice) {
    if (!op.hasDeviceContext())
      return op.emitOpError("changes the layout over device axes, which needs "
                            "the device context (workspace, flags, peer "
                            "offsets, rank, epoch; tle.device_context in "
                            "Python)");
    if (op.getRoot())
      return op.emitOpError("root names a CTA of the cluster; a reshard over "
                            "device axes has no root");
    return lowerDevice();
  }
  // Cluster: materialize the mesh's cluster shard ids, so the module is a
  // cluster module (tle.cluster_size) even when no coordinate is needed.
  OpBuilder b(op);
  for (auto [i, axis] : llvm::enumerate(r.axes))
    if (axis.level == kMeshLevelBlockCluster)
      selfCoord(b, i);
  return lowerCluster();
}

FailureOr<Reshard> analyze(ReshardOp op) {
  Reshard r;
  r.op = op;
  r.mesh = op.getSource().getMesh();
  r.shape.assign(op.getShape().begin(), op.getShape().end());
  r.srcLocal = op.getSource().getLocalShape(r.shape);
  r.tgtLocal = op.getTarget().getLocalShape(r.shape);
  for (auto [i, name] : llvm::enumerate(r.mesh.getAxes())) {
    AxisRole role;
    role.name = name.getValue();
    role.level = r.mesh.getAxisLevel(i);
    role.size = r.mesh.getShape()[i];
    role.srcDim = op.getSource().getSplitDim(role.name);
    role.tgtDim = op.getTarget().getSplitDim(role.name);
    role.srcPartial = op.getSource().isPartial(role.name);
    role.tgtPartial = op.getTarget().isPartial(role.name);
    r.axes.push_back(role);
  }
  for (int64_t size : r.shape)
    if (ShapedType::isDynamic(size))
      return op.emitOpError("needs a static shape");
  return r;
}

struct LowerDistributedPass
    : public mlir::tle::impl::TLELowerDistributedBase<LowerDistributedPass> {
  using TLELowerDistributedBase::TLELowerDistributedBase;
  void runOnOperation() override {
    SmallVector<MakeShardedTensorOp> makes;
    SmallVector<ReshardOp> reshards;
    getOperation()->walk([&](Operation *op) {
      if (auto make = dyn_cast<MakeShardedTensorOp>(op))
        makes.push_back(make);
      else if (auto reshard = dyn_cast<ReshardOp>(op))
        reshards.push_back(reshard);
    });
    for (MakeShardedTensorOp make : makes) {
      make.getResult().replaceAllUsesWith(make.getSrc());
      make.erase();
    }
    bool ok = true;
    for (ReshardOp op : reshards) {
      FailureOr<Reshard> r = analyze(op);
      if (failed(r) || failed(Lowering(*r, waitLimit).run()))
        ok = false;
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
