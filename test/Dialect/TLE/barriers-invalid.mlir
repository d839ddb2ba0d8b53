// RUN: tle-opt %s -split-input-file -verify-diagnostics

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @alloc_not_nx1() {
  // expected-error @+1 {{result must be an array of mbarriers, Nx1xi64 with N >= 1, got [2, 2] x 'i64'}}
  %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x2xi64, #bar, #smem, mutable>
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @alloc_i32() {
  // expected-error @+1 {{result must be an array of mbarriers, Nx1xi64 with N >= 1, got [2, 1] x 'i32'}}
  %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi32, #bar, #smem, mutable>
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @alloc_immutable() {
  // expected-error @+1 {{result must be mutable}}
  %b = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bar, #smem>
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @alloc_count_zero() {
  // expected-error @+1 {{attribute 'arrive_count' failed to satisfy constraint}}
  %b = tle.barrier_alloc arrive_count 0 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @alloc_count_too_big() {
  // expected-error @+1 {{arrive_count must be below 2^20, got 1048576}}
  %b = tle.barrier_alloc arrive_count 1048576 : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @arrive_index_out_of_range(%b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>) {
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{barrier index 2 is out of range for 2 barriers}}
  tle.barrier_arrive %b[%c2] : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @arrive_tx_too_big(%b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{expect_tx must be below 2^20 bytes, got 1048576}}
  tle.barrier_arrive %b[%i] {expect_tx = 1048576 : i64} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @arrive_tx_zero(%b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{attribute 'expect_tx' failed to satisfy constraint}}
  tle.barrier_arrive %b[%i] {expect_tx = 0 : i64} : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @wait_index_negative(%b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %p: i32) {
  %c = arith.constant -1 : i32
  // expected-error @+1 {{barrier index -1 is out of range for 2 barriers}}
  tle.barrier_wait %b[%c], %p : !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32, i32
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @wait_not_barriers(%b: !ttg.memdesc<2x1xf32, #bar, #smem, mutable>, %i: i32, %p: i32) {
  // expected-error @+1 {{barriers must be an array of mbarriers, Nx1xi64 with N >= 1, got [2, 1] x 'f32'}}
  tle.barrier_wait %b[%i], %p : !ttg.memdesc<2x1xf32, #bar, #smem, mutable>, i32, i32
  return
}

// -----

func.func @named_id_zero() {
  // expected-error @+1 {{attribute 'id' failed to satisfy constraint}}
  tle.named_barrier_sync 0, 128
  return
}

// -----

func.func @named_id_sixteen() {
  // expected-error @+1 {{attribute 'id' failed to satisfy constraint}}
  tle.named_barrier_arrive 16, 128
  return
}

// -----

func.func @named_threads_not_warps() {
  // expected-error @+1 {{num_threads must be a multiple of 32 (whole warps) and at most 1024, got 100}}
  tle.named_barrier_sync 3, 100
  return
}

// -----

func.func @named_threads_too_many() {
  // expected-error @+1 {{num_threads must be a multiple of 32 (whole warps) and at most 1024, got 2048}}
  tle.named_barrier_arrive 3, 2048
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @tma_shape_mismatch(%v: tensor<64x32xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{value [64, 32] x 'f16' does not match the buffer [64, 64] x 'f16'}}
  tle.async_tma_load %v, %buf, %b[%i] : tensor<64x32xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @tma_immutable(%v: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem>, %b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{buffer must be mutable}}
  tle.async_tma_load %v, %buf, %b[%i] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @tma_index(%v: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>) {
  %c5 = arith.constant 5 : i32
  // expected-error @+1 {{barrier index 5 is out of range for 2 barriers}}
  tle.async_tma_load %v, %buf, %b[%c5] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  return
}

// -----

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @tma_huge(%v: tensor<1024x1024xf16, #blocked>, %buf: !ttg.memdesc<1024x1024xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<2x1xi64, #plain, #smem, mutable>, %i: i32) {
  // expected-error @+1 {{copies 2097152 bytes; an mbarrier counts fewer than 2^20 a phase}}
  tle.async_tma_load %v, %buf, %b[%i] : tensor<1024x1024xf16, #blocked>, !ttg.memdesc<1024x1024xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #plain, #smem, mutable>, i32
  return
}

// -----

func.func @async_wait_group_out_of_range() {
  // expected-error @+1 {{'tle.async_wait_group' op pendings must be in [0, 7], got 8}}
  tle.async_wait_group 8
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @async_copy_shape_mismatch(%v: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x32xf16, #plain, #smem, mutable>) {
  // expected-error @+1 {{'tle.async_copy' op value [64, 64] x 'f16' does not match the buffer [64, 32] x 'f16'}}
  tle.async_copy %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @async_copy_immutable(%v: tensor<64x64xf16, #blocked>, %buf: !ttg.memdesc<64x64xf16, #plain, #smem>) {
  // expected-error @+1 {{'tle.async_copy' op buffer must be mutable}}
  tle.async_copy %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem>
  return
}

// -----

func.func @tensor_map_fence_shared(%p: !tt.ptr<i8, 3>) {
  // expected-error @+1 {{takes a pointer into global memory (address space 1) to a 128-byte tensor map, got '!tt.ptr<i8, 3>'}}
  tle.tensor_map_fence_acquire %p : !tt.ptr<i8, 3>
  return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
func.func @reinterpret_shared(%p: !tt.ptr<i8, 3>) {
  // expected-error @+1 {{takes a pointer into global memory (address space 1) to a 128-byte tensor map, got '!tt.ptr<i8, 3>'}}
  %d = tle.reinterpret_tensor_map %p : !tt.ptr<i8, 3> -> !tt.tensordesc<tensor<8x32xf32, #shared>>
  return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
func.func @reinterpret_rank6(%p: !tt.ptr<i8>) {
  // expected-error @+1 {{a TMA block has rank 1 to 5, got rank 6}}
  %d = tle.reinterpret_tensor_map %p : !tt.ptr<i8> -> !tt.tensordesc<tensor<1x1x1x1x8x32xf32, #shared>>
  return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
func.func @reinterpret_box_too_tall(%p: !tt.ptr<i8>) {
  // expected-error @+1 {{a TMA block has 1 to 256 elements a dimension, got [512, 32]}}
  %d = tle.reinterpret_tensor_map %p : !tt.ptr<i8> -> !tt.tensordesc<tensor<512x32xf32, #shared>>
  return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
func.func @reinterpret_narrow_rows(%p: !tt.ptr<i8>) {
  // expected-error @+1 {{a TMA block's last dimension must be a multiple of 16 bytes, got 4 x 'f16'}}
  %d = tle.reinterpret_tensor_map %p : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x4xf16, #shared>>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @cache_hint_policy(%v: tensor<8x32xf32, #blocked>) {
  // expected-error @+1 {{policy must be "evict_first" or "evict_last", got "evict_normal"}}
  tle.tma_load_cache_hint %v "evict_normal" : tensor<8x32xf32, #blocked>
  return
}
