// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// CHECK: #[[BLOCKED:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @cluster_tensor(
// CHECK: %{{.*}} = tle.remote_pointers cluster %arg0, %arg1 : tensor<128x!tt.ptr<f32, 3>, #[[BLOCKED]]> -> tensor<128x!tt.ptr<f32, 7>, #[[BLOCKED]]>
func.func @cluster_tensor(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %cta: i32) -> tensor<128x!tt.ptr<f32, 7>, #blocked> {
  %r = tle.remote_pointers cluster %p, %cta : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked>
  return %r : tensor<128x!tt.ptr<f32, 7>, #blocked>
}

// CHECK-LABEL: func.func @cluster_scalar(
// CHECK: %{{.*}} = tle.remote_pointers cluster %arg0, %arg1 : !tt.ptr<i32, 3> -> !tt.ptr<i32, 7>
func.func @cluster_scalar(%p: !tt.ptr<i32, 3>, %cta: i32) -> !tt.ptr<i32, 7> {
  %r = tle.remote_pointers cluster %p, %cta : !tt.ptr<i32, 3> -> !tt.ptr<i32, 7>
  return %r : !tt.ptr<i32, 7>
}

// CHECK-LABEL: func.func @cluster_plain_2d(
// CHECK: %{{.*}} = tle.remote_pointers cluster %arg0, %arg1 : tensor<16x8x!tt.ptr<bf16, 3>> -> tensor<16x8x!tt.ptr<bf16, 7>>
func.func @cluster_plain_2d(%p: tensor<16x8x!tt.ptr<bf16, 3>>, %cta: i32) -> tensor<16x8x!tt.ptr<bf16, 7>> {
  %r = tle.remote_pointers cluster %p, %cta : tensor<16x8x!tt.ptr<bf16, 3>> -> tensor<16x8x!tt.ptr<bf16, 7>>
  return %r : tensor<16x8x!tt.ptr<bf16, 7>>
}

// Re-targeting pointers already into a peer's shared memory.
// CHECK-LABEL: func.func @cluster_retarget(
// CHECK: %{{.*}} = tle.remote_pointers cluster %arg0, %arg1 : !tt.ptr<i32, 7> -> !tt.ptr<i32, 7>
func.func @cluster_retarget(%p: !tt.ptr<i32, 7>, %cta: i32) -> !tt.ptr<i32, 7> {
  %r = tle.remote_pointers cluster %p, %cta : !tt.ptr<i32, 7> -> !tt.ptr<i32, 7>
  return %r : !tt.ptr<i32, 7>
}

// CHECK-LABEL: func.func @device_tensor(
// CHECK: %{{.*}} = tle.remote_pointers device %arg0, %arg1 offset %arg2 : tensor<128x!tt.ptr<f16>, #[[BLOCKED]]> -> tensor<128x!tt.ptr<f16>, #[[BLOCKED]]>
func.func @device_tensor(%p: tensor<128x!tt.ptr<f16>, #blocked>, %peer: i32, %delta: i64) -> tensor<128x!tt.ptr<f16>, #blocked> {
  %r = tle.remote_pointers device %p, %peer offset %delta : tensor<128x!tt.ptr<f16>, #blocked> -> tensor<128x!tt.ptr<f16>, #blocked>
  return %r : tensor<128x!tt.ptr<f16>, #blocked>
}

// CHECK-LABEL: func.func @device_scalar(
// CHECK: %{{.*}} = tle.remote_pointers device %arg0, %arg1 offset %arg2 : !tt.ptr<f32> -> !tt.ptr<f32>
func.func @device_scalar(%p: !tt.ptr<f32>, %peer: i32, %delta: i64) -> !tt.ptr<f32> {
  %r = tle.remote_pointers device %p, %peer offset %delta : !tt.ptr<f32> -> !tt.ptr<f32>
  return %r : !tt.ptr<f32>
}

// The generic form names the space with #tle.remote_space.
// CHECK-LABEL: func.func @generic_form(
// CHECK: %{{.*}} = tle.remote_pointers cluster %arg0, %arg1 : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
func.func @generic_form(%p: !tt.ptr<f32, 3>, %cta: i32) -> !tt.ptr<f32, 7> {
  %r = "tle.remote_pointers"(%p, %cta) <{space = #tle.remote_space<cluster>}> : (!tt.ptr<f32, 3>, i32) -> !tt.ptr<f32, 7>
  return %r : !tt.ptr<f32, 7>
}

// One CTA per pointer: a tensor of shard ids, spelled after the result type.
// CHECK-LABEL: func.func @cluster_per_element(
// CHECK: %{{.*}} = tle.remote_pointers cluster %arg0, %arg1 : tensor<128x!tt.ptr<f32, 3>, #[[BLOCKED]]> -> tensor<128x!tt.ptr<f32, 7>, #[[BLOCKED]]> shard tensor<128xi32, #[[BLOCKED]]>
func.func @cluster_per_element(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %ctas: tensor<128xi32, #blocked>) -> tensor<128x!tt.ptr<f32, 7>, #blocked> {
  %r = tle.remote_pointers cluster %p, %ctas : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>, #blocked> shard tensor<128xi32, #blocked>
  return %r : tensor<128x!tt.ptr<f32, 7>, #blocked>
}
