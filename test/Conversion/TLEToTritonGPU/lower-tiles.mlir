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

// -----

// A static extract from a tensor computed elementwise from ranges, splats,
// constants and a load used only by the extract: the computation replays on
// the tile's elements only (the ranges start at the tile's offsets; tile 1
// of the 2x2 grid of 32x32 tiles covers rows 0..31, columns 32..63), so
// only the tile is loaded and no shared memory is used; a result encoding
// other than the source's is a layout conversion.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#bt = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @extract_of_load(
  // CHECK-SAME: %[[P:[^:]*]]: !tt.ptr<f32>, %[[N:[^:]*]]: i32) -> tensor<32x32xf32, #[[DST:blocked[0-9]*]]>
  // CHECK-NOT: ttg.local_alloc
  // CHECK-NOT: 64x64
  // CHECK-DAG: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[SRC:blocked[0-9]*]]}>>
  // CHECK-DAG: tt.make_range {end = 64 : i32, start = 32 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[SRC]]}>>
  // CHECK-DAG: tt.splat %[[P]] : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>, #[[SRC]]>
  // CHECK-DAG: tt.splat %[[N]] : i32 -> tensor<32x32xi32, #[[SRC]]>
  // CHECK-DAG: arith.constant dense<64> : tensor<32x1xi32, #[[SRC]]>
  // CHECK-DAG: arith.constant dense<0.000000e+00> : tensor<32x32xf32, #[[SRC]]>
  // CHECK: %[[L:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} evictionPolicy = evict_last : tensor<32x32x!tt.ptr<f32>, #[[SRC]]>
  // CHECK-NEXT: %[[T:.*]] = ttg.convert_layout %[[L]] : tensor<32x32xf32, #[[SRC]]> -> tensor<32x32xf32, #[[DST]]>
  // CHECK-NEXT: tt.return %[[T]] : tensor<32x32xf32, #[[DST]]>
  tt.func @extract_of_load(%p: !tt.ptr<f32>, %n: i32) -> tensor<32x32xf32, #blocked1> {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %stride = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %r3 = arith.muli %r2, %stride : tensor<64x1xi32, #blocked>
    %r4 = tt.broadcast %r3 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %c3 = tt.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %r4, %c3 : tensor<64x64xi32, #blocked>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %off : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<64x64xi32, #blocked>
    %mask = arith.cmpi slt, %off, %ns : tensor<64x64xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %x = tt.load %ptrs, %mask, %zero evictionPolicy = evict_last : tensor<64x64x!tt.ptr<f32>, #blocked>
    %t = tle.extract_tile %x[1] tile [32, 32] : tensor<64x64xf32, #blocked> -> tensor<32x32xf32, #blocked1>
    tt.return %t : tensor<32x32xf32, #blocked1>
  }

  // The loaded tensor has another user: it is not loaded twice, the tile
  // comes through shared memory.
  // CHECK-LABEL: tt.func @extract_of_shared_load(
  // CHECK: %[[X:.*]] = tt.load
  // CHECK: ttg.local_alloc %[[X]]
  // CHECK: ttg.memdesc_subslice %{{.*}}[32, 0]
  tt.func @extract_of_shared_load(%ptrs: tensor<64x64x!tt.ptr<f32>, #blocked>) -> (tensor<32x32xf32, #blocked>, tensor<64x64xf32, #blocked>) {
    %x = tt.load %ptrs : tensor<64x64x!tt.ptr<f32>, #blocked>
    %t = tle.extract_tile %x[2] tile [32, 32] : tensor<64x64xf32, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %t, %x : tensor<32x32xf32, #blocked>, tensor<64x64xf32, #blocked>
  }

  // A volatile load is performed whole; the tile comes through shared memory.
  // CHECK-LABEL: tt.func @extract_of_volatile_load(
  // CHECK: tt.load %{{.*}} {isVolatile = true} : tensor<64x64x!tt.ptr<f32>, #{{.*}}>
  // CHECK: ttg.local_alloc
  tt.func @extract_of_volatile_load(%ptrs: tensor<64x64x!tt.ptr<f32>, #blocked>) -> tensor<32x32xf32, #blocked> {
    %x = tt.load %ptrs {isVolatile = true} : tensor<64x64x!tt.ptr<f32>, #blocked>
    %t = tle.extract_tile %x[0] tile [32, 32] : tensor<64x64xf32, #blocked> -> tensor<32x32xf32, #blocked>
    tt.return %t : tensor<32x32xf32, #blocked>
  }

  // An op that is not elementwise on the way (a transpose) stops the
  // replay: the tile comes through shared memory.
  // CHECK-LABEL: tt.func @extract_of_transpose(
  // CHECK: tt.trans
  // CHECK: ttg.local_alloc
  tt.func @extract_of_transpose(%ptrs: tensor<64x64x!tt.ptr<f32>, #blocked>) -> tensor<32x32xf32, #bt> {
    %x = tt.load %ptrs : tensor<64x64x!tt.ptr<f32>, #blocked>
    %y = tt.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #bt>
    %t = tle.extract_tile %y[1] tile [32, 32] : tensor<64x64xf32, #bt> -> tensor<32x32xf32, #bt>
    tt.return %t : tensor<32x32xf32, #bt>
  }
}

