// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-loads -triton-tle-optimize-local-pointer-stores | FileCheck %s
// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-loads | FileCheck %s --check-prefix=LOADS

// Local pointers whose indices address a rectangle of the buffer (row and
// column ranges with constant starts, broadcast: FlagTree's
// `local_ptr(buf, (rows, cols))`) are accessed whole as a
// ttg.memdesc_subslice of it when no pointer into the buffer is left: a
// plain load becomes tle.local_load of the block, a store tle.local_store,
// a masked one a read-modify-write of the block. The loads pass converts
// the loads already (the stores that keep the buffer's pointers go in the
// stores pass after it).

// CHECK-LABEL: tt.func @halves(
// CHECK: %[[BUF:.+]] = tle.alloc smem
// CHECK-NOT: tle.local_pointers
// CHECK: %[[LO:.+]] = ttg.memdesc_subslice %[[BUF]][0, 0] : !ttg.memdesc<64x128xf16, #{{.+}}, #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable, 64x128>
// CHECK-NEXT: tle.local_store %arg0, %[[LO]]
// CHECK: %[[HI:.+]] = ttg.memdesc_subslice %[[BUF]][0, 64] : !ttg.memdesc<64x128xf16, #{{.+}}, #smem, mutable> -> !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable, 64x128>
// CHECK-NEXT: %[[OLD:.+]] = tle.local_load %[[HI]]
// CHECK-NEXT: %[[NEW:.+]] = arith.select %arg1, %arg0, %[[OLD]]
// CHECK-NEXT: tle.local_store %[[NEW]], %[[HI]]
// CHECK: %[[HI2:.+]] = ttg.memdesc_subslice %[[BUF]][0, 64]
// CHECK-NEXT: %[[V:.+]] = tle.local_load %[[HI2]] : !ttg.memdesc<64x64xf16, #{{.+}}, #smem, mutable, 64x128> -> tensor<64x64xf16, #{{.+}}>
// CHECK-NEXT: tt.return %[[V]]
// LOADS-LABEL: tt.func @halves(
// LOADS: tle.local_pointers
// LOADS: tt.store
// LOADS: tle.local_pointers
// LOADS: tt.store
// LOADS: %[[HI2:.+]] = ttg.memdesc_subslice %{{.+}}[0, 64]
// LOADS-NEXT: tle.local_load %[[HI2]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @halves(%v: tensor<64x64xf16, #blocked>, %m: tensor<64x64xi1, #blocked>) -> tensor<64x64xf16, #blocked> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c64 = arith.constant dense<64> : tensor<64x64xi32, #blocked>
    %cols_hi = arith.addi %cols, %c64 : tensor<64x64xi32, #blocked>
    %lo = tle.local_pointers %buf[%rows, %cols] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %lo, %v : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %hi = tle.local_pointers %buf[%rows, %cols_hi] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %hi, %v, %m : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %hi2 = tle.local_pointers %buf[%rows, %cols_hi] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %x = tt.load %hi2 : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.return %x : tensor<64x64xf16, #blocked>
  }
}

// -----

// A 1-D range starting inside the buffer (elements 64 ... 127), its start a
// splatted constant added to a range; a row of a 2-D buffer picked by a
// constant index tensor along a dimension of size 1.

// CHECK-LABEL: tt.func @offsets(
// CHECK: %[[V:.+]] = ttg.memdesc_subslice %{{.+}}[64] : !ttg.memdesc<128xf32, #{{.+}}, #smem, mutable> -> !ttg.memdesc<64xf32, #{{.+}}, #smem, mutable, 128>
// CHECK-NEXT: tle.local_store %arg0, %[[V]]
// CHECK: %[[R:.+]] = ttg.memdesc_subslice %{{.+}}[1, 0] : !ttg.memdesc<2x64xf32, #{{.+}}, #smem, mutable> -> !ttg.memdesc<1x64xf32, #{{.+}}, #smem, mutable, 2x64>
// CHECK-NEXT: tle.local_load %[[R]]
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @offsets(%v: tensor<64xf32, #blocked>) -> tensor<1x64xf32, #blocked2> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %c64 = arith.constant 64 : i32
    %s = tt.splat %c64 : i32 -> tensor<64xi32, #blocked>
    %i = arith.addi %s, %r : tensor<64xi32, #blocked>
    %p = tle.local_pointers %buf[%i] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #blocked> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v : tensor<64x!tt.ptr<f32, 3>, #blocked>
    %buf2 = tle.alloc smem : () -> !ttg.memdesc<2x64xf32, #shared2, #smem, mutable>
    %one = arith.constant dense<1> : tensor<1x64xi32, #blocked2>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked2}>> -> tensor<1x64xi32, #blocked2>
    %q = tle.local_pointers %buf2[%one, %ce] : !ttg.memdesc<2x64xf32, #shared2, #smem, mutable>, tensor<1x64xi32, #blocked2>, tensor<1x64xi32, #blocked2> -> tensor<1x64x!tt.ptr<f32, 3>, #blocked2>
    %x = tt.load %q : tensor<1x64x!tt.ptr<f32, 3>, #blocked2>
    tt.return %x : tensor<1x64xf32, #blocked2>
  }
}

// -----

// Not rectangles, left as pointers: columns with a stride of 2, a block
// running past the buffer's end (columns 96 ... 159 of 128), the indices
// swapped (a transposed block). A buffer with one such access keeps all its
// pointers, its rectangles included.

