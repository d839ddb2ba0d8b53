//===- TLEDialect.cpp - TLE dialect registration and generated code ------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tle;

#include "TLE/Dialect/TLE/IR/TLEDialect.cpp.inc"
#include "TLE/Dialect/TLE/IR/TLEEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "TLE/Dialect/TLE/IR/TLEAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Dialect/TLE/IR/TLETypes.cpp.inc"
#define GET_OP_CLASSES
#include "TLE/Dialect/TLE/IR/TLEOps.cpp.inc"

void TLEDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TLE/Dialect/TLE/IR/TLEAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "TLE/Dialect/TLE/IR/TLETypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TLE/Dialect/TLE/IR/TLEOps.cpp.inc"
      >();
}
