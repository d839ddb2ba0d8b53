// RUN: tle-opt %s | tle-opt | FileCheck %s

// Round trip of the pipeline-group brackets.
// CHECK-LABEL: tt.func @k
// CHECK: scf.for
// CHECK-NEXT: tle.pipeline_group_begin 0 stage 0 order 1 groups 2 stages 3
// CHECK-NEXT: tt.load
// CHECK-NEXT: tle.pipeline_group_end 0
// CHECK-NEXT: tle.pipeline_group_begin 1 stage 2 order 0 groups 2 stages 3
// CHECK: tle.pipeline_group_end 1
tt.func @k(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 1 groups 2 stages 3
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 1 stage 2 order 0 groups 2 stages 3
    tt.store %p, %x : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 1
  }
  tt.return
}
