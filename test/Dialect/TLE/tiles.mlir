// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// CHECK-DAG: #[[B1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B2:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// 64x64 in 16x32 tiles is a 4x2 grid: tiles 0..7.
// CHECK-LABEL: func.func @extract_static(
// CHECK: %{{.*}} = tle.extract_tile %arg0[0] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
// CHECK: %{{.*}} = tle.extract_tile %arg0[7] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
func.func @extract_static(%x: tensor<64x64xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %first = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
  %last = tle.extract_tile %x[7] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
  return %first, %last : tensor<16x32xf32>, tensor<16x32xf32>
}

// Dynamic indices of any integer width (FlagTree assumed i32).
// CHECK-LABEL: func.func @extract_dynamic(
// CHECK: %{{.*}} = tle.extract_tile %arg0[%arg1] tile [16, 32] : tensor<64x64xf32>, i32 -> tensor<16x32xf32>
// CHECK: %{{.*}} = tle.extract_tile %arg0[%arg2] tile [16, 32] : tensor<64x64xf32>, i64 -> tensor<16x32xf32>
// CHECK: %{{.*}} = tle.extract_tile %arg0[%arg3] tile [16, 32] : tensor<64x64xf32>, i16 -> tensor<16x32xf32>
func.func @extract_dynamic(%x: tensor<64x64xf32>, %i: i32, %j: i64, %k: i16) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) {
  %a = tle.extract_tile %x[%i] tile [16, 32] : tensor<64x64xf32>, i32 -> tensor<16x32xf32>
  %b = tle.extract_tile %x[%j] tile [16, 32] : tensor<64x64xf32>, i64 -> tensor<16x32xf32>
  %c = tle.extract_tile %x[%k] tile [16, 32] : tensor<64x64xf32>, i16 -> tensor<16x32xf32>
  return %a, %b, %c : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
}

// Constant dynamic indices inside the grid verify.
// CHECK-LABEL: func.func @extract_constant_index(
// CHECK: %[[C7:.*]] = arith.constant 7 : i64
// CHECK: %{{.*}} = tle.extract_tile %arg0[%[[C7]]] tile [16, 32] : tensor<64x64xf32>, i64 -> tensor<16x32xf32>
func.func @extract_constant_index(%x: tensor<64x64xf32>) -> tensor<16x32xf32> {
  %c7 = arith.constant 7 : i64
  %t = tle.extract_tile %x[%c7] tile [16, 32] : tensor<64x64xf32>, i64 -> tensor<16x32xf32>
  return %t : tensor<16x32xf32>
}

// Encoded source; the tile may carry another encoding. Rank 1 and rank 3.
// CHECK-LABEL: func.func @extract_encoded(
// CHECK: %{{.*}} = tle.extract_tile %arg0[1] tile [64, 32] : tensor<128x64xbf16, #[[B1]]> -> tensor<64x32xbf16, #[[B2]]>
// CHECK: %{{.*}} = tle.extract_tile %arg1[3] tile [32] : tensor<128xi32> -> tensor<32xi32>
// CHECK: %{{.*}} = tle.extract_tile %arg2[3] tile [1, 4, 8] : tensor<2x8x8xf16> -> tensor<1x4x8xf16>
func.func @extract_encoded(%x: tensor<128x64xbf16, #blocked>, %y: tensor<128xi32>, %z: tensor<2x8x8xf16>) -> (tensor<64x32xbf16, #blocked1>, tensor<32xi32>, tensor<1x4x8xf16>) {
  %a = tle.extract_tile %x[1] tile [64, 32] : tensor<128x64xbf16, #blocked> -> tensor<64x32xbf16, #blocked1>
  %b = tle.extract_tile %y[3] tile [32] : tensor<128xi32> -> tensor<32xi32>
  %c = tle.extract_tile %z[3] tile [1, 4, 8] : tensor<2x8x8xf16> -> tensor<1x4x8xf16>
  return %a, %b, %c : tensor<64x32xbf16, #blocked1>, tensor<32xi32>, tensor<1x4x8xf16>
}

// Tiles of pointer tensors, and the whole tensor as its only tile.
// CHECK-LABEL: func.func @extract_pointers(
// CHECK: %{{.*}} = tle.extract_tile %arg0[2] tile [16] : tensor<64x!tt.ptr<f32>> -> tensor<16x!tt.ptr<f32>>
// CHECK: %{{.*}} = tle.extract_tile %arg0[0] tile [64] : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f32>>
func.func @extract_pointers(%p: tensor<64x!tt.ptr<f32>>) -> (tensor<16x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>) {
  %a = tle.extract_tile %p[2] tile [16] : tensor<64x!tt.ptr<f32>> -> tensor<16x!tt.ptr<f32>>
  %b = tle.extract_tile %p[0] tile [64] : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f32>>
  return %a, %b : tensor<16x!tt.ptr<f32>>, tensor<64x!tt.ptr<f32>>
}

// CHECK-LABEL: func.func @insert(
// CHECK: %[[Y:.*]] = tle.insert_tile %arg1 into %arg0[7] : tensor<16x32xf32> into tensor<64x64xf32>
// CHECK: %[[Z:.*]] = tle.insert_tile %arg1 into %[[Y]][%arg2] : tensor<16x32xf32> into tensor<64x64xf32>, i32
// CHECK: %{{.*}} = tle.insert_tile %arg1 into %[[Z]][%arg3] : tensor<16x32xf32> into tensor<64x64xf32>, i64
func.func @insert(%x: tensor<64x64xf32>, %t: tensor<16x32xf32>, %i: i32, %j: i64) -> tensor<64x64xf32> {
  %y = tle.insert_tile %t into %x[7] : tensor<16x32xf32> into tensor<64x64xf32>
  %z = tle.insert_tile %t into %y[%i] : tensor<16x32xf32> into tensor<64x64xf32>, i32
  %w = tle.insert_tile %t into %z[%j] : tensor<16x32xf32> into tensor<64x64xf32>, i64
  return %w : tensor<64x64xf32>
}

// The result keeps the source's encoding; the tile's may differ.
// CHECK-LABEL: func.func @insert_encoded(
// CHECK: %{{.*}} = tle.insert_tile %arg1 into %arg0[1] : tensor<64x32xbf16, #[[B2]]> into tensor<128x64xbf16, #[[B1]]>
// CHECK: %{{.*}} = tle.insert_tile %arg1 into %arg0[%{{.*}}] : tensor<64x32xbf16, #[[B2]]> into tensor<128x64xbf16, #[[B1]]>, i8
func.func @insert_encoded(%x: tensor<128x64xbf16, #blocked>, %t: tensor<64x32xbf16, #blocked1>) -> (tensor<128x64xbf16, #blocked>, tensor<128x64xbf16, #blocked>) {
  %a = tle.insert_tile %t into %x[1] : tensor<64x32xbf16, #blocked1> into tensor<128x64xbf16, #blocked>
  %c3 = arith.constant 3 : i8
  %b = tle.insert_tile %t into %x[%c3] : tensor<64x32xbf16, #blocked1> into tensor<128x64xbf16, #blocked>, i8
  return %a, %b : tensor<128x64xbf16, #blocked>, tensor<128x64xbf16, #blocked>
}
