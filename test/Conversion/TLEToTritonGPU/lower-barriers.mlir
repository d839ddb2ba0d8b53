// RUN: tle-opt %s -split-input-file --triton-tle-lower-barriers | FileCheck %s --implicit-check-not=tle.barrier --implicit-check-not=tle.named_barrier --implicit-check-not=tle.async_tma_load --implicit-check-not=tle.tensor_map --implicit-check-not=tle.reinterpret

// Explicit mbarriers: the array is one ttg.local_alloc, each barrier
// initialized with the arrive count, then a CTA barrier; an arrive from a
// 4-warp kernel first syncs the warps; a wait waits on the phase's parity,
// flipped for barriers allocated `ready`.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @mbarriers(
  // CHECK-SAME: %[[I:[^:]*]]: i32, %[[P:[^:]*]]: i32)
  tt.func @mbarriers(%i: i32, %phase: i32) {
    // CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #{{.*}}, #smem, mutable>
    // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[B0:.*]] = ttg.memdesc_index %[[B]][%[[C0]]] : !ttg.memdesc<2x1xi64, #{{.*}}, #smem, mutable> -> !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    // CHECK-NEXT: ttng.init_barrier %[[B0]], 2
    // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[B1:.*]] = ttg.memdesc_index %[[B]][%[[C1]]]
    // CHECK-NEXT: ttng.init_barrier %[[B1]], 2
    // CHECK-NEXT: gpu.barrier
    %b = tle.barrier_alloc arrive_count 2 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // CHECK: %[[E:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
    // CHECK: ttng.init_barrier %{{.*}}, 1
    // CHECK-NEXT: gpu.barrier
    %e = tle.barrier_alloc arrive_count 1 ready : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: %[[A:.*]] = ttg.memdesc_index %[[B]][%[[I]]]
    // CHECK-NEXT: ttng.arrive_barrier %[[A]], 1 :
    tle.barrier_arrive %b[%i] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    // count 3 with expect_tx: one arrive.expect_tx and two plain arrivals.
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: %[[X:.*]] = ttg.memdesc_index %[[B]][%[[I]]]
    // CHECK-NEXT: %[[T:.*]] = arith.constant true
    // CHECK-NEXT: ttng.barrier_expect %[[X]], 4096, %[[T]]
    // CHECK-NEXT: ttng.arrive_barrier %[[X]], 2 :
    tle.barrier_arrive %b[%i] {count = 3 : i32, expect_tx = 4096 : i64} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    // expect_tx alone: no plain arrival.
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: %[[Y:.*]] = ttg.memdesc_index %[[B]][%[[I]]]
    // CHECK-NEXT: arith.constant true
    // CHECK-NEXT: ttng.barrier_expect %[[Y]], 128,
    // CHECK-NOT: ttng.arrive_barrier
    tle.barrier_arrive %b[%i] {expect_tx = 128 : i64} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    // CHECK: %[[M:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[PAR:.*]] = arith.andi %[[P]], %[[M]]
    // CHECK-NEXT: %[[W:.*]] = ttg.memdesc_index %[[B]][%[[I]]]
    // CHECK-NEXT: ttng.wait_barrier %[[W]], %[[PAR]] :
    tle.barrier_wait %b[%i], %phase : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    // A ready barrier: the parity is flipped.
    // CHECK: %[[PAR2:.*]] = arith.andi %[[P]]
    // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[FLIP:.*]] = arith.xori %[[PAR2]], %[[ONE]]
    // CHECK-NEXT: %[[W2:.*]] = ttg.memdesc_index %[[E]]
    // CHECK-NEXT: ttng.wait_barrier %[[W2]], %[[FLIP]] :
    %c0 = arith.constant 0 : i32
    tle.barrier_wait %e[%c0], %phase : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32, i32
    tt.return
  }
}

// -----

// Named barriers: inline bar.sync / bar.arrive, not pure.

module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @named(
  tt.func @named() {
    // CHECK: tt.elementwise_inline_asm "mov.u32 $0, 0;\0Abar.sync 1, 256;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    tle.named_barrier_sync 1, 256
    // CHECK: tt.elementwise_inline_asm "mov.u32 $0, 0;\0Abar.arrive 15, 128;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    tle.named_barrier_arrive 15, 128
    tt.return
  }
}

