//===- TTOps.td - Interop ops of Triton 3.6's `tt` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTOPS_TD
#define TLE_INTEROP_TTOPS_TD

include "TLE/Interop/Triton/TT.td"

#endif // TLE_INTEROP_TTOPS_TD
