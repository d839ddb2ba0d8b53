// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-barriers

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @barriers_from_argument(%b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
    // expected-error @+1 {{takes barriers that do not come from tle.barrier_alloc (tle.gpu.alloc_barriers) in this function}}
    tle.barrier_wait %b[%i], %i : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    tt.return
  }
}

// -----

// Triton's warp specialization takes named barriers 0 to W + 2 (here W = 1).

module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @named_id_taken() {
    tle.warp_specialize()
    default {
      // expected-error @+1 {{uses named barrier 3, which Triton's warp specialization uses in this kernel (ids 0 to 3); pick an id from 4 to 15}}
      tle.named_barrier_sync 3, 160
      tle.warp_yield
    }
    partition0() num_warps(1) {
      tle.named_barrier_arrive 4, 160
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @expect_tx_sm80(%i: i32) {
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{tle.gpu.barrier_arrive with expect_tx (mbarrier transaction counts) needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
    tle.barrier_arrive %b[%i] {expect_tx = 64 : i64} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

// The value is not TritonGPU's TMA expansion (a plain tensor argument).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @tma_not_expansion(%v: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{value is not TritonGPU's TMA load of a tensor descriptor used only here}}
    tle.async_tma_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

// The loaded value has another use: it must stay in registers.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @tma_value_used(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %x: i32) -> tensor<64x64xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %s = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %s, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %scratch, %s, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.wait_barrier %s, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %v = ttg.local_load %scratch : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // expected-error @+1 {{value is not TritonGPU's TMA load of a tensor descriptor used only here}}
    tle.async_tma_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return %v : tensor<64x64xf16, #blocked>
  }
}

// -----

// A buffer another TMA copy already laid out (swizzle 128) cannot take a
// second descriptor's layout (swizzle 64).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @tma_two_layouts(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %desc64: !tt.tensordesc<tensor<64x64xf16, #nv64>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %s = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %s, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%x, %x] %scratch, %s, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttng.wait_barrier %s, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %v = ttg.local_load %scratch : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tle.async_tma_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    %scratch2 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nv64, #smem, mutable>
    %s2 = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %s2, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc64[%x, %x] %scratch2, %s2, %true : !tt.tensordesc<tensor<64x64xf16, #nv64>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nv64, #smem, mutable>
    ttng.wait_barrier %s2, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %v2 = ttg.local_load %scratch2 : !ttg.memdesc<64x64xf16, #nv64, #smem, mutable> -> tensor<64x64xf16, #blocked>
    // expected-error @+1 {{cannot take the descriptor's TMA layout}}
    tle.async_tma_load %v2, %buf, %b[%c1] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @tma_sm80(%v: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
    tle.async_tma_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @cp_async_not_a_load(%v: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{value is not a tt.load of global pointers}}
    tle.async_copy_load %v, %buf, %b[%c0] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:75"} {
  tt.func @cp_async_sm75(%p: tensor<32x32x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    %v = tt.load %p : tensor<32x32x!tt.ptr<f32>, #blocked>
    // expected-error @+1 {{(cp.async) needs sm_80 or newer; this module's ttg.target is "cuda:75"}}
    tle.async_copy_load %v, %buf, %b[%c0] : tensor<32x32xf32, #blocked>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
    tt.return
  }
}

// -----

// The stored value is not a whole load of the buffer that Triton's TMA
// store expansion consumes.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @tma_store_no_expansion(%v: tensor<64x64xf16, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    // expected-error @+1 {{is not after TritonGPU's TMA store of a whole load of its buffer}}
    tle.async_tma_store %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    tt.return
  }
}

// -----

// An explicit cp.async that no commit follows would never be waited for.
#v4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @never_committed(%p: tensor<32x32x!tt.ptr<f32>, #v4>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    tle.async_commit_group
    %va = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
    // expected-error @+1 {{'tle.async_copy' op is never committed: tle.gpu.copy(is_async=True) into a buffer outside a pipe completes with tle.gpu.async_commit_group() and tle.gpu.async_wait_group(n), and no commit follows this copy}}
    tle.async_copy %va, %a : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    tle.async_wait_group 0
    tt.return
  }
}

// -----

// cp.async is sm_80's.
#v4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:75"} {
  tt.func @before_sm80(%p: tensor<32x32x!tt.ptr<f32>, #v4>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    %va = tt.load %p : tensor<32x32x!tt.ptr<f32>, #v4>
    // expected-error @+1 {{needs sm_80}}
    tle.async_copy %va, %a : tensor<32x32xf32, #v4>, !ttg.memdesc<32x32xf32, #plain, #smem, mutable>
    tle.async_commit_group
    tt.return
  }
}

// -----

// A TMA descriptor in global memory needs TMA (sm_90).

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @tensor_map_sm80(%p: !tt.ptr<i8>) {
    // expected-error @+1 {{a TMA descriptor in global memory needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
    tle.tensor_map_fence_acquire %p : !tt.ptr<i8>
    tt.return
  }
}

// -----

// A cache hint on a value no TMA load made.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @hint_not_tma(%v: tensor<8x32xf32, #blocked>) {
    // expected-error @+1 {{value is not TritonGPU's TMA load of a tensor descriptor}}
    tle.tma_load_cache_hint %v "evict_first" : tensor<8x32xf32, #blocked>
    tt.return
  }
}

// -----

// An array used as named barriers (a wait without phaseIdx) and as an
// mbarrier (a wait with one).
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @named_and_phased() {
    %c0 = arith.constant 0 : i32
    %b = tle.barrier_alloc arrive_count 128 : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>
    tle.barrier_wait %b[%c0], %c0 {named} : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32, i32
    // expected-error @+1 {{uses as an mbarrier an array that a barrier_wait without phaseIdx uses as named barriers}}
    tle.barrier_wait %b[%c0], %c0 : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32, i32
    tt.return
  }
}

// -----

// Named barriers count threads.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @named_count() {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{is used as named barriers (a barrier_wait without phaseIdx), whose arrive_count counts threads: a multiple of 32 up to 1024, got 2}}
    %b = tle.barrier_alloc arrive_count 2 : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>
    tle.barrier_wait %b[%c0], %c0 {named} : !ttg.memdesc<1x1xi64, #bar, #smem, mutable>, i32, i32
    tt.return
  }
}

// -----

// A runtime index.
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @named_runtime_index(%i: i32) {
    %c0 = arith.constant 0 : i32
    %b = tle.barrier_alloc arrive_count 128 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
    // expected-error @+1 {{uses named barriers (FlagTree's barrier_wait without phaseIdx) at an index that is not a constant in range}}
    tle.barrier_wait %b[%i], %c0 {named} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
    tt.return
  }
}
