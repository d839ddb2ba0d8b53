// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// tle.atomic_rmw / tle.atomic_cas on shared (3) and cluster-shared (7)
// pointers, scalar and tensor, with Triton's keywords.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: tt.func @rmw
tt.func @rmw(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %v: tensor<128xf32, #blocked>,
             %m: tensor<128xi1, #blocked>, %q: !tt.ptr<i32, 7>, %c: i32,
             %h: !tt.ptr<f16, 3>, %hv: f16, %b: !tt.ptr<bf16, 7>, %bv: bf16,
             %l: !tt.ptr<i64, 3>, %lv: i64, %d: !tt.ptr<f64, 3>, %dv: f64) {
  // CHECK: tle.atomic_rmw fadd, relaxed, cta, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!tt.ptr<f32, 3>, #blocked>, tensor<128xf32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xf32, #blocked>
  %0 = tle.atomic_rmw fadd, relaxed, cta, %p, %v, %m : (tensor<128x!tt.ptr<f32, 3>, #blocked>, tensor<128xf32, #blocked>, tensor<128xi1, #blocked>) -> tensor<128xf32, #blocked>
  // CHECK: tle.atomic_rmw add, acq_rel, cluster, %{{.*}}, %{{.*}} : (!tt.ptr<i32, 7>, i32) -> i32
  %1 = tle.atomic_rmw add, acq_rel, cluster, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
  // CHECK: tle.atomic_rmw max, acquire, gpu
  %2 = tle.atomic_rmw max, acquire, gpu, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
  // CHECK: tle.atomic_rmw min, release, sys
  %3 = tle.atomic_rmw min, release, sys, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
  // CHECK: tle.atomic_rmw umax, relaxed, cta
  %4 = tle.atomic_rmw umax, relaxed, cta, %l, %lv : (!tt.ptr<i64, 3>, i64) -> i64
  // CHECK: tle.atomic_rmw umin, relaxed, cta
  %5 = tle.atomic_rmw umin, relaxed, cta, %l, %lv : (!tt.ptr<i64, 3>, i64) -> i64
  // CHECK: tle.atomic_rmw and, relaxed, cta
  %6 = tle.atomic_rmw and, relaxed, cta, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
  // CHECK: tle.atomic_rmw or, relaxed, cta
  %7 = tle.atomic_rmw or, relaxed, cta, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
  // CHECK: tle.atomic_rmw xor, relaxed, cta
  %8 = tle.atomic_rmw xor, relaxed, cta, %q, %c : (!tt.ptr<i32, 7>, i32) -> i32
  // CHECK: tle.atomic_rmw exch, relaxed, cta, %{{.*}}, %{{.*}} : (!tt.ptr<f64, 3>, f64) -> f64
  %9 = tle.atomic_rmw exch, relaxed, cta, %d, %dv : (!tt.ptr<f64, 3>, f64) -> f64
  // CHECK: tle.atomic_rmw fadd, relaxed, cta, %{{.*}}, %{{.*}} : (!tt.ptr<f16, 3>, f16) -> f16
  %10 = tle.atomic_rmw fadd, relaxed, cta, %h, %hv : (!tt.ptr<f16, 3>, f16) -> f16
  // CHECK: tle.atomic_rmw fadd, relaxed, cluster, %{{.*}}, %{{.*}} : (!tt.ptr<bf16, 7>, bf16) -> bf16
  %11 = tle.atomic_rmw fadd, relaxed, cluster, %b, %bv : (!tt.ptr<bf16, 7>, bf16) -> bf16
  // The generic form the raise pass builds from a marker.
  // CHECK: tle.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}} : (!tt.ptr<f64, 3>, f64) -> f64
  %12 = "tle.atomic_rmw"(%d, %dv) <{kind = #tle.atomic_kind<fadd>, sem = #tle.mem_semantic<acq_rel>, scope = #tle.mem_scope<gpu>}> : (!tt.ptr<f64, 3>, f64) -> f64
  tt.return
}

// CHECK-LABEL: tt.func @cas
tt.func @cas(%p: tensor<128x!tt.ptr<i32, 3>, #blocked>, %c: tensor<128xi32, #blocked>,
             %v: tensor<128xi32, #blocked>, %q: !tt.ptr<f32, 7>, %f: f32,
             %s: !tt.ptr<i16, 3>, %sv: i16) {
  // CHECK: tle.atomic_cas acq_rel, cta, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!tt.ptr<i32, 3>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
  %0 = tle.atomic_cas acq_rel, cta, %p, %c, %v : (tensor<128x!tt.ptr<i32, 3>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
  // CHECK: tle.atomic_cas relaxed, cluster, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<f32, 7>, f32, f32) -> f32
  %1 = tle.atomic_cas relaxed, cluster, %q, %f, %f : (!tt.ptr<f32, 7>, f32, f32) -> f32
  // CHECK: tle.atomic_cas relaxed, cta, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i16, 3>, i16, i16) -> i16
  %2 = tle.atomic_cas relaxed, cta, %s, %sv, %sv : (!tt.ptr<i16, 3>, i16, i16) -> i16
  tt.return
}
