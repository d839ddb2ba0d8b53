// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-pipes --triton-tle-lower-warp-specialize --triton-tle-lower-local-memory --triton-tle-async-copy-loads

// A feature the module's ttg.target lacks is an error naming the op, the
// feature, the minimum and the target (docs/targets.md), not an abort in
// Triton's LLVM backend (as setmaxnreg and barrier.cluster for sm_80 were).
// Each case fails in the pass that lowers it.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @pipe_on_sm75(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{'tle.pipe.create' op a pipe (mbarrier rings) needs sm_80 or newer; this module's ttg.target is "cuda:75" (docs/targets.md)}}
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @num_regs_on_sm80() {
    // expected-error @+1 {{'tle.warp_specialize' op partition_num_regs (register reallocation with setmaxnreg; worker_num_regs in Python) needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) num_regs(40) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warp_specialize_on_sm75() {
    // expected-error @+1 {{'tle.warp_specialize' op warp specialization needs sm_80 or newer; this module's ttg.target is "cuda:75"}}
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cluster_on_sm80(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>) -> tensor<128x!tt.ptr<f32, 7>, #blocked> {
    // expected-error @+1 {{'tle.shard_id' op a thread-block cluster (distributed shared memory) needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
    %cx = tle.shard_id #mesh, "cx"
    // expected-error @+1 {{'tle.remote_pointers' op a thread-block cluster (distributed shared memory) needs sm_90 or newer}}
    %r = tle.remote_pointers cluster %p, %cx : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
    // expected-error @+1 {{'tle.distributed_barrier' op a thread-block cluster (distributed shared memory) needs sm_90 or newer}}
    tle.distributed_barrier cluster
    tt.return %r : tensor<128x!tt.ptr<f32, 7>, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:75", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @async_load_on_sm75(%p: tensor<512x!tt.ptr<f32>, #blocked>) -> tensor<512xf32, #blocked> {
    // expected-error @+1 {{'tt.load' op tle.load(is_async=True) (a cp.async copy) needs sm_80 or newer; this module's ttg.target is "cuda:75"}}
    %a = tt.load %p {tle.async, tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return %a : tensor<512xf32, #blocked>
  }
}

// -----

#mesh = #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @submesh_on_sm80() {
    // expected-error @+1 {{'tle.distributed_barrier' op a thread-block cluster (a sub-mesh barrier) needs sm_90 or newer}}
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #mesh
    tt.return
  }
}
