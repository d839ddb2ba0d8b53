//===- TTNG.cpp - Interop definition of Triton 3.6's `ttng` dialect -------===//
#include "TLE/Interop/Triton/TTNG.h"
#include "TLE/Interop/Triton/Unknown.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ttng;

#include "TLE/Interop/Triton/TTNGDialect.cpp.inc"
#include "TLE/Interop/Triton/TTNGEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTNGAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTNGTypes.cpp.inc"

void TTNGDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TLE/Interop/Triton/TTNGAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TLE/Interop/Triton/TTNGOps.cpp.inc"
      >();
}

std::optional<Dialect::ParseOpHook>
TTNGDialect::getParseOperationHook(StringRef opName) const {
  return tle::interop::unknownOpHook(opName);
}
