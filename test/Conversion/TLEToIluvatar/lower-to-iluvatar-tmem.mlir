// RUN: tle-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --triton-tle-lower-to-iluvatar -verify-diagnostics
// The pass's own tmem check (the tle.alloc verifier normally reports it
// first, with the same message; see lower-to-iluvatar-invalid.mlir).

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @tmem() {
    // expected-error @+1 {{iluvatar TLE alloc does not support tmem storage}}
    %buf = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    tt.return
  }
}
