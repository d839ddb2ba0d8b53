// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipeline-groups -verify-diagnostics

tt.func @nested(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-note @+1 {{group 0 opened here}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 2
    // expected-error @+1 {{pipeline group 1 is nested in group 0; pipeline groups cannot be nested}}
    tle.pipeline_group_begin 1 stage 1 order 1 groups 2 stages 2
    tle.pipeline_group_end 1
    tle.pipeline_group_end 0
  }
  tt.return
}

// -----

tt.func @used_twice(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-note @+1 {{first used here}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 2
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 1 stage 1 order 1 groups 2 stages 2
    tle.pipeline_group_end 1
    // expected-error @+1 {{pipeline group 0 is used twice in this loop; a group is one contiguous `with tle.pipeline_group(i):` block}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 2
    tle.pipeline_group_end 0
  }
  tt.return
}

// -----

tt.func @missing_group(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{the loop declares 3 pipeline group(s) (pipe_stages / pipe_orders entries) but uses no group 1}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 3 stages 2
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 2 stage 1 order 2 groups 3 stages 2
    tle.pipeline_group_end 2
  }
  tt.return
}

// -----

// Found by scripts/fuzz_tle_opt.py: a table of 2^31 - 1 groups was
// allocated before the unused ones were noticed (LLVM ERROR: out of memory).
tt.func @huge_group_count(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{the loop declares 2147483647 pipeline group(s) (pipe_stages / pipe_orders entries) but uses no group 1}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2147483647 stages 2
    tle.pipeline_group_end 0
  }
  tt.return
}

// -----

tt.func @disagree(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 2
    tle.pipeline_group_end 0
    // expected-error @+1 {{pipeline group 1 says the loop has 2 group(s) and 3 stage(s), but an earlier group of the loop says 2 and 2}}
    tle.pipeline_group_begin 1 stage 1 order 1 groups 2 stages 3
    tle.pipeline_group_end 1
  }
  tt.return
}

// -----

tt.func @end_mismatch(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 2
    // expected-error @+1 {{end of pipeline group 1 while group 0 is open}}
    tle.pipeline_group_end 1
  }
  tt.return
}

// -----

tt.func @end_without_begin(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{end of pipeline group 0 without a matching begin}}
    tle.pipeline_group_end 0
  }
  tt.return
}

// -----

tt.func @never_closed(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{pipeline group 0 is never closed}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 1 stages 2
  }
  tt.return
}

// -----

tt.func @not_innermost(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{a tle.range loop with pipeline groups must be an innermost loop (Triton 3.6 software-pipelines innermost loops only)}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 1 stages 2
    // expected-note @+1 {{nested loop here}}
    scf.for %j = %c0 to %n step %c1 : i32 {
      %x = tt.load %p : tensor<128x!tt.ptr<f32>>
      tt.store %p, %x : tensor<128x!tt.ptr<f32>>
    }
    tle.pipeline_group_end 0
  }
  tt.return
}

// -----

tt.func @earlier_stage_uses_later(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 1 order 0 groups 2 stages 2
    // expected-note @+1 {{the value is computed here}}
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 0
    // expected-note @+1 {{group 1 starts here}}
    tle.pipeline_group_begin 1 stage 0 order 1 groups 2 stages 2
    // expected-error @+1 {{pipeline group 1 (stage 0) uses a value computed in the same iteration by group 0 (stage 1); a value can only flow to the same or a later stage}}
    tt.store %p, %x : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 1
  }
  tt.return
}

// -----

tt.func @order_against_use(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 1 groups 2 stages 2
    // expected-note @+1 {{must stay after this op of group 0}}
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 0
    // expected-error @+1 {{pipe_orders puts group 1 (order 0) before group 0 (order 1), but an op of group 1 uses a value of group 0}}
    tle.pipeline_group_begin 1 stage 1 order 0 groups 2 stages 2
    // expected-note @+1 {{this op of group 1}}
    %y = arith.addf %x, %x : tensor<128xf32>
    tle.pipeline_group_end 1
  }
  tt.return
}

// -----

tt.func @order_against_memory(%p: tensor<128x!tt.ptr<f32>>, %q: tensor<128x!tt.ptr<f32>>, %v: tensor<128xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 1 groups 2 stages 2
    // expected-note @+1 {{must stay after this op of group 0}}
    tt.store %p, %v : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 0
    // expected-error @+1 {{pipe_orders puts group 1 (order 0) before group 0 (order 1), but an op of group 1 accesses memory that group 0 also accesses (one of them writes)}}
    tle.pipeline_group_begin 1 stage 1 order 0 groups 2 stages 2
    // expected-note @+1 {{this op of group 1}}
    %y = tt.load %q : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 1
  }
  tt.return
}
