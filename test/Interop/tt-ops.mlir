// Round trip of every interop `tt` op in each printed form Triton 3.6.0 uses.
// The CHECK lines are what pip Triton 3.6.0 itself prints for this input.
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt --mlir-print-op-generic %s | tle-opt | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func private @callee(%a: i32 {tt.divisibility = 16 : i32}, %b: f32) -> i32 attributes {noinline = true} {
    tt.return %a : i32
  }
  tt.func private @decl(i32) -> (i32, f32)
  tt.func public @calls(%a: i32, %b: f32) attributes {noinline = false} {
    %0 = tt.call @callee(%a, %b) : (i32, f32) -> i32
    %1:2 = tt.call @decl(%0) : (i32) -> (i32, f32)
    tt.return
  }
  tt.func @grid() -> (i32, i32, i32) {
    %x = tt.get_program_id x : i32
    %y = tt.get_program_id y : i32
    %z = tt.get_num_programs z : i32
    tt.return %x, %y, %z : i32, i32, i32
  }
  tt.func public @memory(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %nn = tt.splat %n : i32 -> tensor<128xi32>
    %m = arith.cmpi slt, %r, %nn : tensor<128xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %a = tt.load %ptrs : tensor<128x!tt.ptr<f32>>
    %b = tt.load %ptrs, %m : tensor<128x!tt.ptr<f32>>
    %c = tt.load %ptrs, %m, %cst : tensor<128x!tt.ptr<f32>>
    %d = tt.load %ptrs, %m, %cst cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    %e = tt.load %ptrs evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    %f = tt.load %p : !tt.ptr<f32>
    tt.store %ptrs, %a : tensor<128x!tt.ptr<f32>>
    tt.store %ptrs, %b, %m cacheModifier = wb : tensor<128x!tt.ptr<f32>>
    tt.store %ptrs, %c, %m cacheModifier = cs evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    tt.store %p, %f : !tt.ptr<f32>
    %c1 = arith.constant 1 : i64
    %q = tt.addptr %p, %c1 : !tt.ptr<f32>, i64
    %i = tt.ptr_to_int %q : !tt.ptr<f32> -> i64
    %pp = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>
    tt.return
  }
  tt.func @block_ptr(%p: !tt.ptr<f16>, %l: i64, %i: i32) {
    %0 = tt.make_tensor_ptr %p, [%l, %l], [%l, %l], [%i, %i] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    %1 = tt.advance %0, [%i, %i] : <tensor<64x32xf16>>
    %2 = tt.load %1 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    tt.store %1, %2 {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16>>
    tt.return
  }
  tt.func @atomics(%p: !tt.ptr<i32>, %ps: tensor<64x!tt.ptr<f32>, #blocked>, %v: tensor<64xf32, #blocked>, %m: tensor<64xi1, #blocked>, %x: i32) {
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %ps, %v, %m : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xi1, #blocked>) -> tensor<64xf32, #blocked>
    %1 = tt.atomic_rmw exch, relaxed, cta, %p, %x : (!tt.ptr<i32>, i32) -> i32
    %2 = tt.atomic_rmw umin, release, sys, %p, %x : (!tt.ptr<i32>, i32) -> i32
    %3 = tt.atomic_rmw and, acquire, gpu, %p, %x : (!tt.ptr<i32>, i32) -> i32
    %4 = tt.atomic_cas acq_rel, gpu, %p, %x, %x : (!tt.ptr<i32>, i32, i32) -> i32
    %5 = tt.atomic_cas relaxed, sys, %ps, %v, %v : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
    tt.return
  }
  tt.func @shapes(%x: tensor<128xf32>, %xs: tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>, %a: tensor<128x64xf16>, %one: tensor<1x1xf32>) {
    %0 = tt.expand_dims %x {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %1 = tt.expand_dims %xs {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<128x1xf32, #blocked1>
    %2 = tt.broadcast %0 : tensor<128x1xf32> -> tensor<128x64xf32>
    %3 = tt.reshape %x : tensor<128xf32> -> tensor<2x64xf32>
    %4 = tt.reshape %x allow_reorder : tensor<128xf32> -> tensor<2x64xf32>
    %5 = tt.reshape %x allow_reorder efficient_layout : tensor<128xf32> -> tensor<2x64xf32>
    %6 = tt.trans %a {order = array<i32: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>
    %7 = tt.join %x, %x : tensor<128xf32> -> tensor<128x2xf32>
    %outLHS, %outRHS = tt.split %7 : tensor<128x2xf32> -> tensor<128xf32>
    %8 = tt.cat %x, %x : tensor<128xf32> -> tensor<256xf32>
    %9 = tt.unsplat %one : tensor<1x1xf32>
    %10 = tt.splat %9 : f32 -> tensor<128xf32>
    tt.return
  }
  tt.func @gather_histogram(%x: tensor<128xf32>, %i: tensor<128xi32>, %m: tensor<128xi1>) {
    %0 = tt.gather %x[%i] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    %1 = tt.gather %x[%i] {axis = 0 : i32, efficient_layout} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
    %2 = tt.histogram %i : tensor<128xi32> -> tensor<64xi32>
    %3 = tt.histogram %i, %m : tensor<128xi32> -> tensor<64xi32>
    tt.return
  }
  tt.func @math(%x: tensor<128xf32>, %i: tensor<128xi32>, %h: tensor<64x64xf32>, %j: i32) {
    %0 = tt.bitcast %x : tensor<128xf32> -> tensor<128xi32>
    %1 = tt.fp_to_fp %h, rounding = rtne : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>
    %2 = tt.fp_to_fp %1 : tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
    %3 = tt.clampf %x, %x, %x, propagateNan = none : tensor<128xf32>
    %4 = tt.clampf %x, %x, %x, propagateNan = all : tensor<128xf32>
    %5 = tt.precise_sqrt %x : tensor<128xf32>
    %6 = tt.precise_divf %x, %x : tensor<128xf32>
    %7 = tt.mulhiui %i, %i : tensor<128xi32>
    %8 = tt.mulhiui %j, %j : i32
    %9 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<128xf32>) -> tensor<128xf32>
    %10 = tt.extern_elementwise %x, %x {libname = "libdevice", libpath = "/x.bc", pure = false, symbol = "__nv_powf"} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
    %11 = tt.elementwise_inline_asm "shf.l.wrap.b32 $0, $1, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %i : tensor<128xi32> -> tensor<128xi32>
    %12:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %i, %i : tensor<128xi32>, tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
    tt.return
  }
  tt.func @dots(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf32>, %a8: tensor<64x32xf8E4M3FN>, %b8: tensor<32x64xf8E4M3FN>) {
    %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %1 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %2 = tt.dot %a, %b, %c, inputPrecision = tf32x3 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %3 = tt.dot %a, %b, %c, inputPrecision = bf16x3 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %4 = tt.dot %a, %b, %c, inputPrecision = bf16x6 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %5 = tt.dot %a8, %b8, %c, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
    tt.return
  }
  tt.func @descriptors(%p: !tt.ptr<f16>, %d: !tt.tensordesc<tensor<128x64xf16>>, %i: i32, %l: i64, %t: tensor<128x64xf16>) {
    %0 = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
    %1 = tt.descriptor_load %d[%i, %i] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
    tt.descriptor_store %d[%i, %i], %t : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
    tt.descriptor_reduce add, %d[%i, %i], %t : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
    %2 = tt.make_tensor_descriptor %p, [%i, %i], [%l, %l] : <f16>, <tensor<128x64xf16>>
    %3 = tt.make_tensor_descriptor %p, [%i, %i], [%l, %l] {padding = 2 : i32} : <f16>, <tensor<128x64xf16>>
    tt.return
  }
  tt.func @reduce_scan(%x: tensor<8x256xi32>, %f: tensor<256xf32>, %g: tensor<256xi32>) {
    %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      tt.reduce.return %s : i32
    }) : (tensor<8x256xi32>) -> tensor<8xi32>
    %1:2 = "tt.reduce"(%f, %g) <{axis = 0 : i32}> ({
    ^bb0(%a0: f32, %a1: i32, %b0: f32, %b1: i32):
      tt.reduce.return %a0, %a1 : f32, i32
    }) : (tensor<256xf32>, tensor<256xi32>) -> (f32, i32)
    %2 = "tt.scan"(%x) <{axis = 0 : i32, reverse = true}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.muli %a, %b : i32
      tt.scan.return %s : i32
    }) : (tensor<8x256xi32>) -> tensor<8x256xi32>
    tt.return
  }
  tt.func @debug(%x: tensor<64xf32>, %m: tensor<64xi1>, %b: i1) {
    tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<64xf32>
    tt.print "two" {hex = true, isSigned = array<i32: 1, 0>} : %x, %m : tensor<64xf32>, tensor<64xi1>
    tt.print "none" {hex = false, isSigned = array<i32>}
    tt.assert %m, "m is false" : tensor<64xi1>
    tt.assert %b, "b is false" : i1
    tt.return
  }
  tt.func @scaled_dots(%a: tensor<128x128xf8E4M3FN>, %sa: tensor<128x4xi8>, %b: tensor<128x128xf8E5M2>, %sb: tensor<128x4xi8>, %c: tensor<128x128xf32>, %h: tensor<128x128xbf16>, %f: tensor<64x128xi8>, %g: tensor<128x64xi8>) {
    %acc_32 = tt.dot_scaled %a scale %sa, %b scale %sb, %c lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x128xf8E4M3FN>, tensor<128x4xi8> * tensor<128x128xf8E5M2>, tensor<128x4xi8> -> tensor<128x128xf32>
    %c_25 = tt.dot_scaled %h, %f scale %sb, %c lhs = bf16 rhs = e2m1 {fastMath = false} : tensor<128x128xbf16> * tensor<64x128xi8>, tensor<128x4xi8> -> tensor<128x128xf32>
    %d_38 = tt.dot_scaled %g scale %sa, %h, %c_25 lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<128x64xi8>, tensor<128x4xi8> * tensor<128x128xbf16> -> tensor<128x128xf32>
    %c_33 = tt.dot_scaled %f scale %sa, %g scale %sb, %c lhs = e2m1 rhs = e2m1 {fastMath = false, lhs_k_pack = false, rhs_k_pack = false} : tensor<64x128xi8>, tensor<128x4xi8> * tensor<128x64xi8>, tensor<128x4xi8> -> tensor<128x128xf32>
    tt.return
  }
  tt.func @gather_scatter(%src: !tt.tensordesc<tensor<1x128xbf16>>, %rows: tensor<16xi32>, %col: i32, %x: tensor<16x128xbf16>) {
    %g = tt.descriptor_gather %src[%rows, %col] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<16xi32>, i32) -> tensor<16x128xbf16>
    tt.descriptor_scatter %src[%rows, %col], %g : !tt.tensordesc<tensor<1x128xbf16>>, tensor<16xi32>, i32, tensor<16x128xbf16>
    tt.return
  }
  tt.func @maps(%x: tensor<256xf32>, %y: tensor<256xf32>, %h: tensor<256xf16>) {
    %0:2 = "tt.map_elementwise"(%x, %y) <{pack = 1 : i32}> ({
    ^bb0(%arg5: f32, %arg6: f32):
      %10 = arith.cmpf ogt, %arg5, %arg6 : f32
      cf.cond_br %10, ^bb1(%arg5, %arg6 : f32, f32), ^bb1(%arg6, %arg5 : f32, f32)
    ^bb1(%11: f32, %12: f32):
      %13 = arith.subf %11, %12 : f32
      cf.br ^bb2
    ^bb2:
      tt.map_elementwise.return %12, %13 : f32, f32
    }) : (tensor<256xf32>, tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>)
    %7 = "tt.map_elementwise"(%h, %h) <{pack = 2 : i32}> ({
    ^bb0(%arg5: f16, %arg6: f16, %arg7: f16, %arg8: f16):
      %10 = arith.maxnumf %arg5, %arg7 : f16
      %11 = arith.maxnumf %arg6, %arg8 : f16
      tt.map_elementwise.return %10, %11 : f16, f16
    }) : (tensor<256xf16>, tensor<256xf16>) -> tensor<256xf16>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: tt.func private @callee(%arg0: i32 {tt.divisibility = 16 : i32}, %arg1: f32) -> i32 attributes {noinline = true} {
// CHECK-NEXT: tt.return %arg0 : i32
// CHECK-NEXT: }
// CHECK-LABEL: tt.func private @decl(i32) -> (i32, f32)
// CHECK-LABEL: tt.func public @calls(%arg0: i32, %arg1: f32) attributes {noinline = false} {
// CHECK-NEXT: %0 = tt.call @callee(%arg0, %arg1) : (i32, f32) -> i32
// CHECK-NEXT: %1:2 = tt.call @decl(%0) : (i32) -> (i32, f32)
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @grid() -> (i32, i32, i32) {
// CHECK-NEXT: %0 = tt.get_program_id x : i32
// CHECK-NEXT: %1 = tt.get_program_id y : i32
// CHECK-NEXT: %2 = tt.get_num_programs z : i32
// CHECK-NEXT: tt.return %0, %1, %2 : i32, i32, i32
// CHECK-NEXT: }
// CHECK-LABEL: tt.func public @memory(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32) {
// CHECK-NEXT: %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT: %1 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %2 = tt.addptr %1, %0 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT: %3 = tt.splat %arg1 : i32 -> tensor<128xi32>
// CHECK-NEXT: %4 = arith.cmpi slt, %0, %3 : tensor<128xi32>
// CHECK-NEXT: %cst = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NEXT: %5 = tt.load %2 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %6 = tt.load %2, %4 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %7 = tt.load %2, %4, %cst : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %8 = tt.load %2, %4, %cst cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %9 = tt.load %2 evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: %10 = tt.load %arg0 : !tt.ptr<f32>
// CHECK-NEXT: tt.store %2, %5 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %2, %6, %4 cacheModifier = wb : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %2, %7, %4 cacheModifier = cs evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT: tt.store %arg0, %10 : !tt.ptr<f32>
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT: %11 = tt.addptr %arg0, %c1_i64 : !tt.ptr<f32>, i64
// CHECK-NEXT: %12 = tt.ptr_to_int %11 : !tt.ptr<f32> -> i64
// CHECK-NEXT: %13 = tt.int_to_ptr %12 : i64 -> !tt.ptr<f32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @block_ptr(%arg0: !tt.ptr<f16>, %arg1: i64, %arg2: i32) {
// CHECK-NEXT: %0 = tt.make_tensor_ptr %arg0, [%arg1, %arg1], [%arg1, %arg1], [%arg2, %arg2] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
// CHECK-NEXT: %1 = tt.advance %0, [%arg2, %arg2] : <tensor<64x32xf16>>
// CHECK-NEXT: %2 = tt.load %1 {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
// CHECK-NEXT: tt.store %1, %2 {boundaryCheck = array<i32: 1>} : !tt.ptr<tensor<64x32xf16>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @atomics(%arg0: !tt.ptr<i32>, %arg1: tensor<64x!tt.ptr<f32>, #blocked>, %arg2: tensor<64xf32, #blocked>, %arg3: tensor<64xi1, #blocked>, %arg4: i32) {
// CHECK-NEXT: %0 = tt.atomic_rmw fadd, acq_rel, gpu, %arg1, %arg2, %arg3 : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xi1, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT: %1 = tt.atomic_rmw exch, relaxed, cta, %arg0, %arg4 : (!tt.ptr<i32>, i32) -> i32
// CHECK-NEXT: %2 = tt.atomic_rmw umin, release, sys, %arg0, %arg4 : (!tt.ptr<i32>, i32) -> i32
// CHECK-NEXT: %3 = tt.atomic_rmw and, acquire, gpu, %arg0, %arg4 : (!tt.ptr<i32>, i32) -> i32
// CHECK-NEXT: %4 = tt.atomic_cas acq_rel, gpu, %arg0, %arg4, %arg4 : (!tt.ptr<i32>, i32, i32) -> i32
// CHECK-NEXT: %5 = tt.atomic_cas relaxed, sys, %arg1, %arg2, %arg2 : (tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xf32, #blocked>, tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @shapes(%arg0: tensor<128xf32>, %arg1: tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>>, %arg2: tensor<128x64xf16>, %arg3: tensor<1x1xf32>) {
// CHECK-NEXT: %0 = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
// CHECK-NEXT: %1 = tt.expand_dims %arg1 {axis = 1 : i32} : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> -> tensor<128x1xf32, #blocked1>
// CHECK-NEXT: %2 = tt.broadcast %0 : tensor<128x1xf32> -> tensor<128x64xf32>
// CHECK-NEXT: %3 = tt.reshape %arg0 : tensor<128xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %4 = tt.reshape %arg0 allow_reorder : tensor<128xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %5 = tt.reshape %arg0 allow_reorder efficient_layout : tensor<128xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %6 = tt.trans %arg2 {order = array<i32: 1, 0>} : tensor<128x64xf16> -> tensor<64x128xf16>
// CHECK-NEXT: %7 = tt.join %arg0, %arg0 : tensor<128xf32> -> tensor<128x2xf32>
// CHECK-NEXT: %outLHS, %outRHS = tt.split %7 : tensor<128x2xf32> -> tensor<128xf32>
// CHECK-NEXT: %8 = tt.cat %arg0, %arg0 : tensor<128xf32> -> tensor<256xf32>
// CHECK-NEXT: %9 = tt.unsplat %arg3 : tensor<1x1xf32>
// CHECK-NEXT: %10 = tt.splat %9 : f32 -> tensor<128xf32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @gather_histogram(%arg0: tensor<128xf32>, %arg1: tensor<128xi32>, %arg2: tensor<128xi1>) {
// CHECK-NEXT: %0 = tt.gather %arg0[%arg1] {axis = 0 : i32} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
// CHECK-NEXT: %1 = tt.gather %arg0[%arg1] {axis = 0 : i32, efficient_layout} : (tensor<128xf32>, tensor<128xi32>) -> tensor<128xf32>
// CHECK-NEXT: %2 = tt.histogram %arg1 : tensor<128xi32> -> tensor<64xi32>
// CHECK-NEXT: %3 = tt.histogram %arg1, %arg2 : tensor<128xi32> -> tensor<64xi32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @math(%arg0: tensor<128xf32>, %arg1: tensor<128xi32>, %arg2: tensor<64x64xf32>, %arg3: i32) {
// CHECK-NEXT: %0 = tt.bitcast %arg0 : tensor<128xf32> -> tensor<128xi32>
// CHECK-NEXT: %1 = tt.fp_to_fp %arg2, rounding = rtne : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>
// CHECK-NEXT: %2 = tt.fp_to_fp %1 : tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
// CHECK-NEXT: %3 = tt.clampf %arg0, %arg0, %arg0, propagateNan = none : tensor<128xf32>
// CHECK-NEXT: %4 = tt.clampf %arg0, %arg0, %arg0, propagateNan = all : tensor<128xf32>
// CHECK-NEXT: %5 = tt.precise_sqrt %arg0 : tensor<128xf32>
// CHECK-NEXT: %6 = tt.precise_divf %arg0, %arg0 : tensor<128xf32>
// CHECK-NEXT: %7 = tt.mulhiui %arg1, %arg1 : tensor<128xi32>
// CHECK-NEXT: %8 = tt.mulhiui %arg3, %arg3 : i32
// CHECK-NEXT: %9 = tt.extern_elementwise %arg0 {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<128xf32>) -> tensor<128xf32>
// CHECK-NEXT: %10 = tt.extern_elementwise %arg0, %arg0 {libname = "libdevice", libpath = "/x.bc", pure = false, symbol = "__nv_powf"} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
// CHECK-NEXT: %11 = tt.elementwise_inline_asm "shf.l.wrap.b32 $0, $1, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg1 : tensor<128xi32> -> tensor<128xi32>
// CHECK-NEXT: %12:2 = tt.elementwise_inline_asm "mov.b32 $0, $2; mov.b32 $1, $3;" {constraints = "=r,=r,r,r", packed_element = 1 : i32, pure = false} %arg1, %arg1 : tensor<128xi32>, tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @dots(%arg0: tensor<64x32xf16>, %arg1: tensor<32x64xf16>, %arg2: tensor<64x64xf32>, %arg3: tensor<64x32xf8E4M3FN>, %arg4: tensor<32x64xf8E4M3FN>) {
// CHECK-NEXT: %0 = tt.dot %arg0, %arg1, %arg2 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %1 = tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %2 = tt.dot %arg0, %arg1, %arg2, inputPrecision = tf32x3 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %3 = tt.dot %arg0, %arg1, %arg2, inputPrecision = bf16x3 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %4 = tt.dot %arg0, %arg1, %arg2, inputPrecision = bf16x6 : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: %5 = tt.dot %arg3, %arg4, %arg2, inputPrecision = tf32 {maxNumImpreciseAcc = 1073741824 : i32} : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @descriptors(%arg0: !tt.ptr<f16>, %arg1: !tt.tensordesc<tensor<128x64xf16>>, %arg2: i32, %arg3: i64, %arg4: tensor<128x64xf16>) {
// CHECK-NEXT: %0 = tt.descriptor_load %arg1[%arg2, %arg2] : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
// CHECK-NEXT: %1 = tt.descriptor_load %arg1[%arg2, %arg2] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16>
// CHECK-NEXT: tt.descriptor_store %arg1[%arg2, %arg2], %arg4 : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
// CHECK-NEXT: tt.descriptor_reduce add, %arg1[%arg2, %arg2], %arg4 : !tt.tensordesc<tensor<128x64xf16>>, tensor<128x64xf16>
// CHECK-NEXT: %2 = tt.make_tensor_descriptor %arg0, [%arg2, %arg2], [%arg3, %arg3] : <f16>, <tensor<128x64xf16>>
// CHECK-NEXT: %3 = tt.make_tensor_descriptor %arg0, [%arg2, %arg2], [%arg3, %arg3] {padding = 2 : i32} : <f16>, <tensor<128x64xf16>>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @reduce_scan(%arg0: tensor<8x256xi32>, %arg1: tensor<256xf32>, %arg2: tensor<256xi32>) {
// CHECK-NEXT: %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg3: i32, %arg4: i32):
// CHECK-NEXT: %3 = arith.addi %arg3, %arg4 : i32
// CHECK-NEXT: tt.reduce.return %3 : i32
// CHECK-NEXT: }) : (tensor<8x256xi32>) -> tensor<8xi32>
// CHECK-NEXT: %1:2 = "tt.reduce"(%arg1, %arg2) <{axis = 0 : i32}> ({
// CHECK-NEXT: ^bb0(%arg3: f32, %arg4: i32, %arg5: f32, %arg6: i32):
// CHECK-NEXT: tt.reduce.return %arg3, %arg4 : f32, i32
// CHECK-NEXT: }) : (tensor<256xf32>, tensor<256xi32>) -> (f32, i32)
// CHECK-NEXT: %2 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = true}> ({
// CHECK-NEXT: ^bb0(%arg3: i32, %arg4: i32):
// CHECK-NEXT: %3 = arith.muli %arg3, %arg4 : i32
// CHECK-NEXT: tt.scan.return %3 : i32
// CHECK-NEXT: }) : (tensor<8x256xi32>) -> tensor<8x256xi32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @debug(%arg0: tensor<64xf32>, %arg1: tensor<64xi1>, %arg2: i1) {
// CHECK-NEXT: tt.print " x: " {hex = false, isSigned = array<i32: 0>} : %arg0 : tensor<64xf32>
// CHECK-NEXT: tt.print "two" {hex = true, isSigned = array<i32: 1, 0>} : %arg0, %arg1 : tensor<64xf32>, tensor<64xi1>
// CHECK-NEXT: tt.print "none" {hex = false, isSigned = array<i32>}
// CHECK-NEXT: tt.assert %arg1, "m is false" : tensor<64xi1>
// CHECK-NEXT: tt.assert %arg2, "b is false" : i1
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @scaled_dots(%arg0: tensor<128x128xf8E4M3FN>, %arg1: tensor<128x4xi8>, %arg2: tensor<128x128xf8E5M2>, %arg3: tensor<128x4xi8>, %arg4: tensor<128x128xf32>, %arg5: tensor<128x128xbf16>, %arg6: tensor<64x128xi8>, %arg7: tensor<128x64xi8>) {
// CHECK-NEXT: %0 = tt.dot_scaled %arg0 scale %arg1, %arg2 scale %arg3, %arg4 lhs = e4m3 rhs = e5m2 {fastMath = false} : tensor<128x128xf8E4M3FN>, tensor<128x4xi8> * tensor<128x128xf8E5M2>, tensor<128x4xi8> -> tensor<128x128xf32>
// CHECK-NEXT: %1 = tt.dot_scaled %arg5, %arg6 scale %arg3, %arg4 lhs = bf16 rhs = e2m1 {fastMath = false} : tensor<128x128xbf16> * tensor<64x128xi8>, tensor<128x4xi8> -> tensor<128x128xf32>
// CHECK-NEXT: %2 = tt.dot_scaled %arg7 scale %arg1, %arg5, %1 lhs = e2m1 rhs = bf16 {fastMath = true} : tensor<128x64xi8>, tensor<128x4xi8> * tensor<128x128xbf16> -> tensor<128x128xf32>
// CHECK-NEXT: %3 = tt.dot_scaled %arg6 scale %arg1, %arg7 scale %arg3, %arg4 lhs = e2m1 rhs = e2m1 {fastMath = false, lhs_k_pack = false, rhs_k_pack = false} : tensor<64x128xi8>, tensor<128x4xi8> * tensor<128x64xi8>, tensor<128x4xi8> -> tensor<128x128xf32>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @gather_scatter(%arg0: !tt.tensordesc<tensor<1x128xbf16>>, %arg1: tensor<16xi32>, %arg2: i32, %arg3: tensor<16x128xbf16>) {
// CHECK-NEXT: %0 = tt.descriptor_gather %arg0[%arg1, %arg2] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<16xi32>, i32) -> tensor<16x128xbf16>
// CHECK-NEXT: tt.descriptor_scatter %arg0[%arg1, %arg2], %0 : !tt.tensordesc<tensor<1x128xbf16>>, tensor<16xi32>, i32, tensor<16x128xbf16>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-LABEL: tt.func @maps(%arg0: tensor<256xf32>, %arg1: tensor<256xf32>, %arg2: tensor<256xf16>) {
// CHECK-NEXT: %0:2 = "tt.map_elementwise"(%arg0, %arg1) <{pack = 1 : i32}> ({
// CHECK-NEXT: ^bb0(%arg3: f32, %arg4: f32):
// CHECK-NEXT: %2 = arith.cmpf ogt, %arg3, %arg4 : f32
// CHECK-NEXT: cf.cond_br %2, ^bb1(%arg3, %arg4 : f32, f32), ^bb1(%arg4, %arg3 : f32, f32)
// CHECK-NEXT: ^bb1(%3: f32, %4: f32):  // 2 preds: ^bb0, ^bb0
// CHECK-NEXT: %5 = arith.subf %3, %4 : f32
// CHECK-NEXT: cf.br ^bb2
// CHECK-NEXT: ^bb2:  // pred: ^bb1
// CHECK-NEXT: tt.map_elementwise.return %4, %5 : f32, f32
// CHECK-NEXT: }) : (tensor<256xf32>, tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>)
// CHECK-NEXT: %1 = "tt.map_elementwise"(%arg2, %arg2) <{pack = 2 : i32}> ({
// CHECK-NEXT: ^bb0(%arg3: f16, %arg4: f16, %arg5: f16, %arg6: f16):
// CHECK-NEXT: %2 = arith.maxnumf %arg3, %arg5 : f16
// CHECK-NEXT: %3 = arith.maxnumf %arg4, %arg6 : f16
// CHECK-NEXT: tt.map_elementwise.return %2, %3 : f16, f16
// CHECK-NEXT: }) : (tensor<256xf16>, tensor<256xf16>) -> tensor<256xf16>
// CHECK-NEXT: tt.return
// CHECK-NEXT: }
// CHECK-NEXT: }
