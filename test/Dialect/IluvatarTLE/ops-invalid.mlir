// RUN: tle-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the iluvatar_tle ops.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @pointers_not_smem(%buf: !ttg.memdesc<64x32xf32, #shared, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{expects a buffer in #ttg.shared_memory, got #ttng.tensor_memory}}
  %p = iluvatar_tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #ttng.tensor_memory, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_addrspace(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result pointers must be in address space 3 (shared memory), got address space 1}}
  %p = iluvatar_tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32>, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_pointee(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result pointee type 'f16' must equal the buffer element type 'f32'}}
  %p = iluvatar_tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_full_view_shape(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{full view (no indices) must produce a tensor of pointers of the buffer shape [64, 32], got 'tensor<32x64x!tt.ptr<f32, 3>, #ttg.blocked}}
  %p = iluvatar_tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<32x64x!tt.ptr<f32, 3>, #blocked>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_index_count(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{expects 2 indices (the buffer rank), got 1}}
  %p = iluvatar_tle.local_pointers %buf[%i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32 -> !tt.ptr<f32, 3>
  return
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_mixed(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32, %r: tensor<128xi32, #blocked1>) {
  // expected-error @+1 {{indices must be all scalars or all tensors, not a mix}}
  %p = iluvatar_tle.local_pointers %buf[%i, %r] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, tensor<128xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
  return
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_scalar_to_tensor(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{scalar indices must produce a scalar pointer, got 'tensor<128x!tt.ptr<f32, 3>, #ttg.blocked}}
  %p = iluvatar_tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i32 -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
  return
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_tensor_to_scalar(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %r: tensor<128xi32, #blocked1>) {
  // expected-error @+1 {{tensor indices must produce a tensor of pointers, got '!tt.ptr<f32, 3>'}}
  %p = iluvatar_tle.local_pointers %buf[%r, %r] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> !tt.ptr<f32, 3>
  return
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_index_shape(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %r: tensor<128xi32, #blocked1>, %s: tensor<64xi32, #blocked1>) {
  // expected-error @+1 {{index #1 shape [64] must equal the result shape [128]}}
  %p = iluvatar_tle.local_pointers %buf[%r, %s] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked1>, tensor<64xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
  return
}

// -----

#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @pointers_index_encoding(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %r: tensor<128xi32, #blocked1>) {
  // expected-error @+1 {{index #0 encoding #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> must equal the result encoding #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}}
  %p = iluvatar_tle.local_pointers %buf[%r, %r] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked2>
  return
}

// -----

func.func @extract_no_encoding(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{source must carry an encoding; got 'tensor<64x64xf32>'}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32> -> tensor<16x32xf32>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#linear = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[1, 0], [2, 0]], block = []}>
func.func @extract_linear_source(%x: tensor<64x64xf32, #linear>) {
  // expected-error @+1 {{source encoding must be #ttg.blocked (BlockedEncodingAttr), got #ttg.linear}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32, #linear> -> tensor<16x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_slice_result(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{result encoding must be #ttg.blocked (BlockedEncodingAttr), got #ttg.slice}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32, #blocked> -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked}>>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_both_indices(%x: tensor<64x64xf32, #blocked>, %i: i32) {
  // expected-error @+1 {{expects exactly one of a static index attribute or a dynamic index operand}}
  %t = "iluvatar_tle.extract_tile"(%x, %i) <{static_index = 1 : i64}> : (tensor<64x64xf32, #blocked>, i32) -> tensor<16x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_no_index(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{expects exactly one of a static index attribute or a dynamic index operand}}
  %t = "iluvatar_tle.extract_tile"(%x) : (tensor<64x64xf32, #blocked>) -> tensor<16x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_dynamic_shape(%x: tensor<?x64xf32, #blocked>) {
  // expected-error @+1 {{expects statically shaped tensors}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<?x64xf32, #blocked> -> tensor<16x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_element_type(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{result element type 'f16' must equal the source element type 'f32'}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32, #blocked> -> tensor<16x32xf16, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @extract_rank(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{result has rank 1 but the source has rank 2}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32, #blocked> -> tensor<16xf32, #blocked1>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_zero_dim(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{result dimension 1 is 0; expected > 0}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32, #blocked> -> tensor<16x0xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_not_dividing(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{result dimension 0 (24) does not divide the source dimension (64)}}
  %t = iluvatar_tle.extract_tile %x[0] : tensor<64x64xf32, #blocked> -> tensor<24x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_static_out_of_bounds(%x: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{tile index 8 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %t = iluvatar_tle.extract_tile %x[8] : tensor<64x64xf32, #blocked> -> tensor<16x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @extract_constant_out_of_bounds(%x: tensor<64x64xf32, #blocked>) {
  %c = arith.constant -1 : i32
  // expected-error @+1 {{tile index -1 is out of bounds for a 4x2 tile grid (8 tiles)}}
  %t = iluvatar_tle.extract_tile %x[%c] : tensor<64x64xf32, #blocked>, i32 -> tensor<16x32xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @insert_tile_no_encoding(%x: tensor<64x64xf32, #blocked>, %t: tensor<16x32xf32>) {
  // expected-error @+1 {{tile must carry an encoding; got 'tensor<16x32xf32>'}}
  %y = iluvatar_tle.insert_tile %t into %x[0] : tensor<16x32xf32> into tensor<64x64xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
func.func @insert_mma_source(%x: tensor<64x64xf32, #mma>, %t: tensor<16x32xf32, #blocked>) {
  // expected-error @+1 {{source encoding must be #ttg.blocked (BlockedEncodingAttr), got #ttg.nvidia_mma}}
  %y = iluvatar_tle.insert_tile %t into %x[0] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #mma>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @insert_element_type(%x: tensor<64x64xf32, #blocked>, %t: tensor<16x32xf16, #blocked>) {
  // expected-error @+1 {{tile element type 'f16' must equal the source element type 'f32'}}
  %y = iluvatar_tle.insert_tile %t into %x[0] : tensor<16x32xf16, #blocked> into tensor<64x64xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @insert_not_dividing(%x: tensor<64x64xf32, #blocked>, %t: tensor<16x48xf32, #blocked>) {
  // expected-error @+1 {{tile dimension 1 (48) does not divide the source dimension (64)}}
  %y = iluvatar_tle.insert_tile %t into %x[0] : tensor<16x48xf32, #blocked> into tensor<64x64xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @insert_out_of_bounds(%x: tensor<64x64xf32, #blocked>, %t: tensor<32x64xf32, #blocked>) {
  // expected-error @+1 {{tile index 2 is out of bounds for a 2x1 tile grid (2 tiles)}}
  %y = iluvatar_tle.insert_tile %t into %x[2] : tensor<32x64xf32, #blocked> into tensor<64x64xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @insert_result_type(%x: tensor<64x64xf32, #blocked>, %t: tensor<32x64xf32, #blocked>) {
  // expected-error @+1 {{failed to verify that all of {src, result} have same type}}
  %y = "iluvatar_tle.insert_tile"(%x, %t) <{static_index = 0 : i64}> : (tensor<64x64xf32, #blocked>, tensor<32x64xf32, #blocked>) -> tensor<64x64xf32, #blocked2>
  return
}
