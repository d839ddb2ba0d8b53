// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// CHECK: #[[BLOCKED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @rank1(
// CHECK: %{{.*}}, %{{.*}} = tle.exclusive_cumsum %arg0 {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
func.func @rank1(%x: tensor<128xi32>) -> (tensor<128xi32>, i32) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<128xi32> -> tensor<128xi32>, i32
  return %e, %t : tensor<128xi32>, i32
}

// CHECK-LABEL: func.func @rank1_reverse_default
// CHECK: tle.exclusive_cumsum %arg0 {axis = 0 : i32, reverse = true} : tensor<64xf32> -> tensor<64xf32>, f32
func.func @rank1_reverse_default(%x: tensor<64xf32>) -> (tensor<64xf32>, f32) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = true} : tensor<64xf32> -> tensor<64xf32>, f32
  return %e, %t : tensor<64xf32>, f32
}

// CHECK-LABEL: func.func @rank2_axis1
// CHECK: tle.exclusive_cumsum %arg0 {axis = 1 : i32} : tensor<4x32xbf16> -> tensor<4x32xbf16>, tensor<4xbf16>
func.func @rank2_axis1(%x: tensor<4x32xbf16>) -> (tensor<4x32xbf16>, tensor<4xbf16>) {
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<4x32xbf16> -> tensor<4x32xbf16>, tensor<4xbf16>
  return %e, %t : tensor<4x32xbf16>, tensor<4xbf16>
}

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @rank2_encoded
// CHECK: tle.exclusive_cumsum %arg0 {axis = 0 : i32} : tensor<8x32xi64, #[[BLOCKED]]> -> tensor<8x32xi64, #[[BLOCKED]]>, tensor<32xi64, #ttg.slice<{dim = 0, parent = #[[BLOCKED]]}>>
func.func @rank2_encoded(%x: tensor<8x32xi64, #blocked>) -> tensor<32xi64, #ttg.slice<{dim = 0, parent = #blocked}>> {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<8x32xi64, #blocked> -> tensor<8x32xi64, #blocked>, tensor<32xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
  return %t : tensor<32xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
}
