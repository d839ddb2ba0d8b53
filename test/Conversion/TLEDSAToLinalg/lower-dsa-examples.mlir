// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers --triton-tle-lower-dsa | FileCheck %s --implicit-check-not=" tle.dsa." --implicit-check-not=elementwise_inline_asm

// The seeds' examples as the frontend emits them (python/test/test_dsa.py,
// TTIR captured before tle-ttir, locations stripped), raised and lowered.

// "DSA local buffer flow".
// CHECK-LABEL: tt.func public @local_buffer_flow
// CHECK-SAME: (%[[A:.*]]: !tt.ptr<f16>, %[[B:.*]]: !tt.ptr<f16>, %[[OUT:.*]]: !tt.ptr<f16>, %[[STRIDE:.*]]: i32)
// CHECK: %[[PID:.*]] = tt.get_program_id x
// CHECK: %[[ROW0:.*]] = arith.muli %[[PID]], %c16_i32
// CHECK: %[[AUB:.*]] = memref.alloc() : memref<16x32xf16, #tle.dsa.address_space<UB>>
// CHECK: %[[BUB:.*]] = memref.alloc() : memref<16x32xf16, #tle.dsa.address_space<UB>>
// CHECK: %[[CUB:.*]] = memref.alloc() : memref<16x32xf16, #tle.dsa.address_space<UB>>
// a_ptr + offs: offset pid * 16 * stride, strides [stride, 1].
// CHECK: %[[R:.*]] = arith.index_cast %[[ROW0]] : i32 to index
// CHECK: %[[S:.*]] = arith.index_cast %[[STRIDE]] : i32 to index
// CHECK: %[[O:.*]] = arith.muli %[[R]], %[[S]] : index
// CHECK: %[[AM:.*]] = builtin.unrealized_conversion_cast %[[A]] : !tt.ptr<f16> to memref<*xf16>
// CHECK: %[[AV:.*]] = memref.reinterpret_cast %[[AM]] to offset: [%[[O]]], sizes: [16, 32], strides: [%[[S]], 1]
// CHECK: memref.copy %[[AV]], %[[AUB]] : memref<16x32xf16, strided<[?, 1], offset: ?>> to memref<16x32xf16, #tle.dsa.address_space<UB>>
// CHECK: builtin.unrealized_conversion_cast %[[B]]
// CHECK: %[[BV:.*]] = memref.reinterpret_cast
// CHECK: memref.copy %[[BV]], %[[BUB]]
// CHECK: linalg.add ins(%[[AUB]], %[[BUB]] : {{.*}}) outs(%[[CUB]] : {{.*}})
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[CUB]] restrict writable : memref<16x32xf16, #tle.dsa.address_space<UB>> to tensor<16x32xf16>
// CHECK: %[[OUB:.*]] = memref.alloc() : memref<16x32xf16, #tle.dsa.address_space<UB>>
// CHECK: bufferization.materialize_in_destination %[[T]] in writable %[[OUB]]
// CHECK: builtin.unrealized_conversion_cast %[[OUT]]
// CHECK: %[[OV:.*]] = memref.reinterpret_cast
// CHECK: memref.copy %[[OUB]], %[[OV]] : memref<16x32xf16, #tle.dsa.address_space<UB>> to memref<16x32xf16, strided<[?, 1], offset: ?>>
// CHECK-NOT: tt.addptr
// CHECK: tt.return
module {
  tt.func public @local_buffer_flow(%a_ptr: !tt.ptr<f16>, %b_ptr: !tt.ptr<f16>, %out_ptr: !tt.ptr<f16>, %stride: i32) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %pid = tt.get_program_id x : i32
    %offs = arith.muli %pid, %c16_i32 : i32
    %offs_0 = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %offs_1 = tt.splat %offs : i32 -> tensor<16xi32>
    %offs_2 = arith.addi %offs_1, %offs_0 : tensor<16xi32>
    %offs_3 = tt.expand_dims %offs_2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %offs_4 = tt.splat %stride : i32 -> tensor<16x1xi32>
    %offs_5 = arith.muli %offs_3, %offs_4 : tensor<16x1xi32>
    %offs_6 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %offs_7 = tt.expand_dims %offs_6 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %offs_8 = tt.broadcast %offs_5 : tensor<16x1xi32> -> tensor<16x32xi32>
    %offs_9 = tt.broadcast %offs_7 : tensor<1x32xi32> -> tensor<16x32xi32>
    %offs_10 = arith.addi %offs_8, %offs_9 : tensor<16x32xi32>
    %a_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16x32xf16, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f16, 3>
    %b_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16x32xf16, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f16, 3>
    %c_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<16x32xf16, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f16, 3>
    %0 = tt.splat %a_ptr : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
    %1 = tt.addptr %0, %offs_10 : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi32>
    %2 = tt.splat %a_ub : !tt.ptr<f16, 3> -> tensor<16x32x!tt.ptr<f16, 3>>
    %3 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %1, %2 : tensor<16x32x!tt.ptr<f16>>, tensor<16x32x!tt.ptr<f16, 3>> -> tensor<16x32xi32>
    %4 = tt.splat %b_ptr : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
    %5 = tt.addptr %4, %offs_10 : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi32>
    %6 = tt.splat %b_ub : !tt.ptr<f16, 3> -> tensor<16x32x!tt.ptr<f16, 3>>
    %7 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %5, %6 : tensor<16x32x!tt.ptr<f16>>, tensor<16x32x!tt.ptr<f16, 3>> -> tensor<16x32xi32>
    %8 = tt.splat %c_ub : !tt.ptr<f16, 3> -> tensor<16x32x!tt.ptr<f16, 3>>
    %9 = tt.elementwise_inline_asm "tle.dsa.add {tle.marker.scalar_operands = array<i32: 0, 1, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %2, %6, %8 : tensor<16x32x!tt.ptr<f16, 3>>, tensor<16x32x!tt.ptr<f16, 3>>, tensor<16x32x!tt.ptr<f16, 3>> -> tensor<16x32xi32>
    %c_val = tt.elementwise_inline_asm "tle.dsa.to_tensor {writable = unit, tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %8 : tensor<16x32x!tt.ptr<f16, 3>> -> tensor<16x32xf16>
    %out_ub = tt.elementwise_inline_asm "tle.dsa.to_buffer {tle.marker.result_types = [!tle.dsa.buffer<16x32xf16, UB>]}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %c_val : tensor<16x32xf16> -> tensor<16x32x!tt.ptr<f16, 3>>
    %10 = tt.splat %out_ptr : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
    %11 = tt.addptr %10, %offs_10 : tensor<16x32x!tt.ptr<f16>>, tensor<16x32xi32>
    %12 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %out_ub, %11 : tensor<16x32x!tt.ptr<f16, 3>>, tensor<16x32x!tt.ptr<f16>> -> tensor<16x32xi32>
    tt.return
  }
}


