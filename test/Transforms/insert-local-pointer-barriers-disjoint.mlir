// RUN: tle-opt %s -split-input-file -triton-tle-insert-local-pointer-barriers | FileCheck %s

// Accesses to one pointer buffer whose element sets are provably disjoint
// (IndexSets.h: constant index tensors, plus the same uniform,
// loop-invariant scalars) need no barrier between them; everything else
// keeps its barrier.

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // base + arange and base + arange + 64 (K = 64 >= the 64 elements): the
  // two stores need nothing between them; the load of both halves (RAW)
  // needs one barrier.
  // CHECK-LABEL: tt.func @halves(
  // CHECK: tt.store %{{.+}}, %arg0 :
  // CHECK-NEXT: tt.store %{{.+}}, %arg0 :
  // CHECK-NOT: gpu.barrier
  // CHECK: tle.local_pointers
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @halves(%x: tensor<64xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    %r1 = arith.addi %r, %k : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%r] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%r1] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    %all = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %pa = tle.local_pointers %buf[%all] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %pa : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // K = 32 < 64 elements: the ranges overlap, the barrier stays.
  // CHECK-LABEL: tt.func @overlap(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @overlap(%x: tensor<64xf32, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<32> : tensor<64xi32, #b>
    %r1 = arith.addi %r, %k : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%r] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%r1] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  // Even / odd interleaving (2i, 2i + 1) with FFT's bank padding
  // p + (p >> 5): disjoint stores. Reading the odd elements after the even
  // store is no conflict either (nobody wrote them since), but after the odd
  // store it is (RAW); the odd store after the odd load is a WAR.
  // CHECK-LABEL: tt.func @even_odd_padded(
  // CHECK: tt.store %[[PE:[^,]+]], %arg0 :
  // CHECK-NEXT: tt.load %[[PO:[^ ]+]] :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store %[[PO]], %arg0 :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load %[[PO]] :
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @even_odd_padded(%x: tensor<64xf32, #b>) -> tensor<64xf32, #b> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<132xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %c1 = arith.constant dense<1> : tensor<64xi32, #b>
    %c5 = arith.constant dense<5> : tensor<64xi32, #b>
    %e = arith.shli %r, %c1 : tensor<64xi32, #b>
    %o = arith.addi %e, %c1 : tensor<64xi32, #b>
    %es = arith.shrsi %e, %c5 : tensor<64xi32, #b>
    %ep = arith.addi %e, %es : tensor<64xi32, #b>
    %os = arith.shrsi %o, %c5 : tensor<64xi32, #b>
    %op = arith.addi %o, %os : tensor<64xi32, #b>
    %pe = tle.local_pointers %buf[%ep] : !ttg.memdesc<132xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %po = tle.local_pointers %buf[%op] : !ttg.memdesc<132xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %pe, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    %v0 = tt.load %po : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %po, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    %v1 = tt.load %po : tensor<64x!tt.ptr<f32, 3>, #b>
    %s = arith.addf %v0, %v1 : tensor<64xf32, #b>
    tt.return %s : tensor<64xf32, #b>
  }

  // A uniform base (the program id times 128) on both sides: disjoint.
  // CHECK-LABEL: tt.func @uniform_base(
  // CHECK: tt.store
  // CHECK-NEXT: tt.store
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @uniform_base(%x: tensor<64xf32, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    %pid = tt.get_program_id x : i32
    %c128 = arith.constant 128 : i32
    %base = arith.muli %pid, %c128 : i32
    %bs = tt.splat %base : i32 -> tensor<64xi32, #b>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    %i0 = arith.addi %bs, %r : tensor<64xi32, #b>
    %i1 = arith.addi %i0, %k : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%i0] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%i1] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  // Two different scalars as bases (%a + r and %b + r + 64 may meet):
  // the barrier stays.
  // CHECK-LABEL: tt.func @different_bases(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @different_bases(%x: tensor<64xf32, #b>, %a: i32, %bb: i32) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    %as = tt.splat %a : i32 -> tensor<64xi32, #b>
    %bs = tt.splat %bb : i32 -> tensor<64xi32, #b>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    %i0 = arith.addi %as, %r : tensor<64xi32, #b>
    %i1b = arith.addi %bs, %r : tensor<64xi32, #b>
    %i1 = arith.addi %i1b, %k : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%i0] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%i1] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  // A scalar times a non-uniform tensor is not a uniform offset: barrier.
  // CHECK-LABEL: tt.func @scaled_range(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @scaled_range(%x: tensor<64xf32, #b>, %a: i32) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    %as = tt.splat %a : i32 -> tensor<64xi32, #b>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<512> : tensor<64xi32, #b>
    %i0 = arith.muli %as, %r : tensor<64xi32, #b>
    %i1 = arith.addi %i0, %k : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%i0] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%i1] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  // Indices modulo 2^32: 0..63 and 2^32 + 0..63 (i64) are the same i32
  // offsets after the lowering's truncation: the barrier stays.
  // CHECK-LABEL: tt.func @wrapped_i64(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @wrapped_i64(%x: tensor<64xf32, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %r64 = arith.extsi %r : tensor<64xi32, #b> to tensor<64xi64, #b>
    %k = arith.constant dense<4294967296> : tensor<64xi64, #b>
    %i1 = arith.addi %r64, %k : tensor<64xi64, #b>
    %p0 = tle.local_pointers %buf[%r64] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi64, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%i1] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi64, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  // 2-D: rows 0-1 and rows 2-3 of a 4x32 buffer, (row, column) indices
  // built with expand_dims / broadcast: disjoint. Then a store of column 0
  // of every row (a 1-D index tensor, row * 32) overlaps both: barrier.
  // CHECK-LABEL: tt.func @rows_2d(
  // CHECK: tt.store
  // CHECK-NEXT: tt.store
  // CHECK-NOT: gpu.barrier
  // CHECK: tle.local_pointers
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @rows_2d(%x: tensor<2x32xf32, #b2>, %y: tensor<4xf32, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<4x32xf32, #shared2, #smem, mutable>
    %rr = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #b2}>>
    %cc = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b2}>>
    %re = tt.expand_dims %rr {axis = 1 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #b2}>> -> tensor<2x1xi32, #b2>
    %ce = tt.expand_dims %cc {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #b2}>> -> tensor<1x32xi32, #b2>
    %r0 = tt.broadcast %re : tensor<2x1xi32, #b2> -> tensor<2x32xi32, #b2>
    %c = tt.broadcast %ce : tensor<1x32xi32, #b2> -> tensor<2x32xi32, #b2>
    %two = arith.constant dense<2> : tensor<2x32xi32, #b2>
    %r1 = arith.addi %r0, %two : tensor<2x32xi32, #b2>
    %p0 = tle.local_pointers %buf[%r0, %c] : !ttg.memdesc<4x32xf32, #shared2, #smem, mutable>, tensor<2x32xi32, #b2>, tensor<2x32xi32, #b2> -> tensor<2x32x!tt.ptr<f32, 3>, #b2>
    %p1 = tle.local_pointers %buf[%r1, %c] : !ttg.memdesc<4x32xf32, #shared2, #smem, mutable>, tensor<2x32xi32, #b2>, tensor<2x32xi32, #b2> -> tensor<2x32x!tt.ptr<f32, 3>, #b2>
    tt.store %p0, %x : tensor<2x32x!tt.ptr<f32, 3>, #b2>
    tt.store %p1, %x : tensor<2x32x!tt.ptr<f32, 3>, #b2>
    %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #b>
    %zero = arith.constant dense<0> : tensor<4xi32, #b>
    %pc = tle.local_pointers %buf[%rows, %zero] : !ttg.memdesc<4x32xf32, #shared2, #smem, mutable>, tensor<4xi32, #b>, tensor<4xi32, #b> -> tensor<4x!tt.ptr<f32, 3>, #b>
    tt.store %pc, %y : tensor<4x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  // In a loop: the two halves need nothing between them in one iteration,
  // but the first half's store after the second iteration's start meets
  // its own previous store (WAW across the back edge): one barrier, at
  // the end of the body.
  // CHECK-LABEL: tt.func @loop_halves(
  // CHECK: scf.for
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: }
  tt.func @loop_halves(%x: tensor<64xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    %r1 = arith.addi %r, %k : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%r] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tle.local_pointers %buf[%r1] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
      tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }

  // A base that changes every iteration (the induction variable): in one
  // iteration iv*64 + r and iv*64 + r + 64 are disjoint (the same term
  // iv*64), so the two stores need no barrier between them; the next
  // iteration's first store meets this one's second, and across the back
  // edge a footprint with a term defined in the loop is any element: one
  // barrier at the end of the body.
  // CHECK-LABEL: tt.func @loop_variant_base(
  // CHECK: scf.for
  // CHECK: tt.store
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: }
  tt.func @loop_variant_base(%x: tensor<64xf32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %base = arith.muli %i, %c64 : i32
      %bs = tt.splat %base : i32 -> tensor<64xi32, #b>
      %i0 = arith.addi %bs, %r : tensor<64xi32, #b>
      %i1 = arith.addi %i0, %k : tensor<64xi32, #b>
      %p0 = tle.local_pointers %buf[%i0] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
      %p1 = tle.local_pointers %buf[%i1] : !ttg.memdesc<1024xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
      tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
      tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }

  // Scalar indices (one element each, splatted to a tensor of pointers):
  // elements 0 and 1 are disjoint, a second write of element 0 is not.
  // A load of the other half (WAR with nothing) needs no barrier either.
  // CHECK-LABEL: tt.func @scalar_slots(
  // CHECK: tt.store
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @scalar_slots(%x: i32, %t: tensor<64xi32, #b>) -> tensor<64xi32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %s0 = tle.local_pointers %buf[%c0] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, i32 -> !tt.ptr<i32, 3>
    %s1 = tle.local_pointers %buf[%c1] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, i32 -> !tt.ptr<i32, 3>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    %hi = arith.addi %r, %k : tensor<64xi32, #b>
    %ph = tle.local_pointers %buf[%hi] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
    tt.store %s0, %x : !tt.ptr<i32, 3>
    tt.store %s1, %x : !tt.ptr<i32, 3>
    %v = tt.load %ph : tensor<64x!tt.ptr<i32, 3>, #b>
    tt.store %s0, %x : !tt.ptr<i32, 3>
    tt.return %v : tensor<64xi32, #b>
  }

  // Pointers moved by tt.addptr are not traced (the sum of two
  // sign-extended offsets is not an i32 offset): the barrier stays.
  // CHECK-LABEL: tt.func @addptr_not_traced(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @addptr_not_traced(%x: tensor<64xf32, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %k = arith.constant dense<64> : tensor<64xi32, #b>
    %p0 = tle.local_pointers %buf[%r] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<f32, 3>, #b>
    %p1 = tt.addptr %p0, %k : tensor<64x!tt.ptr<f32, 3>, #b>, tensor<64xi32, #b>
    tt.store %p0, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.store %p1, %x : tensor<64x!tt.ptr<f32, 3>, #b>
    tt.return
  }
}
