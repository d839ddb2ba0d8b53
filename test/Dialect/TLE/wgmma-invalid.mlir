// RUN: tle-opt %s -split-input-file -verify-diagnostics

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @m_not_64(%a: !ttg.memdesc<32x32xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, %acc: tensor<32x64xf32, #blocked>) {
  // expected-error @+1 {{M must be a multiple of 64 (one warpgroup's rows), got 32}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<32x32xf16, #plain, #smem, mutable>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<32x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @k_not_16(%a: !ttg.memdesc<64x8xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<8x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{K must be a multiple of 16, got 8}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x8xf16, #plain, #smem, mutable>, !ttg.memdesc<8x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @n_not_8(%a: !ttg.memdesc<64x16xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<16x4xf16, #plain, #smem, mutable>, %acc: tensor<64x4xf32, #blocked>) {
  // expected-error @+1 {{N must be a multiple of 8, got 4}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x16xf16, #plain, #smem, mutable>, !ttg.memdesc<16x4xf16, #plain, #smem, mutable>, tensor<64x4xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @no_multiply(%a: !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<16x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{shapes do not multiply: a [64, 32] @ b [16, 64] + acc [64, 64]}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, !ttg.memdesc<16x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f32_operands(%a: !ttg.memdesc<64x32xf32, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf32, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{a must hold f16, bf16, f8E4M3FN or f8E5M2, got 'f32'}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf32, #plain, #smem, mutable>, !ttg.memdesc<32x64xf32, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @mixed_operands(%a: !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xbf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{a and b must hold the same 16-bit type or two 8-bit floats, got 'f16' and 'bf16'}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, !ttg.memdesc<32x64xbf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @f16_acc(%a: !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, %acc: tensor<64x64xf16, #blocked>) {
  // expected-error @+1 {{acc must be a rank-2 f32 tensor}}
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf16, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @wait_pendings(%d: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{attribute 'pendings' failed to satisfy constraint}}
  %r = tle.wgmma_wait %d {pendings = 8 : i32} : tensor<64x64xf32, #blocked>
  return
}

// -----

func.func @wait_nothing() {
  // expected-error @+1 {{waits for at least one value}}
  "tle.wgmma_wait"() {pendings = 0 : i32} : () -> ()
  return
}

// -----

func.func @store_wait_pendings() {
  // expected-error @+1 {{attribute 'pendings' failed to satisfy constraint}}
  tle.tma_store_wait 64
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @store_shape(%v: tensor<64x32xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>) {
  // expected-error @+1 {{value [64, 32] x 'f16' does not match the buffer [64, 64] x 'f16'}}
  tle.async_tma_store %v, %buf : tensor<64x32xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @cp_async_dtype(%v: tensor<64x64xf32, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{value [64, 64] x 'f32' does not match the buffer [64, 64] x 'f16'}}
  tle.async_copy_load %v, %buf, %b[%i] : tensor<64x64xf32, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @view_shape(%k: !ttg.memdesc<64x128xf16, #plain, #smem, mutable>) {
  // expected-error @+1 {{result shape must be [128, 64] (src permuted by order), got [64, 128]}}
  %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, #plain, #smem, mutable> -> !ttg.memdesc<64x128xf16, #plain, #smem, mutable>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @view_order(%k: !ttg.memdesc<64x128xf16, #plain, #smem, mutable>) {
  // expected-error @+1 {{order must be [0, 1] or [1, 0]}}
  %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 1>} : !ttg.memdesc<64x128xf16, #plain, #smem, mutable> -> !ttg.memdesc<128x128xf16, #plain, #smem, mutable>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @view_type(%k: !ttg.memdesc<64x128xf16, #plain, #smem, mutable>) {
  // expected-error @+1 {{result must keep src's element type and memory space}}
  %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, #plain, #smem, mutable> -> !ttg.memdesc<128x64xbf16, #plain, #smem, mutable>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alias_too_big(%p: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>) {
  // expected-error @+1 {{a view of 16384 bytes cannot alias a buffer of 8192 bytes}}
  %o = tle.alloc_alias %p : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xf32, #plain, #smem, mutable>
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alias_mutable(%p: !ttg.memdesc<64x64xf16, #plain, #smem>) {
  // expected-error @+1 {{a mutable view cannot alias an immutable buffer}}
  %o = tle.alloc_alias %p : !ttg.memdesc<64x64xf16, #plain, #smem> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
  return
}
