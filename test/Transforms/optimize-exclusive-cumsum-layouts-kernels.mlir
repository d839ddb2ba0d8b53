// RUN: tle-opt %s -split-input-file -triton-tle-optimize-exclusive-cumsum-layouts | FileCheck %s
//
// Whole kernels: the TTGIR pip Triton 3.6.0 prints (sm_90, num_warps=4) for
// small kernels calling TLE's cumsum, with locations dropped and each marker
// (with its pick reduce) written as the tle.exclusive_cumsum it stands for;
// the `_mma_users`, `_axis0` and `_slice_users` variants are edited by hand.
// python/test/test_cumsum_layouts_triton.py runs the pass on every kernel
// here, lowers each op to tt.scan and has Triton compile the result to PTX.

// The wgmma accumulator (#mma, which tt.scan cannot lower) feeds the cumsum;
// the exclusive result is stored through #blocked1, the total through a 1-D
// #blocked2. The op moves onto #blocked1: the exclusive result's convert goes.
// CHECK-LABEL: tt.func public @cumsum_of_dot(
// CHECK: %[[ACC:.+]] = ttng.warp_group_dot
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[ACC]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32} : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked1>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
// CHECK-NOT: ttg.convert_layout %[[E]]
// CHECK: tt.store %{{.+}}, %[[E]] : tensor<64x64x!tt.ptr<f32>, #blocked1>
// CHECK: ttg.convert_layout %[[T]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64xf32, #blocked2>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_of_dot(%A: !tt.ptr<f16>, %B: !tt.ptr<f16>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %cst_1 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
    %a_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %a_4 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %a_5 = tt.expand_dims %a_3 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %a_6 = tt.expand_dims %a_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %a_7 = arith.muli %a_5, %cst : tensor<64x1xi32, #blocked>
    %a_8 = tt.splat %A : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %a_9 = tt.addptr %a_8, %a_7 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %a_10 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %a_11 = tt.expand_dims %a_10 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %a_12 = tt.broadcast %a_9 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_13 = tt.broadcast %a_11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %a_14 = tt.addptr %a_12, %a_13 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %a_15 = tt.load %a_14 : tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_16 = ttg.local_alloc %a_15 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %b = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %b_17 = tt.expand_dims %b {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
    %b_18 = arith.muli %b_17, %cst_0 : tensor<32x1xi32, #blocked1>
    %b_19 = tt.splat %B : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked1>
    %b_20 = tt.addptr %b_19, %b_18 : tensor<32x1x!tt.ptr<f16>, #blocked1>, tensor<32x1xi32, #blocked1>
    %b_21 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_22 = tt.expand_dims %b_21 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_23 = tt.broadcast %b_20 : tensor<32x1x!tt.ptr<f16>, #blocked1> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_24 = tt.broadcast %b_22 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %b_25 = tt.addptr %b_23, %b_24 : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %b_26 = tt.load %b_25 : tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_27 = ttg.local_alloc %b_26 : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %c = ttng.warp_group_dot %a_16, %b_27, %cst_2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    %0, %1 = tle.exclusive_cumsum %c {axis = 1 : i32, reverse = false} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %2 = arith.muli %a_6, %cst_1 : tensor<64x1xi32, #blocked1>
    %3 = tt.splat %Y : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked1>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %5 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f32>, #blocked1> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
    %6 = tt.broadcast %b_22 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %7 = tt.addptr %5, %6 : tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %8 = ttg.convert_layout %0 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.store %7, %8 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    %9 = tt.splat %T : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked2>
    %10 = tt.addptr %9, %a : tensor<64x!tt.ptr<f32>, #blocked2>, tensor<64xi32, #blocked2>
    %11 = ttg.convert_layout %1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked2>
    tt.store %10, %11 : tensor<64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// As above, but the exclusive result is first added to the accumulator in
// #mma: no nearby blocked layout, so one is built (axis 1 fastest, in-warp).
// CHECK: #[[S:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func public @cumsum_of_dot_mma_users(
// CHECK: %[[ACC:.+]] = ttng.warp_group_dot
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[ACC]] : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #[[S]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32} : tensor<64x64xf32, #[[S]]>
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #[[S]]> -> tensor<64x64xf32, #mma>
// CHECK: arith.addf %[[EB]], %[[ACC]] : tensor<64x64xf32, #mma>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_of_dot_mma_users(%A: !tt.ptr<f16>, %B: !tt.ptr<f16>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %cst_1 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
    %a_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %a_4 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %a_5 = tt.expand_dims %a_3 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %a_6 = tt.expand_dims %a_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %a_7 = arith.muli %a_5, %cst : tensor<64x1xi32, #blocked>
    %a_8 = tt.splat %A : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %a_9 = tt.addptr %a_8, %a_7 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %a_10 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %a_11 = tt.expand_dims %a_10 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %a_12 = tt.broadcast %a_9 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_13 = tt.broadcast %a_11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %a_14 = tt.addptr %a_12, %a_13 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %a_15 = tt.load %a_14 : tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_16 = ttg.local_alloc %a_15 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %b = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %b_17 = tt.expand_dims %b {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
    %b_18 = arith.muli %b_17, %cst_0 : tensor<32x1xi32, #blocked1>
    %b_19 = tt.splat %B : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked1>
    %b_20 = tt.addptr %b_19, %b_18 : tensor<32x1x!tt.ptr<f16>, #blocked1>, tensor<32x1xi32, #blocked1>
    %b_21 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_22 = tt.expand_dims %b_21 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_23 = tt.broadcast %b_20 : tensor<32x1x!tt.ptr<f16>, #blocked1> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_24 = tt.broadcast %b_22 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %b_25 = tt.addptr %b_23, %b_24 : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %b_26 = tt.load %b_25 : tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_27 = ttg.local_alloc %b_26 : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %c = ttng.warp_group_dot %a_16, %b_27, %cst_2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    %0, %1 = tle.exclusive_cumsum %c {axis = 1 : i32, reverse = false} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %2 = arith.muli %a_6, %cst_1 : tensor<64x1xi32, #blocked1>
    %3 = tt.splat %Y : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked1>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %5 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f32>, #blocked1> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
    %6 = tt.broadcast %b_22 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %7 = tt.addptr %5, %6 : tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %sum = arith.addf %0, %c : tensor<64x64xf32, #mma>
    %8 = ttg.convert_layout %sum : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.store %7, %8 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    %9 = tt.splat %T : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked2>
    %10 = tt.addptr %9, %a : tensor<64x!tt.ptr<f32>, #blocked2>, tensor<64xi32, #blocked2>
    %11 = ttg.convert_layout %1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked2>
    tt.store %10, %11 : tensor<64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// The same along axis 0: the built layout has order = [0, 1].
// CHECK: #[[S:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func public @cumsum_of_dot_axis0(
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 0 : i32} : tensor<64x64xf32, #[[S]]>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_of_dot_axis0(%A: !tt.ptr<f16>, %B: !tt.ptr<f16>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<32x1xi32, #blocked1>
    %cst_1 = arith.constant dense<64> : tensor<64x1xi32, #blocked1>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %a = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
    %a_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %a_4 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %a_5 = tt.expand_dims %a_3 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %a_6 = tt.expand_dims %a_4 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<64x1xi32, #blocked1>
    %a_7 = arith.muli %a_5, %cst : tensor<64x1xi32, #blocked>
    %a_8 = tt.splat %A : !tt.ptr<f16> -> tensor<64x1x!tt.ptr<f16>, #blocked>
    %a_9 = tt.addptr %a_8, %a_7 : tensor<64x1x!tt.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %a_10 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %a_11 = tt.expand_dims %a_10 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %a_12 = tt.broadcast %a_9 : tensor<64x1x!tt.ptr<f16>, #blocked> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_13 = tt.broadcast %a_11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %a_14 = tt.addptr %a_12, %a_13 : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %a_15 = tt.load %a_14 : tensor<64x32x!tt.ptr<f16>, #blocked>
    %a_16 = ttg.local_alloc %a_15 : (tensor<64x32xf16, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
    %b = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %b_17 = tt.expand_dims %b {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<32x1xi32, #blocked1>
    %b_18 = arith.muli %b_17, %cst_0 : tensor<32x1xi32, #blocked1>
    %b_19 = tt.splat %B : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>, #blocked1>
    %b_20 = tt.addptr %b_19, %b_18 : tensor<32x1x!tt.ptr<f16>, #blocked1>, tensor<32x1xi32, #blocked1>
    %b_21 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %b_22 = tt.expand_dims %b_21 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<1x64xi32, #blocked1>
    %b_23 = tt.broadcast %b_20 : tensor<32x1x!tt.ptr<f16>, #blocked1> -> tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_24 = tt.broadcast %b_22 : tensor<1x64xi32, #blocked1> -> tensor<32x64xi32, #blocked1>
    %b_25 = tt.addptr %b_23, %b_24 : tensor<32x64x!tt.ptr<f16>, #blocked1>, tensor<32x64xi32, #blocked1>
    %b_26 = tt.load %b_25 : tensor<32x64x!tt.ptr<f16>, #blocked1>
    %b_27 = ttg.local_alloc %b_26 : (tensor<32x64xf16, #blocked1>) -> !ttg.memdesc<32x64xf16, #shared1, #smem>
    ttng.fence_async_shared {bCluster = false}
    %c = ttng.warp_group_dot %a_16, %b_27, %cst_2 {inputPrecision = 0 : i32} : !ttg.memdesc<64x32xf16, #shared, #smem> * !ttg.memdesc<32x64xf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    %0, %1 = tle.exclusive_cumsum %c {axis = 0 : i32, reverse = false} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
    %2 = arith.muli %a_6, %cst_1 : tensor<64x1xi32, #blocked1>
    %3 = tt.splat %Y : !tt.ptr<f32> -> tensor<64x1x!tt.ptr<f32>, #blocked1>
    %4 = tt.addptr %3, %2 : tensor<64x1x!tt.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %5 = tt.broadcast %4 : tensor<64x1x!tt.ptr<f32>, #blocked1> -> tensor<64x64x!tt.ptr<f32>, #blocked1>
    %6 = tt.broadcast %b_22 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %7 = tt.addptr %5, %6 : tensor<64x64x!tt.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %sum = arith.addf %0, %c : tensor<64x64xf32, #mma>
    %8 = ttg.convert_layout %sum : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.store %7, %8 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    %9 = tt.splat %T : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked2>
    %10 = tt.addptr %9, %a : tensor<64x!tt.ptr<f32>, #blocked2>, tensor<64xi32, #blocked2>
    %11 = ttg.convert_layout %1 : tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>> -> tensor<64xf32, #blocked2>
    tt.store %10, %11 : tensor<64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

// -----

// A tt.reduce result (#ttg.slice, which tt.scan cannot lower) feeds the
// cumsum, whose exclusive result is stored through a 1-D #blocked1: the op
// moves onto #blocked1 and the convert after it goes.
// CHECK-LABEL: tt.func public @cumsum_of_sum(
// CHECK: %[[R:.+]] = "tt.reduce"
// CHECK: %[[IN:.+]] = ttg.convert_layout %[[R]] : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #blocked1>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[IN]] {axis = 0 : i32} : tensor<128xf32, #blocked1>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %{{.+}}, %[[E]] : tensor<128x!tt.ptr<f32>, #blocked1>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_of_sum(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
    %offs_0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %offs_1 = tt.expand_dims %offs_0 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %offs_2 = arith.muli %offs_1, %cst : tensor<128x1xi32, #blocked>
    %offs_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs_4 = tt.expand_dims %offs_3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %offs_5 = tt.broadcast %offs_2 : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %offs_6 = tt.broadcast %offs_4 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %offs_7 = arith.addi %offs_5, %offs_6 : tensor<128x64xi32, #blocked>
    %s = tt.splat %X : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %s_8 = tt.addptr %s, %offs_7 : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %s_9 = tt.load %s_8 : tensor<128x64x!tt.ptr<f32>, #blocked>
    %s_10 = "tt.reduce"(%s_9) <{axis = 1 : i32}> ({
    ^bb0(%s_11: f32, %s_12: f32):
      %s_13 = arith.addf %s_11, %s_12 : f32
      tt.reduce.return %s_13 : f32
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0, %total_0 = tle.exclusive_cumsum %s_10 {axis = 0 : i32, reverse = false} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, f32
    %1 = tt.splat %Y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked1>
    %2 = tt.addptr %1, %offs : tensor<128x!tt.ptr<f32>, #blocked1>, tensor<128xi32, #blocked1>
    %3 = ttg.convert_layout %0 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #blocked1>
    tt.store %2, %3 : tensor<128x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// As above, but the exclusive result is first added to the slice-encoded
// sum: a 1-D layout is built (here equal to #blocked1) and the exclusive
// result converted back for the add.
// CHECK-LABEL: tt.func public @cumsum_of_sum_slice_users(
// CHECK: %[[IN:.+]] = ttg.convert_layout %{{.+}} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #blocked1>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[IN]]
// CHECK-NEXT: ttg.convert_layout %[[E]] : tensor<128xf32, #blocked1> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_of_sum_slice_users(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked1>
    %offs_0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %offs_1 = tt.expand_dims %offs_0 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128x1xi32, #blocked>
    %offs_2 = arith.muli %offs_1, %cst : tensor<128x1xi32, #blocked>
    %offs_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs_4 = tt.expand_dims %offs_3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %offs_5 = tt.broadcast %offs_2 : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %offs_6 = tt.broadcast %offs_4 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %offs_7 = arith.addi %offs_5, %offs_6 : tensor<128x64xi32, #blocked>
    %s = tt.splat %X : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #blocked>
    %s_8 = tt.addptr %s, %offs_7 : tensor<128x64x!tt.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %s_9 = tt.load %s_8 : tensor<128x64x!tt.ptr<f32>, #blocked>
    %s_10 = "tt.reduce"(%s_9) <{axis = 1 : i32}> ({
    ^bb0(%s_11: f32, %s_12: f32):
      %s_13 = arith.addf %s_11, %s_12 : f32
      tt.reduce.return %s_13 : f32
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0, %total_0 = tle.exclusive_cumsum %s_10 {axis = 0 : i32, reverse = false} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, f32
    %1 = tt.splat %Y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked1>
    %2 = tt.addptr %1, %offs : tensor<128x!tt.ptr<f32>, #blocked1>, tensor<128xi32, #blocked1>
    %sum = arith.addf %0, %s_10 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = ttg.convert_layout %sum : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #blocked1>
    tt.store %2, %3 : tensor<128x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// A 16-row tile: the built 1-D layout has more lanes than elements, so
// lanes and warps repeat the data (Triton lowers and runs that too).
// CHECK-LABEL: tt.func public @cumsum_of_sum_small(
// CHECK: %[[IN:.+]] = ttg.convert_layout %{{.+}} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16xf32, #blocked1>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[IN]] {axis = 0 : i32} : tensor<16xf32, #blocked1>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_of_sum_small(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<16x1xi32, #blocked>
    %offs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked1>
    %offs_0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %offs_1 = tt.expand_dims %offs_0 {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %offs_2 = arith.muli %offs_1, %cst : tensor<16x1xi32, #blocked>
    %offs_3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs_4 = tt.expand_dims %offs_3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %offs_5 = tt.broadcast %offs_2 : tensor<16x1xi32, #blocked> -> tensor<16x64xi32, #blocked>
    %offs_6 = tt.broadcast %offs_4 : tensor<1x64xi32, #blocked> -> tensor<16x64xi32, #blocked>
    %offs_7 = arith.addi %offs_5, %offs_6 : tensor<16x64xi32, #blocked>
    %s = tt.splat %X : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>, #blocked>
    %s_8 = tt.addptr %s, %offs_7 : tensor<16x64x!tt.ptr<f32>, #blocked>, tensor<16x64xi32, #blocked>
    %s_9 = tt.load %s_8 : tensor<16x64x!tt.ptr<f32>, #blocked>
    %s_10 = "tt.reduce"(%s_9) <{axis = 1 : i32}> ({
    ^bb0(%s_11: f32, %s_12: f32):
      %s_13 = arith.addf %s_11, %s_12 : f32
      tt.reduce.return %s_13 : f32
    }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0, %total_0 = tle.exclusive_cumsum %s_10 {axis = 0 : i32, reverse = false} : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, f32
    %1 = tt.splat %Y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #blocked1>
    %2 = tt.addptr %1, %offs : tensor<16x!tt.ptr<f32>, #blocked1>, tensor<16xi32, #blocked1>
    %sum = arith.addf %0, %s_10 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %3 = ttg.convert_layout %sum : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16xf32, #blocked1>
    tt.store %2, %3 : tensor<16x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// Triton's own #blocked, no convert into the op: it stays.
// CHECK-LABEL: tt.func public @cumsum_2d_f32_axis0(
// CHECK: %[[X:.+]] = tt.load
// CHECK-NEXT: tle.exclusive_cumsum %[[X]] {axis = 0 : i32} : tensor<64x32xf32, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_2d_f32_axis0(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<32> : tensor<64x1xi32, #blocked>
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %offs_0 = tt.expand_dims %offs {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %offs_1 = arith.muli %offs_0, %cst : tensor<64x1xi32, #blocked>
    %offs_2 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked1>
    %offs_3 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs_4 = tt.expand_dims %offs_3 {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %offs_5 = tt.broadcast %offs_1 : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %offs_6 = tt.broadcast %offs_4 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %offs_7 = arith.addi %offs_5, %offs_6 : tensor<64x32xi32, #blocked>
    %x = tt.splat %X : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %x_8 = tt.addptr %x, %offs_7 : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    %x_9 = tt.load %x_8 : tensor<64x32x!tt.ptr<f32>, #blocked>
    %0, %1 = tle.exclusive_cumsum %x_9 {axis = 0 : i32, reverse = false} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %2 = tt.splat %Y : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    %3 = tt.addptr %2, %offs_7 : tensor<64x32x!tt.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    tt.store %3, %0 : tensor<64x32x!tt.ptr<f32>, #blocked>
    %4 = tt.splat %T : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #blocked1>
    %5 = tt.addptr %4, %offs_2 : tensor<32x!tt.ptr<f32>, #blocked1>, tensor<32xi32, #blocked1>
    %6 = ttg.convert_layout %1 : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<32xf32, #blocked1>
    tt.store %5, %6 : tensor<32x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @cumsum_2d_i64_axis1_rev(
// CHECK: %[[X:.+]] = tt.load
// CHECK-NEXT: tle.exclusive_cumsum %[[X]] {axis = 1 : i32, reverse = true} : tensor<16x128xi64, #blocked>

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_2d_i64_axis1_rev(%X: !tt.ptr<i64>, %Y: !tt.ptr<i64>, %T: !tt.ptr<i64>) attributes {noinline = false} {
    %cst = arith.constant dense<128> : tensor<16x1xi32, #blocked>
    %offs = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #blocked1>
    %offs_0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %offs_1 = tt.expand_dims %offs_0 {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
    %offs_2 = arith.muli %offs_1, %cst : tensor<16x1xi32, #blocked>
    %offs_3 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs_4 = tt.expand_dims %offs_3 {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %offs_5 = tt.broadcast %offs_2 : tensor<16x1xi32, #blocked> -> tensor<16x128xi32, #blocked>
    %offs_6 = tt.broadcast %offs_4 : tensor<1x128xi32, #blocked> -> tensor<16x128xi32, #blocked>
    %offs_7 = arith.addi %offs_5, %offs_6 : tensor<16x128xi32, #blocked>
    %x = tt.splat %X : !tt.ptr<i64> -> tensor<16x128x!tt.ptr<i64>, #blocked>
    %x_8 = tt.addptr %x, %offs_7 : tensor<16x128x!tt.ptr<i64>, #blocked>, tensor<16x128xi32, #blocked>
    %x_9 = tt.load %x_8 : tensor<16x128x!tt.ptr<i64>, #blocked>
    %0, %1 = tle.exclusive_cumsum %x_9 {axis = 1 : i32, reverse = true} : tensor<16x128xi64, #blocked> -> tensor<16x128xi64, #blocked>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked}>>
    %2 = tt.splat %Y : !tt.ptr<i64> -> tensor<16x128x!tt.ptr<i64>, #blocked>
    %3 = tt.addptr %2, %offs_7 : tensor<16x128x!tt.ptr<i64>, #blocked>, tensor<16x128xi32, #blocked>
    tt.store %3, %0 : tensor<16x128x!tt.ptr<i64>, #blocked>
    %4 = tt.splat %T : !tt.ptr<i64> -> tensor<16x!tt.ptr<i64>, #blocked1>
    %5 = tt.addptr %4, %offs : tensor<16x!tt.ptr<i64>, #blocked1>, tensor<16xi32, #blocked1>
    %6 = ttg.convert_layout %1 : tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16xi64, #blocked1>
    tt.store %5, %6 : tensor<16x!tt.ptr<i64>, #blocked1>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @cumsum_1d_i32(
// CHECK-NOT: ttg.convert_layout
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 0 : i32} : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked>, i32
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_1d_i32(%X: !tt.ptr<i32>, %Y: !tt.ptr<i32>, %T: !tt.ptr<i32>) attributes {noinline = false} {
    %offs = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
    %x = tt.splat %X : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #blocked>
    %x_0 = tt.addptr %x, %offs : tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    %x_1 = tt.load %x_0 : tensor<256x!tt.ptr<i32>, #blocked>
    %0, %1 = tle.exclusive_cumsum %x_1 {axis = 0 : i32, reverse = false} : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked>, i32
    %2 = tt.splat %Y : !tt.ptr<i32> -> tensor<256x!tt.ptr<i32>, #blocked>
    %3 = tt.addptr %2, %offs : tensor<256x!tt.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    tt.store %3, %0 : tensor<256x!tt.ptr<i32>, #blocked>
    tt.store %T, %1 : !tt.ptr<i32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @cumsum_1d_bf16(
// CHECK-NOT: ttg.convert_layout
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 0 : i32} : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>, f32
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_1d_bf16(%X: !tt.ptr<bf16>, %Y: !tt.ptr<f32>, %T: !tt.ptr<f32>) attributes {noinline = false} {
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %x = tt.splat %X : !tt.ptr<bf16> -> tensor<128x!tt.ptr<bf16>, #blocked>
    %x_0 = tt.addptr %x, %offs : tensor<128x!tt.ptr<bf16>, #blocked>, tensor<128xi32, #blocked>
    %x_1 = tt.load %x_0 : tensor<128x!tt.ptr<bf16>, #blocked>
    %0 = arith.extf %x_1 : tensor<128xbf16, #blocked> to tensor<128xf32, #blocked>
    %1, %2 = tle.exclusive_cumsum %0 {axis = 0 : i32, reverse = false} : tensor<128xf32, #blocked> -> tensor<128xf32, #blocked>, f32
    %3 = tt.splat %Y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %4 = tt.addptr %3, %offs : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    tt.store %4, %1 : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %T, %2 : !tt.ptr<f32>
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func public @cumsum_loop(
// CHECK-NOT: ttg.convert_layout
// CHECK: tle.exclusive_cumsum %{{.+}} {axis = 1 : i32} : tensor<32x64xf32, #blocked>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @cumsum_loop(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>) attributes {noinline = false} {
    %cst = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %c0_i32 = arith.constant 0 : i32
    %c4_i32 = arith.constant 4 : i32
    %c1_i32 = arith.constant 1 : i32
    %offs = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %offs_0 = tt.expand_dims %offs {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %offs_1 = arith.muli %offs_0, %cst : tensor<32x1xi32, #blocked>
    %offs_2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %offs_3 = tt.expand_dims %offs_2 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %offs_4 = tt.broadcast %offs_1 : tensor<32x1xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %offs_5 = tt.broadcast %offs_3 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %offs_6 = arith.addi %offs_4, %offs_5 : tensor<32x64xi32, #blocked>
    %x = tt.splat %X : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked>
    %x_7 = tt.addptr %x, %offs_6 : tensor<32x64x!tt.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
    %x_8 = tt.load %x_7 : tensor<32x64x!tt.ptr<f32>, #blocked>
    %x_9 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%x_10 = %x_8) -> (tensor<32x64xf32, #blocked>)  : i32 {
      %2, %total_2 = tle.exclusive_cumsum %x_10 {axis = 1 : i32, reverse = false} : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
      %x_11 = arith.addf %x_10, %2 : tensor<32x64xf32, #blocked>
      scf.yield %x_11 : tensor<32x64xf32, #blocked>
    }
    %0 = tt.splat %Y : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #blocked>
    %1 = tt.addptr %0, %offs_6 : tensor<32x64x!tt.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
    tt.store %1, %x_9 : tensor<32x64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
