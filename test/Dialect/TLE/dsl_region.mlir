// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -mlir-print-op-generic | tle-opt | FileCheck %s

// tle.dsl_region (TLE-Raw): a body of per-thread MLIR over its operands.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
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

// FlagTree's form (@tle.raw.dialect): a buffer as a memref with dynamic or
// static sizes, a global pointer, a scalar; the hardware's thread ids.
// CHECK-LABEL: tt.func @dialect_form
// CHECK: tle.dsl_region(%arg0, %arg1, %arg2, %arg3) {hardware_ids, language = "mlir", name = "g", sync_scope = "block", threads = array<i64: 128>}
// CHECK-NEXT: ^bb0(%{{.*}}: memref<?x?xf32, 3>, %{{.*}}: memref<16x?xf32, 3>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32):
tt.func @dialect_form(%b: !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, %c: !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, %p: !tt.ptr<f32>, %n: i32) {
  tle.dsl_region(%b, %c, %p, %n) {language = "mlir", name = "g", threads = array<i64: 128>, sync_scope = "block", hardware_ids}
      : (!ttg.memdesc<16x32xf32, #shared, #smem, mutable>, !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, !tt.ptr<f32>, i32) -> () {
  ^bb0(%m: memref<?x?xf32, 3>, %s: memref<16x?xf32, 3>, %q: !llvm.ptr<1>, %k: i32):
    %c0 = arith.constant 0 : index
    %v = memref.load %m[%c0, %c0] : memref<?x?xf32, 3>
    %g = llvm.getelementptr %q[%k] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    llvm.store %v, %g : f32, !llvm.ptr<1>
    %t = nvvm.read.ptx.sreg.ctaid.x : i32
    gpu.printf "block %d\n", %t : i32
  }
  tt.return
}
