// RUN: tle-opt %s | tle-opt | FileCheck %s

// The explicit-barrier ops (TLEBarrierOps.td) print and parse back.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: func.func @barriers(
func.func @barriers(%i: i32, %phase: i32, %v: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>) {
  // CHECK: %[[B:.*]] = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #{{.*}}, #smem, mutable>
  %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
  // CHECK: %[[E:.*]] = tle.barrier_alloc arrive_count 3 ready : !ttg.memdesc<4x1xi64
  %e = tle.barrier_alloc arrive_count 3 ready : !ttg.memdesc<4x1xi64, #bar, #smem, mutable>
  // CHECK: tle.barrier_arrive %[[B]][%{{.*}}] : !ttg.memdesc<2x1xi64
  tle.barrier_arrive %b[%i] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  // CHECK: tle.barrier_arrive %[[E]][%{{.*}}] {count = 2 : i32, expect_tx = 8192 : i64}
  tle.barrier_arrive %e[%i] {count = 2 : i32, expect_tx = 8192 : i64} : !ttg.memdesc<4x1xi64, #bar, #smem, mutable>, i32
  // CHECK: tle.barrier_wait %[[B]][%{{.*}}], %{{.*}} : !ttg.memdesc<2x1xi64
  tle.barrier_wait %b[%i], %phase : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
  // CHECK: tle.named_barrier_sync 5, 256
  tle.named_barrier_sync 5, 256
  // CHECK: tle.named_barrier_arrive 15, 128
  tle.named_barrier_arrive 15, 128
  // CHECK: tle.async_tma_load %{{.*}}, %{{.*}}, %[[B]][%{{.*}}] : tensor<64x64xf16
  tle.async_tma_load %v, %buf, %b[%i] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  // cp.async groups.
  // CHECK: tle.async_copy %{{.*}}, %{{.*}} : tensor<64x64xf16, #{{.*}}>, !ttg.memdesc<64x64xf16
  tle.async_copy %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
  // CHECK: tle.async_commit_group{{$}}
  tle.async_commit_group
  // CHECK: tle.async_wait_group 7{{$}}
  tle.async_wait_group 7
  // CHECK: tle.tma_load_cache_hint %{{.*}} "evict_last" : tensor<64x64xf16
  tle.tma_load_cache_hint %v "evict_last" : tensor<64x64xf16, #blocked>
  return
}

// TMA descriptors in global memory: any global pointee, blocks of rank 1 to 5.
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: func.func @tensor_maps(
func.func @tensor_maps(%table: !tt.ptr<i8>, %f: !tt.ptr<f32>) -> (!tt.tensordesc<tensor<8x32xf32, #nvmma>>, !tt.tensordesc<tensor<2x2x2x2x32xf32, #nvmma>>) {
  // CHECK: tle.tensor_map_fence_acquire %{{.*}} : !tt.ptr<i8>
  tle.tensor_map_fence_acquire %table : !tt.ptr<i8>
  // CHECK: tle.tensor_map_fence_acquire %{{.*}} : !tt.ptr<f32>
  tle.tensor_map_fence_acquire %f : !tt.ptr<f32>
  // CHECK: tle.reinterpret_tensor_map %{{.*}} : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x32xf32, #{{.*}}>>
  %d = tle.reinterpret_tensor_map %table : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x32xf32, #nvmma>>
  // CHECK: tle.reinterpret_tensor_map %{{.*}} : !tt.ptr<f32> -> !tt.tensordesc<tensor<2x2x2x2x32xf32
  %e = tle.reinterpret_tensor_map %f : !tt.ptr<f32> -> !tt.tensordesc<tensor<2x2x2x2x32xf32, #nvmma>>
  return %d, %e : !tt.tensordesc<tensor<8x32xf32, #nvmma>>, !tt.tensordesc<tensor<2x2x2x2x32xf32, #nvmma>>
}
