// RUN: tle-opt %s -split-input-file --triton-tle-lower-dsa | FileCheck %s

// Buffers: memrefs in the DSA space (#tle.dsa.address_space<S>).
// CHECK-LABEL: tt.func @alloc_every_space
// CHECK-NEXT: memref.alloc() : memref<16x16xf32, #tle.dsa.address_space<UB>>
// CHECK-NEXT: memref.alloc() : memref<32x16xf16, #tle.dsa.address_space<L1>>
// CHECK-NEXT: memref.alloc() : memref<16x16xbf16, #tle.dsa.address_space<L0A>>
// CHECK-NEXT: memref.alloc() : memref<16x16xi8, #tle.dsa.address_space<L0B>>
// CHECK-NEXT: memref.alloc() : memref<16x16xi32, #tle.dsa.address_space<L0C>>
// CHECK-NEXT: memref.alloc() : memref<2x4x8xf64, #tle.dsa.address_space<UB>>
// CHECK-NEXT: tt.return
tt.func @alloc_every_space() {
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %1 = tle.dsa.alloc : !tle.dsa.buffer<32x16xf16, L1>
  %2 = tle.dsa.alloc : !tle.dsa.buffer<16x16xbf16, L0A>
  %3 = tle.dsa.alloc : !tle.dsa.buffer<16x16xi8, L0B>
  %4 = tle.dsa.alloc : !tle.dsa.buffer<16x16xi32, L0C>
  %5 = tle.dsa.alloc : !tle.dsa.buffer<2x4x8xf64, UB>
  tt.return
}

// -----

// Elementwise ops: linalg named ops on the memrefs, destination-passing.
// CHECK-LABEL: tt.func @binary
// CHECK: %[[A:.*]] = memref.alloc() : memref<8x16xf32, #tle.dsa.address_space<UB>>
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK: %[[C:.*]] = memref.alloc()
// CHECK: linalg.add ins(%[[A]], %[[B]] : memref<8x16xf32, #tle.dsa.address_space<UB>>, memref<8x16xf32, #tle.dsa.address_space<UB>>) outs(%[[C]] : memref<8x16xf32, #tle.dsa.address_space<UB>>)
// CHECK: linalg.sub ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : {{.*}})
// CHECK: linalg.mul ins(%[[C]], %[[B]] : {{.*}}) outs(%[[C]] : {{.*}})
// CHECK: linalg.div ins(%[[C]], %[[A]] : {{.*}}) outs(%[[B]] : {{.*}})
// CHECK: linalg.max ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : {{.*}})
// CHECK: linalg.min ins(%[[C]], %[[B]] : {{.*}}) outs(%[[A]] : {{.*}})
// CHECK-NOT: tle.
tt.func @binary() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<8x16xf32, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<8x16xf32, UB>
  %c = tle.dsa.alloc : !tle.dsa.buffer<8x16xf32, UB>
  tle.dsa.add %a, %b, %c : !tle.dsa.buffer<8x16xf32, UB>
  tle.dsa.sub %a, %b, %c : !tle.dsa.buffer<8x16xf32, UB>
  tle.dsa.mul %c, %b, %c : !tle.dsa.buffer<8x16xf32, UB>
  tle.dsa.div %c, %a, %b : !tle.dsa.buffer<8x16xf32, UB>
  tle.dsa.max %a, %b, %c : !tle.dsa.buffer<8x16xf32, UB>
  tle.dsa.min %c, %b, %a : !tle.dsa.buffer<8x16xf32, UB>
  tt.return
}

// -----

// Integer max/min stay linalg.max/min (signed comparison on signless ints).
// CHECK-LABEL: tt.func @int_max
// CHECK: linalg.max ins({{.*}} : memref<64xi32, #tle.dsa.address_space<UB>>, memref<64xi32, #tle.dsa.address_space<UB>>) outs({{.*}} : memref<64xi32, #tle.dsa.address_space<UB>>)
tt.func @int_max() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<64xi32, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<64xi32, UB>
  tle.dsa.max %a, %b, %a : !tle.dsa.buffer<64xi32, UB>
  tt.return
}

