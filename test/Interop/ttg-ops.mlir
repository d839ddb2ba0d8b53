// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s --mlir-print-op-generic | tle-opt | FileCheck %s

// Round trip of every `ttg` op form Triton 3.6.0 prints (lines cut from
// test/Interop/corpus), plus NVMMA layout forms the corpus does not hold
// (printed by Triton for Gluon layouts made to order).

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = [[1, 0]]}>
#blocked4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1]]}>
#linear = #ttg.linear<{register = [[1, 0]], lane = [[0, 1], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared5 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
#shared6 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true, rank = 3}>
#shared7 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, rank = 3}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
#smem = #ttg.shared_memory

// Aliases as tle-opt prints them.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK: #blocked2 = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #blocked3 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0], CGALayout = {{\[\[}}1, 0]]}>
// CHECK: #blocked4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = {{\[\[}}1]]}>
// CHECK: #linear = #ttg.linear<{register = {{\[\[}}1, 0]], lane = {{\[\[}}0, 1], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}32, 0], [64, 0]], block = []}>
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK: #shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK: #shared5 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK: #shared6 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true, rank = 3}>
// CHECK: #shared7 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, rank = 3}>
// CHECK: #shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
// CHECK: #smem = #ttg.shared_memory

// fused_softmax: a pipelined load through shared memory.
func.func @async_copy(%ptrs: tensor<1024x!tt.ptr<f32>, #blocked>, %mask: tensor<1024xi1, #blocked>, %other: tensor<1024xf32, #blocked>, %i: i32) -> tensor<1024xf32, #blocked> {
  %c0_i32 = arith.constant 0 : i32
  %x_1 = ttg.local_alloc : () -> !ttg.memdesc<1x1024xf32, #shared, #smem, mutable>
  %x_6 = ttg.memdesc_index %x_1[%c0_i32] : !ttg.memdesc<1x1024xf32, #shared, #smem, mutable> -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
  %x_7 = ttg.async_copy_global_to_local %ptrs, %x_6 mask %mask other %other : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
  %x_8 = ttg.async_commit_group tokens %x_7
  %x_10 = ttg.async_wait %x_8 {num = 0 : i32}
  %x_11 = ttg.memdesc_index %x_1[%i] : !ttg.memdesc<1x1024xf32, #shared, #smem, mutable> -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
  %x_12 = ttg.local_load %x_11 token %x_10 : !ttg.memdesc<1024xf32, #shared, #smem, mutable> -> tensor<1024xf32, #blocked>
  %4 = ttg.async_wait {num = 0 : i32}
  ttg.local_dealloc %x_1 : !ttg.memdesc<1x1024xf32, #shared, #smem, mutable>
  return %x_12 : tensor<1024xf32, #blocked>
}
// CHECK-LABEL: func.func @async_copy
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %0 = ttg.local_alloc : () -> !ttg.memdesc<1x1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %1 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<1x1024xf32, #shared, #smem, mutable> -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %2 = ttg.async_copy_global_to_local %arg0, %1 mask %arg1 other %arg2 : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %3 = ttg.async_commit_group tokens %2
// CHECK-NEXT: %4 = ttg.async_wait %3 {num = 0 : i32}
// CHECK-NEXT: %5 = ttg.memdesc_index %0[%arg3] : !ttg.memdesc<1x1024xf32, #shared, #smem, mutable> -> !ttg.memdesc<1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %6 = ttg.local_load %5 token %4 : !ttg.memdesc<1024xf32, #shared, #smem, mutable> -> tensor<1024xf32, #blocked>
// CHECK-NEXT: %7 = ttg.async_wait {num = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %0 : !ttg.memdesc<1x1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: return %6 : tensor<1024xf32, #blocked>

// Forms the corpus does not print: no mask, mask without other, cache and
// eviction keywords, no tokens.
func.func @async_copy_variants(%ptrs: tensor<1024x!tt.ptr<f32>, #blocked>, %mask: tensor<1024xi1, #blocked>, %buf: !ttg.memdesc<1024xf32, #shared, #smem, mutable>) {
  %0 = ttg.async_copy_global_to_local %ptrs, %buf : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
  %1 = ttg.async_copy_global_to_local %ptrs, %buf mask %mask cacheModifier = cg evictionPolicy = evict_last : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
  %2 = ttg.async_copy_global_to_local %ptrs, %buf evictionPolicy = evict_first : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
  %3 = ttg.async_commit_group
  %4 = ttg.async_commit_group tokens %0, %1, %2
  %5 = ttg.async_wait %3, %4 {num = 1 : i32}
  return
}
// CHECK-LABEL: func.func @async_copy_variants
// CHECK-NEXT: %0 = ttg.async_copy_global_to_local %arg0, %arg2 : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %1 = ttg.async_copy_global_to_local %arg0, %arg2 mask %arg1 cacheModifier = cg evictionPolicy = evict_last : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %2 = ttg.async_copy_global_to_local %arg0, %arg2 evictionPolicy = evict_first : tensor<1024x!tt.ptr<f32>, #blocked> -> <1024xf32, #shared, #smem, mutable>
// CHECK-NEXT: %3 = ttg.async_commit_group
// CHECK-NEXT: %4 = ttg.async_commit_group tokens %0, %1, %2
// CHECK-NEXT: %5 = ttg.async_wait %3, %4 {num = 1 : i32}
// CHECK-NEXT: return

