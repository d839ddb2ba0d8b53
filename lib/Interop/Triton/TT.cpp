//===- TT.cpp - Interop definition of Triton 3.6's `tt` dialect -----------===//
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/Integer.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/Unknown.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tt;

#include "TLE/Interop/Triton/TTDialect.cpp.inc"
#include "TLE/Interop/Triton/TTEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTTypes.cpp.inc"

void TTDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "TLE/Interop/Triton/TTTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TLE/Interop/Triton/TTOps.cpp.inc"
      >();
}

std::optional<Dialect::ParseOpHook>
TTDialect::getParseOperationHook(StringRef opName) const {
  if (std::optional<ParseOpHook> hook = Dialect::getParseOperationHook(opName))
    return hook;
  return tle::interop::unknownOpHook(opName);
}

/// `tt.num_stages` on a loop is read with getInt() (Triton's pipeliner,
/// triton-tle-lower-async-loads): it must be a 32-bit signless integer.
LogicalResult TTDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  if (attr.getName() != tle::interop::kNumStagesAttr)
    return success();
  if (!tle::interop::signlessInt(attr.getValue(), 32))
    return op->emitOpError()
           << "attribute 'tt.num_stages' must be a 32-bit integer, got "
           << attr.getValue();
  return success();
}

// Triton prints the global address space (1) implicitly: `!tt.ptr<f32>`.
static constexpr int kGlobalAddressSpace = 1;

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  int addressSpace = kGlobalAddressSpace;
  if (parser.parseLess() || parser.parseType(pointee))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseInteger(addressSpace))
    return {};
  if (parser.parseGreater())
    return {};
  return PointerType::get(pointee, addressSpace);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != kGlobalAddressSpace)
    printer << ", " << getAddressSpace();
  printer << ">";
}
