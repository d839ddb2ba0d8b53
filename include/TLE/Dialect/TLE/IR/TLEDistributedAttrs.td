//===- TLEDistributedAttrs.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEDISTRIBUTEDATTRS_TD
#define TLE_DIALECT_TLEDISTRIBUTEDATTRS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEDISTRIBUTEDATTRS_TD
