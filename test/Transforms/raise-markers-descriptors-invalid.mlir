// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-raise-markers

// The descriptor marker's result must be a descriptor's base, and only that.
tt.func @not_a_base(%table: !tt.ptr<i8>, %off: i32) -> !tt.ptr<f32> {
  // expected-error @+1 {{the result of TLE marker 'tle.reinterpret_tensor_map' must be the base of one tt.make_tensor_descriptor (TTIR) or of Triton's expansion of one}}
  %base = tt.elementwise_inline_asm "tle.reinterpret_tensor_map {tle.marker.descriptor = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %table : !tt.ptr<i8> -> !tt.ptr<f32>
  // expected-note @+1 {{used by 'tt.addptr'}}
  %p = tt.addptr %base, %off : !tt.ptr<f32>, i32
  tt.return %p : !tt.ptr<f32>
}

// -----

tt.func @unused(%table: !tt.ptr<i8>) {
  // expected-error @+1 {{the result of TLE marker 'tle.reinterpret_tensor_map' must be the base of one tt.make_tensor_descriptor}}
  %base = tt.elementwise_inline_asm "tle.reinterpret_tensor_map {tle.marker.descriptor = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %table : !tt.ptr<i8> -> !tt.ptr<f32>
  tt.return
}

// -----

tt.func @not_a_flag(%table: !tt.ptr<i8>, %i: i32) -> tensor<8x32xf32> {
  %c8 = arith.constant 8 : i32
  %c32 = arith.constant 32 : i32
  %c32_i64 = arith.constant 32 : i64
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{'tle.marker.descriptor' must be true or false, got 1 : i32}}
  %base = tt.elementwise_inline_asm "tle.reinterpret_tensor_map {tle.marker.descriptor = 1 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %table : !tt.ptr<i8> -> !tt.ptr<f32>
  %d = tt.make_tensor_descriptor %base, [%c8, %c32], [%c32_i64, %c1_i64] : <f32>, <tensor<8x32xf32>>
  %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x32xf32>> -> tensor<8x32xf32>
  tt.return %v : tensor<8x32xf32>
}

// -----

// The raised op's verifier runs at the marker: a shared-memory map address.
tt.func @shared_map(%table: !tt.ptr<i8, 3>, %i: i32) -> tensor<8x32xf32> {
  %c8 = arith.constant 8 : i32
  %c32 = arith.constant 32 : i32
  %c32_i64 = arith.constant 32 : i64
  %c1_i64 = arith.constant 1 : i64
  // expected-error @+1 {{takes a pointer into global memory (address space 1) to a 128-byte tensor map}}
  %base = tt.elementwise_inline_asm "tle.reinterpret_tensor_map {tle.marker.descriptor = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %table : !tt.ptr<i8, 3> -> !tt.ptr<f32>
  %d = tt.make_tensor_descriptor %base, [%c8, %c32], [%c32_i64, %c1_i64] : <f32>, <tensor<8x32xf32>>
  %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x32xf32>> -> tensor<8x32xf32>
  tt.return %v : tensor<8x32xf32>
}
