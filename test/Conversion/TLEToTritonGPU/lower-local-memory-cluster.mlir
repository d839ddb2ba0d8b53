// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory | FileCheck %s --implicit-check-not='tle.'

// A 2x2 cluster mesh (plus a "block" axis): tle.cluster_size = 4, launched
// as FlagTree launches a (2, 2, 1) cluster (tle.cluster_dims); shard ids
// from %cluster_ctarank row-major over the cluster axes; a program is a CTA
// (as in FlagTree), and since Triton 3.6 launches the cluster's 4 CTAs along
// x, the program ids are those of the (2, 2, 1) launch: with r = pid.x mod
// 4, x = (pid.x / 4) * 2 + r / 2, y = pid.y * 2 + r mod 2, num_programs x =
// (num_programs x / 4) * 2. Remote pointers go through mapa, the barrier is
// the cluster barrier.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [2, 2, 8], axes = ["cx", "cy", "b"], levels = ["block_cluster", "block_cluster", "block"]>
// CHECK: module attributes {tle.cluster_dims = array<i32: 2, 2, 1>, tle.cluster_size = 4 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cluster
  // CHECK-NOT: clusterid
  // CHECK-NEXT: %[[X:.*]] = tt.get_program_id x : i32
  // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[RANK:.*]] = arith.remui %[[X]], %[[C4]] : i32
  // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[R0:.*]] = arith.divui %[[RANK]], %[[C2]] : i32
  // CHECK-NEXT: %[[C4B:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[CL:.*]] = arith.divui %[[X]], %[[C4B]] : i32
  // CHECK-NEXT: %[[C2B:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[CLX:.*]] = arith.muli %[[CL]], %[[C2B]] : i32
  // CHECK-NEXT: %[[PID:.*]] = arith.addi %[[CLX]], %[[R0]] : i32
  // CHECK-NEXT: %[[N:.*]] = tt.get_num_programs x : i32
  // CHECK-NEXT: %[[C4C:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[NC:.*]] = arith.divui %[[N]], %[[C4C]] : i32
  // CHECK-NEXT: %[[C2C:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[NP:.*]] = arith.muli %[[NC]], %[[C2C]] : i32
  // CHECK-NEXT: %[[X2:.*]] = tt.get_program_id x : i32
  // CHECK-NEXT: %[[C4D:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[RANK2:.*]] = arith.remui %[[X2]], %[[C4D]] : i32
  // CHECK-NEXT: %[[C2D:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[R1:.*]] = arith.remui %[[RANK2]], %[[C2D]] : i32
  // CHECK-NEXT: %[[Y:.*]] = tt.get_program_id y : i32
  // CHECK-NEXT: %[[C2E:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[YC:.*]] = arith.muli %[[Y]], %[[C2E]] : i32
  // CHECK-NEXT: %[[PY:.*]] = arith.addi %[[YC]], %[[R1]] : i32
  // cx = rank / 2
  // CHECK-NEXT: %[[R0:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %cluster_ctarank;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> i32
  // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[CX:.*]] = arith.divui %[[R0]], %[[C2]] : i32
  // cy = rank % 2
  // CHECK-NEXT: %[[R1:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %cluster_ctarank;"
  // CHECK-NEXT: %[[C2B:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[CY:.*]] = arith.remui %[[R1]], %[[C2B]] : i32
  // CHECK-NEXT: %[[A64:.*]] = tt.ptr_to_int %arg0 : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128xi64, #blocked>
  // CHECK-NEXT: %[[A:.*]] = arith.trunci %[[A64]] : tensor<128xi64, #blocked> to tensor<128xi32, #blocked>
  // CHECK-NEXT: %[[S:.*]] = tt.splat %[[CY]] : i32 -> tensor<128xi32, #blocked>
  // CHECK-NEXT: %[[M:.*]] = tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %[[A]], %[[S]] : tensor<128xi32, #blocked>, tensor<128xi32, #blocked> -> tensor<128xi32, #blocked>
  // CHECK-NEXT: %[[M64:.*]] = arith.extui %[[M]] : tensor<128xi32, #blocked> to tensor<128xi64, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.int_to_ptr %[[M64]] : tensor<128xi64, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
  // CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
  // CHECK-NEXT: ttng.cluster_wait
  // Device pointers: the byte offset is added.
  // CHECK-NEXT: %[[G:.*]] = tt.ptr_to_int %arg1 : !tt.ptr<f32> -> i64
  // CHECK-NEXT: %[[GO:.*]] = arith.addi %[[G]], %arg2 : i64
  // CHECK-NEXT: %[[Q:.*]] = tt.int_to_ptr %[[GO]] : i64 -> !tt.ptr<f32>
  // CHECK-NEXT: tt.return %[[PID]], %[[NP]], %[[PY]], %[[CX]], %[[R]], %[[Q]]
  tt.func @cluster(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %g: !tt.ptr<f32>, %off: i64) -> (i32, i32, i32, i32, tensor<128x!tt.ptr<f32, 7>, #blocked>, !tt.ptr<f32>) {
    %pid = tt.get_program_id x : i32
    %np = tt.get_num_programs x : i32
    %py = tt.get_program_id y : i32
    %cx = tle.shard_id #mesh, "cx"
    %cy = tle.shard_id #mesh, "cy"
    %r = tle.remote_pointers cluster %p, %cy : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    tle.distributed_barrier cluster
    %q = tle.remote_pointers device %g, %cx offset %off : !tt.ptr<f32> -> !tt.ptr<f32>
    tt.return %pid, %np, %py, %cx, %r, %q : i32, i32, i32, i32, tensor<128x!tt.ptr<f32, 7>, #blocked>, !tt.ptr<f32>
  }
}

