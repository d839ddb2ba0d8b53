// RUN: tle-opt %s --triton-tle-lower-exclusive-cumsum | FileCheck %s
// RUN: tle-opt %s --triton-tle-lower-exclusive-cumsum | tle-opt | FileCheck %s

// tle.exclusive_cumsum in TTGIR: the new tensors carry the input's encoding,
// or slices of it.

// CHECK-DAG: #[[B1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B3:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 2], order = [2, 1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 2], order = [2, 1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {

// Integers: inclusive scan, minus the input; the total reduces the input.
// CHECK-LABEL: tt.func @i32_1d(
// CHECK-SAME:      %[[X:.*]]: tensor<128xi32, #[[B1]]>
// CHECK-NOT:     tle.
// CHECK:         %[[INCL:.*]] = "tt.scan"(%[[X]]) <{axis = 0 : i32, reverse = false}> ({
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:      tt.scan.return %[[S]] : i32
// CHECK-NEXT:    }) : (tensor<128xi32, #[[B1]]>) -> tensor<128xi32, #[[B1]]>
// CHECK-NEXT:    %[[EXCL:.*]] = arith.subi %[[INCL]], %[[X]] : tensor<128xi32, #[[B1]]>
// CHECK-NEXT:    %[[TOTAL:.*]] = "tt.reduce"(%[[X]]) <{axis = 0 : i32}> ({
// CHECK-NEXT:    ^bb0(%[[C:.*]]: i32, %[[D:.*]]: i32):
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[C]], %[[D]] : i32
// CHECK-NEXT:      tt.reduce.return %[[R]] : i32
// CHECK-NEXT:    }) : (tensor<128xi32, #[[B1]]>) -> i32
// CHECK-NEXT:    tt.return %[[EXCL]], %[[TOTAL]] : tensor<128xi32, #[[B1]]>, i32
tt.func @i32_1d(%x: tensor<128xi32, #b1>) -> (tensor<128xi32, #b1>, i32) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<128xi32, #b1> -> tensor<128xi32, #b1>, i32
  tt.return %e, %t : tensor<128xi32, #b1>, i32
}

// Floats: a scan over (0, x) pairs whose first result is the exclusive sum;
// the total picks s + v at the last position in scan order (index 0 when
// reversed) with a select against -0.0 and an add-reduce.
// CHECK-LABEL: tt.func @f32_1d_reverse(
// CHECK-SAME:      %[[X:.*]]: tensor<256xf32, #[[B1]]>
// CHECK-NOT:     tle.
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32, #[[B1]]>
// CHECK-NEXT:    %[[SCAN:.*]]:2 = "tt.scan"(%[[ZERO]], %[[X]]) <{axis = 0 : i32, reverse = true}> ({
// CHECK-NEXT:    ^bb0(%[[S1:.*]]: f32, %[[V1:.*]]: f32, %[[S2:.*]]: f32, %[[V2:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S1]], %[[V1]] : f32
// CHECK-NEXT:      %[[U:.*]] = arith.addf %[[T]], %[[S2]] : f32
// CHECK-NEXT:      tt.scan.return %[[U]], %[[V2]] : f32, f32
// CHECK-NEXT:    }) : (tensor<256xf32, #[[B1]]>, tensor<256xf32, #[[B1]]>) -> (tensor<256xf32, #[[B1]]>, tensor<256xf32, #[[B1]]>)
// CHECK-NEXT:    %[[INCL:.*]] = arith.addf %[[SCAN]]#0, %[[SCAN]]#1 : tensor<256xf32, #[[B1]]>
// CHECK-NEXT:    %[[IDX:.*]] = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #[[B1]]>
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant dense<0> : tensor<256xi32, #[[B1]]>
// CHECK-NEXT:    %[[IS_LAST:.*]] = arith.cmpi eq, %[[IDX]], %[[LAST]] : tensor<256xi32, #[[B1]]>
// CHECK-NEXT:    %[[NEG_ZERO:.*]] = arith.constant dense<-0.000000e+00> : tensor<256xf32, #[[B1]]>
// CHECK-NEXT:    %[[PICK:.*]] = arith.select %[[IS_LAST]], %[[INCL]], %[[NEG_ZERO]] : tensor<256xi1, #[[B1]]>, tensor<256xf32, #[[B1]]>
// CHECK-NEXT:    %[[TOTAL:.*]] = "tt.reduce"(%[[PICK]]) <{axis = 0 : i32}> ({
// CHECK-NEXT:    ^bb0(%[[C:.*]]: f32, %[[D:.*]]: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[C]], %[[D]] : f32
// CHECK-NEXT:      tt.reduce.return %[[R]] : f32
// CHECK-NEXT:    }) : (tensor<256xf32, #[[B1]]>) -> f32
// CHECK-NEXT:    tt.return %[[SCAN]]#0, %[[TOTAL]] : tensor<256xf32, #[[B1]]>, f32
tt.func @f32_1d_reverse(%x: tensor<256xf32, #b1>) -> (tensor<256xf32, #b1>, f32) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = true} : tensor<256xf32, #b1> -> tensor<256xf32, #b1>, f32
  tt.return %e, %t : tensor<256xf32, #b1>, f32
}

