// MLIR 22's attribute parser aborts (an assertion in
// Parser::parseDenseArrayAttr) on a dense array of 'index'. tle-opt reads its
// input first and refuses it with an error at the text, whatever the
// pipeline; the same text in a comment or a string is not an array.
// RUN: not tle-opt %s 2>&1 | FileCheck %s
// RUN: not tle-opt %s --triton-tle-raise-markers 2>&1 | FileCheck %s
// RUN: not tle-opt --tle-run-pipeline %s 2>&1 | FileCheck %s --check-prefix=DRIVER

// CHECK: dense-index-array.mlir:[[# @LINE + 4]]:28: error: a dense array of 'index' ('array<index...>') is not supported: MLIR 22's parser aborts on it
// CHECK-NOT: error
// DRIVER: failed to parse '{{.*}}dense-index-array.mlir'
// DRIVER-NEXT: dense-index-array.mlir:[[# @LINE + 1]]:28: error: a dense array of 'index'
module attributes {tle.a = array< index : 1, 2>, tle.s = "array<index>"} {
}
