// RUN: tle-opt %s -split-input-file -verify-diagnostics

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @buffer_in_tensor_memory(%buf: !ttg.memdesc<64x32xf32, #shared, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{expects a buffer in #ttg.shared_memory, got #ttng.tensor_memory}}
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #ttng.tensor_memory, mutable> -> tensor<64x32x!tt.ptr<f32, 3>>
  return
}

// -----

// Found by scripts/fuzz_tle_opt.py: triton-tle-lower-local-memory built a
// slice of a shared layout for the pointers and asserted.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @shared_layout_pointers(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result encoding must be a distributed (register) layout, got #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}}
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #shared>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @global_address_space(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result pointers must be in address space 3 (shared memory), got address space 1}}
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32>>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointee_mismatch(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{result pointee type 'f16' must equal the buffer element type 'f32'}}
  %p = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i32 -> !tt.ptr<f16, 3>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @full_view_scalar(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{full view (no indices) must produce a tensor of pointers of the buffer shape [64, 32], got '!tt.ptr<f32, 3>'}}
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> !tt.ptr<f32, 3>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @full_view_shape(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{full view (no indices) must produce a tensor of pointers of the buffer shape [64, 32], got 'tensor<32x64x!tt.ptr<f32, 3>>'}}
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<32x64x!tt.ptr<f32, 3>>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @index_count(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{expects 2 indices (the buffer rank), got 1}}
  %p = tle.local_pointers %buf[%i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32 -> !tt.ptr<f32, 3>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @mixed_indices(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32, %cols: tensor<16xi32>) {
  // expected-error @+1 {{indices must be all scalars or all tensors, not a mix}}
  %p = tle.local_pointers %buf[%i, %cols] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, tensor<16xi32> -> tensor<16x!tt.ptr<f32, 3>>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @scalar_indices_tensor_result(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{scalar indices must produce a scalar pointer, got 'tensor<1x!tt.ptr<f32, 3>>'}}
  %p = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i32 -> tensor<1x!tt.ptr<f32, 3>>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @tensor_indices_scalar_result(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %r: tensor<16xi32>) {
  // expected-error @+1 {{tensor indices must produce a tensor of pointers, got '!tt.ptr<f32, 3>'}}
  %p = tle.local_pointers %buf[%r, %r] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<16xi32>, tensor<16xi32> -> !tt.ptr<f32, 3>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @index_shape(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %r: tensor<16xi32>, %c: tensor<32xi32>) {
  // expected-error @+1 {{index #1 shape [32] must equal the result shape [16]}}
  %p = tle.local_pointers %buf[%r, %c] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<16xi32>, tensor<32xi32> -> tensor<16x!tt.ptr<f32, 3>>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @index_encoding(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %r: tensor<128xi32, #blocked>, %c: tensor<128xi32>) {
  // expected-error @+1 {{index #1 encoding none must equal the result encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}}
  %p = tle.local_pointers %buf[%r, %c] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked>, tensor<128xi32> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @float_index(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %f: f32) {
  // expected-error @+1 {{operand #1 must be variadic of signless integer or ranked tensor of signless integer values, but got 'f32'}}
  %p = tle.local_pointers %buf[%f, %f] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, f32, f32 -> !tt.ptr<f32, 3>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @non_pointer_result(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result #0 must be Triton pointer or ranked tensor of Triton pointer values, but got 'tensor<64x32xf32>'}}
  %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xf32>
  return
}
