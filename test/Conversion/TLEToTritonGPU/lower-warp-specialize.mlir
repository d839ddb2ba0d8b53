// RUN: tle-opt %s -split-input-file --triton-tle-lower-warp-specialize | FileCheck %s --implicit-check-not=tle.

// tle.warp_specialize -> ttg.warp_specialize: scalars and memdescs used from
// above become captures, pure tensor chains and constants are recomputed in
// the partition, and a partition with fewer warps than the module gets its
// own blocked encodings.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-DAG: #[[B4:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B1:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: #[[B2D:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @captures(
  // CHECK-SAME: %[[X:.*]]: !tt.ptr<f32>, %[[N:.*]]: i32, %[[BUF:.*]]: !ttg.memdesc<128xf32, #shared, #smem, mutable>)
  tt.func @captures(%x: !tt.ptr<f32>, %n: i32, %buf: !ttg.memdesc<128xf32, #shared, #smem, mutable>) {
    %c2 = arith.constant 2 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %r2 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>>
    %s = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    %m = arith.muli %n, %c2 : i32
    // CHECK: %[[M:.*]] = arith.muli %[[N]]
    // CHECK: ttg.warp_specialize(%[[X]], %[[BUF]], %[[M]]) attributes {requestedRegisters = array<i32: 40>}
    // The default region keeps using values from above, in the module's encodings.
    // CHECK-NEXT: default {
    // CHECK-NEXT: tt.load %{{.*}} : tensor<128x!tt.ptr<f32>, #[[B4]]>
    // CHECK-NEXT: ttg.warp_yield
    // CHECK-NEXT: }
    // CHECK-NEXT: partition0(%[[AX:.*]]: !tt.ptr<f32>, %[[ABUF:.*]]: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %[[AM:.*]]: i32) num_warps(1) {
    // CHECK-DAG: %[[S1:.*]] = tt.splat %[[AX]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #[[B1]]>
    // CHECK-DAG: %[[R1:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[B1]]>
    // CHECK-DAG: %[[P1:.*]] = tt.addptr %[[S1]], %[[R1]]
    // CHECK-DAG: %[[C7:.*]] = arith.constant dense<7.000000e+00> : tensor<128xf32, #[[B1]]>
    // CHECK-DAG: %[[R2:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[B2D]]}>>
    // CHECK: %[[V:.*]] = tt.load %[[P1]] : tensor<128x!tt.ptr<f32>, #[[B1]]>
    // CHECK-NEXT: %[[W:.*]] = arith.addf %[[V]], %[[C7]]
    // CHECK-NEXT: ttg.local_store %[[W]], %[[ABUF]]
    // CHECK-NEXT: arith.addi %[[AM]], %[[AM]]
    // CHECK-NEXT: tt.expand_dims %[[R2]] {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[B2D]]}>> -> tensor<128x1xi32, #[[B2D]]>
    // CHECK-NEXT: ttg.warp_return
    // CHECK-NEXT: } : (!tt.ptr<f32>, !ttg.memdesc<128xf32, #shared, #smem, mutable>, i32) -> ()
    %c7 = arith.constant dense<7.0> : tensor<128xf32, #blocked>
    tle.warp_specialize()
    default {
      %v = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #blocked>
      tle.warp_yield
    }
    partition0() num_warps(1) num_regs(40) {
      %v = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #blocked>
      %w = arith.addf %v, %c7 : tensor<128xf32, #blocked>
      ttg.local_store %w, %buf : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      %k = arith.addi %m, %m : i32
      %t = tt.expand_dims %r2 {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked2}>> -> tensor<128x1xi32, #blocked2>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Explicit captures (block arguments) are substituted and captured again;
// a partition with the module's warp count keeps its encodings.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @explicit(
  // CHECK-SAME: %[[N:.*]]: i32
  tt.func @explicit(%n: i32, %x: !tt.ptr<f32>) -> i32 {
    // CHECK: %[[R:.*]] = ttg.warp_specialize(%[[N]])
    // CHECK-NEXT: default {
    // CHECK-NEXT: ttg.warp_yield %[[N]] : i32
    // CHECK: partition0(%[[A:.*]]: i32) num_warps(4) {
    // CHECK-NEXT: tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    // CHECK-NEXT: arith.subi %[[A]], %[[A]]
    // CHECK: } : (i32) -> i32
    // CHECK-NEXT: tt.return %[[R]]
    %r = tle.warp_specialize(%n)
    default {
      tle.warp_yield %n : i32
    }
    partition0(%a: i32) num_warps(4) {
      %t = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
      %d = arith.subi %a, %a : i32
      tle.warp_return
    } : (i32) -> i32
    tt.return %r : i32
  }
}

// -----

// The default region's results keep the module's encodings (an mma
// accumulator and its row slice): the epilogue after the op converts and
// stores them, outside the partitions. A scalar result is captured by a
// later warp_specialize's worker like any scalar from above.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-DAG: #[[BL:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @results(
  // CHECK-SAME: %[[OUT:[^:]*]]: tensor<64x64x!tt.ptr<f32>, #[[BL]]>, %[[BUF:[^:]*]]: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %[[N:[^:]*]]: i32)
  tt.func @results(%out: tensor<64x64x!tt.ptr<f32>, #blocked>, %buf: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %n: i32) {
    // CHECK: %[[WS:.*]]:3 = ttg.warp_specialize(%[[BUF]])
    // CHECK-NEXT: default {
    // CHECK: %[[K:.*]] = arith.addi %[[N]], %[[N]]
    // CHECK-NEXT: ttg.warp_yield %{{.*}}, %{{.*}}, %[[K]] : tensor<64x64xf32, #[[MMA]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>, i32
    // CHECK-NEXT: }
    // CHECK-NEXT: partition0(%{{.*}}: !ttg.memdesc<128xf32, #shared, #smem, mutable>) num_warps(1) {
    // CHECK: } : (!ttg.memdesc<128xf32, #shared, #smem, mutable>) -> (tensor<64x64xf32, #[[MMA]]>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[MMA]]}>>, i32)
    // CHECK-NEXT: %[[C:.*]] = ttg.convert_layout %[[WS]]#0 : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[BL]]>
    // CHECK-NEXT: tt.store %[[OUT]], %[[C]]
    // CHECK-NEXT: ttg.warp_specialize(%[[WS]]#2)
    // CHECK: partition0(%[[A:.*]]: i32) num_warps(1) {
    // CHECK-NEXT: arith.muli %[[A]], %[[A]]
    %acc, %rows, %k = tle.warp_specialize()
    default {
      %a = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
      %r = "tt.reduce"(%a) <{axis = 1 : i32}> ({
      ^bb0(%x: f32, %y: f32):
        %s = arith.addf %x, %y : f32
        tt.reduce.return %s : f32
      }) : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
      %k = arith.addi %n, %n : i32
      tle.warp_yield %a, %r, %k : tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i32
    }
    partition0() num_warps(1) {
      %v = ttg.local_load %buf : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked1>
      ttg.local_store %v, %buf : tensor<128xf32, #blocked1> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.warp_return
    } : () -> (tensor<64x64xf32, #mma>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>, i32)
    %c = ttg.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
    tt.store %out, %c : tensor<64x64x!tt.ptr<f32>, #blocked>
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %u = arith.muli %k, %k : i32
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Warps per CTA whose product overflows 32 bits: refitting them to the
// partition's 1 warp ends (the unsigned product was 0 and doubling it never
// reached 1: a hang found by scripts/fuzz_tle_opt.py).
#huge = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [65536, 65536], order = [1, 0]}>
// CHECK-DAG: #[[FIT:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @huge_warps(
  // CHECK: partition0() num_warps(1) {
  // CHECK: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #[[FIT]]}>> -> tensor<128x1xi32, #[[FIT]]>
  tt.func @huge_warps() {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #huge}>>
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %t = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #huge}>> -> tensor<128x1xi32, #huge>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
