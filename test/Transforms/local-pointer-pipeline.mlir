// RUN: tle-opt %s -triton-tle-optimize-local-pointer-loads -triton-tle-optimize-local-pointer-stores -triton-tle-select-encodings -triton-tle-insert-local-pointer-barriers | FileCheck %s

// The TTGIR steps of docs/local-memory.md section 3 in their order. %a is
// written whole and read through indexed pointers: the store becomes
// tle.local_store, %a stays a pointer buffer (unswizzled) and gets a
// barrier before the gather. %t is stored and read whole, the read down
// columns: both become memdesc accesses, the pointers disappear, %t gets a
// swizzle and no barrier (Triton synchronizes memdesc buffers).

// CHECK-DAG: #[[SW:.+]] = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[PLAIN:.+]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-LABEL: tt.func @kernel(
// CHECK-NEXT: %[[A:.+]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #[[PLAIN]], #smem, mutable>
// CHECK-NEXT: %[[T:.+]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #[[SW]], #smem, mutable>
// CHECK-NEXT: tle.local_store %arg0, %[[A]]
// CHECK-NEXT: tle.local_pointers %[[A]][%arg1, %arg2]
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: tt.load
// CHECK-NEXT: tle.local_store %arg0, %[[T]]
// CHECK-NEXT: tle.local_load %[[T]]
// CHECK-NOT: gpu.barrier
// CHECK-NOT: tle.local_pointers
// CHECK: tt.return
#row = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @kernel(%x: tensor<64x64xf32, #row>, %r: tensor<64x64xi32, #row>, %c: tensor<64x64xi32, #row>, %out: tensor<64x64x!tt.ptr<f32>, #row>, %out2: tensor<64x64x!tt.ptr<f32>, #col>) {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %t = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable>
    %pa = tle.local_pointers %a : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64x!tt.ptr<f32, 3>, #row>
    tt.store %pa, %x : tensor<64x64x!tt.ptr<f32, 3>, #row>
    %ga = tle.local_pointers %a[%r, %c] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable>, tensor<64x64xi32, #row>, tensor<64x64xi32, #row> -> tensor<64x64x!tt.ptr<f32, 3>, #row>
    %v = tt.load %ga : tensor<64x64x!tt.ptr<f32, 3>, #row>
    %pt = tle.local_pointers %t : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64x!tt.ptr<f32, 3>, #row>
    tt.store %pt, %x : tensor<64x64x!tt.ptr<f32, 3>, #row>
    %pt2 = tle.local_pointers %t : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> tensor<64x64x!tt.ptr<f32, 3>, #col>
    %w = tt.load %pt2 : tensor<64x64x!tt.ptr<f32, 3>, #col>
    tt.store %out, %v : tensor<64x64x!tt.ptr<f32>, #row>
    tt.store %out2, %w : tensor<64x64x!tt.ptr<f32>, #col>
    tt.return
  }
}
