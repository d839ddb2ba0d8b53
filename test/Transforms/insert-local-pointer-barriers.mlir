// RUN: tle-opt %s -split-input-file -triton-tle-insert-local-pointer-barriers | FileCheck %s

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Store then load through local pointers (RAW): one barrier between.
  // CHECK-LABEL: tt.func @store_load(
  // CHECK: tt.store %[[P:.+]], %arg1 :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load %[[P]] :
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @store_load(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // Load then load (no writer) and a store through a derived pointer
  // (splat + addptr of a scalar pointer) after them (WAR): one barrier.
  // CHECK-LABEL: tt.func @read_read_write(
  // CHECK: tt.load
  // CHECK-NEXT: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.addptr
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store %{{.+}}, %arg1 :
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
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

  // Atomics after atomics need nothing; a load after them does.
  // CHECK-LABEL: tt.func @atomics(
  // CHECK: tt.atomic_rmw add
  // CHECK-NEXT: tt.atomic_rmw max
  // CHECK-NEXT: tt.atomic_cas
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
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

  // An existing barrier between the accesses is reused.
  // CHECK-LABEL: tt.func @existing_barrier(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
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

  // Two different buffers do not conflict; an arith.select of pointers into
  // both conflicts with each.
  // CHECK-LABEL: tt.func @two_buffers(
  // CHECK: tt.store %[[PA:[^,]+]], %arg1 :
  // CHECK-NEXT: tt.load %[[PB:[^ ]+]] :
  // CHECK-NEXT: arith.select
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
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

  // A pointer of unknown provenance (an argument) conflicts with every
  // buffer.
  // CHECK-LABEL: tt.func @unknown_provenance(
  // CHECK: tt.store %arg3, %arg1 :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load
  tt.func @unknown_provenance(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>, %q: tensor<128x!tt.ptr<f32, 3>, #b>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %pa = tle.local_pointers %a[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %q, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %v = tt.load %pa : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // Memdesc buffers are Triton's business; a pointer buffer's memdesc
  // accesses are not.
  // CHECK-LABEL: tt.func @memdesc_accesses(
  // CHECK: tle.local_store %arg1, %[[M:[^ ]+]] :
  // CHECK-NEXT: tle.local_load %[[M]] :
  // CHECK-NEXT: tle.local_store %arg1, %[[P:[^ ]+]] :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tle.local_load %[[P]] :
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
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

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Load at the top of a loop, store at the bottom: WAR inside the
  // iteration (before the store) and RAW across the back edge (at the end
  // of the body, before scf.yield). Nothing before or after the loop.
  // CHECK-LABEL: tt.func @loop(
  // CHECK-NOT: gpu.barrier
  // CHECK: scf.for
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: }
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @loop(%idx: tensor<128xi32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
      %w = arith.addf %v, %v : tensor<128xf32, #b>
      tt.store %p, %w : tensor<128x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }

  // A store before the loop and loads inside: one barrier before the loop,
  // none inside (read-only body).
  // CHECK-LABEL: tt.func @hoisted(
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: scf.for
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @hoisted(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %n: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
      tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }

  // Pointers carried by a loop: the iter arg points into the buffer; a store
  // through it at the bottom and a load at the top of the next iteration.
  // CHECK-LABEL: tt.func @iter_arg(
  // CHECK: scf.for
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tt.addptr
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: scf.yield
  tt.func @iter_arg(%idx: tensor<128xi32, #b>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (tensor<128x!tt.ptr<f32, 3>, #b>) : i32 {
      %v = tt.load %q : tensor<128x!tt.ptr<f32, 3>, #b>
      %q1 = tt.addptr %q, %idx : tensor<128x!tt.ptr<f32, 3>, #b>, tensor<128xi32, #b>
      tt.store %q1, %v : tensor<128x!tt.ptr<f32, 3>, #b>
      scf.yield %q1 : tensor<128x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }

  // A while loop: load in the before region, store in the after region.
  // CHECK-LABEL: tt.func @while_loop(
  // CHECK: scf.while
  // CHECK-NEXT: tt.load
  // CHECK: do
  // CHECK: gpu.barrier
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: scf.yield
  tt.func @while_loop(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %c: i1) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    scf.while : () -> () {
      %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
      scf.condition(%c)
    } do {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
      scf.yield
    }
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A store in one branch, a load after the if: barrier after the if.
  // CHECK-LABEL: tt.func @if_then_store(
  // CHECK: scf.if
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load
  tt.func @if_then_store(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %c: i1, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    scf.if %c {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    }
    %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // Store in then, load in else: never both on one path, no barrier. Both
  // branches end with a barrier: none after the if either.
  // CHECK-LABEL: tt.func @if_else(
  // CHECK: scf.if
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: } else {
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: }
  // CHECK-NEXT: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.return
  tt.func @if_else(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %c: i1, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    scf.if %c {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
      gpu.barrier
    } else {
      %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
      tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
      gpu.barrier
    }
    %w = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %w : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // A conflict inside a branch gets its barrier inside the branch.
  // CHECK-LABEL: tt.func @inside_branch(
  // CHECK: scf.if
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.load
  tt.func @inside_branch(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %c: i1, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    scf.if %c {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
      %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
      tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Local store, then a remote load of the same buffer (a peer's copy):
  // cluster barrier (not gpu.barrier); and one before the return since the
  // remote load may still be pending.
  // CHECK-LABEL: tt.func @local_then_remote(
  // CHECK: tt.store %[[P:[^,]+]], %arg1 :
  // CHECK-NEXT: tle.remote_pointers cluster
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.return
  // CHECK-NOT: gpu.barrier
  tt.func @local_then_remote(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // Remote load, then a local store (a peer may still read it): cluster
  // barrier. After it no remote access is pending: no exit barrier.
  // CHECK-LABEL: tt.func @remote_then_local_write(
  // CHECK: tt.load
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.store %{{.+}}, %arg1 : tensor<128x!tt.ptr<f32, 3>
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: tt.return
  tt.func @remote_then_local_write(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // Remote store, then a local load (RAW across CTAs): cluster barrier.
  // CHECK-LABEL: tt.func @remote_write_then_local_read(
  // CHECK: tt.store %{{.+}}, %arg1 : tensor<128x!tt.ptr<f32, 7>
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.load
  // CHECK-NOT: ttng.cluster_wait
  // CHECK: tt.return
  tt.func @remote_write_then_local_read(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %r, %x : tensor<128x!tt.ptr<f32, 7>, #b>
    %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tt.return
  }

  // Remote atomics need no barrier among themselves; the exit barrier is
  // reused when the kernel already ends with a cluster barrier after them.
  // CHECK-LABEL: tt.func @remote_atomics_existing_exit(
  // CHECK: tt.atomic_rmw add
  // CHECK-NEXT: tt.atomic_rmw add
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.return
  tt.func @remote_atomics_existing_exit(%idx: tensor<128xi32, #b>, %x: tensor<128xi32, #b>, %peer: i32) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xi32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xi32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<i32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<i32, 3>, #b> -> tensor<128x!tt.ptr<i32, 7>, #b>
    %a = tt.atomic_rmw add, relaxed, cta, %r, %x : (tensor<128x!tt.ptr<i32, 7>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    %a2 = tt.atomic_rmw add, relaxed, cta, %r, %x : (tensor<128x!tt.ptr<i32, 7>, #b>, tensor<128xi32, #b>) -> tensor<128xi32, #b>
    ttng.cluster_arrive {relaxed = false}
    ttng.cluster_wait
    tt.return
  }

  // tle.distributed_barrier cluster also counts; a remote access in a loop
  // still pending at the return gets the exit barrier.
  // CHECK-LABEL: tt.func @remote_in_loop(
  // CHECK: tle.distributed_barrier cluster
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: }
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.return
  tt.func @remote_in_loop(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %peer: i32, %n: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    tle.distributed_barrier cluster
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
      tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    }
    tt.return
  }

  // A sub-mesh barrier counts as a cluster barrier (the user's remote
  // accesses stay inside the sub-mesh): none is added before the remote
  // load or at the return.
  // CHECK-LABEL: tt.func @remote_after_submesh_barrier(
  // CHECK: tt.store
  // CHECK-NEXT: tle.remote_pointers
  // CHECK-NEXT: tle.distributed_barrier submesh
  // CHECK-NEXT: tt.load
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: tle.distributed_barrier submesh
  // CHECK-NEXT: tt.return
  tt.func @remote_after_submesh_barrier(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]> at {cx = 0 : i64}
    %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]> at {cx = 0 : i64}
    tt.return
  }
}

// -----

// A cluster barrier goes where every CTA of the cluster runs: a conflict
// inside a branch on the CTA's shard id (rank 0 writes the slot the others
// read) gets its barrier before the branch, not inside it (there it would
// pair with the other CTAs' next cluster barrier); a branch on a kernel
// argument is cluster-uniform and keeps it inside; a loop whose bounds are
// arguments is uniform too.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @rank0_writes_in_loop(
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK-NEXT: tt.store %arg3
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: }
  // CHECK-NEXT: tle.distributed_barrier cluster
  tt.func @rank0_writes_in_loop(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %n: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %c0 : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %rank = tle.shard_id #mesh, "cx"
    %is0 = arith.cmpi eq, %rank, %c0 : i32
    tle.distributed_barrier cluster
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
      tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
      scf.if %is0 {
        tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
      }
      tle.distributed_barrier cluster
    }
    tt.return
  }

  // CHECK-LABEL: tt.func @uniform_branch(
  // CHECK: tt.load
  // CHECK-NEXT: tt.store %arg4
  // CHECK-NEXT: arith.cmpi
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.store
  tt.func @uniform_branch(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %flag: i32, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    %on = arith.cmpi ne, %flag, %c0 : i32
    scf.if %on {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }

  // A branch on loaded data is taken to be cluster-uniform (as around
  // tle.distributed_barrier): the barrier stays inside.
  // CHECK-LABEL: tt.func @data_branch(
  // CHECK: scf.if
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: tt.store
  tt.func @data_branch(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %flag: !tt.ptr<i32>, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    %f = tt.load %flag : !tt.ptr<i32>
    %on = arith.cmpi ne, %f, %c0 : i32
    scf.if %on {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }

  // A branch on the program id is not cluster-uniform either (the CTAs of
  // a cluster have different ids).
  // CHECK-LABEL: tt.func @program_id_branch(
  // CHECK: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: tt.store
  // CHECK-NEXT: }
  tt.func @program_id_branch(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %peer: i32, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %peer : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %v = tt.load %r : tensor<128x!tt.ptr<f32, 7>, #b>
    tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    %pid = tt.get_program_id x : i32
    %even = arith.cmpi eq, %pid, %c0 : i32
    scf.if %even {
      tt.store %p, %x : tensor<128x!tt.ptr<f32, 3>, #b>
    }
    tt.return
  }
}
