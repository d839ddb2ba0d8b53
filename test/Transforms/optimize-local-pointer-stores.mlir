// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-stores | FileCheck %s

// A plain store of the whole buffer becomes tle.local_store; the dead full
// view is erased.

// CHECK-LABEL: tt.func @full_view(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: tle.local_store %arg0, %[[BUF]] : tensor<64x32xf16, #{{.+}}> -> !ttg.memdesc<64x32xf16, #{{.+}}, #smem, mutable>
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @full_view(%v: tensor<64x32xf16, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.store %p, %v : tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.return
  }
}

// -----

// Masked, cached and indexed stores are left alone, and so is the full view
// they use; loads are not this pass's business.

// CHECK-LABEL: tt.func @left_alone(
// CHECK: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]] :
// CHECK-NEXT: tt.store %[[P]], %arg0, %arg1 :
// CHECK-NEXT: tt.store %[[P]], %arg0 cacheModifier = wb :
// CHECK-NEXT: %[[I:.+]] = tle.local_pointers %[[BUF]][%arg2]
// CHECK-NEXT: tt.store %[[I]], %arg0 :
// CHECK-NEXT: tt.load %[[P]] :
// CHECK-NOT: tle.local_store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%v: tensor<128xf32, #blocked>, %m: tensor<128xi1, #blocked>, %idx: tensor<128xi32, #blocked>, %out: tensor<128x!tt.ptr<f32>, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v, %m : tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v cacheModifier = wb : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %i = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %i, %v : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %w = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %out, %w : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
