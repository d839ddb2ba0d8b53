// RUN: tle-opt %s -split-input-file -verify-diagnostics

tt.func @group_out_of_range(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{group 3 is out of range: the loop has 3 group(s)}}
    tle.pipeline_group_begin 3 stage 0 order 0 groups 3 stages 2
  }
  tt.return
}

// -----

tt.func @stage_too_large(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{stage 2 of group 0 must be in [0, num_stages = 2)}}
    tle.pipeline_group_begin 0 stage 2 order 0 groups 1 stages 2
  }
  tt.return
}

// -----

tt.func @negative_order(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{order -1 of group 0 must be >= 0}}
    tle.pipeline_group_begin 0 stage 0 order -1 groups 1 stages 2
  }
  tt.return
}

// -----

tt.func @no_stages(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{needs num_stages >= 1, got 0}}
    tle.pipeline_group_begin 0 stage 0 order 0 groups 1 stages 0
  }
  tt.return
}

// -----

tt.func @outside_loop() {
  // expected-error @+1 {{must be directly in the body of a tle.range loop (an scf.for), not inside tt.func}}
  tle.pipeline_group_begin 0 stage 0 order 0 groups 1 stages 2
  tt.return
}

// -----

tt.func @end_inside_if(%n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.if %c {
      // expected-error @+1 {{must be directly in the body of a tle.range loop (an scf.for), not inside scf.if}}
      tle.pipeline_group_end 0
    }
  }
  tt.return
}

// -----

tt.func @negative_end(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    // expected-error @+1 {{group -2 must be >= 0}}
    tle.pipeline_group_end -2
  }
  tt.return
}
