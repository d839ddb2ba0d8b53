// RUN: tle-opt %s -split-input-file --triton-tle-lower-layouts | FileCheck %s --implicit-check-not=tle.set_layout

// tle.set_layout: a convert into the user's layout, carried through the
// elementwise ops that use the value (a splat constant is rebuilt in the
// layout); a convert back only before the store.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @chain(
  // CHECK: %[[X:.*]] = ttg.convert_layout %arg0 : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #[[ROWS:.*]]>
  // CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<64x64xf32, #[[ROWS]]>
  // CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[TWO]] : tensor<64x64xf32, #[[ROWS]]>
  // CHECK: %[[A:.*]] = arith.addf %[[M]], %[[X]] : tensor<64x64xf32, #[[ROWS]]>
  // CHECK: %[[B:.*]] = ttg.convert_layout %[[A]] : tensor<64x64xf32, #[[ROWS]]> -> tensor<64x64xf32, #blocked>
  // CHECK: tt.store %arg1, %[[B]]
  // CHECK-NOT: ttg.convert_layout
  tt.func @chain(%x: tensor<64x64xf32, #blocked>, %p: tensor<64x64x!tt.ptr<f32>, #blocked>) {
    %two = arith.constant dense<2.0> : tensor<64x64xf32, #blocked>
    %y = tle.set_layout %x {layout = #rows} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #rows>
    %yb = ttg.convert_layout %y : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #blocked>
    %m = arith.mulf %yb, %two : tensor<64x64xf32, #blocked>
    %a = arith.addf %m, %yb : tensor<64x64xf32, #blocked>
    tt.store %p, %a : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A value in the layout already: no convert. An operand that is neither in
// the layout nor a splat stops the propagation (the op keeps Triton's
// layout and reads the pinned value through a convert).

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @stop(
  // CHECK-NEXT: %[[B:.*]] = ttg.convert_layout %arg0
  // CHECK-NEXT: arith.addf %[[B]], %arg1
  tt.func @stop(%x: tensor<64x64xf32, #rows>, %z: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %y = tle.set_layout %x {layout = #rows} : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #rows>
    %yb = ttg.convert_layout %y : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #blocked>
    %a = arith.addf %yb, %z : tensor<64x64xf32, #blocked>
    tt.return %a : tensor<64x64xf32, #blocked>
  }
}
