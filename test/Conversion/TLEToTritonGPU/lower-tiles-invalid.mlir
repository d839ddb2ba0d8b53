// RUN: tle-opt %s -split-input-file --triton-tle-lower-tiles -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @too_many_dynamic_tiles(%x: tensor<1024xf32, #blocked>, %i: i32) -> tensor<8xf32, #blocked> {
    // expected-error @+1 {{'tle.extract_tile' op cannot be lowered: a dynamic tile index over 128 tiles is not supported (at most 64); use a constant index or larger tiles}}
    %t = tle.extract_tile %x[%i] tile [8] : tensor<1024xf32, #blocked>, i32 -> tensor<8xf32, #blocked>
    tt.return %t : tensor<8xf32, #blocked>
  }
}

// -----

// Without encodings (TTIR) the op cannot be lowered.
tt.func @ttir(%x: tensor<64xf32>, %t: tensor<16xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tle.insert_tile' op cannot be lowered: the source 'tensor<64xf32>' has no distributed encoding (triton-tle-lower-tiles runs on TTGIR)}}
  %r = tle.insert_tile %t into %x[1] : tensor<16xf32> into tensor<64xf32>
  tt.return %r : tensor<64xf32>
}
