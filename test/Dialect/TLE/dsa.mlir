// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -cse | FileCheck %s --check-prefix=CSE

// CHECK-LABEL: func.func @alloc_every_space
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<32x16xf16, L1>
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<16x16xbf16, L0A>
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<16x16xi8, L0B>
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<16x16xi32, L0C>
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<128xi64, UB>
// CHECK-NEXT: %{{.*}} = tle.dsa.alloc : !tle.dsa.buffer<2x4x8xf64, UB>
func.func @alloc_every_space() {
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %1 = tle.dsa.alloc : !tle.dsa.buffer<32x16xf16, L1>
  %2 = tle.dsa.alloc : !tle.dsa.buffer<16x16xbf16, L0A>
  %3 = tle.dsa.alloc : !tle.dsa.buffer<16x16xi8, L0B>
  %4 = tle.dsa.alloc : !tle.dsa.buffer<16x16xi32, L0C>
  %5 = tle.dsa.alloc : !tle.dsa.buffer<128xi64, UB>
  %6 = tle.dsa.alloc : !tle.dsa.buffer<2x4x8xf64, UB>
  return
}

// Every legal data path of tle.dsa.copy.
// CHECK-LABEL: func.func @copy_paths
// CHECK: tle.dsa.copy %arg0, %[[UB:.*]] : tensor<16x16x!tt.ptr<f16>> -> !tle.dsa.buffer<16x16xf16, UB>
// CHECK: tle.dsa.copy %arg0, %[[L1:.*]] : tensor<16x16x!tt.ptr<f16>> -> !tle.dsa.buffer<16x16xf16, L1>
// CHECK: tle.dsa.copy %[[UB]], %arg0 : !tle.dsa.buffer<16x16xf16, UB> -> tensor<16x16x!tt.ptr<f16>>
// CHECK: tle.dsa.copy %[[UB]], %[[UB2:.*]] : !tle.dsa.buffer<16x16xf16, UB> -> !tle.dsa.buffer<16x16xf16, UB>
// CHECK: tle.dsa.copy %[[L1]], %arg0 : !tle.dsa.buffer<16x16xf16, L1> -> tensor<16x16x!tt.ptr<f16>>
// CHECK: tle.dsa.copy %[[L1]], %[[L0A:.*]] : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0A>
// CHECK: tle.dsa.copy %[[L1]], %[[L0B:.*]] : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0B>
// CHECK: tle.dsa.copy %[[L0C:.*]], %[[UB]] : !tle.dsa.buffer<16x16xf16, L0C> -> !tle.dsa.buffer<16x16xf16, UB>
// CHECK: tle.dsa.copy %[[L0C]], %arg0 : !tle.dsa.buffer<16x16xf16, L0C> -> tensor<16x16x!tt.ptr<f16>>
func.func @copy_paths(%gm: tensor<16x16x!tt.ptr<f16>>) {
  %ub = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, UB>
  %ub2 = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, UB>
  %l1 = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L1>
  %l0a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L0A>
  %l0b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L0B>
  %l0c = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L0C>
  tle.dsa.copy %gm, %ub : tensor<16x16x!tt.ptr<f16>> -> !tle.dsa.buffer<16x16xf16, UB>
  tle.dsa.copy %gm, %l1 : tensor<16x16x!tt.ptr<f16>> -> !tle.dsa.buffer<16x16xf16, L1>
  tle.dsa.copy %ub, %gm : !tle.dsa.buffer<16x16xf16, UB> -> tensor<16x16x!tt.ptr<f16>>
  tle.dsa.copy %ub, %ub2 : !tle.dsa.buffer<16x16xf16, UB> -> !tle.dsa.buffer<16x16xf16, UB>
  tle.dsa.copy %l1, %gm : !tle.dsa.buffer<16x16xf16, L1> -> tensor<16x16x!tt.ptr<f16>>
  tle.dsa.copy %l1, %l0a : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0A>
  tle.dsa.copy %l1, %l0b : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0B>
  tle.dsa.copy %l0c, %ub : !tle.dsa.buffer<16x16xf16, L0C> -> !tle.dsa.buffer<16x16xf16, UB>
  tle.dsa.copy %l0c, %gm : !tle.dsa.buffer<16x16xf16, L0C> -> tensor<16x16x!tt.ptr<f16>>
  return
}

