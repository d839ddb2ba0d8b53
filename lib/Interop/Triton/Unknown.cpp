//===- Unknown.cpp - Clear error for ops outside the interop set ----------===//
#include "TLE/Interop/Triton/Unknown.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

// Emitted directly rather than through the parser, which would prefix
// "custom op '<name>'" and repeat the name.
static ParseResult rejectUnknownOp(OpAsmParser &parser, OperationState &state) {
  return emitError(parser.getEncodedSourceLoc(parser.getNameLoc()))
         << "'" << state.name.getStringRef()
         << "' is not in TLE's interop set for Triton 3.6.0";
}

std::optional<Dialect::ParseOpHook>
mlir::tle::interop::unknownOpHook(StringRef) {
  return Dialect::ParseOpHook(rejectUnknownOp);
}
