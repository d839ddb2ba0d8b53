// RUN: tle-opt %s -split-input-file -verify-diagnostics

// #tle.device_mesh

// expected-error @+1 {{device mesh must have at least one axis}}
#mesh = #tle.device_mesh<shape = [], axes = []>

// -----

// expected-error @+1 {{device mesh has 2 sizes but 1 axis names}}
#mesh = #tle.device_mesh<shape = [2, 4], axes = ["gpu"]>

// -----

// expected-error @+1 {{device mesh axis "gpu" must have a positive size, got 0}}
#mesh = #tle.device_mesh<shape = [2, 0], axes = ["node", "gpu"]>

// -----

// expected-error @+1 {{device mesh axis "node" must have a positive size, got -2}}
#mesh = #tle.device_mesh<shape = [-2, 4], axes = ["node", "gpu"]>

// -----

// expected-error @+1 {{device mesh axis names must be non-empty}}
#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", ""]>

// -----

// expected-error @+1 {{device mesh axis name "gpu" is used more than once}}
#mesh = #tle.device_mesh<shape = [2, 4], axes = ["gpu", "gpu"]>

// -----

// #tle.sharding

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{split axis "tp" is not an axis of the mesh}}
#s = #tle.sharding<mesh = #mesh, split = [S<"tp">, B]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{partial axis "tp" is not an axis of the mesh}}
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B], partial = ["tp"]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{mesh axis "gpu" is used more than once in the sharding}}
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, S<"gpu">]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{mesh axis "node" is used more than once in the sharding}}
#s = #tle.sharding<mesh = #mesh, split = [S<"node", "node">, B]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{mesh axis "node" is used more than once in the sharding}}
#s = #tle.sharding<mesh = #mesh, split = [S<"node">, B], partial = ["node"]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{mesh axis "gpu" is used more than once in the sharding}}
#s = #tle.sharding<mesh = #mesh, split = [B, B], partial = ["gpu", "gpu"]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{S<...> needs at least one mesh axis}}
#s = #tle.sharding<mesh = #mesh, split = [S<>, B]>

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
// expected-error @+1 {{expected S<"axis", ...> or B}}
#s = #tle.sharding<mesh = #mesh, split = [P<"gpu">, B]>

// -----

// expected-error @+1 {{invalid kind of attribute specified}}
#s = #tle.sharding<mesh = 4 : i32, split = [B]>

// -----

// tle.distributed_barrier

func.func @cluster_with_rank() {
  // expected-error @+1 {{'tle.distributed_barrier' op group 'cluster' takes no rank, shape or axes}}
  tle.distributed_barrier cluster rank 1
  return
}

// -----

func.func @grid_with_axes() {
  // expected-error @+1 {{'tle.distributed_barrier' op group 'grid' takes no rank, shape or axes}}
  tle.distributed_barrier grid axes ["x"]
  return
}

// -----

func.func @submesh_missing_axes() {
  // expected-error @+1 {{'tle.distributed_barrier' op group 'submesh' needs rank, shape, axes and mesh}}
  tle.distributed_barrier submesh rank 2 shape [2, 2]
  return
}

// -----

func.func @submesh_rank_zero() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh rank must be positive, got 0}}
  tle.distributed_barrier submesh rank 0 shape [] axes [] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_lengths() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh rank 2 must equal the number of sizes (3) and of axes (2)}}
  tle.distributed_barrier submesh rank 2 shape [2, 2, 2] axes ["x", "y"] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_axes_length() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh rank 2 must equal the number of sizes (2) and of axes (1)}}
  tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["x"] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_size() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh sizes must be positive, got 0}}
  tle.distributed_barrier submesh rank 2 shape [2, 0] axes ["x", "y"] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_empty_axis() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis names must be non-empty}}
  tle.distributed_barrier submesh rank 1 shape [2] axes [""] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_duplicate_axis() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis "x" appears more than once}}
  tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["x", "x"] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_without_mesh() {
  // expected-error @+1 {{'tle.distributed_barrier' op group 'submesh' needs rank, shape, axes and mesh}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["y"]
  return
}

// -----

