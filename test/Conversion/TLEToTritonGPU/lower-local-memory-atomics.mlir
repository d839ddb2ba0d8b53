// RUN: tle-opt %s --triton-tle-lower-local-memory | FileCheck %s --implicit-check-not="tle."
//
// Atomics on shared memory: predicated `atom` inline asm on the 32-bit
// address; the owner mask keeps one thread per element of a replicated
// layout (thread 0 for a scalar); such atomics' old values are unused here
// (a used one goes through a scratch buffer:
// lower-local-memory-atomic-results.mlir).
//
// @replicated: 16 elements over 32 lanes x 4 warps: lane bit 4 and warp bits
// 0-1 must be zero (lanes 0-15 of warp 0 own the elements).
// CHECK-LABEL: tt.func @replicated
// CHECK-NEXT: %[[TID:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %tid.x;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT: %[[L:.*]] = arith.andi %[[TID]], %[[C16]] : i32
// CHECK-NEXT: %[[LOK:.*]] = arith.cmpi eq, %[[L]], %[[Z]] : i32
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[TID]], %[[C32]] : i32
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[W:.*]] = arith.andi %[[WARP]], %[[C3]] : i32
// CHECK-NEXT: %[[WOK:.*]] = arith.cmpi eq, %[[W]], %[[Z]] : i32
// CHECK-NEXT: %[[OWN:.*]] = arith.andi %[[LOK]], %[[WOK]] : i1
// CHECK-NEXT: %[[OWNS:.*]] = tt.splat %[[OWN]] : i1 -> tensor<16xi1, #blocked>
// CHECK-NEXT: %[[PRED:.*]] = arith.andi %arg2, %[[OWNS]] : tensor<16xi1, #blocked>
// CHECK-NEXT: %[[PRED32:.*]] = arith.extui %[[PRED]] : tensor<16xi1, #blocked> to tensor<16xi32, #blocked>
// CHECK-NEXT: %[[A64:.*]] = tt.ptr_to_int %arg0 : tensor<16x!tt.ptr<f32, 3>, #blocked> -> tensor<16xi64, #blocked>
// CHECK-NEXT: %[[A:.*]] = arith.trunci %[[A64]] : tensor<16xi64, #blocked> to tensor<16xi32, #blocked>
// CHECK-NEXT: %[[V:.*]] = tt.bitcast %arg1 : tensor<16xf32, #blocked> -> tensor<16xi32, #blocked>
// CHECK-NEXT: %[[R:.*]] = tt.elementwise_inline_asm "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $3, 0; mov.b32 $0, 0; @%tle_p atom.relaxed.cta.shared::cta.add.f32 $0, [$1], $2; }" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %[[A]], %[[V]], %[[PRED32]]
// CHECK-NEXT: %[[F:.*]] = tt.bitcast %[[R]] : tensor<16xi32, #blocked> -> tensor<16xf32, #blocked>
// CHECK-NEXT: tt.return{{$}}
//
// @replicated_2d: 4x4 over [4, 8] lanes x [2, 2] warps (order [1, 0]): lane
// bit 2 (dimension 1 has 8 lanes for 4 columns), warp bits 0 and 1.
// CHECK-LABEL: tt.func @replicated_2d
// CHECK: arith.constant 4 : i32
// CHECK: arith.constant 3 : i32
// CHECK: tt.elementwise_inline_asm "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $3, 0; mov.b64 $0, 0; @%tle_p atom.acquire.gpu.shared::cta.max.u64 $0, [$1], $2; }" {constraints = "=l,r,l,r", packed_element = 1 : i32, pure = false}
//
// @mma_operands: converted to a blocked layout (no replication: no owner
// mask, the predicate is all ones), f16 add on cluster pointers, converted back.
// CHECK-LABEL: tt.func @mma_operands
// CHECK-NEXT: ttg.convert_layout %arg0 : tensor<32x32x!tt.ptr<f16, 7>, #mma> -> tensor<32x32x!tt.ptr<f16, 7>, #blocked2>
// CHECK-NEXT: %[[ONES:.*]] = arith.constant dense<1> : tensor<32x32xi32, #blocked2>
// CHECK-NOT: tid.x
// CHECK: "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $3, 0; mov.b16 $0, 0; @%tle_p atom.relaxed.cluster.shared::cluster.add.noftz.f16 $0, [$1], $2; }" {constraints = "=h,r,h,r", packed_element = 1 : i32, pure = false} %{{.*}}, %{{.*}}, %[[ONES]]
// CHECK-NEXT: tt.bitcast %{{.*}} : tensor<32x32xi16, #blocked2> -> tensor<32x32xf16, #blocked2>
// CHECK-NEXT: ttg.convert_layout %{{.*}} : tensor<32x32xf16, #blocked2> -> tensor<32x32xf16, #mma>
//
// @scalar_cas: thread 0 only.
// CHECK-LABEL: tt.func @scalar_cas
// CHECK-NEXT: %[[TID:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %tid.x;"
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %[[Z]] : i32
// CHECK-NEXT: %[[P:.*]] = arith.extui %[[T0]] : i1 to i32
// CHECK: tt.elementwise_inline_asm "{ .reg .pred %tle_p; setp.ne.b32 %tle_p, $4, 0; mov.b32 $0, 0; @%tle_p atom.acq_rel.cta.shared::cta.cas.b32 $0, [$1], $2, $3; }" {constraints = "=r,r,r,r,r", packed_element = 1 : i32, pure = false} %{{.*}}, %arg1, %arg2, %[[P]] : i32, i32, i32, i32 -> i32

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @replicated(%p: tensor<16x!tt.ptr<f32, 3>, #blocked>, %v: tensor<16xf32, #blocked>, %m: tensor<16xi1, #blocked>) {
    %0 = tle.atomic_rmw fadd, relaxed, cta, %p, %v, %m : (tensor<16x!tt.ptr<f32, 3>, #blocked>, tensor<16xf32, #blocked>, tensor<16xi1, #blocked>) -> tensor<16xf32, #blocked>
    tt.return
  }
  tt.func @replicated_2d(%p: tensor<4x4x!tt.ptr<i64, 3>, #blocked2>, %v: tensor<4x4xi64, #blocked2>) {
    %0 = tle.atomic_rmw umax, acquire, gpu, %p, %v : (tensor<4x4x!tt.ptr<i64, 3>, #blocked2>, tensor<4x4xi64, #blocked2>) -> tensor<4x4xi64, #blocked2>
    tt.return
  }
  tt.func @mma_operands(%p: tensor<32x32x!tt.ptr<f16, 7>, #mma>, %v: tensor<32x32xf16, #mma>) -> tensor<32x32xf16, #mma> {
    %0 = tle.atomic_rmw fadd, relaxed, cluster, %p, %v : (tensor<32x32x!tt.ptr<f16, 7>, #mma>, tensor<32x32xf16, #mma>) -> tensor<32x32xf16, #mma>
    tt.return %0 : tensor<32x32xf16, #mma>
  }
  tt.func @scalar_cas(%p: !tt.ptr<i32, 3>, %c: i32, %v: i32) {
    %0 = tle.atomic_cas acq_rel, cta, %p, %c, %v : (!tt.ptr<i32, 3>, i32, i32) -> i32
    tt.return
  }
}
