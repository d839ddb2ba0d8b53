// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes | FileCheck %s --implicit-check-not=tle.pipe --implicit-check-not=tle.async_copy

// Asynchronous slot fills (tle.gpu.copy(is_async=True)): a tt.load tagged
// tle.async_copy whose value is stored whole into a writer's slot view
// becomes one ttg.async_copy_global_to_local into the slot, at the store
// (after the acquire that freed it). The commit then arrives on the slot's
// ready barrier from every thread when its copies land (no wait in the
// writer; .noinc, so the barrier expects the writer's 128 threads plus the
// elected arrive: 129), and the reader fences the async proxy after its wait
// (the wgmma reading the slot).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @fill(
  // CHECK-SAME: %[[BUF:[^:]*]]: !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>, %[[N:[^:]*]]: i32, %[[PTRS:[^:]*]]: tensor<64x64x!tt.ptr<bf16>, #blocked>)
  tt.func @fill(%buf: !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>, %n: i32, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[READY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    // CHECK: %[[EMPTY:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    // CHECK: %[[R0:.*]] = ttg.memdesc_index %[[READY]]
    // CHECK-NEXT: ttng.init_barrier %[[R0]], 129
    // CHECK: %[[E0:.*]] = ttg.memdesc_index %[[EMPTY]]
    // CHECK-NEXT: ttng.init_barrier %[[E0]], 1
    // CHECK: %[[R1:.*]] = ttg.memdesc_index %[[READY]]
    // CHECK-NEXT: ttng.init_barrier %[[R1]], 129
    %p = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: default {
      // CHECK: %[[RB:.*]] = ttg.memdesc_index %[[READY]][%[[RS:.*]]]
      // CHECK-NEXT: ttng.wait_barrier %[[RB]]
      // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
      // CHECK: ttg.local_load
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s, %closed = tle.pipe.reader_wait %p reader "mma" : !kv
        %view = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
        %x = ttg.local_load %view : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
        tle.pipe.reader_release %p[%s] reader "mma" : !kv
      }
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // CHECK: partition0() num_warps(4)
      // CHECK-NOT: tt.load
      // CHECK: ttng.wait_barrier
      // CHECK: %[[SLOT:.*]] = ttg.memdesc_index %[[BUF]][%[[WS:.*]]]
      // CHECK-NEXT: %{{.*}} = ttg.async_copy_global_to_local %[[PTRS]], %[[SLOT]] : tensor<64x64x!tt.ptr<bf16>, #blocked> -> <64x64xbf16, #shared, #smem, mutable>
      // CHECK-NOT: ttg.local_store
      // CHECK: %[[AB:.*]] = ttg.memdesc_index %[[READY]][%[[WS]]]
      // CHECK-NEXT: ttng.async_copy_mbarrier_arrive %[[AB]] {noIncrement} :
      // CHECK-NEXT: gpu.barrier
      // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
      // CHECK-NEXT: %[[RW:.*]] = ttg.memdesc_index %[[READY]][%[[WS]]]
      // CHECK-NEXT: ttng.arrive_barrier %[[RW]], 1
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %p : !kv
        %v = tt.load %ptrs {tle.async_copy} : tensor<64x64x!tt.ptr<bf16>, #blocked>
        %view = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
        tle.local_store %v, %view : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
        tle.pipe.writer_commit %p[%s] : !kv
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A load with other users keeps them: the copy still reads the pointers.
// Loads whose layout gives a thread fewer than 4 contiguous bytes (cp.async
// copies 4, 8 or 16) stay a synchronous load and store, untagged, and the
// pipe is then filled as usual (no async arrive, no reader fence).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @narrow(
  tt.func @narrow(%buf: !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>) {
    // The ready barriers expect the elected arrive only.
    // CHECK-COUNT-4: ttng.init_barrier %{{.*}}, 1 :
    // CHECK-NOT: ttng.init_barrier
    %p = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x64x64xbf16, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: ttng.wait_barrier
      // CHECK-NOT: ttng.fence_async_shared
      // CHECK: tle.warp_yield
      %s, %closed = tle.pipe.reader_wait %p reader "mma" : !kv
      tle.pipe.reader_release %p[%s] reader "mma" : !kv
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<64x64x!tt.ptr<bf16>, #blocked>
      // CHECK: tle.local_store %[[V]], %{{.*}} :
      // CHECK-NOT: ttng.async_copy_mbarrier_arrive
      // CHECK: ttng.arrive_barrier
      %s = tle.pipe.writer_acquire %p : !kv
      %v = tt.load %ptrs {tle.async_copy} : tensor<64x64x!tt.ptr<bf16>, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      tle.local_store %v, %view : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !kv
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// The ready barrier's count follows the writer's partition, not the module:
// a one-warp writer arrives from 32 threads (.noinc), plus the elected arrive.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 3, fields = [x: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @one_warp_writer(
  tt.func @one_warp_writer(%buf: !ttg.memdesc<3x128xf32, #shared, #smem, mutable>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) {
    // Per slot: ready (33), then empty (the one reader).
    // CHECK-COUNT-3: ttng.init_barrier %{{[^,]*}}, 33 :{{.*}}
    // CHECK-NEXT: ttg.memdesc_index
    // CHECK-NEXT: ttng.init_barrier %{{[^,]*}}, 1 :
    // CHECK-NOT: ttng.init_barrier
    %p = tle.pipe.create "ring" capacity 3 readers ["r"] fields(x = %buf : !ttg.memdesc<3x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "r" : !ring
      tle.pipe.reader_release %p[%s] reader "r" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // CHECK: partition0() num_warps(1)
      // CHECK: ttg.async_copy_global_to_local
      // CHECK: ttng.async_copy_mbarrier_arrive %{{.*}} {noIncrement}
      %s = tle.pipe.writer_acquire %p : !ring
      %v = tt.load %ptrs {tle.async_copy} : tensor<128x!tt.ptr<f32>, #blocked>
      %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A close of an async-filled pipe is a commit without data: its slot's ready
// barrier expects the writer's 32 .noinc arrivals too, so the close issues
// them (each thread arrives at once, or when its last copies land) before
// the elected arrive; without them the reader's wait for the closed slot
// would never complete.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @close_async(
  tt.func @close_async(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) {
    // CHECK-COUNT-2: ttng.init_barrier %{{[^,]*}}, 33 :
    %p = tle.pipe.create "ring" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    %r = tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "r" : !ring
      tle.pipe.reader_release %p[%s] reader "r" : !ring
      tle.warp_yield %closed : i1
    }
    partition0() num_warps(1) {
      // CHECK: partition0() num_warps(1)
      // The commit.
      // CHECK: ttg.async_copy_global_to_local
      // CHECK: ttng.async_copy_mbarrier_arrive %{{.*}} {noIncrement}
      // CHECK: ttng.arrive_barrier
      // The close: the flag, the writer's arrivals, the elected arrive.
      // CHECK: ttg.local_store
      // CHECK: %[[CB:.*]] = ttg.memdesc_index
      // CHECK-NEXT: ttng.async_copy_mbarrier_arrive %[[CB]] {noIncrement}
      // CHECK: ttng.arrive_barrier
      // CHECK-NOT: ttng.arrive_barrier
      // CHECK: tle.warp_return
      %s = tle.pipe.writer_acquire %p : !ring
      %v = tt.load %ptrs {tle.async_copy} : tensor<128x!tt.ptr<f32>, #blocked>
      %view = tle.pipe.slot %p[%s] field "x" : !ring -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !ring
      tle.pipe.writer_close %p : !ring
      tle.warp_return
    } : () -> i1
    tt.return
  }
}
