// Cases the pass must leave exactly as they are: the output must equal the
// input printed without the pass, byte for byte.
// RUN: tle-opt %s -split-input-file -o %t.ref
// RUN: tle-opt %s -split-input-file -triton-tle-optimize-exclusive-cumsum-layouts -o %t.opt
// RUN: diff %t.ref %t.opt
// RUN: FileCheck %s --input-file=%t.opt

// Already blocked, no converts around it.
// CHECK-LABEL: tt.func @blocked_no_converts(
// CHECK-NOT: ttg.convert_layout
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 0 : i32} : tensor<64x32xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @blocked_no_converts(%x: tensor<64x32xf32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %e, %t : tensor<64x32xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}

// -----

// TTIR: no encodings, nothing to lay out (and no module attributes needed).
// CHECK-LABEL: tt.func @ttir(
// CHECK-NOT: ttg.convert_layout
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 1 : i32, reverse = true} : tensor<16x128xi64> -> tensor<16x128xi64>, tensor<16xi64>
module {
  tt.func @ttir(%x: tensor<16x128xi64>, %y: tensor<256xi32>) -> (tensor<16x128xi64>, tensor<16xi64>, i32) {
    %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32, reverse = true} : tensor<16x128xi64> -> tensor<16x128xi64>, tensor<16xi64>
    %e1, %t1 = tle.exclusive_cumsum %y {axis = 0 : i32} : tensor<256xi32> -> tensor<256xi32>, i32
    tt.return %e, %t, %t1 : tensor<16x128xi64>, tensor<16xi64>, i32
  }
}

// -----

// In a loop, on the loop-carried #blocked value (Triton's cumsum_loop).
// CHECK-LABEL: tt.func public @in_loop(
// CHECK-NOT: ttg.convert_layout
// CHECK: scf.for
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 1 : i32} : tensor<32x64xf32, #blocked>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @in_loop(%x: tensor<32x64xf32, #blocked>) -> tensor<32x64xf32, #blocked> {
    %c0_i32 = arith.constant 0 : i32
    %c4_i32 = arith.constant 4 : i32
    %c1_i32 = arith.constant 1 : i32
    %r = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%acc = %x) -> (tensor<32x64xf32, #blocked>)  : i32 {
      %e, %t = tle.exclusive_cumsum %acc {axis = 1 : i32} : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %s = arith.addf %acc, %e : tensor<32x64xf32, #blocked>
      scf.yield %s : tensor<32x64xf32, #blocked>
    }
    tt.return %r : tensor<32x64xf32, #blocked>
  }
}

// -----

// A tie keeps the current encoding: staying on #blocked costs the one
// convert of the exclusive result to #blocked1; moving to #blocked1 costs one
// convert in (the total is unused).
// CHECK-LABEL: tt.func @tie_keeps_current(
// CHECK: tle.exclusive_cumsum %{{.+}} : tensor<64x64xf32, #blocked>
// CHECK-NEXT: ttg.convert_layout
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tie_keeps_current(%x: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked1> {
    %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0 = ttg.convert_layout %e : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    tt.return %0 : tensor<64x64xf32, #blocked1>
  }
}

// -----

// The convert producing the input has another user, so it stays whatever
// the op does: staying costs nothing, moving onto its source would need both
// results converted back.
// CHECK-LABEL: tt.func @shared_input_convert(
// CHECK: %[[IN:.+]] = ttg.convert_layout
// CHECK-NEXT: tle.exclusive_cumsum %[[IN]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_input_convert(%x: tensor<64x64xf32, #blocked>) -> (tensor<64x64xf32, #blocked1>, tensor<64x64xf32, #blocked1>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked1}>>) {
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %e, %t = tle.exclusive_cumsum %0 {axis = 0 : i32} : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked1>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    tt.return %0, %e, %t : tensor<64x64xf32, #blocked1>, tensor<64x64xf32, #blocked1>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked1}>>
  }
}

// -----

// Converted to #blocked from an mma value: the convert's source is not a
// layout tt.scan accepts, so #blocked stays.
// CHECK-LABEL: tt.func @converted_from_mma(
// CHECK: %[[IN:.+]] = ttg.convert_layout %{{.+}} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
// CHECK-NEXT: tle.exclusive_cumsum %[[IN]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @converted_from_mma(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #blocked> {
    %0 = ttg.convert_layout %c : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    %e, %t = tle.exclusive_cumsum %0 {axis = 1 : i32} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %e : tensor<64x64xf32, #blocked>
  }
}