// Axis 0 of a 2-D tensor: the index runs along dim 0, so the make_range has
// dim 1 sliced away, is expanded at axis 1 and broadcast; the last index is 63.
// CHECK-LABEL: tt.func @f32_2d_axis0(
// CHECK-SAME:      %[[X:.*]]: tensor<64x32xf32, #[[B2]]>
// CHECK-NOT:     tle.
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #[[B2]]>
// CHECK-NEXT:    %[[SCAN:.*]]:2 = "tt.scan"(%[[ZERO]], %[[X]]) <{axis = 0 : i32, reverse = false}> ({
// CHECK-NEXT:    ^bb0(%[[S1:.*]]: f32, %[[V1:.*]]: f32, %[[S2:.*]]: f32, %[[V2:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S1]], %[[V1]] : f32
// CHECK-NEXT:      %[[U:.*]] = arith.addf %[[T]], %[[S2]] : f32
// CHECK-NEXT:      tt.scan.return %[[U]], %[[V2]] : f32, f32
// CHECK-NEXT:    }) : (tensor<64x32xf32, #[[B2]]>, tensor<64x32xf32, #[[B2]]>) -> (tensor<64x32xf32, #[[B2]]>, tensor<64x32xf32, #[[B2]]>)
// CHECK-NEXT:    %[[INCL:.*]] = arith.addf %[[SCAN]]#0, %[[SCAN]]#1 : tensor<64x32xf32, #[[B2]]>
// CHECK-NEXT:    %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK-NEXT:    %[[E:.*]] = tt.expand_dims %[[R]] {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B2]]}>> -> tensor<64x1xi32, #[[B2]]>
// CHECK-NEXT:    %[[IDX:.*]] = tt.broadcast %[[E]] : tensor<64x1xi32, #[[B2]]> -> tensor<64x32xi32, #[[B2]]>
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant dense<63> : tensor<64x32xi32, #[[B2]]>
// CHECK-NEXT:    %[[IS_LAST:.*]] = arith.cmpi eq, %[[IDX]], %[[LAST]] : tensor<64x32xi32, #[[B2]]>
// CHECK-NEXT:    %[[NEG_ZERO:.*]] = arith.constant dense<-0.000000e+00> : tensor<64x32xf32, #[[B2]]>
// CHECK-NEXT:    %[[PICK:.*]] = arith.select %[[IS_LAST]], %[[INCL]], %[[NEG_ZERO]] : tensor<64x32xi1, #[[B2]]>, tensor<64x32xf32, #[[B2]]>
// CHECK-NEXT:    %[[TOTAL:.*]] = "tt.reduce"(%[[PICK]]) <{axis = 0 : i32}> ({
// CHECK-NEXT:    ^bb0(%[[C:.*]]: f32, %[[D:.*]]: f32):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[C]], %[[D]] : f32
// CHECK-NEXT:      tt.reduce.return %[[SUM]] : f32
// CHECK-NEXT:    }) : (tensor<64x32xf32, #[[B2]]>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[B2]]}>>
// CHECK-NEXT:    tt.return %[[SCAN]]#0, %[[TOTAL]] : tensor<64x32xf32, #[[B2]]>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[B2]]}>>
tt.func @f32_2d_axis0(%x: tensor<64x32xf32, #b2>) -> (tensor<64x32xf32, #b2>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #b2}>>) {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<64x32xf32, #b2> -> tensor<64x32xf32, #b2>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #b2}>>
  tt.return %e, %t : tensor<64x32xf32, #b2>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #b2}>>
}

