//===- TLEDSAAttrs.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEDSAATTRS_TD
#define TLE_DIALECT_TLEDSAATTRS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEDSAATTRS_TD
