// RUN: tle-opt %s -split-input-file --triton-tle-reject-dsa -verify-diagnostics

// tle.dsa markers (as TLE's NVIDIA TTGIR stage sees them) are refused, each
// at its own location; other markers pass.
tt.func @markers(%x: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  // expected-error @below {{'tle.dsa.alloc' is for DSA targets only; the NVIDIA (TTGIR) pipeline cannot lower it}}
  %h = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  %s = tt.splat %h : !tt.ptr<f32, 3> -> tensor<16x!tt.ptr<f32, 3>>
  // expected-error @below {{'tle.dsa.copy' is for DSA targets only}}
  %c = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %s : tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32, 3>> -> tensor<16xi32>
  %l = tt.load %x : tensor<16x!tt.ptr<f32>>
  %e:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, reverse = false}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %l : tensor<16xf32> -> tensor<16xf32>, tensor<16xf32>
  tt.return %e#0 : tensor<16xf32>
}

// -----

// Raised tle.dsa ops are refused too.
tt.func @ops() {
  // expected-error @below {{'tle.dsa.alloc' is for DSA targets only}}
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @below {{'tle.dsa.add' is for DSA targets only}}
  tle.dsa.add %a, %a, %a : !tle.dsa.buffer<16xf32, UB>
  tt.return
}

// -----

// Nothing DSA: nothing reported.
tt.func @plain(%x: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %l = tt.load %x : tensor<16x!tt.ptr<f32>>
  tt.return %l : tensor<16xf32>
}
