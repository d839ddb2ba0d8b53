// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes | FileCheck %s --implicit-check-not=tle.pipe --implicit-check-not=tle.tma_fill

// TMA slot fills (tle.gpu.copy from a tensor descriptor): the frontend
// stores Triton's tt.descriptor_gather into the writer's slot with a
// tle.local_store tagged tle.tma_fill; TritonGPU's TMA lowering has made the
// gather a ttng.async_tma_gather into a scratch buffer on a barrier of its
// own, waited for and loaded. The pass gathers straight into the slot on
// the slot's ready barrier (no wait in the writer), drops the scratch buffer,
// its barrier and the load, lays the field out as the descriptor's block
// (NVMMA), and the commit's elected arrive becomes an arrive.expect_tx of the
// bytes the slot's fills bring (64 x 64 bf16: 8192). The ready barriers
// still expect one arrival.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x64xbf16, #plain, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @fill(
  // CHECK-SAME: %[[DESC:[^:]*]]: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %[[ROWS:[^:]*]]: tensor<64xi32, #{{.*}}>, %[[N:[^:]*]]: i32)
  tt.func @fill(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %n: i32) {
    // CHECK: %[[BUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xbf16, #plain, #smem, mutable>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    // CHECK-COUNT-4: ttng.init_barrier %{{.*}}, 1 :
    %p = tle.pipe.create "ring" capacity 2 readers ["r"] fields(k = %buf : !ttg.memdesc<2x64x64xbf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: default {
      // CHECK: %[[RV:.*]] = ttg.memdesc_index %[[BUF]]
      // CHECK-NEXT: ttg.local_load %[[RV]] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s, %closed = tle.pipe.reader_wait %p reader "r" : !ring
        %view = tle.pipe.slot %p[%s] field "k" : !ring -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable>
        %x = ttg.local_load %view : !ttg.memdesc<64x64xbf16, #plain, #smem, mutable> -> tensor<64x64xbf16, #blocked>
        tle.pipe.reader_release %p[%s] reader "r" : !ring
      }
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // CHECK: partition0() num_warps(4)
      // CHECK: ttng.wait_barrier
      // CHECK: %[[SLOT:.*]] = ttg.memdesc_index %[[BUF]][%[[WS:.*]]] : !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      // CHECK-NEXT: %[[YES:.*]] = arith.constant true
      // CHECK-NEXT: %[[GB:.*]] = ttg.memdesc_index %[[READY]][%[[WS]]]
      // CHECK-NEXT: ttng.async_tma_gather %[[DESC]][%[[ROWS]], %{{.*}}] %[[SLOT]], %[[GB]], %[[YES]]
      // CHECK-NOT: ttg.local_alloc
      // CHECK-NOT: ttng.wait_barrier
      // CHECK-NOT: ttng.inval_barrier
      // CHECK-NOT: ttg.local_load
      // CHECK-NOT: ttng.arrive_barrier
      // CHECK: gpu.barrier
      // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
      // CHECK-NEXT: %[[T:.*]] = arith.constant true
      // CHECK-NEXT: %[[EB:.*]] = ttg.memdesc_index %[[READY]][%[[WS]]]
      // CHECK-NEXT: ttng.barrier_expect %[[EB]], 8192, %[[T]]
      // CHECK-NOT: ttng.arrive_barrier
      // CHECK: tle.warp_return
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %p : !ring
        %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
        %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.barrier_expect %b, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
        ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.inval_barrier %b : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
        %view = tle.pipe.slot %p[%s] field "k" : !ring -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable>
        tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable>
        tle.pipe.writer_commit %p[%s] : !ring
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Two fields filled by TMA (the second through a layout conversion) and one
// stored from registers: the commit expects both fills' bytes (8192 + 4096)
// after the partition barrier that orders the register store.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#other = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#one = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#flat = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 1, fields = [a: !ttg.memdesc<1x64x64xbf16, #shared, #smem, mutable>, b: !ttg.memdesc<1x32x64xbf16, #shared, #smem, mutable>, valid: !ttg.memdesc<1x64xi32, #flat, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @two_fills(
  tt.func @two_fills(%a: !ttg.memdesc<1x64x64xbf16, #shared, #smem, mutable>, %bb: !ttg.memdesc<1x32x64xbf16, #shared, #smem, mutable>, %vf: !ttg.memdesc<1x64xi32, #flat, #smem, mutable>, %desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %rows32: tensor<32xi32, #rows>, %valid: tensor<64xi32, #one>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %true = arith.constant true
    %p = tle.pipe.create "ring" capacity 1 readers ["r"] fields(a = %a : !ttg.memdesc<1x64x64xbf16, #shared, #smem, mutable>, b = %bb : !ttg.memdesc<1x32x64xbf16, #shared, #smem, mutable>, valid = %vf : !ttg.memdesc<1x64xi32, #flat, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "r" : !ring
      tle.pipe.reader_release %p[%s] reader "r" : !ring
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // CHECK: partition0() num_warps(4)
      // CHECK: ttng.async_tma_gather %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : {{.*}}!ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      // CHECK: ttng.async_tma_gather %{{.*}}[%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : {{.*}}!ttg.memdesc<32x64xbf16, #shared, #smem, mutable>, i1
      // CHECK: tle.local_store %{{.*}}, %{{.*}} : tensor<64xi32, #{{.*}}> -> !ttg.memdesc<64xi32
      // CHECK: gpu.barrier
      // CHECK: ttng.barrier_expect %{{.*}}, 12288, %{{.*}}
      // CHECK-NOT: ttng.arrive_barrier
      %s = tle.pipe.writer_acquire %p : !ring
      %sa = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %ba = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %ba, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.barrier_expect %ba, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %sa, %ba, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %ba, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %ba : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %va = ttg.local_load %sa : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %viewa = tle.pipe.slot %p[%s] field "a" : !ring -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      tle.local_store %va, %viewa {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %sb = ttg.local_alloc : () -> !ttg.memdesc<32x64xbf16, #shared, #smem, mutable>
      %bb2 = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %bb2, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.barrier_expect %bb2, 4096, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows32, %c64] %sb, %bb2, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<32xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %bb2, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %bb2 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %vb = ttg.local_load %sb : !ttg.memdesc<32x64xbf16, #shared, #smem, mutable> -> tensor<32x64xbf16, #blocked>
      %vbc = ttg.convert_layout %vb : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #other>
      %viewb = tle.pipe.slot %p[%s] field "b" : !ring -> !ttg.memdesc<32x64xbf16, #shared, #smem, mutable>
      tle.local_store %vbc, %viewb {tle.tma_fill} : tensor<32x64xbf16, #other> -> !ttg.memdesc<32x64xbf16, #shared, #smem, mutable>
      %viewv = tle.pipe.slot %p[%s] field "valid" : !ring -> !ttg.memdesc<64xi32, #flat, #smem, mutable>
      tle.local_store %valid, %viewv : tensor<64xi32, #one> -> !ttg.memdesc<64xi32, #flat, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
