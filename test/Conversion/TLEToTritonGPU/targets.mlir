// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes --triton-tle-lower-warp-specialize | FileCheck %s

// What lowers for sm_80 (docs/targets.md): a pipe and warp specialization
// without register budgets. Before sm_90 there is no async proxy, so the
// writer's commit has no fence.proxy.async (ttng.fence_async_shared); the
// same module for sm_90 keeps it.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 1 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @ring_sm80(
  // CHECK: ttg.warp_specialize
  // CHECK: ttng.wait_barrier
  // CHECK: partition0({{.*}}) num_warps(1)
  // CHECK: ttg.local_store
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: ttng.arrive_barrier
  tt.func @ring_sm80(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.pipe.reader_release %p[%s] reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %v = arith.constant dense<1.0> : tensor<128xf32, #blocked>
      %s = tle.pipe.writer_acquire %p : !ring
      %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      ttg.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 1 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @ring_sm90(
  // CHECK: ttg.warp_specialize({{.*}}requestedRegisters = array<i32: 40>
  // CHECK: partition0({{.*}}) num_warps(1)
  // CHECK: ttg.local_store
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK: ttng.arrive_barrier
  tt.func @ring_sm90(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.pipe.reader_release %p[%s] reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) num_regs(40) {
      %v = arith.constant dense<1.0> : tensor<128xf32, #blocked>
      %s = tle.pipe.writer_acquire %p : !ring
      %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      ttg.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
