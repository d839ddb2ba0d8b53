// RUN: tle-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the item-1 leftovers: register a / fp8 wgmma operands,
// buffer slots, try-waits, set_layout.

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @register_a_f32(%p: tensor<64x32xf32, #blocked>, %v: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{a register a operand must hold f16 or bf16, got 'f32'}}
  %d = tle.wgmma %p, %v, %acc : tensor<64x32xf32, #blocked>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @register_a_mismatch(%p: tensor<64x32xbf16, #blocked>, %v: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{a and b must hold the same 16-bit type or two 8-bit floats, got 'bf16' and 'f16'}}
  %d = tle.wgmma %p, %v, %acc : tensor<64x32xbf16, #blocked>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @fp8_k_16(%a: !ttg.memdesc<64x16xf8E4M3FN, #plain, #smem, mutable>, %b: !ttg.memdesc<16x64xf8E4M3FN, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{K must be a multiple of 32 for 8-bit operands, got 16}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x16xf8E4M3FN, #plain, #smem, mutable>, !ttg.memdesc<16x64xf8E4M3FN, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @fp8_with_f16(%a: !ttg.memdesc<64x32xf8E4M3FN, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{a and b must hold the same 16-bit type or two 8-bit floats, got 'f8E4M3FN' and 'f16'}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf8E4M3FN, #plain, #smem, mutable>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @imprecise_16bit(%a: !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{max_num_imprecise_acc is for 8-bit operands only}}
  %d = tle.wgmma %a, %b, %acc {max_num_imprecise_acc = 32 : i32} : !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @slot_out_of_range() {
  %buf = tle.alloc smem : () -> !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>
  %c3 = arith.constant 3 : i32
  // expected-error @+1 {{slot index 3 is out of range for 3 slots}}
  %s = tle.buffer_slot %buf[%c3] : !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
  return
}

// -----

#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @slot_shape(%i: i32) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>
  // expected-error @+1 {{result shape must be [64, 32] (src's without its slot dimension), got [32, 64]}}
  %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @slot_rank_1(%i: i32) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<64xf16, #plain, #smem, mutable>
  // expected-error @+1 {{src must have rank 2 or more (slots x slot shape), got [64]}}
  %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<64xf16, #plain, #smem, mutable>, i32 -> !ttg.memdesc<64xf16, #plain, #smem, mutable>
  return
}

// -----

#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @slot_encoding(%i: i32) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>
  // expected-error @+1 {{is not a slot of src's}}
  %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf16, #swz, #smem, mutable>
  return
}

// -----

#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @slot_alloc_shape(%i: i32) {
  %buf = tle.alloc smem : () -> !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>
  // expected-error @+1 {{src and result must each describe a whole allocation}}
  %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable, 3x64x32>
  return
}

// -----

#bars = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @try_wait_index(%phase: i32) {
  %bars = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bars, #smem, mutable>
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{barrier index 2 is out of range for 2 barriers}}
  %done = tle.barrier_try_wait %bars[%c2], %phase : !ttg.memdesc<2x1xi64, #bars, #smem, mutable>, i32, i32
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @try_wait_not_barriers(%b: !ttg.memdesc<2x2xi64, #plain, #smem, mutable>, %i: i32, %phase: i32) {
  // expected-error @+1 {{barriers must be an array of mbarriers, Nx1xi64 with N >= 1, got [2, 2] x 'i64'}}
  %done = tle.barrier_try_wait %b[%i], %phase : !ttg.memdesc<2x2xi64, #plain, #smem, mutable>, i32, i32
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @set_layout_shared(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @+1 {{layout must be a distributed register layout}}
  %y = tle.set_layout %x {layout = #plain} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #plain>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @set_layout_rank(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @+1 {{blocked layout #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> has rank 1, but the tensor it is attached to has rank 2}}
  %y = tle.set_layout %x {layout = #b1} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #b1>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @set_layout_result(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @+1 {{result encoding must be the layout}}
  %y = tle.set_layout %x {layout = #rows} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #blocked>
  return
}
