//===- LocalMemory.h - shared helpers of triton-tle-lower-local-memory ----===//
//
// The pass (docs/local-memory.md section 4) is split over three files:
// LowerLocalMemory.cpp (driver, buffers, local pointers, loads/stores/copies),
// LowerLocalMemoryAtomics.cpp (tle.atomic_rmw / tle.atomic_cas and the owner
// mask) and LowerLocalMemoryCluster.cpp (remote pointers, shard ids,
// barriers, program ids in cluster modules).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_CONVERSION_TLETOTRITONGPU_LOCALMEMORY_H
#define TLE_LIB_CONVERSION_TLETOTRITONGPU_LOCALMEMORY_H

#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>

namespace mlir::tle::local_memory {

/// Scalar `tt.elementwise_inline_asm` with no operands and one i32 result
/// (`mov.u32 $0, %tid.x;` and friends).
Value buildScalarAsm(OpBuilder &b, Location loc, StringRef asmString,
                     bool pure = true);

/// `value` splatted to `like`'s shape and encoding, or `value` itself when
/// `like` is a scalar type.
Value splatLike(OpBuilder &b, Location loc, Value value, Type like);

/// An integer constant of `type` (scalar or tensor).
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value);

/// `ttg.threads-per-warp` / `ttg.num-warps` of the module (32 / 4 if absent).
unsigned threadsPerWarp(ModuleOp module);
unsigned numWarps(ModuleOp module);
/// Warps of the thread group `op` runs in: its warp_specialize partition's
/// (ttg or tle), else the kernel's.
unsigned groupWarps(Operation *op, ModuleOp module);

/// Lowers one atomic; reports and fails on unsupported input.
/// A fresh mutable shared-memory tle.alloc of `shape` x `element`, row-major
/// and unswizzled, at the entry of the function holding `at`.
Value allocAtEntry(Operation *at, ArrayRef<int64_t> shape, Type element);

/// The tle.alloc behind `buffer`, looking through tle.buffer_slot views;
/// null when there is none.
AllocOp bufferAlloc(Value buffer);

/// Gives the tle.alloc `alloc` the shared encoding `enc` (the layout of the
/// buffer, or of each of its slots), and every tle.buffer_slot view of it
/// (at any depth) the same encoding.
void setBufferEncoding(AllocOp alloc, Attribute enc);

/// For each atomic on shared or cluster pointers whose old value is used
/// while several threads hold each of its elements (a replicating layout,
/// or a scalar): a scratch tle.alloc of the result's shape and pointers
/// into it (tle.local_pointers, so the buffer is planned with the pointer
/// buffers), through which the lowering hands the owner thread's old value
/// to the others. Run before the pointer buffers are planned.
void prepareAtomicResults(ModuleOp module);
LogicalResult lowerAtomicRMW(AtomicRMWOp op);
LogicalResult lowerAtomicCAS(AtomicCASOp op);

/// Cluster facts of a module: the cluster every mesh agrees on.
struct ClusterShape {
  /// CTAs per cluster (0 when no mesh has a block_cluster axis).
  int64_t size = 0;
  /// The cluster's launch shape (x, y, z), FlagTree's `cluster_dims`: the
  /// mesh's block_cluster axes, outermost first, one per launch dimension
  /// (more than three: their product along x).
  std::array<int64_t, 3> dims = {1, 1, 1};
};
FailureOr<ClusterShape> analyzeCluster(ModuleOp module);
/// A cluster of shape (cx, cy, cz) with cy * cz > 1 runs as Triton 3.6
/// launches every cluster, C = cx * cy * cz CTAs along x; this rewrites the
/// module's `tt.get_program_id` / `tt.get_num_programs` to the ids of a
/// (cx, cy, cz) cluster launch (FlagTree's): with r = %ctaid.x mod C =
/// %cluster_ctarank unravelled row-major over (cx, cy, cz) into (r0, r1, r2),
/// program id x is (%ctaid.x / C) * cx + r0, y is %ctaid.y * cy + r1, z is
/// %ctaid.z * cz + r2. Nothing for other shapes.
void remapProgramIds(ModuleOp module, const ClusterShape &cluster);
/// `tle.remote_pointers cluster` of the result of another: the inner one's
/// source, re-targeted (one mapa instead of two).
void foldRemoteOfRemote(ModuleOp module);
LogicalResult lowerRemotePointers(RemotePointersOp op, int64_t clusterSize);
LogicalResult lowerShardId(ShardIdOp op);
LogicalResult lowerDistributedBarrier(DistributedBarrierOp op);
/// Every `tle.distributed_barrier submesh` of the module, as mbarriers in
/// TLE's shared region (tle.alloc + tle.local_pointers: run before the
/// pointer buffers are planned).
LogicalResult lowerSubmeshBarriers(ModuleOp module);

} // namespace mlir::tle::local_memory

#endif // TLE_LIB_CONVERSION_TLETOTRITONGPU_LOCALMEMORY_H
