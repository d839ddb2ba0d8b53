//===- TLETypes.td - TLE types --------------------------------------------===//
#ifndef TLE_DIALECT_TLETYPES_TD
#define TLE_DIALECT_TLETYPES_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

include "TLE/Dialect/TLE/IR/TLEPipeTypes.td"
include "TLE/Dialect/TLE/IR/TLEDSATypes.td"

#endif // TLE_DIALECT_TLETYPES_TD
