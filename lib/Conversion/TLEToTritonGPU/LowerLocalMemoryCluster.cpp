//===- LowerLocalMemoryCluster.cpp - thread-block cluster ops -------------===//
//
// - tle.remote_pointers cluster: the 32-bit shared address goes through
//   `mapa.shared::cluster.u32` with the target CTA rank, then back to a
//   `!tt.ptr<T, 7>` (a source already in address space 7 is re-targeted:
//   the source of a remote_pointers is taken, else mapa maps the
//   shared::cluster address itself); device: the byte offset is added to
//   the address.
//   Pointers `splat(base) + offsets` into one CTA or GPU translate only
//   the base (one mapa; base + offset), so their accesses still vectorize.
// - tle.shard_id on a block_cluster axis: %cluster_ctarank decomposed
//   row-major over the mesh's block_cluster axes.
// - tle.distributed_barrier cluster: ttng.cluster_arrive + ttng.cluster_wait;
//   grid: CTA barriers around the marker the llir finish makes a barrier of
//   every CTA of the launch (TLE/Target/LLVMIR/GridBarrier.h).
// - tle.distributed_barrier submesh: an mbarrier per CTA, arrived on by every
//   CTA of the group through mapa (lowerSubmeshBarriers).
// - Program ids: a program is a CTA (FlagTree's meaning). A cluster of
//   shape (cx, cy, cz) with cy * cz > 1 is launched along x (Triton 3.6's
//   launcher); the program ids become those of a (cx, cy, cz) cluster
//   launch (remapProgramIds).
//
//===----------------------------------------------------------------------===//
#include "LocalMemory.h"
#include "TargetCheck.h"

#include "TLE/Target/LLVMIR/GridBarrier.h"

#include "TLE/Interop/Triton/ModuleContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tle;
using namespace mlir::tle::local_memory;

using interop::kMeshLevelBlockCluster;

/// FlagTree's launch shape of `mesh`'s cluster: its block_cluster axes,
/// outermost first, as (x, y, z); more than three along x.
static std::array<int64_t, 3> clusterDims(DeviceMeshAttr mesh) {
  SmallVector<int64_t, 3> axes;
  for (unsigned i = 0, e = mesh.getShape().size(); i < e; ++i)
    if (mesh.getAxisLevel(i) == kMeshLevelBlockCluster)
      axes.push_back(mesh.getShape()[i]);
  std::array<int64_t, 3> dims = {1, 1, 1};
  if (axes.size() > 3) {
    dims[0] = mesh.getLevelSize(kMeshLevelBlockCluster);
    return dims;
  }
  for (auto [i, size] : llvm::enumerate(axes))
    dims[i] = size;
  return dims;
}

static std::string formatDims(const std::array<int64_t, 3> &dims) {
  return "(" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " +
         std::to_string(dims[2]) + ")";
}

FailureOr<ClusterShape> local_memory::analyzeCluster(ModuleOp module) {
  ClusterShape shape;
  DeviceMeshAttr first;
  Operation *firstUser = nullptr;
  bool ok = true;
  auto visit = [&](Operation *op, DeviceMeshAttr mesh) {
    bool hasCluster = false;
    for (unsigned i = 0, e = mesh.getShape().size(); i < e; ++i)
      hasCluster |= mesh.getAxisLevel(i) == kMeshLevelBlockCluster;
    if (!hasCluster)
      return;
    int64_t meshSize = mesh.getLevelSize(kMeshLevelBlockCluster);
    std::array<int64_t, 3> dims = clusterDims(mesh);
    if (!first) {
      first = mesh;
      firstUser = op;
      shape.size = meshSize;
      shape.dims = dims;
      return;
    }
    if (meshSize == shape.size && dims == shape.dims)
      return;
    InFlightDiagnostic diag = op->emitOpError("device mesh ") << mesh;
    if (meshSize != shape.size)
      diag << " has a cluster of " << meshSize << " CTAs, but " << first
           << " has " << shape.size
           << "; every mesh of a kernel must agree on the cluster size";
    else
      diag << " launches its cluster as " << formatDims(dims) << ", but "
           << first << " as " << formatDims(shape.dims)
           << "; every mesh of a kernel must agree on the cluster's shape "
              "(its block_cluster axes)";
    diag.attachNote(firstUser->getLoc()) << "first cluster mesh used here";
    ok = false;
  };
  module.walk([&](Operation *op) {
    if (auto id = dyn_cast<ShardIdOp>(op))
      visit(op, id.getMesh());
    else if (auto barrier = dyn_cast<DistributedBarrierOp>(op))
      if (std::optional<DeviceMeshAttr> mesh = barrier.getMesh())
        visit(op, *mesh);
  });
  if (!ok)
    return failure();
  return shape;
}

