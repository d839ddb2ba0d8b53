//===- TLEPipeTypes.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEPIPETYPES_TD
#define TLE_DIALECT_TLEPIPETYPES_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEPIPETYPES_TD
