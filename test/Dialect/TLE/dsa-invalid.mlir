// RUN: tle-opt %s -split-input-file -verify-diagnostics

// !tle.dsa.buffer

func.func @buffer_rank0() {
  // expected-error @+1 {{dsa buffer must have rank >= 1}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<f32, UB>
  return
}

// -----

func.func @buffer_dynamic() {
  // expected-error @+1 {{dsa buffer needs a static shape with positive sizes, got ?x16}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<?x16xf32, UB>
  return
}

// -----

func.func @buffer_zero_size() {
  // expected-error @+1 {{dsa buffer needs a static shape with positive sizes, got 16x0}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16x0xf32, UB>
  return
}

// -----

func.func @buffer_index_element() {
  // expected-error @+1 {{dsa buffer element type must be a signless integer or floating-point type, got 'index'}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16xindex, UB>
  return
}

// -----

func.func @buffer_pointer_element() {
  // expected-error @+1 {{dsa buffer element type must be a signless integer or floating-point type, got '!tt.ptr<f32>'}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16x!tt.ptr<f32>, UB>
  return
}

// -----

func.func @buffer_signed_element() {
  // expected-error @+1 {{dsa buffer element type must be a signless integer or floating-point type, got 'si32'}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16xsi32, UB>
  return
}

// -----

func.func @buffer_unknown_space() {
  // expected-error @+1 {{expected one of [UB, L1, L0A, L0B, L0C] for DSA on-chip memory space, got: GM}}
  %0 = tle.dsa.alloc : !tle.dsa.buffer<16xf32, GM>
  return
}

// -----

// tle.dsa.copy

func.func @copy_global_to_global(%a: tensor<16x!tt.ptr<f32>>, %b: tensor<16x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tle.dsa.copy' op global-to-global copies are not supported; src or dst must be a !tle.dsa.buffer}}
  tle.dsa.copy %a, %b : tensor<16x!tt.ptr<f32>> -> tensor<16x!tt.ptr<f32>>
  return
}

// -----

func.func @copy_not_a_pointer_tensor(%a: tensor<16xf32>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @+1 {{'tle.dsa.copy' op operand #0 must be DSA buffer or ranked tensor of Triton pointers, but got 'tensor<16xf32>'}}
  tle.dsa.copy %a, %b : tensor<16xf32> -> !tle.dsa.buffer<16xf32, UB>
  return
}

// -----

func.func @copy_shared_pointers(%p: tensor<16x!tt.ptr<f32, 3>>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @+1 {{'tle.dsa.copy' op src pointers must point to global memory (address space 1), got address space 3}}
  tle.dsa.copy %p, %b : tensor<16x!tt.ptr<f32, 3>> -> !tle.dsa.buffer<16xf32, UB>
  return
}

// -----

func.func @copy_shape(%p: tensor<8x16x!tt.ptr<f32>>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  // expected-error @+1 {{'tle.dsa.copy' op src shape 16x16 does not match dst shape 8x16}}
  tle.dsa.copy %b, %p : !tle.dsa.buffer<16x16xf32, UB> -> tensor<8x16x!tt.ptr<f32>>
  return
}

// -----

func.func @copy_element_type(%p: tensor<16x!tt.ptr<f16>>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @+1 {{'tle.dsa.copy' op src element type 'f16' does not match dst element type 'f32'}}
  tle.dsa.copy %p, %b : tensor<16x!tt.ptr<f16>> -> !tle.dsa.buffer<16xf32, UB>
  return
}

// -----

func.func @copy_buffer_element_type() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xf32, L0C>
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf16, UB>
  // expected-error @+1 {{'tle.dsa.copy' op src element type 'f32' does not match dst element type 'f16'}}
  tle.dsa.copy %a, %b : !tle.dsa.buffer<16xf32, L0C> -> !tle.dsa.buffer<16xf16, UB>
  return
}

// -----

func.func @copy_l0c_to_l0a() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, L0C>
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, L0A>
  // expected-error @+1 {{'tle.dsa.copy' op no data path from L0C to L0A; legal copies are GM->UB, GM->L1, UB->GM, UB->UB, L1->GM, L1->L0A, L1->L0B, L0C->UB, L0C->GM}}
  tle.dsa.copy %a, %b : !tle.dsa.buffer<16x16xf32, L0C> -> !tle.dsa.buffer<16x16xf32, L0A>
  return
}

