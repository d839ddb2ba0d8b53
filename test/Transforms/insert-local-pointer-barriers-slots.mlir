// RUN: tle-opt %s -split-input-file -triton-tle-insert-local-pointer-barriers | FileCheck %s

// Multi-buffered slots indexed by the loop: within one iteration, slot
// `i % 2` and slot `(i + 1) % 2` are different slots (two residues of one
// base whose constants differ modulo 2), so a read of one and a write of
// the other need no barrier between them; across the back edge the slot
// terms take other values and a barrier at the end of the body remains.
// Remote (cluster) accesses are compared the same way when their terms are
// the same in every CTA (no program id). An inner loop with constant bounds
// is summarized over its iterations when its footprints leave it.

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 2 : i32} {
  // Ping-pong in one CTA: read slot i % 2, write slot (i + 1) % 2. No
  // barrier between them; one at the end of the body (the next iteration
  // reads what this one wrote).
  // CHECK-LABEL: tt.func @pingpong(
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: }
  tt.func @pingpong(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64xi32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %i, %c2 : i32
      %i1 = arith.addi %i, %c1 : i32
      %t = arith.remsi %i1, %c2 : i32
      %ss = tt.splat %s : i32 -> tensor<64xi32, #b>
      %ts = tt.splat %t : i32 -> tensor<64xi32, #b>
      %pr = tle.local_pointers %buf[%ss, %r] : !ttg.memdesc<2x64xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %pw = tle.local_pointers %buf[%ts, %r] : !ttg.memdesc<2x64xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %v = tt.load %pr : tensor<64x!tt.ptr<i32, 3>, #b>
      tt.store %pw, %v : tensor<64x!tt.ptr<i32, 3>, #b>
    }
    tt.return
  }

  // Slot (i + 2) % 2 is slot i % 2: the write meets the read, barrier.
  // CHECK-LABEL: tt.func @same_slot(
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @same_slot(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64xi32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %i, %c2 : i32
      %i2 = arith.addi %i, %c2 : i32
      %t = arith.remsi %i2, %c2 : i32
      %ss = tt.splat %s : i32 -> tensor<64xi32, #b>
      %ts = tt.splat %t : i32 -> tensor<64xi32, #b>
      %pr = tle.local_pointers %buf[%ss, %r] : !ttg.memdesc<2x64xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %pw = tle.local_pointers %buf[%ts, %r] : !ttg.memdesc<2x64xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %v = tt.load %pr : tensor<64x!tt.ptr<i32, 3>, #b>
      tt.store %pw, %v : tensor<64x!tt.ptr<i32, 3>, #b>
    }
    tt.return
  }

  // Four slots, unsigned residues (i % 4 and (i + 2) % 4): they differ by
  // 2 or -2 slots, never 0, and each access stays inside its slot (columns
  // 0..63 and 128..191 of 256): no barrier between them.
  // CHECK-LABEL: tt.func @four_slots(
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK-NOT: gpu.barrier
  // CHECK: tt.store
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: }
  tt.func @four_slots(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    %k = arith.constant dense<128> : tensor<64xi32, #b>
    %buf = tle.alloc smem : () -> !ttg.memdesc<4x256xi32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %r2 = arith.addi %r, %k : tensor<64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remui %i, %c4 : i32
      %i2 = arith.addi %i, %c2 : i32
      %t = arith.remui %i2, %c4 : i32
      %ss = tt.splat %s : i32 -> tensor<64xi32, #b>
      %ts = tt.splat %t : i32 -> tensor<64xi32, #b>
      %pr = tle.local_pointers %buf[%ss, %r] : !ttg.memdesc<4x256xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %pw = tle.local_pointers %buf[%ts, %r2] : !ttg.memdesc<4x256xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %v = tt.load %pr : tensor<64x!tt.ptr<i32, 3>, #b>
      tt.store %pw, %v : tensor<64x!tt.ptr<i32, 3>, #b>
    }
    tt.return
  }

  // Residues of different bases (i % 2 and j % 2, j another argument):
  // nothing proven.
  // CHECK-LABEL: tt.func @other_base(
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.store
  tt.func @other_base(%n: i32, %j: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64xi32, #shared, #smem, mutable>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %i, %c2 : i32
      %j1 = arith.addi %j, %c1 : i32
      %t = arith.remsi %j1, %c2 : i32
      %ss = tt.splat %s : i32 -> tensor<64xi32, #b>
      %ts = tt.splat %t : i32 -> tensor<64xi32, #b>
      %pr = tle.local_pointers %buf[%ss, %r] : !ttg.memdesc<2x64xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %pw = tle.local_pointers %buf[%ts, %r] : !ttg.memdesc<2x64xi32, #shared, #smem, mutable>, tensor<64xi32, #b>, tensor<64xi32, #b> -> tensor<64x!tt.ptr<i32, 3>, #b>
      %v = tt.load %pr : tensor<64x!tt.ptr<i32, 3>, #b>
      tt.store %pw, %v : tensor<64x!tt.ptr<i32, 3>, #b>
    }
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.num-ctas" = 2 : i32} {
  // FlagTree's cluster-GEMM order: every CTA reads rank 0's slot i % 2
  // (through cluster pointers, in an inner loop over column pieces with
  // constant bounds), then rank 0 refills slot (i + 1) % 2, then the
  // step's own cluster barrier. The refill is of the other slot: no
  // cluster barrier before its branch (NVMMA-swizzled slots: footprints in
  // logical offsets).
  // CHECK-LABEL: tt.func @cluster_refill(
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK: }
  // CHECK-NOT: ttng.cluster_arrive
  // CHECK: scf.if
  // CHECK: tt.store
  // CHECK: }
  // CHECK-NEXT: tle.distributed_barrier
  tt.func @cluster_refill(%n: i32, %x: tensor<64x64xf16, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c16 = arith.constant 16 : i32
    %c64 = arith.constant 64 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %rank = tle.shard_id #mesh, "cx"
    %is0 = arith.cmpi eq, %rank, %c0 : i32
    %rr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %rr {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %rows = tt.broadcast %re : tensor<1x64xi32, #b> -> tensor<16x64xi32, #b>
    %cr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %rows64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %r64e = tt.expand_dims %rows64 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %r64 = tt.broadcast %r64e : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %c64e = tt.expand_dims %rr {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %cols64 = tt.broadcast %c64e : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %i, %c2 : i32
      %ss = tt.splat %s : i32 -> tensor<16x64xi32, #b>
      scf.for %ks = %c0 to %c64 step %c16 : i32 {
        %ksp = tt.splat %ks : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
        %kc = arith.addi %ksp, %cr : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
        %kce = tt.expand_dims %kc {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<16x1xi32, #b>
        %cols = tt.broadcast %kce : tensor<16x1xi32, #b> -> tensor<16x64xi32, #b>
        %p = tle.local_pointers %buf[%ss, %rows, %cols] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, tensor<16x64xi32, #b>, tensor<16x64xi32, #b>, tensor<16x64xi32, #b> -> tensor<16x64x!tt.ptr<f16, 3>, #b>
        %q = tle.remote_pointers cluster %p, %c0 : tensor<16x64x!tt.ptr<f16, 3>, #b> -> tensor<16x64x!tt.ptr<f16, 7>, #b>
        %a = tt.load %q : tensor<16x64x!tt.ptr<f16, 7>, #b>
      }
      scf.if %is0 {
        %i1 = arith.addi %i, %c1 : i32
        %t = arith.remsi %i1, %c2 : i32
        %ts = tt.splat %t : i32 -> tensor<64x64xi32, #b>
        %w = tle.local_pointers %buf[%ts, %r64, %cols64] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b> -> tensor<64x64x!tt.ptr<f16, 3>, #b>
        tt.store %w, %x : tensor<64x64x!tt.ptr<f16, 3>, #b>
      }
      tle.distributed_barrier cluster mesh #mesh
    }
    tt.return
  }

  // The same with the slot taken from the CTA's rank (rank % 2 against
  // (rank + 1) % 2): the two CTAs' values differ, so the read by one CTA
  // and the write by another are not proven apart: a cluster barrier before
  // the branch (where every CTA runs).
  // CHECK-LABEL: tt.func @cluster_rank_slots(
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK: ttng.cluster_arrive
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: scf.if
  tt.func @cluster_rank_slots(%n: i32, %x: tensor<64x64xf16, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %rank = tle.shard_id #mesh, "cx"
    %is0 = arith.cmpi eq, %rank, %c0 : i32
    %rr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %rr {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %cols64 = tt.broadcast %re : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %rows64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %r64e = tt.expand_dims %rows64 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %r64 = tt.broadcast %r64e : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %rank, %c2 : i32
      %ss = tt.splat %s : i32 -> tensor<64x64xi32, #b>
      %p = tle.local_pointers %buf[%ss, %r64, %cols64] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b> -> tensor<64x64x!tt.ptr<f16, 3>, #b>
      %q = tle.remote_pointers cluster %p, %c0 : tensor<64x64x!tt.ptr<f16, 3>, #b> -> tensor<64x64x!tt.ptr<f16, 7>, #b>
      %a = tt.load %q : tensor<64x64x!tt.ptr<f16, 7>, #b>
      scf.if %is0 {
        %r1 = arith.addi %rank, %c1 : i32
        %t = arith.remsi %r1, %c2 : i32
        %ts = tt.splat %t : i32 -> tensor<64x64xi32, #b>
        %w = tle.local_pointers %buf[%ts, %r64, %cols64] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b> -> tensor<64x64x!tt.ptr<f16, 3>, #b>
        tt.store %w, %x : tensor<64x64x!tt.ptr<f16, 3>, #b>
      }
      tle.distributed_barrier cluster mesh #mesh
    }
    tt.return
  }

  // An inner loop with a bound known only at run time is not summarized:
  // its reads' footprints (with the inner induction variable) are unknown
  // once they leave it, and the refill gets its cluster barrier.
  // CHECK-LABEL: tt.func @cluster_runtime_inner(
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: tt.load
  // CHECK: }
  // CHECK-NEXT: ttng.cluster_arrive
  // CHECK-NEXT: ttng.cluster_wait
  // CHECK-NEXT: scf.if
  tt.func @cluster_runtime_inner(%n: i32, %m: i32, %x: tensor<64x64xf16, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c16 = arith.constant 16 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>
    %rank = tle.shard_id #mesh, "cx"
    %is0 = arith.cmpi eq, %rank, %c0 : i32
    %rr = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>>
    %re = tt.expand_dims %rr {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
    %rows = tt.broadcast %re : tensor<1x64xi32, #b> -> tensor<16x64xi32, #b>
    %cols64 = tt.broadcast %re : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %cr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %rows64 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>>
    %r64e = tt.expand_dims %rows64 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<64x1xi32, #b>
    %r64 = tt.broadcast %r64e : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %i, %c2 : i32
      %ss = tt.splat %s : i32 -> tensor<16x64xi32, #b>
      scf.for %ks = %c0 to %m step %c16 : i32 {
        %ksp = tt.splat %ks : i32 -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
        %kc = arith.addi %ksp, %cr : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>>
        %kce = tt.expand_dims %kc {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<16x1xi32, #b>
        %cols = tt.broadcast %kce : tensor<16x1xi32, #b> -> tensor<16x64xi32, #b>
        %p = tle.local_pointers %buf[%ss, %rows, %cols] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, tensor<16x64xi32, #b>, tensor<16x64xi32, #b>, tensor<16x64xi32, #b> -> tensor<16x64x!tt.ptr<f16, 3>, #b>
        %q = tle.remote_pointers cluster %p, %c0 : tensor<16x64x!tt.ptr<f16, 3>, #b> -> tensor<16x64x!tt.ptr<f16, 7>, #b>
        %a = tt.load %q : tensor<16x64x!tt.ptr<f16, 7>, #b>
      }
      scf.if %is0 {
        %i1 = arith.addi %i, %c1 : i32
        %t = arith.remsi %i1, %c2 : i32
        %ts = tt.splat %t : i32 -> tensor<64x64xi32, #b>
        %w = tle.local_pointers %buf[%ts, %r64, %cols64] : !ttg.memdesc<2x64x64xf16, #nvmma, #smem, mutable>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b>, tensor<64x64xi32, #b> -> tensor<64x64x!tt.ptr<f16, 3>, #b>
        tt.store %w, %x : tensor<64x64x!tt.ptr<f16, 3>, #b>
      }
      tle.distributed_barrier cluster mesh #mesh
    }
    tt.return
  }
}
