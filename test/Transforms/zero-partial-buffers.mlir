// RUN: tle-opt %s -split-input-file -triton-tle-zero-partial-buffers | FileCheck %s

// A buffer a masked store writes and a whole load reads starts zeroed: a
// store of zeros right after the allocation (no fence: only generic-proxy
// accesses use it).

// CHECK: #[[E:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @masked_then_whole(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #[[E]]>
// CHECK-NEXT: tle.local_store %[[Z]], %[[BUF]] : tensor<64x32xf16, #[[E]]>
// CHECK-NEXT: tle.local_pointers %[[BUF]]
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @masked_then_whole(%v: tensor<64x32xf16, #blocked>, %m: tensor<64x32xi1, #blocked>) -> tensor<64x32xf16, #blocked> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.store %p, %v, %m : tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    %w = tt.load %p : tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.return %w : tensor<64x32xf16, #blocked>
  }
}

// -----

// Read whole by a wgmma (the async proxy): an async-proxy fence follows the
// zeros on sm_90.

// CHECK-LABEL: tt.func @masked_then_wgmma(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xf16
// CHECK-NEXT: tle.local_store %[[Z]], %[[BUF]]
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: tle.local_pointers %[[BUF]]
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @masked_then_wgmma(%v: tensor<64x64xf16, #blocked>, %m: tensor<64x64xi1, #blocked>, %a: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %zero: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.store %p, %v, %m : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    %d = ttng.warp_group_dot %a, %buf, %zero {inputPrecision = 0 : i32, isAsync = false} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A ring of slots (a lowered pipe field) written by read-modify-writes and
// read whole by tle.local_load: each slot is zeroed through a slot view like
// its users'. No fence (sm_80, and only generic-proxy users).

// CHECK-LABEL: tt.func @rmw_ring(
// CHECK-NEXT: %[[RING:.+]] = tle.alloc smem
// CHECK-NEXT: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[S0:.+]] = ttg.memdesc_index %[[RING]][%[[C0]]]
// CHECK-NEXT: %[[Z0:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xbf16
// CHECK-NEXT: tle.local_store %[[Z0]], %[[S0]]
// CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[S1:.+]] = ttg.memdesc_index %[[RING]][%[[C1]]]
// CHECK-NEXT: %[[Z1:.+]] = arith.constant dense<0.000000e+00> : tensor<64x64xbf16
// CHECK-NEXT: tle.local_store %[[Z1]], %[[S1]]
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @rmw_ring(%v: tensor<64x64xbf16, #blocked>, %m: tensor<64x64xi1, #blocked>, %i: i32) -> tensor<64x64xbf16, #blocked> {
    %ring = tle.alloc smem : () -> !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>
    %s = ttg.memdesc_index %ring[%i] : !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %old = tle.local_load %s : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %new = arith.select %m, %v, %old : tensor<64x64xi1, #blocked>, tensor<64x64xbf16, #blocked>
    tle.local_store %new, %s : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %w = tle.local_load %s : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    tt.return %w : tensor<64x64xbf16, #blocked>
  }
}

// -----

// Atomics (elements not known) into a buffer the kernel does not zero
// first, then read whole: zeroed.

// CHECK-LABEL: tt.func @unzeroed_histogram(
// CHECK-NEXT: %[[H:.+]] = tle.alloc smem
// CHECK-NEXT: %[[Z:.+]] = arith.constant dense<0> : tensor<128xi32
// CHECK-NEXT: tle.local_store %[[Z]], %[[H]]
// CHECK-NEXT: tle.local_pointers %[[H]][
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @unzeroed_histogram(%idx: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
    %h = tle.alloc smem : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %bins = tle.local_pointers %h[%idx] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked> -> tensor<128x!tt.ptr<i32, 3>, #blocked>
    %ones = arith.constant dense<1> : tensor<128xi32, #blocked>
    %prev = tt.atomic_rmw add, relaxed, cta, %bins, %ones : (tensor<128x!tt.ptr<i32, 3>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %counts = tle.local_load %h : !ttg.memdesc<128xi32, #shared, #smem, mutable> -> tensor<128xi32, #blocked>
    tt.return %counts : tensor<128xi32, #blocked>
  }
}

// -----

// Left alone: a masked store read back only through the same indices
// (partial reads), a whole store read whole, a read-modify-write alone (its
// own load reads what it writes back), a buffer remote pointers reach, an
// allocation inside a loop, one with an initial value, a histogram the
// kernel zeroes itself before its atomics (a whole store comes first).

// CHECK-LABEL: tt.func @left_alone(
// CHECK-NOT: arith.constant dense<0.0
// CHECK-NOT: ttng.fence_async_shared
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @left_alone(%v: tensor<128xf32, #blocked>, %m: tensor<128xi1, #blocked>, %idx: tensor<128xi32, #blocked>, %n: index, %r: i32) -> tensor<128xf32, #blocked> {
    %a = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pa = tle.local_pointers %a[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %pa, %v : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %x = tt.load %pa : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %b = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tle.local_store %x, %b : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %y = tle.local_load %b : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
    %c = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %old = tle.local_load %c : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
    %new = arith.select %m, %y, %old : tensor<128xi1, #blocked>, tensor<128xf32, #blocked>
    tle.local_store %new, %c : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %d = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pd = tle.local_pointers %d : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %pd, %y, %m : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %rd = tle.remote_pointers cluster %pd, %r : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    %z = tt.load %pd : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %lb = arith.constant 0 : index
    %one = arith.constant 1 : index
    %acc = scf.for %k = %lb to %n step %one iter_args(%s = %z) -> (tensor<128xf32, #blocked>) {
      %e = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      %pe = tle.local_pointers %e : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
      tt.store %pe, %s, %m : tensor<128x!tt.ptr<f32, 3>, #blocked>
      %t = tt.load %pe : tensor<128x!tt.ptr<f32, 3>, #blocked>
      scf.yield %t : tensor<128xf32, #blocked>
    }
    %f = tle.alloc smem %acc : (tensor<128xf32, #blocked>) -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pf = tle.local_pointers %f : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %pf, %acc, %m : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %g = tt.load %pf : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %h = tle.alloc smem : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %ph = tle.local_pointers %h : !ttg.memdesc<128xi32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<i32, 3>, #blocked>
    %zeros = arith.constant dense<0> : tensor<128xi32, #blocked>
    tt.store %ph, %zeros : tensor<128x!tt.ptr<i32, 3>, #blocked>
    %bins = tle.local_pointers %h[%idx] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #blocked> -> tensor<128x!tt.ptr<i32, 3>, #blocked>
    %ones = arith.constant dense<1> : tensor<128xi32, #blocked>
    %prev = tt.atomic_rmw add, relaxed, cta, %bins, %ones : (tensor<128x!tt.ptr<i32, 3>, #blocked>, tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked>
    %counts = tt.load %ph : tensor<128x!tt.ptr<i32, 3>, #blocked>
    tt.store %ph, %counts : tensor<128x!tt.ptr<i32, 3>, #blocked>
    tt.return %g : tensor<128xf32, #blocked>
  }
}
