// RUN: tle-opt %s -split-input-file | FileCheck %s
// RUN: tle-opt %s -split-input-file --mlir-print-op-generic | tle-opt -split-input-file | FileCheck %s

// Round trip of the Blackwell (sm_100) `ttng` forms Triton 3.6.0 prints:
// tensor memory, tcgen05 MMAs (Triton's form; Gluon's, with an async token
// and several barriers), TMA gather / scatter / reduce and descriptors made
// in the kernel. Lines cut from test/Interop/corpus; the two-CTA MMA and the
// CTA-split layouts from Triton's output for matmul_sm100 with num_ctas=2 and
// for Gluon layouts made to order. The CHECK lines are what pip Triton 3.6.0
// itself prints for this input.

#linear = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#linear1 = #ttg.linear<{register = [[0, 1], [0, 2], [32, 0], [64, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[0, 0], [0, 0]], block = []}>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tmem2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
#tmem_scales = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tmem(%cst_9: tensor<128x128xf32, #linear>, %s: tensor<128x4xi8, #linear1>, %p: i1) {
    %true = arith.constant true
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.tmem_store %cst_9, %acc, %true : tensor<128x128xf32, #linear> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %x = ttng.tmem_load %acc : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
    %doubled_22 = ttng.tmem_alloc %x : (tensor<128x128xf32, #linear>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %y = ttng.tmem_subslice %doubled_22 {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem1, #ttng.tensor_memory, mutable, 128x128>
    %acc_53 = ttng.tmem_alloc %s : (tensor<128x4xi8, #linear1>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
    %h = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf16, #tmem2, #ttng.tensor_memory, mutable>
    tt.return
  }
  tt.func @mma(%a: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %b: !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %bar0: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %bar1: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %p: i1, %useD: i1) {
    %true = arith.constant true
    %false = arith.constant false
    ttng.tc_gen5_mma %a, %b, %acc, %useD, %true, %bar0[%true] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.tc_gen5_mma %a, %b, %acc, %useD, %true, %bar0[%true] {is_async, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    %2 = ttng.tc_gen5_mma %a, %b, %acc[], %false, %true : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %4 = ttng.tc_gen5_mma %a, %b, %acc[], %true, %true, %bar0[%true], %bar1[%p] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.tc_gen5_commit %bar1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    ttng.tc_gen5_commit %bar1 {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 0 : i32} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    tt.return
  }
  tt.func @mma_scaled(%a: !ttg.memdesc<128x128xf8E4M3FN, #shared2, #smem, mutable>, %b: !ttg.memdesc<128x128xf8E4M3FN, #shared3, #smem, mutable>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %sa: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %sb: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %useD: i1) {
    %true = arith.constant true
    ttng.tc_gen5_mma_scaled %a, %b, %acc, %sa, %sb, %useD, %true lhs = e4m3 rhs = e4m3, %bar[%true] {is_async} : !ttg.memdesc<128x128xf8E4M3FN, #shared2, #smem, mutable>, !ttg.memdesc<128x128xf8E4M3FN, #shared3, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
    tt.return
  }
  tt.func @tma(%src: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %rows: tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %col: i32, %bar: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %buf: !ttg.memdesc<16x128xbf16, #shared, #smem, mutable>, %out: !ttg.memdesc<16x128xbf16, #shared, #smem>, %d: !tt.tensordesc<tensor<64x64xsi32, #shared>>, %v: !ttg.memdesc<64x64xi32, #shared, #smem>) {
    %true = arith.constant true
    ttng.async_tma_gather %src[%rows, %col] %buf, %bar, %true : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<16x128xbf16, #shared, #smem, mutable>, i1
    ttng.async_tma_scatter %src[%rows, %col] %out : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<16x128xbf16, #shared, #smem>
    ttng.async_tma_reduce add, %d[%col, %col] %v : !tt.tensordesc<tensor<64x64xsi32, #shared>>, !ttg.memdesc<64x64xi32, #shared, #smem>
    ttng.async_tma_reduce max, %d[%col, %col] %v : !tt.tensordesc<tensor<64x64xsi32, #shared>>, !ttg.memdesc<64x64xi32, #shared, #smem>
    tt.return
  }
  tt.func @tensormaps(%a_0: !tt.ptr<i8>, %a_ptr: !tt.ptr<f16>, %N: i32, %M: i32, %a_1: i64) {
    %c1_i32 = arith.constant 1 : i32
    %c64_i32 = arith.constant 64 : i32
    ttng.tensormap_create %a_0, %a_ptr, [%c64_i32, %c64_i32], [%N, %M], [%a_1], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %a_0 : !tt.ptr<i8>
    %a_2 = ttng.reinterpret_tensor_descriptor %a_0 : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-NEXT: #linear = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}32, 0], [64, 0]], block = []}>
// CHECK-NEXT: #linear1 = #ttg.linear<{register = {{\[\[}}0, 1], [0, 2], [32, 0], [64, 0]], lane = {{\[\[}}1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = {{\[\[}}0, 0], [0, 0]], block = []}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-NEXT: #shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-NEXT: #tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-NEXT: #tmem2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 2>
// CHECK-NEXT: #tmem_scales = #ttng.tensor_memory_scales_encoding<>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @tmem(%arg0: tensor<128x128xf32, #linear>, %arg1: tensor<128x4xi8, #linear1>, %arg2: i1) {
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %result = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT: ttng.tmem_store %arg0, %result, %true : tensor<128x128xf32, #linear> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT: %result_0 = ttng.tmem_load %result : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #linear>
// CHECK-NEXT: %result_1 = ttng.tmem_alloc %result_0 : (tensor<128x128xf32, #linear>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT: %0 = ttng.tmem_subslice %result_1 {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem1, #ttng.tensor_memory, mutable, 128x128>
// CHECK-NEXT: %result_2 = ttng.tmem_alloc %arg1 : (tensor<128x4xi8, #linear1>) -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>
// CHECK-NEXT: %result_3 = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf16, #tmem2, #ttng.tensor_memory, mutable>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @mma(%arg0: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, %arg2: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %arg3: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %arg4: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %arg5: i1, %arg6: i1) {
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg6, %true, %arg3[%true] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg6, %true, %arg3[%true] {is_async, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: %0 = ttng.tc_gen5_mma %arg0, %arg1, %arg2[], %false, %true : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT: %1 = ttng.tc_gen5_mma %arg0, %arg1, %arg2[], %true, %true, %arg3[%true], %arg4[%arg5] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.tc_gen5_commit %arg4 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: ttng.tc_gen5_commit %arg4 {ttg.partition = array<i32: 1>, ttg.warp_specialize.tag = 0 : i32} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @mma_scaled(%arg0: !ttg.memdesc<128x128xf8E4M3FN, #shared2, #smem, mutable>, %arg1: !ttg.memdesc<128x128xf8E4M3FN, #shared3, #smem, mutable>, %arg2: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %arg3: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %arg4: !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, %arg5: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %arg6: i1) {
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %arg3, %arg4, %arg6, %true lhs = e4m3 rhs = e4m3, %arg5[%true] {is_async} : !ttg.memdesc<128x128xf8E4M3FN, #shared2, #smem, mutable>, !ttg.memdesc<128x128xf8E4M3FN, #shared3, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @tma(%arg0: !tt.tensordesc<tensor<1x128xbf16, #shared>>, %arg1: tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, %arg2: i32, %arg3: !ttg.memdesc<1xi64, #shared1, #smem, mutable>, %arg4: !ttg.memdesc<16x128xbf16, #shared, #smem, mutable>, %arg5: !ttg.memdesc<16x128xbf16, #shared, #smem>, %arg6: !tt.tensordesc<tensor<64x64xsi32, #shared>>, %arg7: !ttg.memdesc<64x64xi32, #shared, #smem>) {
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: ttng.async_tma_gather %arg0[%arg1, %arg2] %arg4, %arg3, %true : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<16x128xbf16, #shared, #smem, mutable>, i1
// CHECK-NEXT: ttng.async_tma_scatter %arg0[%arg1, %arg2] %arg5 : !tt.tensordesc<tensor<1x128xbf16, #shared>>, tensor<16xi32, #ttg.slice<{dim = 0, parent = #blocked}>>, i32, !ttg.memdesc<16x128xbf16, #shared, #smem>
// CHECK-NEXT: ttng.async_tma_reduce add, %arg6[%arg2, %arg2] %arg7 : !tt.tensordesc<tensor<64x64xsi32, #shared>>, !ttg.memdesc<64x64xi32, #shared, #smem>
// CHECK-NEXT: ttng.async_tma_reduce max, %arg6[%arg2, %arg2] %arg7 : !tt.tensordesc<tensor<64x64xsi32, #shared>>, !ttg.memdesc<64x64xi32, #shared, #smem>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @tensormaps(%arg0: !tt.ptr<i8>, %arg1: !tt.ptr<f16>, %arg2: i32, %arg3: i32, %arg4: i64) {
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT: %c64_i32 = arith.constant 64 : i32
// CHECK-NEXT: ttng.tensormap_create %arg0, %arg1, [%c64_i32, %c64_i32], [%arg2, %arg3], [%arg4], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %arg0 : !tt.ptr<i8>
// CHECK-NEXT: %0 = ttng.reinterpret_tensor_descriptor %arg0 : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #shared>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-NEXT: }

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 1]]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[0]]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
#tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, CTASplitN = 2>
#tmem2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, CTASplitN = 2, twoCTAs = true>
#tmem_scales = #ttng.tensor_memory_scales_encoding<CTASplitM = 2>
#tmem_scales1 = #ttng.tensor_memory_scales_encoding<CTASplitM = 2, CTASplitN = 2>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_ctas(%a: !ttg.memdesc<256x64xf16, #shared, #smem>, %b: !ttg.memdesc<64x128xf16, #shared1, #smem>, %acc: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, %bar: !ttg.memdesc<1xi64, #shared2, #smem, mutable>, %useD: i1, %p: i1) {
    %true = arith.constant true
    ttng.tc_gen5_mma %a, %b, %acc, %useD, %p, %bar[%true] {is_async, two_ctas} : !ttg.memdesc<256x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared2, #smem, mutable>
    tt.return
  }
  tt.func @split_layouts(%a: !ttg.memdesc<256x256xf32, #tmem1, #ttng.tensor_memory, mutable>, %b: !ttg.memdesc<256x256xf32, #tmem2, #ttng.tensor_memory, mutable>, %c: !ttg.memdesc<256x4xi8, #tmem_scales, #ttng.tensor_memory>, %d: !ttg.memdesc<256x4xi8, #tmem_scales1, #ttng.tensor_memory>) {
    tt.return
  }
}

// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}1, 0]]}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK-NEXT: #shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = {{\[\[}}0]]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
// CHECK-NEXT: #tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, CTASplitN = 2>
// CHECK-NEXT: #tmem2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, CTASplitN = 2, twoCTAs = true>
// CHECK-NEXT: #tmem_scales = #ttng.tensor_memory_scales_encoding<CTASplitM = 2>
// CHECK-NEXT: #tmem_scales1 = #ttng.tensor_memory_scales_encoding<CTASplitM = 2, CTASplitN = 2>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func @two_ctas(%arg0: !ttg.memdesc<256x64xf16, #shared, #smem>, %arg1: !ttg.memdesc<64x128xf16, #shared1, #smem>, %arg2: !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, %arg3: !ttg.memdesc<1xi64, #shared2, #smem, mutable>, %arg4: i1, %arg5: i1) {
// CHECK-NEXT: %true = arith.constant true
// CHECK-NEXT: ttng.tc_gen5_mma %arg0, %arg1, %arg2, %arg4, %arg5, %arg3[%true] {is_async, two_ctas} : !ttg.memdesc<256x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared1, #smem>, !ttg.memdesc<256x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared2, #smem, mutable>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @split_layouts(%arg0: !ttg.memdesc<256x256xf32, #tmem1, #ttng.tensor_memory, mutable>, %arg1: !ttg.memdesc<256x256xf32, #tmem2, #ttng.tensor_memory, mutable>, %arg2: !ttg.memdesc<256x4xi8, #tmem_scales, #ttng.tensor_memory>, %arg3: !ttg.memdesc<256x4xi8, #tmem_scales1, #ttng.tensor_memory>) {
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-NEXT: }