// -----

// "Arithmetic chain": (a - b) * b / scale with runtime tails.
// CHECK-LABEL: tt.func public @arithmetic_chain
// CHECK-SAME: (%[[A:.*]]: !tt.ptr<f32>, %[[B:.*]]: !tt.ptr<f32>, %[[SC:.*]]: !tt.ptr<f32>, %[[OUT:.*]]: !tt.ptr<f32>, %[[M:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[TM:.*]] = arith.minsi %{{.*}}, %c8_i32 : i32
// CHECK: %[[TN:.*]] = arith.minsi %[[N]], %c64_i32 : i32
// CHECK: %[[AUB:.*]] = memref.alloc() : memref<8x64xf32, #tle.dsa.address_space<UB>>
// CHECK: %[[BUB:.*]] = memref.alloc()
// CHECK: %[[SUB:.*]] = memref.alloc()
// CHECK: %[[TMP:.*]] = memref.alloc()
// CHECK: %[[OUB:.*]] = memref.alloc()
// Row stride N; tails [tail_m, tail_n] subview both sides.
// CHECK: %[[AV:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [8, 64], strides: [%[[NI:.*]], 1]
// CHECK: %[[TMI:.*]] = arith.index_cast %[[TM]] : i32 to index
// CHECK: %[[TNI:.*]] = arith.index_cast %[[TN]] : i32 to index
// CHECK: %[[AS:.*]] = memref.subview %[[AV]][0, 0] [%[[TMI]], %[[TNI]]] [1, 1]
// CHECK: %[[AUS:.*]] = memref.subview %[[AUB]][0, 0] [%[[TMI]], %[[TNI]]] [1, 1] : memref<8x64xf32, #tle.dsa.address_space<UB>> to memref<?x?xf32, strided<[64, 1]>, #tle.dsa.address_space<UB>>
// CHECK: memref.copy %[[AS]], %[[AUS]]
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK: linalg.sub ins(%[[AUB]], %[[BUB]] : {{.*}}) outs(%[[TMP]] : {{.*}})
// CHECK: linalg.mul ins(%[[TMP]], %[[BUB]] : {{.*}}) outs(%[[TMP]] : {{.*}})
// CHECK: linalg.div ins(%[[TMP]], %[[SUB]] : {{.*}}) outs(%[[OUB]] : {{.*}})
// CHECK: %[[OV:.*]] = memref.reinterpret_cast
// CHECK: %[[OS:.*]] = memref.subview %[[OUB]][0, 0]
// CHECK: %[[GS:.*]] = memref.subview %[[OV]][0, 0]
// CHECK: memref.copy %[[OS]], %[[GS]]
// CHECK: tt.return
module {
  tt.func public @arithmetic_chain(%a_ptr: !tt.ptr<f32>, %b_ptr: !tt.ptr<f32>, %s_ptr: !tt.ptr<f32>, %out_ptr: !tt.ptr<f32>, %M: i32, %N: i32) attributes {noinline = false} {
    %tail_n = arith.constant 64 : i32
    %c8_i32 = arith.constant 8 : i32
    %pid = tt.get_program_id x : i32
    %tail_m = arith.muli %pid, %c8_i32 : i32
    %tail_m_0 = arith.subi %M, %tail_m : i32
    %tail_m_1 = arith.minsi %tail_m_0, %c8_i32 : i32
    %tail_n_2 = arith.minsi %N, %tail_n : i32
    %offs = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %offs_3 = tt.splat %tail_m : i32 -> tensor<8xi32>
    %offs_4 = arith.addi %offs_3, %offs : tensor<8xi32>
    %offs_5 = tt.expand_dims %offs_4 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %offs_6 = tt.splat %N : i32 -> tensor<8x1xi32>
    %offs_7 = arith.muli %offs_5, %offs_6 : tensor<8x1xi32>
    %offs_8 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %offs_9 = tt.expand_dims %offs_8 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %offs_10 = tt.broadcast %offs_7 : tensor<8x1xi32> -> tensor<8x64xi32>
    %offs_11 = tt.broadcast %offs_9 : tensor<1x64xi32> -> tensor<8x64xi32>
    %offs_12 = arith.addi %offs_10, %offs_11 : tensor<8x64xi32>
    %a_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<8x64xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %b_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<8x64xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %scale_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<8x64xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %tmp_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<8x64xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %out_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<8x64xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %0 = tt.splat %a_ptr : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
    %1 = tt.addptr %0, %offs_12 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
    %2 = tt.splat %a_ub : !tt.ptr<f32, 3> -> tensor<8x64x!tt.ptr<f32, 3>>
    %3 = tt.splat %tail_m_1 : i32 -> tensor<8x64xi32>
    %4 = tt.splat %tail_n_2 : i32 -> tensor<8x64xi32>
    %5 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1, 2, 3>, tle.marker.no_results = true}" {constraints = "=r,r,r,r,r", packed_element = 1 : i32, pure = false} %1, %2, %3, %4 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64xi32>, tensor<8x64xi32> -> tensor<8x64xi32>
    %6 = tt.splat %b_ptr : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
    %7 = tt.addptr %6, %offs_12 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
    %8 = tt.splat %b_ub : !tt.ptr<f32, 3> -> tensor<8x64x!tt.ptr<f32, 3>>
    %9 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1, 2, 3>, tle.marker.no_results = true}" {constraints = "=r,r,r,r,r", packed_element = 1 : i32, pure = false} %7, %8, %3, %4 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64xi32>, tensor<8x64xi32> -> tensor<8x64xi32>
    %10 = tt.splat %s_ptr : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
    %11 = tt.addptr %10, %offs_12 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
    %12 = tt.splat %scale_ub : !tt.ptr<f32, 3> -> tensor<8x64x!tt.ptr<f32, 3>>
    %13 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1, 2, 3>, tle.marker.no_results = true}" {constraints = "=r,r,r,r,r", packed_element = 1 : i32, pure = false} %11, %12, %3, %4 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64xi32>, tensor<8x64xi32> -> tensor<8x64xi32>
    %14 = tt.splat %tmp_ub : !tt.ptr<f32, 3> -> tensor<8x64x!tt.ptr<f32, 3>>
    %15 = tt.elementwise_inline_asm "tle.dsa.sub {tle.marker.scalar_operands = array<i32: 0, 1, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %2, %8, %14 : tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32, 3>> -> tensor<8x64xi32>
    %16 = tt.elementwise_inline_asm "tle.dsa.mul {tle.marker.scalar_operands = array<i32: 0, 1, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %14, %8, %14 : tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32, 3>> -> tensor<8x64xi32>
    %17 = tt.splat %out_ub : !tt.ptr<f32, 3> -> tensor<8x64x!tt.ptr<f32, 3>>
    %18 = tt.elementwise_inline_asm "tle.dsa.div {tle.marker.scalar_operands = array<i32: 0, 1, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %14, %12, %17 : tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32, 3>> -> tensor<8x64xi32>
    %19 = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
    %20 = tt.addptr %19, %offs_12 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
    %21 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 0, 2, 3>, tle.marker.no_results = true}" {constraints = "=r,r,r,r,r", packed_element = 1 : i32, pure = false} %17, %20, %3, %4 : tensor<8x64x!tt.ptr<f32, 3>>, tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>, tensor<8x64xi32> -> tensor<8x64xi32>
    tt.return
  }
}


