// RUN: tle-opt %s --triton-tle-raise-markers=ops=tle.async_load | FileCheck %s
// RUN: tle-opt %s --triton-tle-raise-markers=verify-only=true | FileCheck %s --check-prefix=VERIFY
// RUN: tle-opt %s --triton-tle-raise-markers=ops=tle.async_load --triton-tle-lower-async-loads=num-stages=3 | FileCheck %s --check-prefix=TTIR

// The tle.load(is_async=True) marker as the frontend writes it: optional
// operands named by operandSegmentSizes. `ops=` raises only the named
// markers (the cumsum marker stays); verify-only changes nothing.

// CHECK-LABEL: tt.func public @k
// CHECK: %[[A:.*]] = tle.async_load %arg0, %arg1, %arg2 : (tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
// CHECK: %[[B:.*]] = tle.async_load %arg0 : (tensor<128x!tt.ptr<f32>>) -> tensor<128xf32>
// CHECK: tt.elementwise_inline_asm "tle.exclusive_cumsum
// VERIFY-COUNT-3: tt.elementwise_inline_asm "tle.
// TTIR: tt.load %arg0, %arg1, %arg2 {tle.async} : tensor<128x!tt.ptr<f32>>
// TTIR: scf.for
// TTIR-NEXT: tt.load %arg0 {tle.async, tt.latency = 2 : i32} : tensor<128x!tt.ptr<f32>>
tt.func public @k(%p: tensor<128x!tt.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf32>, %n: i32) {
  %a = tt.elementwise_inline_asm "tle.async_load {operandSegmentSizes = array<i32: 1, 1, 1>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %p, %m, %o : tensor<128x!tt.ptr<f32>>, tensor<128xi1>, tensor<128xf32> -> tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<128xf32>) : i32 {
    %b = tt.elementwise_inline_asm "tle.async_load {operandSegmentSizes = array<i32: 1, 0, 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %p : tensor<128x!tt.ptr<f32>> -> tensor<128xf32>
    %s = arith.addf %acc, %b : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %e:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %r : tensor<128xf32> -> tensor<128xf32>, tensor<128xf32>
  tt.store %p, %e#0 : tensor<128x!tt.ptr<f32>>
  tt.return
}
