// RUN: tle-opt %s --triton-tle-lower-exclusive-cumsum -split-input-file -verify-diagnostics
// The pass fails (not only reports): tle-opt exits non-zero.
// RUN: not tle-opt %s --triton-tle-lower-exclusive-cumsum -split-input-file -o /dev/null 2>/dev/null

// Element types the op's verifier allows but the lowering does not support
// (Triton's frontend widens narrow integers to i32 before a cumsum).

func.func @i8(%x: tensor<128xi8>) -> (tensor<128xi8>, i8) {
  // expected-error @+1 {{'tle.exclusive_cumsum' op cannot be lowered: unsupported element type 'i8' (supported: i32, i64, f16, bf16, f32, f64)}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi8> -> tensor<128xi8>, i8
  return %e, %t : tensor<128xi8>, i8
}

// -----

func.func @i1(%x: tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<8xi1>) {
  // expected-error @+1 {{unsupported element type 'i1'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<4x8xi1> -> tensor<4x8xi1>, tensor<8xi1>
  return %e, %t : tensor<4x8xi1>, tensor<8xi1>
}

// -----

func.func @f8(%x: tensor<64xf8E5M2>) -> (tensor<64xf8E5M2>, f8E5M2) {
  // expected-error @+1 {{unsupported element type 'f8E5M2'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<64xf8E5M2> -> tensor<64xf8E5M2>, f8E5M2
  return %e, %t : tensor<64xf8E5M2>, f8E5M2
}

// -----

func.func @tf32(%x: tensor<64xtf32>) -> (tensor<64xtf32>, tf32) {
  // expected-error @+1 {{unsupported element type 'tf32'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<64xtf32> -> tensor<64xtf32>, tf32
  return %e, %t : tensor<64xtf32>, tf32
}

// -----

// Every unsupported op is reported, not only the first; a supported one
// beside them does not hide the failure.
func.func @several(%a: tensor<64xi16>, %b: tensor<64xi32>, %c: tensor<64xf8E4M3FN>) {
  // expected-error @+1 {{unsupported element type 'i16'}}
  %e0, %t0 = tle.exclusive_cumsum %a {axis = 0 : i32} : tensor<64xi16> -> tensor<64xi16>, i16
  %e1, %t1 = tle.exclusive_cumsum %b {axis = 0 : i32} : tensor<64xi32> -> tensor<64xi32>, i32
  // expected-error @+1 {{unsupported element type 'f8E4M3FN'}}
  %e2, %t2 = tle.exclusive_cumsum %c {axis = 0 : i32} : tensor<64xf8E4M3FN> -> tensor<64xf8E4M3FN>, f8E4M3FN
  return
}

// -----

// A float total needs an i32 index along the axis (tt.make_range).
func.func @huge_axis(%x: tensor<2147483648xf32>) -> (tensor<2147483648xf32>, f32) {
  // expected-error @+1 {{cannot be lowered: axis extent 2147483648 does not fit tt.make_range's i32 bounds}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<2147483648xf32> -> tensor<2147483648xf32>, f32
  return %e, %t : tensor<2147483648xf32>, f32
}
