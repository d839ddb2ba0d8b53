// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// CHECK-DAG: #[[B1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[B2:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[SHARED:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #[[SMEM:smem[0-9]*]] = #ttg.shared_memory

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory

// CHECK-LABEL: func.func @full_view(
// CHECK: %{{.*}} = tle.local_pointers %arg0 : !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #[[B1]]>
func.func @full_view(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) -> tensor<64x32x!tt.ptr<f32, 3>, #blocked> {
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
  return %p : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
}

// A full view of an immutable buffer, without an encoding on the result.
// CHECK-LABEL: func.func @full_view_plain(
// CHECK: %{{.*}} = tle.local_pointers %arg0 : !ttg.memdesc<128xf16, #{{shared[0-9]*}}, #[[SMEM]]> -> tensor<128x!tt.ptr<f16, 3>>
func.func @full_view_plain(%buf: !ttg.memdesc<128xf16, #shared1, #smem>) -> tensor<128x!tt.ptr<f16, 3>> {
  %p = tle.local_pointers %buf : !ttg.memdesc<128xf16, #shared1, #smem> -> tensor<128x!tt.ptr<f16, 3>>
  return %p : tensor<128x!tt.ptr<f16, 3>>
}

// Scalar indices of different integer widths give one scalar pointer.
// CHECK-LABEL: func.func @scalar_indices(
// CHECK: %{{.*}} = tle.local_pointers %arg0[%arg1, %arg2] : !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable>, i32, i64 -> !tt.ptr<f32, 3>
func.func @scalar_indices(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32, %j: i64) -> !tt.ptr<f32, 3> {
  %p = tle.local_pointers %buf[%i, %j] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i64 -> !tt.ptr<f32, 3>
  return %p : !tt.ptr<f32, 3>
}

// Tensor indices: the result takes their shape and encoding, which need not
// be the buffer's.
// CHECK-LABEL: func.func @tensor_indices(
// CHECK: %{{.*}} = tle.local_pointers %arg0[%arg1, %arg2] : !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable>, tensor<128xi32, #[[B2]]>, tensor<128xi32, #[[B2]]> -> tensor<128x!tt.ptr<f32, 3>, #[[B2]]>
func.func @tensor_indices(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %rows: tensor<128xi32, #blocked1>, %cols: tensor<128xi32, #blocked1>) -> tensor<128x!tt.ptr<f32, 3>, #blocked1> {
  %p = tle.local_pointers %buf[%rows, %cols] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
  return %p : tensor<128x!tt.ptr<f32, 3>, #blocked1>
}

// Tensor indices without an encoding, of mixed widths, on a subview whose
// allocation is larger than its shape.
// CHECK-LABEL: func.func @tensor_indices_plain(
// CHECK: %{{.*}} = tle.local_pointers %arg0[%arg1, %arg2] : !ttg.memdesc<16x8xi8, #[[SHARED]], #[[SMEM]], mutable, 2x16x8>, tensor<4x4xi64>, tensor<4x4xi32> -> tensor<4x4x!tt.ptr<i8, 3>>
func.func @tensor_indices_plain(%buf: !ttg.memdesc<16x8xi8, #shared, #smem, mutable, 2x16x8>, %r: tensor<4x4xi64>, %c: tensor<4x4xi32>) -> tensor<4x4x!tt.ptr<i8, 3>> {
  %p = tle.local_pointers %buf[%r, %c] : !ttg.memdesc<16x8xi8, #shared, #smem, mutable, 2x16x8>, tensor<4x4xi64>, tensor<4x4xi32> -> tensor<4x4x!tt.ptr<i8, 3>>
  return %p : tensor<4x4x!tt.ptr<i8, 3>>
}
