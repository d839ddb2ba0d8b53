//===- Unknown.h - Clear error for ops outside TLE's interop set -*- C++ -*-===//
//
// TLE defines only part of Triton's `tt`, `ttg` and `ttng` dialects. A dialect
// returns this hook from `getParseOperationHook` for an op it does not define,
// so the user sees which op is missing instead of MLIR's generic message.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_UNKNOWN_H
#define TLE_INTEROP_TRITON_UNKNOWN_H

#include "mlir/IR/Dialect.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::tle::interop {

/// A parse hook that reports `'<dialect>.<name>' is not in TLE's interop set
/// for Triton 3.6.0` and fails.
std::optional<mlir::Dialect::ParseOpHook> unknownOpHook(llvm::StringRef opName);

} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_UNKNOWN_H