// -----

func.func @copy_gm_to_l0b(%p: tensor<16x16x!tt.ptr<f16>>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L0B>
  // expected-error @+1 {{'tle.dsa.copy' op no data path from GM to L0B}}
  tle.dsa.copy %p, %b : tensor<16x16x!tt.ptr<f16>> -> !tle.dsa.buffer<16x16xf16, L0B>
  return
}

// -----

func.func @copy_ub_to_l1() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L1>
  // expected-error @+1 {{'tle.dsa.copy' op no data path from UB to L1}}
  tle.dsa.copy %a, %b : !tle.dsa.buffer<16x16xf16, UB> -> !tle.dsa.buffer<16x16xf16, L1>
  return
}

// -----

func.func @copy_l0a_to_gm(%p: tensor<16x16x!tt.ptr<f16>>) {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf16, L0A>
  // expected-error @+1 {{'tle.dsa.copy' op no data path from L0A to GM}}
  tle.dsa.copy %a, %p : !tle.dsa.buffer<16x16xf16, L0A> -> tensor<16x16x!tt.ptr<f16>>
  return
}

// -----

func.func @copy_gm_to_l0c(%p: tensor<16x16x!tt.ptr<f32>>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, L0C>
  // expected-error @+1 {{'tle.dsa.copy' op no data path from GM to L0C}}
  tle.dsa.copy %p, %b : tensor<16x16x!tt.ptr<f32>> -> !tle.dsa.buffer<16x16xf32, L0C>
  return
}

// -----

func.func @copy_size_count(%p: tensor<16x16x!tt.ptr<f32>>, %m: i32) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  // expected-error @+1 {{'tle.dsa.copy' op expects 2 sizes (one per dimension), got 1}}
  tle.dsa.copy %p, %b sizes [%m] : tensor<16x16x!tt.ptr<f32>> -> !tle.dsa.buffer<16x16xf32, UB>
  return
}

// -----

func.func @copy_size_too_large(%p: tensor<16x8x!tt.ptr<f32>>, %m: i32) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x8xf32, UB>
  %c9 = arith.constant 9 : i32
  // expected-error @+1 {{'tle.dsa.copy' op size 9 of dimension 1 is out of range [0, 8]}}
  tle.dsa.copy %p, %b sizes [%m, %c9] : tensor<16x8x!tt.ptr<f32>> -> !tle.dsa.buffer<16x8xf32, UB>
  return
}

// -----

func.func @copy_size_negative(%p: tensor<16x8x!tt.ptr<f32>>, %n: i32) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x8xf32, UB>
  %neg = arith.constant -1 : i32
  // expected-error @+1 {{'tle.dsa.copy' op size -1 of dimension 0 is out of range [0, 16]}}
  tle.dsa.copy %b, %p sizes [%neg, %n] : !tle.dsa.buffer<16x8xf32, UB> -> tensor<16x8x!tt.ptr<f32>>
  return
}

// -----

// tle.dsa.to_tensor

func.func @to_tensor_shape() {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  // expected-error @+1 {{'tle.dsa.to_tensor' op result shape 8x16 does not match buffer shape 16x16}}
  %t = tle.dsa.to_tensor %b : !tle.dsa.buffer<16x16xf32, UB> -> tensor<8x16xf32>
  return
}

// -----

