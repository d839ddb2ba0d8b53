// RUN: tle-opt %s -split-input-file --triton-tle-lower-tiles | FileCheck %s --implicit-check-not='tle.'

// tle.extract_tile / tle.insert_tile through shared memory: a row-major
// unswizzled buffer, ttg.memdesc_subslice at the tile's element offsets.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG: #[[SHARED:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // Tile 3 of a 2x2 grid of 16x32 tiles: rows 16..31, columns 32..63.
  // CHECK-LABEL: tt.func @extract_static
  // CHECK-NEXT: %[[M:.*]] = ttg.local_alloc %arg0 : (tensor<32x64xf32, #blocked>) -> !ttg.memdesc<32x64xf32, #[[SHARED]], #smem>
  // CHECK-NEXT: %[[V:.*]] = ttg.memdesc_subslice %[[M]][16, 32] : !ttg.memdesc<32x64xf32, #[[SHARED]], #smem> -> !ttg.memdesc<16x32xf32, #[[SHARED]], #smem, 32x64>
  // CHECK-NEXT: %[[T:.*]] = ttg.local_load %[[V]] : !ttg.memdesc<16x32xf32, #[[SHARED]], #smem, 32x64> -> tensor<16x32xf32, #blocked1>
  // CHECK-NEXT: tt.return %[[T]]
  tt.func @extract_static(%x: tensor<32x64xf32, #blocked>) -> tensor<16x32xf32, #blocked1> {
    %t = tle.extract_tile %x[3] tile [16, 32] : tensor<32x64xf32, #blocked> -> tensor<16x32xf32, #blocked1>
    tt.return %t : tensor<16x32xf32, #blocked1>
  }

  // A constant dynamic index is a static one.
  // CHECK-LABEL: tt.func @extract_constant_index
  // CHECK: ttg.memdesc_subslice %{{.*}}[0, 32]
  // CHECK-NOT: arith.select
  tt.func @extract_constant_index(%x: tensor<32x64xf32, #blocked>) -> tensor<16x32xf32, #blocked> {
    %c1 = arith.constant 1 : i32
    %t = tle.extract_tile %x[%c1] tile [16, 32] : tensor<32x64xf32, #blocked>, i32 -> tensor<16x32xf32, #blocked>
    tt.return %t : tensor<16x32xf32, #blocked>
  }

  // Dynamic: every tile is loaded, the one numbered %i is selected.
  // CHECK-LABEL: tt.func @extract_dynamic
  // CHECK-NEXT: %[[M:.*]] = ttg.local_alloc %arg0
  // CHECK-NEXT: %[[V0:.*]] = ttg.memdesc_subslice %[[M]][0, 0]
  // CHECK-NEXT: %[[T0:.*]] = ttg.local_load %[[V0]]
  // CHECK-NEXT: %[[V1:.*]] = ttg.memdesc_subslice %[[M]][0, 32]
  // CHECK-NEXT: %[[T1:.*]] = ttg.local_load %[[V1]]
  // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i64
  // CHECK-NEXT: %[[E1:.*]] = arith.cmpi eq, %arg1, %[[C1]] : i64
  // CHECK-NEXT: %[[S1:.*]] = tt.splat %[[E1]] : i1 -> tensor<16x32xi1, #blocked>
  // CHECK-NEXT: %[[R1:.*]] = arith.select %[[S1]], %[[T1]], %[[T0]]
  // CHECK: ttg.memdesc_subslice %[[M]][16, 0]
  // CHECK: ttg.memdesc_subslice %[[M]][16, 32]
  // CHECK: arith.constant 3 : i64
  // CHECK: %[[R3:.*]] = arith.select
  // CHECK-NEXT: tt.return %[[R3]]
  tt.func @extract_dynamic(%x: tensor<32x64xf32, #blocked>, %i: i64) -> tensor<16x32xf32, #blocked> {
    %t = tle.extract_tile %x[%i] tile [16, 32] : tensor<32x64xf32, #blocked>, i64 -> tensor<16x32xf32, #blocked>
    tt.return %t : tensor<16x32xf32, #blocked>
  }

  // CHECK-LABEL: tt.func @insert_static
  // CHECK-NEXT: %[[M:.*]] = ttg.local_alloc : () -> !ttg.memdesc<32x64xf32, #[[SHARED]], #smem, mutable>
  // CHECK-NEXT: ttg.local_store %arg0, %[[M]] : tensor<32x64xf32, #blocked> -> !ttg.memdesc<32x64xf32, #[[SHARED]], #smem, mutable>
  // CHECK-NEXT: %[[V:.*]] = ttg.memdesc_subslice %[[M]][16, 0] : !ttg.memdesc<32x64xf32, #[[SHARED]], #smem, mutable> -> !ttg.memdesc<16x32xf32, #[[SHARED]], #smem, mutable, 32x64>
  // CHECK-NEXT: ttg.local_store %arg1, %[[V]] : tensor<16x32xf32, #blocked1> -> !ttg.memdesc<16x32xf32, #[[SHARED]], #smem, mutable, 32x64>
  // CHECK-NEXT: %[[R:.*]] = ttg.local_load %[[M]] : !ttg.memdesc<32x64xf32, #[[SHARED]], #smem, mutable> -> tensor<32x64xf32, #blocked>
  // CHECK-NEXT: tt.return %[[R]]
  tt.func @insert_static(%x: tensor<32x64xf32, #blocked>, %t: tensor<16x32xf32, #blocked1>) -> tensor<32x64xf32, #blocked> {
    %r = tle.insert_tile %t into %x[2] : tensor<16x32xf32, #blocked1> into tensor<32x64xf32, #blocked>
    tt.return %r : tensor<32x64xf32, #blocked>
  }

  // Dynamic: the tile is stored under scf.if (index == k) for each tile k.
  // CHECK-LABEL: tt.func @insert_dynamic
  // CHECK-NEXT: %[[M:.*]] = ttg.local_alloc : ()
  // CHECK-NEXT: ttg.local_store %arg0, %[[M]]
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[E0:.*]] = arith.cmpi eq, %arg2, %[[C0]] : i32
  // CHECK-NEXT: scf.if %[[E0]] {
  // CHECK-NEXT:   %[[V0:.*]] = ttg.memdesc_subslice %[[M]][0, 0]
  // CHECK-NEXT:   ttg.local_store %arg1, %[[V0]]
  // CHECK-NEXT: }
  // CHECK: scf.if
  // CHECK: ttg.memdesc_subslice %[[M]][0, 32]
  // CHECK: scf.if
  // CHECK: ttg.memdesc_subslice %[[M]][16, 0]
  // CHECK: scf.if
  // CHECK: ttg.memdesc_subslice %[[M]][16, 32]
  // CHECK: %[[R:.*]] = ttg.local_load %[[M]]
  // CHECK-NEXT: tt.return %[[R]]
  tt.func @insert_dynamic(%x: tensor<32x64xf32, #blocked>, %t: tensor<16x32xf32, #blocked>, %i: i32) -> tensor<32x64xf32, #blocked> {
    %r = tle.insert_tile %t into %x[%i] : tensor<16x32xf32, #blocked> into tensor<32x64xf32, #blocked>, i32
    tt.return %r : tensor<32x64xf32, #blocked>
  }

  // An unused tile op is dropped, and so is a tile op only it used.
  // CHECK-LABEL: tt.func @unused
  // CHECK-NEXT: tt.return
  tt.func @unused(%x: tensor<32x64xf32, #blocked>) {
    %t = tle.extract_tile %x[0] tile [16, 32] : tensor<32x64xf32, #blocked> -> tensor<16x32xf32, #blocked>
    %r = tle.insert_tile %t into %x[1] : tensor<16x32xf32, #blocked> into tensor<32x64xf32, #blocked>
    tt.return
  }
}

