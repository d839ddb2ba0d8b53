// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// Round trip of the iluvatar_tle ops.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory

// CHECK-LABEL: func.func @pointers(
func.func @pointers(%buf: !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, %i: i32, %j: i64,
                    %rows: tensor<128xi32, #blocked1>, %cols: tensor<128xi32, #blocked1>) {
  // CHECK: iluvatar_tle.local_pointers %arg0 : !ttg.memdesc<64x32xf32, #{{.*}}, #{{.*}}, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #{{.*}}>
  %all = iluvatar_tle.local_pointers %buf : !ttg.memdesc<64x32xf32, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
  // CHECK: iluvatar_tle.local_pointers %arg0[%arg1, %arg2] : !ttg.memdesc<64x32xf32, #{{.*}}, #{{.*}}, mutable>, i32, i64 -> !tt.ptr<f32, 3>
  %one = iluvatar_tle.local_pointers %buf[%i, %j] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, i32, i64 -> !tt.ptr<f32, 3>
  // CHECK: iluvatar_tle.local_pointers %arg0[%arg3, %arg4] : !ttg.memdesc<64x32xf32, #{{.*}}, #{{.*}}, mutable>, tensor<128xi32, #{{.*}}>, tensor<128xi32, #{{.*}}> -> tensor<128x!tt.ptr<f32, 3>, #{{.*}}>
  %some = iluvatar_tle.local_pointers %buf[%rows, %cols] : !ttg.memdesc<64x32xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked1>, tensor<128xi32, #blocked1> -> tensor<128x!tt.ptr<f32, 3>, #blocked1>
  return
}

// CHECK-LABEL: func.func @tiles(
func.func @tiles(%x: tensor<64x64xf32, #blocked>, %i: i32) -> (tensor<16x32xf32, #blocked>, tensor<64x64xf32, #blocked>) {
  // CHECK: %[[T:.*]] = iluvatar_tle.extract_tile %arg0[7] : tensor<64x64xf32, #{{.*}}> -> tensor<16x32xf32, #{{.*}}>
  %t = iluvatar_tle.extract_tile %x[7] : tensor<64x64xf32, #blocked> -> tensor<16x32xf32, #blocked>
  // CHECK: %[[U:.*]] = iluvatar_tle.extract_tile %arg0[%arg1] : tensor<64x64xf32, #{{.*}}>, i32 -> tensor<16x32xf32, #{{.*}}>
  %u = iluvatar_tle.extract_tile %x[%i] : tensor<64x64xf32, #blocked>, i32 -> tensor<16x32xf32, #blocked>
  // CHECK: %[[Y:.*]] = iluvatar_tle.insert_tile %[[T]] into %arg0[0] : tensor<16x32xf32, #{{.*}}> into tensor<64x64xf32, #{{.*}}>
  %y = iluvatar_tle.insert_tile %t into %x[0] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #blocked>
  // CHECK: iluvatar_tle.insert_tile %[[U]] into %[[Y]][%arg1] : tensor<16x32xf32, #{{.*}}> into tensor<64x64xf32, #{{.*}}>, i32
  %z = iluvatar_tle.insert_tile %u into %y[%i] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #blocked>, i32
  return %u, %z : tensor<16x32xf32, #blocked>, tensor<64x64xf32, #blocked>
}
