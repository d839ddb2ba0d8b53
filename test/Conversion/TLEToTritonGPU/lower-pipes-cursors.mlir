// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes | FileCheck %s --implicit-check-not=tle.pipe

// Cursor positions (FlagTree's typed-pipe cursors): an endpoint whose ops
// carry `at [%stage, %phase]` takes exactly that slot and parity; no counter
// is threaded through its loops. The kernel carries (stage, phase) itself.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 3, fields = [x: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cursors(
  // CHECK-SAME: %[[BUF:.*]]: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>, %[[N:.*]]: i32, %[[V:.*]]: tensor<128xf32, #blocked>)
  tt.func @cursors(%buf: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>, %n: i32, %v: tensor<128xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %false = arith.constant false
    // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
    // CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
    %p = tle.pipe.create "ring" capacity 3 readers ["c"] fields(x = %buf : !ttg.memdesc<3x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      // The reader's loop keeps its own iter_args (stage, phase) and gains
      // no counter: the wait is on ready[stage] at parity zext(phase).
      // CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[RS:.*]] = %{{.*}}, %[[RP:.*]] = %{{.*}}) -> (i32, i1)
      // CHECK-NEXT: %[[RPH:.*]] = arith.extui %[[RP]] : i1 to i32
      // CHECK-NEXT: %[[RB:.*]] = ttg.memdesc_index %[[READY]][%[[RS]]]
      // CHECK-NEXT: ttng.wait_barrier %[[RB]], %[[RPH]]
      // CHECK: %[[VIEW:.*]] = ttg.memdesc_index %[[BUF]][%[[RS]]]
      // CHECK-NEXT: ttg.local_load %[[VIEW]]
      // CHECK-NEXT: gpu.barrier
      // CHECK-NEXT: %[[EB:.*]] = ttg.memdesc_index %[[EMPTY]][%[[RS]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[EB]], 1
      // CHECK-NOT: arith.remui
      // CHECK-NOT: arith.divui
      // CHECK: scf.yield %{{.*}}, %{{.*}} : i32, i1
      %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%stage = %c0, %phase = %false) -> (i32, i1) : i32 {
        %s, %closed = tle.pipe.reader_wait %p at [%stage, %phase] reader "c" : !ring
        %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        %x = ttg.local_load %view : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
        tle.pipe.reader_release %p[%stage] reader "c" : !ring
        %next = arith.addi %stage, %c1 : i32
        %wrap = arith.cmpi eq, %next, %c3 : i32
        %stage2 = arith.select %wrap, %c0, %next : i32
        %phase2 = arith.xori %phase, %wrap : i1
        scf.yield %stage2, %phase2 : i32, i1
      }
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // The writer waits on empty[stage] at the flipped parity and commits
      // the cursor's stage.
      // CHECK: partition0() num_warps(1)
      // CHECK: scf.for %{{.*}} iter_args(%[[WS:.*]] = %{{.*}}, %[[WP:.*]] = %{{.*}}) -> (i32, i1)
      // CHECK-NEXT: %[[WPH:.*]] = arith.extui %[[WP]] : i1 to i32
      // CHECK: %[[FREE:.*]] = arith.xori %[[WPH]], %{{.*}}
      // CHECK-NEXT: %[[EW:.*]] = ttg.memdesc_index %[[EMPTY]][%[[WS]]]
      // CHECK-NEXT: ttng.wait_barrier %[[EW]], %[[FREE]]
      // CHECK: %[[WV:.*]] = ttg.memdesc_index %[[BUF]][%[[WS]]]
      // CHECK-NEXT: ttg.local_store %[[V]], %[[WV]]
      // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
      // CHECK-NEXT: %[[RW:.*]] = ttg.memdesc_index %[[READY]][%[[WS]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[RW]], 1
      %w:2 = scf.for %i = %c0 to %n step %c1 iter_args(%stage = %c0, %phase = %false) -> (i32, i1) : i32 {
        %s = tle.pipe.writer_acquire %p at [%stage, %phase] : !ring
        %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        ttg.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        tle.pipe.writer_commit %p[%stage] : !ring
        %next = arith.addi %stage, %c1 : i32
        %wrap = arith.cmpi eq, %next, %c3 : i32
        %stage2 = arith.select %wrap, %c0, %next : i32
        %phase2 = arith.xori %phase, %wrap : i1
        scf.yield %stage2, %phase2 : i32, i1
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A positioned close: the close flag is set in the cursor's slot and the
// reader's positioned wait reads it back. The other endpoint (the reader)
// may count in ring order: positions are per endpoint.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @close_at(
  tt.func @close_at(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %v: tensor<128xf32, #blocked>) {
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    %false = arith.constant false
    // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    // CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    // CHECK: %[[FLAGS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi32
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      // The reader counts in ring order (remui / divui by 2 as and / shift).
      // CHECK: arith.andi
      // CHECK: arith.shrui
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.pipe.reader_release %p[%s] reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // The acquire takes slot 0 (the free parity of round 0: 1), the close
      // slot 1: it waits for slot 1 to be free, raises its flag and arrives.
      // CHECK: partition0() num_warps(1)
      // CHECK: %[[S0:.*]] = arith.constant 0 : i32
      // CHECK: %[[S1:.*]] = arith.constant 1 : i32
      // CHECK: %[[F:.*]] = arith.constant false
      // CHECK: %[[PH0:.*]] = arith.extui %[[F]] : i1 to i32
      // CHECK: %[[E0:.*]] = ttg.memdesc_index %[[EMPTY]][%[[S0]]]
      // CHECK-NEXT: ttng.wait_barrier %[[E0]]
      // CHECK: %[[R0:.*]] = ttg.memdesc_index %[[READY]][%[[S0]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[R0]], 1
      // CHECK: %[[PH1:.*]] = arith.extui %[[F]] : i1 to i32
      // CHECK: %[[E1:.*]] = ttg.memdesc_index %[[EMPTY]][%[[S1]]]
      // CHECK-NEXT: ttng.wait_barrier %[[E1]]
      // CHECK: %[[FL:.*]] = ttg.memdesc_index %[[FLAGS]][%[[S1]]]
      // CHECK-NEXT: ttg.local_store %{{.*}}, %[[FL]]
      // CHECK: %[[R1:.*]] = ttg.memdesc_index %[[READY]][%[[S1]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[R1]], 1
      %c0w = arith.constant 0 : i32
      %c1w = arith.constant 1 : i32
      %fw = arith.constant false
      %s = tle.pipe.writer_acquire %p at [%c0w, %fw] : !ring
      tle.pipe.writer_commit %p[%c0w] : !ring
      tle.pipe.writer_close %p at [%c1w, %fw] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
