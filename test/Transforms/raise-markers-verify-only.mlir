// verify-only checks every marker and changes nothing: the module prints
// exactly as it does without the pass.
// RUN: tle-opt %s -split-input-file > %t.plain
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true > %t.checked
// RUN: diff %t.plain %t.checked
// RUN: FileCheck %s --input-file=%t.checked --implicit-check-not='= tle.'
// A later full run still raises them.
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true --triton-tle-raise-markers \
// RUN:   | FileCheck %s --check-prefix=RAISED --implicit-check-not=elementwise_inline_asm

// CHECK-LABEL: tt.func public @pick_through_convert
// CHECK: tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}"
// CHECK: ttg.convert_layout
// CHECK: "tt.reduce"
// RAISED-LABEL: tt.func public @pick_through_convert
// RAISED: tle.exclusive_cumsum
// RAISED-NOT: tt.reduce
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @pick_through_convert(%x: tensor<64x32xf32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
    %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked>, tensor<64x32xf32, #blocked>
    %c = ttg.convert_layout %0#1 : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked1>
    %1 = "tt.reduce"(%c) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      tt.reduce.return %a : f32
    }) : (tensor<64x32xf32, #blocked1>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    tt.return %0#0, %1 : tensor<64x32xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// CHECK-LABEL: tt.func @scalar_operands
// CHECK: tt.splat
// CHECK: tt.splat
// CHECK: tt.elementwise_inline_asm "tle.remote_pointers
// RAISED-LABEL: tt.func @scalar_operands
// RAISED-NOT: tt.splat
// RAISED: tle.remote_pointers device
tt.func @scalar_operands(%g: tensor<128x!tt.ptr<f32>>, %peer: i32, %delta: i64) -> tensor<128x!tt.ptr<f32>> {
  %p = tt.splat %peer : i32 -> tensor<128xi32>
  %d = tt.splat %delta : i64 -> tensor<128xi64>
  %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<device>, tle.marker.scalar_operands = array<i32: 1, 2>}" {constraints = "=l,l,r,l", packed_element = 1 : i32, pure = false} %g, %p, %d : tensor<128x!tt.ptr<f32>>, tensor<128xi32>, tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
  tt.return %r : tensor<128x!tt.ptr<f32>>
}

// -----

// CHECK-LABEL: tt.func public @unused_total_in_loop
// CHECK: scf.for
// CHECK: tt.elementwise_inline_asm "tle.exclusive_cumsum
// RAISED-LABEL: tt.func public @unused_total_in_loop
// RAISED: tle.exclusive_cumsum
tt.func public @unused_total_in_loop(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %c0_i32 = arith.constant 0 : i32
  %c4_i32 = arith.constant 4 : i32
  %c1_i32 = arith.constant 1 : i32
  %r = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%acc = %x) -> (tensor<32x64xf32>)  : i32 {
    %2:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %acc : tensor<32x64xf32> -> tensor<32x64xf32>, tensor<32x64xf32>
    %n = arith.addf %acc, %2#0 : tensor<32x64xf32>
    scf.yield %n : tensor<32x64xf32>
  }
  tt.return %r : tensor<32x64xf32>
}
