// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory -verify-diagnostics
// The NVIDIA lowering refuses Iluvatar modules.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
// expected-error @+1 {{triton-tle-lower-local-memory lowers TLE for NVIDIA targets; this module targets 'iluvatar:ivcore11' (Iluvatar modules use triton-tle-lower-to-iluvatar)}}
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @k() {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    tt.return
  }
}
