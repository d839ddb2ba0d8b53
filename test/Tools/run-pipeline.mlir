// `tle-opt --tle-run-pipeline`: what tle._tle.run_pipeline does in-process
// (the Python driver's TLE_OPT path); pipelines are anchored on the module.
// RUN: tle-opt --tle-run-pipeline --pass-pipeline=canonicalize %s | FileCheck %s
// RUN: tle-opt --tle-run-pipeline --pass-pipeline='builtin.module(func.func(canonicalize))' %s | FileCheck %s
// RUN: tle-opt --tle-run-pipeline --source-name=k.mlir --debug-info %s | FileCheck %s --check-prefix=LOC
// RUN: not tle-opt --tle-run-pipeline --pass-pipeline=tle-assert-lowered --source-name=k.mlir %s 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not tle-opt --tle-run-pipeline --pass-pipeline=no-such-pass %s 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: echo 'func.func @f(' | not tle-opt --tle-run-pipeline --source-name=bad.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not tle-opt --tle-run-pipeline --verify-each=maybe %s 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not tle-opt --tle-run-pipeline --no-such-flag %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK-LABEL: func.func @fold
// CHECK-NEXT: return %arg0 : i32
func.func @fold(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}

// LOC: tle.exclusive_cumsum {{.*}} loc(#[[L:loc[0-9]+]])
// LOC: #[[L]] = loc("k.mlir":[[@LINE+4]]:{{[0-9]+}})
// PASS: pass pipeline 'tle-assert-lowered' failed on 'k.mlir'
// PASS-NEXT: k.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'tle.exclusive_cumsum' was not lowered
func.func @cumsum(%x: tensor<128xi32>) -> i32 {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
  return %t : i32
}

// PIPE: invalid pass pipeline 'no-such-pass': {{.*}}'no-such-pass' does not refer to a registered pass
// PARSE: failed to parse 'bad.mlir'
// PARSE-NEXT: bad.mlir:1:14: error: expected non-function type
// USAGE: error: invalid value for --verify-each: 'maybe'
// UNKNOWN: error: unknown option '--no-such-flag' for --tle-run-pipeline
