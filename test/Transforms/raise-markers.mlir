// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers | FileCheck %s --implicit-check-not='elementwise_inline_asm "tle.'

// Markers as Triton 3.6 prints them (trimmed from captured kernels; see
// docs/markers.md). Each is raised to the tle op it names; its pick reduce and
// the marker disappear.

// 1-D TTIR: the total is a scalar, taken from the pick reduce.
// CHECK-LABEL: tt.func public @rank1_ttir
// CHECK-SAME: (%[[X:.*]]: tensor<256xi32>, %[[Y:.*]]: tensor<256x!tt.ptr<i32>>, %[[T:.*]]: !tt.ptr<i32>)
// CHECK-NEXT: %[[EXCL:.*]], %[[TOTAL:.*]] = tle.exclusive_cumsum %[[X]] {axis = 0 : i32} : tensor<256xi32> -> tensor<256xi32>, i32
// CHECK-NOT: tt.reduce
// CHECK-NEXT: tt.store %[[Y]], %[[EXCL]] : tensor<256x!tt.ptr<i32>>
// CHECK-NEXT: tt.store %[[T]], %[[TOTAL]] : !tt.ptr<i32>
tt.func public @rank1_ttir(%x: tensor<256xi32>, %Y: tensor<256x!tt.ptr<i32>>, %T: !tt.ptr<i32>) {
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<256xi32> -> tensor<256xi32>, tensor<256xi32>
  %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
  ^bb0(%arg3: i32, %arg4: i32):
    tt.reduce.return %arg3 : i32
  }) : (tensor<256xi32>) -> i32
  tt.store %Y, %0#0 : tensor<256x!tt.ptr<i32>>
  tt.store %T, %1 : !tt.ptr<i32>
  tt.return
}

// -----

// 2-D TTIR, axis 1, reverse: the total is the shape without axis 1, no encoding.
// CHECK-LABEL: tt.func public @rank2_ttir_axis1_reverse
// CHECK-NEXT: %[[EXCL:.*]], %[[TOTAL:.*]] = tle.exclusive_cumsum %{{.*}} {axis = 1 : i32, reverse = true} : tensor<16x128xi64> -> tensor<16x128xi64>, tensor<16xi64>
// CHECK-NEXT: tt.store %{{.*}}, %[[EXCL]] : tensor<16x128x!tt.ptr<i64>>
// CHECK-NEXT: tt.store %{{.*}}, %[[TOTAL]] : tensor<16x!tt.ptr<i64>>
tt.func public @rank2_ttir_axis1_reverse(%x: tensor<16x128xi64>, %Y: tensor<16x128x!tt.ptr<i64>>, %T: tensor<16x!tt.ptr<i64>>) {
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = true, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<16x128xi64> -> tensor<16x128xi64>, tensor<16x128xi64>
  %1 = "tt.reduce"(%0#1) <{axis = 1 : i32}> ({
  ^bb0(%a: i64, %b: i64):
    tt.reduce.return %a : i64
  }) : (tensor<16x128xi64>) -> tensor<16xi64>
  tt.store %Y, %0#0 : tensor<16x128x!tt.ptr<i64>>
  tt.store %T, %1 : tensor<16x!tt.ptr<i64>>
  tt.return
}

// -----

