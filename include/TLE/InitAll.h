//===- InitAll.h - register everything TLE's tools load ---------*- C++ -*-===//
#ifndef TLE_INITALL_H
#define TLE_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::tle {
/// The dialects tle-opt and the Python module load: TLE, TLE's interop
/// definitions of Triton's dialects, and the upstream dialects Triton's IR
/// uses.
void registerAllDialects(DialectRegistry &registry);
/// TLE's passes, the few upstream passes pipelines use (canonicalize, cse)
/// and TLE's stage pipelines (TLE/Pipelines.h).
void registerAllPasses();
} // namespace mlir::tle

#endif // TLE_INITALL_H
