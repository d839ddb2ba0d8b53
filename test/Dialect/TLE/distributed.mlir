// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// Aliases are renamed on print: meshes to #device_mesh*, shardings to #sharding*.
#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#mesh3 = #tle.device_mesh<shape = [2, 2, 8], axes = ["cluster_x", "cluster_y", "block"]>
#row = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B], partial = ["node"]>
#col = #tle.sharding<mesh = #mesh, split = [B, S<"node", "gpu">]>
#full = #tle.sharding<mesh = #mesh, split = [B, B]>
#bmesh = #tle.device_mesh<shape = [2, 2, 8], axes = ["cluster_x", "cluster_y", "block"], levels = ["block_cluster", "block_cluster", "block"]>

// CHECK-DAG: #[[MESH:device_mesh[0-9]*]] = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// CHECK-DAG: #[[MESH3:device_mesh[0-9]*]] = #tle.device_mesh<shape = [2, 2, 8], axes = ["cluster_x", "cluster_y", "block"]>
// CHECK-DAG: #[[MESH1:device_mesh[0-9]*]] = #tle.device_mesh<shape = [4], axes = ["x"]>
// CHECK-DAG: #[[ROW:sharding[0-9]*]] = #tle.sharding<mesh = #[[MESH]], split = [S<"gpu">, B], partial = ["node"]>
// CHECK-DAG: #[[COL:sharding[0-9]*]] = #tle.sharding<mesh = #[[MESH]], split = [B, S<"node", "gpu">]>
// CHECK-DAG: #[[FULL:sharding[0-9]*]] = #tle.sharding<mesh = #[[MESH]], split = [B, B]>
// CHECK-DAG: #[[S3:sharding[0-9]*]] = #tle.sharding<mesh = #[[MESH3]], split = [S<"cluster_x", "cluster_y">, S<"block">]>
// CHECK-DAG: #[[CMESH:device_mesh[0-9]*]] = #tle.device_mesh<shape = [2, 2, 8], axes = ["cluster_x", "cluster_y", "block"], levels = ["block_cluster", "block_cluster", "block"]>
// CHECK-DAG: #[[PONLY:sharding[0-9]*]] = #tle.sharding<mesh = #[[MESH]], split = [B], partial = ["gpu", "node"]>

