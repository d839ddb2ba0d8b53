// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers -verify-diagnostics
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true -verify-diagnostics

tt.func @out_of_range(%x: tensor<32x64xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{'tle.extract_tile' op tile index 4 is out of bounds for a 2x2 tile grid (4 tiles)}}
  %r = tt.elementwise_inline_asm "tle.extract_tile {tile_shape = array<i64: 16, 32>, static_index = 4 : i64, tle.marker.tile_shape = array<i64: 16, 32>, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<32x64xf32> -> tensor<32x64xf32>
  %v = tt.reshape %r : tensor<32x64xf32> -> tensor<2x16x2x32xf32>
  %a = "tt.reduce"(%v) <{axis = 2 : i32}> ({
  ^bb0(%p: f32, %q: f32):
    tt.reduce.return %p : f32
  }) : (tensor<2x16x2x32xf32>) -> tensor<2x16x32xf32>
  %t = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%p: f32, %q: f32):
    tt.reduce.return %p : f32
  }) : (tensor<2x16x32xf32>) -> tensor<16x32xf32>
  tt.return %t : tensor<16x32xf32>
}

// -----

tt.func @result_not_picked(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{tiled result 0 of TLE marker 'tle.extract_tile' must be used by one tt.reshape and pick tt.reduces down to the tile shape}}
  %r = tt.elementwise_inline_asm "tle.extract_tile {tile_shape = array<i64: 16>, static_index = 0 : i64, tle.marker.tile_shape = array<i64: 16>, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}

// -----

tt.func @missing_tile_shape(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{TLE marker 'tle.extract_tile': 'tle.marker.tile_shape' goes with 'tle.marker.tiled_operands' or 'tle.marker.tiled_results'}}
  %r = tt.elementwise_inline_asm "tle.extract_tile {tile_shape = array<i64: 16>, static_index = 0 : i64, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}

// -----

tt.func @tile_does_not_divide(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tle.insert_tile' op tile dimension 0 (24) does not divide the source dimension (64)}}
  %r = tt.elementwise_inline_asm "tle.insert_tile {static_index = 0 : i64, tle.marker.tile_shape = array<i64: 24>, tle.marker.tiled_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %x : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}

// -----

// Found by scripts/fuzz_tle_opt.py: the tile type was built from a negative
// size (RankedTensorType::get asserted) before any verifier ran.
tt.func @negative_tile_size(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tle.marker.tile_shape' sizes must be positive, got array<i64: -24>}}
  %r = tt.elementwise_inline_asm "tle.insert_tile {static_index = 0 : i64, tle.marker.tile_shape = array<i64: -24>, tle.marker.tiled_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %x : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}

// -----

tt.func @zero_tile_size(%x: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tle.marker.tile_shape' sizes must be positive, got array<i64: 0>}}
  %r = tt.elementwise_inline_asm "tle.extract_tile {tile_shape = array<i64: 0>, static_index = 0 : i64, tle.marker.tile_shape = array<i64: 0>, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}