// -----

// No cluster mesh: program ids and attributes untouched; a cluster barrier
// is still the cluster barrier (a 1-CTA cluster).
// CHECK-NOT: tle.cluster_size
// CHECK-LABEL: tt.func @no_cluster
// CHECK-NEXT: tt.get_program_id x : i32
// CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT: ttng.cluster_wait
module {
  tt.func @no_cluster() -> i32 {
    %pid = tt.get_program_id x : i32
    tle.distributed_barrier cluster
    tt.return %pid : i32
  }
}

// -----

// Cluster pointers `splat(base) + offsets` with a uniform shard id (scalar,
// splat constant, tt.splat): one scalar mapa of the base, the offsets kept
// (the base keeps the local base's divisibility hint). A shard id that
// varies per element keeps the per-element mapa.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
// CHECK: module attributes {tle.cluster_dims = array<i32: 4, 1, 1>, tle.cluster_size = 4 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @from_base
  // CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f32, 3>, %[[OFFS:.*]]: tensor<512xi32, #blocked>, %[[SHARDS:.*]]: tensor<512xi32, #blocked>)
  // CHECK: %[[HINTED:.*]] = tt.int_to_ptr %{{.*}} {tt.divisibility = dense<16> : tensor<1xi32>} : i64 -> !tt.ptr<f32, 3>
  // CHECK: %[[I:.*]] = tt.ptr_to_int %[[HINTED]] : !tt.ptr<f32, 3> -> i64
  // CHECK-NEXT: %[[N:.*]] = arith.trunci %[[I]] : i64 to i32
  // CHECK-NEXT: %[[M:.*]] = tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {{.*}} %[[N]], %[[ONE:.*]] : i32, i32 -> i32
  // CHECK-NEXT: %[[W:.*]] = arith.extui %[[M]] : i32 to i64
  // CHECK-NEXT: %[[RB:.*]] = tt.int_to_ptr %[[W]] {tt.divisibility = dense<16> : tensor<1xi32>} : i64 -> !tt.ptr<f32, 7>
  // CHECK-NEXT: %[[RS:.*]] = tt.splat %[[RB]] : !tt.ptr<f32, 7> -> tensor<512x!tt.ptr<f32, 7>, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.addptr %[[RS]], %[[OFFS]] : tensor<512x!tt.ptr<f32, 7>, #blocked>, tensor<512xi32, #blocked>
  // The same with the shard id as a tt.splat of a scalar.
  // CHECK: tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {{.*}} : i32, i32 -> i32
  // CHECK: tt.addptr %{{.*}}, %[[OFFS]] : tensor<512x!tt.ptr<f32, 7>, #blocked>
  // Per-element shard ids: per-element mapa.
  // CHECK: tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {{.*}} %{{.*}}, %[[SHARDS]] : tensor<512xi32, #blocked>, tensor<512xi32, #blocked> -> tensor<512xi32, #blocked>
  tt.func @from_base(%base: !tt.ptr<f32, 3>, %offs: tensor<512xi32, #blocked>, %shards: tensor<512xi32, #blocked>)
      -> (tensor<512xf32, #blocked>, tensor<512xf32, #blocked>, tensor<512xf32, #blocked>) {
    %i = tt.ptr_to_int %base : !tt.ptr<f32, 3> -> i64
    %hinted = tt.int_to_ptr %i {tt.divisibility = dense<16> : tensor<1xi32>} : i64 -> !tt.ptr<f32, 3>
    %s = tt.splat %hinted : !tt.ptr<f32, 3> -> tensor<512x!tt.ptr<f32, 3>, #blocked>
    %p = tt.addptr %s, %offs : tensor<512x!tt.ptr<f32, 3>, #blocked>, tensor<512xi32, #blocked>
    %rank = tle.shard_id #mesh, "cx"
    %one = arith.constant dense<1> : tensor<512xi32, #blocked>
    %r1 = tle.remote_pointers cluster %p, %one : tensor<512x!tt.ptr<f32, 3>, #blocked> -> tensor<512x!tt.ptr<f32, 7>, #blocked> shard tensor<512xi32, #blocked>
    %v1 = tt.load %r1 : tensor<512x!tt.ptr<f32, 7>, #blocked>
    %splat = tt.splat %rank : i32 -> tensor<512xi32, #blocked>
    %r2 = tle.remote_pointers cluster %p, %splat : tensor<512x!tt.ptr<f32, 3>, #blocked> -> tensor<512x!tt.ptr<f32, 7>, #blocked> shard tensor<512xi32, #blocked>
    %v2 = tt.load %r2 : tensor<512x!tt.ptr<f32, 7>, #blocked>
    %r3 = tle.remote_pointers cluster %p, %shards : tensor<512x!tt.ptr<f32, 3>, #blocked> -> tensor<512x!tt.ptr<f32, 7>, #blocked> shard tensor<512xi32, #blocked>
    %v3 = tt.load %r3 : tensor<512x!tt.ptr<f32, 7>, #blocked>
    tt.return %v1, %v2, %v3 : tensor<512xf32, #blocked>, tensor<512xf32, #blocked>, tensor<512xf32, #blocked>
  }
}

