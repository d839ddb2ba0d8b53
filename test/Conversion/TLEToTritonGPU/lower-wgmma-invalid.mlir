// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-wgmma

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @sm80(%a: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
    // expected-error @+1 {{tle.gpu.wgmma (wgmma.mma_async) needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
    %d = tle.wgmma %a, %a, %acc : !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @argument_operand(%a: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
    // expected-error @+1 {{cannot take a wgmma layout (it must be a tle.gpu.alloc buffer, or a slot of one, without local pointers)}}
    %d = tle.wgmma %a, %a, %acc : !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @one_warp_partition(%acc: tensor<64x64xf32, #blocked>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // expected-error @+1 {{runs on 1 warps; a wgmma needs whole warpgroups, in the default partition or a partition of the kernel's 4 warps (a multiple of 4)}}
      %d = tle.wgmma %a, %a, %acc : !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @pointer_buffer(%acc: tensor<64x64xf32, #blocked>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %p = tle.local_pointers %a : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64x!tt.ptr<f16, 3>, #blocked>
    // expected-error @+1 {{cannot take a wgmma layout}}
    %d = tle.wgmma %a, %a, %acc : !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#colmajor = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @view_loaded() {
    %k = tle.alloc smem : () -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
    // expected-error @+1 {{is used by tle.local_load; a wgmma view may only be a tle.gpu.wgmma operand}}
    %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> !ttg.memdesc<64x32xf16, #colmajor, #smem, mutable>
    %l = tle.local_load %kt : !ttg.memdesc<64x32xf16, #colmajor, #smem, mutable> -> tensor<64x32xf16, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @alias_pointer_buffer() {
    %p = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #plain, #smem, mutable>
    %ptrs = tle.local_pointers %p : !ttg.memdesc<64x64xf32, #plain, #smem, mutable> -> tensor<64x64x!tt.ptr<f32, 3>, #blocked>
    // expected-error @+1 {{a buffer accessed through local pointers cannot be aliased}}
    %o = tle.alloc_alias %p : !ttg.memdesc<64x64xf32, #plain, #smem, mutable> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    tt.return
  }
}