func.func @submesh_axis_not_in_mesh() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis "z" is not an axis of the mesh}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["z"] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @submesh_axis_not_cluster() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis "b" is not a block_cluster axis of the mesh}}
  tle.distributed_barrier submesh rank 1 shape [4] axes ["b"] mesh #tle.device_mesh<shape = [2, 4], axes = ["x", "b"], levels = ["block_cluster", "block"]>
  return
}

// -----

func.func @submesh_axis_size() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis "y" has size 2 in the mesh, not 4}}
  tle.distributed_barrier submesh rank 1 shape [4] axes ["y"] mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @grid_with_mesh() {
  // expected-error @+1 {{'tle.distributed_barrier' op group 'grid' takes no mesh}}
  tle.distributed_barrier grid mesh #tle.device_mesh<shape = [2, 2], axes = ["x", "y"], levels = ["block_cluster", "block_cluster"]>
  return
}

// -----

func.func @cluster_with_at() {
  // expected-error @+1 {{'tle.distributed_barrier' op group 'cluster' takes no `at`}}
  tle.distributed_barrier cluster at {x = 0 : i64}
  return
}

// -----

func.func @at_not_cluster_axis() {
  // expected-error @+1 {{'tle.distributed_barrier' op `at` axis "b" is not a block_cluster axis of the mesh}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["y"] mesh #tle.device_mesh<shape = [2, 2, 4], axes = ["x", "y", "b"], levels = ["block_cluster", "block_cluster", "block"]> at {b = 0 : i64}
  return
}

// -----

func.func @at_spanned_axis() {
  // expected-error @+1 {{'tle.distributed_barrier' op `at` axis "y" is also a sub-mesh axis}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["y"] mesh #tle.device_mesh<shape = [2, 2, 4], axes = ["x", "y", "b"], levels = ["block_cluster", "block_cluster", "block"]> at {y = 0 : i64}
  return
}

// -----

func.func @at_out_of_range() {
  // expected-error @+1 {{'tle.distributed_barrier' op `at` coordinate of axis "x" must be an integer in [0, 2), got 2 : i64}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["y"] mesh #tle.device_mesh<shape = [2, 2, 4], axes = ["x", "y", "b"], levels = ["block_cluster", "block_cluster", "block"]> at {x = 2 : i64}
  return
}

// -----

func.func @at_not_integer() {
  // expected-error @+1 {{'tle.distributed_barrier' op `at` coordinate of axis "x" must be an integer in [0, 2), got "0"}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["y"] mesh #tle.device_mesh<shape = [2, 2, 4], axes = ["x", "y", "b"], levels = ["block_cluster", "block_cluster", "block"]> at {x = "0"}
  return
}

// -----

func.func @unknown_group() {
  // expected-error @+1 {{expected one of [cluster, grid, submesh] for group of a distributed barrier, got: warp}}
  tle.distributed_barrier warp
  return
}

// -----

// tle.shard_id

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
func.func @shard_id_unknown_axis() -> i32 {
  // expected-error @+1 {{'tle.shard_id' op axis "tp" is not an axis of the mesh}}
  %0 = tle.shard_id #mesh, "tp"
  return %0 : i32
}

// -----

