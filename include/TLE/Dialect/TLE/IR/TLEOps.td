//===- TLEOps.td - TLE operations -----------------------------------------===//
#ifndef TLE_DIALECT_TLEOPS_TD
#define TLE_DIALECT_TLEOPS_TD

include "TLE/Dialect/TLE/IR/TLEAttrs.td"
include "TLE/Dialect/TLE/IR/TLETypes.td"

include "TLE/Dialect/TLE/IR/TLECumsumOps.td"
include "TLE/Dialect/TLE/IR/TLEMemoryOps.td"
include "TLE/Dialect/TLE/IR/TLEPipeOps.td"
include "TLE/Dialect/TLE/IR/TLEWarpSpecializeOps.td"
include "TLE/Dialect/TLE/IR/TLEDSAOps.td"
include "TLE/Dialect/TLE/IR/TLEDistributedOps.td"
include "TLE/Dialect/TLE/IR/TLEPipelineGroupOps.td"
include "TLE/Dialect/TLE/IR/TLERawOps.td"
include "TLE/Dialect/TLE/IR/TLEBarrierOps.td"
include "TLE/Dialect/TLE/IR/TLEWgmmaOps.td"
include "TLE/Dialect/TLE/IR/TLELayoutOps.td"

#endif // TLE_DIALECT_TLEOPS_TD