// Axis 1: the make_range has dim 0 sliced away and is expanded at axis 0.
// CHECK-LABEL: tt.func @f32_2d_axis1(
// CHECK:         "tt.scan"(%{{.*}}, %{{.*}}) <{axis = 1 : i32, reverse = false}>
// CHECK:         %[[R:.*]] = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[B2]]}>>
// CHECK-NEXT:    %[[E:.*]] = tt.expand_dims %[[R]] {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[B2]]}>> -> tensor<1x32xi32, #[[B2]]>
// CHECK-NEXT:    %[[IDX:.*]] = tt.broadcast %[[E]] : tensor<1x32xi32, #[[B2]]> -> tensor<64x32xi32, #[[B2]]>
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant dense<31> : tensor<64x32xi32, #[[B2]]>
// CHECK-NEXT:    arith.cmpi eq, %[[IDX]], %[[LAST]] : tensor<64x32xi32, #[[B2]]>
// CHECK:         arith.constant dense<-0.000000e+00> : tensor<64x32xf32, #[[B2]]>
// CHECK:         "tt.reduce"(%{{.*}}) <{axis = 1 : i32}>
// CHECK:         }) : (tensor<64x32xf32, #[[B2]]>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK-NOT:     tle.
// CHECK:         tt.return
tt.func @f32_2d_axis1(%x: tensor<64x32xf32, #b2>) -> (tensor<64x32xf32, #b2>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>) {
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32, reverse = false} : tensor<64x32xf32, #b2> -> tensor<64x32xf32, #b2>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>
  tt.return %e, %t : tensor<64x32xf32, #b2>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #b2}>>
}

// i64, reversed, axis 1: integers never build an index.
// CHECK-LABEL: tt.func @i64_2d_axis1_reverse(
// CHECK-SAME:      %[[X:.*]]: tensor<16x64xi64, #[[B2]]>
// CHECK-NOT:     tle.
// CHECK:         %[[INCL:.*]] = "tt.scan"(%[[X]]) <{axis = 1 : i32, reverse = true}> ({
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK-NEXT:      tt.scan.return %[[S]] : i64
// CHECK-NEXT:    }) : (tensor<16x64xi64, #[[B2]]>) -> tensor<16x64xi64, #[[B2]]>
// CHECK-NEXT:    %[[EXCL:.*]] = arith.subi %[[INCL]], %[[X]] : tensor<16x64xi64, #[[B2]]>
// CHECK-NEXT:    %[[TOTAL:.*]] = "tt.reduce"(%[[X]]) <{axis = 1 : i32}> ({
// CHECK-NEXT:    ^bb0(%[[C:.*]]: i64, %[[D:.*]]: i64):
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[C]], %[[D]] : i64
// CHECK-NEXT:      tt.reduce.return %[[R]] : i64
// CHECK-NEXT:    }) : (tensor<16x64xi64, #[[B2]]>) -> tensor<16xi64, #ttg.slice<{dim = 1, parent = #[[B2]]}>>
// CHECK-NEXT:    tt.return %[[EXCL]], %[[TOTAL]]
tt.func @i64_2d_axis1_reverse(%x: tensor<16x64xi64, #b2>) -> (tensor<16x64xi64, #b2>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #b2}>>) {
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32, reverse = true} : tensor<16x64xi64, #b2> -> tensor<16x64xi64, #b2>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #b2}>>
  tt.return %e, %t : tensor<16x64xi64, #b2>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #b2}>>
}

