// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers -verify-diagnostics
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true -verify-diagnostics

tt.func @not_a_string(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.marker.region' must be a string, got 3 : i64}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = 3}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @unparsable(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.marker.region' cannot be parsed: }}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f( }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

// A generic op named by a dialect prefix only, which MLIR 22's parser aborts
// on (TLE/Support/ParserGuard.h), is refused before the body is parsed.
tt.func @empty_generic_op_name(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.marker.region' cannot be parsed: generic operation name 'arith.' names no operation after the dialect prefix}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f() { %0 = \\\"arith.\\\"() : () -> i32 func.return } }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @two_functions(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.marker.region' must hold exactly one func.func with a body}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f(%x: tensor<128xf32>) { return }  func.func @g(%x: tensor<128xf32>) { return } }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @returns_a_value(%x: tensor<128xf32>) {
  // expected-error @+1 {{function 'f' must end in a func.return without operands}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f(%x: tensor<128xf32>) -> tensor<128xf32> { return %x : tensor<128xf32> } }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

// An op of a dialect bodies cannot hold is refused before the text is
// parsed into the pass's context.
tt.func @foreign_dialect(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tle.marker.region' uses op 'cf.assert', whose dialect a TLE-Raw body cannot hold}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f(%x: tensor<128xf32>) { %c = arith.constant true  cf.assert %c, \\\"m\\\"  return } }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

// The body is verified at the marker (the user's tle.call line).
tt.func @unsupported_op(%x: tensor<128xf32>) {
  // expected-error @+2 {{'tle.dsl_region' op op 'tensor.empty' is not supported in the TLE-Raw function 'f'}}
  // expected-note @+1 {{here}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f(%x: tensor<128xf32>) { %e = tensor.empty() : tensor<4xf32>  return } }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @argument_mismatch(%x: tensor<128xf32>) {
  // expected-error @+1 {{body argument 0 has type 'tensor<64xf32>' but operand 0 needs 'tensor<128xf32>'}}
  %r = tt.elementwise_inline_asm "tle.dsl_region {language = \"mlir\", name = \"f\", threads = array<i64: 128>, sync_scope = \"block\", tle.marker.region = \"module { func.func @f(%x: tensor<64xf32>) { return } }\"}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xf32> -> tensor<128xf32>
  tt.return
}
