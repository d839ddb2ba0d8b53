// RUN: tle-opt %s -split-input-file -triton-tle-select-encodings | FileCheck %s

// (a) A full-view load only converted to #b1: pointers and load are rebuilt
// in #b1 and the convert disappears.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @full_view_load(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]] : !ttg.memdesc<128x32xf32, #{{.+}}, #smem, mutable> -> tensor<128x32x!tt.ptr<f32, 3>, #[[B1]]>
// CHECK-NEXT: %[[V:.+]] = tt.load %[[P]] : tensor<128x32x!tt.ptr<f32, 3>, #[[B1]]>
// CHECK-NEXT: tt.store %arg0, %[[V]] : tensor<128x32x!tt.ptr<f32>, #[[B1]]>
// CHECK-NEXT: tt.return
#b0 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @full_view_load(%out: tensor<128x32x!tt.ptr<f32>, #b1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128x32xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<128x32xf32, #shared, #smem, mutable> -> tensor<128x32x!tt.ptr<f32, 3>, #b0>
    %v = tt.load %p : tensor<128x32x!tt.ptr<f32, 3>, #b0>
    %c = ttg.convert_layout %v : tensor<128x32xf32, #b0> -> tensor<128x32xf32, #b1>
    tt.store %out, %c : tensor<128x32x!tt.ptr<f32>, #b1>
    tt.return
  }
}

// -----

// (a) A full-view store of a converted value stores the unconverted value
// through pointers in its encoding; the pointers are rebuilt per access,
// the load through the same original view keeps #b0.

// CHECK-DAG: #[[B0:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @full_view_store(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]] : {{.+}} -> tensor<128x32x!tt.ptr<f32, 3>, #[[B0]]>
// CHECK-NEXT: %[[P1:.+]] = tle.local_pointers %[[BUF]] : {{.+}} -> tensor<128x32x!tt.ptr<f32, 3>, #[[B1]]>
// CHECK-NEXT: tt.store %[[P1]], %arg0 : tensor<128x32x!tt.ptr<f32, 3>, #[[B1]]>
// CHECK-NEXT: %[[V:.+]] = tt.load %[[P]] : tensor<128x32x!tt.ptr<f32, 3>, #[[B0]]>
// CHECK-NEXT: tt.store %arg1, %[[V]]
#b0 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @full_view_store(%x: tensor<128x32xf32, #b1>, %out: tensor<128x32x!tt.ptr<f32>, #b0>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128x32xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<128x32xf32, #shared, #smem, mutable> -> tensor<128x32x!tt.ptr<f32, 3>, #b0>
    %c = ttg.convert_layout %x : tensor<128x32xf32, #b1> -> tensor<128x32xf32, #b0>
    tt.store %p, %c : tensor<128x32x!tt.ptr<f32, 3>, #b0>
    %v = tt.load %p : tensor<128x32x!tt.ptr<f32, 3>, #b0>
    tt.store %out, %v : tensor<128x32x!tt.ptr<f32>, #b0>
    tt.return
  }
}

// -----

// Left alone: a load with a user that is not a convert, a load converted to
// two encodings, a masked load, a masked store.

// CHECK-LABEL: tt.func @full_view_left_alone(
// CHECK-COUNT-5: ttg.convert_layout
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @full_view_left_alone(%o0: tensor<512x!tt.ptr<f32>, #b0>, %o1: tensor<512x!tt.ptr<f32>, #b1>, %o2: tensor<512x!tt.ptr<f32>, #b2>, %m: tensor<512xi1, #b0>, %x: tensor<512xf32, #b1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512x!tt.ptr<f32, 3>, #b0>
    %v = tt.load %p : tensor<512x!tt.ptr<f32, 3>, #b0>
    tt.store %o0, %v : tensor<512x!tt.ptr<f32>, #b0>
    %v1 = ttg.convert_layout %v : tensor<512xf32, #b0> -> tensor<512xf32, #b1>
    tt.store %o1, %v1 : tensor<512x!tt.ptr<f32>, #b1>
    %w = tt.load %p : tensor<512x!tt.ptr<f32, 3>, #b0>
    %w1 = ttg.convert_layout %w : tensor<512xf32, #b0> -> tensor<512xf32, #b1>
    %w2 = ttg.convert_layout %w : tensor<512xf32, #b0> -> tensor<512xf32, #b2>
    tt.store %o1, %w1 : tensor<512x!tt.ptr<f32>, #b1>
    tt.store %o2, %w2 : tensor<512x!tt.ptr<f32>, #b2>
    %u = tt.load %p, %m : tensor<512x!tt.ptr<f32, 3>, #b0>
    %u1 = ttg.convert_layout %u : tensor<512xf32, #b0> -> tensor<512xf32, #b1>
    tt.store %o1, %u1 : tensor<512x!tt.ptr<f32>, #b1>
    %xc = ttg.convert_layout %x : tensor<512xf32, #b1> -> tensor<512xf32, #b0>
    tt.store %p, %xc, %m : tensor<512x!tt.ptr<f32, 3>, #b0>
    tt.return
  }
}

// -----

// (b) Rank 1: one index convert replaces one result convert (no increase),
// so the convert moves onto the index.

