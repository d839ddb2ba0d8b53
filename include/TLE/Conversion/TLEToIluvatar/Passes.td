//===- Passes.td - TLE -> iluvatar_tle conversion -------------------------===//
#ifndef TLE_CONVERSION_TLETOILUVATAR_PASSES_TD
#define TLE_CONVERSION_TLETOILUVATAR_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLELowerToIluvatar
    : Pass<"triton-tle-lower-to-iluvatar", "mlir::ModuleOp"> {
  let summary = "Lower TLE buffers, local pointers, copies and tiles to "
                "Triton and iluvatar_tle ops for Iluvatar (CoreX) targets";
  let description = [{
    Runs on TTGIR whose module carries `ttg.target = "iluvatar:<arch>"`
    (`<arch>` a non-empty name of letters, digits and `_`); any other target,
    or none, is an error (the NVIDIA lowering is
    `triton-tle-lower-local-memory`). docs/iluvatar.md has the design.

    - `tle.alloc smem [%init]` -> `ttg.local_alloc [%init]` of the same
      memdesc type. The buffer's encoding must be `#ttg.swizzled_shared`
      (what the frontend emits). Errors: scope `tmem` ("iluvatar TLE alloc
      does not support tmem storage"), a `#ttg.nvmma_shared` encoding
      ("iluvatar TLE alloc does not support nv_mma_shared_layout=True"),
      any other shared encoding.
    - `tle.local_pointers` -> `iluvatar_tle.local_pointers` (same operands
      and type).
    - `tle.copy` global -> shared: `tt.load %ptrs`,
      `iluvatar_tle.local_pointers %buf` (full view in the pointer tensor's
      encoding), `tt.store`; shared -> global: full-view local pointers,
      `tt.load`, `tt.store %ptrs`.
    - `tle.local_load` / `tle.local_store` (made by the local-pointer
      optimization passes) -> `ttg.local_load` / `ttg.local_store`.
    - `tle.extract_tile` / `tle.insert_tile` -> `iluvatar_tle.extract_tile` /
      `iluvatar_tle.insert_tile` (static or dynamic index kept); source,
      result and tile must carry `#ttg.blocked` encodings.

    Other tle ops are left in place (the pipeline's `tle-assert-lowered`
    reports them).
  }];
  let dependentDialects = ["mlir::tt::TTDialect", "mlir::ttg::TTGDialect",
                           "mlir::iluvatar_tle::IluvatarTLEDialect"];
}

#endif // TLE_CONVERSION_TLETOILUVATAR_PASSES_TD
