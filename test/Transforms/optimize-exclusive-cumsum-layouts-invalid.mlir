// RUN: tle-opt %s -split-input-file -triton-tle-optimize-exclusive-cumsum-layouts -verify-diagnostics

// An mma input with no blocked candidate nearby needs a built layout, which
// needs the number of warps.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_num_warps(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    // expected-error @+1 {{'tle.exclusive_cumsum' op needs a blocked layout for the scan, but no enclosing op has a 'ttg.num-warps' attribute}}
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return %e : tensor<64x64xf32, #mma>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @no_threads_per_warp(%x: tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> f32 {
    // expected-error @+1 {{no enclosing op has a 'ttg.threads-per-warp' attribute}}
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, f32
    tt.return %t : f32
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 6 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @num_warps_not_pow2(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    // expected-error @+1 {{'ttg.num-warps' (6) or 'ttg.threads-per-warp' (32) is not a power of two}}
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return %e : tensor<64x64xf32, #mma>
  }
}

// -----

// A blocked layout split over the 2 CTAs of a cluster (what Triton gives a
// tl.cumsum input with num_ctas=2): Triton 3.6's scan lowering aborts on it,
// and no layout with the same CTA split would do better.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0]]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @blocked_split_over_ctas(%x: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    // expected-error @+1 {{input layout splits the tensor across CTAs (CGALayout = [[1, 0]]); Triton 3.6's tt.scan lowering cannot lower that}}
    %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %e : tensor<64x64xf32, #blocked>
  }
}

// -----

// The same for a slice of a split mma layout: the slice drops dimension 1,
// leaving the CTA basis [1] of dimension 0.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[1, 0]], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @slice_of_split_mma(%x: tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>) -> f32 {
    // expected-error @+1 {{splits the tensor across CTAs (CGALayout = [[1]])}}
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>, f32
    tt.return %t : f32
  }
}

// -----

// Every op is checked, not just the first.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module {
  tt.func @two(%c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{'ttg.num-warps'}}
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    // expected-error @+1 {{'ttg.num-warps'}}
    %e1, %t1 = tle.exclusive_cumsum %c {axis = 0 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
    tt.return %e, %e1 : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
  }
}

// -----

// A dimension of 2^31 or more has no blocked layout (its extent truncated to
// 0 in 32 bits and was divided by: SIGFPE, found by scripts/fuzz_tle_opt.py).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @huge(%x: tensor<4294967296xi32, #ttg.slice<{dim = 0, parent = #blocked}>>) -> tensor<4294967296xi32, #ttg.slice<{dim = 0, parent = #blocked}>> {
    // expected-error @+1 {{has a dimension of 2^31 elements or more}}
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<4294967296xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<4294967296xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32
    tt.return %e : tensor<4294967296xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}
