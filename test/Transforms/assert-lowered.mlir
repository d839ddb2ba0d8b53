// RUN: tle-opt %s -split-input-file -tle-assert-lowered -verify-diagnostics | FileCheck %s

// Pure upstream/Triton IR passes through unchanged.
// CHECK-LABEL: func.func @lowered
// CHECK: arith.addi
func.func @lowered(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}

// -----

func.func @leftover(%x: tensor<128xi32>) -> i32 {
  // expected-error @+1 {{'tle.exclusive_cumsum' was not lowered; Triton cannot read tle ops}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
  return %t : i32
}

// -----

// Every leftover op is reported, not just the first.
func.func @two_leftovers(%x: tensor<128xi32>, %y: tensor<64xf32>) {
  // expected-error @+1 {{'tle.exclusive_cumsum' was not lowered}}
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
  // expected-error @+1 {{'tle.exclusive_cumsum' was not lowered}}
  %e2, %t2 = tle.exclusive_cumsum %y {axis = 0 : i32} : tensor<64xf32> -> tensor<64xf32>, f32
  return
}
