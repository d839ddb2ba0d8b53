// RUN: tle-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tle.extract_tile
//===----------------------------------------------------------------------===//

func.func @extract_both_indices(%x: tensor<64x64xf32>, %i: i32) {
  // expected-error @+1 {{expects exactly one of a static index attribute or a dynamic index operand}}
  %t = "tle.extract_tile"(%x, %i) <{static_index = 1 : i64, tile_shape = array<i64: 16, 32>}> : (tensor<64x64xf32>, i32) -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_no_index(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{expects exactly one of a static index attribute or a dynamic index operand}}
  %t = "tle.extract_tile"(%x) <{tile_shape = array<i64: 16, 32>}> : (tensor<64x64xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_dynamic_source(%x: tensor<?x64xf32>) {
  // expected-error @+1 {{expects a statically shaped source, got 'tensor<?x64xf32>'}}
  %t = tle.extract_tile %x[0] tile [16, 32] : tensor<?x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_element_type(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{result element type 'f16' must equal the source element type 'f32'}}
  %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf16>
  return
}

// -----

func.func @extract_tile_rank(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{tile_shape has rank 1 but the source has rank 2}}
  %t = tle.extract_tile %x[0] tile [16] : tensor<64x64xf32> -> tensor<16xf32>
  return
}

// -----

func.func @extract_zero_tile_dim(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{tile_shape dimension 1 is 0; expected > 0}}
  %t = tle.extract_tile %x[0] tile [16, 0] : tensor<64x64xf32> -> tensor<16x0xf32>
  return
}

// -----

// A source with a zero dimension has no tiles (scripts/fuzz_tle_opt.py:
// triton-tle-lower-tiles built a memdesc of its shape and asserted).
func.func @extract_zero_source_dim(%x: tensor<0xf32>, %i: i32) {
  // expected-error @+1 {{source dimension 0 is 0; expected > 0}}
  %t = tle.extract_tile %x[%i] tile [8] : tensor<0xf32>, i32 -> tensor<8xf32>
  return
}

// -----

func.func @extract_negative_tile_dim(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{tile_shape dimension 0 is -16; expected > 0}}
  %t = "tle.extract_tile"(%x) <{static_index = 0 : i64, tile_shape = array<i64: -16, 32>}> : (tensor<64x64xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_not_dividing(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{tile_shape dimension 1 (24) does not divide the source dimension (64)}}
  %t = tle.extract_tile %x[0] tile [16, 24] : tensor<64x64xf32> -> tensor<16x24xf32>
  return
}

// -----

func.func @extract_result_shape(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{result shape [32, 16] must equal tile_shape [16, 32]}}
  %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32> -> tensor<32x16xf32>
  return
}

// -----

func.func @extract_result_rank(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{result shape [512] must equal tile_shape [16, 32]}}
  %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32> -> tensor<512xf32>
  return
}

// -----

