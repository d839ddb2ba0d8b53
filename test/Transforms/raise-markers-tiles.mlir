// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers | FileCheck %s
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true | FileCheck %s --check-prefix=VERIFY

// Tile markers (docs/markers.md, "Tiles") as python/tle/language/tiles.py
// writes them: the extracted tile comes back through a tt.reshape to the grid
// view and pick reduces; the inserted tile goes in repeated over the grid.

// CHECK-LABEL: tt.func @extract_static
// CHECK-NEXT: %[[T:.*]] = tle.extract_tile %arg0[3] tile [16, 32] : tensor<32x64xf32> -> tensor<16x32xf32>
// CHECK-NEXT: tt.return %[[T]] : tensor<16x32xf32>
// VERIFY-LABEL: tt.func @extract_static
// VERIFY-NEXT: tt.elementwise_inline_asm "tle.extract_tile
// VERIFY-NEXT: tt.reshape
tt.func @extract_static(%x: tensor<32x64xf32>) -> tensor<16x32xf32> {
  %r = tt.elementwise_inline_asm "tle.extract_tile {tile_shape = array<i64: 16, 32>, static_index = 3 : i64, tle.marker.tile_shape = array<i64: 16, 32>, tle.marker.tiled_results = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<32x64xf32> -> tensor<32x64xf32>
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

// 1-D, dynamic index (a splatted scalar operand).
// CHECK-LABEL: tt.func @extract_dynamic_1d
// CHECK-NEXT: %[[T:.*]] = tle.extract_tile %arg0[%arg1] tile [32] : tensor<128xi32>, i32 -> tensor<32xi32>
// CHECK-NEXT: tt.return %[[T]]
tt.func @extract_dynamic_1d(%x: tensor<128xi32>, %i: i32) -> tensor<32xi32> {
  %s = tt.splat %i : i32 -> tensor<128xi32>
  %r = tt.elementwise_inline_asm "tle.extract_tile {tile_shape = array<i64: 32>, tle.marker.tile_shape = array<i64: 32>, tle.marker.tiled_results = array<i32: 0>, tle.marker.scalar_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %s : tensor<128xi32>, tensor<128xi32> -> tensor<128xi32>
  %v = tt.reshape %r : tensor<128xi32> -> tensor<4x32xi32>
  %t = "tt.reduce"(%v) <{axis = 0 : i32}> ({
  ^bb0(%p: i32, %q: i32):
    tt.reduce.return %p : i32
  }) : (tensor<4x32xi32>) -> tensor<32xi32>
  tt.return %t : tensor<32xi32>
}

// -----

// Insert: the tile is taken back from expand_dims / broadcast / reshape, which
// are erased with the marker.
// CHECK-LABEL: tt.func @insert_static
// CHECK-NEXT: %[[R:.*]] = tle.insert_tile %arg1 into %arg0[2] : tensor<16x32xf32> into tensor<32x64xf32>
// CHECK-NEXT: tt.return %[[R]] : tensor<32x64xf32>
tt.func @insert_static(%x: tensor<32x64xf32>, %t: tensor<16x32xf32>) -> tensor<32x64xf32> {
  %e0 = tt.expand_dims %t {axis = 0 : i32} : tensor<16x32xf32> -> tensor<1x16x32xf32>
  %e1 = tt.expand_dims %e0 {axis = 2 : i32} : tensor<1x16x32xf32> -> tensor<1x16x1x32xf32>
  %b = tt.broadcast %e1 : tensor<1x16x1x32xf32> -> tensor<2x16x2x32xf32>
  %rep = tt.reshape %b : tensor<2x16x2x32xf32> -> tensor<32x64xf32>
  %r = tt.elementwise_inline_asm "tle.insert_tile {static_index = 2 : i64, tle.marker.tile_shape = array<i64: 16, 32>, tle.marker.tiled_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %rep : tensor<32x64xf32>, tensor<32x64xf32> -> tensor<32x64xf32>
  tt.return %r : tensor<32x64xf32>
}

// -----

// Dynamic insert, grid 1x4 (only axis 1 is a grid axis).
// CHECK-LABEL: tt.func @insert_dynamic
// CHECK-NEXT: %[[R:.*]] = tle.insert_tile %arg1 into %arg0[%arg2] : tensor<8x16xf16> into tensor<8x64xf16>, i64
// CHECK-NEXT: tt.return %[[R]]
tt.func @insert_dynamic(%x: tensor<8x64xf16>, %t: tensor<8x16xf16>, %i: i64) -> tensor<8x64xf16> {
  %e = tt.expand_dims %t {axis = 1 : i32} : tensor<8x16xf16> -> tensor<8x1x16xf16>
  %b = tt.broadcast %e : tensor<8x1x16xf16> -> tensor<8x4x16xf16>
  %rep = tt.reshape %b : tensor<8x4x16xf16> -> tensor<8x64xf16>
  %s = tt.splat %i : i64 -> tensor<8x64xi64>
  %r = tt.elementwise_inline_asm "tle.insert_tile {tle.marker.tile_shape = array<i64: 8, 16>, tle.marker.tiled_operands = array<i32: 1>, tle.marker.scalar_operands = array<i32: 2>}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %x, %rep, %s : tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xi64> -> tensor<8x64xf16>
  tt.return %r : tensor<8x64xf16>
}

// -----

// Triton folded a uniform tile into a splat: the tile is a splat of the tile shape.
// CHECK-LABEL: tt.func @insert_splat
// CHECK-NEXT: %[[S:.*]] = tt.splat %arg1 : f32 -> tensor<16xf32>
// CHECK-NEXT: %[[R:.*]] = tle.insert_tile %[[S]] into %arg0[1] : tensor<16xf32> into tensor<64xf32>
tt.func @insert_splat(%x: tensor<64xf32>, %v: f32) -> tensor<64xf32> {
  %rep = tt.splat %v : f32 -> tensor<64xf32>
  %r = tt.elementwise_inline_asm "tle.insert_tile {static_index = 1 : i64, tle.marker.tile_shape = array<i64: 16>, tle.marker.tiled_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %rep : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}

// -----

// Any other repeated value: the tile is cut out at grid position 0.
// CHECK-LABEL: tt.func @insert_recovered
// CHECK-NEXT: %[[T:.*]] = tle.extract_tile %arg1[0] tile [16] : tensor<64xf32> -> tensor<16xf32>
// CHECK-NEXT: %[[R:.*]] = tle.insert_tile %[[T]] into %arg0[1] : tensor<16xf32> into tensor<64xf32>
tt.func @insert_recovered(%x: tensor<64xf32>, %rep: tensor<64xf32>) -> tensor<64xf32> {
  %r = tt.elementwise_inline_asm "tle.insert_tile {static_index = 1 : i64, tle.marker.tile_shape = array<i64: 16>, tle.marker.tiled_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %rep : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  tt.return %r : tensor<64xf32>
}
