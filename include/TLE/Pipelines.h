//===- Pipelines.h - TLE's stage pipelines ----------------------*- C++ -*-===//
#ifndef TLE_PIPELINES_H
#define TLE_PIPELINES_H

namespace mlir::tle {
/// Registers TLE's stage pipelines by name (lib/InitAll/Pipelines.cpp):
/// `tle-ttir{num-stages=N}`, `tle-ttgir{wait-limit=P}`, `tle-ttgir-iluvatar`
/// and `tle-dsa`, each with `disable=pass,...`. registerAllPasses() calls it.
void registerPipelines();
} // namespace mlir::tle

#endif // TLE_PIPELINES_H
