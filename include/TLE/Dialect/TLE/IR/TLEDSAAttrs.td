//===- TLEDSAAttrs.td - DSA (Ascend-style) memory spaces ------------------===//
#ifndef TLE_DIALECT_TLEDSAATTRS_TD
#define TLE_DIALECT_TLEDSAATTRS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

// `tle.dsa.ascend.{UB,L1,L0A,L0B,L0C}` in the Python API. Global memory (GM)
// is not a buffer space: it is reached through `!tt.ptr` tensors.
def TLE_DSAAddressSpace : I32EnumAttr<"DSAAddressSpace",
    "DSA on-chip memory space", [
    I32EnumAttrCase<"UB", 0>,   // unified buffer, the vector unit's memory
    I32EnumAttrCase<"L1", 1>,   // L1 buffer, staging for the cube unit
    I32EnumAttrCase<"L0A", 2>,  // cube unit left-operand buffer
    I32EnumAttrCase<"L0B", 3>,  // cube unit right-operand buffer
    I32EnumAttrCase<"L0C", 4>   // cube unit accumulator buffer
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}

// `#tle.dsa.address_space<UB>`
def TLE_DSAAddressSpaceAttr
    : EnumAttr<TLE_Dialect, TLE_DSAAddressSpace, "dsa.address_space"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // TLE_DIALECT_TLEDSAATTRS_TD
