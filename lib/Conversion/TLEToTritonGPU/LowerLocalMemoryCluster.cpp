//===- LowerLocalMemoryCluster.cpp - thread-block cluster ops -------------===//
//
// - tle.remote_pointers cluster: the 32-bit shared address goes through
//   `mapa.shared::cluster.u32` with the target CTA rank, then back to a
//   `!tt.ptr<T, 7>`; device: the byte offset is added to the address.
//   Pointers `splat(base) + offsets` into one CTA or GPU translate only
//   the base (one mapa; base + offset), so their accesses still vectorize.
// - tle.shard_id on a block_cluster axis: %cluster_ctarank decomposed
//   row-major over the mesh's block_cluster axes.
// - tle.distributed_barrier cluster: ttng.cluster_arrive + ttng.cluster_wait.
// - In a module whose meshes have a cluster of N > 1 CTAs, a program is a
//   cluster: tt.get_program_id x / tt.get_num_programs x read %clusterid.x /
//   %nclusterid.x.
//
//===----------------------------------------------------------------------===//
#include "LocalMemory.h"

#include "TLE/Interop/Triton/ModuleContext.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tle;
using namespace mlir::tle::local_memory;

using interop::kMeshLevelBlockCluster;

FailureOr<int64_t> local_memory::analyzeCluster(ModuleOp module) {
  int64_t size = 0;
  DeviceMeshAttr first;
  Operation *firstUser = nullptr;
  bool ok = true;
  module.walk([&](ShardIdOp op) {
    DeviceMeshAttr mesh = op.getMesh();
    bool hasCluster = false;
    for (unsigned i = 0, e = mesh.getShape().size(); i < e; ++i)
      hasCluster |= mesh.getAxisLevel(i) == kMeshLevelBlockCluster;
    if (!hasCluster)
      return;
    int64_t meshSize = mesh.getLevelSize(kMeshLevelBlockCluster);
    if (!first) {
      first = mesh;
      firstUser = op;
      size = meshSize;
      return;
    }
    if (meshSize != size) {
      InFlightDiagnostic diag = op.emitOpError("device mesh ")
                                << mesh << " has a cluster of " << meshSize
                                << " CTAs, but " << first << " has " << size
                                << "; every mesh of a kernel must agree on "
                                   "the cluster size";
      diag.attachNote(firstUser->getLoc()) << "first cluster mesh used here";
      ok = false;
    }
  });
  if (!ok)
    return failure();
  return size;
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
  // Row-major over the cluster axes: the axis's coordinate is
  // (rank / product of the later cluster axes) % its size.
  int64_t inner = 1;
  for (unsigned i = axis + 1, e = mesh.getShape().size(); i < e; ++i)
    if (mesh.getAxisLevel(i) == kMeshLevelBlockCluster)
      inner *= mesh.getShape()[i];
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
  if (op.getGroup() != DistributedGroupKind::cluster)
    return op.emitOpError("only cluster barriers are lowered; group '")
           << stringifyDistributedGroupKind(op.getGroup())
           << "' is not supported yet";
  OpBuilder b(op);
  ttng::ClusterArriveOp::create(b, op.getLoc(), /*relaxed=*/false);
  ttng::ClusterWaitOp::create(b, op.getLoc());
  op.erase();
  return success();
}

void local_memory::lowerProgramIdsToClusterIds(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (auto pid = dyn_cast<tt::GetProgramIdOp>(op))
      if (pid.getAxis() == tt::ProgramIDDim::X)
        ops.push_back(op);
    if (auto num = dyn_cast<tt::GetNumProgramsOp>(op))
      if (num.getAxis() == tt::ProgramIDDim::X)
        ops.push_back(op);
  });
  for (Operation *op : ops) {
    OpBuilder b(op);
    StringRef asmString = isa<tt::GetProgramIdOp>(op)
                              ? "mov.u32 $0, %clusterid.x;"
                              : "mov.u32 $0, %nclusterid.x;";
    Value id = buildScalarAsm(b, op->getLoc(), asmString);
    op->getResult(0).replaceAllUsesWith(id);
    op->erase();
  }
}
