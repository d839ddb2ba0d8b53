// RUN: tle-opt %s -split-input-file -verify-diagnostics

tt.func @language(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.dsl_region' op language 'cuda' is not supported; TLE-Raw knows "mlir"}}
  %r = tle.dsl_region(%x) {language = "cuda", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
  }
  tt.return
}

// -----

tt.func @sync_scope(%x: tensor<128xf32>) {
  // expected-error @+1 {{sync_scope 'warp' is not supported; TLE-Raw knows "block"}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "warp"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
  }
  tt.return
}

// -----

tt.func @threads_rank(%x: tensor<128xf32>) {
  // expected-error @+1 {{threads must have 1 to 3 dimensions, got 4}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 2, 2, 2, 16>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
  }
  tt.return
}

// -----

tt.func @threads_positive(%x: tensor<128xf32>) {
  // expected-error @+1 {{threads must be positive, got [128, 0]}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128, 0>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
  }
  tt.return
}

// -----

tt.func @result_count(%x: tensor<128xf32>, %k: i32) {
  // expected-error @+1 {{has 2 results but 1 tensor operands (one result per tensor operand)}}
  %r:2 = tle.dsl_region(%x, %k) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>, i32) -> (tensor<128xf32>, tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>, %n: i32):
  }
  tt.return
}

// -----

tt.func @result_type(%x: tensor<128xf32>) {
  // expected-error @+1 {{result 0 has type 'tensor<128xi32>' but its tensor operand 0 has 'tensor<128xf32>'}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xi32>) {
  ^bb0(%a: tensor<128xf32>):
  }
  tt.return
}

// -----

tt.func @operand_kind(%p: !tt.ptr<f32>) {
  // expected-error @+1 {{operand 0 must be a ranked tensor or an integer or float scalar, got '!tt.ptr<f32>'}}
  tle.dsl_region(%p) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (!tt.ptr<f32>) -> () {
  ^bb0(%a: !tt.ptr<f32>):
  }
  tt.return
}

// -----

tt.func @order(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{orders entry 0 must be a permutation of the dimensions of its tensor operand, got [0, 0]}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", orders = [array<i64: 0, 0>]} : (tensor<16x8xf32>) -> (tensor<16x8xf32>) {
  ^bb0(%a: tensor<16x8xf32>):
  }
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @argument_type(%x: tensor<128xf32, #blocked>) {
  // expected-error @+1 {{but operand 0 needs 'tensor<128xf32>'}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32, #blocked>) -> (tensor<128xf32, #blocked>) {
  ^bb0(%a: tensor<128xf32, #blocked>):
  }
  tt.return
}

// -----

tt.func @unsupported_op(%x: tensor<128xf32>) {
  // expected-error @+1 {{op 'gpu.thread_id' is not supported in the TLE-Raw function 'f'}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
    // expected-note @+1 {{here}}
    %t = gpu.thread_id x
  }
  tt.return
}

// -----

tt.func @tensor_arith(%x: tensor<128xf32>) {
  // expected-error @+1 {{op 'arith.addf' in the TLE-Raw function 'f' takes or yields a tensor; only tensor.extract, tensor.insert and tensor.dim may}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
    // expected-note @+1 {{here}}
    %s = arith.addf %a, %a : tensor<128xf32>
  }
  tt.return
}

// -----

tt.func @loop_carried_tensor(%x: tensor<128xf32>) {
  // expected-error @+1 {{op 'scf.for' in the TLE-Raw function 'f' takes or yields a tensor}}
  %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
  ^bb0(%a: tensor<128xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-note @+1 {{here}}
    %l = scf.for %i = %c0 to %c1 step %c1 iter_args(%t = %a) -> (tensor<128xf32>) {
      scf.yield %t : tensor<128xf32>
    }
  }
  tt.return
}
