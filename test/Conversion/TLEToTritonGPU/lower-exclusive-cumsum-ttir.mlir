// RUN: tle-opt %s --triton-tle-lower-exclusive-cumsum | FileCheck %s

// tle.exclusive_cumsum in TTIR: tensors without encoding stay without one.

// CHECK-LABEL: tt.func @i32_rank1(
// CHECK-SAME:      %[[X:.*]]: tensor<128xi32>
// CHECK-NOT:     tle.
// CHECK:         %[[INCL:.*]] = "tt.scan"(%[[X]]) <{axis = 0 : i32, reverse = false}> ({
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:      tt.scan.return %[[S]] : i32
// CHECK-NEXT:    }) : (tensor<128xi32>) -> tensor<128xi32>
// CHECK-NEXT:    %[[EXCL:.*]] = arith.subi %[[INCL]], %[[X]] : tensor<128xi32>
// CHECK-NEXT:    %[[TOTAL:.*]] = "tt.reduce"(%[[X]]) <{axis = 0 : i32}> ({
// CHECK:         }) : (tensor<128xi32>) -> i32
// CHECK-NEXT:    tt.return %[[EXCL]], %[[TOTAL]] : tensor<128xi32>, i32
tt.func @i32_rank1(%x: tensor<128xi32>) -> (tensor<128xi32>, i32) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<128xi32> -> tensor<128xi32>, i32
  tt.return %e, %t : tensor<128xi32>, i32
}

// CHECK-LABEL: tt.func @f32_rank1_reverse(
// CHECK-SAME:      %[[X:.*]]: tensor<64xf32>
// CHECK-NOT:     tle.
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32>
// CHECK-NEXT:    %[[SCAN:.*]]:2 = "tt.scan"(%[[ZERO]], %[[X]]) <{axis = 0 : i32, reverse = true}> ({
// CHECK-NEXT:    ^bb0(%[[S1:.*]]: f32, %[[V1:.*]]: f32, %[[S2:.*]]: f32, %[[V2:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S1]], %[[V1]] : f32
// CHECK-NEXT:      %[[U:.*]] = arith.addf %[[T]], %[[S2]] : f32
// CHECK-NEXT:      tt.scan.return %[[U]], %[[V2]] : f32, f32
// CHECK-NEXT:    }) : (tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
// CHECK-NEXT:    %[[INCL:.*]] = arith.addf %[[SCAN]]#0, %[[SCAN]]#1 : tensor<64xf32>
// CHECK-NEXT:    %[[IDX:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant dense<0> : tensor<64xi32>
// CHECK-NEXT:    %[[IS_LAST:.*]] = arith.cmpi eq, %[[IDX]], %[[LAST]] : tensor<64xi32>
// CHECK-NEXT:    %[[NEG_ZERO:.*]] = arith.constant dense<-0.000000e+00> : tensor<64xf32>
// CHECK-NEXT:    %[[PICK:.*]] = arith.select %[[IS_LAST]], %[[INCL]], %[[NEG_ZERO]] : tensor<64xi1>, tensor<64xf32>
// CHECK-NEXT:    %[[TOTAL:.*]] = "tt.reduce"(%[[PICK]]) <{axis = 0 : i32}> ({
// CHECK-NEXT:    ^bb0(%[[C:.*]]: f32, %[[D:.*]]: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[C]], %[[D]] : f32
// CHECK-NEXT:      tt.reduce.return %[[R]] : f32
// CHECK-NEXT:    }) : (tensor<64xf32>) -> f32
// CHECK-NEXT:    tt.return %[[SCAN]]#0, %[[TOTAL]] : tensor<64xf32>, f32
tt.func @f32_rank1_reverse(%x: tensor<64xf32>) -> (tensor<64xf32>, f32) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = true} : tensor<64xf32> -> tensor<64xf32>, f32
  tt.return %e, %t : tensor<64xf32>, f32
}

// Rank 2 without encodings: the index is expanded and broadcast, untyped.
// CHECK-LABEL: func.func @f64_rank2_axis1(
// CHECK:         "tt.scan"(%{{.*}}, %{{.*}}) <{axis = 1 : i32, reverse = false}>
// CHECK:         %[[R:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
// CHECK-NEXT:    %[[E:.*]] = tt.expand_dims %[[R]] {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
// CHECK-NEXT:    %[[IDX:.*]] = tt.broadcast %[[E]] : tensor<1x16xi32> -> tensor<8x16xi32>
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant dense<15> : tensor<8x16xi32>
// CHECK-NEXT:    arith.cmpi eq, %[[IDX]], %[[LAST]] : tensor<8x16xi32>
// CHECK-NEXT:    arith.constant dense<-0.000000e+00> : tensor<8x16xf64>
// CHECK:         }) : (tensor<8x16xf64>) -> tensor<8xf64>
// CHECK-NOT:     tle.
// CHECK:         return
func.func @f64_rank2_axis1(%x: tensor<8x16xf64>) -> (tensor<8x16xf64>, tensor<8xf64>) {
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<8x16xf64> -> tensor<8x16xf64>, tensor<8xf64>
  return %e, %t : tensor<8x16xf64>, tensor<8xf64>
}
