// RUN: tle-opt %s -split-input-file -verify-diagnostics

func.func @cluster_offset(%p: !tt.ptr<f32, 3>, %cta: i32, %off: i64) {
  // expected-error @+1 {{offset is only allowed with space device}}
  %r = tle.remote_pointers cluster %p, %cta offset %off : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
  return
}

// -----

func.func @cluster_global_source(%p: !tt.ptr<f32>, %cta: i32) {
  // expected-error @+1 {{cluster space expects source pointers in address space 3 (shared memory) or 7 (another CTA's), got address space 1}}
  %r = tle.remote_pointers cluster %p, %cta : !tt.ptr<f32> -> !tt.ptr<f32, 7>
  return
}

// -----

func.func @cluster_result_space(%p: tensor<64x!tt.ptr<f32, 3>>, %cta: i32) {
  // expected-error @+1 {{cluster space result type must be 'tensor<64x!tt.ptr<f32, 7>>' (the source type with address space 7), got 'tensor<64x!tt.ptr<f32, 3>>'}}
  %r = tle.remote_pointers cluster %p, %cta : tensor<64x!tt.ptr<f32, 3>> -> tensor<64x!tt.ptr<f32, 3>>
  return
}

// -----

func.func @cluster_result_pointee(%p: !tt.ptr<f32, 3>, %cta: i32) {
  // expected-error @+1 {{cluster space result type must be '!tt.ptr<f32, 7>' (the source type with address space 7), got '!tt.ptr<i32, 7>'}}
  %r = tle.remote_pointers cluster %p, %cta : !tt.ptr<f32, 3> -> !tt.ptr<i32, 7>
  return
}

// -----

func.func @cluster_result_shape(%p: tensor<64x!tt.ptr<f32, 3>>, %cta: i32) {
  // expected-error @+1 {{cluster space result type must be 'tensor<64x!tt.ptr<f32, 7>>' (the source type with address space 7), got '!tt.ptr<f32, 7>'}}
  %r = tle.remote_pointers cluster %p, %cta : tensor<64x!tt.ptr<f32, 3>> -> !tt.ptr<f32, 7>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @cluster_result_encoding(%p: tensor<128x!tt.ptr<f32, 3>, #blocked>, %cta: i32) {
  // expected-error @+1 {{cluster space result type must be 'tensor<128x!tt.ptr<f32, 7>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' (the source type with address space 7), got 'tensor<128x!tt.ptr<f32, 7>>'}}
  %r = tle.remote_pointers cluster %p, %cta : tensor<128x!tt.ptr<f32, 3>, #blocked> -> tensor<128x!tt.ptr<f32, 7>>
  return
}

// -----

func.func @device_without_offset(%p: !tt.ptr<f32>, %peer: i32) {
  // expected-error @+1 {{device space requires an i64 offset}}
  %r = tle.remote_pointers device %p, %peer : !tt.ptr<f32> -> !tt.ptr<f32>
  return
}

// -----

func.func @device_shared_source(%p: !tt.ptr<f32, 3>, %peer: i32, %off: i64) {
  // expected-error @+1 {{device space expects source pointers in address space 1 (global memory), got address space 3}}
  %r = tle.remote_pointers device %p, %peer offset %off : !tt.ptr<f32, 3> -> !tt.ptr<f32, 3>
  return
}

// -----

func.func @device_result_space(%p: !tt.ptr<f32>, %peer: i32, %off: i64) {
  // expected-error @+1 {{device space result type must equal the source type '!tt.ptr<f32>', got '!tt.ptr<f32, 7>'}}
  %r = tle.remote_pointers device %p, %peer offset %off : !tt.ptr<f32> -> !tt.ptr<f32, 7>
  return
}

// -----

func.func @device_result_shape(%p: tensor<64x!tt.ptr<f32>>, %peer: i32, %off: i64) {
  // expected-error @+1 {{device space result type must equal the source type 'tensor<64x!tt.ptr<f32>>', got 'tensor<32x!tt.ptr<f32>>'}}
  %r = tle.remote_pointers device %p, %peer offset %off : tensor<64x!tt.ptr<f32>> -> tensor<32x!tt.ptr<f32>>
  return
}

// -----

func.func @offset_not_i64_generic(%p: !tt.ptr<f32>, %peer: i32, %off: i32) {
  // expected-error @+1 {{operand #2 must be 64-bit signless integer, but got 'i32'}}
  %r = "tle.remote_pointers"(%p, %peer, %off) <{space = #tle.remote_space<device>}> : (!tt.ptr<f32>, i32, i32) -> !tt.ptr<f32>
  return
}

// -----

func.func @shard_id_not_i32(%p: !tt.ptr<f32, 3>, %cta: i64) {
  // expected-error @+1 {{operand #1 must be 32-bit signless integer or tensor of 32-bit signless integer values, but got 'i64'}}
  %r = "tle.remote_pointers"(%p, %cta) <{space = #tle.remote_space<cluster>}> : (!tt.ptr<f32, 3>, i64) -> !tt.ptr<f32, 7>
  return
}

// -----

func.func @source_not_pointer(%p: tensor<64xf32>, %cta: i32) {
  // expected-error @+1 {{operand #0 must be Triton pointer or ranked tensor of Triton pointer values, but got 'tensor<64xf32>'}}
  %r = tle.remote_pointers cluster %p, %cta : tensor<64xf32> -> tensor<64x!tt.ptr<f32, 7>>
  return
}

// -----

func.func @unknown_space(%p: !tt.ptr<f32, 3>, %cta: i32) {
  // expected-error @+1 {{expected remote space 'cluster' or 'device', got 'grid'}}
  %r = tle.remote_pointers grid %p, %cta : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7>
  return
}

// -----

// A tensor of shard ids (one CTA per pointer).

func.func @shard_tensor_device(%p: tensor<64x!tt.ptr<f32>>, %ctas: tensor<64xi32>, %off: i64) {
  // expected-error @+1 {{a tensor of shard ids is only allowed with space cluster}}
  %r = tle.remote_pointers device %p, %ctas offset %off : tensor<64x!tt.ptr<f32>> -> tensor<64x!tt.ptr<f32>> shard tensor<64xi32>
  return
}

// -----

func.func @shard_tensor_shape(%p: tensor<64x!tt.ptr<f32, 3>>, %ctas: tensor<32xi32>) {
  // expected-error @+1 {{a tensor of shard ids must have the shape and encoding of the pointers 'tensor<64x!tt.ptr<f32, 3>>', got 'tensor<32xi32>'}}
  %r = tle.remote_pointers cluster %p, %ctas : tensor<64x!tt.ptr<f32, 3>> -> tensor<64x!tt.ptr<f32, 7>> shard tensor<32xi32>
  return
}

// -----

func.func @shard_tensor_scalar_pointer(%p: !tt.ptr<f32, 3>, %ctas: tensor<1xi32>) {
  // expected-error @+1 {{a tensor of shard ids must have the shape and encoding of the pointers '!tt.ptr<f32, 3>', got 'tensor<1xi32>'}}
  %r = tle.remote_pointers cluster %p, %ctas : !tt.ptr<f32, 3> -> !tt.ptr<f32, 7> shard tensor<1xi32>
  return
}
