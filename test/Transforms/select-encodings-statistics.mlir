// RUN: tle-opt %s -triton-tle-select-encodings -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s

// Column accesses of a row-major buffer: the buffer is swizzled; no access
// has a convert to fold.
// CHECK: TLESelectEncodings
// CHECK-DAG: (S) 0 accesses-moved - Shared-memory accesses moved to the layout their users want
// CHECK-DAG: (S) 1 buffers-swizzled - Shared buffers given a swizzled encoding

#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @column_access(%x: tensor<64x32xf16, #row>, %out: tensor<64x32x!tt.ptr<f16>, #col>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tle.local_store %x, %buf : tensor<64x32xf16, #row> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %v = tle.local_load %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #col>
    tt.store %out, %v : tensor<64x32x!tt.ptr<f16>, #col>
    tt.return
  }
}

