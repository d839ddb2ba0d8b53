//===- TLEDSATypes.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEDSATYPES_TD
#define TLE_DIALECT_TLEDSATYPES_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEDSATYPES_TD