// -----

// In a warp_specialize partition: the arrive syncs the partition's warps
// only when it has more than one (a 1-warp partition does not), and the
// barriers stay the parent's ttg.local_alloc, captured later by
// triton-tle-lower-warp-specialize. Named barrier 5 is above Triton's ids
// (0 to 1 + 2 for one worker partition).

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @handoff(
  tt.func @handoff() {
    %c0 = arith.constant 0 : i32
    // CHECK: %[[B:.*]] = ttg.local_alloc
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>
    // CHECK: tle.warp_specialize()
    tle.warp_specialize()
    default {
      // CHECK: default {
      // CHECK: ttng.wait_barrier
      // CHECK: tt.elementwise_inline_asm "mov.u32 $0, 0;\0Abar.sync 5, 128;"
      tle.barrier_wait %b[%c0], %c0 : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32, i32
      tle.named_barrier_sync 5, 128
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // CHECK: partition0() num_warps(1)
      // CHECK-NOT: gpu.barrier
      // CHECK: %[[A:.*]] = ttg.memdesc_index %[[B]]
      // CHECK-NEXT: ttng.arrive_barrier %[[A]], 1
      tle.barrier_arrive %b[%c0] : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A TMA load on a barrier: TritonGPU's expansion of the descriptor load
// (scratch buffer, own barrier, wait, local_load) becomes one
// arrive.expect_tx of the block's bytes (64 x 64 f16: 8192) on the user's
// barrier and one TMA copy straight into the buffer, which takes the
// descriptor's NVMMA layout. Nothing waits here.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @tma(
  // CHECK-SAME: %[[DESC:[^:]*]]: !tt.tensordesc<tensor<64x64xf16, #{{.*}}>>, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32)
  tt.func @tma(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32, %y: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[NV:[a-z_0-9]+]], #smem, mutable>
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    // CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // CHECK: gpu.barrier
    // CHECK-NOT: ttg.local_alloc
    // CHECK-NOT: ttng.wait_barrier
    // CHECK-NOT: ttg.local_load
    // CHECK: %[[BB:.*]] = ttg.memdesc_index %[[B]][%{{.*}}]
    // CHECK-NEXT: %[[T:.*]] = arith.constant true
    // CHECK-NEXT: ttng.barrier_expect %[[BB]], 8192, %[[T]]
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[DESC]][%[[X]], %[[Y]]] %[[BUF]], %[[BB]], %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>, !ttg.memdesc<1xi64, {{.*}}> -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
    // CHECK-NOT: ttng.inval_barrier
    // CHECK: ttng.wait_barrier %{{.*}}, %{{.*}} : !ttg.memdesc<1xi64
    // CHECK-NEXT: tle.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
    %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %s = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %s, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %s, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %y] %scratch, %s, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.wait_barrier %s, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.inval_barrier %s : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %v = ttg.local_load %scratch : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tle.async_tma_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tle.barrier_wait %b[%c0], %c0 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    %r = tle.local_load %buf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tt.return
  }
}

// -----

// A TMA load on a barrier into a buffer read through local pointers (its
// plain layout stays: the pointers index it row-major in TLE's own region):
// Triton's synchronous TMA load stays, its value is stored into the buffer,
// the warps sync, and the barrier arrives once. No TMA copy targets the
// buffer and it keeps its layout.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @tma_pointer_buffer(
  tt.func @tma_pointer_buffer(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[PLAIN:[a-z_0-9]+]], #smem, mutable>
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    // CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // CHECK: %[[SCRATCH:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
    // CHECK: ttng.async_tma_copy_global_to_local %{{.*}} %[[SCRATCH]]
    // CHECK: ttng.wait_barrier
    // CHECK: %[[V:.*]] = ttg.local_load %[[SCRATCH]]
    // CHECK-NEXT: %[[BB:.*]] = ttg.memdesc_index %[[B]][%{{.*}}]
    // CHECK-NEXT: tle.local_store %[[V]], %[[BUF]] : tensor<64x64xf16, #{{.*}}> -> !ttg.memdesc<64x64xf16, #[[PLAIN]], #smem, mutable>
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttng.arrive_barrier %[[BB]], 1 :
    // CHECK-NOT: ttng.async_tma_copy_global_to_local
    %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %s = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %s, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %scratch, %s, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.wait_barrier %s, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %v = ttg.local_load %scratch : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tle.async_tma_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tle.barrier_wait %b[%c0], %c0 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    %l = tt.load %p : tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    tt.return
  }
}

