// RUN: tle-opt %s --pass-pipeline='builtin.module(triton-tle-raise-markers,triton-tle-optimize-local-pointer-loads,triton-tle-optimize-local-pointer-stores,triton-tle-insert-local-pointer-barriers{all-buffers=true},triton-tle-lower-to-iluvatar,tle-assert-lowered)' | FileCheck %s
// The Iluvatar TTGIR pipeline (python/tle/_bridge.py ILUVATAR_TTGIR_PIPELINE)
// on a kernel using all five primitives.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "iluvatar:ivcore11", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @k(
  tt.func public @k(%xp: tensor<64x32x!tt.ptr<f32>, #blocked>, %yp: tensor<64x32x!tt.ptr<f32>, #blocked>, %i: i32) {
    // CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    // copy: load, local pointers, store
    // CHECK-NEXT: %[[X:.*]] = tt.load %{{.*}} : tensor<64x32x!tt.ptr<f32>, #{{.*}}>
    // CHECK-NEXT: %[[P:.*]] = iluvatar_tle.local_pointers %[[BUF]] : {{.*}} -> tensor<64x32x!tt.ptr<f32, 3>, #{{.*}}>
    // CHECK-NEXT: tt.store %[[P]], %[[X]]
    tle.copy %xp, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    // the full-view load became a whole-buffer load after a barrier (the copy wrote the buffer through pointers)
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]]
    %all = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v = tt.load %all : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    // CHECK: %[[ONE:.*]] = iluvatar_tle.local_pointers %[[BUF]][%{{.*}}, %{{.*}}] : {{.*}} -> !tt.ptr<f32, 3>
    // CHECK: tt.store %[[ONE]]
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: %[[S:.*]] = tt.load %[[ONE]]
    %one = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
    %c = arith.constant 1.0 : f32
    tt.store %one, %c : !tt.ptr<f32, 3>
    %s = tt.load %one : !tt.ptr<f32, 3>
    // CHECK: %[[T:.*]] = iluvatar_tle.extract_tile %[[V]][%{{.*}}] : tensor<64x32xf32, #{{.*}}>, i32 -> tensor<16x32xf32, #{{.*}}>
    %t = tle.extract_tile %v[%i] tile [16, 32] : tensor<64x32xf32, #blocked>, i32 -> tensor<16x32xf32, #blocked>
    %ss = tt.splat %s : f32 -> tensor<16x32xf32, #blocked>
    %t2 = arith.addf %t, %ss : tensor<16x32xf32, #blocked>
    // CHECK: %[[W:.*]] = iluvatar_tle.insert_tile %{{.*}} into %[[V]][1] : tensor<16x32xf32, #{{.*}}> into tensor<64x32xf32, #{{.*}}>
    %w = tle.insert_tile %t2 into %v[1] : tensor<16x32xf32, #blocked> into tensor<64x32xf32, #blocked>
    // CHECK: tt.store %{{.*}}, %[[W]] : tensor<64x32x!tt.ptr<f32>, #{{.*}}>
    tt.store %yp, %w : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // A buffer only copied into and read whole: the copy's pointer stores and
  // the ttg.local_load are ordered by a barrier (all-buffers=true).
  // CHECK-LABEL: tt.func public @copy_then_read(
  // CHECK: %[[B:.*]] = ttg.local_alloc
  // CHECK-NEXT: %[[X:.*]] = tt.load
  // CHECK-NEXT: %[[P:.*]] = iluvatar_tle.local_pointers %[[B]]
  // CHECK-NEXT: tt.store %[[P]], %[[X]]
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: ttg.local_load %[[B]]
  tt.func public @copy_then_read(%xp: tensor<64x32x!tt.ptr<f32>, #blocked>) -> tensor<64x32xf32, #blocked> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    tle.copy %xp, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %all = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v = tt.load %all : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    tt.return %v : tensor<64x32xf32, #blocked>
  }
}
