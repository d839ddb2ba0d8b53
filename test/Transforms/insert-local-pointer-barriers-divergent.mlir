// RUN: tle-opt %s -split-input-file -triton-tle-insert-local-pointer-barriers -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tt.func @conflict_inside_divergent_branch
// CHECK: scf.if
// CHECK-NEXT: tt.store
// CHECK-NEXT: tt.load

// Both conflicting accesses inside a branch on the shard id: no cluster
// barrier placed where every CTA runs orders them; a warning, and none
// inside the branch.
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @conflict_inside_divergent_branch(%idx: tensor<128xi32, #b>, %x: tensor<128xf32, #b>, %out: tensor<128x!tt.ptr<f32>, #b>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #b> -> tensor<128x!tt.ptr<f32, 3>, #b>
    %r = tle.remote_pointers cluster %p, %c1 : tensor<128x!tt.ptr<f32, 3>, #b> -> tensor<128x!tt.ptr<f32, 7>, #b>
    %rank = tle.shard_id #mesh, "cx"
    %is0 = arith.cmpi eq, %rank, %c0 : i32
    // expected-note @+1 {{the control flow that depends on the CTA}}
    scf.if %is0 {
      tt.store %r, %x : tensor<128x!tt.ptr<f32, 7>, #b>
      // expected-warning @+1 {{accesses to a shared-memory buffer through cluster pointers may conflict here (TLE cannot prove otherwise), but this point is in control flow that not every CTA of the cluster runs}}
      %v = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #b>
      tt.store %out, %v : tensor<128x!tt.ptr<f32>, #b>
    }
    tle.distributed_barrier cluster
    tt.return
  }
}
