// RUN: tle-opt %s -split-input-file -triton-tle-optimize-exclusive-cumsum-layouts | FileCheck %s

// An mma (wgmma) accumulator: tt.scan cannot lower it. The users convert the
// exclusive result to #blocked1 and the total to a 1-D #blocked2. Candidates:
// #blocked1 (1 convert in, none out for the exclusive, 1 for the total: 2) and
// the built layout (1 in, 1 per result: 3). #blocked1 wins; the exclusive
// result's convert disappears, the total's convert now starts from
// #ttg.slice<{dim = 1, parent = #blocked1}>.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[B2:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func @mma_to_user_layout(
// CHECK-SAME: %[[C:[^:]+]]: tensor<64x64xf32, #[[MMA]]>, %[[P:[^:]+]]: tensor<64x64x!tt.ptr<f32>, #[[B1]]>, %[[Q:[^:]+]]: tensor<64x!tt.ptr<f32>, #[[B2]]>
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[C]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[B1]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32} : tensor<64x64xf32, #[[B1]]> -> tensor<64x64xf32, #[[B1]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B1]]}>>
// CHECK-NEXT: tt.store %[[P]], %[[E]] : tensor<64x64x!tt.ptr<f32>, #[[B1]]>
// CHECK-NEXT: %[[TC:.+]] = ttg.convert_layout %[[T]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B1]]}>> -> tensor<64xf32, #[[B2]]>
// CHECK-NEXT: tt.store %[[Q]], %[[TC]] : tensor<64x!tt.ptr<f32>, #[[B2]]>
// CHECK-NEXT: tt.return
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

// -----

// An mma input whose results stay in mma (no convert users): the pass builds
// a blocked layout with the scan axis (1) fastest, all 32 lanes on it, the 4
// warps on the other dimension, and the remaining 64/32 = 2 elements of the
// axis contiguous per thread; results are converted back. `reverse` and any
// other attribute survive.

// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @mma_built_axis1(
// CHECK-SAME: %[[C:[^:]+]]: tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[C]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[S]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32, reverse = true, tag = "kept"} : tensor<64x64xf32, #[[S]]> -> tensor<64x64xf32, #[[S]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[S]]}>>
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #[[S]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[TB:.+]] = ttg.convert_layout %[[T]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[S]]}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[EB]], %[[C]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: tt.return %[[SUM]], %[[TB]]
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_built_axis1(%c: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>) {
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32, reverse = true, tag = "kept"} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %s = arith.addf %e, %c : tensor<64x64xf32, #mma>
    tt.return %s, %t : tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}

// -----

// The same along axis 0, with 8 warps and 16x128 (mma v2): order = [0, 1],
// 16 lanes on the 16 rows, the other 2 lanes and all 8 warps on the columns.
// The total is unused and gets no convert.

// CHECK-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 8], order = [0, 1]}>
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 8], instrShape = [16, 8]}>
// CHECK-LABEL: tt.func @mma_built_axis0(
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %{{.+}} : tensor<16x128xf16, #[[MMA]]> -> tensor<16x128xf16, #[[S]]>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[IN]] {axis = 0 : i32} : tensor<16x128xf16, #[[S]]> -> tensor<16x128xf16, #[[S]]>, tensor<128xf16, #ttg.slice<{dim = 0, parent = #[[S]]}>>
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<16x128xf16, #[[S]]> -> tensor<16x128xf16, #[[MMA]]>
// CHECK-NEXT: tt.return %[[EB]]
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 8], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_built_axis0(%c: tensor<16x128xf16, #mma>) -> tensor<16x128xf16, #mma> {
    %e, %t = tle.exclusive_cumsum %c {axis = 0 : i32} : tensor<16x128xf16, #mma> -> tensor<16x128xf16, #mma>, tensor<128xf16, #ttg.slice<{dim = 0, parent = #mma}>>
    tt.return %e : tensor<16x128xf16, #mma>
  }
}

// -----

// A #ttg.slice input (the result of a tt.reduce) stored through a 1-D
// #blocked1: #blocked1 costs one convert (in), the built layout two (in and
// out). The total of a rank-1 input is a scalar and needs no layout.

