// RUN: tle-opt %s --triton-tle-raise-markers=verify-only=true | FileCheck %s --check-prefix=VERIFY
// RUN: tle-opt %s --triton-tle-raise-markers=ops=tle.pipeline_group_begin,tle.pipeline_group_end | FileCheck %s --check-prefix=RAISE
// RUN: tle-opt %s --triton-tle-raise-markers=ops=tle.pipeline_group_begin,tle.pipeline_group_end --triton-tle-lower-pipeline-groups | FileCheck %s

// The markers as the frontend writes them (python/tle/language/pipeline.py).
// VERIFY-COUNT-4: tt.elementwise_inline_asm "tle.pipeline_group_
// RAISE: tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 3
// RAISE: tle.pipeline_group_end 0
// RAISE: tle.pipeline_group_begin 1 stage 2 order 1 groups 2 stages 3
// RAISE: tle.pipeline_group_end 1
// CHECK-LABEL: tt.func public @k
// CHECK-NOT: tle.
// CHECK-NOT: elementwise_inline_asm
// CHECK: tt.load %arg0 {tt.latency = 2 : i32}
// CHECK: } {tt.num_stages = 3 : i32}
tt.func public @k(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %0 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 0 : i32, stage = 0 : i32, order = 0 : i32, num_groups = 2 : i32, num_stages = 3 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %1 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %2 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 1 : i32, stage = 2 : i32, order = 1 : i32, num_groups = 2 : i32, num_stages = 3 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %y = arith.addf %x, %x : tensor<128xf32>
    tt.store %p, %y : tensor<128x!tt.ptr<f32>>
    %3 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 1 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  } {tt.num_stages = 3 : i32}
  tt.return
}