// Tail copies bounded by runtime and constant sizes; encoded pointer tensors.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @copy_sizes
// CHECK: tle.dsa.copy %arg0, %[[B:.*]] sizes [%arg1, %arg2] : tensor<16x32x!tt.ptr<f32>, #{{.*}}> -> !tle.dsa.buffer<16x32xf32, UB>
// CHECK: tle.dsa.copy %[[B]], %arg0 sizes [%{{.*}}, %{{.*}}] : !tle.dsa.buffer<16x32xf32, UB> -> tensor<16x32x!tt.ptr<f32>, #{{.*}}>
func.func @copy_sizes(%p: tensor<16x32x!tt.ptr<f32>, #blocked>, %m: i32, %n: i32) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x32xf32, UB>
  tle.dsa.copy %p, %b sizes [%m, %n] : tensor<16x32x!tt.ptr<f32>, #blocked> -> !tle.dsa.buffer<16x32xf32, UB>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  tle.dsa.copy %b, %p sizes [%c0, %c32] : !tle.dsa.buffer<16x32xf32, UB> -> tensor<16x32x!tt.ptr<f32>, #blocked>
  return
}

// CHECK-LABEL: func.func @tensor_views
// CHECK: %[[T:.*]] = tle.dsa.to_tensor %{{.*}} writable : !tle.dsa.buffer<16x16xf32, UB> -> tensor<16x16xf32>
// CHECK: %{{.*}} = tle.dsa.to_tensor %{{.*}} : !tle.dsa.buffer<16x16xf32, L0C> -> tensor<16x16xf32, #{{.*}}>
// CHECK: %{{.*}} = tle.dsa.to_buffer %[[T]] : tensor<16x16xf32> -> !tle.dsa.buffer<16x16xf32, UB>
// CHECK: %{{.*}} = tle.dsa.to_buffer %arg0 : tensor<16x16xi32> -> !tle.dsa.buffer<16x16xi32, L1>
func.func @tensor_views(%x: tensor<16x16xi32>) -> tensor<16x16xf32> {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %acc = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, L0C>
  %t = tle.dsa.to_tensor %b writable : !tle.dsa.buffer<16x16xf32, UB> -> tensor<16x16xf32>
  %e = tle.dsa.to_tensor %acc : !tle.dsa.buffer<16x16xf32, L0C> -> tensor<16x16xf32, #blocked>
  %d = tle.dsa.to_buffer %t : tensor<16x16xf32> -> !tle.dsa.buffer<16x16xf32, UB>
  %i = tle.dsa.to_buffer %x : tensor<16x16xi32> -> !tle.dsa.buffer<16x16xi32, L1>
  return %t : tensor<16x16xf32>
}

// Three equal types print as one.
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: %[[A:.*]] = tle.dsa.alloc
// CHECK-NEXT: %[[B:.*]] = tle.dsa.alloc
// CHECK-NEXT: %[[C:.*]] = tle.dsa.alloc
// CHECK-NEXT: tle.dsa.add %[[A]], %[[B]], %[[C]] : !tle.dsa.buffer<16x16xf32, UB>{{$}}
// CHECK-NEXT: tle.dsa.sub %[[A]], %[[B]], %[[C]] : !tle.dsa.buffer<16x16xf32, UB>{{$}}
// CHECK-NEXT: tle.dsa.mul %[[C]], %[[B]], %[[C]] : !tle.dsa.buffer<16x16xf32, UB>{{$}}
// CHECK-NEXT: tle.dsa.div %[[C]], %[[B]], %[[A]] : !tle.dsa.buffer<16x16xf32, UB>{{$}}
// CHECK-NEXT: tle.dsa.max %[[A]], %[[B]], %[[C]] : !tle.dsa.buffer<16x16xf32, UB>{{$}}
// CHECK-NEXT: tle.dsa.min %[[C]], %[[B]], %[[A]] : !tle.dsa.buffer<16x16xf32, UB>{{$}}
func.func @elementwise() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %c = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  tle.dsa.add %a, %b, %c : !tle.dsa.buffer<16x16xf32, UB>
  tle.dsa.sub %a, %b, %c : !tle.dsa.buffer<16x16xf32, UB>, !tle.dsa.buffer<16x16xf32, UB>, !tle.dsa.buffer<16x16xf32, UB>
  tle.dsa.mul %c, %b, %c : !tle.dsa.buffer<16x16xf32, UB>
  tle.dsa.div %c, %b, %a : !tle.dsa.buffer<16x16xf32, UB>
  tle.dsa.max %a, %b, %c : !tle.dsa.buffer<16x16xf32, UB>
  tle.dsa.min %c, %b, %a : !tle.dsa.buffer<16x16xf32, UB>
  return
}

// Integers: everything but div.
// CHECK-LABEL: func.func @elementwise_int
// CHECK: tle.dsa.add %{{.*}}, %{{.*}}, %{{.*}} : !tle.dsa.buffer<64xi32, UB>
// CHECK: tle.dsa.sub %{{.*}}, %{{.*}}, %{{.*}} : !tle.dsa.buffer<64xi32, UB>
// CHECK: tle.dsa.mul %{{.*}}, %{{.*}}, %{{.*}} : !tle.dsa.buffer<64xi32, UB>
// CHECK: tle.dsa.max %{{.*}}, %{{.*}}, %{{.*}} : !tle.dsa.buffer<64xi32, UB>
// CHECK: tle.dsa.min %{{.*}}, %{{.*}}, %{{.*}} : !tle.dsa.buffer<64xi32, UB>
func.func @elementwise_int() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<64xi32, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<64xi32, UB>
  tle.dsa.add %a, %b, %b : !tle.dsa.buffer<64xi32, UB>
  tle.dsa.sub %a, %b, %b : !tle.dsa.buffer<64xi32, UB>
  tle.dsa.mul %a, %b, %b : !tle.dsa.buffer<64xi32, UB>
  tle.dsa.max %a, %b, %b : !tle.dsa.buffer<64xi32, UB>
  tle.dsa.min %a, %b, %b : !tle.dsa.buffer<64xi32, UB>
  return
}

