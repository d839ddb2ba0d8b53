// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-loads | FileCheck %s

// A plain load of the whole buffer becomes tle.local_load in the load's
// encoding; the dead full view is erased.

// CHECK-LABEL: tt.func @full_view(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[V:.+]] = tle.local_load %[[BUF]] : !ttg.memdesc<64x32xf32, #{{.+}}, #smem, mutable> -> tensor<64x32xf32, #[[B:.+]]>
// CHECK-NEXT: tt.store %arg0, %[[V]] : tensor<64x32x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @full_view(%out: tensor<64x32x!tt.ptr<f32>, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v = tt.load %p : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    tt.store %out, %v : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// The full view is kept while another user (a masked load) needs it; the
// masked load, the load with `other`, the volatile load, the cached load and
// the load through derived (addptr) or indexed pointers are left alone.

// CHECK-LABEL: tt.func @left_alone(
// CHECK: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]] :
// CHECK-NEXT: %[[V0:.+]] = tle.local_load %[[BUF]]
// CHECK-NEXT: tt.load %[[P]], %arg1 :
// CHECK-NEXT: tt.load %[[P]], %arg1, %arg2 :
// CHECK-NEXT: tt.load %[[P]] {isVolatile = true} :
// CHECK-NEXT: tt.load %[[P]] cacheModifier = ca :
// CHECK-NEXT: %[[Q:.+]] = tt.addptr %[[P]]
// CHECK-NEXT: tt.load %[[Q]] :
// CHECK-NEXT: %[[I:.+]] = tle.local_pointers %[[BUF]][%arg3, %arg3]
// CHECK-NEXT: tt.load %[[I]] :
// CHECK-NOT: tle.local_load
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%out: tensor<64x32x!tt.ptr<f32>, #blocked>, %m: tensor<64x32xi1, #blocked>, %o: tensor<64x32xf32, #blocked>, %idx: tensor<64x32xi32, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v0 = tt.load %p : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v1 = tt.load %p, %m : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v2 = tt.load %p, %m, %o : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v3 = tt.load %p {isVolatile = true} : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v4 = tt.load %p cacheModifier = ca : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %q = tt.addptr %p, %idx : tensor<64x32x!tt.ptr<f32, 3>, #blocked>, tensor<64x32xi32, #blocked>
    %v5 = tt.load %q : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %i = tle.local_pointers %buf[%idx, %idx] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<64x32xi32, #blocked>, tensor<64x32xi32, #blocked> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v6 = tt.load %i : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    tt.store %out, %v0 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %out, %v1 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %out, %v2 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %out, %v3 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %out, %v4 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %out, %v5 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %out, %v6 : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A scalar pointer and a global (address space 1) load are not buffer views.

// CHECK-LABEL: tt.func @scalar_and_global(
// CHECK-NOT: tle.local_load
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scalar_and_global(%g: tensor<128x!tt.ptr<f32>, #blocked>, %i: i32, %out: !tt.ptr<f32>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf[%i] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, i32 -> !tt.ptr<f32, 3>
    %s = tt.load %p : !tt.ptr<f32, 3>
    %v = tt.load %g : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %g, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.store %out, %s : !tt.ptr<f32>
    tt.return
  }
}