// -----

// cp.async on a barrier: the load becomes a cp.async into the buffer, each
// thread's copies are counted on the barrier, then the group arrives once.
// A load whose layout gives a thread 2 bytes (f16, sizePerThread 1) cannot
// be a cp.async: it is stored synchronously before the arrival.

#v4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#v1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @cp_async(
  // CHECK-SAME: %[[P:[^:]*]]: tensor<32x32x!tt.ptr<f32>, #{{[^>]*}}>, %[[Q:[^:]*]]: tensor<32x32x!tt.ptr<f16>
  tt.func @cp_async(%p: tensor<32x32x!tt.ptr<f32>, #v4>, %q: tensor<32x32x!tt.ptr<f16>, #v1>) {
    %c0 = arith.constant 0 : i32
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x32xf32
    // CHECK: %[[HALF:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x32xf16
    // CHECK: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
    %buf = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %half = tle.alloc smem : () -> !ttg.memdesc<32x32xf16, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>
    // CHECK: gpu.barrier
    // CHECK-NEXT: %[[BB:.*]] = ttg.memdesc_index %[[B]]
    // CHECK-NEXT: ttg.async_copy_global_to_local %[[P]], %[[BUF]] :
    // CHECK-NEXT: ttng.async_copy_mbarrier_arrive %[[BB]] :
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttng.arrive_barrier %[[BB]], 1 :
    // CHECK-NOT: tt.load %[[P]]
    %v = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
    tle.async_copy_load %v, %buf, %b[%c0] : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>, !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32
    // CHECK: %[[H:.*]] = tt.load %[[Q]]
    // CHECK-NEXT: %[[HB:.*]] = ttg.memdesc_index %[[B]]
    // CHECK-NEXT: tle.local_store %[[H]], %[[HALF]]
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttng.arrive_barrier %[[HB]], 1 :
    %h = tt.load %q : tensor<32x32x!tt.ptr<f16>, #v1>
    tle.async_copy_load %h, %half, %b[%c0] : tensor<32x32xf16, #v1>, !ttg.memdesc<32x32xf16, #plain, #smem, mutable>, !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

// An asynchronous TMA store: TritonGPU's expansion of the descriptor store
// (scratch buffer, fence, copy, wait 0) reads the buffer in place and is
// not waited for; the buffer takes the descriptor's layout; the fence
// stays. tle.tma_store_wait is Triton's store wait.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @tma_store(
  // CHECK-SAME: %[[DESC:[^:]*]]: !tt.tensordesc
  tt.func @tma_store(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) {
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[NV:[a-z_0-9]+]], #smem, mutable>
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    // CHECK-NOT: tle.local_load
    // CHECK-NOT: ttg.local_alloc
    // CHECK: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[DESC]][%{{.*}}, %{{.*}}] %[[BUF]] : !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>, !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
    // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 1 : i32}
    // CHECK-NEXT: tt.return
    %v = tle.local_load %buf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
    %s = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
    ttng.fence_async_shared {bCluster = false}
    ttng.async_tma_copy_local_to_global %desc[%x, %x] %s : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    tle.async_tma_store %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    tle.tma_store_wait 1
    tt.return
  }
}

// -----

// The same in a loop, where TritonGPU stages the store through a buffer
// hoisted out of the loop: wait 0 (the staging buffer is free), a
// ttg.local_store of the value into it, the fence, the copy. The copy reads
// the user's buffer; the staging store and its wait go, the fence stays.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @tma_store_staged(
  // CHECK-SAME: %[[DESC:[^:]*]]: !tt.tensordesc
  tt.func @tma_store_staged(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[NV:[a-z_0-9]+]], #smem, mutable>
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    // CHECK-NOT: ttg.local_alloc
    %staging = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    // CHECK: scf.for
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[DESC]][%{{.*}}, %{{.*}}] %[[BUF]]
    // CHECK-NEXT: }
    // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tle.local_load %buf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %v2 = tle.local_load %buf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked1>
      ttng.async_tma_store_wait {pendings = 0 : i32}
      ttg.local_store %v, %staging : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.fence_async_shared {bCluster = false}
      ttng.async_tma_copy_local_to_global %desc[%i, %c0] %staging : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      tle.async_tma_store %v2, %buf : tensor<64x64xf16, #blocked1>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    }
    ttng.async_tma_store_wait {pendings = 0 : i32}
    // The staging buffer's deallocation goes with it (Triton still counts the
    // shared memory of an allocation that only a dealloc uses).
    // CHECK-NOT: ttg.local_dealloc
    // CHECK: tt.return
    ttg.local_dealloc %staging : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}