// -----

// "Clamp via max + min".
// CHECK-LABEL: tt.func public @clamp
// CHECK-SAME: (%[[X:.*]]: !tt.ptr<f32>, %[[Y:.*]]: !tt.ptr<f32>, %[[LO:.*]]: f32, %[[HI:.*]]: f32)
// CHECK: %[[XUB:.*]] = memref.alloc() : memref<128xf32, #tle.dsa.address_space<UB>>
// CHECK: %[[TMP:.*]] = memref.alloc()
// CHECK: %[[YUB:.*]] = memref.alloc()
// CHECK: %[[LOT:.*]] = tt.splat %[[LO]] : f32 -> tensor<128xf32>
// CHECK: %[[FLOOR:.*]] = memref.alloc()
// CHECK: bufferization.materialize_in_destination %[[LOT]] in writable %[[FLOOR]]
// CHECK: %[[HIT:.*]] = tt.splat %[[HI]] : f32 -> tensor<128xf32>
// CHECK: %[[CEIL:.*]] = memref.alloc()
// CHECK: bufferization.materialize_in_destination %[[HIT]] in writable %[[CEIL]]
// CHECK: %[[XV:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [128], strides: [1] : memref<*xf32> to memref<128xf32, strided<[1], offset: ?>>
// CHECK: memref.copy %[[XV]], %[[XUB]]
// CHECK: linalg.max ins(%[[XUB]], %[[FLOOR]] : {{.*}}) outs(%[[TMP]] : {{.*}})
// CHECK: linalg.min ins(%[[TMP]], %[[CEIL]] : {{.*}}) outs(%[[YUB]] : {{.*}})
// CHECK: %[[YV:.*]] = memref.reinterpret_cast
// CHECK: memref.copy %[[YUB]], %[[YV]]
// CHECK: tt.return
module {
  tt.func public @clamp(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %lo: f32, %hi: f32) attributes {noinline = false} {
    %c128_i32 = arith.constant 128 : i32
    %offs = tt.get_program_id x : i32
    %offs_0 = arith.muli %offs, %c128_i32 : i32
    %offs_1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %offs_2 = tt.splat %offs_0 : i32 -> tensor<128xi32>
    %offs_3 = arith.addi %offs_2, %offs_1 : tensor<128xi32>
    %x_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<128xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %tmp_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<128xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %y_ub = tt.elementwise_inline_asm "tle.dsa.alloc {tle.marker.result_types = [!tle.dsa.buffer<128xf32, UB>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
    %floor_ub = tt.splat %lo : f32 -> tensor<128xf32>
    %floor_ub_4 = tt.elementwise_inline_asm "tle.dsa.to_buffer {tle.marker.result_types = [!tle.dsa.buffer<128xf32, UB>]}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %floor_ub : tensor<128xf32> -> tensor<128x!tt.ptr<f32, 3>>
    %ceil_ub = tt.splat %hi : f32 -> tensor<128xf32>
    %ceil_ub_5 = tt.elementwise_inline_asm "tle.dsa.to_buffer {tle.marker.result_types = [!tle.dsa.buffer<128xf32, UB>]}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %ceil_ub : tensor<128xf32> -> tensor<128x!tt.ptr<f32, 3>>
    %0 = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %1 = tt.addptr %0, %offs_3 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %2 = tt.splat %x_ub : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>>
    %3 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %1, %2 : tensor<128x!tt.ptr<f32>>, tensor<128x!tt.ptr<f32, 3>> -> tensor<128xi32>
    %4 = tt.splat %tmp_ub : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>>
    %5 = tt.elementwise_inline_asm "tle.dsa.max {tle.marker.scalar_operands = array<i32: 0, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %2, %floor_ub_4, %4 : tensor<128x!tt.ptr<f32, 3>>, tensor<128x!tt.ptr<f32, 3>>, tensor<128x!tt.ptr<f32, 3>> -> tensor<128xi32>
    %6 = tt.splat %y_ub : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>>
    %7 = tt.elementwise_inline_asm "tle.dsa.min {tle.marker.scalar_operands = array<i32: 0, 2>, tle.marker.no_results = true}" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false} %4, %ceil_ub_5, %6 : tensor<128x!tt.ptr<f32, 3>>, tensor<128x!tt.ptr<f32, 3>>, tensor<128x!tt.ptr<f32, 3>> -> tensor<128xi32>
    %8 = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %9 = tt.addptr %8, %offs_3 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %10 = tt.elementwise_inline_asm "tle.dsa.copy {tle.marker.scalar_operands = array<i32: 0>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %6, %9 : tensor<128x!tt.ptr<f32, 3>>, tensor<128x!tt.ptr<f32>> -> tensor<128xi32>
    tt.return
  }
}

