// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-warp-specialize

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @loaded_tensor_from_above(%p: tensor<128x!tt.ptr<f32>, #blocked>) {
    // expected-note @+1 {{computed here}}
    %v = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // expected-error @+1 {{'arith.addf' op in partition 0 of tle.warp_specialize uses a tensor computed outside it by 'tt.load', which has memory effects; compute it inside the partition or send it through a tle.pipe}}
      %w = arith.addf %v, %v : tensor<128xf32, #blocked>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tensor_argument(%v: tensor<128xf32, #blocked>) {
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // expected-error @+1 {{uses a tensor computed outside it (a block argument); compute it inside the partition or send it through a tle.pipe}}
      %w = arith.addf %v, %v : tensor<128xf32, #blocked>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#linear = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @linear_in_small_partition() {
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // expected-error @+1 {{'tt.make_range' op in a tle.warp_specialize partition: cannot re-lay out #ttg.linear}}
      %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #linear>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wgmma_in_two_warps() {
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(2) {
      // expected-error @+1 {{a wgmma layout needs a partition of a multiple of 4 warps, got 2}}
      %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nested(%n: i32) {
    tle.warp_specialize()
    default {
      // expected-error @+1 {{nested tle.warp_specialize is not supported}}
      tle.warp_specialize()
      default {
        tle.warp_yield
      }
      partition0() num_warps(1) {
        tle.warp_return
      } : () -> ()
      tle.warp_yield
    }
    partition0() num_warps(1) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A tensor result of the default region exists only after its op: a later
// warp_specialize's worker cannot recompute it.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tensor_result_in_later_worker(%p: tensor<128x!tt.ptr<f32>, #blocked>) {
    // expected-note @+1 {{computed here}}
    %v = tle.warp_specialize()
    default {
      %l = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
      tle.warp_yield %l : tensor<128xf32, #blocked>
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> tensor<128xf32, #blocked>
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // expected-error @+1 {{'arith.addf' op in partition 0 of tle.warp_specialize uses a tensor computed outside it by 'ttg.warp_specialize', which has memory effects; compute it inside the partition or send it through a tle.pipe}}
      %w = arith.addf %v, %v : tensor<128xf32, #blocked>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
