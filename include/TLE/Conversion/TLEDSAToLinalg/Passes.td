//===- Passes.td - tle.dsa -> memref/linalg/bufferization -----------------===//
#ifndef TLE_CONVERSION_TLEDSATOLINALG_PASSES_TD
#define TLE_CONVERSION_TLEDSATOLINALG_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLELowerDSA : Pass<"triton-tle-lower-dsa", "mlir::ModuleOp"> {
  let summary = "Lower tle.dsa.* to upstream memref, linalg, arith and "
                "bufferization ops (docs/dsa.md)";
  let description = [{
    Runs on TTIR (tensors without encoding) after `triton-tle-raise-markers`.
    docs/dsa.md is the design; in short:

    - `!tle.dsa.buffer<SHAPExT, S>` becomes
      `memref<SHAPExT, #tle.dsa.address_space<S>>` (the DSA space is the
      memref's memory space).
    - `tle.dsa.alloc` -> `memref.alloc`.
    - `tle.dsa.copy` with a pointer tensor: the pointers must be
      *structured*, a scalar base `!tt.ptr` plus offsets that are affine in
      the element indices (built from `tt.splat`, `tt.make_range`,
      `tt.expand_dims`, `tt.broadcast`, `tt.addptr`, `arith.addi` /
      `arith.subi`, `arith.muli` by a uniform value, `arith.extsi` /
      `arith.extui`, splat constants). The base becomes
      `builtin.unrealized_conversion_cast` to `memref<*xT>` (resolved by the
      backend's argument conversion) and the pointer tensor a
      `memref.reinterpret_cast` with the derived offset and strides. Any
      other pointer tensor is an error at the copy naming the op that breaks
      the structure. A copy with `sizes` copies
      `memref.subview`s of both sides (offsets 0, sizes `sizes`, strides 1).
      Buffer-to-buffer copies are `memref.copy`.
    - `tle.dsa.add/sub/mul/div/max/min` -> `linalg.add/sub/mul/div/max/min`
      on the memrefs (destination-passing, like the source ops).
    - `tle.dsa.to_tensor` -> `bufferization.to_tensor` (`writable` kept;
      `restrict` when it is the only `to_tensor` of its buffer).
    - `tle.dsa.to_buffer` -> `memref.alloc` +
      `bufferization.materialize_in_destination ... writable`.

    Errors: a buffer that does not come from `tle.dsa.alloc` /
    `tle.dsa.to_buffer` (a block argument, say), tensors with an encoding
    (the pass runs on TTIR), unstructured pointers, a copy to global memory
    through pointers with a zero stride (several elements to one address).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::bufferization::BufferizationDialect"];
}

def TLERejectDSA : Pass<"triton-tle-reject-dsa", "mlir::ModuleOp"> {
  let summary = "Reject tle.dsa ops and markers in GPU pipelines";
  let description = [{
    `tle.dsa.*` targets DSA (Ascend-style) cores only. This pass, first in
    TLE's NVIDIA TTGIR pipeline, reports every `tle.dsa.*` op and every
    `tle.dsa.*` marker (docs/markers.md) at its location: "'tle.dsa.add' is
    for DSA targets only; ...".
  }];
}

#endif // TLE_CONVERSION_TLEDSATOLINALG_PASSES_TD