// CHECK-LABEL: tt.func @not_rectangles(
// CHECK-NOT: ttg.memdesc_subslice
// CHECK-NOT: tle.local_load
// CHECK-NOT: tle.local_store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_rectangles(%v: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked> {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c2 = arith.constant dense<2> : tensor<64x64xi32, #blocked>
    %c96 = arith.constant dense<96> : tensor<64x64xi32, #blocked>
    %strided = arith.muli %cols, %c2 : tensor<64x64xi32, #blocked>
    %past = arith.addi %cols, %c96 : tensor<64x64xi32, #blocked>
    %a = tle.alloc smem : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %pa = tle.local_pointers %a[%rows, %strided] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %pa, %v : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %pa2 = tle.local_pointers %a[%rows, %cols] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %x = tt.load %pa2 : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %b = tle.alloc smem : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %pb = tle.local_pointers %b[%rows, %past] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %pb, %v : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %t = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %pt = tle.local_pointers %t[%cols, %rows] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %pt, %v : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.return %x : tensor<64x64xf16, #blocked>
  }
}

// -----

// Rectangles Triton cannot view as a ttg.memdesc_subslice stay pointer
// accesses: a block whose start is not a multiple of its size (columns
// 1 ... 64, FlagTree's axis gather; elements 32 ... 95 of 128), a block of
// rows that cuts through the buffer's swizzle (4 rows where 8 share one
// swizzle period), a block of 48 columns (not a power of two).

// CHECK-LABEL: tt.func @not_subslices(
// CHECK-NOT: ttg.memdesc_subslice
// CHECK-NOT: tle.local_load
// CHECK-NOT: tle.local_store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_subslices(%v: tensor<64x64xf16, #blocked>, %w: tensor<64xf32, #blocked1>, %u: tensor<4x64xf16, #blocked>, %z: tensor<64x48xf16, #blocked>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %rows = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x64xi32, #blocked>
    %cols = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %c1 = arith.constant dense<1> : tensor<64x64xi32, #blocked>
    %cols1 = arith.addi %cols, %c1 : tensor<64x64xi32, #blocked>
    %a = tle.alloc smem : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %pa = tle.local_pointers %a[%rows, %cols1] : !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %pa, %v : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %b = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared1, #smem, mutable>
    %i = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked1>
    %c32 = arith.constant dense<32> : tensor<64xi32, #blocked1>
    %i32 = arith.addi %i, %c32 : tensor<64xi32, #blocked1>
    %pb = tle.local_pointers %b[%i32] : !ttg.memdesc<128xf32, #shared1, #smem, mutable>, tensor<64xi32, #blocked1> -> tensor<64x!tt.ptr<f32, 3>, #blocked1>
    tt.store %pb, %w : tensor<64x!tt.ptr<f32, 3>, #blocked1>
    %r4 = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r4e = tt.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<4x1xi32, #blocked>
    %rows4 = tt.broadcast %r4e : tensor<4x1xi32, #blocked> -> tensor<4x64xi32, #blocked>
    %cols4 = tt.broadcast %ce : tensor<1x64xi32, #blocked> -> tensor<4x64xi32, #blocked>
    %s = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #swz, #smem, mutable>
    %ps = tle.local_pointers %s[%rows4, %cols4] : !ttg.memdesc<64x64xf16, #swz, #smem, mutable>, tensor<4x64xi32, #blocked>, tensor<4x64xi32, #blocked> -> tensor<4x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %ps, %u : tensor<4x64x!tt.ptr<f16, 3>, #blocked>
    %c48 = tt.make_range {end = 48 : i32, start = 0 : i32} : tensor<48xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c48e = tt.expand_dims %c48 {axis = 0 : i32} : tensor<48xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x48xi32, #blocked>
    %cols48 = tt.broadcast %c48e : tensor<1x48xi32, #blocked> -> tensor<64x48xi32, #blocked>
    %rows48 = tt.broadcast %re : tensor<64x1xi32, #blocked> -> tensor<64x48xi32, #blocked>
    %n = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %pn = tle.local_pointers %n[%rows48, %cols48] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, tensor<64x48xi32, #blocked>, tensor<64x48xi32, #blocked> -> tensor<64x48x!tt.ptr<f16, 3>, #blocked>
    tt.store %pn, %z : tensor<64x48x!tt.ptr<f16, 3>, #blocked>
    tt.return
  }
}

// -----

// A rectangle of a buffer that a masked load also reads stays a pointer
// access (the masked load keeps the buffer's pointers).

// CHECK-LABEL: tt.func @masked_load_keeps(
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tt.store
// CHECK: tt.load
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked_load_keeps(%v: tensor<64xf32, #blocked>, %m: tensor<128xi1, #blocked>) -> tensor<128xf32, #blocked> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %p = tle.local_pointers %buf[%r] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #blocked> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v : tensor<64x!tt.ptr<f32, 3>, #blocked>
    %all = tle.local_pointers %buf : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    %x = tt.load %all, %m : tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.return %x : tensor<128xf32, #blocked>
  }
}

// -----

// An index whose arithmetic leaves 64 bits (two i64 constants near 2^39
// multiplied: the product is checked, not computed with overflow) is no
// rectangle; the store stays a pointer store.

// CHECK-LABEL: tt.func @huge_product(
// CHECK-NOT: ttg.memdesc_subslice
// CHECK: tle.local_pointers
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @huge_product(%v: tensor<64xf32, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %k = arith.constant dense<549755813887> : tensor<64xi64, #blocked>
    %b = arith.muli %k, %k : tensor<64xi64, #blocked>
    %p = tle.local_pointers %buf[%b] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi64, #blocked> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v : tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.return
  }
}