// CHECK-LABEL: func.func @barriers
// CHECK-NEXT: tle.distributed_barrier cluster{{$}}
// CHECK-NEXT: tle.distributed_barrier grid{{$}}
// CHECK-NEXT: tle.distributed_barrier cluster mesh #[[CMESH]]{{$}}
// CHECK-NEXT: tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["cluster_x", "cluster_y"] mesh #[[CMESH]]{{$}}
// CHECK-NEXT: tle.distributed_barrier submesh rank 1 shape [2] axes ["cluster_y"] mesh #[[CMESH]]{{$}}
// CHECK-NEXT: tle.distributed_barrier submesh rank 1 shape [2] axes ["cluster_y"] mesh #[[CMESH]] at {cluster_x = 1 : i64}{{$}}
func.func @barriers() {
  tle.distributed_barrier cluster
  tle.distributed_barrier grid
  tle.distributed_barrier cluster mesh #bmesh
  tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["cluster_x", "cluster_y"] mesh #bmesh
  "tle.distributed_barrier"() <{group = #tle.distributed_group<submesh>, rank = 1 : i32, shape = array<i64: 2>, axes = ["cluster_y"], mesh = #bmesh}> : () -> ()
  tle.distributed_barrier submesh rank 1 shape [2] axes ["cluster_y"] mesh #bmesh at {cluster_x = 1 : i64}
  return
}

// CHECK-LABEL: func.func @shard_ids
// CHECK-NEXT: %{{.*}} = tle.shard_id #[[MESH]], "node"
// CHECK-NEXT: %{{.*}} = tle.shard_id #[[MESH]], "gpu"
// CHECK-NEXT: %{{.*}} = tle.shard_id #[[MESH3]], "block"
// CHECK-NEXT: %{{.*}} = tle.shard_id #[[MESH1]], "x"
func.func @shard_ids() -> (i32, i32, i32, i32) {
  %node = tle.shard_id #mesh, "node"
  %gpu = tle.shard_id #mesh, "gpu"
  %block = tle.shard_id #mesh3, "block"
  // The full form works in place of an alias.
  %x = tle.shard_id #tle.device_mesh<shape = [4], axes = ["x"]>, "x"
  return %node, %gpu, %block, %x : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @sharded_tensors
// CHECK-NEXT: %[[A:.*]] = tle.make_sharded_tensor %arg0 sharding(#[[ROW]]) shape [8, 16] : tensor<2x16xf32>
// CHECK-NEXT: %[[B:.*]] = tle.reshard %[[A]] sharding(#[[ROW]] -> #[[COL]]) shape [8, 16] : tensor<2x16xf32> -> tensor<8x2xf32>
// CHECK-NEXT: %[[C:.*]] = tle.reshard %[[B]] sharding(#[[COL]] -> #[[FULL]]) shape [8, 16] : tensor<8x2xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %{{.*}} = tle.make_sharded_tensor %arg1 sharding(#[[S3]]) shape [64, 16] : tensor<16x2xbf16>
// CHECK-NEXT: %{{.*}} = tle.make_sharded_tensor %arg2 sharding(#[[PONLY]]) shape [3] : tensor<3xi32>
// CHECK-NEXT: %{{.*}} = tle.make_sharded_tensor %arg3 sharding(#[[ROW]]) shape [8, 16] : tensor<?x?xf32>
func.func @sharded_tensors(%x: tensor<2x16xf32>, %y: tensor<16x2xbf16>, %z: tensor<3xi32>,
                           %d: tensor<?x?xf32>) -> tensor<8x16xf32> {
  // SPMD form: the operand is the local block, `shape` the logical tensor.
  %a = tle.make_sharded_tensor %x sharding(#row) shape [8, 16] : tensor<2x16xf32>
  %b = tle.reshard %a sharding(#row -> #col) shape [8, 16] : tensor<2x16xf32> -> tensor<8x2xf32>
  %c = tle.reshard %b sharding(#col -> #full) shape [8, 16] : tensor<8x2xf32> -> tensor<8x16xf32>
  // Full forms in place of aliases; S over two axes splits 64 into 4 blocks
  // of 16, then 16 into 8 blocks of 2; an empty partial list is not printed.
  %e = tle.make_sharded_tensor %y sharding(#tle.sharding<mesh = #tle.device_mesh<shape = [2, 2, 8], axes = ["cluster_x", "cluster_y", "block"]>, split = [S<"cluster_x", "cluster_y">, S<"block">], partial = []>) shape [64, 16] : tensor<16x2xbf16>
  // Partial only: a dimension of 3 is fine when it is not split.
  %f = tle.make_sharded_tensor %z sharding(#tle.sharding<mesh = #mesh, split = [B], partial = ["gpu", "node"]>) shape [3] : tensor<3xi32>
  // Dynamic block dimensions are not checked.
  %g = tle.make_sharded_tensor %d sharding(#row) shape [8, 16] : tensor<?x?xf32>
  return %c : tensor<8x16xf32>
}

// A gather to one CTA of a cluster.
#cmesh = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
#csplit = #tle.sharding<mesh = #cmesh, split = [S<"cx">, B]>
#cfull = #tle.sharding<mesh = #cmesh, split = [B, B]>
// CHECK-LABEL: func.func @gather_root
// CHECK-NEXT: tle.reshard %arg0 sharding(#{{.*}} -> #{{.*}}) shape [8, 16] root 3 : tensor<2x16xf32> -> tensor<8x16xf32>
func.func @gather_root(%x: tensor<2x16xf32>) -> tensor<8x16xf32> {
  %y = tle.reshard %x sharding(#csplit -> #cfull) shape [8, 16] root 3 : tensor<2x16xf32> -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// Across devices: the runtime context (workspace, flags, peer offsets, rank, epoch).
#dmesh = #tle.device_mesh<shape = [4], axes = ["gpu"], levels = ["device"]>
#dsplit = #tle.sharding<mesh = #dmesh, split = [S<"gpu">]>
#dfull = #tle.sharding<mesh = #dmesh, split = [B]>
// CHECK-LABEL: func.func @device_reshard
// CHECK-NEXT: tle.reshard %arg0 sharding(#{{.*}} -> #{{.*}}) shape [256] device(%arg1, %arg2, %arg3, %arg4, %arg5 : !tt.ptr<f32>, !tt.ptr<i32>, !tt.ptr<i64>) : tensor<64xf32> -> tensor<256xf32>
func.func @device_reshard(%x: tensor<64xf32>, %ws: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %offs: !tt.ptr<i64>,
                          %rank: i32, %epoch: i32) -> tensor<256xf32> {
  %y = tle.reshard %x sharding(#dsplit -> #dfull) shape [256] device(%ws, %flags, %offs, %rank, %epoch : !tt.ptr<f32>, !tt.ptr<i32>, !tt.ptr<i64>) : tensor<64xf32> -> tensor<256xf32>
  return %y : tensor<256xf32>
}

// The attributes on their own.
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: tle.group = #tle.distributed_group<grid>
// CHECK-SAME: tle.mesh = #[[MESH]]
// CHECK-SAME: tle.sharding = #[[COL]]
func.func @attrs() attributes {tle.group = #tle.distributed_group<grid>, tle.mesh = #mesh, tle.sharding = #col} {
  return
}
