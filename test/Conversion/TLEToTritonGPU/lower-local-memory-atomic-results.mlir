// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory | FileCheck %s
//
// Atomics whose old value is used while several threads hold each element
// (a replicating layout, or a scalar): the owner thread's `atom` gets the
// old value, stores it into a scratch buffer of the result's shape in TLE's
// region (owner-masked, between CTA barriers) and every thread loads it back.

// 16 elements over 128 threads: lanes 0-15 of warp 0 own them.
// CHECK: module attributes {tle.shared = 64 : i32
// CHECK-LABEL: tt.func @replicated_result
// CHECK: %[[OWN:.*]] = tt.splat %{{.*}} : i1 -> tensor<16xi1, #blocked>
// CHECK: %[[R:.*]] = tt.elementwise_inline_asm "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $3, 0; mov.b32 $0, 0; @%tle_p atom.relaxed.cta.shared::cta.add.f32 $0, [$1], $2; }"
// CHECK-NEXT: %[[F:.*]] = tt.bitcast %[[R]] : tensor<16xi32, #blocked> -> tensor<16xf32, #blocked>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tt.store %[[S:.*]], %[[F]], %[[OWN]] : tensor<16x!tt.ptr<f32, 3>, #blocked>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[B:.*]] = tt.load %[[S]] : tensor<16x!tt.ptr<f32, 3>, #blocked>
// CHECK-NEXT: tt.return %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @replicated_result(%p: tensor<16x!tt.ptr<f32, 3>, #blocked>, %v: tensor<16xf32, #blocked>) -> tensor<16xf32, #blocked> {
    %0 = tle.atomic_rmw fadd, relaxed, cta, %p, %v : (tensor<16x!tt.ptr<f32, 3>, #blocked>, tensor<16xf32, #blocked>) -> tensor<16xf32, #blocked>
    tt.return %0 : tensor<16xf32, #blocked>
  }
}

// -----

// A scalar: thread 0's old value through a one-element scratch.
// CHECK: module attributes {tle.shared = 4 : i32
// CHECK-LABEL: tt.func @scalar_result
// CHECK: %[[R:.*]] = tt.elementwise_inline_asm "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $4, 0; mov.b32 $0, 0; @%tle_p atom.acq_rel.cta.shared::cta.cas.b32 $0, [$1], $2, $3; }"
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tt.store %[[S:.*]], %[[R]], %{{.*}} : !tt.ptr<i32, 3>
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[B:.*]] = tt.load %[[S]] : !tt.ptr<i32, 3>
// CHECK-NEXT: tt.return %[[B]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scalar_result(%p: !tt.ptr<i32, 3>, %c: i32, %v: i32) -> i32 {
    %0 = tle.atomic_cas acq_rel, cta, %p, %c, %v : (!tt.ptr<i32, 3>, i32, i32) -> i32
    tt.return %0 : i32
  }
}

// -----

// Every thread owns its elements (128 over 128 threads), or the result is
// unused: no scratch, no barrier.
// CHECK-NOT: tle.shared
// CHECK-LABEL: tt.func @no_scratch
// CHECK-NOT: gpu.barrier
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_scratch(%p: tensor<128x!tt.ptr<i32, 3>, #blocked>, %q: tensor<16x!tt.ptr<i32, 3>, #blocked>, %v: tensor<128xi32, #blocked>, %w: tensor<16xi32, #blocked>) -> tensor<128xi32, #blocked> {
    %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (tensor<128x!tt.ptr<i32, 3>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %1 = tle.atomic_rmw add, relaxed, cta, %q, %w : (tensor<16x!tt.ptr<i32, 3>, #blocked>, tensor<16xi32, #blocked>) -> tensor<16xi32, #blocked>
    tt.return %0 : tensor<128xi32, #blocked>
  }
}
