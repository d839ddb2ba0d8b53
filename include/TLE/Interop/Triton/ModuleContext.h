//===- ModuleContext.h - Triton's module context, named once ---*- C++ -*-===//
//
// The attributes through which Triton 3.6 tells a pass about the program it
// compiles (warps, CTAs, lanes, target; the pipeliner's stages and
// latencies), the ones TLE adds for its llir finish, and the mesh levels of
// TLE's distributed ops: each name once, with the lookups TLE's passes use
// (as Triton's TritonGPU Dialect.h and PipeliningUtility.h hold them for
// Triton's passes). Implemented in lib/Interop/Triton/ModuleContext.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_MODULECONTEXT_H
#define TLE_INTEROP_TRITON_MODULECONTEXT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
class Operation;
} // namespace mlir

namespace mlir::tle::interop {

//===----------------------------------------------------------------------===//
// Module attributes Triton sets (the ttg dialect verifies that the counts
// are positive 32-bit integers: TTG.cpp).
//===----------------------------------------------------------------------===//

/// Warps of the program (of the default partition under warp
/// specialization; `lookupNumWarps` knows the partitions).
inline constexpr llvm::StringLiteral kNumWarpsAttr = "ttg.num-warps";
/// CTAs of the cooperative grid array (a thread-block cluster).
inline constexpr llvm::StringLiteral kNumCTAsAttr = "ttg.num-ctas";
/// Lanes of a warp (32 on NVIDIA).
inline constexpr llvm::StringLiteral kThreadsPerWarpAttr =
    "ttg.threads-per-warp";
/// Warps of every partition together, once warp specialization is lowered.
inline constexpr llvm::StringLiteral kTotalNumWarpsAttr = "ttg.total-num-warps";
/// `cuda:90`, `hip:gfx942`, `iluvatar:<arch>`.
inline constexpr llvm::StringLiteral kTargetAttr = "ttg.target";

/// Triton's defaults where a module does not say (its compile options).
inline constexpr unsigned kDefaultNumWarps = 4;
inline constexpr unsigned kDefaultThreadsPerWarp = 32;

//===----------------------------------------------------------------------===//
// Triton's software pipeliner: its user schedule inputs.
//===----------------------------------------------------------------------===//

/// On a loop: how many stages the pipeliner gives it (1: none).
inline constexpr llvm::StringLiteral kNumStagesAttr = "tt.num_stages";
/// On a load: how many iterations ahead the pipeliner issues it.
inline constexpr llvm::StringLiteral kLatencyAttr = "tt.latency";

//===----------------------------------------------------------------------===//
// ttg.warp_specialize: its partition warp counts and its assembly.
//===----------------------------------------------------------------------===//

/// ttg.warp_specialize's warp count per partition (`num_warps(n)`).
inline constexpr llvm::StringLiteral kPartitionNumWarpsAttr =
    "partitionNumWarps";

//===----------------------------------------------------------------------===//
// Module attributes TLE sets for its llir finish (python/tle/_bridge.py).
//===----------------------------------------------------------------------===//

/// Bytes of the module's TLE shared-memory region.
inline constexpr llvm::StringLiteral kTLESharedAttr = "tle.shared";
/// CTAs of the thread-block cluster TLE's cluster ops need.
inline constexpr llvm::StringLiteral kTLEClusterSizeAttr = "tle.cluster_size";
/// `array<i32: x, y, z>`: that cluster's launch shape (FlagTree's
/// `cluster_dims`; the launch itself runs x * y * z CTAs along x).
inline constexpr llvm::StringLiteral kTLEClusterDimsAttr = "tle.cluster_dims";
/// `tle.grid_barrier = 1 : i32`: the module has a grid barrier, so its
/// launch must be cooperative (every CTA resident at once).
inline constexpr llvm::StringLiteral kTLEGridBarrierAttr = "tle.grid_barrier";

//===----------------------------------------------------------------------===//
// Levels of a tle.mesh axis (TLEDistributedAttrs.td), outermost first.
//===----------------------------------------------------------------------===//

inline constexpr llvm::StringLiteral kMeshLevelNode = "node";
inline constexpr llvm::StringLiteral kMeshLevelDevice = "device";
/// The CTAs of a thread-block cluster (distributed shared memory).
inline constexpr llvm::StringLiteral kMeshLevelBlockCluster = "block_cluster";
inline constexpr llvm::StringLiteral kMeshLevelBlock = "block";

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

/// The integer attribute `name` of `op` or of the nearest op enclosing it
/// that has one (a module attribute, seen from anywhere inside the module).
std::optional<int64_t> lookupIntAttr(Operation *op, StringRef name);

/// The warps running `op`: the partition's `num_warps` inside a worker
/// partition of a ttg.warp_specialize, else the enclosing `ttg.num-warps`
/// (as Triton's lookupNumWarps). None when no enclosing op says.
std::optional<int64_t> lookupNumWarps(Operation *op);

/// The enclosing `ttg.threads-per-warp`, if any.
std::optional<int64_t> lookupThreadsPerWarp(Operation *op);

/// The enclosing `ttg.target` (empty when none).
StringRef lookupTarget(Operation *op);

} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_MODULECONTEXT_H
