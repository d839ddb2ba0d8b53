// RUN: tle-opt %s -triton-tle-optimize-exclusive-cumsum-layouts -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s

// A scan of an mma accumulator moves to its users' #blocked1; a layout is
// built as a candidate too (mma is no scan layout).
// CHECK: TLEOptimizeExclusiveCumsumLayouts
// CHECK-DAG: (S) 1 scans - tle.exclusive_cumsum ops on TTGIR looked at
// CHECK-DAG: (S) 1 relaid-out - Scans moved to another encoding
// CHECK-DAG: (S) 1 layouts-built - Blocked scan layouts built (the input's was not one)

#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_to_user_layout(%c: tensor<64x64xf32, #mma>, %p: tensor<64x64x!tt.ptr<f32>, #blocked1>, %q: tensor<64x!tt.ptr<f32>, #blocked2>) {
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32, reverse = false} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %0 = ttg.convert_layout %e : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.store %p, %0 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    %1 = ttg.convert_layout %t : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked2>
    tt.store %q, %1 : tensor<64x!tt.ptr<f32>, #blocked2>
    tt.return
  }
}

