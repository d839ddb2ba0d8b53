//===- TLEPipeOps.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEPIPEOPS_TD
#define TLE_DIALECT_TLEPIPEOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEPIPEOPS_TD
