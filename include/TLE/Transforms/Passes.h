//===- Passes.h - TLE passes ------------------------------------*- C++ -*-===//
#ifndef TLE_TRANSFORMS_PASSES_H
#define TLE_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tle {
#define GEN_PASS_DECL
#include "TLE/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TLE/Transforms/Passes.h.inc"
} // namespace mlir::tle

#endif // TLE_TRANSFORMS_PASSES_H
