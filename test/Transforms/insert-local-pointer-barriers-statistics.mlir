// RUN: tle-opt %s -triton-tle-insert-local-pointer-barriers -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s

// The functions of insert-local-pointer-barriers.mlir's first module: seven
// CTA barriers inserted (one in each function, two in @memdesc_accesses;
// @existing_barrier's own barrier is not counted), no cluster barrier.
// CHECK: TLEInsertLocalPointerBarriers
// CHECK-DAG: (S) 7 cta-barriers - gpu.barrier ops inserted
// CHECK-DAG: (S) 0 cluster-barriers - Cluster barriers (arrive + wait) inserted

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @store_load(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  tt.func @read_read_write(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %i: i32) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    %w = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    %s = tle.local_pointers %buf[%i] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, i32 -> !tt.ptr<f32, 3>
    %q0 = tt.splat %s : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %q = tt.addptr %q0, %idx : tensor<128x!tt.ptr<f32, 3>, #b>, tensor<128xi32, #b>
    tt.store %q, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.return
  }

  tt.func @atomics(%idx: tensor<128xi32, #b>, %x: tensor<128xi32, #b>, %out: tensor<128x!tt.ptr<i32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<i32, 3>, #b>
    %a = tt.atomic_rmw add, relaxed, cta, %p, %x : (tensor<128x!tt.ptr<i32, 3>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %m = tt.atomic_rmw max, relaxed, cta, %p, %x : (tensor<128x!tt.ptr<i32, 3>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %c = tt.atomic_cas relaxed, cta, %p, %x, %x : (tensor<128x!tt.ptr<i32, 3>, #b>, tensor<128xi32, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %v = tt.load %p : tensor<128x!tt.ptr<i32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<i32>, #b>
    tt.return
  }

  tt.func @existing_barrier(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    gpu.barrier
    %j = arith.addi %idx, %idx : tensor<128xi32, #b>
    %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  tt.func @two_buffers(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %c: i1, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %bb = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pa = tle.local_pointers %a[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %pb = tle.local_pointers %bb[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %pa, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %pb : tensor<128x!tt.ptr<f32, 3>, #b>
    %ps = arith.select %c, %pa, %pb : tensor<128x!tt.ptr<f32, 3>, #b>
    %w = tt.load %ps : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.store %out, %w : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  tt.func @unknown_provenance(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>, %q: tensor<128x!tt.ptr<f32, 3>, #b>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pa = tle.local_pointers %a[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %q, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %pa : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  tt.func @memdesc_accesses(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %m = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pb = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pp = tle.local_pointers %pb[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tle.local_store %x, %m : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %v = tle.local_load %m : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #b>
    tle.local_store %x, %pb : tensor<128xf32, #b> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %w = tle.local_load %pb : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #b>
    tt.store %pp, %v : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %w : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }
}

