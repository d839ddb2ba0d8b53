// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// tle.dsl_region (TLE-Raw): a body of per-thread MLIR over its operands.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: tt.func @vector_add
// CHECK: %{{.*}}:3 = tle.dsl_region(%{{.*}}, %{{.*}}, %{{.*}}) {language = "mlir", name = "vector_add_tile", sync_scope = "block", threads = array<i64: 128>}
// CHECK: ^bb0(%[[A:.*]]: tensor<128xf32>, %[[B:.*]]: tensor<128xf32>, %[[C:.*]]: tensor<128xf32>):
// CHECK: nvvm.read.ptx.sreg.tid.x : i32
// CHECK: tensor.extract %[[A]]
// CHECK: tensor.insert %{{.*}} into %[[C]]
tt.func @vector_add(%x: tensor<128xf32, #blocked>, %y: tensor<128xf32, #blocked>, %o: tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked> {
  %r:3 = tle.dsl_region(%x, %y, %o) {language = "mlir", name = "vector_add_tile", threads = array<i64: 128>, sync_scope = "block"}
      : (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>)
      -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) {
  ^bb0(%a: tensor<128xf32>, %b: tensor<128xf32>, %c: tensor<128xf32>):
    %t = nvvm.read.ptx.sreg.tid.x : i32
    %i = arith.index_cast %t : i32 to index
    %u = tensor.extract %a[%i] : tensor<128xf32>
    %v = tensor.extract %b[%i] : tensor<128xf32>
    %s = arith.addf %u, %v : f32
    %w = tensor.insert %s into %c[%i] : tensor<128xf32>
  }
  tt.return %r#2 : tensor<128xf32, #blocked>
}

// Scalars, a 2-D thread block, a column-major buffer, loops and chained inserts.
// CHECK-LABEL: tt.func @scalars_and_loops
// CHECK: tle.dsl_region(%{{.*}}, %{{.*}}) {language = "mlir", name = "f", orders = [array<i64: 0, 1>, array<i64>], sync_scope = "block", threads = array<i64: 32, 4>}
// CHECK: scf.for
tt.func @scalars_and_loops(%x: tensor<16x8xi32>, %k: i32) -> tensor<16x8xi32> {
  %r = tle.dsl_region(%x, %k) {language = "mlir", name = "f", threads = array<i64: 32, 4>, sync_scope = "block", orders = [array<i64: 0, 1>, array<i64>]}
      : (tensor<16x8xi32>, i32) -> (tensor<16x8xi32>) {
  ^bb0(%a: tensor<16x8xi32>, %n: i32):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %w = tensor.insert %n into %a[%c0, %c0] : tensor<16x8xi32>
    scf.for %j = %c0 to %c8 step %c1 {
      %e = tensor.extract %w[%c1, %j] : tensor<16x8xi32>
      %w2 = tensor.insert %e into %w[%c0, %j] : tensor<16x8xi32>
    }
  }
  tt.return %r : tensor<16x8xi32>
}
