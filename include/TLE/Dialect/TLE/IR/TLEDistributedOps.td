//===- TLEDistributedOps.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEDISTRIBUTEDOPS_TD
#define TLE_DIALECT_TLEDISTRIBUTEDOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEDISTRIBUTEDOPS_TD
