// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes | FileCheck %s --implicit-check-not=tle.pipe

// tle.pipe -> mbarrier rings. The writer (partition 0) and the reader (the
// default region) each thread a slot counter through their loops.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 3, fields = [x: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @ring(
  // CHECK-SAME: %[[BUF:.*]]: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>, %[[N:.*]]: i32, %[[V:.*]]: tensor<128xf32, #blocked>)
  tt.func @ring(%buf: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>, %n: i32, %v: tensor<128xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
    // CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
    // CHECK: %[[R0:.*]] = ttg.memdesc_index %[[READY]][%[[S0:.*]]]
    // CHECK-NEXT: ttng.init_barrier %[[R0]], 1
    // CHECK-NEXT: %[[E0:.*]] = ttg.memdesc_index %[[EMPTY]][%[[S0]]]
    // CHECK-NEXT: ttng.init_barrier %[[E0]], 1
    // CHECK-COUNT-4: ttng.init_barrier
    %p = tle.pipe.create "ring" capacity 3 readers ["c"] fields(x = %buf : !ttg.memdesc<3x128xf32, #shared, #smem, mutable>)
    // CHECK: tle.warp_specialize()
    tle.warp_specialize()
    default {
      // The reader: count %[[RC]] from 0, slot = count % 3, phase = (count / 3) & 1.
      // CHECK: %[[Z:.*]] = arith.constant 0 : i32
      // CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[RC:.*]] = %[[Z]]) -> (i32)
      // CHECK: %[[RNEXT:.*]] = arith.addi %[[RC]], %{{.*}}
      // CHECK: %[[RS:.*]] = arith.remui %[[RC]], %{{.*}}
      // CHECK: %[[RQ:.*]] = arith.divui %[[RC]], %{{.*}}
      // CHECK: %[[RPH:.*]] = arith.andi %[[RQ]], %{{.*}}
      // CHECK: %[[RB:.*]] = ttg.memdesc_index %[[READY]][%[[RS]]]
      // CHECK-NEXT: ttng.wait_barrier %[[RB]], %[[RPH]]
      // CHECK: %[[VIEW:.*]] = ttg.memdesc_index %[[BUF]][%[[RS]]] : !ttg.memdesc<3x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      // CHECK-NEXT: ttg.local_load %[[VIEW]]
      // The 4-warp default region syncs its warps before the one arrive.
      // CHECK-NEXT: gpu.barrier
      // CHECK-NEXT: %[[EB:.*]] = ttg.memdesc_index %[[EMPTY]][%[[RS]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[EB]], 1
      // CHECK: scf.yield %[[RNEXT]] : i32
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
        %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        %x = ttg.local_load %view : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
        tle.pipe.reader_release %p[%s] reader "c" : !ring
      }
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // The writer waits on `empty` with the phase flipped: a fresh barrier
      // lets the first round through.
      // CHECK: partition0() num_warps(1)
      // CHECK: scf.for %{{.*}} iter_args(%[[WC:.*]] = %{{.*}}) -> (i32)
      // CHECK: %[[WS:.*]] = arith.remui %[[WC]]
      // CHECK: %[[WPH:.*]] = arith.andi
      // CHECK: %[[FREE:.*]] = arith.xori %[[WPH]], %{{.*}}
      // CHECK: %[[EW:.*]] = ttg.memdesc_index %[[EMPTY]][%[[WS]]]
      // CHECK-NEXT: ttng.wait_barrier %[[EW]], %[[FREE]]
      // CHECK: %[[WV:.*]] = ttg.memdesc_index %[[BUF]][%[[WS]]]
      // CHECK-NEXT: ttg.local_store %[[V]], %[[WV]]
      // A one-warp partition needs no barrier before its arrive.
      // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
      // CHECK-NEXT: %[[RW:.*]] = ttg.memdesc_index %[[READY]][%[[WS]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[RW]], 1
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %p : !ring
        %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        ttg.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        tle.pipe.writer_commit %p[%s] : !ring
      }
      tle.warp_return
    } : () -> ()
    // CHECK: ttng.inval_barrier
    // CHECK-COUNT-5: ttng.inval_barrier
    // CHECK-NEXT: tt.return
    tt.return
  }
}

// -----

// Two readers: `empty` counts both releases. A power-of-two capacity uses
// masks. A wait inside an scf.if carries the counter out as a result.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!fan = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [a, b]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @fan(
  tt.func @fan(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %flag: i1) {
    // CHECK-COUNT-2: ttng.init_barrier %{{.*}}, 1 :
    // CHECK-NOT: ttng.init_barrier %{{.*}}, 1 :
    // CHECK: ttng.init_barrier %{{.*}}, 2 :
    %p = tle.pipe.create "fan" capacity 2 readers ["a", "b"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s = tle.pipe.writer_acquire %p : !fan
      tle.pipe.writer_commit %p[%s] : !fan
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // CHECK: partition0() num_warps(1)
      // CHECK: %[[C:.*]] = scf.if %{{.*}} -> (i32) {
      // CHECK: arith.andi
      // CHECK: arith.shrui
      // CHECK: ttng.wait_barrier
      // CHECK: scf.yield %{{.*}} : i32
      // CHECK-NEXT: } else {
      // CHECK-NEXT: scf.yield %{{.*}} : i32
      scf.if %flag {
        %s, %c = tle.pipe.reader_wait %p reader "a" : !fan
        tle.pipe.reader_release %p[%s] reader "a" : !fan
      }
      tle.warp_return
    }
    partition1() num_warps(2) {
      // CHECK: partition1() num_warps(2)
      // CHECK: ttng.wait_barrier
      // CHECK: gpu.barrier
      // CHECK-NEXT: ttg.memdesc_index
      // CHECK-NEXT: ttng.arrive_barrier
      %s, %c = tle.pipe.reader_wait %p reader "b" : !fan
      tle.pipe.reader_release %p[%s] reader "b" : !fan
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// One-shot: no `empty` ring, no wait for the writer, slot = count.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!once = !tle.pipe<capacity = 1, fields = [x: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>], readers = [r], one_shot>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @once(
  tt.func @once(%buf: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>) {
    // CHECK-COUNT-1: ttg.local_alloc
    // CHECK-NOT: ttg.local_alloc
    %p = tle.pipe.create "once" capacity 1 readers ["r"] fields(x = %buf : !ttg.memdesc<1x128xf32, #shared, #smem, mutable>) {one_shot = true}
    tle.warp_specialize()
    default {
      // CHECK: default {
      // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
      // CHECK-NOT: ttng.wait_barrier
      // CHECK: ttng.arrive_barrier
      %s = tle.pipe.writer_acquire %p : !once
      tle.pipe.writer_commit %p[%s] : !once
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // CHECK: partition0() num_warps(1)
      // CHECK: ttng.wait_barrier
      // CHECK-NOT: ttng.arrive_barrier
      // CHECK: tle.warp_return
      %s, %c = tle.pipe.reader_wait %p reader "r" : !once
      tle.pipe.reader_release %p[%s] reader "r" : !once
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A one-shot writer in the kernel body before the warp_specialize (FlagTree's
// query hand-off): every warp of the kernel fills the slot, the commit syncs
// them (4 warps), fences and arrives once; the readers wait in the
// partitions. The barriers are initialized before the writer.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
!once = !tle.pipe<capacity = 1, fields = [x: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>], readers = [a, b], one_shot>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @before(
  tt.func @before(%buf: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>, %v: tensor<128xf32, #blocked>) {
    // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
    // CHECK: ttng.init_barrier %{{.*}}, 1 :
    // CHECK-NOT: ttng.wait_barrier
    // CHECK: ttg.local_store
    // CHECK-NEXT: gpu.barrier
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    // CHECK-NEXT: %[[B:.*]] = ttg.memdesc_index %[[READY]]
    // CHECK-NEXT: ttng.arrive_barrier %[[B]], 1
    // CHECK-NEXT: tle.warp_specialize()
    // CHECK: partition0() num_warps(1)
    // CHECK: ttng.wait_barrier
    // CHECK: partition1() num_warps(1)
    // CHECK: ttng.wait_barrier
    // CHECK: ttng.inval_barrier
    %p = tle.pipe.create "once" capacity 1 readers ["a", "b"] fields(x = %buf : !ttg.memdesc<1x128xf32, #shared, #smem, mutable>) {one_shot = true}
    %s = tle.pipe.writer_acquire %p : !once
    %view = tle.pipe.slot %p[%s] field "x" : !once -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    ttg.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tle.pipe.writer_commit %p[%s] : !once
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %r, %c = tle.pipe.reader_wait %p reader "a" : !once
      tle.warp_return
    }
    partition1() num_warps(1) {
      %r, %c = tle.pipe.reader_wait %p reader "b" : !once
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Close: a closed flag per slot, 0 at each commit, 1 at the close; the reader
// reads it after its wait.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!s = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @close(
  tt.func @close(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) -> i1 {
    // CHECK: %[[FLAGS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi32, #shared, #smem, mutable>
    %p = tle.pipe.create "s" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    %r = tle.warp_specialize()
    default {
      // CHECK: ttng.wait_barrier
      // CHECK: %[[F:.*]] = ttg.memdesc_index %[[FLAGS]]
      // CHECK-NEXT: %[[T:.*]] = ttg.local_load %[[F]] : !ttg.memdesc<1xi32, #shared, #smem, mutable> -> tensor<1xi32, #blocked>
      // CHECK-NEXT: %[[U:.*]] = tt.unsplat %[[T]]
      // CHECK: %[[CLOSED:.*]] = arith.cmpi ne, %[[U]]
      // CHECK: tle.warp_yield %[[CLOSED]] : i1
      %s, %c = tle.pipe.reader_wait %p reader "r" : !s
      tle.pipe.reader_release %p[%s] reader "r" : !s
      tle.warp_yield %c : i1
    }
    partition0() num_warps(1) {
      // CHECK: partition0() num_warps(1)
      // CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<1xi32, #blocked>
      // CHECK-NEXT: ttg.memdesc_index
      // CHECK-NEXT: ttg.local_store %[[ZERO]]
      // CHECK: ttng.arrive_barrier
      // CHECK: ttng.wait_barrier
      // CHECK: %[[ONE:.*]] = arith.constant dense<1> : tensor<1xi32, #blocked>
      // CHECK-NEXT: ttg.memdesc_index
      // CHECK-NEXT: ttg.local_store %[[ONE]]
      // CHECK: ttng.arrive_barrier
      %s = tle.pipe.writer_acquire %p : !s
      tle.pipe.writer_commit %p[%s] : !s
      tle.pipe.writer_close %p : !s
      tle.warp_return
    } : () -> i1
    tt.return %r : i1
  }
}

// -----

// The default region returns what it reduced from the pipe: the slot counter
// joins the loop's iter_args next to the sum, the op yields the sum, and the
// barriers are invalidated after the op, before the epilogue that uses it.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @sum_result(
  // CHECK-SAME: %[[OUT:[^:]*]]: tensor<128x!tt.ptr<f32>, #blocked>
  tt.func @sum_result(%out: tensor<128x!tt.ptr<f32>, #blocked>, %buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %n: i32, %v: tensor<128xf32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128xf32, #blocked>
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    // CHECK: %[[WS:.*]] = tle.warp_specialize()
    // CHECK-NEXT: default {
    // CHECK: %[[LOOP:.*]]:2 = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[RC:.*]] = %{{.*}}) -> (tensor<128xf32, #blocked>, i32)
    // CHECK: ttng.wait_barrier
    // CHECK: %[[X:.*]] = ttg.local_load
    // CHECK: ttng.arrive_barrier
    // CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]]
    // CHECK: scf.yield %[[SUM]], %{{.*}} : tensor<128xf32, #blocked>, i32
    // CHECK: tle.warp_yield %[[LOOP]]#0 : tensor<128xf32, #blocked>
    // CHECK: } : () -> tensor<128xf32, #blocked>
    // CHECK-COUNT-4: ttng.inval_barrier
    // CHECK-NEXT: tt.store %[[OUT]], %[[WS]]
    // CHECK-NEXT: tt.return
    %r = tle.warp_specialize()
    default {
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32, #blocked>) : i32 {
        %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
        %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        %x = ttg.local_load %view : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
        tle.pipe.reader_release %p[%s] reader "c" : !ring
        %next = arith.addf %acc, %x : tensor<128xf32, #blocked>
        scf.yield %next : tensor<128xf32, #blocked>
      }
      tle.warp_yield %sum : tensor<128xf32, #blocked>
    }
    partition0() num_warps(1) {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %p : !ring
        %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        ttg.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
        tle.pipe.writer_commit %p[%s] : !ring
      }
      tle.warp_return
    } : () -> tensor<128xf32, #blocked>
    tt.store %out, %r : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// tle.gpu.copy(is_async=True) into a buffer that is no pipe slot (FlagTree's
// transport-level copy): the tagged load and its store become tle.async_copy,
// which triton-tle-lower-barriers makes a cp.async the kernel's commit / wait
// groups complete.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32} {
  // CHECK-LABEL: tt.func @async_copy_into_plain_buffer(
  // CHECK-SAME: %[[BUF:[^:]*]]: !ttg.memdesc<128xf32
  tt.func @async_copy_into_plain_buffer(%buf: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) {
    // CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<128x!tt.ptr<f32>
    // CHECK-NOT: tle.async_copy}
    // CHECK-NEXT: tle.async_copy %[[V]], %[[BUF]] : tensor<128xf32, #{{.*}}>, !ttg.memdesc<128xf32
    // CHECK-NEXT: tle.async_commit_group
    %v = tt.load %ptrs {tle.async_copy} : tensor<128x!tt.ptr<f32>, #blocked>
    tle.local_store %v, %buf : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tle.async_commit_group
    tt.return
  }
}

// -----

// A one-shot pipe written and read in one partition (FlagTree's FlashMLA
// prefill hands its Q tile to itself and to a second warpgroup): the writer
// never waits, its commit arrives on the ready barrier, and its own reader
// then waits on it like the other reader.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!once = !tle.pipe<capacity = 1, fields = [x: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>], readers = [a, b], one_shot>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @write_and_read_once(
  // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x1xi64
  // CHECK: default {
  // CHECK: ttg.local_store
  // CHECK: ttng.arrive_barrier
  // CHECK: %[[R:.*]] = ttg.memdesc_index %[[READY]]
  // CHECK-NEXT: ttng.wait_barrier %[[R]]
  // CHECK: ttg.local_load
  // CHECK: partition0() num_warps(4)
  // CHECK: ttng.wait_barrier
  // CHECK: ttg.local_load
  tt.func @write_and_read_once(%buf: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>, %v: tensor<128xf32, #blocked>) {
    %p = tle.pipe.create "once" capacity 1 readers ["a", "b"] fields(x = %buf : !ttg.memdesc<1x128xf32, #shared, #smem, mutable>) {one_shot = true}
    tle.warp_specialize()
    default {
      %w = tle.pipe.writer_acquire %p : !once
      %wv = tle.pipe.slot %p[%w] field "x" : !once -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      ttg.local_store %v, %wv : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.pipe.writer_commit %p[%w] : !once
      %s, %c = tle.pipe.reader_wait %p reader "a" : !once
      %rv = tle.pipe.slot %p[%s] field "x" : !once -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      %x = ttg.local_load %rv : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s, %c = tle.pipe.reader_wait %p reader "b" : !once
      %rv = tle.pipe.slot %p[%s] field "x" : !once -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      %x = ttg.local_load %rv : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A block of a slot (a ttg.memdesc_subslice the local-pointer passes made
// of a rectangle) follows the slot view when the field is laid out again
// with the order of one slot.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x32x64xf32, #rows, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[SLOT:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
  // CHECK-LABEL: tt.func @block_of_slot(
  tt.func @block_of_slot(%v: tensor<32x32xf32, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x32x64xf32, #rows, #smem, mutable>
    %p = tle.pipe.create "kv" capacity 1 readers ["c"] fields(k = %buf : !ttg.memdesc<1x32x64xf32, #rows, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: %[[VIEW:.*]] = ttg.memdesc_index %{{.*}} : !ttg.memdesc<1x32x64xf32, #[[SLOT]], #smem, mutable> -> !ttg.memdesc<32x64xf32, #[[SLOT]], #smem, mutable>
      // CHECK-NEXT: %[[BLK:.*]] = ttg.memdesc_subslice %[[VIEW]][0, 32] : !ttg.memdesc<32x64xf32, #[[SLOT]], #smem, mutable> -> !ttg.memdesc<32x32xf32, #[[SLOT]], #smem, mutable, 32x64>
      // CHECK-NEXT: ttg.local_load %[[BLK]]
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !kv
      %view = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<32x64xf32, #rows, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 32] : !ttg.memdesc<32x64xf32, #rows, #smem, mutable> -> !ttg.memdesc<32x32xf32, #rows, #smem, mutable, 32x64>
      %x = ttg.local_load %blk : !ttg.memdesc<32x32xf32, #rows, #smem, mutable, 32x64> -> tensor<32x32xf32, #blocked>
      tle.pipe.reader_release %p[%s] reader "c" : !kv
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !kv
      %view = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<32x64xf32, #rows, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 32] : !ttg.memdesc<32x64xf32, #rows, #smem, mutable> -> !ttg.memdesc<32x32xf32, #rows, #smem, mutable, 32x64>
      ttg.local_store %v, %blk : tensor<32x32xf32, #blocked> -> !ttg.memdesc<32x32xf32, #rows, #smem, mutable, 32x64>
      tle.pipe.writer_commit %p[%s] : !kv
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
