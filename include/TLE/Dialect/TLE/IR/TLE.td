//===- TLE.td - The TLE dialect: every definition, one tablegen root ------===//
#ifndef TLE_DIALECT_TLE_TD
#define TLE_DIALECT_TLE_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEAttrs.td"
include "TLE/Dialect/TLE/IR/TLETypes.td"
include "TLE/Dialect/TLE/IR/TLEOps.td"

#endif // TLE_DIALECT_TLE_TD
