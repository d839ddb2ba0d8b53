// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-distributed

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [4], axes = ["b"], levels = ["block"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"b">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @block_level(%x: tensor<64xf32, #blocked>) -> tensor<256xf32, #blocked> {
    // expected-error @+1 {{'tle.reshard' op changes the layout over mesh axis "b", at level "block"; TLE reshards block_cluster axes (distributed shared memory) and device axes (symmetric memory)}}
    %y = tle.reshard %x sharding(#s -> #t) shape [256] : tensor<64xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %y : tensor<256xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [4], axes = ["x"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"x">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_levels(%x: tensor<64xf32, #blocked>) -> tensor<256xf32, #blocked> {
    // expected-error @+1 {{changes the layout over mesh axis "x", which has no level (the mesh has no `levels`)}}
    %y = tle.reshard %x sharding(#s -> #t) shape [256] : tensor<64xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %y : tensor<256xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mesh = #tle.device_mesh<shape = [2, 2], axes = ["gpu", "cx"], levels = ["device", "block_cluster"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, S<"cx">]>
#t = #tle.sharding<mesh = #mesh, split = [B, B]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mixed_levels(%x: tensor<8x8xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    // expected-error @+1 {{changes the layout over block_cluster and device axes at once; reshard one level at a time}}
    %y = tle.reshard %x sharding(#s -> #t) shape [16, 16] : tensor<8x8xf32, #blocked> -> tensor<16x16xf32, #blocked>
    tt.return %y : tensor<16x16xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [4], axes = ["gpu"], levels = ["device"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @device_without_context(%x: tensor<64xf32, #blocked>) -> tensor<256xf32, #blocked> {
    // expected-error @+1 {{changes the layout over device axes, which needs the device context}}
    %y = tle.reshard %x sharding(#s -> #t) shape [256] : tensor<64xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %y : tensor<256xf32, #blocked>
  }
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"cx">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
module {
  tt.func @ttir(%x: tensor<64xf32>) -> tensor<256xf32> {
    // expected-error @+1 {{is lowered on TTGIR: its tensors need an encoding}}
    %y = tle.reshard %x sharding(#s -> #t) shape [256] : tensor<64xf32> -> tensor<256xf32>
    tt.return %y : tensor<256xf32>
  }
}
