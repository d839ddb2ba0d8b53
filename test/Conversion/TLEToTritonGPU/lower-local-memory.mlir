// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory | FileCheck %s --implicit-check-not='tle.'

// Buffers and local pointers (docs/local-memory.md section 4). %buf and
// %tile are pointer buffers (tle.local_pointers users): slots 0 and 2048 of
// TLE's region (16-byte aligned), %colmajor at 4096; 4096 + 8*4*8 = 4352
// bytes in all. %stage
// is a memdesc buffer: Triton's own ttg.local_alloc.

#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared_t = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
// CHECK: module attributes {tle.shared = 4352 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @k
  // CHECK-NEXT: %[[A0:.*]] = tt.elementwise_inline_asm "tle.smem.base 0;" {constraints = "=r", packed_element = 1 : i32, pure = true} -> i32
  // CHECK-NEXT: %[[W0:.*]] = arith.extui %[[A0]] : i32 to i64
  // CHECK-NEXT: %[[BUF:.*]] = tt.int_to_ptr %[[W0]] {tt.divisibility = dense<16> : tensor<1xi32>} : i64 -> !tt.ptr<f32, 3>
  // CHECK-NEXT: %[[A1:.*]] = tt.elementwise_inline_asm "tle.smem.base 2048;"
  // CHECK-NEXT: %[[W1:.*]] = arith.extui %[[A1]]
  // CHECK-NEXT: %[[TILE:.*]] = tt.int_to_ptr %[[W1]] {tt.divisibility = dense<16> : tensor<1xi32>} : i64 -> !tt.ptr<f32, 3>
  // CHECK-NEXT: tt.elementwise_inline_asm "tle.smem.base 4096;"
  // CHECK-NEXT: arith.extui
  // CHECK-NEXT: tt.int_to_ptr
  // Memdesc buffer: copy = tt.load + ttg.local_store, local_load = ttg.local_load.
  // CHECK-NEXT: %[[STAGE:.*]] = ttg.local_alloc : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
  // CHECK: %[[XP:.*]] = tt.addptr
  // CHECK-NEXT: %[[X:.*]] = tt.load %[[XP]] : tensor<512x!tt.ptr<f32>, #blocked1>
  // CHECK-NEXT: ttg.local_store %[[X]], %[[STAGE]]
  // CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[STAGE]] : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked1>
  // Pointer buffer: local_store = tt.store through full-view pointers.
  // CHECK-NEXT: %[[R0:.*]] = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked1>
  // CHECK-NEXT: %[[S0:.*]] = tt.splat %[[BUF]] : !tt.ptr<f32, 3> -> tensor<512x!tt.ptr<f32, 3>, #blocked1>
  // CHECK-NEXT: %[[P0:.*]] = tt.addptr %[[S0]], %[[R0]]
  // CHECK-NEXT: tt.store %[[P0]], %[[V]] : tensor<512x!tt.ptr<f32, 3>, #blocked1>
  // Full view, 1-D.
  // CHECK-NEXT: tt.make_range {end = 512 : i32, start = 0 : i32}
  // CHECK-NEXT: tt.splat %[[BUF]]
  // CHECK-NEXT: %[[P:.*]] = tt.addptr
  // CHECK-NEXT: %[[W:.*]] = tt.load %[[P]] : tensor<512x!tt.ptr<f32, 3>, #blocked1>
  // Scalar indices: i * 32 + j.
  // CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
  // CHECK-NEXT: %[[M:.*]] = arith.muli %arg1, %[[C32]] : i32
  // CHECK-NEXT: %[[O:.*]] = arith.addi %[[M]], %arg2 : i32
  // CHECK-NEXT: %[[ONE:.*]] = tt.addptr %[[TILE]], %[[O]] : !tt.ptr<f32, 3>, i32
  // Full view, 2-D: rows * 32 + cols, in the result encoding.
  // CHECK-NEXT: tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
  // CHECK-NEXT: tt.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<16x1xi32, #blocked>
  // CHECK-NEXT: %[[ROWS:.*]] = tt.broadcast %{{.*}} : tensor<16x1xi32, #blocked> -> tensor<16x32xi32, #blocked>
  // CHECK-NEXT: tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
  // CHECK-NEXT: tt.expand_dims %{{.*}} {axis = 0 : i32}
  // CHECK-NEXT: %[[COLS:.*]] = tt.broadcast
  // CHECK-NEXT: %[[C:.*]] = arith.constant dense<32> : tensor<16x32xi32, #blocked>
  // CHECK-NEXT: %[[RM:.*]] = arith.muli %[[ROWS]], %[[C]]
  // CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[RM]], %[[COLS]]
  // CHECK-NEXT: %[[TS:.*]] = tt.splat %[[TILE]] : !tt.ptr<f32, 3> -> tensor<16x32x!tt.ptr<f32, 3>, #blocked>
  // CHECK-NEXT: %[[T:.*]] = tt.addptr %[[TS]], %[[OFF]]
  // Tensor indices.
  // CHECK-NEXT: arith.constant dense<32>
  // CHECK-NEXT: arith.muli %arg3
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: tt.splat %[[TILE]]
  // CHECK-NEXT: %[[SOME:.*]] = tt.addptr
  // Column-major (order = [0, 1]) 8x4 buffer: offset = col * 8 + row.
  // CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i32
  // CHECK-NEXT: %[[CM:.*]] = arith.muli %arg2, %[[C8]] : i32
  // CHECK-NEXT: arith.addi %arg1, %[[CM]] : i32
  // CHECK-NEXT: tt.addptr
  // CHECK: tt.load %[[T]]
  // CHECK-NEXT: tt.store %[[SOME]]
  // CHECK-NEXT: tt.load %[[ONE]] : !tt.ptr<f32, 3>
  tt.func public @k(%X: !tt.ptr<f32>, %i: i32, %j: i32, %rows: tensor<16x32xi32, #blocked2>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %tile = tle.alloc smem : () -> !ttg.memdesc<16x32xf32, #shared2, #smem, mutable>
    %colmajor = tle.alloc smem : () -> !ttg.memdesc<8x4xi64, #shared_t, #smem, mutable>
    %stage = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %offs = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blocked>
    %xs = tt.splat %X : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    tle.copy %xp, %stage shape [512] : tensor<512x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %v = tle.local_load %stage : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
    tle.local_store %v, %buf : tensor<512xf32, #blocked> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512x!tt.ptr<f32, 3>, #blocked>
    %w = tt.load %p : tensor<512x!tt.ptr<f32, 3>, #blocked>
    %one = tle.local_pointers %tile[%i, %j] : !ttg.memdesc<16x32xf32, #shared2, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
    %t = tle.local_pointers %tile : !ttg.memdesc<16x32xf32, #shared2, #smem, mutable> -> tensor<16x32x!tt.ptr<f32, 3>, #blocked2>
    %some = tle.local_pointers %tile[%rows, %rows] : !ttg.memdesc<16x32xf32, #shared2, #smem, mutable>, tensor<16x32xi32, #blocked2>, tensor<16x32xi32, #blocked2> -> tensor<16x32x!tt.ptr<f32, 3>, #blocked2>
    %cm = tle.local_pointers %colmajor[%i, %j] : !ttg.memdesc<8x4xi64, #shared_t, #smem, mutable>, i32, i32 -> !tt.ptr<i64, 3>
    %tv = tt.load %t : tensor<16x32x!tt.ptr<f32, 3>, #blocked2>
    tt.store %some, %tv : tensor<16x32x!tt.ptr<f32, 3>, #blocked2>
    %s = tt.load %one : !tt.ptr<f32, 3>
    tt.store %X, %s : !tt.ptr<f32>
    tt.store %xp, %w : tensor<512x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A pointer buffer with init and a copy to global memory; a 3-D full view.
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
// CHECK: module attributes {tle.shared = 512 : i32
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @init_copy_3d
  // CHECK: tt.elementwise_inline_asm "tle.smem.base 0;"
  // Init: stored through full-view pointers (dims 4x4x8, strides 32, 8, 1).
  // CHECK: arith.constant dense<32> : tensor<4x4x8xi32, #blocked>
  // CHECK: arith.constant dense<8> : tensor<4x4x8xi32, #blocked>
  // CHECK: tt.store %{{.*}}, %arg0 : tensor<4x4x8x!tt.ptr<f32, 3>, #blocked>
  // Copy to global: tt.load through full-view pointers, tt.store to %arg1.
  // CHECK: %[[V:.*]] = tt.load %{{.*}} : tensor<4x4x8x!tt.ptr<f32, 3>, #blocked>
  // CHECK-NEXT: tt.store %arg1, %[[V]] : tensor<4x4x8x!tt.ptr<f32>, #blocked>
  tt.func public @init_copy_3d(%x: tensor<4x4x8xf32, #blocked3>, %g: tensor<4x4x8x!tt.ptr<f32>, #blocked3>) -> tensor<4x4x8x!tt.ptr<f32, 3>, #blocked3> {
    %buf = tle.alloc smem %x : (tensor<4x4x8xf32, #blocked3>) -> !ttg.memdesc<4x4x8xf32, #shared3, #smem, mutable>
    tle.copy %buf, %g shape [4, 4, 8] : !ttg.memdesc<4x4x8xf32, #shared3, #smem, mutable> -> tensor<4x4x8x!tt.ptr<f32>, #blocked3>
    %p = tle.local_pointers %buf : !ttg.memdesc<4x4x8xf32, #shared3, #smem, mutable> -> tensor<4x4x8x!tt.ptr<f32, 3>, #blocked3>
    tt.return %p : tensor<4x4x8x!tt.ptr<f32, 3>, #blocked3>
  }
}

// -----

// A memdesc buffer with init and a copy to global memory; no TLE region.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// CHECK-NOT: tle.shared
// CHECK-LABEL: tt.func public @memdesc_init
// CHECK-NEXT: %[[B:.*]] = ttg.local_alloc %arg0 : (tensor<128xf32, #blocked>) -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
// CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[B]] : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128xf32, #blocked>
// CHECK-NEXT: tt.store %arg1, %[[V]] : tensor<128x!tt.ptr<f32>, #blocked>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @memdesc_init(%x: tensor<128xf32, #blocked>, %g: tensor<128x!tt.ptr<f32>, #blocked>) {
    %buf = tle.alloc smem %x : (tensor<128xf32, #blocked>) -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tle.copy %buf, %g shape [128] : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A buffer nothing reads or writes allocates nothing, whatever its shape
// (a kernel's spare ping-pong buffer; padded rows of 66 are no ttg.local_alloc).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @unused_buffer
  // CHECK-NOT: ttg.local_alloc
  // CHECK: tt.return
  tt.func @unused_buffer() {
    %buf = tle.alloc smem : () -> !ttg.memdesc<32x66xf32, #shared, #smem, mutable>
    %buf2 = tle.alloc smem : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    tt.return
  }
}
