// RUN: tle-opt %s -split-input-file -triton-tle-select-encodings | FileCheck %s

// (e) An indexed load whose value only goes into shared memory (a wgmma
// operand's ttg.local_alloc) or through converts, in the one-element-per-
// thread layout Triton's Coalesce gave the opaque pointers: its offsets run
// contiguously along a dimension, so it takes a layout with 16 bytes per
// thread along it; indices and mask are recomputed in that layout.

// The transposed read of a 64x16 f16 tile of another CTA (FlagTree's
// cluster GEMM): element (i, j) at j * 16 + i, contiguous along dim 0.
// CHECK: #[[VEC:.*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @remote_transposed(
// CHECK: %[[R:.*]] = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #[[VEC]]}>>
// CHECK: %[[P:.*]] = tle.local_pointers %{{.*}}[%{{.*}}, %{{.*}}] : {{.*}} -> tensor<16x64x!tt.ptr<f16, 3>, #[[VEC]]>
// CHECK-NEXT: %[[Q:.*]] = tle.remote_pointers cluster %[[P]], %arg0 : tensor<16x64x!tt.ptr<f16, 3>, #[[VEC]]> -> tensor<16x64x!tt.ptr<f16, 7>, #[[VEC]]>
// CHECK-NEXT: %[[V:.*]] = tt.load %[[Q]] : tensor<16x64x!tt.ptr<f16, 7>, #[[VEC]]>
// CHECK-NEXT: ttg.local_alloc %[[V]] : (tensor<16x64xf16, #[[VEC]]>)
#col = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @remote_transposed(%peer: i32) -> !ttg.memdesc<16x64xf16, #nvmma, #smem> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x16xf16, #shared, #smem, mutable>
    %k = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>>
    %m = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>>
    %k2 = tt.expand_dims %k {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #col}>> -> tensor<16x1xi32, #col>
    %m2 = tt.expand_dims %m {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #col}>> -> tensor<1x64xi32, #col>
    %kb = tt.broadcast %k2 : tensor<16x1xi32, #col> -> tensor<16x64xi32, #col>
    %mb = tt.broadcast %m2 : tensor<1x64xi32, #col> -> tensor<16x64xi32, #col>
    %p = tle.local_pointers %buf[%mb, %kb] : !ttg.memdesc<64x16xf16, #shared, #smem, mutable>, tensor<16x64xi32, #col>, tensor<16x64xi32, #col> -> tensor<16x64x!tt.ptr<f16, 3>, #col>
    %q = tle.remote_pointers cluster %p, %peer : tensor<16x64x!tt.ptr<f16, 3>, #col> -> tensor<16x64x!tt.ptr<f16, 7>, #col>
    %v = tt.load %q : tensor<16x64x!tt.ptr<f16, 7>, #col>
    %a = ttg.local_alloc %v : (tensor<16x64xf16, #col>) -> !ttg.memdesc<16x64xf16, #nvmma, #smem>
    tt.return %a : !ttg.memdesc<16x64xf16, #nvmma, #smem>
  }
}

// -----

// A masked local load of rows read row-major (contiguous along dim 1, 64
// f32: four per thread), converted for its user: the mask is recomputed in
// the new layout and the convert now starts from it.
// CHECK: #[[ROW:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: tt.func @masked_rows(
// CHECK: %[[M:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<8x64xi32, #[[ROW]]>
// CHECK: %[[V:.*]] = tt.load %{{.*}}, %[[M]] : tensor<8x64x!tt.ptr<f32, 3>, #[[ROW]]>
// CHECK-NEXT: ttg.convert_layout %[[V]] : tensor<8x64xf32, #[[ROW]]> -> tensor<8x64xf32, #{{.*}}>
#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#other = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @masked_rows(%n: i32) -> tensor<8x64xf32, #other> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<8x64xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #one}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #one}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #one}>> -> tensor<8x1xi32, #one>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #one}>> -> tensor<1x64xi32, #one>
    %rb = tt.broadcast %r2 : tensor<8x1xi32, #one> -> tensor<8x64xi32, #one>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #one> -> tensor<8x64xi32, #one>
    %ns = tt.splat %n : i32 -> tensor<8x64xi32, #one>
    %mask = arith.cmpi slt, %cb, %ns : tensor<8x64xi32, #one>
    %p = tle.local_pointers %buf[%rb, %cb] : !ttg.memdesc<8x64xf32, #shared, #smem, mutable>, tensor<8x64xi32, #one>, tensor<8x64xi32, #one> -> tensor<8x64x!tt.ptr<f32, 3>, #one>
    %v = tt.load %p, %mask : tensor<8x64x!tt.ptr<f32, 3>, #one>
    %w = ttg.convert_layout %v : tensor<8x64xf32, #one> -> tensor<8x64xf32, #other>
    tt.return %w : tensor<8x64xf32, #other>
  }
}

