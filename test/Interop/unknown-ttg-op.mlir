// RUN: not tle-opt %s -split-input-file 2>&1 | FileCheck %s

// An op outside TLE's interop set is named, not reported as MLIR's generic
// "custom op ... is unknown".

func.func @f() {
  // CHECK: error: 'ttg.predicate_stage' is not in TLE's interop set for Triton 3.6.0
  ttg.predicate_stage
  return
}

// -----

func.func @g() {
  // CHECK: error: 'ttng.tmem_copy' is not in TLE's interop set for Triton 3.6.0
  ttng.tmem_copy
  return
}

// CHECK-NOT: is unknown