// CHECK-DAG: #[[B0:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @indexed_rank1(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[I:.+]] = ttg.convert_layout %arg0 : tensor<512xi32, #[[B0]]> -> tensor<512xi32, #[[B1]]>
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]][%[[I]]] : {{.+}}, tensor<512xi32, #[[B1]]> -> tensor<512x!tt.ptr<f32, 3>, #[[B1]]>
// CHECK-NEXT: %[[V:.+]] = tt.load %[[P]] : tensor<512x!tt.ptr<f32, 3>, #[[B1]]>
// CHECK-NEXT: tt.store %arg1, %[[V]]
// CHECK-NEXT: tt.return
#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indexed_rank1(%idx: tensor<512xi32, #b0>, %out: tensor<512x!tt.ptr<f32>, #b1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<512xf32, #shared, #smem, mutable>, tensor<512xi32, #b0> -> tensor<512x!tt.ptr<f32, 3>, #b0>
    %v = tt.load %p : tensor<512x!tt.ptr<f32, 3>, #b0>
    %c = ttg.convert_layout %v : tensor<512xf32, #b0> -> tensor<512xf32, #b1>
    tt.store %out, %c : tensor<512x!tt.ptr<f32>, #b1>
    tt.return
  }
}

// -----

// (b) Rank 2: the row index is a convert from #b1 (free: its source is
// used and the old convert dies), the column index a splat (free: re-splat
// in #b1). Two result converts go, none come.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @indexed_rank2_free(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[C:.+]] = tt.splat %arg1 : i32 -> tensor<64x32xi32, #[[B1]]>
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]][%arg0, %[[C]]] : {{.+}} -> tensor<64x32x!tt.ptr<f16, 3>, #[[B1]]>
// CHECK-NEXT: %[[V:.+]] = tt.load %[[P]] : tensor<64x32x!tt.ptr<f16, 3>, #[[B1]]>
// CHECK-NEXT: tt.store %arg2, %[[V]]
// CHECK-NEXT: tt.store %arg2, %[[V]]
// CHECK-NEXT: tt.return
#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indexed_rank2_free(%rows: tensor<64x32xi32, #b1>, %col: i32, %out: tensor<64x32x!tt.ptr<f16>, #b1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %r = ttg.convert_layout %rows : tensor<64x32xi32, #b1> -> tensor<64x32xi32, #b0>
    %c = tt.splat %col : i32 -> tensor<64x32xi32, #b0>
    %p = tle.local_pointers %buf[%r, %c] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, tensor<64x32xi32, #b0>, tensor<64x32xi32, #b0> -> tensor<64x32x!tt.ptr<f16, 3>, #b0>
    %v = tt.load %p : tensor<64x32x!tt.ptr<f16, 3>, #b0>
    %x = ttg.convert_layout %v : tensor<64x32xf16, #b0> -> tensor<64x32xf16, #b1>
    %y = ttg.convert_layout %v : tensor<64x32xf16, #b0> -> tensor<64x32xf16, #b1>
    tt.store %out, %x : tensor<64x32x!tt.ptr<f16>, #b1>
    tt.store %out, %y : tensor<64x32x!tt.ptr<f16>, #b1>
    tt.return
  }
}

// -----

// (b) Rank 2 with two indices that would each need a convert: 2 > 1, left
// alone.

// CHECK-LABEL: tt.func @indexed_rank2_costly(
// CHECK: tle.local_pointers %{{.+}}[%arg0, %arg1]
// CHECK-NEXT: tt.load
// CHECK-NEXT: ttg.convert_layout
// CHECK-NOT: ttg.convert_layout
#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @indexed_rank2_costly(%r: tensor<64x32xi32, #b0>, %c: tensor<64x32xi32, #b0>, %out: tensor<64x32x!tt.ptr<f16>, #b1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%r, %c] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, tensor<64x32xi32, #b0>, tensor<64x32xi32, #b0> -> tensor<64x32x!tt.ptr<f16, 3>, #b0>
    %v = tt.load %p : tensor<64x32x!tt.ptr<f16, 3>, #b0>
    %x = ttg.convert_layout %v : tensor<64x32xf16, #b0> -> tensor<64x32xf16, #b1>
    tt.store %out, %x : tensor<64x32x!tt.ptr<f16>, #b1>
    tt.return
  }
}

// -----

// (a) on memdesc accesses: tle.local_load only converted loads in the
// target encoding; tle.local_store of a convert stores its source.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @memdesc_accesses(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: tle.local_store %arg0, %[[BUF]] : tensor<64x32xf32, #[[B1]]>
// CHECK-NEXT: %[[V:.+]] = tle.local_load %[[BUF]] : {{.+}} -> tensor<64x32xf32, #[[B1]]>
// CHECK-NEXT: tt.store %arg1, %[[V]]
// CHECK-NEXT: tt.return
#b0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @memdesc_accesses(%x: tensor<64x32xf32, #b1>, %out: tensor<64x32x!tt.ptr<f32>, #b1>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %c = ttg.convert_layout %x : tensor<64x32xf32, #b1> -> tensor<64x32xf32, #b0>
    tle.local_store %c, %buf : tensor<64x32xf32, #b0> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %v = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32, #b0>
    %w = ttg.convert_layout %v : tensor<64x32xf32, #b0> -> tensor<64x32xf32, #b1>
    tt.store %out, %w : tensor<64x32x!tt.ptr<f32>, #b1>
    tt.return
  }
}
