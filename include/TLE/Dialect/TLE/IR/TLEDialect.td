//===- TLEDialect.td - TLE dialect definition and base classes ------------===//
#ifndef TLE_DIALECT_TLEDIALECT_TD
#define TLE_DIALECT_TLEDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "TLE/Interop/Triton/TT.td"
include "TLE/Interop/Triton/TTG.td"

def TLE_Dialect : Dialect {
  let name = "tle";
  let cppNamespace = "::mlir::tle";
  let summary = "Triton Language Extensions";
  let description = [{
    Ops behind the `tle` Python package: TLE-Lite (exclusive cumsum, async
    loads), TLE-Struct GPU (shared-memory buffers, local and cluster-remote
    pointers, tiles, pipes, warp specialization), DSA buffers, and the
    distributed attributes. Triton types (`!tt.ptr`, `!ttg.memdesc`, encodings)
    come from TLE's interop definitions of Triton's dialects.
  }];
  let dependentDialects = ["::mlir::tt::TTDialect", "::mlir::ttg::TTGDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

class TLE_Op<string mnemonic, list<Trait> traits = []>
    : Op<TLE_Dialect, mnemonic, traits>;

class TLE_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TLE_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class TLE_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TLE_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// Ranked tensors of integers or floats (the values cumsum and tiles work on).
def TLE_NumericTensor : RankedTensorOf<[AnySignlessInteger, AnyFloat]>;
def TLE_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;

#endif // TLE_DIALECT_TLEDIALECT_TD
