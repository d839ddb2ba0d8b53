// RUN: tle-opt %s -split-input-file --triton-tle-lower-dsa | FileCheck %s --implicit-check-not=" tle.dsa."

// GM -> UB and UB -> GM through the pointers Triton builds for a 2-D block
// x_ptr + (pid * 16 + rows)[:, None] * stride + cols[None, :], with tails.
// The base pointer becomes a memref<*xf32> and the pointer tensor a
// reinterpret_cast with offset pid * 16 * stride and strides [stride, 1].
// CHECK-LABEL: tt.func @copy_2d
// CHECK-SAME: (%[[X:.*]]: !tt.ptr<f32>, %[[Y:.*]]: !tt.ptr<f32>, %[[STRIDE:.*]]: i32, %[[M:.*]]: i32, %[[N:.*]]: i32)
// CHECK: %[[A:.*]] = memref.alloc() : memref<16x32xf32, #tle.dsa.address_space<UB>>
// CHECK: %[[ROW0:.*]] = arith.index_cast %[[PID0:.*]] : i32 to index
// CHECK: %[[S:.*]] = arith.index_cast %[[STRIDE]] : i32 to index
// CHECK: %[[OFF:.*]] = arith.muli %[[ROW0]], %[[S]] : index
// CHECK: %[[XM:.*]] = builtin.unrealized_conversion_cast %[[X]] : !tt.ptr<f32> to memref<*xf32>
// CHECK: %[[XV:.*]] = memref.reinterpret_cast %[[XM]] to offset: [%[[OFF]]], sizes: [16, 32], strides: [%[[S]], 1] : memref<*xf32> to memref<16x32xf32, strided<[?, 1], offset: ?>>
// CHECK: %[[MI:.*]] = arith.index_cast %[[M]] : i32 to index
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[XS:.*]] = memref.subview %[[XV]][0, 0] [%[[MI]], %[[NI]]] [1, 1] : memref<16x32xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK: %[[AS:.*]] = memref.subview %[[A]][0, 0] [%[[MI]], %[[NI]]] [1, 1] : memref<16x32xf32, #tle.dsa.address_space<UB>> to memref<?x?xf32, strided<[32, 1]>, #tle.dsa.address_space<UB>>
// CHECK: memref.copy %[[XS]], %[[AS]]
// CHECK: %[[YM:.*]] = builtin.unrealized_conversion_cast %[[Y]] : !tt.ptr<f32> to memref<*xf32>
// CHECK: %[[YV:.*]] = memref.reinterpret_cast %[[YM]] to offset: [{{.*}}], sizes: [16, 32], strides: [{{.*}}, 1]
// CHECK: memref.subview %[[A]][0, 0]
// CHECK: memref.subview %[[YV]][0, 0]
// CHECK: memref.copy
// CHECK-NOT: tt.addptr
// CHECK-NOT: tt.make_range
// CHECK: tt.return
tt.func @copy_2d(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %stride: i32, %m: i32, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c16 = arith.constant 16 : i32
  %pid16 = arith.muli %pid, %c16 : i32
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %ps = tt.splat %pid16 : i32 -> tensor<16xi32>
  %rows = arith.addi %ps, %r : tensor<16xi32>
  %re = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ss = tt.splat %stride : i32 -> tensor<16x1xi32>
  %rs = arith.muli %re, %ss : tensor<16x1xi32>
  %rb = tt.broadcast %rs : tensor<16x1xi32> -> tensor<16x32xi32>
  %c = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %cb = tt.broadcast %ce : tensor<1x32xi32> -> tensor<16x32xi32>
  %off = arith.addi %rb, %cb : tensor<16x32xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %off : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %off : tensor<16x32x!tt.ptr<f32>>, tensor<16x32xi32>
  %a = tle.dsa.alloc : !tle.dsa.buffer<16x32xf32, UB>
  tle.dsa.copy %xp, %a sizes [%m, %n] : tensor<16x32x!tt.ptr<f32>> -> !tle.dsa.buffer<16x32xf32, UB>
  tle.dsa.copy %a, %yp sizes [%m, %n] : !tle.dsa.buffer<16x32xf32, UB> -> tensor<16x32x!tt.ptr<f32>>
  tt.return
}

// -----

// Whole-block copies (no sizes) of a 1-D block: static offset and stride
// after a pointer-level splat of an advanced base, i64 offsets through
// arith.extsi, constant splat offsets folded.
// CHECK-LABEL: tt.func @copy_1d
// CHECK: %[[B:.*]] = memref.alloc() : memref<64xf16, #tle.dsa.address_space<L1>>
// CHECK: %[[XM:.*]] = builtin.unrealized_conversion_cast %[[BASE:.*]] : !tt.ptr<f16> to memref<*xf16>
// CHECK: %[[XV:.*]] = memref.reinterpret_cast %[[XM]] to offset: [4], sizes: [64], strides: [2] : memref<*xf16> to memref<64xf16, strided<[2], offset: 4>>
// CHECK: memref.copy %[[XV]], %[[B]] : memref<64xf16, strided<[2], offset: 4>> to memref<64xf16, #tle.dsa.address_space<L1>>
tt.func @copy_1d(%x: !tt.ptr<f16>, %k: i32) -> !tt.ptr<f16> {
  %base = tt.addptr %x, %k : !tt.ptr<f16>, i32
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r64 = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
  %two = arith.constant dense<2> : tensor<64xi64>
  %four = arith.constant dense<4> : tensor<64xi64>
  %o = arith.muli %two, %r64 : tensor<64xi64>
  %o4 = arith.addi %o, %four : tensor<64xi64>
  %s = tt.splat %base : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %p = tt.addptr %s, %o4 : tensor<64x!tt.ptr<f16>>, tensor<64xi64>
  %b = tle.dsa.alloc : !tle.dsa.buffer<64xf16, L1>
  tle.dsa.copy %p, %b : tensor<64x!tt.ptr<f16>> -> !tle.dsa.buffer<64xf16, L1>
  tt.return %base : !tt.ptr<f16>
}

// -----

// Pointer tensors also used elsewhere stay; addptr chains and subtraction.
// CHECK-LABEL: tt.func @copy_keeps_used_pointers
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [1], sizes: [8], strides: [3]
// CHECK: memref.copy
// CHECK: tt.load %[[P:.*]] :
// CHECK: tt.return
tt.func @copy_keeps_used_pointers(%x: !tt.ptr<i32>) -> tensor<8xi32> {
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %three = arith.constant dense<3> : tensor<8xi32>
  %one = arith.constant dense<1> : tensor<8xi32>
  %o = arith.muli %r, %three : tensor<8xi32>
  %s = tt.splat %x : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %p0 = tt.addptr %s, %o : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %zero = arith.subi %one, %one : tensor<8xi32>
  %pos = arith.subi %one, %zero : tensor<8xi32>
  %p = tt.addptr %p0, %pos : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %b = tle.dsa.alloc : !tle.dsa.buffer<8xi32, UB>
  tle.dsa.copy %b, %p : !tle.dsa.buffer<8xi32, UB> -> tensor<8x!tt.ptr<i32>>
  %v = tt.load %p : tensor<8x!tt.ptr<i32>>
  tt.return %v : tensor<8xi32>
}