// -----

// A constant-index insert whose result only a tt.store stores, through
// pointers (and a mask) computed elementwise from ranges and splats: two
// stores to disjoint addresses and no shared memory. The source is stored
// with the tile's box (tile 1 of the 2x2 grid of 32x32 tiles: rows 0..31,
// columns 32..63) masked off, the tile through the pointers and mask
// replayed on the box (converted to their layout).

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @insert_into_store(
  // CHECK-SAME: %[[P:[^:]*]]: !tt.ptr<f32>, %[[N:[^:]*]]: i32, %[[X:[^:]*]]: tensor<64x64xf32, #[[SRC:blocked[0-9]*]]>, %[[T:[^:]*]]: tensor<32x32xf32, #[[TILE:blocked[0-9]*]]>)
  // CHECK-NOT: ttg.local_alloc
  // CHECK: %[[PTRS:.*]] = tt.addptr %{{.*}} : tensor<64x64x!tt.ptr<f32>, #[[SRC]]>
  // CHECK: %[[MASK:.*]] = arith.cmpi slt, %{{.*}} : tensor<64x64xi32, #[[SRC]]>
  // The box's pointers and mask, from ranges starting at its offsets.
  // CHECK-DAG: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #[[SRC]]}>>
  // CHECK-DAG: tt.make_range {end = 64 : i32, start = 32 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #[[SRC]]}>>
  // CHECK-DAG: %[[TPTRS:.*]] = tt.addptr %{{.*}} : tensor<32x32x!tt.ptr<f32>, #[[SRC]]>, tensor<32x32xi32, #[[SRC]]>
  // CHECK-DAG: %[[TMASK:.*]] = arith.cmpi slt, %{{.*}} : tensor<32x32xi32, #[[SRC]]>
  // The box in the source's coordinates, only its bounds inside the
  // tensor: rows below 32, columns from 32.
  // CHECK: %[[ROWS:.*]] = tt.broadcast %{{.*}} : tensor<64x1xi32, #[[SRC]]> -> tensor<64x64xi32, #[[SRC]]>
  // CHECK: %[[C32:.*]] = arith.constant dense<32> : tensor<64x64xi32, #[[SRC]]>
  // CHECK: %[[LT:.*]] = arith.cmpi slt, %[[ROWS]], %[[C32]] : tensor<64x64xi32, #[[SRC]]>
  // CHECK: %[[COLS:.*]] = tt.broadcast %{{.*}} : tensor<1x64xi32, #[[SRC]]> -> tensor<64x64xi32, #[[SRC]]>
  // CHECK: %[[C32B:.*]] = arith.constant dense<32> : tensor<64x64xi32, #[[SRC]]>
  // CHECK: %[[GE:.*]] = arith.cmpi sge, %[[COLS]], %[[C32B]] : tensor<64x64xi32, #[[SRC]]>
  // CHECK: %[[IN:.*]] = arith.andi %[[LT]], %[[GE]]
  // CHECK: %[[OUT:.*]] = arith.xori %[[IN]], %{{.*}} : tensor<64x64xi1, #[[SRC]]>
  // CHECK: %[[XMASK:.*]] = arith.andi %[[OUT]], %[[MASK]]
  // CHECK: tt.store %[[PTRS]], %[[X]], %[[XMASK]] cacheModifier = wt : tensor<64x64x!tt.ptr<f32>, #[[SRC]]>
  // CHECK: %[[TV:.*]] = ttg.convert_layout %[[T]] : tensor<32x32xf32, #[[TILE]]> -> tensor<32x32xf32, #[[SRC]]>
  // CHECK: tt.store %[[TPTRS]], %[[TV]], %[[TMASK]] cacheModifier = wt : tensor<32x32x!tt.ptr<f32>, #[[SRC]]>
  // CHECK-NOT: tt.store
  // CHECK: tt.return
  tt.func @insert_into_store(%p: !tt.ptr<f32>, %n: i32, %x: tensor<64x64xf32, #blocked>, %t: tensor<32x32xf32, #blocked1>) {
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %stride = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %r3 = arith.muli %r2, %stride : tensor<64x1xi32, #blocked>
    %r4 = tt.broadcast %r3 : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %c3 = tt.broadcast %c2 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %off = arith.addi %r4, %c3 : tensor<64x64xi32, #blocked>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #blocked>
    %ptrs = tt.addptr %base, %off : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<64x64xi32, #blocked>
    %mask = arith.cmpi slt, %off, %ns : tensor<64x64xi32, #blocked>
    %z = tle.insert_tile %t into %x[1] : tensor<32x32xf32, #blocked1> into tensor<64x64xf32, #blocked>
    tt.store %ptrs, %z, %mask cacheModifier = wt : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // Pointers that do not narrow (a function argument): shared memory, one
  // store, and nothing of the failed narrowing left behind.
  // CHECK-LABEL: tt.func @insert_store_opaque_ptrs(
  // CHECK: ttg.local_alloc
  // CHECK: ttg.memdesc_subslice %{{.*}}[32, 0]
  // CHECK: %[[Z:.*]] = ttg.local_load
  // CHECK-NEXT: tt.store %{{.*}}, %[[Z]] :
  // CHECK-NOT: tt.store
  tt.func @insert_store_opaque_ptrs(%ptrs: tensor<64x64x!tt.ptr<f32>, #blocked>, %x: tensor<64x64xf32, #blocked>, %t: tensor<32x32xf32, #blocked>) {
    %z = tle.insert_tile %t into %x[2] : tensor<32x32xf32, #blocked> into tensor<64x64xf32, #blocked>
    tt.store %ptrs, %z : tensor<64x64x!tt.ptr<f32>, #blocked>
    tt.return
  }

  // A mask that does not narrow (an argument), while the pointers do: no
  // part of the pointers' replay is left behind either.
  // CHECK-LABEL: tt.func @insert_store_opaque_mask(
  // CHECK-COUNT-1: tt.make_range
  // CHECK-NOT: tt.make_range
  // CHECK: ttg.local_alloc
  // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} :
  // CHECK-NOT: tt.store
  tt.func @insert_store_opaque_mask(%p: !tt.ptr<f32>, %mask: tensor<64xi1, #ttg.slice<{dim = 0, parent = #blocked}>>, %x: tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, %t: tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ptrs = tt.addptr %base, %i : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %z = tle.insert_tile %t into %x[1] : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> into tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %ptrs, %z, %mask : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return
  }

  // The inserted tensor has another user (it is returned): shared memory.
  // CHECK-LABEL: tt.func @insert_store_and_return(
  // CHECK: ttg.local_alloc
  // CHECK: %[[Z:.*]] = ttg.local_load
  // CHECK: tt.store %{{.*}}, %[[Z]] :
  // CHECK-NOT: tt.store
  // CHECK: tt.return %[[Z]]
  tt.func @insert_store_and_return(%p: !tt.ptr<f32>, %x: tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>, %t: tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>> {
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %base = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ptrs = tt.addptr %base, %i : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>, tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %z = tle.insert_tile %t into %x[0] : tensor<32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> into tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.store %ptrs, %z : tensor<64x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %z : tensor<64xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}
