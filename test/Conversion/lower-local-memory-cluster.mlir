// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory | FileCheck %s --implicit-check-not='tle.'

// A 2x2 cluster mesh (plus a "block" axis): tle.cluster_size = 4, shard ids
// from %cluster_ctarank row-major over the cluster axes, program ids become
// cluster ids, remote pointers go through mapa, the barrier is the cluster
// barrier.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [2, 2, 8], axes = ["cx", "cy", "b"], levels = ["block_cluster", "block_cluster", "block"]>
// CHECK: module attributes {tle.cluster_size = 4 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @cluster
  // CHECK-NEXT: %[[PID:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %clusterid.x;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> i32
  // CHECK-NEXT: %[[NP:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %nclusterid.x;"
  // CHECK-NEXT: %[[PY:.*]] = tt.get_program_id y : i32
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
