//===- Passes.h - TLE -> iluvatar_tle conversion ----------------*- C++ -*-===//
#ifndef TLE_CONVERSION_TLETOILUVATAR_PASSES_H
#define TLE_CONVERSION_TLETOILUVATAR_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tle {
#define GEN_PASS_DECL
#include "TLE/Conversion/TLEToIluvatar/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TLE/Conversion/TLEToIluvatar/Passes.h.inc"
} // namespace mlir::tle

#endif // TLE_CONVERSION_TLETOILUVATAR_PASSES_H
