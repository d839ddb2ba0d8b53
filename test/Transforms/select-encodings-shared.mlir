// RUN: tle-opt %s -split-input-file -triton-tle-select-encodings | FileCheck %s

// (c) Column accesses (blocked order [0, 1]) of a row-major 64x32xf16
// memdesc buffer: B = 2, R = 32, vec = min(16/2, 32) = 8,
// perPhase = 128 / 64 = 2, maxPhase = min(8/2, 32/8) = 4. Every user sees
// the new type.

// CHECK-DAG: #[[SW:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
// CHECK-LABEL: tt.func @column_access(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #[[SW]], #smem, mutable>
// CHECK-NEXT: tle.local_store %arg0, %[[BUF]] : tensor<64x32xf16, #{{.+}}> -> !ttg.memdesc<64x32xf16, #[[SW]], #smem, mutable>
// CHECK-NEXT: tle.local_load %[[BUF]] : !ttg.memdesc<64x32xf16, #[[SW]], #smem, mutable>
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

// -----

// (c) An mma register layout and a 128x128xf32 buffer: vec = 4,
// perPhase = max(1, 128 / 512) = 1, maxPhase = min(8, 128/4) = 8. A tle.copy
// into it in a row layout does not matter: one non-row access is enough.

// CHECK-DAG: #[[SW:.+]] = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func @mma_access(
// CHECK-NEXT: tle.alloc smem : () -> !ttg.memdesc<128x128xf32, #[[SW]], #smem, mutable>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mma_access(%g: tensor<128x128x!tt.ptr<f32>, #row>, %out: tensor<128x128x!tt.ptr<f32>, #mma>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128x128xf32, #shared, #smem, mutable>
    tle.copy %g, %buf shape [128, 128] : tensor<128x128x!tt.ptr<f32>, #row> -> !ttg.memdesc<128x128xf32, #shared, #smem, mutable>
    %v = tle.local_load %buf : !ttg.memdesc<128x128xf32, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
    tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #mma>
    tt.return
  }
}

// -----

// Kept unswizzled: row accesses only (store, load, copy out); a rank-1
// buffer; a row of 16 bytes (32x4xf32: perPhase = 8, maxPhase = 1, nothing
// to permute); a buffer with a user that is not a whole-buffer access; a
// buffer that already has a swizzle; a pointer buffer read down columns.

// CHECK-LABEL: tt.func @kept(
// CHECK-NOT: vec = {{[2-9]}}
// CHECK: tt.return
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @kept(%x: tensor<64x32xf16, #row>, %g: tensor<64x32x!tt.ptr<f16>, #row>, %y: tensor<512xf32, #b1>, %z: tensor<32x4xf32, #col>, %gc: tensor<64x32x!tt.ptr<f16>, #col>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tle.local_store %x, %a : tensor<64x32xf16, #row> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %av = tle.local_load %a : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #row>
    tle.copy %a, %g shape [64, 32] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16>, #row>
    %b = tle.alloc smem %y : (tensor<512xf32, #b1>) -> !ttg.memdesc<512xf32, #shared1, #smem, mutable>
    %bv = tle.local_load %b : !ttg.memdesc<512xf32, #shared1, #smem, mutable> -> tensor<512xf32, #b1>
    %c = tle.alloc smem : () -> !ttg.memdesc<32x4xf32, #shared, #smem, mutable>
    tle.local_store %z, %c : tensor<32x4xf32, #col> -> !ttg.memdesc<32x4xf32, #shared, #smem, mutable>
    %d = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    tle.local_store %x, %d : tensor<64x32xf16, #row> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %dv = ttg.local_load %d : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #col>
    %e = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 2, order = [1, 0]}>, #smem, mutable>
    %ev = tle.local_load %e : !ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 2, order = [1, 0]}>, #smem, mutable> -> tensor<64x32xf16, #col>
    %f = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %fp = tle.local_pointers %f : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #col>
    %fv = tt.load %fp : tensor<64x32x!tt.ptr<f16, 3>, #col>
    %fw = tle.local_load %f : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32xf16, #col>
    tt.store %gc, %fv : tensor<64x32x!tt.ptr<f16>, #col>
    tt.store %gc, %fw : tensor<64x32x!tt.ptr<f16>, #col>
    tt.store %gc, %dv : tensor<64x32x!tt.ptr<f16>, #col>
    tt.store %gc, %ev : tensor<64x32x!tt.ptr<f16>, #col>
    tt.return
  }
}

// -----

// Kept: an encoding whose order does not name exactly the buffer's
// dimensions (here three for a 2-D buffer) is not one the swizzle rule
// covers (scripts/fuzz_tle_opt.py: the pass indexed the shape with order[0]
// and asserted).

// CHECK-LABEL: tt.func @order_rank_mismatch(
// CHECK-NEXT: tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #{{shared[0-9]*}}, #smem, mutable>
// CHECK-NOT: vec = {{[2-9]}}
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @order_rank_mismatch(%x: tensor<64x64xf32, #row>) -> tensor<64x64xf32, #col> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    tle.local_store %x, %buf : tensor<64x64xf32, #row> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %v = tle.local_load %buf : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64xf32, #col>
    tt.return %v : tensor<64x64xf32, #col>
  }
}

// -----

// A row of 2^32 elements: the swizzle's arithmetic is 64-bit (in 32 bits the
// row truncated to 0 and was divided by: SIGFPE, found by
// scripts/fuzz_tle_opt.py). vec = 8, perPhase = 1, maxPhase = 8.

// CHECK-DAG: #[[SW:.+]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func @huge_row(
// CHECK-NEXT: tle.alloc smem : () -> !ttg.memdesc<2x4294967296xf16, #[[SW]], #smem, mutable>
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @huge_row(%x: tensor<2x4294967296xf16, #row>) -> tensor<2x4294967296xf16, #col> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x4294967296xf16, #shared, #smem, mutable>
    tle.local_store %x, %buf : tensor<2x4294967296xf16, #row> -> !ttg.memdesc<2x4294967296xf16, #shared, #smem, mutable>
    %v = tle.local_load %buf : !ttg.memdesc<2x4294967296xf16, #shared, #smem, mutable> -> tensor<2x4294967296xf16, #col>
    tt.return %v : tensor<2x4294967296xf16, #col>
  }
}