// Rank 3, axis 1: dims 0 and 2 are sliced away (dim 0 innermost, as it is
// expanded first) and expanded back in increasing order.
// CHECK-LABEL: tt.func @f16_3d_axis1(
// CHECK:         "tt.scan"(%{{.*}}, %{{.*}}) <{axis = 1 : i32, reverse = false}>
// CHECK:         ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f16):
// CHECK:         %[[R:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #[[B3]]}>}>>
// CHECK-NEXT:    %[[E0:.*]] = tt.expand_dims %[[R]] {axis = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #[[B3]]}>}>> -> tensor<1x16xi32, #ttg.slice<{dim = 2, parent = #[[B3]]}>>
// CHECK-NEXT:    %[[E2:.*]] = tt.expand_dims %[[E0]] {axis = 2 : i32} : tensor<1x16xi32, #ttg.slice<{dim = 2, parent = #[[B3]]}>> -> tensor<1x16x1xi32, #[[B3]]>
// CHECK-NEXT:    %[[IDX:.*]] = tt.broadcast %[[E2]] : tensor<1x16x1xi32, #[[B3]]> -> tensor<4x16x8xi32, #[[B3]]>
// CHECK-NEXT:    %[[LAST:.*]] = arith.constant dense<15> : tensor<4x16x8xi32, #[[B3]]>
// CHECK-NEXT:    arith.cmpi eq, %[[IDX]], %[[LAST]] : tensor<4x16x8xi32, #[[B3]]>
// CHECK-NEXT:    arith.constant dense<-0.000000e+00> : tensor<4x16x8xf16, #[[B3]]>
// CHECK:         }) : (tensor<4x16x8xf16, #[[B3]]>) -> tensor<4x8xf16, #ttg.slice<{dim = 1, parent = #[[B3]]}>>
tt.func @f16_3d_axis1(%x: tensor<4x16x8xf16, #b3>) -> tensor<4x8xf16, #ttg.slice<{dim = 1, parent = #b3}>> {
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32, reverse = false} : tensor<4x16x8xf16, #b3> -> tensor<4x16x8xf16, #b3>, tensor<4x8xf16, #ttg.slice<{dim = 1, parent = #b3}>>
  tt.return %t : tensor<4x8xf16, #ttg.slice<{dim = 1, parent = #b3}>>
}

// Inside a loop; the ops around the cumsum (a user's own tt.scan included)
// are left as they were.
// CHECK-LABEL: tt.func @in_loop(
// CHECK:         scf.for
// CHECK-NOT:       tle.
// CHECK:           %[[SCAN:.*]]:2 = "tt.scan"(%{{.*}}, %[[ACC:.*]]) <{axis = 0 : i32, reverse = false}>
// CHECK:           "tt.reduce"
// CHECK:           }) : (tensor<128xbf16, #[[B1]]>) -> bf16
// CHECK:           %[[NEXT:.*]] = arith.addf %[[SCAN]]#0, %[[ACC]] : tensor<128xbf16, #[[B1]]>
// CHECK:           %[[MINE:.*]] = "tt.scan"(%[[NEXT]]) <{axis = 0 : i32, reverse = false}> ({
// CHECK-NEXT:      ^bb0(%{{.*}}: bf16, %{{.*}}: bf16):
// CHECK-NEXT:        arith.maximumf
// CHECK:           scf.yield %[[MINE]] : tensor<128xbf16, #[[B1]]>
tt.func @in_loop(%x: tensor<128xbf16, #b1>, %n: i32) -> tensor<128xbf16, #b1> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<128xbf16, #b1>) : i32 {
    %e, %t = tle.exclusive_cumsum %acc {axis = 0 : i32, reverse = false} : tensor<128xbf16, #b1> -> tensor<128xbf16, #b1>, bf16
    %next = arith.addf %e, %acc : tensor<128xbf16, #b1>
    %mine = "tt.scan"(%next) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: bf16, %b: bf16):
      %m = arith.maximumf %a, %b : bf16
      tt.scan.return %m : bf16
    }) : (tensor<128xbf16, #b1>) -> tensor<128xbf16, #b1>
    scf.yield %mine : tensor<128xbf16, #b1>
  }
  tt.return %r : tensor<128xbf16, #b1>
}

}