func.func @extract_static_out_of_bounds(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{tile index 8 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %t = tle.extract_tile %x[8] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_static_negative(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{tile index -1 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %t = tle.extract_tile %x[-1] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_constant_out_of_bounds_i64(%x: tensor<64x64xf32>) {
  %c8 = arith.constant 8 : i64
  // expected-error @+1 {{tile index 8 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %t = tle.extract_tile %x[%c8] tile [16, 32] : tensor<64x64xf32>, i64 -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_constant_negative_i32(%x: tensor<64x64xf32>) {
  %c = arith.constant -2 : i32
  // expected-error @+1 {{tile index -2 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %t = tle.extract_tile %x[%c] tile [16, 32] : tensor<64x64xf32>, i32 -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_float_index(%x: tensor<64x64xf32>, %f: f32) {
  // expected-error @+1 {{operand #1 must be signless integer, but got 'f32'}}
  %t = tle.extract_tile %x[%f] tile [16, 32] : tensor<64x64xf32>, f32 -> tensor<16x32xf32>
  return
}

// -----

func.func @extract_tensor_index(%x: tensor<64x64xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{operand #1 must be signless integer, but got 'tensor<1xi32>'}}
  %t = tle.extract_tile %x[%i] tile [16, 32] : tensor<64x64xf32>, tensor<1xi32> -> tensor<16x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tle.insert_tile
//===----------------------------------------------------------------------===//

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @insert_result_type(%x: tensor<64x64xf32, #blocked>, %t: tensor<16x32xf32>) {
  // expected-error @+1 {{failed to verify that all of {src, result} have same type}}
  %y = "tle.insert_tile"(%x, %t) <{static_index = 0 : i64}> : (tensor<64x64xf32, #blocked>, tensor<16x32xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @insert_both_indices(%x: tensor<64x64xf32>, %t: tensor<16x32xf32>, %i: i64) {
  // expected-error @+1 {{expects exactly one of a static index attribute or a dynamic index operand}}
  %y = "tle.insert_tile"(%x, %t, %i) <{static_index = 0 : i64}> : (tensor<64x64xf32>, tensor<16x32xf32>, i64) -> tensor<64x64xf32>
  return
}

// -----

func.func @insert_no_index(%x: tensor<64x64xf32>, %t: tensor<16x32xf32>) {
  // expected-error @+1 {{expects exactly one of a static index attribute or a dynamic index operand}}
  %y = "tle.insert_tile"(%x, %t) : (tensor<64x64xf32>, tensor<16x32xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @insert_dynamic_source(%x: tensor<64x?xf32>, %t: tensor<16x32xf32>) {
  // expected-error @+1 {{expects a statically shaped source and tile}}
  %y = tle.insert_tile %t into %x[0] : tensor<16x32xf32> into tensor<64x?xf32>
  return
}

// -----

func.func @insert_dynamic_tile(%x: tensor<64x64xf32>, %t: tensor<16x?xf32>) {
  // expected-error @+1 {{expects a statically shaped source and tile}}
  %y = tle.insert_tile %t into %x[0] : tensor<16x?xf32> into tensor<64x64xf32>
  return
}

// -----

func.func @insert_element_type(%x: tensor<64x64xf32>, %t: tensor<16x32xbf16>) {
  // expected-error @+1 {{tile element type 'bf16' must equal the source element type 'f32'}}
  %y = tle.insert_tile %t into %x[0] : tensor<16x32xbf16> into tensor<64x64xf32>
  return
}

// -----

func.func @insert_rank(%x: tensor<64x64xf32>, %t: tensor<512xf32>) {
  // expected-error @+1 {{tile has rank 1 but the source has rank 2}}
  %y = tle.insert_tile %t into %x[0] : tensor<512xf32> into tensor<64x64xf32>
  return
}

// -----

func.func @insert_zero_tile_dim(%x: tensor<64x64xf32>, %t: tensor<0x32xf32>) {
  // expected-error @+1 {{tile dimension 0 is 0; expected > 0}}
  %y = tle.insert_tile %t into %x[0] : tensor<0x32xf32> into tensor<64x64xf32>
  return
}

// -----

func.func @insert_not_dividing(%x: tensor<64x64xf32>, %t: tensor<48x32xf32>) {
  // expected-error @+1 {{tile dimension 0 (48) does not divide the source dimension (64)}}
  %y = tle.insert_tile %t into %x[0] : tensor<48x32xf32> into tensor<64x64xf32>
  return
}

// -----

func.func @insert_static_out_of_bounds(%x: tensor<64x64xf32>, %t: tensor<16x32xf32>) {
  // expected-error @+1 {{tile index 8 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %y = tle.insert_tile %t into %x[8] : tensor<16x32xf32> into tensor<64x64xf32>
  return
}

// -----

func.func @insert_constant_out_of_bounds(%x: tensor<64x64xf32>, %t: tensor<16x32xf32>) {
  %c = arith.constant 100 : i16
  // expected-error @+1 {{tile index 100 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %y = tle.insert_tile %t into %x[%c] : tensor<16x32xf32> into tensor<64x64xf32>, i16
  return
}

// -----

func.func @insert_float_index(%x: tensor<64x64xf32>, %t: tensor<16x32xf32>, %f: f16) {
  // expected-error @+1 {{operand #2 must be signless integer, but got 'f16'}}
  %y = tle.insert_tile %t into %x[%f] : tensor<16x32xf32> into tensor<64x64xf32>, f16
  return
}
