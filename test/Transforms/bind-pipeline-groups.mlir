// RUN: tle-opt %s --split-input-file --triton-tle-bind-pipeline-groups | FileCheck %s
// RUN: not tle-opt %s --split-input-file --triton-tle-bind-pipeline-groups --triton-tle-raise-markers=verify-only=true 2>&1 | FileCheck %s --check-prefix=ERR

// The frontend's begin markers carry their tle.range loop's induction
// variable (python/tle/language/pipeline.py). A marker bound to its loop
// loses the operand; the markers of a loop Triton folded away (a one-trip
// loop: the induction variable became the lower bound) are erased; a group
// misplaced in its loop (inside an scf.if) keeps the verifier's error.

// CHECK-LABEL: tt.func public @bound
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: tt.elementwise_inline_asm "tle.pipeline_group_begin {{.*}} {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
// CHECK-NEXT: tt.load
// CHECK-NEXT: tt.elementwise_inline_asm "tle.pipeline_group_end
// ERR-NOT: @bound
tt.func public @bound(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %0 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 0 : i32, stage = 0 : i32, order = 0 : i32, num_groups = 1 : i32, num_stages = 2 : i32, tle.marker.no_results = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %i : i32 -> i32
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %1 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  } {tt.num_stages = 2 : i32}
  tt.return
}

// -----

// A negative step: the loop variable is computed from the induction variable.
// CHECK-LABEL: tt.func public @negative_step
// CHECK: scf.for
// CHECK: arith.addi
// CHECK-NEXT: tt.elementwise_inline_asm "tle.pipeline_group_begin {{.*}} {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
tt.func public @negative_step(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %s = arith.subi %n, %i : i32
    %v = arith.addi %s, %c0 : i32
    %0 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 0 : i32, stage = 0 : i32, order = 0 : i32, num_groups = 1 : i32, num_stages = 2 : i32, tle.marker.no_results = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %v : i32 -> i32
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %1 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  } {tt.num_stages = 2 : i32}
  tt.return
}

// -----

// The loop `tle.range(0, n_tiles)` with n_tiles specialised to 1, after
// Triton's canonicalizer: its body inlined into the function, the induction
// variable replaced by 0. The groups go; the ops stay.
// CHECK-LABEL: tt.func public @folded
// CHECK-NOT: tle.pipeline_group
// CHECK: tt.load
// CHECK-NOT: tle.pipeline_group
// CHECK: tt.return
// ERR-NOT: @folded
tt.func public @folded(%p: tensor<128x!tt.ptr<f32>>) {
  %c0 = arith.constant 0 : i32
  %0 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 0 : i32, stage = 0 : i32, order = 0 : i32, num_groups = 1 : i32, num_stages = 2 : i32, tle.marker.no_results = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %c0 : i32 -> i32
  %x = tt.load %p : tensor<128x!tt.ptr<f32>>
  %1 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// -----

// A one-trip tle.range folded into the body of an outer loop: the operand is
// no induction variable of the outer loop, so the outer loop gets no groups.
// CHECK-LABEL: tt.func public @folded_in_loop
// CHECK: scf.for
// CHECK-NOT: tle.pipeline_group
// CHECK: tt.return
tt.func public @folded_in_loop(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %j = %c0 to %n step %c1 : i32 {
    %0 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 0 : i32, stage = 0 : i32, order = 0 : i32, num_groups = 1 : i32, num_stages = 2 : i32, tle.marker.no_results = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %c1 : i32 -> i32
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    %1 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  }
  tt.return
}

// -----

// A group inside an scf.if of its loop is still the user's error.
// CHECK-LABEL: tt.func public @misplaced
// CHECK: scf.if
// CHECK-NEXT: tt.elementwise_inline_asm "tle.pipeline_group_begin {{.*}} {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
// ERR: error: 'tle.pipeline_group_begin' op must be directly in the body of a tle.range loop (an scf.for), not inside scf.if
// ERR: error: 'tle.pipeline_group_end' op must be directly in the body of a tle.range loop (an scf.for), not inside scf.if
tt.func public @misplaced(%p: tensor<128x!tt.ptr<f32>>, %n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.if %c {
      %0 = tt.elementwise_inline_asm "tle.pipeline_group_begin {group = 0 : i32, stage = 0 : i32, order = 0 : i32, num_groups = 1 : i32, num_stages = 2 : i32, tle.marker.no_results = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %i : i32 -> i32
      %x = tt.load %p : tensor<128x!tt.ptr<f32>>
      %1 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    }
  } {tt.num_stages = 2 : i32}
  tt.return
}
