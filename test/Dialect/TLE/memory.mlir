// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// CHECK-DAG: #[[BLOCKED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SHARED:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #[[SMEM:smem[0-9]*]] = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory

//===----------------------------------------------------------------------===//
// tle.alloc
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @alloc_smem(
// CHECK: %{{.*}} = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable>
// CHECK: %{{.*}} = tle.alloc smem %arg0 : (tensor<64x32xf32, #[[BLOCKED]]>) -> !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable>
// CHECK: %{{.*}} = tle.alloc smem %arg1 : (tensor<2x64x32xf16>) -> !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>
func.func @alloc_smem(%v: tensor<64x32xf32, #blocked>, %w: tensor<2x64x32xf16>) {
  %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  %b = tle.alloc smem %v : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  %c = tle.alloc smem %w : (tensor<2x64x32xf16>) -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
  return
}

// No ttg.target: target-neutral IR accepts tensor memory.
// CHECK-LABEL: func.func @alloc_tmem_neutral(
// CHECK: %{{.*}} = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #[[SHARED]], #ttng.tensor_memory, mutable>
// CHECK: %{{.*}} = tle.alloc tmem %arg0 : (tensor<128x64xf32, #[[BLOCKED]]>) -> !ttg.memdesc<128x64xf32, #[[SHARED]], #ttng.tensor_memory, mutable>
func.func @alloc_tmem_neutral(%v: tensor<128x64xf32, #blocked>) {
  %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #tmem, mutable>
  %b = tle.alloc tmem %v : (tensor<128x64xf32, #blocked>) -> !ttg.memdesc<128x64xf32, #shared, #tmem, mutable>
  return
}

// The generic form spells the scope #tle.memory_space<...>.
// CHECK-LABEL: func.func @alloc_generic(
// CHECK: %{{.*}} = tle.alloc smem : () -> !ttg.memdesc<16xi32, #{{shared[0-9]*}}, #[[SMEM]], mutable>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @alloc_generic() {
  %a = "tle.alloc"() <{scope = #tle.memory_space<smem>}> : () -> !ttg.memdesc<16xi32, #shared1, #smem, mutable>
  return
}

// Blackwell targets accept tensor memory; the nearest module naming a target
// decides.
// CHECK-LABEL: module attributes {ttg.target = "cuda:100"}
// CHECK: func.func @alloc_tmem_sm100(
// CHECK: tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #[[SHARED]], #ttng.tensor_memory, mutable>
// CHECK: module attributes {ttg.target = "cuda:90"}
// CHECK: module attributes {ttg.target = "cuda:103"}
// CHECK: func.func @alloc_tmem_nested(
// CHECK: tle.alloc tmem : () -> !ttg.memdesc<64x64xbf16, #[[SHARED]], #ttng.tensor_memory, mutable>
module attributes {ttg.target = "cuda:100"} {
  func.func @alloc_tmem_sm100() {
    %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #tmem, mutable>
    return
  }
}
module attributes {ttg.target = "cuda:90"} {
  module attributes {ttg.target = "cuda:103"} {
    func.func @alloc_tmem_nested() {
      %a = tle.alloc tmem : () -> !ttg.memdesc<64x64xbf16, #shared, #tmem, mutable>
      return
    }
  }
}

// Shared memory is fine on any target.
// CHECK: module attributes {ttg.target = "hip:gfx942"}
// CHECK: func.func @alloc_smem_hip(
module attributes {ttg.target = "hip:gfx942"} {
  func.func @alloc_smem_hip() {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
    return
  }
}

//===----------------------------------------------------------------------===//
// tle.copy
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @copy_both_ways(
// CHECK: tle.copy %arg0, %arg1 shape [64, 32] : tensor<64x32x!tt.ptr<f16>, #[[BLOCKED]]> -> !ttg.memdesc<64x32xf16, #[[SHARED]], #[[SMEM]], mutable>
// CHECK: tle.copy %arg1, %arg0 shape [64, 32] : !ttg.memdesc<64x32xf16, #[[SHARED]], #[[SMEM]], mutable> -> tensor<64x32x!tt.ptr<f16>, #[[BLOCKED]]>
func.func @copy_both_ways(%ptrs: tensor<64x32x!tt.ptr<f16>, #blocked>, %buf: !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
  tle.copy %ptrs, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f16>, #blocked> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  tle.copy %buf, %ptrs shape [64, 32] : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16>, #blocked>
  return
}

// Copying out of an immutable buffer is fine.
// CHECK-LABEL: func.func @copy_from_immutable(
// CHECK: tle.copy %arg1, %arg0 shape [128] : !ttg.memdesc<128xi32, #{{shared[0-9]*}}, #[[SMEM]]> -> tensor<128x!tt.ptr<i32>>
func.func @copy_from_immutable(%ptrs: tensor<128x!tt.ptr<i32>>, %buf: !ttg.memdesc<128xi32, #shared1, #smem>) {
  tle.copy %buf, %ptrs shape [128] : !ttg.memdesc<128xi32, #shared1, #smem> -> tensor<128x!tt.ptr<i32>>
  return
}

//===----------------------------------------------------------------------===//
// tle.local_load / tle.local_store
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @load_store(
// CHECK: %[[V:.*]] = tle.local_load %arg0 : !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable> -> tensor<64x32xf32, #[[BLOCKED]]>
// CHECK: %[[W:.*]] = tle.local_load %arg0 : !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable> -> tensor<64x32xf32>
// CHECK: tle.local_store %[[W]], %arg0 : tensor<64x32xf32> -> !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable>
// CHECK: %{{.*}} = tle.local_load %arg1 : !ttg.memdesc<128x128xf32, #[[SHARED]], #ttng.tensor_memory> -> tensor<128x128xf32, #[[BLOCKED]]>
// CHECK: tle.local_store %[[V]], %arg2 : tensor<64x32xf32, #[[BLOCKED]]> -> !ttg.memdesc<64x32xf32, #[[SHARED]], #ttng.tensor_memory, mutable>
func.func @load_store(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %acc: !ttg.memdesc<128x128xf32, #shared, #tmem>, %tbuf: !ttg.memdesc<64x32xf32, #shared, #tmem, mutable>) {
  %v = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32, #blocked>
  %w = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32>
  tle.local_store %w, %buf : tensor<64x32xf32> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  %x = tle.local_load %acc : !ttg.memdesc<128x128xf32, #shared, #tmem> -> tensor<128x128xf32, #blocked>
  tle.local_store %v, %tbuf : tensor<64x32xf32, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #tmem, mutable>
  return
}

// A store through a subview of a larger allocation.
// CHECK-LABEL: func.func @store_subview(
// CHECK: tle.local_store %arg0, %arg1 : tensor<64x32xf32> -> !ttg.memdesc<64x32xf32, #[[SHARED]], #[[SMEM]], mutable, 3x64x32>
func.func @store_subview(%v: tensor<64x32xf32>, %slot: !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 3x64x32>) {
  tle.local_store %v, %slot : tensor<64x32xf32> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 3x64x32>
  return
}