// -----

// Left alone: a load used in registers (its layout is its users' too); a
// load whose offsets are not contiguous along any dimension (every other
// column); a load already four elements per thread along its run.
// CHECK-LABEL: tt.func @left_alone(
// CHECK-COUNT-3: tt.load %{{.*}} : tensor<8x64x!tt.ptr<f32, 3>, #blocked{{[0-9]*}}>
// CHECK-NOT: tt.load
#one = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#vec = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @left_alone() -> (tensor<8x64xf32, #one>, !ttg.memdesc<8x64xf32, #nvmma, #smem>, !ttg.memdesc<8x64xf32, #nvmma, #smem>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<8x128xf32, #shared, #smem, mutable>
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #one}>>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #one}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #one}>> -> tensor<8x1xi32, #one>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #one}>> -> tensor<1x64xi32, #one>
    %rb = tt.broadcast %r2 : tensor<8x1xi32, #one> -> tensor<8x64xi32, #one>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #one> -> tensor<8x64xi32, #one>
    %p = tle.local_pointers %buf[%rb, %cb] : !ttg.memdesc<8x128xf32, #shared, #smem, mutable>, tensor<8x64xi32, #one>, tensor<8x64xi32, #one> -> tensor<8x64x!tt.ptr<f32, 3>, #one>
    %v = tt.load %p : tensor<8x64x!tt.ptr<f32, 3>, #one>
    %two = arith.constant dense<2> : tensor<8x64xi32, #one>
    %c2x = arith.muli %cb, %two : tensor<8x64xi32, #one>
    %q = tle.local_pointers %buf[%rb, %c2x] : !ttg.memdesc<8x128xf32, #shared, #smem, mutable>, tensor<8x64xi32, #one>, tensor<8x64xi32, #one> -> tensor<8x64x!tt.ptr<f32, 3>, #one>
    %w = tt.load %q : tensor<8x64x!tt.ptr<f32, 3>, #one>
    %wa = ttg.local_alloc %w : (tensor<8x64xf32, #one>) -> !ttg.memdesc<8x64xf32, #nvmma, #smem>
    %r3 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #vec}>>
    %c3 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #vec}>>
    %r4 = tt.expand_dims %r3 {axis = 1 : i32} : tensor<8xi32, #ttg.slice<{dim = 1, parent = #vec}>> -> tensor<8x1xi32, #vec>
    %c4 = tt.expand_dims %c3 {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #vec}>> -> tensor<1x64xi32, #vec>
    %rv = tt.broadcast %r4 : tensor<8x1xi32, #vec> -> tensor<8x64xi32, #vec>
    %cv = tt.broadcast %c4 : tensor<1x64xi32, #vec> -> tensor<8x64xi32, #vec>
    %s = tle.local_pointers %buf[%rv, %cv] : !ttg.memdesc<8x128xf32, #shared, #smem, mutable>, tensor<8x64xi32, #vec>, tensor<8x64xi32, #vec> -> tensor<8x64x!tt.ptr<f32, 3>, #vec>
    %x = tt.load %s : tensor<8x64x!tt.ptr<f32, 3>, #vec>
    %xa = ttg.local_alloc %x : (tensor<8x64xf32, #vec>) -> !ttg.memdesc<8x64xf32, #nvmma, #smem>
    tt.return %v, %wa, %xa : tensor<8x64xf32, #one>, !ttg.memdesc<8x64xf32, #nvmma, #smem>, !ttg.memdesc<8x64xf32, #nvmma, #smem>
  }
}
