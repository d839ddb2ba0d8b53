// RUN: tle-opt %s -split-input-file --triton-tle-forward-buffer-mma-operands | FileCheck %s

// A query tile filled before the warp_specialize and only loaded inside it:
// Triton gives each partition a copy loaded into registers for the wgmma
// (the A operand did not come from a global load). Both wgmmas read the
// buffer itself, which takes the NVMMA encoding (128-byte swizzle: rows of
// 64 f16); a fence and a barrier order the parent's stores before them.

// CHECK: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @query_tile(
// CHECK: %[[Q:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[Q]] : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttg.warp_specialize(%[[Q]], %{{.*}})
// CHECK-NEXT: default {
// CHECK-NEXT: arith.constant
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[Q]], %{{.*}}, %{{.*}} {{.*}} : !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable> * !ttg.memdesc<64x64xf16, #{{[a-z0-9]+}}, #smem, mutable>
// CHECK-NEXT: ttng.warp_group_dot_wait %[[D]] {pendings = 0 : i32}
// CHECK: partition0(%[[ARG:[^:]*]]: !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>, %{{.*}}: !ttg.memdesc<64x64xf16, #{{[a-z0-9]+}}, #smem, mutable>) num_warps(4) {
// CHECK-NEXT: arith.constant
// CHECK-NEXT: ttng.warp_group_dot %[[ARG]], %{{.*}}, %{{.*}} {{.*}} : !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable> * !ttg.memdesc<64x64xf16, #{{[a-z0-9]+}}, #smem, mutable>
// CHECK-NOT: ttg.local_alloc %
// CHECK-NOT: ttg.local_load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @query_tile(%v: tensor<64x64xf16, #blocked>, %k: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) -> tensor<64x64xf32, #mma> {
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %r = ttg.warp_specialize(%q, %k)
    default {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
      %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #swz, #smem>
      %a = ttg.local_load %c : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = ttng.warp_group_dot %a, %k, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      ttg.warp_yield %w : tensor<64x64xf32, #mma>
    }
    partition0(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) num_warps(4) {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
      %a = ttg.local_load %arg0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = ttng.warp_group_dot %a, %arg1, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) -> tensor<64x64xf32, #mma>
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// A copy loaded for a register use (not a wgmma operand) is loaded from
// the buffer directly; the buffer keeps its encoding and no fence is added.

