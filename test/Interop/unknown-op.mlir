// A `tt` op that TLE's interop set does not define (here a made-up one: the
// set covers every `tt` op of Triton 3.6.0) fails to parse with one clear
// error.
// RUN: not tle-opt %s 2>&1 | FileCheck %s
// Exit code exactly 1 (an error, not a crash):
// RUN: %PYTHON -c "import subprocess, sys; sys.exit(subprocess.run(['tle-opt', sys.argv[1]], capture_output=True).returncode != 1)" %s

// CHECK: error: 'tt.future_op' is not in TLE's interop set for Triton 3.6.0
// CHECK-NOT: error
tt.func @f(%a: tensor<16x16xf16>) {
  %0 = tt.future_op %a, %a : tensor<16x16xf16>
  tt.return
}
