// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers | FileCheck %s
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true | FileCheck %s --check-prefix=VERIFY

// tle.call's marker: the body travels as the text of a func.func in
// `tle.marker.region`; the raised tle.dsl_region holds that body.

// CHECK-LABEL: tt.func @vector_add
// CHECK: %[[R:.*]]:3 = tle.dsl_region(%arg0, %arg1, %arg2) {language = "mlir", name = "f", orders = [array<i64: 0>, array<i64: 0>, array<i64: 0>], sync_scope = "block", threads = array<i64: 128>}
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<128xf32>, %[[B:.*]]: tensor<128xf32>, %[[C:.*]]: tensor<128xf32>):
// CHECK-NEXT: nvvm.read.ptx.sreg.tid.x
// CHECK: tensor.insert %{{.*}} into %[[C]]
// CHECK-NOT: return
// CHECK: }
// CHECK-NEXT: tt.return %[[R]]#2
// VERIFY-LABEL: tt.func @vector_add
// VERIFY-NOT: tle.dsl_region
// VERIFY: tt.elementwise_inline_asm "tle.dsl_region
tt.func @vector_add(%x: tensor<128xf32>, %y: tensor<128xf32>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %r:3 = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", orders = [array<i64: 0>, array<i64: 0>, array<i64: 0>], tle.marker.region = \"module { func.func @f(%x: tensor<128xf32>, %y: tensor<128xf32>, %o: tensor<128xf32>) { %t = nvvm.read.ptx.sreg.tid.x : i32  %i = arith.index_cast %t : i32 to index  %u = tensor.extract %x[%i] : tensor<128xf32>  %v = tensor.extract %y[%i] : tensor<128xf32>  %s = arith.addf %u, %v : f32  %w = tensor.insert %s into %o[%i] : tensor<128xf32>  return } }\"}" {constraints = "=r,=r,=r,r,r,r", packed_element = 1 : i32, pure = false} %x, %y, %o : tensor<128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
  tt.return %r#2 : tensor<128xf32>
}

// -----

// A scalar argument crosses splatted.
// CHECK-LABEL: tt.func @scalar
// CHECK: tle.dsl_region(%arg0, %arg1) {{.*}} : (tensor<128xi32>, i32) -> tensor<128xi32>
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<128xi32>, %{{.*}}: i32):
tt.func @scalar(%x: tensor<128xi32>, %k: i32) -> tensor<128xi32> {
  %s = tt.splat %k : i32 -> tensor<128xi32>
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"g\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @g(%x: tensor<128xi32>, %k: i32) { %c0 = arith.constant 0 : index  %w = tensor.insert %k into %x[%c0] : tensor<128xi32>  return } }\", tle.marker.scalar_operands = array<i32: 1>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %s : tensor<128xi32>, tensor<128xi32> -> tensor<128xi32>
  tt.return %r : tensor<128xi32>
}
