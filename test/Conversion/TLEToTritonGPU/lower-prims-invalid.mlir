// RUN: tle-opt %s -split-input-file --triton-tle-lower-barriers --triton-tle-lower-wgmma --triton-tle-lower-layouts --triton-tle-lower-local-memory -verify-diagnostics

// Lowering errors of the item-1 leftovers.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @register_a_split_n(%p: tensor<64x32xf16, #blocked>, %acc: tensor<64x64xf32, #blocked>) {
    %v = tle.alloc smem : () -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
    // expected-error @+1 {{a register a operand needs one warpgroup per 64 rows of a (each warpgroup holds its own rows); M = 64 cannot be split over 2 warpgroups}}
    %d = tle.wgmma %p, %v, %acc : tensor<64x32xf16, #blocked>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#tma = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @fp8_b_n_major(%b: !ttg.memdesc<64x64xf8E4M3FN, #tma, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>
    // expected-error @+1 {{reads an 8-bit b operand stored K x N with N contiguous (a TMA copy's layout, say); wgmma reads 8-bit operands K-major only: load b as N x K and pass tle.gpu.memdesc_wgmma_view(b)}}
    %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>, !ttg.memdesc<64x64xf8E4M3FN, #tma, #smem, mutable>, tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @fp8_a_transposed(%acc: tensor<64x64xf32, #blocked>) {
    %at = tle.alloc smem : () -> !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>
    %a = tle.memdesc_wgmma_view %at {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable> -> !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>
    %b = tle.alloc smem : () -> !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>
    // expected-error @+1 {{reads an 8-bit a operand stored K x M (a transposed view); wgmma reads 8-bit operands K-major only: store a as M x K}}
    %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>, !ttg.memdesc<64x64xf8E4M3FN, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

#bars = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @try_wait_sm80(%phase: i32) -> i1 {
    %c0 = arith.constant 0 : i32
    %bars = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<1x1xi64, #bars, #smem, mutable>
    // expected-error @+1 {{needs sm_90}}
    %done = tle.barrier_try_wait %bars[%c0], %phase : !ttg.memdesc<1x1xi64, #bars, #smem, mutable>, i32, i32
    tt.return %done : i1
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#rows8 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @set_layout_warps(%x: tensor<64x64xf32, #blocked>) {
    // expected-error @+1 {{spreads over 8 warps, but its thread group has 4 (the kernel's num_warps, or the warp_specialize partition's)}}
    %y = tle.set_layout %x {layout = #rows8} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #rows8>
    tt.return
  }
}

// -----

#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 1, 4], order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // A slot of a pointer buffer is reached through pointers too; one of its
  // users that only takes a memdesc (Triton's own ttg.local_load) is an
  // error at that user.
  tt.func @slot_of_pointer_buffer(%i: i32) -> tensor<4x32xf32, #ttg.slice<{dim = 0, parent = #blocked}>> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x4x32xf32, #plain3, #smem, mutable>
    %ptrs = tle.local_pointers %buf : !ttg.memdesc<2x4x32xf32, #plain3, #smem, mutable> -> tensor<2x4x32x!tt.ptr<f32, 3>, #blocked>
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<2x4x32xf32, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<4x32xf32, #plain, #smem, mutable>
    // expected-error @+1 {{'ttg.local_load' op cannot use a buffer that tle.local_pointers also uses (a pointer buffer)}}
    %v = ttg.local_load %s : !ttg.memdesc<4x32xf32, #plain, #smem, mutable> -> tensor<4x32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    tt.return %v : tensor<4x32xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
  }
}