// -----

// cp.async groups (FlagTree's explicit async copies): tle.async_copy becomes
// a cp.async into the buffer with the load's mask and eviction policy and
// nothing waiting for it; the group ops become Triton's, with no tokens. A
// 16-bit copy of pointers of unknown provenance (whose runs Triton may split
// below 4 bytes) and a copy into a buffer read through local pointers are
// synchronous stores.

#v4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @cp_async_groups(
  // CHECK-SAME: %[[P:[^:]*]]: tensor<32x32x!tt.ptr<f32>, #{{[^>]*}}>, %[[M:[^:]*]]: tensor<32x32xi1, #{{[^>]*}}>, %[[Q:[^:]*]]: tensor<32x32x!tt.ptr<f16>
  tt.func @cp_async_groups(%p: tensor<32x32x!tt.ptr<f32>, #v4>, %m: tensor<32x32xi1, #v4>, %q: tensor<32x32x!tt.ptr<f16>, #v4>) -> tensor<32x32xf32, #v4> {
    // CHECK: %[[A:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x32xf32
    // CHECK: %[[B:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x32xf32
    // CHECK: %[[H:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x32xf16
    // CHECK: %[[R:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x32xf32
    %a = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %b = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %h = tle.alloc smem : () -> !ttg.memdesc<32x32xf16, #plain, #smem, mutable>
    %r = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %rp = tle.local_pointers %r : !ttg.memdesc<32x32xf32, #plain, #smem, mutable> -> tensor<32x32x!tt.ptr<f32, 3>, #v4>
    %zero = arith.constant dense<0.0> : tensor<32x32xf32, #v4>
    // CHECK-NEXT: tle.local_pointers %[[R]]
    // CHECK-NEXT: arith.constant
    // CHECK-NEXT: ttg.async_copy_global_to_local %[[P]], %[[A]] :
    // CHECK-NEXT: ttg.async_commit_group{{$}}
    // CHECK-NEXT: ttg.async_copy_global_to_local %[[P]], %[[B]] mask %[[M]] evictionPolicy = evict_first :
    // CHECK-NEXT: %[[HV:.*]] = tt.load %[[Q]]
    // CHECK-NEXT: tle.local_store %[[HV]], %[[H]]
    // CHECK-NEXT: %[[RV:.*]] = tt.load %[[P]]
    // CHECK-NEXT: tle.local_store %[[RV]], %[[R]]
    // CHECK-NEXT: ttg.async_commit_group{{$}}
    // CHECK-NEXT: ttg.async_wait {num = 1 : i32}
    // CHECK-NEXT: ttg.async_wait {num = 0 : i32}
    %va = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
    tle.async_copy %va, %a : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    tle.async_commit_group
    %vb = tt.load %p, %m, %zero evictionPolicy = evict_first : tensor<32x32x!tt.ptr<f32>, #v4>
    tle.async_copy %vb, %b : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %vh = tt.load %q : tensor<32x32x!tt.ptr<f16>, #v4>
    tle.async_copy %vh, %h : tensor<32x32xf16, #v4>, !ttg.memdesc<32x32xf16, #plain, #smem, mutable>
    %vr = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
    tle.async_copy %vr, %r : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    tle.async_commit_group
    tle.async_wait_group 1
    tle.async_wait_group 0
    %x = tt.load %rp : tensor<32x32x!tt.ptr<f32, 3>, #v4>
    tt.return %x : tensor<32x32xf32, #v4>
  }
}

// -----

// 16-bit copies: a cp.async when the pointers' construction proves every
// thread's run of 8 bf16 whole and 16-byte aligned (a base of divisibility
// 16, rows times a stride of divisibility 16, a column range); a
// synchronous store when the base may be misaligned (one element in), the
// stride has no divisibility, or a mask may split a run.

