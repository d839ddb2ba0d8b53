//===- TLEMemoryOps.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEMEMORYOPS_TD
#define TLE_DIALECT_TLEMEMORYOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEMEMORYOPS_TD
