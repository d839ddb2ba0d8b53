// RUN: tle-opt %s -split-input-file -triton-tle-fold-scatter-converts | FileCheck %s

// A compaction store: pointers (base + slot from an atomic) and mask come in
// #b4 through converts, the value (offsets) is rematerialized in #b1 from a
// splat and a make_range. The store takes #b4; the converts are gone and the
// offsets are rebuilt in #b4 from the same scalar.

// CHECK-DAG: #[[B4:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @compaction(
// CHECK-NOT: ttg.convert_layout
// CHECK: %[[S:.+]] = tt.splat %arg2 : i32 -> tensor<512xi32, #[[B4]]>
// CHECK: %[[R:.+]] = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #[[B4]]>
// CHECK: %[[O:.+]] = arith.addi %[[S]], %[[R]] : tensor<512xi32, #[[B4]]>
// CHECK: tt.store %[[P:.+]], %[[O]], %[[M:.+]] : tensor<512x!tt.ptr<i32>, #[[B4]]>
// CHECK-NOT: ttg.convert_layout
// CHECK: tt.return
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @compaction(%out: !tt.ptr<i32>, %slot: tensor<512xi32, #b4>, %start: i32, %keep: tensor<512xi1, #b4>) {
    %base = tt.splat %out : !tt.ptr<i32> -> tensor<512x!tt.ptr<i32>, #b4>
    %p = tt.addptr %base, %slot : tensor<512x!tt.ptr<i32>, #b4>, tensor<512xi32, #b4>
    %pc = ttg.convert_layout %p : tensor<512x!tt.ptr<i32>, #b4> -> tensor<512x!tt.ptr<i32>, #b1>
    %mc = ttg.convert_layout %keep : tensor<512xi1, #b4> -> tensor<512xi1, #b1>
    %s = tt.splat %start : i32 -> tensor<512xi32, #b1>
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b1>
    %o = arith.addi %s, %r : tensor<512xi32, #b1>
    tt.store %pc, %o, %mc : tensor<512x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// Shared-memory pointers and a splat constant value: the store takes #b4.
// A convert with another user stays for it.

// CHECK-DAG: #[[B1:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B4:.+]] = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: tt.func @shared_slots(
// CHECK: %[[MC:.+]] = ttg.convert_layout %arg2 : tensor<512xi1, #[[B4]]> -> tensor<512xi1, #[[B1]]>
// CHECK: %[[ONE:.+]] = arith.constant dense<1> : tensor<512xi32, #[[B4]]>
// CHECK: tt.store %{{.+}}, %[[ONE]], %arg2 : tensor<512x!tt.ptr<i32, 3>, #[[B4]]>
// CHECK: tt.store %arg3, %{{.+}}, %[[MC]] : tensor<512x!tt.ptr<i32>, #[[B1]]>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_slots(%buf: !tt.ptr<i32, 3>, %slot: tensor<512xi32, #b4>, %keep: tensor<512xi1, #b4>, %other: tensor<512x!tt.ptr<i32>, #b1>) {
    %base = tt.splat %buf : !tt.ptr<i32, 3> -> tensor<512x!tt.ptr<i32, 3>, #b4>
    %p = tt.addptr %base, %slot : tensor<512x!tt.ptr<i32, 3>, #b4>, tensor<512xi32, #b4>
    %pc = ttg.convert_layout %p : tensor<512x!tt.ptr<i32, 3>, #b4> -> tensor<512x!tt.ptr<i32, 3>, #b1>
    %mc = ttg.convert_layout %keep : tensor<512xi1, #b4> -> tensor<512xi1, #b1>
    %one = arith.constant dense<1> : tensor<512xi32, #b1>
    tt.store %pc, %one, %mc : tensor<512x!tt.ptr<i32, 3>, #b1>
    %two = arith.constant dense<2> : tensor<512xi32, #b1>
    tt.store %other, %two, %mc : tensor<512x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// Negative: the value is computed in #b1 from a load (not rematerializable),
// so the store would need a new convert: nothing changes.

// CHECK-LABEL: tt.func @needs_new_convert(
// CHECK: %[[PC:.+]] = ttg.convert_layout
// CHECK: tt.store %[[PC]], %{{.+}} : tensor<512x!tt.ptr<i32>, #{{.+}}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @needs_new_convert(%p: tensor<512x!tt.ptr<i32>, #b4>, %src: tensor<512x!tt.ptr<i32>, #b1>) {
    %v = tt.load %src : tensor<512x!tt.ptr<i32>, #b1>
    %pc = ttg.convert_layout %p : tensor<512x!tt.ptr<i32>, #b4> -> tensor<512x!tt.ptr<i32>, #b1>
    tt.store %pc, %v : tensor<512x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// Negative: the store is vectorized (sizePerThread 2): Coalesce found its
// pointers contiguous, so its layout stays.

// CHECK-LABEL: tt.func @vectorized(
// CHECK: %[[PC:.+]] = ttg.convert_layout
// CHECK: tt.store %[[PC]], %{{.+}} : tensor<512x!tt.ptr<i32>, #{{.+}}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @vectorized(%p: tensor<512x!tt.ptr<i32>, #b4>) {
    %pc = ttg.convert_layout %p : tensor<512x!tt.ptr<i32>, #b4> -> tensor<512x!tt.ptr<i32>, #b2>
    %v = arith.constant dense<3> : tensor<512xi32, #b2>
    tt.store %pc, %v : tensor<512x!tt.ptr<i32>, #b2>
    tt.return
  }
}

// -----

// Negative: converts from two different encodings; no single layout serves
// both without a new convert.

// CHECK-LABEL: tt.func @two_sources(
// CHECK-COUNT-2: ttg.convert_layout
// CHECK: tt.store
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_sources(%p: tensor<512x!tt.ptr<i32>, #b4>, %v: tensor<512xi32, #b2>) {
    %pc = ttg.convert_layout %p : tensor<512x!tt.ptr<i32>, #b4> -> tensor<512x!tt.ptr<i32>, #b1>
    %vc = ttg.convert_layout %v : tensor<512xi32, #b2> -> tensor<512xi32, #b1>
    tt.store %pc, %vc : tensor<512x!tt.ptr<i32>, #b1>
    tt.return
  }
}

// -----

// Negative: a store from a slice-layout source (not #ttg.blocked) is left
// alone, and so is a scalar store.

// CHECK-LABEL: tt.func @not_blocked(
// CHECK: ttg.convert_layout
// CHECK: tt.store %{{.+}}, %{{.+}} : tensor<64x!tt.ptr<i32>, #{{.+}}>
// CHECK: tt.store %arg1, %arg2 : !tt.ptr<i32>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_blocked(%p: tensor<64x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #b2d}>>, %q: !tt.ptr<i32>, %s: i32) {
    %v = arith.constant dense<5> : tensor<64xi32, #b1>
    %pc = ttg.convert_layout %p : tensor<64x!tt.ptr<i32>, #ttg.slice<{dim = 1, parent = #b2d}>> -> tensor<64x!tt.ptr<i32>, #b1>
    tt.store %pc, %v : tensor<64x!tt.ptr<i32>, #b1>
    tt.store %q, %s : !tt.ptr<i32>
    tt.return
  }
}