#v8 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @bf16_runs(
  tt.func @bf16_runs(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %odd: i32, %m: tensor<16x64xi1, #v8>) {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #v8}>>
    %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #v8}>> -> tensor<16x1xi32, #v8>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #v8}>>
    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #v8}>> -> tensor<1x64xi32, #v8>
    %cols = tt.broadcast %ce : tensor<1x64xi32, #v8> -> tensor<16x64xi32, #v8>
    %s = tt.splat %stride : i32 -> tensor<16x1xi32, #v8>
    %rs = arith.muli %re, %s : tensor<16x1xi32, #v8>
    %rsb = tt.broadcast %rs : tensor<16x1xi32, #v8> -> tensor<16x64xi32, #v8>
    %off = arith.addi %rsb, %cols : tensor<16x64xi32, #v8>
    %base = tt.splat %x : !tt.ptr<bf16> -> tensor<16x64x!tt.ptr<bf16>, #v8>
    %p = tt.addptr %base, %off : tensor<16x64x!tt.ptr<bf16>, #v8>, tensor<16x64xi32, #v8>
    %one = arith.constant 1 : i32
    %x1 = tt.addptr %x, %one : !tt.ptr<bf16>, i32
    %base1 = tt.splat %x1 : !tt.ptr<bf16> -> tensor<16x64x!tt.ptr<bf16>, #v8>
    %p1 = tt.addptr %base1, %off : tensor<16x64x!tt.ptr<bf16>, #v8>, tensor<16x64xi32, #v8>
    %so = tt.splat %odd : i32 -> tensor<16x1xi32, #v8>
    %ro = arith.muli %re, %so : tensor<16x1xi32, #v8>
    %rob = tt.broadcast %ro : tensor<16x1xi32, #v8> -> tensor<16x64xi32, #v8>
    %offo = arith.addi %rob, %cols : tensor<16x64xi32, #v8>
    %po = tt.addptr %base, %offo : tensor<16x64x!tt.ptr<bf16>, #v8>, tensor<16x64xi32, #v8>
    %a = tle.alloc smem : () -> !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    %b = tle.alloc smem : () -> !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    %d = tle.alloc smem : () -> !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    %e = tle.alloc smem : () -> !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    // CHECK: ttg.async_copy_global_to_local %{{.+}}, %{{.+}} :
    // CHECK-NEXT: %[[V1:.+]] = tt.load
    // CHECK-NEXT: tle.local_store %[[V1]]
    // CHECK-NEXT: %[[VO:.+]] = tt.load
    // CHECK-NEXT: tle.local_store %[[VO]]
    // CHECK-NEXT: arith.constant
    // CHECK-NEXT: %[[VM:.+]] = tt.load
    // CHECK-NEXT: tle.local_store %[[VM]]
    // CHECK-NEXT: ttg.async_commit_group
    %va = tt.load %p : tensor<16x64x!tt.ptr<bf16>, #v8>
    tle.async_copy %va, %a : tensor<16x64xbf16, #v8>, !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    %vb = tt.load %p1 : tensor<16x64x!tt.ptr<bf16>, #v8>
    tle.async_copy %vb, %b : tensor<16x64xbf16, #v8>, !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    %vd = tt.load %po : tensor<16x64x!tt.ptr<bf16>, #v8>
    tle.async_copy %vd, %d : tensor<16x64xbf16, #v8>, !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    %zero = arith.constant dense<0.0> : tensor<16x64xbf16, #v8>
    %ve = tt.load %p, %m, %zero : tensor<16x64x!tt.ptr<bf16>, #v8>
    tle.async_copy %ve, %e : tensor<16x64xbf16, #v8>, !ttg.memdesc<16x64xbf16, #plain, #smem, mutable>
    tle.async_commit_group
    tle.async_wait_group 0
    tt.return
  }
}

// -----

// A copy issued in a loop and committed after it.

