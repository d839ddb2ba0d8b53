// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers -verify-diagnostics

// A DSA buffer handle used by something else than a marker.
tt.func @handle_escapes() -> !tt.ptr<f32, 3> {
  // expected-error @below {{buffer handle (result 0 of TLE marker 'tle.dsa.alloc') is used by 'tt.return'}}
  %h = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  // expected-note @below {{used here}}
  tt.return %h : !tt.ptr<f32, 3>
}

// -----

// A shaped handle is accepted only from a marker with operands (to_buffer).
tt.func @shaped_alloc_handle() {
  // expected-error @below {{buffer result 0 of TLE marker 'tle.dsa.alloc' must be a scalar handle}}
  %h = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> tensor<16x!tt.ptr<f32, 3>>
  tt.return
}

// -----

// The op's verifier runs at the marker: a vector op on an L1 buffer.
tt.func @verifier_at_marker() {
  %h = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16xf32, L1>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  %s = tt.splat %h : !tt.ptr<f32, 3> -> tensor<16x!tt.ptr<f32, 3>>
  // expected-error @below {{'tle.dsa.add' op lhs is in L1, but the vector unit reads and writes only UB}}
  %r = tt.elementwise_inline_asm "tle.dsa.add {tle.marker.scalar_operands = array<i32: 0, 1, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %s, %s, %s : tensor<16x!tt.ptr<f32, 3>>, tensor<16x!tt.ptr<f32, 3>>, tensor<16x!tt.ptr<f32, 3>> -> tensor<16xi32>
  tt.return
}
