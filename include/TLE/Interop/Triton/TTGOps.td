//===- TTGOps.td - Interop ops of Triton 3.6's `ttg` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTGOPS_TD
#define TLE_INTEROP_TTGOPS_TD

include "TLE/Interop/Triton/TTG.td"

#endif // TLE_INTEROP_TTGOPS_TD