func.func @to_tensor_element_type() {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  // expected-error @+1 {{'tle.dsa.to_tensor' op result element type 'f16' does not match buffer element type 'f32'}}
  %t = tle.dsa.to_tensor %b : !tle.dsa.buffer<16x16xf32, UB> -> tensor<16x16xf16>
  return
}

// -----

// tle.dsa.to_buffer

func.func @to_buffer_shape(%t: tensor<16x16xf32>) {
  // expected-error @+1 {{'tle.dsa.to_buffer' op result shape 16x8 does not match tensor shape 16x16}}
  %b = tle.dsa.to_buffer %t : tensor<16x16xf32> -> !tle.dsa.buffer<16x8xf32, L1>
  return
}

// -----

func.func @to_buffer_dynamic(%t: tensor<?x16xf32>) {
  // expected-error @+1 {{'tle.dsa.to_buffer' op result shape 16x16 does not match tensor shape ?x16}}
  %b = tle.dsa.to_buffer %t : tensor<?x16xf32> -> !tle.dsa.buffer<16x16xf32, UB>
  return
}

// -----

func.func @to_buffer_element_type(%t: tensor<16xi32>) {
  // expected-error @+1 {{'tle.dsa.to_buffer' op result element type 'i16' does not match tensor element type 'i32'}}
  %b = tle.dsa.to_buffer %t : tensor<16xi32> -> !tle.dsa.buffer<16xi16, UB>
  return
}

// -----

// tle.dsa.add / sub / mul / div / max / min

func.func @binary_rhs_shape() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
  %b = tle.dsa.alloc : !tle.dsa.buffer<8x16xf32, UB>
  // expected-error @+1 {{'tle.dsa.add' op rhs shape 8x16 does not match lhs shape 16x16}}
  tle.dsa.add %a, %b, %a : !tle.dsa.buffer<16x16xf32, UB>, !tle.dsa.buffer<8x16xf32, UB>, !tle.dsa.buffer<16x16xf32, UB>
  return
}

// -----

func.func @binary_out_element_type() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  %c = tle.dsa.alloc : !tle.dsa.buffer<16xf16, UB>
  // expected-error @+1 {{'tle.dsa.max' op out element type 'f16' does not match lhs element type 'f32'}}
  tle.dsa.max %a, %a, %c : !tle.dsa.buffer<16xf32, UB>, !tle.dsa.buffer<16xf32, UB>, !tle.dsa.buffer<16xf16, UB>
  return
}

// -----

func.func @binary_not_ub() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xf32, L1>
  // expected-error @+1 {{'tle.dsa.mul' op lhs is in L1, but the vector unit reads and writes only UB}}
  tle.dsa.mul %a, %a, %a : !tle.dsa.buffer<16xf32, L1>
  return
}

// -----

func.func @binary_out_not_ub() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  %c = tle.dsa.alloc : !tle.dsa.buffer<16xf32, L0C>
  // expected-error @+1 {{'tle.dsa.sub' op out is in L0C, but the vector unit reads and writes only UB}}
  tle.dsa.sub %a, %a, %c : !tle.dsa.buffer<16xf32, UB>, !tle.dsa.buffer<16xf32, UB>, !tle.dsa.buffer<16xf32, L0C>
  return
}

// -----

func.func @div_integer() {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xi32, UB>
  // expected-error @+1 {{'tle.dsa.div' op needs a floating-point element type, got 'i32' (no integer division)}}
  tle.dsa.div %a, %a, %a : !tle.dsa.buffer<16xi32, UB>
  return
}

// -----

func.func @binary_not_a_buffer(%t: tensor<16xf32>) {
  %a = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @+1 {{'tle.dsa.min' op operand #1 must be DSA on-chip buffer, but got 'tensor<16xf32>'}}
  "tle.dsa.min"(%a, %t, %a) : (!tle.dsa.buffer<16xf32, UB>, tensor<16xf32>, !tle.dsa.buffer<16xf32, UB>) -> ()
  return
}