// The flow of the Python reference: GM -> UB, add, view as a tensor, back to
// a UB buffer, UB -> GM.
// CHECK-LABEL: func.func @python_flow
// CHECK: tle.dsa.copy %arg0, %[[A:.*]] : tensor<32x64x!tt.ptr<f16>> -> !tle.dsa.buffer<32x64xf16, UB>
// CHECK: tle.dsa.copy %arg1, %[[B:.*]] : tensor<32x64x!tt.ptr<f16>> -> !tle.dsa.buffer<32x64xf16, UB>
// CHECK: tle.dsa.add %[[A]], %[[B]], %[[C:.*]] : !tle.dsa.buffer<32x64xf16, UB>
// CHECK: %[[V:.*]] = tle.dsa.to_tensor %[[C]] writable : !tle.dsa.buffer<32x64xf16, UB> -> tensor<32x64xf16>
// CHECK: %[[O:.*]] = tle.dsa.to_buffer %[[V]] : tensor<32x64xf16> -> !tle.dsa.buffer<32x64xf16, UB>
// CHECK: tle.dsa.copy %[[O]], %arg2 : !tle.dsa.buffer<32x64xf16, UB> -> tensor<32x64x!tt.ptr<f16>>
func.func @python_flow(%a_ptrs: tensor<32x64x!tt.ptr<f16>>, %b_ptrs: tensor<32x64x!tt.ptr<f16>>,
                       %out_ptrs: tensor<32x64x!tt.ptr<f16>>) {
  %a = tle.dsa.alloc : !tle.dsa.buffer<32x64xf16, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<32x64xf16, UB>
  %c = tle.dsa.alloc : !tle.dsa.buffer<32x64xf16, UB>
  tle.dsa.copy %a_ptrs, %a : tensor<32x64x!tt.ptr<f16>> -> !tle.dsa.buffer<32x64xf16, UB>
  tle.dsa.copy %b_ptrs, %b : tensor<32x64x!tt.ptr<f16>> -> !tle.dsa.buffer<32x64xf16, UB>
  tle.dsa.add %a, %b, %c : !tle.dsa.buffer<32x64xf16, UB>
  %v = tle.dsa.to_tensor %c writable : !tle.dsa.buffer<32x64xf16, UB> -> tensor<32x64xf16>
  %o = tle.dsa.to_buffer %v : tensor<32x64xf16> -> !tle.dsa.buffer<32x64xf16, UB>
  tle.dsa.copy %o, %out_ptrs : !tle.dsa.buffer<32x64xf16, UB> -> tensor<32x64x!tt.ptr<f16>>
  return
}

// The address-space attribute on its own.
// CHECK-LABEL: func.func @space_attr
// CHECK-SAME: tle.space = #tle.dsa.address_space<L0C>
func.func @space_attr() attributes {tle.space = #tle.dsa.address_space<L0C>} {
  return
}

// Memory effects: CSE keeps a second read of a buffer written in between,
// and merges two reads with no write between them.
// CSE-LABEL: func.func @effects
// CSE: %[[A:.*]] = tle.dsa.alloc
// CSE-NEXT: %[[B:.*]] = tle.dsa.alloc
// CSE-NEXT: %[[T0:.*]] = tle.dsa.to_tensor %[[A]]
// CSE-NEXT: tle.dsa.add %[[B]], %[[B]], %[[A]]
// CSE-NEXT: %[[T1:.*]] = tle.dsa.to_tensor %[[A]]
// CSE-NEXT: return %[[T0]], %[[T1]], %[[T1]]
func.func @effects() -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = tle.dsa.alloc : !tle.dsa.buffer<8xf32, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<8xf32, UB>
  %t0 = tle.dsa.to_tensor %a : !tle.dsa.buffer<8xf32, UB> -> tensor<8xf32>
  tle.dsa.add %b, %b, %a : !tle.dsa.buffer<8xf32, UB>
  %t1 = tle.dsa.to_tensor %a : !tle.dsa.buffer<8xf32, UB> -> tensor<8xf32>
  %t2 = tle.dsa.to_tensor %a : !tle.dsa.buffer<8xf32, UB> -> tensor<8xf32>
  return %t0, %t1, %t2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
