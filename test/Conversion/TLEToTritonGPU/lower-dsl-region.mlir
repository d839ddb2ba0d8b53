// RUN: tle-opt %s -split-input-file --triton-tle-lower-dsl-region | FileCheck %s --implicit-check-not=tle.dsl_region

// TLE-Raw: the operands are staged in pointer buffers, every thread calls the
// body (now an inlinable llvm.func on shared-memory pointers) once between
// two barriers, and the written buffers are loaded back.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @vector_add
  // CHECK: %[[BX:.*]] = tle.alloc smem : () -> !ttg.memdesc<128xf32, #[[SH:.*]], #smem, mutable>
  // CHECK-NEXT: tle.local_store %arg0, %[[BX]]
  // CHECK: %[[PX:.*]] = tle.local_pointers %[[BX]][%{{.*}}] : {{.*}} -> !tt.ptr<f32, 3>
  // CHECK: %[[BY:.*]] = tle.alloc smem
  // CHECK-NEXT: tle.local_store %arg1, %[[BY]]
  // CHECK: %[[PY:.*]] = tle.local_pointers %[[BY]]
  // CHECK: %[[BO:.*]] = tle.alloc smem
  // CHECK-NEXT: tle.local_store %arg2, %[[BO]]
  // CHECK: %[[PO:.*]] = tle.local_pointers %[[BO]]
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.extern_elementwise %[[PX]], %[[PY]], %[[PO]] {libname = "", libpath = "", pure = false, symbol = "__tle_raw_vector_add_tile"} : (!tt.ptr<f32, 3>, !tt.ptr<f32, 3>, !tt.ptr<f32, 3>) -> i32
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: %[[R:.*]] = tle.local_load %[[BO]] : {{.*}} -> tensor<128xf32, #blocked>
  // CHECK-NEXT: tt.return %[[R]], %arg0
  tt.func @vector_add(%x: tensor<128xf32, #blocked>, %y: tensor<128xf32, #blocked>, %o: tensor<128xf32, #blocked>) -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) {
    %r:3 = tle.dsl_region(%x, %y, %o) {language = "mlir", name = "vector_add_tile", threads = array<i64: 128>, sync_scope = "block"}
        : (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>)
        -> (tensor<128xf32, #blocked>, tensor<128xf32, #blocked>, tensor<128xf32, #blocked>) {
    ^bb0(%a: tensor<128xf32>, %b: tensor<128xf32>, %c: tensor<128xf32>):
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %bid = nvvm.read.ptx.sreg.ctaid.x : i32
      %bdim = nvvm.read.ptx.sreg.ntid.x : i32
      %m = arith.muli %bid, %bdim : i32
      %g = arith.addi %m, %t : i32
      %i = arith.index_cast %g : i32 to index
      %u = tensor.extract %a[%i] : tensor<128xf32>
      %v = tensor.extract %b[%i] : tensor<128xf32>
      %s = arith.addf %u, %v : f32
      %w = tensor.insert %s into %c[%i] : tensor<128xf32>
    }
    tt.return %r#2, %r#0 : tensor<128xf32, #blocked>, tensor<128xf32, #blocked>
  }
  // The body: bare shared-memory pointers; ctaid is 0 and ntid the call's 128.
  // CHECK-LABEL: llvm.func internal @__tle_raw_vector_add_tile(%{{.*}}: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<3>, %{{.*}}: !llvm.ptr<3>) -> i32 attributes {always_inline}
  // CHECK-NOT: ctaid
  // CHECK: nvvm.read.ptx.sreg.tid.x
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.fadd
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: llvm.return %{{.*}} : i32
}

// -----

// Two dimensions of threads, a column-major buffer, a scalar, a loop; the
// second call of one function gets its own symbol.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_d
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<16x8xi32, #[[COL:.*]], #smem, mutable>
  // CHECK: tt.extern_elementwise %{{.*}}, %arg1 {{.*}}symbol = "__tle_raw_f"} : (!tt.ptr<i32, 3>, i32) -> i32
  // CHECK: tt.extern_elementwise {{.*}}symbol = "__tle_raw_f_1"}
  tt.func @two_d(%x: tensor<16x8xi32, #blocked>, %k: i32) -> tensor<16x8xi32, #blocked> {
    %r = tle.dsl_region(%x, %k) {language = "mlir", name = "f", threads = array<i64: 32, 4>, sync_scope = "block", orders = [array<i64: 0, 1>, array<i64>]}
        : (tensor<16x8xi32, #blocked>, i32) -> (tensor<16x8xi32, #blocked>) {
    ^bb0(%a: tensor<16x8xi32>, %n: i32):
      %tx = nvvm.read.ptx.sreg.tid.x : i32
      %ty = nvvm.read.ptx.sreg.tid.y : i32
      %c8 = arith.constant 8 : i32
      %col = arith.remui %tx, %c8 : i32
      %row = arith.index_cast %ty : i32 to index
      %j = arith.index_cast %col : i32 to index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      scf.for %q = %c0 to %c4 step %c1 {
        %e = tensor.extract %a[%row, %j] : tensor<16x8xi32>
        %s = arith.addi %e, %n : i32
        %w = tensor.insert %s into %a[%row, %j] : tensor<16x8xi32>
      }
    }
    %r2 = tle.dsl_region(%r, %k) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"}
        : (tensor<16x8xi32, #blocked>, i32) -> (tensor<16x8xi32, #blocked>) {
    ^bb0(%a: tensor<16x8xi32>, %n: i32):
    }
    tt.return %r2 : tensor<16x8xi32, #blocked>
  }
  // tid.x = tid % 32, tid.y = tid / 32; column-major strides [1, 16].
  // CHECK-LABEL: llvm.func internal @__tle_raw_f(%{{.*}}: !llvm.ptr<3>, %{{.*}}: i32) -> i32
  // CHECK-DAG: llvm.mlir.constant(32 : i32)
  // CHECK-DAG: llvm.urem
  // CHECK-DAG: llvm.udiv
  // CHECK-DAG: llvm.mlir.constant(16 : index)
  // CHECK: llvm.cond_br
  // CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
  // CHECK-LABEL: llvm.func internal @__tle_raw_f_1
}