// tle.make_sharded_tensor

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @make_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op split has 2 entries but the tensor has rank 1}}
  %0 = tle.make_sharded_tensor %x sharding(#s) shape [8] : tensor<8xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @make_divisible(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op dimension 0 (size 6) is not divisible by its shard count 4}}
  %0 = tle.make_sharded_tensor %x sharding(#s) shape [6, 16] : tensor<2x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [B, S<"node", "gpu">]>
func.func @make_divisible_two_axes(%x: tensor<8x2xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op dimension 1 (size 12) is not divisible by its shard count 8}}
  %0 = tle.make_sharded_tensor %x sharding(#s) shape [8, 12] : tensor<8x2xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @make_local_shape(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op the local block dimension 0 has size 8, but each shard holds 2 of 8 (4 shards)}}
  %0 = tle.make_sharded_tensor %x sharding(#s) shape [8, 16] : tensor<8x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @make_result_type(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op failed to verify that all of {src, result} have same type}}
  %0 = "tle.make_sharded_tensor"(%x) <{sharding = #s, shape = array<i64: 8, 16>}> : (tensor<2x16xf32>) -> tensor<2x16xf16>
  return
}

// -----

// tle.reshard

#a = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#b = #tle.device_mesh<shape = [8], axes = ["gpu"]>
#s = #tle.sharding<mesh = #a, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #b, split = [S<"gpu">, B]>
func.func @reshard_meshes(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op source and target shardings must use the same mesh}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 16] : tensor<2x16xf32> -> tensor<1x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @reshard_source_rank(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op source sharding: split has 1 entries but the tensor has rank 2}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 16] : tensor<2x16xf32> -> tensor<2x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [B, S<"gpu">]>
func.func @reshard_target_divisible(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{'tle.reshard' op target sharding: dimension 1 (size 6) is not divisible by its shard count 4}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 6] : tensor<2x6xf32> -> tensor<8x1xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [B, S<"gpu">]>
func.func @reshard_result_shape(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op the result dimension 1 has size 16, but each shard holds 4 of 16 (4 shards)}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 16] : tensor<2x16xf32> -> tensor<8x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [B, B]>
func.func @reshard_operand_shape(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op the operand dimension 0 has size 8, but each shard holds 2 of 8 (4 shards)}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 16] : tensor<8x16xf32> -> tensor<8x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [B, B]>
func.func @reshard_element_type(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op operand and result element types differ: 'f32' vs 'f16'}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 16] : tensor<2x16xf32> -> tensor<8x16xf16>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B], partial = ["node"]>
func.func @reshard_creates_partial(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op cannot reshard to a partial sum over mesh axis "node": the source is not partial over it}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [8, 16] : tensor<2x16xf32> -> tensor<2x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"cx">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
func.func @reshard_root_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tle.reshard' op root 4 is not a CTA rank of the mesh's cluster of 4 CTAs}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [16] root 4 : tensor<4xf32> -> tensor<16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
#s = #tle.sharding<mesh = #mesh, split = [B], partial = ["cx"]>
func.func @reshard_root_partial(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tle.reshard' op a reshard to a root cannot leave partial axes}}
  %0 = tle.reshard %x sharding(#s -> #s) shape [16] root 0 : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["gpu"], levels = ["device"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
func.func @reshard_device_operands(%x: tensor<4xf32>, %ws: !tt.ptr<f32>, %r: i32) {
  // expected-error @+1 {{'tle.reshard' op device operands (workspace, flags, peer offsets, rank, epoch) come all together}}
  %0 = "tle.reshard"(%x, %ws, %r) <{source = #s, target = #t, shape = array<i64: 16>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 1, 0>}> : (tensor<4xf32>, !tt.ptr<f32>, i32) -> tensor<16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["gpu"], levels = ["device"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
func.func @reshard_workspace_type(%x: tensor<4xf32>, %ws: !tt.ptr<f16>, %f: !tt.ptr<i32>, %o: !tt.ptr<i64>, %r: i32) {
  // expected-error @+1 {{'tle.reshard' op the workspace must be a global pointer to 'f32', got '!tt.ptr<f16>'}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [16] device(%ws, %f, %o, %r, %r : !tt.ptr<f16>, !tt.ptr<i32>, !tt.ptr<i64>) : tensor<4xf32> -> tensor<16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["gpu"], levels = ["device"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
func.func @reshard_flags_type(%x: tensor<4xf32>, %ws: !tt.ptr<f32>, %f: !tt.ptr<i64>, %o: !tt.ptr<i64>, %r: i32) {
  // expected-error @+1 {{'tle.reshard' op the flags must be a global pointer to i32, got '!tt.ptr<i64>'}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [16] device(%ws, %f, %o, %r, %r : !tt.ptr<f32>, !tt.ptr<i64>, !tt.ptr<i64>) : tensor<4xf32> -> tensor<16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [4], axes = ["gpu"], levels = ["device"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [B]>
func.func @reshard_offsets_type(%x: tensor<4xf32>, %ws: !tt.ptr<f32>, %f: !tt.ptr<i32>, %o: !tt.ptr<i32>, %r: i32) {
  // expected-error @+1 {{'tle.reshard' op the peer offsets must be a global pointer to i64, got '!tt.ptr<i32>'}}
  %0 = tle.reshard %x sharding(#s -> #t) shape [16] device(%ws, %f, %o, %r, %r : !tt.ptr<f32>, !tt.ptr<i32>, !tt.ptr<i32>) : tensor<4xf32> -> tensor<16xf32>
  return
}
