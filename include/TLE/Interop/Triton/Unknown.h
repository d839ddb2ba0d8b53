//===- Unknown.h - Clear error for ops outside the interop set -*- C++ -*-===//
//
// TLE defines only the Triton 3.6.0 ops it exchanges as text. An interop
// dialect returns this hook from getParseOperationHook for any other op name,
// so that parsing one fails with a single clear diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_UNKNOWN_H
#define TLE_INTEROP_TRITON_UNKNOWN_H

#include "mlir/IR/Dialect.h"

#include <optional>

namespace mlir::tle::interop {
/// A parse hook that reports "'<dialect.op>' is not in TLE's interop set for
/// Triton 3.6.0" at the op name and fails.
std::optional<Dialect::ParseOpHook> unknownOpHook(StringRef dialectOpName);
} // namespace mlir::tle::interop

#endif // TLE_INTEROP_TRITON_UNKNOWN_H