void local_memory::remapProgramIds(ModuleOp module,
                                   const ClusterShape &cluster) {
  auto [cx, cy, cz] = cluster.dims;
  if (cy * cz == 1)
    return;
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<tt::GetProgramIdOp, tt::GetNumProgramsOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type i32 = b.getI32Type();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
    };
    auto mul = [&](Value v, int64_t c) -> Value {
      return c == 1 ? v : arith::MulIOp::create(b, loc, v, constant(c));
    };
    Value result;
    if (auto pid = dyn_cast<tt::GetProgramIdOp>(op)) {
      auto physical = [&](tt::ProgramIDDim dim) -> Value {
        return tt::GetProgramIdOp::create(b, loc, i32, dim);
      };
      Value x = physical(tt::ProgramIDDim::X);
      // This CTA's rank in its cluster, and its coordinate along the
      // requested launch dimension (row-major over (cx, cy, cz), as
      // tle.shard_id decomposes it).
      Value rank = arith::RemUIOp::create(b, loc, x, constant(cluster.size));
      std::array<int64_t, 3> stride = {cy * cz, cz, 1};
      unsigned axis = static_cast<unsigned>(pid.getAxis());
      Value coord = rank;
      if (stride[axis] > 1)
        coord = arith::DivUIOp::create(b, loc, coord, constant(stride[axis]));
      if (axis > 0)
        coord =
            arith::RemUIOp::create(b, loc, coord, constant(cluster.dims[axis]));
      Value base =
          axis == 0 ? arith::DivUIOp::create(b, loc, x, constant(cluster.size))
                    : physical(pid.getAxis());
      result =
          arith::AddIOp::create(b, loc, mul(base, cluster.dims[axis]), coord);
    } else {
      auto num = cast<tt::GetNumProgramsOp>(op);
      unsigned axis = static_cast<unsigned>(num.getAxis());
      Value n = tt::GetNumProgramsOp::create(b, loc, i32, num.getAxis());
      if (axis == 0)
        n = arith::DivUIOp::create(b, loc, n, constant(cluster.size));
      result = mul(n, cluster.dims[axis]);
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

/// The scalar every element of `v` holds, when that is visible in the IR (a
/// scalar, a tt.splat, a splat constant); null otherwise.
static Value uniformScalar(OpBuilder &b, Location loc, Value v) {
  if (!isa<RankedTensorType>(v.getType()))
    return v;
  if (auto splat = v.getDefiningOp<tt::SplatOp>())
    return splat.getSrc();
  DenseElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return arith::ConstantOp::create(b, loc, dense.getSplatValue<TypedAttr>());
  return {};
}

/// `mapa.shared::cluster.u32` of 32-bit shared addresses (a scalar or a
/// tensor; `shard` has the same type).
static Value mapa(OpBuilder &b, Location loc, Value address, Value shard) {
  return tt::ElementwiseInlineAsmOp::create(
             b, loc, TypeRange{address.getType()},
             "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r", /*pure=*/true,
             /*packed_element=*/1, ValueRange{address, shard})
      ->getResult(0);
}

/// Remote pointers `splat(base) + offsets` (one CTA, or one peer GPU) as
/// `splat(remote base) + offsets`: only the base is translated, and Triton's
/// AxisInfo still sees the offsets' contiguity, so the accesses vectorize.
/// - cluster (uniform shard id): one `mapa` of the base. A CTA's shared
///   memory is one contiguous range of the cluster window, so mapping the
///   base maps every address the offsets reach. The base keeps the local
///   base's divisibility hint.
/// - device: `base + offset / sizeof(T)` elements, the quotient hinted
///   divisible by 16 bytes' worth of elements: peer offsets are multiples of
///   16 bytes (docs/distributed.md, section 5), so the remote base is as
///   aligned as the local one.
/// Null when the pointers are not of that form.
static Value remoteFromBase(OpBuilder &b, Location loc, RemotePointersOp op) {
  auto add = op.getSrc().getDefiningOp<tt::AddPtrOp>();
  if (!add || !isa<RankedTensorType>(add.getType()))
    return {};
  auto splat = add.getPtr().getDefiningOp<tt::SplatOp>();
  if (!splat)
    return {};
  Value base = splat.getSrc();
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  auto ptrType = cast<tt::PointerType>(resultType.getElementType());
  Value remoteBase;
  if (op.getSpace() == RemoteSpace::device) {
    unsigned bits = ptrType.getPointeeType().getIntOrFloatBitWidth();
    if (bits % 8 || bits > 128)
      return {};
    int64_t bytes = bits / 8;
    auto elems = arith::DivSIOp::create(
        b, loc, op.getOffset(), intConstant(b, loc, b.getI64Type(), bytes));
    elems->setDiscardableAttr(
        "tt.divisibility",
        DenseElementsAttr::get(RankedTensorType::get({1}, b.getI32Type()),
                               b.getI32IntegerAttr(16 / bytes)));
    remoteBase = tt::AddPtrOp::create(b, loc, ptrType, base, elems);
  } else {
    Value shard = uniformScalar(b, loc, op.getShardId());
    if (!shard)
      return {};
    Value narrow = arith::TruncIOp::create(
        b, loc, b.getI32Type(),
        tt::PtrToIntOp::create(b, loc, b.getI64Type(), base));
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(),
                                        mapa(b, loc, narrow, shard));
    auto mapped = tt::IntToPtrOp::create(b, loc, ptrType, wide);
    if (Operation *def = base.getDefiningOp())
      if (Attribute hint = def->getDiscardableAttr("tt.divisibility"))
        mapped->setDiscardableAttr("tt.divisibility", hint);
    remoteBase = mapped;
  }
  Value splatBase = tt::SplatOp::create(b, loc, resultType, remoteBase);
  return tt::AddPtrOp::create(b, loc, resultType, splatBase, add.getOffset());
}

