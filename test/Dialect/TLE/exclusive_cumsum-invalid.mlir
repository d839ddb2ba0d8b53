// RUN: tle-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<128xi32>) {
  // expected-error @+1 {{axis 1 is out of range for a rank-1 input}}
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
  return
}

// -----

func.func @negative_axis(%x: tensor<128xi32>) {
  // expected-error @+1 {{axis -1 is out of range for a rank-1 input}}
  %e, %t = tle.exclusive_cumsum %x {axis = -1 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
  return
}

// -----

func.func @dynamic(%x: tensor<?xi32>) {
  // expected-error @+1 {{expects a statically shaped input}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<?xi32> -> tensor<?xi32>, i32
  return
}

// -----

func.func @exclusive_type(%x: tensor<128xi32>) {
  // expected-error @+1 {{exclusive result type 'tensor<128xi64>' must equal the input type 'tensor<128xi32>'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi64>, i32
  return
}

// -----

func.func @rank1_total(%x: tensor<128xi32>) {
  // expected-error @+1 {{total of a rank-1 input must be a scalar of type 'i32', got 'tensor<1xi32>'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, tensor<1xi32>
  return
}

// -----

func.func @rank2_total_shape(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{total must be a tensor of the input shape without axis 1 and element type 'f32', got 'tensor<32xf32>'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<4x32xf32> -> tensor<4x32xf32>, tensor<32xf32>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @rank2_total_encoding(%x: tensor<8x32xi32, #blocked>) {
  // expected-error @+1 {{total must have encoding #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>}>}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<8x32xi32, #blocked> -> tensor<8x32xi32, #blocked>, tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  return
}

// -----

func.func @pointer_input(%x: tensor<128x!tt.ptr<f32>>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of signless integer or floating-point values}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128x!tt.ptr<f32>> -> tensor<128x!tt.ptr<f32>>, !tt.ptr<f32>
  return
}
