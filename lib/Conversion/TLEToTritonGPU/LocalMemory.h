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
/// The tle.alloc behind `buffer`, looking through tle.buffer_slot views;
/// null when there is none.
AllocOp bufferAlloc(Value buffer);

/// Gives the tle.alloc `alloc` the shared encoding `enc` (the layout of the
/// buffer, or of each of its slots), and every tle.buffer_slot view of it
/// (at any depth) the same encoding.
void setBufferEncoding(AllocOp alloc, Attribute enc);

LogicalResult lowerAtomicRMW(AtomicRMWOp op);
LogicalResult lowerAtomicCAS(AtomicCASOp op);

/// Cluster facts of a module: the cluster size every mesh agrees on (0 when
/// no mesh has a block_cluster axis).
FailureOr<int64_t> analyzeCluster(ModuleOp module);
LogicalResult lowerRemotePointers(RemotePointersOp op, int64_t clusterSize);
LogicalResult lowerShardId(ShardIdOp op);
LogicalResult lowerDistributedBarrier(DistributedBarrierOp op);
/// Every `tle.distributed_barrier submesh` of the module, as mbarriers in
/// TLE's shared region (tle.alloc + tle.local_pointers: run before the
/// pointer buffers are planned).
LogicalResult lowerSubmeshBarriers(ModuleOp module);

} // namespace mlir::tle::local_memory

#endif // TLE_LIB_CONVERSION_TLETOTRITONGPU_LOCALMEMORY_H
