//===- TLEAttrs.td - TLE attributes and enums -----------------------------===//
#ifndef TLE_DIALECT_TLEATTRS_TD
#define TLE_DIALECT_TLEATTRS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

include "TLE/Dialect/TLE/IR/TLEMemoryAttrs.td"
include "TLE/Dialect/TLE/IR/TLEDSAAttrs.td"
include "TLE/Dialect/TLE/IR/TLEDistributedAttrs.td"

#endif // TLE_DIALECT_TLEATTRS_TD