// -----

// Device pointers `splat(base) + offsets`: the base moves by the peer offset
// in elements (the quotient hinted as a multiple of 16 bytes: peer offsets
// are), the offsets are kept.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @device_from_base
  // CHECK-SAME: (%[[BASE:.*]]: !tt.ptr<f32>, %[[OFFS:.*]]: tensor<512xi32, #blocked>, %[[PEER:.*]]: i64)
  // CHECK: %[[C4:.*]] = arith.constant 4 : i64
  // CHECK-NEXT: %[[E:.*]] = arith.divsi %[[PEER]], %[[C4]] {tt.divisibility = dense<4> : tensor<1xi32>} : i64
  // CHECK-NEXT: %[[RB:.*]] = tt.addptr %[[BASE]], %[[E]] : !tt.ptr<f32>, i64
  // CHECK-NEXT: %[[RS:.*]] = tt.splat %[[RB]] : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.addptr %[[RS]], %[[OFFS]] : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
  // CHECK-NEXT: tt.load %[[R]]
  tt.func @device_from_base(%base: !tt.ptr<f32>, %offs: tensor<512xi32, #blocked>, %peer: i64) -> tensor<512xf32, #blocked> {
    %s = tt.splat %base : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %s, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %c1 = arith.constant 1 : i32
    %r = tle.remote_pointers device %p, %c1 offset %peer : tensor<512x!tt.ptr<f32>, #blocked> -> tensor<512x!tt.ptr<f32>, #blocked>
    %v = tt.load %r : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<512xf32, #blocked>
  }
}


// -----

