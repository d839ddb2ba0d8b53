// RUN: tle-opt %s -split-input-file -verify-diagnostics

// tle.dsl_region in FlagTree's form (`hardware_ids`, @tle.raw.dialect):
// buffers, pointers and scalars, memref / !llvm.ptr block arguments.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @tensor_operand(%x: tensor<128xf32>) {
  // expected-error @+1 {{operand 0 must be a shared-memory buffer, a pointer or an integer or float scalar (a 'hardware_ids' op takes no tensors), got 'tensor<128xf32>'}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
  }
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @memref_element(%b: !ttg.memdesc<128xf32, #shared, #smem, mutable>) {
  // expected-error-re @+1 {{body argument 0 has type 'memref<?xf16, 3>' for operand 0 of type '!ttg.memdesc<128xf32, {{.*}}>': a buffer of shape [128] and element type 'f32' is passed as a memref of rank 1 of that element type in address space 3 with the identity layout, each size the buffer's or '?'}}
  tle.dsl_region(%b) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (!ttg.memdesc<128xf32, #shared, #smem, mutable>) -> () {
  ^bb0(%m: memref<?xf16, 3>):
  }
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
tt.func @memref_size(%b: !ttg.memdesc<16x32xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{a buffer of shape [16, 32] and element type 'f32' is passed as a memref of rank 2}}
  tle.dsl_region(%b) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (!ttg.memdesc<16x32xf32, #shared, #smem, mutable>) -> () {
  ^bb0(%m: memref<?x16xf32, 3>):
  }
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @memref_space(%b: !ttg.memdesc<128xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{body argument 0 has type 'memref<?xf32, 1>'}}
  tle.dsl_region(%b) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (!ttg.memdesc<128xf32, #shared, #smem, mutable>) -> () {
  ^bb0(%m: memref<?xf32, 1>):
  }
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
tt.func @column_major(%b: !ttg.memdesc<16x32xf32, #shared, #smem, mutable>) {
  // expected-error-re @+1 {{operand 0 ('!ttg.memdesc<16x32xf32, {{.*}}order = [0, 1]{{.*}}>') must be a mutable, row-major, unswizzled shared-memory buffer}}
  tle.dsl_region(%b) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (!ttg.memdesc<16x32xf32, #shared, #smem, mutable>) -> () {
  ^bb0(%m: memref<?x?xf32, 3>):
  }
  tt.return
}

// -----

tt.func @pointer_space(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{body argument 0 has type '!llvm.ptr<3>' for operand 0 of type '!tt.ptr<f32>': a pointer in address space 1 is passed as !llvm.ptr<1>}}
  tle.dsl_region(%p) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (!tt.ptr<f32>) -> () {
  ^bb0(%q: !llvm.ptr<3>):
  }
  tt.return
}

// -----

tt.func @scalar_type(%n: i32) {
  // expected-error @+1 {{body argument 0 has type 'i64' for operand 0 of type 'i32': a scalar is passed as its own type 'i32'}}
  tle.dsl_region(%n) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (i32) -> () {
  ^bb0(%k: i64):
  }
  tt.return
}

// -----

tt.func @tensor_op(%n: i32) {
  // expected-error @+1 {{op 'tensor.empty' in the TLE-Raw function 'f' is not supported (a @tle.raw.dialect body may use arith, math, index, scf, memref, llvm, nvvm and gpu.printf)}}
  tle.dsl_region(%n) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (i32) -> () {
  ^bb0(%k: i32):
    // expected-note @+1 {{here}}
    %t = tensor.empty() : tensor<4xf32>
  }
  tt.return
}

// -----

tt.func @symbol(%n: i32) {
  // expected-error @+1 {{op 'llvm.mlir.addressof' in the TLE-Raw function 'f' names a symbol, which a TLE-Raw body cannot define or reach}}
  tle.dsl_region(%n) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (i32) -> () {
  ^bb0(%k: i32):
    // expected-note @+1 {{here}}
    %a = llvm.mlir.addressof @g : !llvm.ptr
  }
  tt.return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
tt.func @orders(%b: !ttg.memdesc<128xf32, #shared, #smem, mutable>) {
  // expected-error @+1 {{orders is for tensor operands; a 'hardware_ids' (@tle.raw.dialect) op has none}}
  tle.dsl_region(%b) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids, orders = [array<i64: 0>]} : (!ttg.memdesc<128xf32, #shared, #smem, mutable>) -> () {
  ^bb0(%m: memref<?xf32, 3>):
  }
  tt.return
}

// -----

tt.func @wiki_form_takes_no_pointer(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{operand 0 must be a ranked tensor or an integer or float scalar, got '!tt.ptr<f32>'}}
  tle.dsl_region(%p) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (!tt.ptr<f32>) -> () {
  ^bb0(%q: !llvm.ptr<1>):
  }
  tt.return
}
