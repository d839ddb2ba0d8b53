// RUN: tle-opt %s -split-input-file -verify-diagnostics

// The program-shape attributes Triton prints as `N : i32` and reads with
// getInt(): TLE's passes read them too (triton-tle-lower-pipes,
// -lower-local-memory, -lower-dsl-region, -optimize-exclusive-cumsum-layouts,
// -lower-async-loads), so the verifier rejects any other form instead of a
// pass asserting on it or dividing by it. scripts/fuzz_tle_opt.py found
// `"ttg.threads-per-warp" = 32 : si32` asserting in triton-tle-lower-pipes.

// expected-error @below {{'builtin.module' op attribute 'ttg.threads-per-warp' must be a positive 32-bit integer, got 32 : si32}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : si32} {
  tt.func @f() {
    tt.return
  }
}

// -----

// expected-error @below {{attribute 'ttg.num-warps' must be a positive 32-bit integer, got 0 : i32}}
module attributes {"ttg.num-warps" = 0 : i32} {
}

// -----

// expected-error @below {{attribute 'ttg.num-ctas' must be a positive 32-bit integer, got 4294967296 : i64}}
module attributes {"ttg.num-ctas" = 4294967296 : i64} {
}

// -----

// expected-error @below {{attribute 'ttg.num-warps' must be a positive 32-bit integer, got i32}}
module attributes {"ttg.num-warps" = i32} {
}

// -----

tt.func @loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @below {{'scf.for' op attribute 'tt.num_stages' must be a 32-bit integer, got 3 : ui32}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tt.num_stages = 3 : ui32}
  tt.return
}

// -----

// expected-error @below {{attribute 'ttg.num-warps' must be a positive 32-bit integer, got 0 : i0}}
module attributes {"ttg.num-warps" = 0 : i0} {
}
