// RUN: tle-opt %s -split-input-file --triton-tle-lower-barriers | FileCheck %s --implicit-check-not=tle.barrier --implicit-check-not=tle.named_barrier --implicit-check-not=tle.async_tma_load

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
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[DESC]][%[[X]], %[[Y]]] %[[BUF]], %[[BB]], %[[T]] : !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>, !ttg.memdesc<1xi64, {{.*}}> -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
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
