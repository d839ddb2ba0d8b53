// RUN: tle-opt %s -split-input-file -triton-tle-select-encodings | FileCheck %s

// (d) Indexed local-pointer accesses in the layout Triton's Coalesce gave
// them (it sees the pointers as opaque: contiguity 1, column-major #col)
// take the layout of the value they store / the one their result is
// converted to (#row, the row-major layout of the global accesses), when
// every index can be recomputed in it from constants, splats and
// make_range: no convert is left, and the store can vectorize.

// The column-major layout is gone from the module.
// CHECK: #[[ROW:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NOT: order = [0, 1]
// CHECK-LABEL: tt.func @store_2d(
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.make_range {{.+}} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #[[ROW]]}>>
// CHECK: tt.expand_dims {{.+}} -> tensor<16x1xi32, #[[ROW]]>
// CHECK: %[[P:.+]] = tle.local_pointers %{{.+}}[%{{.+}}, %{{.+}}] : {{.+}}, tensor<16x64xi32, #[[ROW]]>, tensor<16x64xi32, #[[ROW]]> -> tensor<16x64x!tt.ptr<f32, 3>, #[[ROW]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.store %[[P]], %arg0 : tensor<16x64x!tt.ptr<f32, 3>, #[[ROW]]>
// CHECK: tt.return
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_2d(%x: tensor<16x64xf32, #row>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<16x64xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<16x1xi32, #col>
    %rb = tt.broadcast %re : tensor<16x1xi32, #col> -> tensor<16x64xi32, #col>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x64xi32, #col>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #col> -> tensor<16x64xi32, #col>
    %p = tle.local_pointers %buf[%rb, %cb] : !ttg.memdesc<16x64xf32, #shared, #smem, mutable>, tensor<16x64xi32, #col>, tensor<16x64xi32, #col> -> tensor<16x64x!tt.ptr<f32, 3>, #col>
    %v = ttg.convert_layout %x : tensor<16x64xf32, #row> -> tensor<16x64xf32, #col>
    tt.store %p, %v : tensor<16x64x!tt.ptr<f32, 3>, #col>
    tt.return
  }
}

// -----

// The load: both indices recomputed in #row (before: 2 index converts for
// 1 result convert, left alone), arithmetic on the way included.

// CHECK: #[[ROW:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NOT: order = [0, 1]
// CHECK-LABEL: tt.func @load_2d(
// CHECK-NOT: ttg.convert_layout
// CHECK: arith.remsi {{.+}} : tensor<1x64xi32, #[[ROW]]>
// CHECK: %[[P:.+]] = tle.local_pointers {{.+}} -> tensor<16x64x!tt.ptr<f32, 3>, #[[ROW]]>
// CHECK-NEXT: %[[V:.+]] = tt.load %[[P]] : tensor<16x64x!tt.ptr<f32, 3>, #[[ROW]]>
// CHECK-NEXT: tt.store %arg0, %[[V]] : tensor<16x64x!tt.ptr<f32>, #[[ROW]]>
// CHECK-NOT: ttg.convert_layout
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_2d(%out: tensor<16x64x!tt.ptr<f32>, #row>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<16x64xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<16x1xi32, #col>
    %rb = tt.broadcast %re : tensor<16x1xi32, #col> -> tensor<16x64xi32, #col>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x64xi32, #col>
    %one = arith.constant dense<1> : tensor<1x64xi32, #col>
    %n = arith.constant dense<64> : tensor<1x64xi32, #col>
    %c1 = arith.addi %ce, %one : tensor<1x64xi32, #col>
    %cm = arith.remsi %c1, %n : tensor<1x64xi32, #col>
    %cb = tt.broadcast %cm : tensor<1x64xi32, #col> -> tensor<16x64xi32, #col>
    %p = tle.local_pointers %buf[%rb, %cb] : !ttg.memdesc<16x64xf32, #shared, #smem, mutable>, tensor<16x64xi32, #col>, tensor<16x64xi32, #col> -> tensor<16x64x!tt.ptr<f32, 3>, #col>
    %v = tt.load %p : tensor<16x64x!tt.ptr<f32, 3>, #col>
    %w = ttg.convert_layout %v : tensor<16x64xf32, #col> -> tensor<16x64xf32, #row>
    tt.store %out, %w : tensor<16x64x!tt.ptr<f32>, #row>
    tt.return
  }
}