// CHECK-LABEL: tt.func @register_use(
// CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NOT: ttng.fence_async_shared
// CHECK: partition0(%[[ARG:[^:]*]]: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>)
// CHECK-NEXT: %[[L:.*]] = ttg.local_load %[[ARG]] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT: arith.addf %[[L]], %[[L]]
// CHECK-NOT: ttg.local_alloc %
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @register_use(%v: tensor<64x64xf16, #blocked>) {
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %b : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%b)
    default {
      ttg.warp_yield
    }
    partition0(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>) num_warps(4) {
      %x = ttg.local_load %arg0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #swz, #smem>
      %y = ttg.local_load %c : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #blocked1>
      %z = arith.addf %y, %y : tensor<64x64xf16, #blocked1>
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

// Negative: a partition writes the buffer (the copy is a snapshot the
// write must not reach), so nothing changes.

// CHECK: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @written_inside(
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[SW]], #smem, mutable>
// CHECK-NOT: ttng.fence_async_shared
// CHECK: ttg.local_alloc %
// CHECK: ttng.warp_group_dot %{{.*}} : tensor<64x64xf16, #ttg.dot_op
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @written_inside(%v: tensor<64x64xf16, #blocked>, %k: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) {
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%q, %k)
    default {
      ttg.warp_yield
    }
    partition0(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) num_warps(4) {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
      %x = ttg.local_load %arg0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #swz, #smem>
      %a = ttg.local_load %c : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = ttng.warp_group_dot %a, %arg1, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      ttg.local_store %x, %arg0 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

// Negative: the buffer has a user outside the op other than loads and
// stores (a view), so its encoding cannot change: nothing changes.

// CHECK-LABEL: tt.func @viewed_outside(
// CHECK-NOT: ttng.fence_async_shared
// CHECK: ttg.local_alloc %
// CHECK: ttng.warp_group_dot %{{.*}} : tensor<64x64xf16, #ttg.dot_op
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @viewed_outside(%k: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable> {
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %t = ttg.memdesc_trans %q {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%q, %k)
    default {
      ttg.warp_yield
    }
    partition0(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) num_warps(4) {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
      %x = ttg.local_load %arg0 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #swz, #smem>
      %a = ttg.local_load %c : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = ttng.warp_group_dot %a, %arg1, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      ttg.warp_return
    } : (!ttg.memdesc<64x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>) -> ()
    tt.return %t : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  }
}

// -----

// Rows of 8 f16 (16 bytes) have no NVMMA swizzle: the wgmma keeps its
// register operand, loaded from the buffer instead of the copy.

// CHECK: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @narrow_rows(
// CHECK-NOT: ttng.fence_async_shared
// CHECK: partition0(%[[ARG:[^:]*]]: !ttg.memdesc<64x8xf16, #[[SW]], #smem, mutable>
// CHECK: %[[A:.*]] = ttg.local_load %[[ARG]] : !ttg.memdesc<64x8xf16, #[[SW]], #smem, mutable> -> tensor<64x8xf16, #ttg.dot_op
// CHECK-NEXT: ttng.warp_group_dot %[[A]],
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 16}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @narrow_rows(%k: !ttg.memdesc<8x64xf16, #shared1, #smem, mutable>) {
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x8xf16, #shared, #smem, mutable>
    ttg.warp_specialize(%q, %k)
    default {
      ttg.warp_yield
    }
    partition0(%arg0: !ttg.memdesc<64x8xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<8x64xf16, #shared1, #smem, mutable>) num_warps(4) {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
      %x = ttg.local_load %arg0 : !ttg.memdesc<64x8xf16, #shared, #smem, mutable> -> tensor<64x8xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x8xf16, #blocked>) -> !ttg.memdesc<64x8xf16, #swz, #smem>
      %a = ttg.local_load %c : !ttg.memdesc<64x8xf16, #swz, #smem> -> tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = ttng.warp_group_dot %a, %arg1, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<8x64xf16, #shared1, #smem, mutable> -> tensor<64x64xf32, #mma>
      ttg.warp_return
    } : (!ttg.memdesc<64x8xf16, #shared, #smem, mutable>, !ttg.memdesc<8x64xf16, #shared1, #smem, mutable>) -> ()
    tt.return
  }
}

// -----

// Outside warp_specialize: a query tile stored once before the loop and a
// key tile stored in it. Triton copies each load into an NVMMA buffer for
// the wgmma (A, and B through a transposed view). The query copy is the
// buffer itself: the buffer takes the copy's encoding, both wgmma operands
// read it (the transposed view is rebuilt on it, mutable), the wait passes
// it on, and a fence and a barrier follow its store. The key tile, written
// inside the loop, keeps its copy.

