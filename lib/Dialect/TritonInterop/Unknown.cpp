//===- Unknown.cpp - Clear error for ops outside TLE's interop set --------===//
#include "TLE/Interop/Triton/Unknown.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

// Emitted at the op's location rather than through `parser.emitError`, which
// would prefix "custom op '<name>'" to the message.
static ParseResult parseUnknownOp(OpAsmParser &parser, OperationState &state) {
  return mlir::emitError(parser.getEncodedSourceLoc(parser.getNameLoc()))
         << "'" << state.name.getStringRef()
         << "' is not in TLE's interop set for Triton 3.6.0";
}

std::optional<Dialect::ParseOpHook>
mlir::tle::interop::unknownOpHook(llvm::StringRef opName) {
  (void)opName;
  return Dialect::ParseOpHook(parseUnknownOp);
}
