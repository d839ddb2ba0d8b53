// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-raise-warp-specialize

tt.func @missing_region(%n: i32) {
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  // expected-error @+1 {{warp_specialize group 0: expected region 1, got region 2 (regions must be 0..1, each once)}}
  %m2 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 2 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m2 {
  }
  tt.return
}

// -----

tt.func @warps_count(%n: i32) {
  // expected-error @+1 {{warp_specialize has 1 worker regions but partition_num_warps has 2 entries}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1, 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m1 {
  }
  tt.return
}

// -----

tt.func @not_an_if_condition(%n: i32) -> i1 {
  // expected-error @+1 {{warp_specialize region marker must have no operands and one result used once}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  tt.return %m0 : i1
}

// -----

tt.func @if_with_else(%n: i32) {
  // expected-error @+1 {{warp_specialize region marker must be the condition of a result-less scf.if without an else branch}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  } else {
    %a = arith.addi %n, %n : i32
  }
  tt.return
}

// -----

tt.func @unknown_key(%n: i32) {
  // expected-error @+1 {{warp_specialize region marker: unknown key 'num_warps'}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, num_warps = 4 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  tt.return
}

// -----

tt.func @bad_warps(%n: i32) {
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 3>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  // The raised op is verified at once.
  // expected-error @-2 {{'tle.warp_specialize' op partition 0 num_warps must be a power of two >= 1, got 3}}
  scf.if %m0 {
  }
  %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m1 {
  }
  tt.return
}

// -----

// Only the default partition returns values (tle.gpu.warp_specialize
// rejects a worker that returns one; the raise pass checks the markers too).
tt.func @worker_results(%n: i32) -> i32 {
  %p = ub.poison : i32
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
    %a = arith.addi %n, %n : i32
  }
  // expected-error @+1 {{warp_specialize region 1 (a worker partition) yields 1 results; only the default partition (region 0) returns values}}
  %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  %r = scf.if %m1 -> i32 {
    %b = arith.muli %n, %n : i32
    scf.yield %b : i32
  } else {
    scf.yield %p : i32
  }
  tt.return %r : i32
}

// -----

// Found by scripts/fuzz_tle_opt.py: an unsigned group asserted in getInt().
tt.func @unsigned_group() {
  // expected-error @+1 {{warp_specialize region marker needs 32-bit integer 'tle.marker.partition' and 'tle.marker.group'}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : ui64, partition_num_warps = array<i32>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  tt.return
}

// -----

// The else branch of the default partition's scf.if never runs: it may only
// hold placeholders, never an op with effects.
tt.func @else_with_effects(%x: !tt.ptr<f32>, %n: i32) -> f32 {
  // expected-error @+1 {{warp_specialize region 0: the else branch of its scf.if must be free of side effects, found 'tt.load'}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  %r = scf.if %m0 -> f32 {
    %c = arith.constant 1.0 : f32
    scf.yield %c : f32
  } else {
    %v = tt.load %x : !tt.ptr<f32>
    scf.yield %v : f32
  }
  %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m1 {
    %b = arith.muli %n, %n : i32
  }
  tt.return %r : f32
}

// -----

tt.func @partition_too_wide() {
  // expected-error @+1 {{warp_specialize region marker needs 32-bit integer 'tle.marker.partition' and 'tle.marker.group'}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 4294967296 : i64, tle.marker.group = 0 : i32, partition_num_warps = array<i32>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  tt.return
}

// -----

// Found by scripts/fuzz_tle_opt.py: an `i0` group asserted reading its bits.
tt.func @i0_group() {
  // expected-error @+1 {{warp_specialize region marker needs 32-bit integer 'tle.marker.partition' and 'tle.marker.group'}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i0, partition_num_warps = array<i32: 3>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  tt.return
}

// -----

tt.func @foreign_dialect() {
  // expected-error @+1 {{warp_specialize region marker: '{tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32>, gpu.x = 1}' names the dialect 'gpu', which TLE markers do not use}}
  %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32>, gpu.x = 1}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
  scf.if %m0 {
  }
  tt.return
}
