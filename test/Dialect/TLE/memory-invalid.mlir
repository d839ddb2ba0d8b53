// RUN: tle-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tle.alloc
//===----------------------------------------------------------------------===//

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alloc_immutable() {
  // expected-error @+1 {{result buffer must be mutable}}
  %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alloc_subview() {
  // expected-error @+1 {{result must describe the whole allocation: alloc shape [2, 64, 32] must equal the shape [64, 32]}}
  %a = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable, 2x64x32>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @smem_scope_tmem_buffer() {
  // expected-error @+1 {{scope smem requires a buffer in #ttg.shared_memory, got #ttng.tensor_memory}}
  %a = tle.alloc smem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @tmem_scope_smem_buffer() {
  // expected-error @+1 {{scope tmem requires a buffer in #ttng.tensor_memory, got #ttg.shared_memory}}
  %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
func.func @tmem_rank3() {
  // expected-error @+1 {{tensor memory buffers must have rank 2, got rank 3}}
  %a = tle.alloc tmem : () -> !ttg.memdesc<2x128x128xf32, #shared, #ttng.tensor_memory, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "cuda:90"} {
  func.func @tmem_on_hopper() {
    // expected-error @+1 {{tensor memory requires an sm_100-family target (sm_100 to sm_11x); module targets cuda:90}}
    %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "hip:gfx942"} {
  func.func @tmem_on_amd() {
    // expected-error @+1 {{tensor memory requires an sm_100-family target (sm_100 to sm_11x); module targets hip:gfx942}}
    %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "iluvatar:mr100"} {
  func.func @tmem_on_iluvatar() {
    // expected-error @+1 {{iluvatar TLE alloc does not support tmem storage}}
    %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    return
  }
}

// -----

// `cuda:100a` is not a plain compute capability.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "cuda:100a"} {
  func.func @tmem_on_malformed_cuda_target() {
    // expected-error @+1 {{tensor memory requires an sm_100-family target (sm_100 to sm_11x); module targets cuda:100a}}
    %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    return
  }
}

// -----

// An inner module without a target inherits the outer module's.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "cuda:80"} {
  module {
    func.func @tmem_nested_on_ampere() {
      // expected-error @+1 {{tensor memory requires an sm_100-family target (sm_100 to sm_11x); module targets cuda:80}}
      %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
      return
    }
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @init_shape(%v: tensor<32x64xf32>) {
  // expected-error @+1 {{init shape [32, 64] must equal the buffer shape [64, 32]}}
  %a = tle.alloc smem %v : (tensor<32x64xf32>) -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @init_element_type(%v: tensor<64x32xf16>) {
  // expected-error @+1 {{init element type 'f16' must equal the buffer element type 'f32'}}
  %a = tle.alloc smem %v : (tensor<64x32xf16>) -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @unknown_scope() {
  // expected-error @+1 {{expected memory space 'smem' or 'tmem', got 'gmem'}}
  %a = tle.alloc gmem : () -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

func.func @alloc_not_memdesc() {
  // expected-error @+1 {{result #0 must be memory descriptor, but got 'tensor<64x32xf32>'}}
  %a = tle.alloc smem : () -> tensor<64x32xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tle.copy
//===----------------------------------------------------------------------===//

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_buffer_to_buffer(%a: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %b: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{cannot copy from a buffer to a buffer; one side must be a tensor of global pointers}}
  tle.copy %a, %b shape [64, 32] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

func.func @copy_pointers_to_pointers(%a: tensor<64x32x!tt.ptr<f32>>, %b: tensor<64x32x!tt.ptr<f32>>) {
  // expected-error @+1 {{cannot copy from pointers to pointers; one side must be a !ttg.memdesc buffer}}
  tle.copy %a, %b shape [64, 32] : tensor<64x32x!tt.ptr<f32>> -> tensor<64x32x!tt.ptr<f32>>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_shared_pointers(%p: tensor<64x32x!tt.ptr<f32, 3>>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{pointers must point to global memory (address space 1), got address space 3}}
  tle.copy %p, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f32, 3>> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @copy_tensor_memory(%p: tensor<128x128x!tt.ptr<f32>>, %buf: !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>) {
  // expected-error @+1 {{expects a buffer in #ttg.shared_memory, got #ttng.tensor_memory}}
  tle.copy %p, %buf shape [128, 128] : tensor<128x128x!tt.ptr<f32>> -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_pointer_shape(%p: tensor<32x32x!tt.ptr<f32>>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{shape [64, 32] must equal the pointer tensor shape [32, 32]}}
  tle.copy %p, %buf shape [64, 32] : tensor<32x32x!tt.ptr<f32>> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_out_shape(%p: tensor<64x32x!tt.ptr<f32>>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{shape [64, 16] must equal the pointer tensor shape [64, 32]}}
  tle.copy %buf, %p shape [64, 16] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32>>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_buffer_shape(%p: tensor<32x64x!tt.ptr<f32>>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{shape [32, 64] must equal the buffer shape [64, 32]}}
  tle.copy %p, %buf shape [32, 64] : tensor<32x64x!tt.ptr<f32>> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_element_type(%p: tensor<64x32x!tt.ptr<f16>>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{pointee type 'f16' must equal the buffer element type 'f32'}}
  tle.copy %p, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f16>> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @copy_into_immutable(%p: tensor<64x32x!tt.ptr<f32>>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem>) {
  // expected-error @+1 {{destination buffer must be mutable}}
  tle.copy %p, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f32>> -> !ttg.memdesc<64x32xf32, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @copy_scalar_pointer(%p: !tt.ptr<f32>, %buf: !ttg.memdesc<1xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of Triton pointer values or memory descriptor, but got '!tt.ptr<f32>'}}
  tle.copy %p, %buf shape [1] : !tt.ptr<f32> -> !ttg.memdesc<1xf32, #shared, #smem, mutable>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tle.local_load / tle.local_store
//===----------------------------------------------------------------------===//

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @load_other_memory(%buf: !ttg.memdesc<64x32xf32, #shared, "global">) {
  // expected-error @+1 {{expects a buffer in #ttg.shared_memory or #ttng.tensor_memory, got "global"}}
  %v = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, "global"> -> tensor<64x32xf32>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @load_shape(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result shape [32, 64] must equal the buffer shape [64, 32]}}
  %v = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<32x64xf32>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @load_element_type(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{result element type 'bf16' must equal the buffer element type 'f32'}}
  %v = tle.local_load %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32xbf16>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @store_other_memory(%v: tensor<64x32xf32>, %buf: !ttg.memdesc<64x32xf32, #shared, "global", mutable>) {
  // expected-error @+1 {{expects a buffer in #ttg.shared_memory or #ttng.tensor_memory, got "global"}}
  tle.local_store %v, %buf : tensor<64x32xf32> -> !ttg.memdesc<64x32xf32, #shared, "global", mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @store_shape(%v: tensor<64x16xf32>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{value shape [64, 16] must equal the buffer shape [64, 32]}}
  tle.local_store %v, %buf : tensor<64x16xf32> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @store_element_type(%v: tensor<64x32xi32>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{value element type 'i32' must equal the buffer element type 'f32'}}
  tle.local_store %v, %buf : tensor<64x32xi32> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @store_immutable(%v: tensor<64x32xf32>, %buf: !ttg.memdesc<64x32xf32, #shared, #smem>) {
  // expected-error @+1 {{destination buffer must be mutable}}
  tle.local_store %v, %buf : tensor<64x32xf32> -> !ttg.memdesc<64x32xf32, #shared, #smem>
  return
}

// -----

// Consumer Blackwell (sm_120) has no tensor memory.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "cuda:120"} {
  func.func @tmem_on_sm120() {
    // expected-error @+1 {{tensor memory requires an sm_100-family target (sm_100 to sm_11x); module targets cuda:120}}
    %a = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    return
  }
}
