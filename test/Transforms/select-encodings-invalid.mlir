// RUN: tle-opt %s -split-input-file -triton-tle-select-encodings -verify-diagnostics

// A pointer buffer must keep the unswizzled encoding: local pointers are
// lowered to row-major offsets.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @swizzled_pointer_buffer(%out: tensor<64x32x!tt.ptr<f16>, #blocked>) {
    // expected-error @+1 {{'tle.alloc' op is accessed through tle.local_pointers, which need the unswizzled}}
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #sw, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf16, #sw, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    %v = tt.load %p : tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.store %out, %v : tensor<64x32x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
