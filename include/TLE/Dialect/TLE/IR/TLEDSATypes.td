//===- TLEDSATypes.td - DSA buffer type -----------------------------------===//
#ifndef TLE_DIALECT_TLEDSATYPES_TD
#define TLE_DIALECT_TLEDSATYPES_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEDSAAttrs.td"

def TLE_DSABufferType : TLE_Type<"DSABuffer", "dsa.buffer"> {
  let summary = "DSA on-chip buffer";
  let description = [{
    A statically shaped buffer of signless integers or floats that lives in one DSA
    on-chip memory: `UB`, `L1`, `L0A`, `L0B` or `L0C`. It is a reference to
    memory, not a value: ops that read or write it declare memory effects.

    ```mlir
    !tle.dsa.buffer<16x16xf32, UB>
    !tle.dsa.buffer<128xi8, L1>
    ```

    Rules: rank >= 1; every dimension static and > 0; element type a
    signless integer or floating-point type (as in Triton tensors).
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "static shape">:$shape,
    "::mlir::Type":$elementType,
    EnumParameter<TLE_DSAAddressSpace>:$space
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
                                        "::mlir::Type":$elementType,
                                        "DSAAddressSpace":$space), [{
      return $_get(elementType.getContext(), shape, elementType, space);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
  }];
}

#endif // TLE_DIALECT_TLEDSATYPES_TD
