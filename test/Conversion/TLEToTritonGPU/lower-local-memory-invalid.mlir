// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory -verify-diagnostics

#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @swizzled(%i: i32) -> !tt.ptr<f32, 3> {
  // expected-error @+1 {{a buffer accessed through tle.local_pointers needs an unswizzled shared encoding (#ttg.swizzled_shared with maxPhase = 1), got #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>}}
  %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
  %p = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
  tt.return %p : !tt.ptr<f32, 3>
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
tt.func @nvmma(%i: i32) -> !tt.ptr<f16, 3> {
  // expected-error @+1 {{needs an unswizzled shared encoding}}
  %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  %p = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>, i32, i32 -> !tt.ptr<f16, 3>
  tt.return %p : !tt.ptr<f16, 3>
}

// -----

// A pointer buffer used by something that is not a TLE buffer op.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @pointer_buffer_other_use(%i: i32) -> (!tt.ptr<f32, 3>, tensor<64xf32>) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
  %p = tle.local_pointers %buf[%i] : !ttg.memdesc<64xf32, #shared, #smem, mutable>, i32 -> !tt.ptr<f32, 3>
  // expected-error @+1 {{'ttg.local_load' op cannot use a buffer that tle.local_pointers also uses (a pointer buffer); expected tle.local_pointers, tle.buffer_slot, tle.local_load, tle.local_store or tle.copy}}
  %v = ttg.local_load %buf : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64xf32>
  tt.return %p, %v : !tt.ptr<f32, 3>, tensor<64xf32>
}

// -----

tt.func @remote_without_cluster(%p: !tt.ptr<f32, 3>, %r: i32) -> !tt.ptr<f32, 7> {
  // expected-error @+1 {{tle.remote needs a thread-block cluster: the kernel uses no device mesh with a block_cluster axis of size > 1}}
  %q = tle.remote_pointers cluster %p, %r : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
  tt.return %q : !tt.ptr<f32, 7>
}

// -----

// Rank 1 without a cluster: only rank 0 (the CTA itself) exists.
tt.func @remote_rank1_without_cluster(%p: !tt.ptr<f32, 3>) -> !tt.ptr<f32, 7> {
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{tle.remote needs a thread-block cluster: the kernel uses no device mesh with a block_cluster axis of size > 1}}
  %q = tle.remote_pointers cluster %p, %c1 : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
  tt.return %q : !tt.ptr<f32, 7>
}

// -----

#mesh = #tle.device_mesh<shape = [1], axes = ["c"], levels = ["block_cluster"]>
tt.func @remote_cluster_of_one(%p: !tt.ptr<f32, 3>) -> !tt.ptr<f32, 7> {
  %r = tle.shard_id #mesh, "c"
  // expected-error @+1 {{tle.remote needs a thread-block cluster: the kernel uses no device mesh with a block_cluster axis of size > 1 (its cluster mesh has 1 CTA)}}
  %q = tle.remote_pointers cluster %p, %r : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
  tt.return %q : !tt.ptr<f32, 7>
}

// -----

#a = #tle.device_mesh<shape = [2], axes = ["c"], levels = ["block_cluster"]>
#b = #tle.device_mesh<shape = [4], axes = ["c"], levels = ["block_cluster"]>
tt.func @meshes_disagree() -> (i32, i32) {
  // expected-note @+1 {{first cluster mesh used here}}
  %0 = tle.shard_id #a, "c"
  // expected-error @+1 {{device mesh #tle.device_mesh<shape = [4], axes = ["c"], levels = ["block_cluster"]> has a cluster of 4 CTAs, but #tle.device_mesh<shape = [2], axes = ["c"], levels = ["block_cluster"]> has 2; every mesh of a kernel must agree on the cluster size}}
  %1 = tle.shard_id #b, "c"
  tt.return %0, %1 : i32, i32
}

// -----

// The same cluster size in two shapes: which launch shape the program ids
// follow would be ambiguous.
#a = #tle.device_mesh<shape = [4], axes = ["c"], levels = ["block_cluster"]>
#b = #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
tt.func @mesh_shapes_disagree() -> (i32, i32) {
  // expected-note @+1 {{first cluster mesh used here}}
  %0 = tle.shard_id #a, "c"
  // expected-error @+1 {{device mesh #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]> launches its cluster as (2, 2, 1), but #tle.device_mesh<shape = [4], axes = ["c"], levels = ["block_cluster"]> as (4, 1, 1); every mesh of a kernel must agree on the cluster's shape (its block_cluster axes)}}
  tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #b
  tt.return %0, %0 : i32, i32
}

// -----

#mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"], levels = ["node", "device"]>
tt.func @shard_id_device() -> i32 {
  // expected-error @+1 {{can only lower shard ids on block_cluster mesh axes; axis "gpu" has level "device"}}
  %0 = tle.shard_id #mesh, "gpu"
  tt.return %0 : i32
}

// -----

#mesh = #tle.device_mesh<shape = [2], axes = ["x"]>
tt.func @shard_id_unknown_level() -> i32 {
  // expected-error @+1 {{axis "x" has no level (the mesh has no `levels`)}}
  %0 = tle.shard_id #mesh, "x"
  tt.return %0 : i32
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @grid_barrier_in_partition() {
    tle.warp_specialize()
    default {
      // expected-error @+1 {{a grid barrier needs every thread of the CTA; it cannot be inside a warp_specialize partition}}
      tle.distributed_barrier grid
      tle.warp_yield
    }
    partition0() num_warps(1) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#mesh = #tle.device_mesh<shape = [64, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @submesh_too_large() {
    // expected-error @+1 {{a sub-mesh barrier of 64 CTAs is larger than a cluster can be}}
    tle.distributed_barrier submesh rank 1 shape [64] axes ["cx"] mesh #mesh
    tt.return
  }
}

// -----

#m2 = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
#m4 = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @barrier_mesh_disagrees() -> i32 {
    // expected-note @+1 {{first cluster mesh used here}}
    %0 = tle.shard_id #m2, "cx"
    // expected-error @+1 {{has a cluster of 4 CTAs, but}}
    tle.distributed_barrier cluster mesh #m4
    tt.return %0 : i32
  }
}

// -----

// TTIR: no layout to compute owners from.
tt.func @atomic_ttir(%p: tensor<64x!tt.ptr<i32, 3>>, %v: tensor<64xi32>) -> tensor<64xi32> {
  // expected-error @+1 {{cannot be lowered without a layout: run it on TTGIR, where tensors carry encodings}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (tensor<64x!tt.ptr<i32, 3>>, tensor<64xi32>) -> tensor<64xi32>
  tt.return %0 : tensor<64xi32>
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @tmem() {
  // expected-error @+1 {{tensor-memory buffers are not lowered by triton-tle-lower-local-memory yet}}
  %buf = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
  tt.return
}

// -----

// A memdesc buffer (used other than through tle.local_pointers) must have
// power-of-two dimensions after the first: it becomes Triton's ttg.local_alloc.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @padded_memdesc() -> !ttg.memdesc<32x66xf32, #shared, #smem, mutable> {
  // expected-error @+1 {{a buffer of shape [32, 66] used other than through tle.local_pointers becomes Triton's ttg.local_alloc, whose dimensions after the first must be powers of two}}
  %buf = tle.alloc smem : () -> !ttg.memdesc<32x66xf32, #shared, #smem, mutable>
  tt.return %buf : !ttg.memdesc<32x66xf32, #shared, #smem, mutable>
}