/// Whether a shard id (an i32 scalar) is the constant 0.
static bool isZeroShard(Value shard) { return matchPattern(shard, m_Zero()); }

void local_memory::foldRemoteOfRemote(ModuleOp module) {
  module.walk([](RemotePointersOp op) {
    if (op.getSpace() != RemoteSpace::cluster)
      return;
    auto inner = op.getSrc().getDefiningOp<RemotePointersOp>();
    if (inner && inner.getSpace() == RemoteSpace::cluster)
      op.getSrcMutable().assign(inner.getSrc());
  });
  // Inner ones left without users.
  module.walk([](RemotePointersOp op) {
    if (op->use_empty())
      op.erase();
  });
}

LogicalResult local_memory::lowerRemotePointers(RemotePointersOp op,
                                                int64_t clusterSize) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type srcType = op.getSrc().getType();
  auto shaped = [&](Type element) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(srcType))
      return tensor.clone(element);
    return element;
  };
  if (op.getSpace() == RemoteSpace::device || clusterSize > 1)
    if (Value remote = remoteFromBase(b, loc, op)) {
      op.getResult().replaceAllUsesWith(remote);
      op.erase();
      return success();
    }
  Value address =
      tt::PtrToIntOp::create(b, loc, shaped(b.getI64Type()), op.getSrc());
  if (op.getSpace() == RemoteSpace::device) {
    Value offset = splatLike(b, loc, op.getOffset(), address.getType());
    address = arith::AddIOp::create(b, loc, address, offset);
  } else if (clusterSize <= 1 && isZeroShard(op.getShardId())) {
    // A kernel without a cluster is a cluster of one CTA: rank 0 is the CTA
    // itself, whose shared::cta addresses are valid shared::cluster ones
    // (FlagTree's scope-less tle.remote(buf, 0)).
  } else {
    if (clusterSize <= 1)
      return op.emitOpError(
                 "tle.remote needs a thread-block cluster: the kernel uses no "
                 "device mesh with a block_cluster axis of size > 1")
             << (clusterSize == 1 ? " (its cluster mesh has 1 CTA)" : "");
    Value narrow =
        arith::TruncIOp::create(b, loc, shaped(b.getI32Type()), address);
    Value shard = op.getShardId();
    if (!isa<RankedTensorType>(shard.getType())) // one CTA for every pointer
      shard = splatLike(b, loc, shard, narrow.getType());
    address = arith::ExtUIOp::create(b, loc, shaped(b.getI64Type()),
                                     mapa(b, loc, narrow, shard));
  }
  Value result =
      tt::IntToPtrOp::create(b, loc, op.getResult().getType(), address);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

