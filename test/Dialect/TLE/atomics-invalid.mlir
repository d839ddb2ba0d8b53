// RUN: tle-opt %s -split-input-file -verify-diagnostics

tt.func @global(%p: !tt.ptr<f32>, %v: f32) {
  // expected-error @+1 {{pointers in address space 1 (global memory) must use Triton's tt.atomic_rmw; tle.atomic_rmw takes shared-memory pointers (address space 3 or 7)}}
  %0 = tle.atomic_rmw fadd, relaxed, cta, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return
}

// -----

tt.func @global_cas(%p: !tt.ptr<i32>, %v: i32) {
  // expected-error @+1 {{must use Triton's tt.atomic_cas}}
  %0 = tle.atomic_cas relaxed, cta, %p, %v, %v : (!tt.ptr<i32>, i32, i32) -> i32
  tt.return
}

// -----

tt.func @space5(%p: !tt.ptr<i32, 5>, %v: i32) {
  // expected-error @+1 {{expects pointers in address space 3 (shared memory) or 7 (cluster shared memory), got address space 5}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (!tt.ptr<i32, 5>, i32) -> i32
  tt.return
}

// -----

tt.func @pointee(%p: !tt.ptr<i32, 3>, %v: i64) {
  // expected-error @+1 {{value type 'i64' must be 'i32' (the pointee type in the pointers' shape)}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (!tt.ptr<i32, 3>, i64) -> i32
  tt.return
}

// -----

tt.func @shape(%p: tensor<64x!tt.ptr<i32, 3>>, %v: tensor<32xi32>) {
  // expected-error @+1 {{value type 'tensor<32xi32>' must be 'tensor<64xi32>'}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (tensor<64x!tt.ptr<i32, 3>>, tensor<32xi32>) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @result(%p: tensor<64x!tt.ptr<i32, 3>>, %v: tensor<64xi32>) {
  // expected-error @+1 {{result type 'i32' must be 'tensor<64xi32>'}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (tensor<64x!tt.ptr<i32, 3>>, tensor<64xi32>) -> i32
  tt.return
}

// -----

tt.func @mask(%p: tensor<64x!tt.ptr<i32, 3>>, %v: tensor<64xi32>, %m: i1) {
  // expected-error @+1 {{mask type 'i1' must be 'tensor<64xi1>'}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v, %m : (tensor<64x!tt.ptr<i32, 3>>, tensor<64xi32>, i1) -> tensor<64xi32>
  tt.return
}

// -----

tt.func @fadd_int(%p: !tt.ptr<i32, 3>, %v: i32) {
  // expected-error @+1 {{fadd needs a floating-point element type, got 'i32' (use add for integers)}}
  %0 = tle.atomic_rmw fadd, relaxed, cta, %p, %v : (!tt.ptr<i32, 3>, i32) -> i32
  tt.return
}

// -----

tt.func @fadd_f8(%p: !tt.ptr<f8E4M3FN, 3>, %v: f8E4M3FN) {
  // expected-error @+1 {{fadd supports f16, bf16, f32 and f64, got 'f8E4M3FN'}}
  %0 = tle.atomic_rmw fadd, relaxed, cta, %p, %v : (!tt.ptr<f8E4M3FN, 3>, f8E4M3FN) -> f8E4M3FN
  tt.return
}

// -----

tt.func @add_float(%p: !tt.ptr<f32, 3>, %v: f32) {
  // expected-error @+1 {{add needs an integer element type, got 'f32' (use fadd for floats)}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (!tt.ptr<f32, 3>, f32) -> f32
  tt.return
}

// -----

tt.func @and_float(%p: !tt.ptr<f32, 7>, %v: f32) {
  // expected-error @+1 {{and needs an integer element type, got 'f32'}}
  %0 = tle.atomic_rmw and, relaxed, cta, %p, %v : (!tt.ptr<f32, 7>, f32) -> f32
  tt.return
}

// -----

tt.func @umax_float(%p: !tt.ptr<f64, 3>, %v: f64) {
  // expected-error @+1 {{umax needs an integer element type, got 'f64'}}
  %0 = tle.atomic_rmw umax, relaxed, cta, %p, %v : (!tt.ptr<f64, 3>, f64) -> f64
  tt.return
}

// -----

tt.func @add_i16(%p: !tt.ptr<i16, 3>, %v: i16) {
  // expected-error @+1 {{add supports i32 and i64, got 'i16'}}
  %0 = tle.atomic_rmw add, relaxed, cta, %p, %v : (!tt.ptr<i16, 3>, i16) -> i16
  tt.return
}

// -----

tt.func @exch_f16(%p: !tt.ptr<f16, 3>, %v: f16) {
  // expected-error @+1 {{exch supports i32, i64, f32 and f64, got 'f16'}}
  %0 = tle.atomic_rmw exch, relaxed, cta, %p, %v : (!tt.ptr<f16, 3>, f16) -> f16
  tt.return
}

// -----

tt.func @bad_kind(%p: !tt.ptr<i32, 3>, %v: i32) {
  // expected-error @+1 {{expected an atomic kind (add, fadd, max, min, umax, umin, and, or, xor, exch), got 'xchg'}}
  %0 = tle.atomic_rmw xchg, relaxed, cta, %p, %v : (!tt.ptr<i32, 3>, i32) -> i32
  tt.return
}

// -----

tt.func @bad_scope(%p: !tt.ptr<i32, 3>, %v: i32) {
  // expected-error @+1 {{expected a memory scope (cta, cluster, gpu, sys), got 'system'}}
  %0 = tle.atomic_rmw add, relaxed, system, %p, %v : (!tt.ptr<i32, 3>, i32) -> i32
  tt.return
}

// -----

tt.func @bad_sem(%p: !tt.ptr<i32, 3>, %v: i32) {
  // expected-error @+1 {{expected a memory semantic (relaxed, acquire, release, acq_rel), got 'seq_cst'}}
  %0 = tle.atomic_cas seq_cst, cta, %p, %v, %v : (!tt.ptr<i32, 3>, i32, i32) -> i32
  tt.return
}

// -----

tt.func @cas_cmp(%p: !tt.ptr<i32, 3>, %c: i64, %v: i32) {
  // expected-error @+1 {{cmp type 'i64' must be 'i32'}}
  %0 = tle.atomic_cas relaxed, cta, %p, %c, %v : (!tt.ptr<i32, 3>, i64, i32) -> i32
  tt.return
}

// -----

tt.func @cas_i8(%p: !tt.ptr<i8, 3>, %v: i8) {
  // expected-error @+1 {{supports i16, i32, i64, f16, bf16, f32 and f64, got 'i8'}}
  %0 = tle.atomic_cas relaxed, cta, %p, %v, %v : (!tt.ptr<i8, 3>, i8, i8) -> i8
  tt.return
}
