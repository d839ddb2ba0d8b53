// A generic op whose name is a dialect prefix and a dot only ("tle.", of a
// loaded dialect) makes MLIR 22 abort ("tle. created with unregistered
// dialect"). tle-opt and --tle-run-pipeline (the in-process pipeline's code)
// refuse it with an error at the name, whatever the pipeline; the same text
// as a string attribute, a location name or in a comment "tle."(x) is not an
// op name.
// RUN: not tle-opt %s 2>&1 | FileCheck %s
// RUN: not tle-opt %s --triton-tle-raise-markers 2>&1 | FileCheck %s
// RUN: not tle-opt --tle-run-pipeline %s 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: sed 's/"tle\."(%b/"tle.local_pointers"(%b/' %s | tle-opt | FileCheck %s --check-prefix=VALID

// CHECK: empty-generic-op-name.mlir:[[# @LINE + 8]]:10: error: generic operation name 'tle.' names no operation after the dialect prefix (MLIR 22's parser aborts on it); write 'tle.<op>'
// CHECK-NOT: error
// DRIVER: failed to parse '{{.*}}empty-generic-op-name.mlir'
// DRIVER-NEXT: empty-generic-op-name.mlir:[[# @LINE + 5]]:10: error: generic operation name 'tle.'
// VALID: tle.local_pointers
#smem = #ttg.shared_memory
module attributes {tle.s = "tle.", tle.n = "tle."} {
  tt.func @f(%b: !ttg.memdesc<64xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem, mutable>, %o: i32) {
    %a = "tle."(%b, %o) : (!ttg.memdesc<64xi32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #smem, mutable>, i32) -> !tt.ptr<i32, 3> loc("tle."("x.mlir":1:1))
    tt.return
  }
}