/// The cluster-rank stride of block_cluster axis `axis` of `mesh`: ranks
/// are row-major over the block_cluster axes, so the product of the later
/// ones' sizes.
static int64_t clusterStride(DeviceMeshAttr mesh, unsigned axis) {
  int64_t stride = 1;
  for (unsigned i = axis + 1, e = mesh.getShape().size(); i < e; ++i)
    if (mesh.getAxisLevel(i) == kMeshLevelBlockCluster)
      stride *= mesh.getShape()[i];
  return stride;
}

LogicalResult local_memory::lowerShardId(ShardIdOp op) {
  DeviceMeshAttr mesh = op.getMesh();
  unsigned axis = *mesh.getAxisIndex(op.getAxis());
  StringRef level = mesh.getAxisLevel(axis);
  if (level != kMeshLevelBlockCluster)
    return op.emitOpError("can only lower shard ids on block_cluster mesh "
                          "axes; axis \"")
           << op.getAxis() << "\" has "
           << (level.empty() ? std::string("no level (the mesh has no "
                                           "`levels`)")
                             : ("level \"" + level + "\"").str());
  // The axis's coordinate is (rank / its stride) % its size.
  int64_t inner = clusterStride(mesh, axis);
  int64_t size = mesh.getShape()[axis];
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value rank = buildScalarAsm(b, loc, "mov.u32 $0, %cluster_ctarank;");
  if (inner != 1)
    rank =
        arith::DivUIOp::create(b, loc, rank, intConstant(b, loc, i32, inner));
  if (size * inner != mesh.getLevelSize(kMeshLevelBlockCluster))
    rank = arith::RemUIOp::create(b, loc, rank, intConstant(b, loc, i32, size));
  op.getResult().replaceAllUsesWith(rank);
  op.erase();
  return success();
}

LogicalResult local_memory::lowerDistributedBarrier(DistributedBarrierOp op) {
  OpBuilder b(op);
  if (op.getGroup() == DistributedGroupKind::grid) {
    // A CTA barrier, the grid-barrier marker the llir finish resolves
    // (TLE/Target/LLVMIR/GridBarrier.h: thread 0 meets the other CTAs), a
    // CTA barrier. The module asks for a cooperative launch.
    if (op->getParentOfType<WarpSpecializeOp>() ||
        op->getParentOfType<ttg::WarpSpecializeOp>())
      return op.emitOpError("a grid barrier needs every thread of the CTA; "
                            "it cannot be inside a warp_specialize partition");
    gpu::BarrierOp::create(b, op.getLoc());
    tt::ElementwiseInlineAsmOp::create(
        b, op.getLoc(), TypeRange{b.getI32Type()}, kGridBarrierAsm, "=r",
        /*pure=*/false, /*packed_element=*/1, ValueRange{});
    gpu::BarrierOp::create(b, op.getLoc());
    op->getParentOfType<ModuleOp>()->setAttr(interop::kTLEGridBarrierAttr,
                                             b.getI32IntegerAttr(1));
    op.erase();
    return success();
  }
  if (op.getGroup() != DistributedGroupKind::cluster)
    return op.emitOpError("only cluster and grid barriers are lowered here; "
                          "group '")
           << stringifyDistributedGroupKind(op.getGroup())
           << "' is not supported";
  ttng::ClusterArriveOp::create(b, op.getLoc(), /*relaxed=*/false);
  ttng::ClusterWaitOp::create(b, op.getLoc());
  op.erase();
  return success();
}