// No cluster (a kernel of one-CTA clusters): remote pointers to rank 0,
// a tensor and a scalar (FlagTree's scope-less tle.remote(buf, 0)), is the CTA's
// own shared memory: an address-space change, no mapa.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @rank0_without_cluster
  // CHECK-NOT: mapa
  // CHECK: %[[I:.*]] = tt.ptr_to_int %arg0 : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128xi64, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.int_to_ptr %[[I]] : tensor<128xi64, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
  // CHECK: %[[J:.*]] = tt.ptr_to_int %arg1 : !tt.ptr<f32, 3> -> i64
  // CHECK-NEXT: %[[Q:.*]] = tt.int_to_ptr %[[J]] : i64 -> !tt.ptr<f32, 7>
  // CHECK-NEXT: tt.return %[[R]], %[[Q]]
  tt.func @rank0_without_cluster(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %s: !tt.ptr<f32, 3>) -> (tensor<128x!tt.ptr<f32, 7>, #blocked>, !tt.ptr<f32, 7>) {
    %c0 = arith.constant 0 : i32
    %r = tle.remote_pointers cluster %p, %c0 : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    %q = tle.remote_pointers cluster %s, %c0 : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
    tt.return %r, %q : tensor<128x!tt.ptr<f32, 7>, #blocked>, !tt.ptr<f32, 7>
  }
}

// -----

// A grid barrier: CTA barriers around the marker the llir finish resolves;
// the module asks for a cooperative launch. No cluster.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: module attributes {tle.grid_barrier = 1 : i32
  // CHECK-NOT: tle.cluster_size
  // CHECK-LABEL: tt.func @grid
  // CHECK-NEXT: tt.get_program_id x
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.elementwise_inline_asm "tle.grid_barrier;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.return
  tt.func @grid() -> i32 {
    %p = tt.get_program_id x : i32
    tle.distributed_barrier grid
    tt.return %p : i32
  }
}

// -----

// A (1, 2) cluster: the launch's y dimension holds the cluster; program id
// x is the cluster's (the CTA's coordinate along x is 0), y = pid.y * 2 +
// r; num_programs y doubles, num_programs x is the number of clusters. A
// 1-D cluster (above) leaves program ids alone.
#mesh = #tle.device_mesh<shape = [1, 2], axes = ["m", "n"], levels = ["block_cluster", "block_cluster"]>
// CHECK: module attributes {tle.cluster_dims = array<i32: 1, 2, 1>, tle.cluster_size = 2 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @column_cluster
  // CHECK-NEXT: %[[X:.*]] = tt.get_program_id x : i32
  // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[R:.*]] = arith.remui %[[X]], %[[C2]] : i32
  // CHECK-NEXT: %[[C2B:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[R0:.*]] = arith.divui %[[R]], %[[C2B]] : i32
  // CHECK-NEXT: %[[C2C:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[CL:.*]] = arith.divui %[[X]], %[[C2C]] : i32
  // CHECK-NEXT: %[[PX:.*]] = arith.addi %[[CL]], %[[R0]] : i32
  // CHECK:      %[[Y:.*]] = tt.get_program_id y : i32
  // CHECK:      %[[PY:.*]] = arith.addi
  // CHECK:      %[[NY:.*]] = tt.get_num_programs y : i32
  // CHECK-NEXT: %[[C2F:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[NPY:.*]] = arith.muli %[[NY]], %[[C2F]] : i32
  // CHECK-NEXT: %[[NX:.*]] = tt.get_num_programs x : i32
  // CHECK-NEXT: %[[C2G:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[NPX:.*]] = arith.divui %[[NX]], %[[C2G]] : i32
  // CHECK-NOT:  tt.get_program_id
  // CHECK:      tt.return %[[PX]], %[[PY]], %[[NPY]], %[[NPX]]
  tt.func @column_cluster() -> (i32, i32, i32, i32, i32) {
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %ny = tt.get_num_programs y : i32
    %nx = tt.get_num_programs x : i32
    %n = tle.shard_id #mesh, "n"
    tt.return %x, %y, %ny, %nx, %n : i32, i32, i32, i32, i32
  }
}

// -----

