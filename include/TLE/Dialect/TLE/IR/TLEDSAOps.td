//===- TLEDSAOps.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEDSAOPS_TD
#define TLE_DIALECT_TLEDSAOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEDSAOPS_TD
