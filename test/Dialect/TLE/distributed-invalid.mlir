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
  // expected-error @+1 {{'tle.distributed_barrier' op group 'submesh' needs rank, shape and axes}}
  tle.distributed_barrier submesh rank 2 shape [2, 2]
  return
}

// -----

func.func @submesh_rank_zero() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh rank must be positive, got 0}}
  tle.distributed_barrier submesh rank 0 shape [] axes []
  return
}

// -----

func.func @submesh_lengths() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh rank 2 must equal the number of sizes (3) and of axes (2)}}
  tle.distributed_barrier submesh rank 2 shape [2, 2, 2] axes ["x", "y"]
  return
}

// -----

func.func @submesh_axes_length() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh rank 2 must equal the number of sizes (2) and of axes (1)}}
  tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["x"]
  return
}

// -----

func.func @submesh_size() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh sizes must be positive, got 0}}
  tle.distributed_barrier submesh rank 2 shape [2, 0] axes ["x", "y"]
  return
}

// -----

func.func @submesh_empty_axis() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis names must be non-empty}}
  tle.distributed_barrier submesh rank 1 shape [2] axes [""]
  return
}

// -----

func.func @submesh_duplicate_axis() {
  // expected-error @+1 {{'tle.distributed_barrier' op submesh axis "x" appears more than once}}
  tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["x", "x"]
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
  %0 = tle.make_sharded_tensor %x sharding(#s) : tensor<8xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @make_divisible(%x: tensor<6x16xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op dimension 0 (size 6) is not divisible by its shard count 4}}
  %0 = tle.make_sharded_tensor %x sharding(#s) : tensor<6x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [B, S<"node", "gpu">]>
func.func @make_divisible_two_axes(%x: tensor<8x12xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op dimension 1 (size 12) is not divisible by its shard count 8}}
  %0 = tle.make_sharded_tensor %x sharding(#s) : tensor<8x12xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @make_result_type(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tle.make_sharded_tensor' op failed to verify that all of {src, result} have same type}}
  %0 = "tle.make_sharded_tensor"(%x) <{sharding = #s}> : (tensor<8x16xf32>) -> tensor<8x16xf16>
  return
}

// -----

// tle.reshard

#a = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#b = #tle.device_mesh<shape = [8], axes = ["gpu"]>
#s = #tle.sharding<mesh = #a, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #b, split = [S<"gpu">, B]>
func.func @reshard_meshes(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op source and target shardings must use the same mesh}}
  %0 = tle.reshard %x sharding(#s -> #t) : tensor<8x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">]>
#t = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
func.func @reshard_source_rank(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op source sharding: split has 1 entries but the tensor has rank 2}}
  %0 = tle.reshard %x sharding(#s -> #t) : tensor<8x16xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [B, S<"gpu">]>
func.func @reshard_target_divisible(%x: tensor<8x6xf32>) {
  // expected-error @+1 {{'tle.reshard' op target sharding: dimension 1 (size 6) is not divisible by its shard count 4}}
  %0 = tle.reshard %x sharding(#s -> #t) : tensor<8x6xf32>
  return
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B]>
#t = #tle.sharding<mesh = #mesh, split = [B, S<"gpu">]>
func.func @reshard_result_type(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'tle.reshard' op failed to verify that all of {src, result} have same type}}
  %0 = "tle.reshard"(%x) <{source = #s, target = #t}> : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return
}