// Three cluster axes: (2, 1, 2); program id z = pid.z * 2 + r mod 2.
#mesh = #tle.device_mesh<shape = [2, 1, 2], axes = ["a", "b", "c"], levels = ["block_cluster", "block_cluster", "block_cluster"]>
// CHECK: module attributes {tle.cluster_dims = array<i32: 2, 1, 2>, tle.cluster_size = 4 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @three_axes
  // CHECK-NEXT: %[[X:.*]] = tt.get_program_id x : i32
  // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[R:.*]] = arith.remui %[[X]], %[[C4]] : i32
  // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[R2:.*]] = arith.remui %[[R]], %[[C2]] : i32
  // CHECK-NEXT: %[[Z:.*]] = tt.get_program_id z : i32
  // CHECK-NEXT: %[[C2B:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[ZC:.*]] = arith.muli %[[Z]], %[[C2B]] : i32
  // CHECK-NEXT: %[[PZ:.*]] = arith.addi %[[ZC]], %[[R2]] : i32
  // CHECK:      tt.return %[[PZ]]
  tt.func @three_axes() -> (i32, i32) {
    %z = tt.get_program_id z : i32
    %c = tle.shard_id #mesh, "c"
    tt.return %z, %c : i32, i32
  }
}

// -----

// tle.remote of pointers already remote (FlagTree re-targets them): of a
// tle.remote_pointers result, its source with the new rank (one mapa); of
// other cluster pointers (a select here), mapa of their shared::cluster
// address.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
// CHECK: module attributes {tle.cluster_dims = array<i32: 2, 1, 1>, tle.cluster_size = 2 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @retarget
  // CHECK-SAME: (%[[P:.*]]: tensor<128x!tt.ptr<f32, 3>, #blocked>, %[[C:.*]]: i1)
  // %to1: mapa to rank 1.
  // CHECK: tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;"
  // CHECK: %[[TO1:.*]] = tt.int_to_ptr
  // %back: the source itself, mapped to rank 0 (one mapa, not two).
  // CHECK-NEXT: %[[A:.*]] = tt.ptr_to_int %[[P]]
  // CHECK-NEXT: %[[N:.*]] = arith.trunci %[[A]]
  // CHECK-NEXT: %[[Z:.*]] = tt.splat %c0_i32
  // CHECK-NEXT: %[[M:.*]] = tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {{.*}} %[[N]], %[[Z]]
  // CHECK-NEXT: %[[W:.*]] = arith.extui %[[M]]
  // CHECK-NEXT: %[[BACK:.*]] = tt.int_to_ptr %[[W]]
  // %again: mapa of the selected shared::cluster addresses.
  // CHECK: %[[S:.*]] = arith.select %[[C]], %[[TO1]]
  // CHECK-NEXT: %[[SA:.*]] = tt.ptr_to_int %[[S]] : tensor<128x!tt.ptr<f32, 7>, #blocked>
  // CHECK-NEXT: %[[SN:.*]] = arith.trunci %[[SA]]
  // CHECK-NEXT: %[[Z2:.*]] = tt.splat %c0_i32
  // CHECK-NEXT: tt.elementwise_inline_asm "mapa.shared::cluster.u32 $0, $1, $2;" {{.*}} %[[SN]], %[[Z2]]
  // CHECK-NEXT: arith.extui
  // CHECK-NEXT: %[[AGAIN:.*]] = tt.int_to_ptr
  // CHECK-NEXT: tt.return %[[BACK]], %[[AGAIN]]
  tt.func @retarget(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %c: i1) -> (tensor<128x!tt.ptr<f32, 7>, #blocked>, tensor<128x!tt.ptr<f32, 7>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %rank = tle.shard_id #mesh, "cx"
    %to1 = tle.remote_pointers cluster %p, %c1 : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    %back = tle.remote_pointers cluster %to1, %c0 : tensor<128x!tt.ptr<f32, 7>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    %toR = tle.remote_pointers cluster %p, %rank : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    %s = arith.select %c, %to1, %toR : tensor<128x!tt.ptr<f32, 7>, #blocked>
    %again = tle.remote_pointers cluster %s, %c0 : tensor<128x!tt.ptr<f32, 7>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    tt.return %back, %again : tensor<128x!tt.ptr<f32, 7>, #blocked>, tensor<128x!tt.ptr<f32, 7>, #blocked>
  }
}