// -----

// A masked store: the mask (a compare of the column index) is recomputed
// too.

// CHECK: #[[ROW:.+]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NOT: order = [0, 1]
// CHECK-LABEL: tt.func @masked_store(
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[M:.+]] = arith.cmpi slt, {{.+}} : tensor<16x64xi32, #[[ROW]]>
// CHECK: tt.store %{{.+}}, %arg0, %[[M]] : tensor<16x64x!tt.ptr<f32, 3>, #[[ROW]]>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked_store(%x: tensor<16x64xf32, #row>, %lim: i32) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<16x64xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<16x1xi32, #col>
    %rb = tt.broadcast %re : tensor<16x1xi32, #col> -> tensor<16x64xi32, #col>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x64xi32, #col>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #col> -> tensor<16x64xi32, #col>
    %ls = tt.splat %lim : i32 -> tensor<16x64xi32, #col>
    %m = arith.cmpi slt, %cb, %ls : tensor<16x64xi32, #col>
    %p = tle.local_pointers %buf[%rb, %cb] : !ttg.memdesc<16x64xf32, #shared, #smem, mutable>, tensor<16x64xi32, #col>, tensor<16x64xi32, #col> -> tensor<16x64x!tt.ptr<f32, 3>, #col>
    %v = ttg.convert_layout %x : tensor<16x64xf32, #row> -> tensor<16x64xf32, #col>
    tt.store %p, %v, %m : tensor<16x64x!tt.ptr<f32, 3>, #col>
    tt.return
  }
}

// -----

// Left alone: an index that is a function argument (it cannot be
// recomputed), a stored value that is not a convert, and a value in an
// mma layout (not a blocked or linear one).

// CHECK-DAG: #[[COL:.+]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @left_alone(
// CHECK: ttg.convert_layout %arg0 : {{.+}} -> tensor<16x64xf32, #[[COL]]>
// CHECK-NEXT: tt.store {{.+}} : tensor<16x64x!tt.ptr<f32, 3>, #[[COL]]>
// CHECK: tt.store %{{.+}}, %arg3 : tensor<16x64x!tt.ptr<f32, 3>, #[[COL]]>
// CHECK: ttg.convert_layout %arg4 : {{.+}} -> tensor<16x64xf32, #[[COL]]>
// CHECK-NEXT: tt.store {{.+}} : tensor<16x64x!tt.ptr<f32, 3>, #[[COL]]>
// CHECK: tt.return
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%x: tensor<16x64xf32, #row>, %ri: tensor<16x64xi32, #col>, %ci: tensor<16x64xi32, #col>, %y: tensor<16x64xf32, #col>, %z: tensor<16x64xf32, #mma>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<16x64xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%ri, %ci] : !ttg.memdesc<16x64xf32, #shared, #smem, mutable>, tensor<16x64xi32, #col>, tensor<16x64xi32, #col> -> tensor<16x64x!tt.ptr<f32, 3>, #col>
    %v = ttg.convert_layout %x : tensor<16x64xf32, #row> -> tensor<16x64xf32, #col>
    tt.store %p, %v : tensor<16x64x!tt.ptr<f32, 3>, #col>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<16x1xi32, #col>
    %rb = tt.broadcast %re : tensor<16x1xi32, #col> -> tensor<16x64xi32, #col>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x64xi32, #col>
    %cb = tt.broadcast %ce : tensor<1x64xi32, #col> -> tensor<16x64xi32, #col>
    %q = tle.local_pointers %buf[%rb, %cb] : !ttg.memdesc<16x64xf32, #shared, #smem, mutable>, tensor<16x64xi32, #col>, tensor<16x64xi32, #col> -> tensor<16x64x!tt.ptr<f32, 3>, #col>
    tt.store %q, %y : tensor<16x64x!tt.ptr<f32, 3>, #col>
    %w = ttg.convert_layout %z : tensor<16x64xf32, #mma> -> tensor<16x64xf32, #col>
    tt.store %q, %w : tensor<16x64x!tt.ptr<f32, 3>, #col>
    tt.return
  }
}
