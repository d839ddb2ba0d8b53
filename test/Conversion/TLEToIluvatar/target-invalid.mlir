// RUN: tle-opt %s -split-input-file --triton-tle-lower-to-iluvatar -verify-diagnostics
// Target selection: each lowering refuses the other vendor's modules.

// expected-error @+1 {{triton-tle-lower-to-iluvatar lowers TLE for Iluvatar targets only (ttg.target = "iluvatar:<arch>"); this module targets 'cuda:90' (NVIDIA modules use triton-tle-lower-local-memory)}}
module attributes {ttg.target = "cuda:90"} {
  tt.func @nvidia() {
    tt.return
  }
}

// -----

// expected-error @+1 {{triton-tle-lower-to-iluvatar lowers TLE for Iluvatar targets only (ttg.target = "iluvatar:<arch>"); this module has no ttg.target}}
module {
  tt.func @neutral() {
    tt.return
  }
}

// -----

// expected-error @+1 {{malformed Iluvatar target 'iluvatar:'; expected "iluvatar:<arch>"}}
module attributes {ttg.target = "iluvatar:"} {
  tt.func @no_arch() {
    tt.return
  }
}
