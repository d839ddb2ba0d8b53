// RUN: tle-opt %s -split-input-file --triton-tle-lower-async-loads=num-stages=3 | FileCheck %s --implicit-check-not='tle.async_load'
// RUN: tle-opt %s -split-input-file --triton-tle-lower-async-loads | FileCheck %s --check-prefix=NOLAT --implicit-check-not='tt.latency'

// Outside a loop: a tagged tt.load, no latency.
// CHECK-LABEL: tt.func @straight
// CHECK-NEXT: %[[L:.*]] = tt.load %arg0, %arg1, %arg2 {tle.async} : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg0, %[[L]]
// NOLAT-LABEL: tt.func @straight
// NOLAT-NEXT: tt.load %arg0, %arg1, %arg2 {tle.async} : tensor<128x!tt.ptr<f32>>
tt.func @straight(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>) {
  %a = tle.async_load %p, %m, %o : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  tt.store %p, %a : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// In an innermost loop: tt.latency = stages - 1, stages from the loop's
// tt.num_stages or else the num-stages option; none for one stage.
// CHECK-LABEL: tt.func @loops
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg0 {tle.async, tt.latency = 3 : i32}
// CHECK: tt.num_stages = 4 : i32
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg0, %arg1 {tle.async, tt.latency = 2 : i32}
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg0 {tle.async} :
// CHECK: tt.num_stages = 1 : i32
// NOLAT-LABEL: tt.func @loops
// NOLAT-COUNT-3: tt.load %arg0{{.*}}{tle.async} :
tt.func @loops(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) : i32 {
    %a = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
    %s = arith.addf %acc, %a : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  } {tt.num_stages = 4 : i32}
  %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r0) -> (tensor<128xf32>) : i32 {
    %a = tle.async_load %p, %m : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
    %s = arith.addf %acc, %a : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r1) -> (tensor<128xf32>) : i32 {
    %a = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
    %s = arith.addf %acc, %a : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  } {tt.num_stages = 1 : i32}
  tt.store %p, %r2 : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Only the innermost loop's body: a load in an outer loop (which holds a
// loop) or under an scf.if gets no latency.
// CHECK-LABEL: tt.func @nested
// CHECK: scf.for
// CHECK-NEXT: %[[OUTER:.*]] = tt.load %arg0 {tle.async} :
// CHECK: scf.for
// CHECK-NEXT: tt.load %arg0 {tle.async, tt.latency = 2 : i32}
// CHECK: scf.if
// CHECK-NEXT: tt.load %arg0 {tle.async} :
tt.func @nested(%p: tensor<128x!tt.ptr<f32>>, %n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) : i32 {
    %a = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %a) -> (tensor<128xf32>) : i32 {
      %b = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
      %s = arith.addf %acc2, %b : tensor<128xf32>
      scf.yield %s : tensor<128xf32>
    }
    %t = scf.if %c -> (tensor<128xf32>) {
      %b = tle.async_load %p : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
      scf.yield %b : tensor<128xf32>
    } else {
      scf.yield %in : tensor<128xf32>
    }
    %s = arith.addf %acc, %t : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  tt.store %p, %r : tensor<128x!tt.ptr<f32>>
  tt.return
}
