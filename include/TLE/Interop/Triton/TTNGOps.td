//===- TTNGOps.td - Interop ops of Triton 3.6's `ttng` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTNGOPS_TD
#define TLE_INTEROP_TTNGOPS_TD

include "TLE/Interop/Triton/TTNG.td"

#endif // TLE_INTEROP_TTNGOPS_TD
