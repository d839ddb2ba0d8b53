// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory | FileCheck %s --implicit-check-not='tle.distributed_barrier'

// tle.distributed_barrier with a mesh: cluster (the mesh gives the cluster
// size) and submesh (mbarriers in TLE's shared region).

// A cluster barrier with a mesh sets the cluster size (no shard id needed).
// CHECK: module attributes {tle.cluster_dims = array<i32: 2, 1, 1>, tle.cluster_size = 2 : i32
// CHECK-LABEL: tt.func @cluster_barrier_mesh
// CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT: ttng.cluster_wait
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cluster_barrier_mesh() {
    tle.distributed_barrier cluster mesh #mesh
    tt.return
  }
}

// -----

// Sub-mesh barriers on a 2x2 cluster: one mbarrier + phase word per group
// (axis set) in TLE's shared region, initialized once at the entry (thread
// 0, arrive count 2), then fence + cluster barrier. Each barrier: CTA
// barrier, thread j < 2 arrives on the group's j-th CTA (the caller's rank
// with its coordinate along the axis replaced by j: rank + (j - mine) *
// stride), every thread waits on its own mbarrier for the phase word's
// parity, CTA barrier, thread 0 flips the phase word.
// CHECK: module attributes {tle.cluster_dims = array<i32: 2, 2, 1>, tle.cluster_size = 4 : i32, tle.shared = 32 : i32
// CHECK-LABEL: tt.func public @submesh
// The "cx" group's words come first (each group's set-up goes to the entry).
// CHECK: mbarrier.init.shared::cta.b64 [$1], 2; @p st.shared.u32 [$2], 0;
// CHECK: %[[B:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[PH:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT: tt.elementwise_inline_asm "{{.*}}mbarrier.init.shared::cta.b64 [$1], 2; @p st.shared.u32 [$2], 0; } mov.u32 $0, 0;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %[[B]], %[[PH]]
// CHECK-NEXT: tt.elementwise_inline_asm "fence.mbarrier_init.release.cluster; mov.u32 $0, 0;"
// CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT: ttng.cluster_wait
// The first barrier, over "cy" (stride 1).
// CHECK-NEXT: %[[R:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %cluster_ctarank;"
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[T:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %tid.x;"
// CHECK-NEXT: %[[K:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[T]], %[[K]] : i32
// CHECK:      %[[MINE:.*]] = arith.remui
// CHECK:      %[[THEIRS:.*]] = arith.remui
// CHECK-NEXT: %[[S1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[THEIRS]], %[[MINE]] : i32
// CHECK-NEXT: %[[DS:.*]] = arith.muli %[[D]], %[[S1]] : i32
// CHECK-NEXT: %[[TGT:.*]] = arith.addi %[[R]], %[[DS]] : i32
// CHECK-NEXT: %[[RB:.*]] = tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {{.*}} %[[B]], %[[TGT]]
// CHECK-NEXT: tt.elementwise_inline_asm "{ .reg .pred p; setp.lt.u32 p, $1, 2; @p mbarrier.arrive.release.cluster.shared::cluster.b64 _, [$2]; } mov.u32 $0, 0;" {{.*}} %[[T]], %[[RB]]
// CHECK-NEXT: tt.elementwise_inline_asm "{ .reg .pred p; .reg .b32 ph; ld.shared.u32 ph, [$2]; LAB_WAIT: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [$1], ph; @!p bra LAB_WAIT; } mov.u32 $0, 0;" {{.*}} %[[B]], %[[PH]]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tt.elementwise_inline_asm "{{.*}}@p xor.b32 ph, ph, 1; @p st.shared.u32 [$1], ph; } mov.u32 $0, 0;" {{.*}} %[[PH]]
// The second "cy" barrier reuses the same words.
// CHECK-NEXT: tt.elementwise_inline_asm "mov.u32 $0, %cluster_ctarank;"
// CHECK-NEXT: gpu.barrier
// CHECK:      mapa.shared::cluster.u32 {{.*}} %[[B]],
// CHECK:      mbarrier.try_wait.parity{{.*}} %[[B]], %[[PH]]
// The "cx" barrier (stride 2) has its own words.
// CHECK:      %[[CXR:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %cluster_ctarank;"
// CHECK:      arith.divui %[[CXR]], %[[DIV:.*]] : i32
// CHECK:      arith.subi
// CHECK-NEXT: arith.muli %{{.*}}, %c2_i32{{[_0-9]*}} : i32
// CHECK:      mapa.shared::cluster.u32 {{.*}} : i32, i32 -> i32
// CHECK-NOT:  %[[B]], %[[PH]]
// CHECK-NOT:  mbarrier.init
// CHECK:      tt.return
#mesh = #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @submesh() {
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #mesh
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #mesh
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cx"] mesh #mesh
    tt.return
  }
}

// -----

// `at`: the barrier runs under scf.if on the caller's coordinates (cx = 1:
// rank / 2 % 2 == 1); the set-up at the entry is for every CTA.
// CHECK-LABEL: tt.func public @submesh_at
// CHECK:      ttng.cluster_wait
// CHECK-NEXT: %[[R:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %cluster_ctarank;"
// CHECK:      %[[X:.*]] = arith.divui %[[R]], %c2_i32{{.*}} : i32
// CHECK-NEXT: %[[CX:.*]] = arith.remui %[[X]], %c2_i32{{.*}} : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi eq, %[[CX]], %[[C1]] : i32
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-NEXT:   gpu.barrier
// CHECK:        mbarrier.arrive.release.cluster
// CHECK:        mbarrier.try_wait.parity.acquire.cluster
// CHECK:        gpu.barrier
// CHECK:        xor.b32 ph, ph, 1; @p st.shared.u32 [$1], ph; } mov.u32 $0, 0;" {{.*}} : i32 -> i32
// CHECK-NEXT: }
// CHECK-NEXT: tt.return
#mesh = #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @submesh_at() {
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #mesh at {cx = 1 : i64}
    tt.return
  }
}