// CHECK-DAG: #[[P:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @slice_input(
// CHECK-SAME: %[[X:[^:]+]]: tensor<128xf32, #ttg.slice<{dim = 1, parent = #[[P]]}>>, %[[PTR:[^:]+]]: tensor<128x!tt.ptr<f32>, #[[B1]]>
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[X]] : tensor<128xf32, #ttg.slice<{dim = 1, parent = #[[P]]}>> -> tensor<128xf32, #[[B1]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 0 : i32} : tensor<128xf32, #[[B1]]> -> tensor<128xf32, #[[B1]]>, f32
// CHECK-NEXT: tt.store %[[PTR]], %[[E]] : tensor<128x!tt.ptr<f32>, #[[B1]]>
// CHECK-NEXT: tt.return %[[T]] : f32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @slice_input(%x: tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, %p: tensor<128x!tt.ptr<f32>, #blocked1>) -> f32 {
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32, reverse = false} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>, f32
    %0 = ttg.convert_layout %e : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<128xf32, #blocked1>
    tt.store %p, %0 : tensor<128x!tt.ptr<f32>, #blocked1>
    tt.return %t : f32
  }
}

// -----

// A slice input with no convert users: a 1-D layout is built, lanes then
// warps on the axis and 1024 / (32 * 4) = 8 contiguous elements per thread.

// CHECK-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @slice_input_built(
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %{{.+}} -> tensor<1024xi32, #[[S]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 0 : i32} : tensor<1024xi32, #[[S]]> -> tensor<1024xi32, #[[S]]>, i32
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<1024xi32, #[[S]]> -> tensor<1024xi32, #ttg.slice<{dim = 0, parent = #{{.+}}}>>
// CHECK-NEXT: tt.return %[[EB]], %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @slice_input_built(%x: tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>>) -> (tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32) {
    %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32
    tt.return %e, %t : tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32
  }
}

// -----

// A convert before the op that gets folded: the input was converted from
// #blocked to #blocked1 only for the cumsum, and both results are converted
// back to #blocked layouts. On #blocked: 0 converts; on #blocked1 (current):
// 1 in + 1 per result = 3. The op moves back onto the convert's source and
// all three converts disappear.

// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @convert_before_folded(
// CHECK-SAME: %[[X:[^:]+]]: tensor<64x32xf32, #[[B]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[X]] {axis = 0 : i32} : tensor<64x32xf32, #[[B]]> -> tensor<64x32xf32, #[[B]]>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #[[B]]}>>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return %[[E]], %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_before_folded(%x: tensor<64x32xf32, #blocked>) -> (tensor<64x32xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %0 = ttg.convert_layout %x : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked1>
    %e, %t = tle.exclusive_cumsum %0 {axis = 0 : i32} : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #blocked1>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked1}>>
    %1 = ttg.convert_layout %e : tensor<64x32xf32, #blocked1> -> tensor<64x32xf32, #blocked>
    %2 = ttg.convert_layout %t : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked1}>> -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %1, %2 : tensor<64x32xf32, #blocked>, tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}

// -----

// A convert used only by the op counts against staying: on #blocked1
// (current) the op needs that convert plus the exclusive result's convert to
// #blocked2 (2); on the convert's source #blocked it needs only the latter
// (1), as on #blocked2 (1 in); the tie between those goes to the input's
// source, listed first.

// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B2:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @input_convert_counts(
// CHECK-SAME: %[[X:[^:]+]]: tensor<64x64xf32, #[[B]]>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[X]] {axis = 1 : i32} : tensor<64x64xf32, #[[B]]>
// CHECK-NEXT: %[[EC:.+]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #[[B]]> -> tensor<64x64xf32, #[[B2]]>
// CHECK-NEXT: tt.return %[[EC]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @input_convert_counts(%x: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked2> {
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked1>
    %e, %t = tle.exclusive_cumsum %0 {axis = 1 : i32} : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked1>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    %1 = ttg.convert_layout %e : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #blocked2>
    tt.return %1 : tensor<64x64xf32, #blocked2>
  }
}

// -----

// A convert chain before an unsupported input: mma -> linear, then the op.
// Neither is supported, so a layout is built; its input convert starts from
// the mma value (convert(convert(x)) -> convert(x)) and the convert to
// #linear, now dead, is erased.

// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @convert_chain_before(
// CHECK-SAME: %[[C:[^:]+]]: tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[C]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[S]]>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[IN]]
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #[[S]]> -> tensor<64x64xf32, #linear>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[EB]], %[[EB]] : tensor<64x64xf32, #linear>
// CHECK-NEXT: tt.return %[[SUM]]
#linear = #ttg.linear<{register = [[0, 32], [4, 0], [8, 0], [16, 0], [32, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[1, 0], [2, 0]], block = []}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_chain_before(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #linear> {
    %0 = ttg.convert_layout %c : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #linear>
    %e, %t = tle.exclusive_cumsum %0 {axis = 1 : i32} : tensor<64x64xf32, #linear> -> tensor<64x64xf32, #linear>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #linear}>>
    %1 = arith.addf %e, %e : tensor<64x64xf32, #linear>
    tt.return %1 : tensor<64x64xf32, #linear>
  }
}

// -----

// Converts after the op that get folded: the input is #blocked (supported,
// no convert in), but both results are converted to #blocked1 (the exclusive
// twice). Staying costs 3; #blocked1 costs 1 (in) -- the total's convert to
// #ttg.slice<{dim = 1, parent = #blocked1}> names #blocked1 as a candidate
// too. Identity converts left over are replaced by the value.

// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @converts_after_folded(
// CHECK-SAME: %[[X:[^:]+]]: tensor<16x128xi64, #[[B]]>
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[X]] : tensor<16x128xi64, #[[B]]> -> tensor<16x128xi64, #[[B1]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32, reverse = true} : tensor<16x128xi64, #[[B1]]> -> tensor<16x128xi64, #[[B1]]>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #[[B1]]}>>
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[E]], %[[E]] : tensor<16x128xi64, #[[B1]]>
// CHECK-NEXT: tt.return %[[SUM]], %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @converts_after_folded(%x: tensor<16x128xi64, #blocked>) -> (tensor<16x128xi64, #blocked1>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked1}>>) {
    %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32, reverse = true} : tensor<16x128xi64, #blocked> -> tensor<16x128xi64, #blocked>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked}>>
    %0 = ttg.convert_layout %e : tensor<16x128xi64, #blocked> -> tensor<16x128xi64, #blocked1>
    %1 = ttg.convert_layout %e : tensor<16x128xi64, #blocked> -> tensor<16x128xi64, #blocked1>
    %2 = arith.addi %0, %1 : tensor<16x128xi64, #blocked1>
    %3 = ttg.convert_layout %t : tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked1}>>
    tt.return %2, %3 : tensor<16x128xi64, #blocked1>, tensor<16xi64, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// Only the total's convert names a blocked layout: converting the total to
// #ttg.slice<{dim = 1, parent = #blocked1}> makes #blocked1 a candidate
// (1 convert in, the exclusive result is unused: 1), cheaper than a built
// layout (1 in + 1 for the total: 2).

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-LABEL: tt.func @total_names_candidate(
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %{{.+}} -> tensor<64x64xf32, #[[B1]]>
// CHECK-NEXT: %{{.+}}, %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32} : tensor<64x64xf32, #[[B1]]>
// CHECK-NEXT: tt.return %[[T]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B1]]}>>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @total_names_candidate(%c: tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> {
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %0 = ttg.convert_layout %t : tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
    tt.return %0 : tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>
  }
}

// -----

// Only the input's convert names a blocked layout: a #blocked value was
// converted to mma for the cumsum, whose exclusive result is used in mma.
// Its source #blocked costs 0 in + 1 back to mma = 1; a built layout 2.

// CHECK-DAG: #[[B:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func @convert_before_unsupported(
// CHECK-SAME: %[[X:[^:]+]]: tensor<64x64xf32, #[[B]]>, %[[C:[^:]+]]: tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[E:.+]], %{{.+}} = tle.exclusive_cumsum %[[X]] {axis = 0 : i32} : tensor<64x64xf32, #[[B]]>
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #[[B]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[EB]], %[[C]]
// CHECK-NEXT: tt.return %[[SUM]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_before_unsupported(%x: tensor<64x64xf32, #blocked>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %0 = ttg.convert_layout %x : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mma>
    %e, %t = tle.exclusive_cumsum %0 {axis = 0 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 0, parent = #mma}>>
    %1 = arith.addf %e, %c : tensor<64x64xf32, #mma>
    tt.return %1 : tensor<64x64xf32, #mma>
  }
}