// -----

// to_tensor / to_buffer: bufferization ops. A buffer's only to_tensor is
// restrict; writable is kept.
// CHECK-LABEL: tt.func @tensor_views
// CHECK: %[[C:.*]] = memref.alloc() : memref<16x16xf32, #tle.dsa.address_space<UB>>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[C]] restrict writable : memref<16x16xf32, #tle.dsa.address_space<UB>> to tensor<16x16xf32>
// CHECK: %[[S:.*]] = arith.addf %[[T]], %[[T]] : tensor<16x16xf32>
// CHECK: %[[D:.*]] = memref.alloc() : memref<16x16xf32, #tle.dsa.address_space<L1>>
// CHECK: bufferization.materialize_in_destination %[[S]] in writable %[[D]] : (tensor<16x16xf32>, memref<16x16xf32, #tle.dsa.address_space<L1>>) -> ()
// CHECK: tt.return %[[S]]
tt.func @tensor_views() -> tensor<16x16xf32> {
  %c = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %t = tle.dsa.to_tensor %c writable : !tle.dsa.buffer<16x16xf32, UB> -> tensor<16x16xf32>
  %s = arith.addf %t, %t : tensor<16x16xf32>
  %d = tle.dsa.to_buffer %s : tensor<16x16xf32> -> !tle.dsa.buffer<16x16xf32, L1>
  tt.return %s : tensor<16x16xf32>
}

// -----

// Two to_tensor views of one buffer: neither is restrict.
// CHECK-LABEL: tt.func @two_views
// CHECK: bufferization.to_tensor %{{.*}} : memref<4xf32, #tle.dsa.address_space<UB>> to tensor<4xf32>
// CHECK: bufferization.to_tensor %{{.*}} : memref<4xf32, #tle.dsa.address_space<UB>> to tensor<4xf32>
tt.func @two_views() -> (tensor<4xf32>, tensor<4xf32>) {
  %c = tle.dsa.alloc : !tle.dsa.buffer<4xf32, UB>
  %t = tle.dsa.to_tensor %c : !tle.dsa.buffer<4xf32, UB> -> tensor<4xf32>
  %u = tle.dsa.to_tensor %c : !tle.dsa.buffer<4xf32, UB> -> tensor<4xf32>
  tt.return %t, %u : tensor<4xf32>, tensor<4xf32>
}

// -----

// Buffer-to-buffer copies: memref.copy, tails through subviews.
// CHECK-LABEL: tt.func @local_copies
// CHECK: %[[L1:.*]] = memref.alloc() : memref<16x16xf16, #tle.dsa.address_space<L1>>
// CHECK: %[[L0A:.*]] = memref.alloc() : memref<16x16xf16, #tle.dsa.address_space<L0A>>
// CHECK: memref.copy %[[L1]], %[[L0A]] : memref<16x16xf16, #tle.dsa.address_space<L1>> to memref<16x16xf16, #tle.dsa.address_space<L0A>>
// CHECK: %[[M:.*]] = arith.index_cast %arg0 : i32 to index
// CHECK: %[[SRC:.*]] = memref.subview %[[L1]][0, 0] [%[[M]], 8] [1, 1] : memref<16x16xf16, #tle.dsa.address_space<L1>> to memref<?x8xf16, strided<[16, 1]>, #tle.dsa.address_space<L1>>
// CHECK: %[[DST:.*]] = memref.subview %[[L0A]][0, 0] [%[[M]], 8] [1, 1] : memref<16x16xf16, #tle.dsa.address_space<L0A>> to memref<?x8xf16, strided<[16, 1]>, #tle.dsa.address_space<L0A>>
// CHECK: memref.copy %[[SRC]], %[[DST]]
tt.func @local_copies(%m: i32) {
  %l1 = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L1>
  %l0a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L0A>
  tle.dsa.copy %l1, %l0a : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0A>
  %c8 = arith.constant 8 : i32
  tle.dsa.copy %l1, %l0a sizes [%m, %c8] : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0A>
  tt.return
}
