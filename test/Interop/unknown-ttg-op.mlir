// RUN: not tle-opt %s -split-input-file 2>&1 | FileCheck %s

// An op outside TLE's interop set is named, not reported as MLIR's generic
// "custom op ... is unknown".

func.func @f() {
  // CHECK: error: 'ttg.global_scratch_alloc' is not in TLE's interop set for Triton 3.6.0
  ttg.global_scratch_alloc
  return
}

// -----

func.func @g() {
  // CHECK: error: 'ttng.tc_gen5_mma' is not in TLE's interop set for Triton 3.6.0
  ttng.tc_gen5_mma
  return
}

// CHECK-NOT: is unknown