// CHECK: #[[T:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK: #[[NT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @read_only_tile(
// CHECK: %[[Q:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[T]], #smem, mutable>
// CHECK-NEXT: %[[K:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #{{[a-z0-9]+}}, #smem, mutable>
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[Q]] : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #[[T]], #smem, mutable>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NEXT: ttg.local_store %{{.*}}, %[[K]]
// CHECK-NEXT: %[[KX:.*]] = ttg.local_load %[[K]]
// CHECK-NEXT: %[[KC:.*]] = ttg.local_alloc %[[KX]]
// CHECK-NEXT: %[[QT:.*]] = ttg.memdesc_trans %[[Q]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[T]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #[[NT]], #smem, mutable>
// CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[Q]], %[[QT]], %{{.*}} {{.*}} : !ttg.memdesc<64x64xf16, #[[T]], #smem, mutable> * !ttg.memdesc<64x64xf16, #[[NT]], #smem, mutable>
// CHECK-NEXT: %[[E:.*]] = ttng.warp_group_dot %[[KC]], %[[QT]], %[[D]]
// CHECK-NEXT: ttng.warp_group_dot_wait %[[E]], %[[Q]], %[[KC]] {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #[[T]], #smem, mutable>, !ttg.memdesc<64x64xf16, #[[T]], #smem>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#nt = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @read_only_tile(%v: tensor<64x64xf16, #blocked>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %k = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      ttg.local_store %v, %k : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
      %kx = ttg.local_load %k : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %kc = ttg.local_alloc %kx : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #t, #smem>
      %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #t, #smem>
      %ct = ttg.memdesc_trans %c {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #t, #smem> -> !ttg.memdesc<64x64xf16, #nt, #smem>
      %d = ttng.warp_group_dot %c, %ct, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #t, #smem> * !ttg.memdesc<64x64xf16, #nt, #smem> -> tensor<64x64xf32, #mma>
      %e = ttng.warp_group_dot %kc, %ct, %d {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #t, #smem> * !ttg.memdesc<64x64xf16, #nt, #smem> -> tensor<64x64xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %e, %c, %kc {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #t, #smem>, !ttg.memdesc<64x64xf16, #t, #smem>
      scf.yield %w#0 : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Not forwarded: the buffer is stored again after the loop that reads it
// (a wgmma may still read it then), a copy with another reader, and a
// helper function (it may run more than once).

// CHECK-LABEL: tt.func public @written_after(
// CHECK-NOT: ttng.fence_async_shared
// CHECK: %[[C:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem>
// CHECK-NEXT: ttng.warp_group_dot %[[C]],
// CHECK-LABEL: tt.func public @other_reader(
// CHECK-NOT: ttng.fence_async_shared
// CHECK: %[[C:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem>
// CHECK-NEXT: ttng.warp_group_dot %[[C]],
// CHECK-LABEL: tt.func private @helper(
// CHECK-NOT: ttng.fence_async_shared
// CHECK: %[[C:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem>
// CHECK-NEXT: ttng.warp_group_dot %[[C]],
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @written_after(%v: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #t, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #t, #smem>
      %d = ttng.warp_group_dot %c, %b, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #t, #smem> * !ttg.memdesc<64x64xf16, #t, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return %r : tensor<64x64xf32, #mma>
  }
  tt.func public @other_reader(%v: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #t, #smem>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>) {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #t, #smem>
    %d = ttng.warp_group_dot %c, %b, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #t, #smem> * !ttg.memdesc<64x64xf16, #t, #smem> -> tensor<64x64xf32, #mma>
    %y = ttg.local_load %c : !ttg.memdesc<64x64xf16, #t, #smem> -> tensor<64x64xf16, #blocked>
    tt.return %d, %y : tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>
  }
  tt.func private @helper(%v: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #t, #smem>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #t, #smem>
    %d = ttng.warp_group_dot %c, %b, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #t, #smem> * !ttg.memdesc<64x64xf16, #t, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// The same outside warp_specialize with A in registers: Triton's copy of the
// load (unswizzled) is loaded into the operand layout; the wgmma reads the
// buffer, which takes the K-contiguous NVMMA encoding.

// CHECK: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @register_operand(
// CHECK: %[[Q:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: scf.for
// CHECK-NEXT: ttng.warp_group_dot %[[Q]], %{{.*}} : !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable> *
// CHECK-NOT: ttg.local_load
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @register_operand(%v: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #t, #smem>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %a = ttg.local_load %c : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
      %d = ttng.warp_group_dot %a, %b, %acc {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #t, #smem> -> tensor<64x64xf32, #mma>
      %w = ttng.warp_group_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %w : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// Straight-line code (a loop of one trip Triton folded): the copy sits in
// the function body next to the buffer, and goes.

// CHECK-LABEL: tt.func public @straight_line(
// CHECK: %[[Q:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #{{[a-z0-9]+}}, #smem, mutable>
// CHECK-NEXT: ttg.local_store
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: ttng.warp_group_dot %[[Q]],
// CHECK-NOT: ttg.local_alloc
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @straight_line(%v: tensor<64x64xf16, #blocked>, %b: !ttg.memdesc<64x64xf16, #t, #smem>) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %q = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ttg.local_store %v, %q : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %x = ttg.local_load %q : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %a = ttg.local_load %c : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    %d = ttng.warp_group_dot %a, %b, %zero {inputPrecision = 0 : i32} : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #t, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}