// block_ptr_dot3 / persistent_tma_matmul: allocs from a tensor and empty,
// store, load into dot operands, transposed view.
func.func @local_memory(%a_36: tensor<64x32xf32, #blocked1>, %cst_12: tensor<128x128xf16, #blocked1>, %42: tensor<128x128xf16, #mma>) -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>> {
  %a_37 = ttg.local_alloc %a_36 : (tensor<64x32xf32, #blocked1>) -> !ttg.memdesc<64x32xf32, #shared1, #smem>
  %a_54 = ttg.local_load %a_37 : !ttg.memdesc<64x32xf32, #shared1, #smem> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
  %1 = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
  ttg.local_store %cst_12, %1 : tensor<128x128xf16, #blocked1> -> !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
  ttg.local_store %42, %1 : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
  ttg.local_dealloc %1 : !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
  %6 = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
  ttg.local_dealloc %6 : !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
  %16 = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<128x128xf16, #shared3, #smem, mutable>
  ttg.local_dealloc %16 : !ttg.memdesc<128x128xf16, #shared3, #smem, mutable>
  return %a_54 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
}
// CHECK-LABEL: func.func @local_memory
// CHECK-NEXT: %0 = ttg.local_alloc %arg0 : (tensor<64x32xf32, #blocked1>) -> !ttg.memdesc<64x32xf32, #shared1, #smem>
// CHECK-NEXT: %1 = ttg.local_load %0 : !ttg.memdesc<64x32xf32, #shared1, #smem> -> tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>
// CHECK-NEXT: %2 = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
// CHECK-NEXT: ttg.local_store %arg1, %2 : tensor<128x128xf16, #blocked1> -> !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
// CHECK-NEXT: ttg.local_store %arg2, %2 : tensor<128x128xf16, #mma> -> !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
// CHECK-NEXT: ttg.local_dealloc %2 : !ttg.memdesc<128x128xf16, #shared2, #smem, mutable>
// CHECK-NEXT: %3 = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
// CHECK-NEXT: ttg.local_dealloc %3 : !ttg.memdesc<3x1xi64, #shared, #smem, mutable>
// CHECK-NEXT: %4 = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<128x128xf16, #shared3, #smem, mutable>
// CHECK-NEXT: ttg.local_dealloc %4 : !ttg.memdesc<128x128xf16, #shared3, #smem, mutable>
// CHECK-NEXT: return %1 : tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #blocked2}>>

func.func @views(%b: !ttg.memdesc<3x128x64xf16, #shared2, #smem, mutable>, %28: i32) {
  %b_27 = ttg.memdesc_index %b[%28] : !ttg.memdesc<3x128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared2, #smem, mutable>
  %acc_28 = ttg.memdesc_trans %b_27 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared4, #smem, mutable>
  %s = ttg.memdesc_subslice %b_27[0, 32] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared2, #smem, mutable, 128x64>
  // A read-only subslice of a mutable buffer (Triton 3.6's prefetch pass makes these).
  %ro = ttg.memdesc_subslice %b_27[64, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared2, #smem, 128x64>
  %r = ttg.memdesc_reshape %b_27 : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #shared2, #smem, mutable>
  // Eight rows: one whole period of the 128-byte swizzle.
  %rows = ttg.memdesc_subslice %b_27[8, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<8x64xf16, #shared2, #smem, mutable, 128x64>
  %v = ttg.memdesc_reinterpret %b : !ttg.memdesc<3x128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<3x64x64xf32, #shared2, #smem, mutable>
  return
}
// CHECK-LABEL: func.func @views
// CHECK-NEXT: %0 = ttg.memdesc_index %arg0[%arg1] : !ttg.memdesc<3x128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared2, #smem, mutable>
// CHECK-NEXT: %1 = ttg.memdesc_trans %0 {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x128xf16, #shared4, #smem, mutable>
// CHECK-NEXT: %2 = ttg.memdesc_subslice %0[0, 32] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared2, #smem, mutable, 128x64>
// CHECK-NEXT: %3 = ttg.memdesc_subslice %0[64, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared2, #smem, 128x64>
// CHECK-NEXT: %4 = ttg.memdesc_reshape %0 : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #shared2, #smem, mutable>
// CHECK-NEXT: %5 = ttg.memdesc_subslice %0[8, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<8x64xf16, #shared2, #smem, mutable, 128x64>
// CHECK-NEXT: %6 = ttg.memdesc_reinterpret %arg0 : !ttg.memdesc<3x128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<3x64x64xf32, #shared2, #smem, mutable>
// CHECK-NEXT: return

// memdesc_views (Gluon): row and column subslices, a 3-D reshape (its NVMMA
// layout gets `rank = 3`), a reinterpretation.
func.func @gluon_views(%smem_21: !ttg.memdesc<128x64xf16, #shared2, #smem, mutable>) {
  %bottom = ttg.memdesc_subslice %smem_21[64, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared2, #smem, mutable, 128x64>
  %left = ttg.memdesc_subslice %smem_21[0, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared2, #smem, mutable, 128x64>
  %halves = ttg.memdesc_reshape %smem_21 : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #shared5, #smem, mutable>
  %ints = ttg.memdesc_reinterpret %smem_21 : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x64xi16, #shared2, #smem, mutable>
  return
}
// CHECK-LABEL: func.func @gluon_views
// CHECK-NEXT: %0 = ttg.memdesc_subslice %arg0[64, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared2, #smem, mutable, 128x64>
// CHECK-NEXT: %1 = ttg.memdesc_subslice %arg0[0, 0] : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x32xf16, #shared2, #smem, mutable, 128x64>
// CHECK-NEXT: %2 = ttg.memdesc_reshape %arg0 : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<2x64x64xf16, #shared5, #smem, mutable>
// CHECK-NEXT: %3 = ttg.memdesc_reinterpret %arg0 : !ttg.memdesc<128x64xf16, #shared2, #smem, mutable> -> !ttg.memdesc<128x64xi16, #shared2, #smem, mutable>
// CHECK-NEXT: return

// dot_scaled_fp4: e2m1 unpacked for an emulated scaled dot; device_tma: the
// scratch buffer of a descriptor made in the kernel.
func.func @fp4_and_scratch(%b_33: tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>>) {
  %b_43 = ttg.fp4_to_fp %b_33 {axis = 1 : i32} : tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  %c = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
  return
}
// CHECK-LABEL: func.func @fp4_and_scratch
// CHECK-NEXT: %0 = ttg.fp4_to_fp %arg0 {axis = 1 : i32} : tensor<128x64xi8, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>> -> tensor<128x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: %1 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK-NEXT: return

// NVMMA layouts with fp4 padding and a rank other than 2.
func.func @nvmma_forms(%a: !ttg.memdesc<2x64x64xi8, #shared6, #smem, mutable>, %b: !ttg.memdesc<2x64x64xi8, #shared7, #smem, mutable>, %c: !ttg.memdesc<64xf16, #shared8, #smem, mutable>) {
  return
}
// CHECK-LABEL: func.func @nvmma_forms(%arg0: !ttg.memdesc<2x64x64xi8, #shared6, #smem, mutable>, %arg1: !ttg.memdesc<2x64x64xi8, #shared7, #smem, mutable>, %arg2: !ttg.memdesc<64xf16, #shared8, #smem, mutable>)

// matmul / multi_reduce(_cta2) / shape_ops / flash_attn_fwd layouts.
func.func @convert_layout(%c: tensor<128x128xf16, #mma>, %10: tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked3}>>, %2: tensor<128x2xf32, #linear>, %acc_65: tensor<128x64xf16, #mma>) {
  %9 = ttg.convert_layout %c : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
  %11 = ttg.convert_layout %10 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked3}>> -> tensor<16xf32, #blocked4>
  %3 = ttg.convert_layout %2 : tensor<128x2xf32, #linear> -> tensor<128x2xf32, #blocked1>
  %acc_66 = ttg.convert_layout %acc_65 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  return
}
// CHECK-LABEL: func.func @convert_layout
// CHECK-NEXT: %0 = ttg.convert_layout %arg0 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked1>
// CHECK-NEXT: %1 = ttg.convert_layout %arg1 : tensor<16xf32, #ttg.slice<{dim = 1, parent = #blocked3}>> -> tensor<16xf32, #blocked4>
// CHECK-NEXT: %2 = ttg.convert_layout %arg2 : tensor<128x2xf32, #linear> -> tensor<128x2xf32, #blocked1>
// CHECK-NEXT: %3 = ttg.convert_layout %arg3 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: return