/// The 32-bit shared address of a scalar `!tt.ptr<T, 3>`.
static Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  return arith::TruncIOp::create(
      b, loc, b.getI32Type(),
      tt::PtrToIntOp::create(b, loc, b.getI64Type(), ptr));
}

/// Side-effecting scalar inline asm on `args` ("r" operands); its one i32
/// result (`$0`, set to 0 by the asm) is unused.
static void sideEffectAsm(OpBuilder &b, Location loc, const std::string &asm_,
                          ValueRange args) {
  std::string constraints = "=r";
  for (size_t i = 0; i < args.size(); ++i)
    constraints += ",r";
  tt::ElementwiseInlineAsmOp::create(
      b, loc, TypeRange{b.getI32Type()}, asm_ + " mov.u32 $0, 0;", constraints,
      /*pure=*/false, /*packed_element=*/1, args);
}

namespace {
/// One CTA's state for the sub-mesh barriers of one group in one function:
/// the 32-bit shared addresses of its mbarrier and of its phase word.
struct SubmeshState {
  Value barrier;
  Value phase;
};
} // namespace

/// The state of `op`'s group in `func`: a two-word tle.alloc (mbarrier,
/// phase) at the function's entry, initialized there by thread 0 (arrive
/// count `members`), made visible to the cluster by
/// `fence.mbarrier_init.release.cluster` and a cluster barrier.
static SubmeshState createSubmeshState(DistributedBarrierOp op,
                                       int64_t members) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  Type i64 = IntegerType::get(ctx, 64);
  Value buffer = allocAtEntry(op, {2}, i64);
  OpBuilder b(ctx);
  b.setInsertionPointAfterValue(buffer);
  auto ptrType = tt::PointerType::get(i64, /*addressSpace=*/3);
  auto word = [&](int64_t index) {
    Value i = intConstant(b, loc, b.getI32Type(), index);
    return sharedAddress(b, loc,
                         LocalPointersOp::create(b, loc, ptrType, buffer, i));
  };
  SubmeshState state{word(0), word(1)};
  sideEffectAsm(b, loc,
                "{ .reg .pred p; .reg .b32 t; mov.u32 t, %tid.x; "
                "setp.eq.u32 p, t, 0; @p mbarrier.init.shared::cta.b64 [$1], " +
                    std::to_string(members) + "; @p st.shared.u32 [$2], 0; }",
                ValueRange{state.barrier, state.phase});
  sideEffectAsm(b, loc, "fence.mbarrier_init.release.cluster;", ValueRange{});
  ttng::ClusterArriveOp::create(b, loc, /*relaxed=*/false);
  ttng::ClusterWaitOp::create(b, loc);
  return state;
}