// 2-D TTGIR, axis 0: the inferred total carries #ttg.slice<{dim = 0, parent =
// #blocked}>, exactly the pick reduce's type, so no convert is needed; the
// kernel's own convert_layout of the total stays.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[BLOCKED1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @rank2_ttgir_slice_total
  // CHECK-NEXT: %[[EXCL:.*]], %[[TOTAL:.*]] = tle.exclusive_cumsum %{{.*}} {axis = 0 : i32} : tensor<64x32xf32, #[[BLOCKED]]> -> tensor<64x32xf32, #[[BLOCKED]]>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[BLOCKED]]}>>
  // CHECK-NEXT: tt.store %{{.*}}, %[[EXCL]] : tensor<64x32x!tt.ptr<f32>, #[[BLOCKED]]>
  // CHECK-NEXT: %[[CVT:.*]] = ttg.convert_layout %[[TOTAL]] : tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[BLOCKED]]}>> -> tensor<32xf32, #[[BLOCKED1]]>
  // CHECK-NEXT: tt.store %{{.*}}, %[[CVT]] : tensor<32x!tt.ptr<f32>, #[[BLOCKED1]]>
  tt.func public @rank2_ttgir_slice_total(%x: tensor<64x32xf32, #blocked>, %Y: tensor<64x32x!tt.ptr<f32>, #blocked>, %T: tensor<32x!tt.ptr<f32>, #blocked1>) {
    %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked>, tensor<64x32xf32, #blocked>
    %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
    ^bb0(%arg3: f32, %arg4: f32):
      tt.reduce.return %arg3 : f32
    }) : (tensor<64x32xf32, #blocked>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %Y, %0#0 : tensor<64x32x!tt.ptr<f32>, #blocked>
    %6 = ttg.convert_layout %1 : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<32xf32, #blocked1>
    tt.store %T, %6 : tensor<32x!tt.ptr<f32>, #blocked1>
    tt.return
  }
}

// -----

// A convert_layout between the marker and its pick reduce: the reduce's
// result is sliced from #blocked1, the op's total from #blocked, and a new
// convert_layout bridges the two.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[BLOCKED1:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @convert_before_pick
  // CHECK-NEXT: %[[EXCL:.*]], %[[TOTAL:.*]] = tle.exclusive_cumsum %{{.*}} {axis = 1 : i32} : tensor<64x32xf32, #[[BLOCKED]]> -> tensor<64x32xf32, #[[BLOCKED]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>>
  // CHECK-NEXT: %[[BRIDGE:.*]] = ttg.convert_layout %[[TOTAL]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED1]]}>>
  // CHECK-NOT: tt.reduce
  // CHECK-NEXT: tt.return %[[EXCL]], %[[BRIDGE]] : tensor<64x32xf32, #[[BLOCKED]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED1]]}>>
  tt.func public @convert_before_pick(%x: tensor<64x32xf32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
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

// The total of a tl.sum result (rank 1, #ttg.slice-encoded input) is unused:
// Triton deleted the pick reduce, and the op infers the scalar total itself.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @unused_total_of_sum
  // CHECK: %[[SUM:.*]] = "tt.reduce"
  // CHECK: arith.addf
  // CHECK: %[[EXCL:.*]], %{{.*}} = tle.exclusive_cumsum %[[SUM]] {axis = 0 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>>, f32
  // CHECK-NEXT: tt.return %[[EXCL]]
  tt.func public @unused_total_of_sum(%s_9: tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> {
    %s_10 = "tt.reduce"(%s_9) <{axis = 1 : i32}> ({
    ^bb0(%s_11: f32, %s_12: f32):
      %s_13 = arith.addf %s_11, %s_12 : f32
      tt.reduce.return %s_13 : f32
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %s_10 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
    tt.return %0#0 : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  }
}

// -----

// Inside a loop, 2-D, total unused: the inferred total is sliced along axis 1.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #[[BLOCKED:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @in_loop
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
  // CHECK-NEXT: %[[EXCL:.*]], %{{.*}} = tle.exclusive_cumsum %[[ACC]] {axis = 1 : i32} : tensor<32x64xf32, #[[BLOCKED]]> -> tensor<32x64xf32, #[[BLOCKED]]>, tensor<32xf32, #ttg.slice<{dim = 1, parent = #[[BLOCKED]]}>>
  // CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[EXCL]]
  // CHECK-NEXT: scf.yield %[[SUM]]
  tt.func public @in_loop(%x_8: tensor<32x64xf32, #blocked>) -> tensor<32x64xf32, #blocked> {
    %c0_i32 = arith.constant 0 : i32
    %c4_i32 = arith.constant 4 : i32
    %c1_i32 = arith.constant 1 : i32
    %x_9 = scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%x_10 = %x_8) -> (tensor<32x64xf32, #blocked>)  : i32 {
      %2:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x_10 : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked>, tensor<32x64xf32, #blocked>
      %x_11 = arith.addf %x_10, %2#0 : tensor<32x64xf32, #blocked>
      scf.yield %x_11 : tensor<32x64xf32, #blocked>
    }
    tt.return %x_9 : tensor<32x64xf32, #blocked>
  }
}

// -----

// Cumsum of a wgmma accumulator: the total is sliced from #mma.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[BLOCKED2:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @of_mma
  // CHECK-NEXT: %[[EXCL:.*]], %[[TOTAL:.*]] = tle.exclusive_cumsum %{{.*}} {axis = 1 : i32} : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[MMA]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>
  // CHECK-NEXT: %[[CVT:.*]] = ttg.convert_layout %[[TOTAL]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>> -> tensor<64xf32, #[[BLOCKED2]]>
  // CHECK-NEXT: tt.return %[[EXCL]], %[[CVT]]
  tt.func public @of_mma(%c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #blocked2>) {
    %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %c : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
    %1 = "tt.reduce"(%0#1) <{axis = 1 : i32}> ({
    ^bb0(%arg4: f32, %arg5: f32):
      tt.reduce.return %arg4 : f32
    }) : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %11 = ttg.convert_layout %1 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #blocked2>
    tt.return %0#0, %11 : tensor<64x64xf32, #mma>, tensor<64xf32, #blocked2>
  }
}

