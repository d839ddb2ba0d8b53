// RUN: tle-opt %s -split-input-file -verify-diagnostics

// Verifiers of the ttg / ttng interop ops. Each rule is one Triton's own IR
// always satisfies; none of the corpus trips them.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alloc_immutable_without_source() {
  // expected-error @below {{without a source must allocate a mutable memdesc}}
  %0 = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alloc_shape_mismatch(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @below {{tensor and memdesc shapes must match}}
  %0 = ttg.local_alloc %x : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<32x64xf32, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @alloc_element_mismatch(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @below {{tensor and memdesc element types must match}}
  %0 = ttg.local_alloc %x : (tensor<64x32xf32, #blocked>) -> !ttg.memdesc<64x32xf16, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @load_shape_mismatch(%m: !ttg.memdesc<64x32xf32, #shared, #smem>) {
  // expected-error @below {{tensor and memdesc shapes must match}}
  %0 = ttg.local_load %m : !ttg.memdesc<64x32xf32, #shared, #smem> -> tensor<64x64xf32, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @store_immutable(%x: tensor<64x32xf32, #blocked>, %m: !ttg.memdesc<64x32xf32, #shared, #smem>) {
  // expected-error @below {{cannot store into an immutable memdesc}}
  ttg.local_store %x, %m : tensor<64x32xf32, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @store_element_mismatch(%x: tensor<64x32xf16, #blocked>, %m: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>) {
  // expected-error @below {{tensor and memdesc element types must match}}
  ttg.local_store %x, %m : tensor<64x32xf16, #blocked> -> !ttg.memdesc<64x32xf32, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @index_keeps_leading_dim(%m: !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>, %i: i32) {
  // expected-error @below {{result shape must be the source shape without its leading dimension}}
  %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<3x128xf16, #shared, #smem, mutable>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @index_drops_mutable(%m: !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>, %i: i32) {
  // expected-error @below {{result mutability must match the source's}}
  %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem>
  return
}

// -----

// Triton 3.6: a memdesc_index view is a whole allocation (no alloc shape).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @index_view_keeps_alloc_shape(%m: !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>, %i: i32) {
  // expected-error @below {{alloc shape must match shape for both result and src}}
  %0 = ttg.memdesc_index %m[%i] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable, 3x128x64>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @trans_not_a_permutation(%m: !ttg.memdesc<128x64xf16, #shared, #smem>) {
  // expected-error @below {{order must be a permutation of the dimensions}}
  %0 = ttg.memdesc_trans %m {order = array<i32: 1, 1>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @trans_wrong_shape(%m: !ttg.memdesc<128x64xf16, #shared, #smem>) {
  // expected-error @below {{result shape must be the source shape permuted by order}}
  %0 = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<128x64xf16, #shared, #smem>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @subslice_adds_mutable(%m: !ttg.memdesc<128x64xf16, #shared, #smem>) {
  // expected-error @below {{result cannot be mutable when the source is not}}
  %0 = ttg.memdesc_subslice %m[0, 0] : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable, 128x64>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @subslice_out_of_bounds(%m: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>) {
  // expected-error @below {{subslice must lie within the source}}
  %0 = ttg.memdesc_subslice %m[0, 48] : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable, 128x64>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @reshape_element_count(%m: !ttg.memdesc<128x64xf16, #shared, #smem>) {
  // expected-error @below {{reshape must keep the number of elements}}
  %0 = ttg.memdesc_reshape %m : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<2x64x32xf16, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @async_copy_immutable(%p: tensor<1024x!tt.ptr<f32>, #blocked>, %m: !ttg.memdesc<1024xf32, #shared, #smem>) {
  // expected-error @below {{cannot copy into an immutable memdesc}}
  %0 = ttg.async_copy_global_to_local %p, %m : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @async_copy_pointee_mismatch(%p: tensor<1024x!tt.ptr<f16>, #blocked>, %m: !ttg.memdesc<1024xf32, #shared, #smem, mutable>) {
  // expected-error @below {{tensor and memdesc element types must match}}
  %0 = ttg.async_copy_global_to_local %p, %m : tensor<1024x!tt.ptr<f16>, #blocked> -> <1024xf32, #shared, #smem, mutable>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [0, 1]}>
func.func @convert_layout_shape(%x: tensor<64x32xf32, #blocked>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = ttg.convert_layout %x : tensor<64x32xf32, #blocked> -> tensor<32x64xf32, #blocked1>
  return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
// The custom form takes c's type from d's, so only the generic form can differ.
func.func @wgmma_acc_type(%a: !ttg.memdesc<64x64xf16, #shared, #smem>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @below {{failed to verify that all of {c, d} have same type}}
  %0 = "ttng.warp_group_dot"(%a, %a, %c) <{inputPrecision = 2 : i32, isAsync = false, maxNumImpreciseAcc = 0 : i32}> : (!ttg.memdesc<64x64xf16, #shared, #smem>, !ttg.memdesc<64x64xf16, #shared, #smem>, tensor<64x64xf32, #mma>) -> tensor<64x64xf16, #mma>
  return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @tma_load_immutable(%d: !tt.tensordesc<tensor<128x64xf16, #shared>>, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %m: !ttg.memdesc<128x64xf16, #shared, #smem>, %i: i32, %p: i1) {
  // expected-error @below {{cannot copy into an immutable memdesc}}
  ttng.async_tma_copy_global_to_local %d[%i, %i] %m, %bar, %p : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @fp4_to_fp_shape(%x: tensor<128x64xi8, #blocked>) {
  // expected-error @below {{result shape must be the source shape with axis 1 doubled}}
  %0 = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<128x64xi8, #blocked> -> tensor<256x64xbf16, #blocked>
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @fp4_to_fp_axis(%x: tensor<128x64xi8, #blocked>) {
  // expected-error @below {{axis 2 is out of range [0, 2)}}
  %0 = ttg.fp4_to_fp %x {axis = 2 : i32} : tensor<128x64xi8, #blocked> -> tensor<128x128xbf16, #blocked>
  return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
func.func @tmem_alloc_immutable() {
  // expected-error @below {{without a source must allocate a mutable memdesc}}
  %0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  return
}

// -----

#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
func.func @tmem_store_immutable(%x: tensor<128x128xf32, #linear>, %m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, %p: i1) {
  // expected-error @below {{cannot store into an immutable memdesc}}
  ttng.tmem_store %x, %m, %p : tensor<128x128xf32, #linear> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
  return
}

// -----

#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
func.func @tmem_load_shape(%m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @below {{tensor and memdesc shapes must match}}
  %0 = ttng.tmem_load %m : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x64xf32, #linear>
  return
}

// -----

#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
func.func @tmem_subslice_range(%m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  // expected-error @below {{columns [N, N + result columns) must lie within the source}}
  %0 = ttng.tmem_subslice %m {N = 96 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem1, #ttng.tensor_memory, mutable, 128x128>
  return
}

// -----

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// The custom form pairs every barrier with its predicate; only the generic
// form can differ.
func.func @mma_barrier_preds(%a: !ttg.memdesc<128x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared, #smem>, %d: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %p: i1) {
  // expected-error @below {{needs one predicate per barrier}}
  "ttng.tc_gen5_mma"(%a, %b, %d, %p, %p, %bar) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>}> : (!ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, i1, i1, !ttg.memdesc<1xi64, #shared1, #smem, mutable>) -> ()
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @tma_gather_immutable(%d: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %rows: tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %col: i32, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %m: !ttg.memdesc<16x128xbf16, #shared, #smem>, %p: i1) {
  // expected-error @below {{cannot gather into an immutable memdesc}}
  ttng.async_tma_gather %d[%rows, %col] %m, %bar, %p : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<16x128xbf16, #shared, #smem>, i1
  return
}

// -----

// expected-error @below {{unexpected key 'blockK' (Triton 3.6 syntax)}}
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, blockK = 2>
func.func @tmem_layout_key(%m: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>) {
  return
}

// -----

// Triton 3.6's rules for ttg.memdesc_subslice (it refuses the module
// otherwise): a split dimension's offset is a multiple of the result's size
// there, and the split keeps whole periods of the source's swizzle (8 rows
// of a 128-byte NVMMA swizzle).

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @subslice_touches_tile(%m: !ttg.memdesc<64x128xf32, #shared, #smem, mutable>) {
  // expected-error @below {{the offset of a split dimension must be a multiple of the result's size there}}
  %0 = ttg.memdesc_subslice %m[0, 1] : !ttg.memdesc<64x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf32, #shared, #smem, mutable, 64x128>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @subslice_not_power_of_two(%m: !ttg.memdesc<64x64xf32, #shared, #smem, mutable>) {
  // expected-error @below {{a dimension the subslice splits must have power-of-two sizes}}
  %0 = ttg.memdesc_subslice %m[0, 0] : !ttg.memdesc<64x64xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x48xf32, #shared, #smem, mutable, 64x64>
  return
}

// -----

#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
func.func @subslice_cuts_swizzle(%m: !ttg.memdesc<64x64xbf16, #nvmma, #smem, mutable>) {
  // expected-error @below {{a split subslice may not cut through the swizzle pattern}}
  %0 = ttg.memdesc_subslice %m[4, 0] : !ttg.memdesc<64x64xbf16, #nvmma, #smem, mutable> -> !ttg.memdesc<4x64xbf16, #nvmma, #smem, mutable, 64x64>
  return
}

// -----

#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @subslice_cuts_swizzled_rows(%m: !ttg.memdesc<64x64xf16, #swz, #smem, mutable>) {
  // expected-error @below {{a split subslice may not cut through the swizzle pattern}}
  %0 = ttg.memdesc_subslice %m[0, 0] : !ttg.memdesc<64x64xf16, #swz, #smem, mutable> -> !ttg.memdesc<4x64xf16, #swz, #smem, mutable, 64x64>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
func.func @subslice_encoding(%m: !ttg.memdesc<64x128xf32, #shared, #smem, mutable>) {
  // expected-error @below {{result encoding must match the source's}}
  %0 = ttg.memdesc_subslice %m[0, 64] : !ttg.memdesc<64x128xf32, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf32, #shared1, #smem, mutable, 64x128>
  return
}