LogicalResult local_memory::lowerSubmeshBarriers(ModuleOp module) {
  SmallVector<DistributedBarrierOp> ops;
  module.walk([&](DistributedBarrierOp op) {
    if (op.getGroup() == DistributedGroupKind::submesh)
      ops.push_back(op);
  });
  llvm::DenseMap<std::pair<Operation *, Attribute>, SubmeshState> states;
  for (DistributedBarrierOp op : ops) {
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!func)
      return op.emitOpError("a sub-mesh barrier must be inside a function");
    if (failed(target::require(op, 90,
                               "a thread-block cluster (a sub-mesh "
                               "barrier)")))
      return failure();
    DeviceMeshAttr mesh = *op.getMesh();
    ArrayRef<int64_t> shape = *op.getShape();
    ArrayAttr axes = *op.getAxes();
    int64_t members = 1;
    for (int64_t size : shape)
      members *= size;
    if (members > 32)
      return op.emitOpError() << "a sub-mesh barrier of " << members
                              << " CTAs is larger than a cluster can be";

    auto key = std::make_pair(
        func.getOperation(),
        Attribute(ArrayAttr::get(op.getContext(), {mesh, axes})));
    auto it = states.find(key);
    if (it == states.end())
      it = states.try_emplace(key, createSubmeshState(op, members)).first;
    SubmeshState state = it->second;

    OpBuilder b(op);
    Location loc = op.getLoc();
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) { return intConstant(b, loc, i32, v); };
    // The caller's coordinate along mesh axis `axis`, and that axis's
    // cluster-rank stride and size.
    Value rank = buildScalarAsm(b, loc, "mov.u32 $0, %cluster_ctarank;");
    auto axisOf = [&](StringRef axis) {
      unsigned index = *mesh.getAxisIndex(axis);
      int64_t stride = clusterStride(mesh, index),
              size = mesh.getShape()[index];
      Value coord = arith::RemUIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, rank, c(stride)), c(size));
      return std::make_tuple(coord, stride, size);
    };
    // `at`: only the programs at those coordinates take part.
    if (DictionaryAttr at = op.getAtAttr(); at && !at.empty()) {
      Value member;
      for (NamedAttribute entry : at) {
        Value coord = std::get<0>(axisOf(entry.getName().getValue()));
        Value here = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq, coord,
            c(cast<IntegerAttr>(entry.getValue()).getInt()));
        member = member ? arith::AndIOp::create(b, loc, member, here) : here;
      }
      auto inside = scf::IfOp::create(b, loc, TypeRange{}, member,
                                      /*withElseRegion=*/false);
      b.setInsertionPoint(inside.thenBlock()->getTerminator());
    }
    gpu::BarrierOp::create(b, loc);
    // Thread j < members arrives on the group's j-th CTA: the caller's
    // cluster rank with its coordinates along the group's axes replaced by
    // j's (row-major over the axes in the op's order).
    Value tid = buildScalarAsm(b, loc, "mov.u32 $0, %tid.x;");
    Value j = arith::RemUIOp::create(b, loc, tid, c(members));
    Value target = rank;
    int64_t inner = members;
    for (Attribute attr : axes) {
      auto [mine, axisStride, size] = axisOf(cast<StringAttr>(attr).getValue());
      inner /= size;
      Value theirs = arith::RemUIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, j, c(inner)), c(size));
      Value delta = arith::MulIOp::create(
          b, loc, arith::SubIOp::create(b, loc, theirs, mine), c(axisStride));
      target = arith::AddIOp::create(b, loc, target, delta);
    }
    Value remote = mapa(b, loc, state.barrier, target);
    sideEffectAsm(b, loc,
                  "{ .reg .pred p; setp.lt.u32 p, $1, " +
                      std::to_string(members) +
                      "; @p mbarrier.arrive.release.cluster.shared::cluster."
                      "b64 _, [$2]; }",
                  ValueRange{tid, remote});
    sideEffectAsm(b, loc,
                  "{ .reg .pred p; .reg .b32 ph; ld.shared.u32 ph, [$2]; "
                  "LAB_WAIT: mbarrier.try_wait.parity.acquire.cluster."
                  "shared::cta.b64 p, [$1], ph; @!p bra LAB_WAIT; }",
                  ValueRange{state.barrier, state.phase});
    gpu::BarrierOp::create(b, loc);
    sideEffectAsm(b, loc,
                  "{ .reg .pred p; .reg .b32 t, ph; mov.u32 t, %tid.x; "
                  "setp.eq.u32 p, t, 0; @p ld.shared.u32 ph, [$1]; "
                  "@p xor.b32 ph, ph, 1; @p st.shared.u32 [$1], ph; }",
                  ValueRange{state.phase});
    op.erase();
  }
  return success();
}