// -----

// 1-D: slice encodings, order [0].
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1d = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[SHARED1:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @one_d
  // CHECK-NEXT: %[[M:.*]] = ttg.local_alloc %arg0 : (tensor<256xf16, #{{.*}}>) -> !ttg.memdesc<256xf16, #[[SHARED1]], #smem>
  // CHECK-NEXT: %[[V:.*]] = ttg.memdesc_subslice %[[M]][192] : !ttg.memdesc<256xf16, #[[SHARED1]], #smem> -> !ttg.memdesc<64xf16, #[[SHARED1]], #smem, 256>
  // CHECK-NEXT: %[[T:.*]] = ttg.local_load %[[V]] : !ttg.memdesc<64xf16, #[[SHARED1]], #smem, 256> -> tensor<64xf16, #ttg.slice<{dim = 0, parent = #{{.*}}}>>
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<256xf16, #[[SHARED1]], #smem, mutable>
  // CHECK: ttg.memdesc_subslice %{{.*}}[64]
  tt.func @one_d(%x: tensor<256xf16, #blocked1d>) -> tensor<256xf16, #blocked1d> {
    %t = tle.extract_tile %x[3] tile [64] : tensor<256xf16, #blocked1d> -> tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tle.insert_tile %t into %x[1] : tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked}>> into tensor<256xf16, #blocked1d>
    tt.return %r : tensor<256xf16, #blocked1d>
  }
}
