// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s --mlir-print-op-generic | tle-opt | FileCheck %s

// Round trip of every `ttng` op form Triton 3.6.0 prints for sm_90 (lines cut
// from test/Interop/corpus), plus the cluster barriers, which no kernel of the
// corpus makes Triton print (ttng-blackwell-ops.mlir has the sm_100 forms).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
#shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#shared5 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory

// Aliases as tle-opt prints them.
// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}0, 1]]}>
// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK: #mma1 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>
// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8}>
// CHECK: #shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8}>
// CHECK: #shared4 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK: #shared5 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = {{\[\[}}0]]}>
// CHECK: #smem = #ttg.shared_memory

// matmul / flash_attn_fwd / fp8_matmul: wgmma on shared and register operands.
func.func @warp_group_dot(%a_60: !ttg.memdesc<128x64xf16, #shared, #smem>, %b_64: !ttg.memdesc<64x128xf16, #shared1, #smem>, %acc_53: tensor<128x128xf32, #mma>, %p: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %v_64: !ttg.memdesc<64x128xf16, #shared, #smem>, %a_11: !ttg.memdesc<64x64xf8E4M3FN, #shared2, #smem>, %b_16: !ttg.memdesc<64x64xf8E4M3FN, #shared3, #smem>, %cst_0: tensor<64x64xf32, #mma1>, %useC: i1) {
  %acc_65 = ttng.warp_group_dot %a_60, %b_64, %acc_53 {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
  %acc_66:3 = ttng.warp_group_dot_wait %acc_65, %a_60, %b_64 {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>
  %acc_67 = ttng.warp_group_dot %p, %v_64, %acc_66#0 {inputPrecision = 0 : i32, isAsync = true} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
  %acc_68:2 = ttng.warp_group_dot_wait %acc_67, %v_64 {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<64x128xf16, #shared, #smem>
  %18 = ttng.warp_group_dot_wait %acc_68#0 {pendings = 0 : i32} : tensor<128x128xf32, #mma>
  %acc = ttng.warp_group_dot %a_11, %b_16, %cst_0 {inputPrecision = 0 : i32, maxNumImpreciseAcc = 1073741824 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #shared2, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared3, #smem> -> tensor<64x64xf32, #mma1>
  %ieee = ttng.warp_group_dot %a_11, %b_16, %cst_0, %useC : !ttg.memdesc<64x64xf8E4M3FN, #shared2, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared3, #smem> -> tensor<64x64xf32, #mma1>
  return
}
// CHECK-LABEL: func.func @warp_group_dot
// CHECK-NEXT: %0 = ttng.warp_group_dot %arg0, %arg1, %arg2 {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared1, #smem> -> tensor<128x128xf32, #mma>
// CHECK-NEXT: %1:3 = ttng.warp_group_dot_wait %0, %arg0, %arg1 {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>
// CHECK-NEXT: %2 = ttng.warp_group_dot %arg3, %arg4, %1#0 {inputPrecision = 0 : i32, isAsync = true} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
// CHECK-NEXT: %3:2 = ttng.warp_group_dot_wait %2, %arg4 {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<64x128xf16, #shared, #smem>
// CHECK-NEXT: %4 = ttng.warp_group_dot_wait %3#0 {pendings = 0 : i32} : tensor<128x128xf32, #mma>
// CHECK-NEXT: %5 = ttng.warp_group_dot %arg5, %arg6, %arg7 {inputPrecision = 0 : i32, maxNumImpreciseAcc = 1073741824 : i32} : !ttg.memdesc<64x64xf8E4M3FN, #shared2, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared3, #smem> -> tensor<64x64xf32, #mma1>
// CHECK-NEXT: %6 = ttng.warp_group_dot %arg5, %arg6, %arg7, %arg8 : !ttg.memdesc<64x64xf8E4M3FN, #shared2, #smem> * !ttg.memdesc<64x64xf8E4M3FN, #shared3, #smem> -> tensor<64x64xf32, #mma1>
// CHECK-NEXT: return

// persistent_tma_matmul_cta2: mbarrier ring, TMA loads and stores.
func.func @tma_pipeline(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared4>>, %a_16: i32, %28: i32, %30: i32, %10: i1, %cst_12: tensor<128x128xf16, #blocked>) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %a = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
  %6 = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared5, #smem, mutable>
  %7 = ttg.memdesc_index %6[%c0_i32] : !ttg.memdesc<3x1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.init_barrier %7, 1 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.barrier_expect %7, 24576, %10 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  %a_17 = ttg.memdesc_index %a[%c0_i32] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  ttng.async_tma_copy_global_to_local %a_desc[%a_16, %c0_i32] %a_17, %7, %10 : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  %31 = ttg.memdesc_index %6[%28] : !ttg.memdesc<3x1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.wait_barrier %31, %30 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  %1 = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
  ttng.async_tma_store_wait {pendings = 0 : i32}
  ttg.local_store %cst_12, %1 : tensor<128x128xf16, #blocked> -> !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
  ttng.fence_async_shared {bCluster = false}
  ttng.async_tma_copy_local_to_global %c_desc[%a_16, %c1_i32] %1 : !tt.tensordesc<tensor<128x128xf16, #shared4>>, !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
  ttng.async_tma_store_wait {pendings = 0 : i32}
  ttg.local_dealloc %1 : !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
  ttng.inval_barrier %7 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttg.local_dealloc %6 : !ttg.memdesc<3x1xi64, #shared5, #smem, mutable>
  ttg.local_dealloc %a : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
  return
}
// CHECK-LABEL: func.func @tma_pipeline
// CHECK-NEXT: %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %0 = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: %1 = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: %2 = ttg.memdesc_index %1[%c0_i32] : !ttg.memdesc<3x1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.init_barrier %2, 1 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.barrier_expect %2, 24576, %arg5 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: %3 = ttg.memdesc_index %0[%c0_i32] : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg0[%arg2, %c0_i32] %3, %2, %arg5 : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: %4 = ttg.memdesc_index %1[%arg3] : !ttg.memdesc<3x1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.wait_barrier %4, %arg4 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: %5 = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_store %arg6, %5 : tensor<128x128xf16, #blocked> -> !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg1[%arg2, %c1_i32] %5 : !tt.tensordesc<tensor<128x128xf16, #shared4>>, !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %5 : !ttg.memdesc<128x128xf16, #shared4, #smem, mutable>
// CHECK-NEXT: ttng.inval_barrier %2 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttg.local_dealloc %1 : !ttg.memdesc<3x1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttg.local_dealloc %0 : !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: return

// Forms the corpus does not print.
func.func @barrier_variants(%bar: !ttg.memdesc<1xi64, #shared5, #smem, mutable>, %buf: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %phase: i32, %pred: i1) {
  ttng.wait_barrier %bar, %phase, %pred : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.wait_barrier %bar, %phase deps %buf : !ttg.memdesc<1xi64, #shared5, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  ttng.wait_barrier %bar, %phase, %pred deps %buf, %buf : !ttg.memdesc<1xi64, #shared5, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.arrive_barrier %bar, 2, %pred : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
  ttng.async_tma_copy_global_to_local %desc[%phase, %phase] %buf, %bar, %pred cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
  ttng.fence_async_shared {bCluster = true}
  ttng.cluster_arrive {relaxed = false}
  ttng.cluster_arrive {relaxed = true}
  ttng.cluster_wait
  return
}
// CHECK-LABEL: func.func @barrier_variants
// CHECK-NEXT: ttng.wait_barrier %arg0, %arg3, %arg4 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.wait_barrier %arg0, %arg3 deps %arg1 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.wait_barrier %arg0, %arg3, %arg4 deps %arg1, %arg1 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.arrive_barrier %arg0, 1 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.arrive_barrier %arg0, 2, %arg4 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.async_copy_mbarrier_arrive %arg0 {noIncrement} : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.async_copy_mbarrier_arrive %arg0 : !ttg.memdesc<1xi64, #shared5, #smem, mutable>
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %arg2[%arg3, %arg3] %arg1, %arg0, %arg4 cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared5, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT: ttng.fence_async_shared {bCluster = true}
// CHECK-NEXT: ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT: ttng.cluster_arrive {relaxed = true}
// CHECK-NEXT: ttng.cluster_wait
// CHECK-NEXT: return