// -----

// Converts after an mma op whose results also have other users: the
// exclusive result is stored through #blocked1 and added in mma. #blocked1
// costs 1 (in) + 1 (back to mma for the add) + 1 (total back to its slice):
// 3; the built layout costs 1 + 2 + 1 = 4. The add reads a convert back to
// mma; the store's convert is gone.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[MMA:.+]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-LABEL: tt.func @mixed_users(
// CHECK-SAME: %[[C:[^:]+]]: tensor<64x64xf32, #[[MMA]]>, %[[P:[^:]+]]: tensor<64x64x!tt.ptr<f32>, #[[B1]]>
// CHECK-NEXT: %[[IN:.+]] = ttg.convert_layout %[[C]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[B1]]>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[IN]] {axis = 1 : i32} : tensor<64x64xf32, #[[B1]]>
// CHECK-NEXT: %[[EB:.+]] = ttg.convert_layout %[[E]] : tensor<64x64xf32, #[[B1]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[TB:.+]] = ttg.convert_layout %[[T]] : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B1]]}>> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>
// CHECK-NEXT: tt.store %[[P]], %[[E]]
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[EB]], %[[C]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: tt.return %[[SUM]], %[[TB]]
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mixed_users(%c: tensor<64x64xf32, #mma>, %p: tensor<64x64x!tt.ptr<f32>, #blocked1>) -> (tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>) {
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %0 = ttg.convert_layout %e : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.store %p, %0 : tensor<64x64x!tt.ptr<f32>, #blocked1>
    %1 = arith.addf %e, %c : tensor<64x64xf32, #mma>
    tt.return %1, %t : tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}

// -----

// A module without ttg.num-warps is fine as long as no layout has to be
// built: the users' #blocked1 is a candidate.

// CHECK-LABEL: tt.func @no_num_warps_needed(
// CHECK-NEXT: ttg.convert_layout
// CHECK-NEXT: tle.exclusive_cumsum %{{.+}} {axis = 1 : i32} : tensor<64x64xf32, #blocked>
// CHECK-NEXT: tt.return
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module {
  tt.func @no_num_warps_needed(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #blocked1> {
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    %0 = ttg.convert_layout %e : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1>
    tt.return %0 : tensor<64x64xf32, #blocked1>
  }
}

// -----

// Identity converts next to an op that stays put are dropped.

// CHECK-LABEL: tt.func @identity_converts(
// CHECK-SAME: %[[X:[^:]+]]: tensor<256xi32, #blocked>
// CHECK-NEXT: %[[E:.+]], %[[T:.+]] = tle.exclusive_cumsum %[[X]]
// CHECK-NEXT: tt.return %[[E]], %[[T]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @identity_converts(%x: tensor<256xi32, #blocked>) -> (tensor<256xi32, #blocked>, i32) {
    %0 = ttg.convert_layout %x : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked>
    %e, %t = tle.exclusive_cumsum %0 {axis = 0 : i32} : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked>, i32
    %1 = ttg.convert_layout %e : tensor<256xi32, #blocked> -> tensor<256xi32, #blocked>
    tt.return %1, %t : tensor<256xi32, #blocked>, i32
  }
}

// -----

// A cluster module whose mma layout is broadcast over the CTAs (every
// CGALayout basis zero): the built layout copies that CTA layout.

// CHECK-DAG: #[[S:.+]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}0, 0]]}>
// CHECK-LABEL: tt.func @cluster_broadcast(
// CHECK-NEXT: ttg.convert_layout %{{.+}} -> tensor<64x64xf32, #[[S]]>
// CHECK-NEXT: tle.exclusive_cumsum %{{.+}} : tensor<64x64xf32, #[[S]]>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = [[0, 0]], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cluster_broadcast(%c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %e, %t = tle.exclusive_cumsum %c {axis = 1 : i32} : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    tt.return %e : tensor<64x64xf32, #mma>
  }
}
