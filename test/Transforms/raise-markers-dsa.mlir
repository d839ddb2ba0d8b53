// RUN: tle-opt %s --triton-tle-raise-markers | FileCheck %s --implicit-check-not=elementwise_inline_asm
// RUN: tle-opt %s --triton-tle-raise-markers=verify-only=true | FileCheck %s --check-prefix=VERIFY

// The markers of the "DSA local buffer flow" kernel (python/test/test_dsa.py,
// TTIR as Triton emits it, locations stripped): alloc handles are scalars,
// the to_buffer handle is a pointer tensor of the marker's shape.
// CHECK-LABEL: tt.func public @local_buffer_flow
// CHECK: %[[A:.*]] = tle.dsa.alloc : !tle.dsa.buffer<16x32xf16, UB>
// CHECK-NEXT: %[[B:.*]] = tle.dsa.alloc : !tle.dsa.buffer<16x32xf16, UB>
// CHECK-NEXT: %[[C:.*]] = tle.dsa.alloc : !tle.dsa.buffer<16x32xf16, UB>
// CHECK: %[[AP:.*]] = tt.addptr
// CHECK-NEXT: tle.dsa.copy %[[AP]], %[[A]] : tensor<16x32x!tt.ptr<f16>> -> !tle.dsa.buffer<16x32xf16, UB>
// CHECK: %[[BP:.*]] = tt.addptr
// CHECK-NEXT: tle.dsa.copy %[[BP]], %[[B]] : tensor<16x32x!tt.ptr<f16>> -> !tle.dsa.buffer<16x32xf16, UB>
// CHECK-NEXT: tle.dsa.add %[[A]], %[[B]], %[[C]] : !tle.dsa.buffer<16x32xf16, UB>
// CHECK-NEXT: %[[T:.*]] = tle.dsa.to_tensor %[[C]] writable : !tle.dsa.buffer<16x32xf16, UB> -> tensor<16x32xf16>
// CHECK-NEXT: %[[D:.*]] = tle.dsa.to_buffer %[[T]] : tensor<16x32xf16> -> !tle.dsa.buffer<16x32xf16, UB>
// CHECK: %[[OP:.*]] = tt.addptr
// CHECK-NEXT: tle.dsa.copy %[[D]], %[[OP]] : !tle.dsa.buffer<16x32xf16, UB> -> tensor<16x32x!tt.ptr<f16>>
// The handle splats are gone with their markers.
// CHECK-NOT: !tt.ptr<f16, 3>
// CHECK: tt.return
// verify-only leaves all 9 markers in place.
// VERIFY-COUNT-9: tt.elementwise_inline_asm "tle.dsa.
// VERIFY-NOT: tle.dsa.alloc :
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

