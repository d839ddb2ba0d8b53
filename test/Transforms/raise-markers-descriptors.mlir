// A marker whose result is a tensor descriptor's base (`tle.marker.descriptor`):
// the raised op takes the place of the descriptor Triton made from it (a
// tt.make_tensor_descriptor in TTIR, its expansion in TTGIR), and Triton's
// making of it goes.
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers | FileCheck %s
// verify-only checks the markers and changes nothing.
// RUN: tle-opt %s -split-input-file > %t.plain
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true > %t.checked
// RUN: diff %t.plain %t.checked

// TTIR: the descriptor is a tt.make_tensor_descriptor of the marker's result.
// CHECK-LABEL: tt.func @ttir(
// CHECK-SAME: %[[TABLE:[^:]*]]: !tt.ptr<i8>
// CHECK: %[[D:.*]] = tle.reinterpret_tensor_map %[[TABLE]] : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x32xf32>>
// CHECK-NEXT: %{{.*}} = tt.descriptor_load %[[D]]
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK-NOT: elementwise_inline_asm
module {
  tt.func @ttir(%table: !tt.ptr<i8>, %i: i32) -> tensor<8x32xf32> {
    %c8 = arith.constant 8 : i32
    %c32 = arith.constant 32 : i32
    %c32_i64 = arith.constant 32 : i64
    %c1_i64 = arith.constant 1 : i64
    %base = tt.elementwise_inline_asm "tle.reinterpret_tensor_map {tle.marker.descriptor = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %table : !tt.ptr<i8> -> !tt.ptr<f32>
    %d = tt.make_tensor_descriptor %base, [%c8, %c32], [%c32_i64, %c1_i64] : <f32>, <tensor<8x32xf32>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x32xf32>> -> tensor<8x32xf32>
    tt.return %v : tensor<8x32xf32>
  }
}

// -----

// TTGIR: Triton expanded the descriptor into a scratch map it writes,
// fences and reinterprets; the raised op reinterprets the user's map and
// keeps the block's shared layout Triton chose.
// CHECK-LABEL: tt.func @ttgir(
// CHECK-SAME: %[[TABLE:[^:]*]]: !tt.ptr<i8>
// CHECK: %[[D:.*]] = tle.reinterpret_tensor_map %[[TABLE]] : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x32xf32, #shared>>
// CHECK-NEXT: %{{.*}} = tt.descriptor_load %[[D]]
// CHECK-NOT: ttg.global_scratch_alloc
// CHECK-NOT: ttng.tensormap
// CHECK-NOT: ttng.reinterpret_tensor_descriptor
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @ttgir(%table: !tt.ptr<i8>, %i: i32) -> tensor<8x32xf32, #blocked> {
    %c8 = arith.constant 8 : i32
    %c32 = arith.constant 32 : i32
    %c1 = arith.constant 1 : i32
    %c128_i64 = arith.constant 128 : i64
    %base = tt.elementwise_inline_asm "tle.reinterpret_tensor_map {tle.marker.descriptor = true}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %table : !tt.ptr<i8> -> !tt.ptr<f32>
    %s = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
    ttng.tensormap_create %s, %base, [%c32, %c8], [%c32, %c8], [%c128_i64], [%c1, %c1] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f32>, i32, i32, i32, i32, i64, i32, i32) -> ()
    ttng.tensormap_fenceproxy_acquire %s : !tt.ptr<i8>
    %d = ttng.reinterpret_tensor_descriptor %s : !tt.ptr<i8> to !tt.tensordesc<tensor<8x32xf32, #shared>>
    %v = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<8x32xf32, #shared>> -> tensor<8x32xf32, #blocked>
    tt.return %v : tensor<8x32xf32, #blocked>
  }
}
