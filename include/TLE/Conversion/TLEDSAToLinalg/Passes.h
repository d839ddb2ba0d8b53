//===- Passes.h - tle.dsa -> memref/linalg/bufferization --------*- C++ -*-===//
#ifndef TLE_CONVERSION_TLEDSATOLINALG_PASSES_H
#define TLE_CONVERSION_TLEDSATOLINALG_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tle {
#define GEN_PASS_DECL
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TLE/Conversion/TLEDSAToLinalg/Passes.h.inc"
} // namespace mlir::tle

#endif // TLE_CONVERSION_TLEDSATOLINALG_PASSES_H