#v4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @committed_after_the_loop(
  tt.func @committed_after_the_loop(%p: tensor<32x32x!tt.ptr<f32>, #v4>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %a = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    // CHECK: scf.for
    // CHECK-NEXT: ttg.async_copy_global_to_local
    // CHECK: }
    // CHECK-NEXT: ttg.async_commit_group
    scf.for %i = %c0 to %n step %c1 : i32 {
      %va = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
      tle.async_copy %va, %a : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    }
    tle.async_commit_group
    tle.async_wait_group 0
    tt.return
  }
}

// -----

// TMA descriptors in global memory: Triton's own fence and reinterpretation
// of the map's address, as an i8 pointer (a tt.bitcast of any other).

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @tensor_maps(
  // CHECK-SAME: %[[T:[^:]*]]: !tt.ptr<i8>, %[[F:[^:]*]]: !tt.ptr<f32>
  tt.func @tensor_maps(%table: !tt.ptr<i8>, %f: !tt.ptr<f32>, %i: i32) -> tensor<8x32xf32, #blocked> {
    // CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[T]] : !tt.ptr<i8>
    tle.tensor_map_fence_acquire %table : !tt.ptr<i8>
    // CHECK-NEXT: %[[B:.*]] = tt.bitcast %[[F]] : !tt.ptr<f32> -> !tt.ptr<i8>
    // CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[B]] : !tt.ptr<i8>
    tle.tensor_map_fence_acquire %f : !tt.ptr<f32>
    // CHECK-NEXT: %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[T]] : !tt.ptr<i8> to !tt.tensordesc<tensor<8x32xf32, #{{.*}}>>
    %d = tle.reinterpret_tensor_map %table : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x32xf32, #nvmma>>
    // CHECK-NEXT: tt.descriptor_load %[[D]][%{{.*}}, %{{.*}}]
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x32xf32, #nvmma>> -> tensor<8x32xf32, #blocked>
    tt.return %v : tensor<8x32xf32, #blocked>
  }
}

// -----

// An L2 cache hint: the TMA copy of Triton's expansion of the descriptor
// load is predicated on a marker the llir finish turns into the hint.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @cache_hint(
  tt.func @cache_hint(%d: !tt.tensordesc<tensor<8x32xf32, #nvmma>>, %i: i32) -> tensor<8x32xf32, #blocked> {
    %true = arith.constant true
    %s = ttg.local_alloc : () -> !ttg.memdesc<8x32xf32, #nvmma, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    // CHECK: %[[M:.*]] = tt.elementwise_inline_asm "tle.tma_cache_hint.evict_first;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[ON:.*]] = arith.cmpi ne, %[[M]], %[[Z]] : i32
    // CHECK-NEXT: %[[P:.*]] = arith.andi %{{.*}}, %[[ON]] : i1
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %[[P]] :
    ttng.async_tma_copy_global_to_local %d[%i, %i] %s, %b, %true : !tt.tensordesc<tensor<8x32xf32, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<8x32xf32, #nvmma, #smem, mutable>
    %v = ttg.local_load %s : !ttg.memdesc<8x32xf32, #nvmma, #smem, mutable> -> tensor<8x32xf32, #blocked>
    tle.tma_load_cache_hint %v "evict_first" : tensor<8x32xf32, #blocked>
    tt.return %v : tensor<8x32xf32, #blocked>
  }
}

// -----

// FlagTree's named use of an mbarrier array (barrier_wait without phaseIdx,
// FlagTree's FA3 ping-pong): the array gets consecutive named-barrier ids
// above the explicit ones (1 here) and Triton's (none: no warp_specialize);
// its waits are bar.sync, its arrives bar.arrive, with arrive_count threads.

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @named_array(
  tt.func @named_array() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ping = tle.barrier_alloc arrive_count 256 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // CHECK: "mov.u32 $0, 0;\0Abar.sync 1, 128;"
    tle.named_barrier_sync 1, 128
    // CHECK: "mov.u32 $0, 0;\0Abar.sync 2, 256;"
    tle.barrier_wait %ping[%c0], %c0 {named} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    // CHECK: "mov.u32 $0, 0;\0Abar.arrive 3, 256;"
    tle.barrier_arrive %ping[%c1] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    // CHECK: "mov.u32 $0, 0;\0Abar.sync 3, 256;"
    tle.barrier_wait %ping[%c1], %c0 {named} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    // CHECK-NOT: ttng.wait_barrier
    // CHECK-NOT: ttng.arrive_barrier
    tt.return
  }
}