// -----

// Scalar operands: the op takes the tt.splat's source (here an op without
// type inference, so the result type is the marker's); the splats, now dead,
// go too.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @scalar_operands
  // CHECK-SAME: (%[[G:.*]]: tensor<128x!tt.ptr<f32>, #{{.*}}>, %[[PEER:.*]]: i32, %[[DELTA:.*]]: i64)
  // CHECK-NOT: tt.splat
  // CHECK-NEXT: %[[R:.*]] = tle.remote_pointers device %[[G]], %[[PEER]] offset %[[DELTA]] : tensor<128x!tt.ptr<f32>, #{{.*}}> -> tensor<128x!tt.ptr<f32>, #{{.*}}>
  // CHECK-NEXT: tt.return %[[R]]
  tt.func @scalar_operands(%g: tensor<128x!tt.ptr<f32>, #blocked>, %peer: i32, %delta: i64) -> tensor<128x!tt.ptr<f32>, #blocked> {
    %p = tt.splat %peer : i32 -> tensor<128xi32, #blocked>
    %d = tt.splat %delta : i64 -> tensor<128xi64, #blocked>
    %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<device>, tle.marker.scalar_operands = array<i32: 1, 2>}" {constraints = "=l,l,r,l", packed_element = 1 : i32, pure = false} %g, %p, %d : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>, tensor<128xi64, #blocked> -> tensor<128x!tt.ptr<f32>, #blocked>
    tt.return %r : tensor<128x!tt.ptr<f32>, #blocked>
  }
}

// -----

// Inline asm that is not a marker is left alone, even next to a marker.
// CHECK-LABEL: tt.func @other_inline_asm
// CHECK-NEXT: %[[ASM:.*]] = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : tensor<128xi32> -> tensor<128xi32>
// CHECK-NEXT: %[[EXCL:.*]], %{{.*}} = tle.exclusive_cumsum %[[ASM]]
// CHECK-NEXT: %[[ASM2:.*]] = tt.elementwise_inline_asm "tle_not_a_marker" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %[[EXCL]] : tensor<128xi32> -> tensor<128xi32>
// CHECK-NEXT: tt.return %[[ASM2]]
tt.func @other_inline_asm(%x: tensor<128xi32>) -> tensor<128xi32> {
  %a = tt.elementwise_inline_asm "shl.b32 $0, $0, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xi32> -> tensor<128xi32>
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %a : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %b = tt.elementwise_inline_asm "tle_not_a_marker" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %0#0 : tensor<128xi32> -> tensor<128xi32>
  tt.return %b : tensor<128xi32>
}
