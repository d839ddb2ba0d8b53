// RUN: tle-opt %s -split-input-file --triton-tle-lower-wgmma | FileCheck %s --check-prefix=WGMMA --implicit-check-not=tle.wgmma
// RUN: tle-opt %s -split-input-file --triton-tle-lower-wgmma --triton-tle-lower-local-memory | FileCheck %s --check-prefix=SLOT

// A register a operand: converted to the wgmma's A fragment layout (dot_op
// of the accumulator's #mma, kWidth 2 for 16 bits); b a slot of a
// multi-stage buffer, which takes the NVMMA layout as a whole and becomes a
// ttg.memdesc_index. fp8 operands: a row-major (K contiguous), b K-major
// (transposed = true), instruction K 32, maxNumImpreciseAcc 2^30 by default.

// WGMMA-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// WGMMA-DAG: #[[MMA8:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// WGMMA-DAG: #[[SW128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// WGMMA-DAG: #[[A8:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// WGMMA-DAG: #[[B8:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// WGMMA-LABEL: tt.func @register_a(
// WGMMA: %[[V:.*]] = tle.alloc smem : () -> !ttg.memdesc<2x32x64xbf16, #[[SW128]], #smem, mutable>
// WGMMA: %[[S:.*]] = tle.buffer_slot %[[V]][%{{.*}}] : !ttg.memdesc<2x32x64xbf16, #[[SW128]], #smem, mutable>, i32 -> !ttg.memdesc<32x64xbf16, #[[SW128]], #smem, mutable>
// WGMMA: %[[A:.*]] = ttg.convert_layout %arg0 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
// WGMMA: ttng.warp_group_dot %[[A]], %[[S]], %{{.*}} {isAsync = true} : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * !ttg.memdesc<32x64xbf16, #[[SW128]], #smem, mutable> -> tensor<64x64xf32, #[[MMA]]>
// WGMMA-LABEL: tt.func @fp8(
// WGMMA: ttng.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {isAsync = true, maxNumImpreciseAcc = 1073741824 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #[[A8]], #smem, mutable> * !ttg.memdesc<64x64xf8E5M2, #[[B8]], #smem, mutable> -> tensor<64x64xf32, #[[MMA8]]>

// SLOT-LABEL: tt.func @register_a(
// SLOT: %[[V:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x32x64xbf16, #[[SW:.*]], #smem, mutable>
// SLOT: %[[S:.*]] = ttg.memdesc_index %[[V]][%arg1] : !ttg.memdesc<2x32x64xbf16, #[[SW]], #smem, mutable> -> !ttg.memdesc<32x64xbf16, #[[SW]], #smem, mutable>
// SLOT: ttng.warp_group_dot %{{.*}}, %[[S]], %{{.*}}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @register_a(%p: tensor<64x32xbf16, #blocked>, %i: i32) -> tensor<64x64xf32, #blocked> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #blocked>
    %v = tle.alloc smem : () -> !ttg.memdesc<2x32x64xbf16, #plain3, #smem, mutable>
    %s = tle.buffer_slot %v[%i] : !ttg.memdesc<2x32x64xbf16, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<32x64xbf16, #plain, #smem, mutable>
    %d = tle.wgmma %p, %s, %zero : tensor<64x32xbf16, #blocked>, !ttg.memdesc<32x64xbf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    %r = tle.wgmma_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #blocked>
    tt.return %r : tensor<64x64xf32, #blocked>
  }
  tt.func @fp8(%acc: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>
    %b = tle.alloc smem : () -> !ttg.memdesc<64x64xf8E5M2, #plain, #smem, mutable>
    %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>, !ttg.memdesc<64x64xf8E5M2, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    %r = tle.wgmma_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #blocked>
    tt.return %r : tensor<64x64xf32, #blocked>
  }
}

// -----

// Slots that no wgmma or TMA copy lays out: the plain rank-3 buffer takes
// its slot's order (the same bytes) and each slot access a ttg.memdesc_index.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // SLOT-LABEL: tt.func @load_store(
  // SLOT: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf32, #[[P:.*]], #smem, mutable>
  // SLOT: %[[S0:.*]] = ttg.memdesc_index %[[B]][%arg0] : !ttg.memdesc<3x64x32xf32, #[[P]], #smem, mutable> -> !ttg.memdesc<64x32xf32, #[[P]], #smem, mutable>
  // SLOT: ttg.local_store %arg1, %[[S0]]
  // SLOT: %[[S1:.*]] = ttg.memdesc_index %[[B]][%arg0]
  // SLOT: ttg.local_load %[[S1]] : !ttg.memdesc<64x32xf32, #[[P]], #smem, mutable> -> tensor<64x32xf32, #blocked>
  // SLOT-NOT: tle.
  tt.func @load_store(%i: i32, %x: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<3x64x32xf32, #plain3, #smem, mutable>
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf32, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf32, #plain, #smem, mutable>
    tle.local_store %x, %s : tensor<64x32xf32, #blocked> -> !ttg.memdesc<64x32xf32, #plain, #smem, mutable>
    %t = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf32, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf32, #plain, #smem, mutable>
    %v = tle.local_load %t : !ttg.memdesc<64x32xf32, #plain, #smem, mutable> -> tensor<64x32xf32, #blocked>
    tt.return %v : tensor<64x32xf32, #blocked>
  }
}
