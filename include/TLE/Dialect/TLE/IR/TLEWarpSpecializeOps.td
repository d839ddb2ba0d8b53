//===- TLEWarpSpecializeOps.td -----------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEWARPSPECIALIZEOPS_TD
#define TLE_DIALECT_TLEWARPSPECIALIZEOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

#endif // TLE_DIALECT_TLEWARPSPECIALIZEOPS_TD
