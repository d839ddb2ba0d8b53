//===- TTG.cpp - Interop definition of Triton 3.6's `ttg` dialect ---------===//
//
// Parsers and printers here reproduce Triton 3.6.0's textual form exactly.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TTG.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ttg;

#include "TLE/Interop/Triton/TTGDialect.cpp.inc"
#include "TLE/Interop/Triton/TTGEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTGAttrs.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTGTypes.cpp.inc"
#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTGOps.cpp.inc"

namespace {
/// Gives the aliases Triton prints: `#blocked`, `#shared`, `#smem`, ...
struct TTGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SwizzledSharedEncodingAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedMemorySpaceAttr>(attr)) {
      os << "smem";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TTGDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TLE/Interop/Triton/TTGAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "TLE/Interop/Triton/TTGTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TLE/Interop/Triton/TTGOps.cpp.inc"
      >();
  addInterfaces<TTGOpAsmInterface>();
}

//===----------------------------------------------------------------------===//
// Helpers for Triton's `<{key = value, ...}>` attribute bodies.
//===----------------------------------------------------------------------===//

static FailureOr<DictionaryAttr> parseBody(AsmParser &parser) {
  DictionaryAttr dict;
  if (parser.parseLess() || parser.parseAttribute(dict) || parser.parseGreater())
    return failure();
  return dict;
}

static FailureOr<SmallVector<unsigned>>
getUnsignedArray(AsmParser &parser, DictionaryAttr dict, StringRef key) {
  auto array = dyn_cast_or_null<ArrayAttr>(dict.get(key));
  if (!array) {
    parser.emitError(parser.getNameLoc(), "expected array '") << key << "'";
    return failure();
  }
  SmallVector<unsigned> values;
  for (Attribute element : array) {
    auto integer = dyn_cast<IntegerAttr>(element);
    if (!integer || integer.getInt() < 0) {
      parser.emitError(parser.getNameLoc(), "expected non-negative integers in '")
          << key << "'";
      return failure();
    }
    values.push_back(integer.getInt());
  }
  return values;
}

static FailureOr<unsigned> getUnsigned(AsmParser &parser, DictionaryAttr dict,
                                       StringRef key) {
  auto integer = dyn_cast_or_null<IntegerAttr>(dict.get(key));
  if (!integer || integer.getInt() < 0) {
    parser.emitError(parser.getNameLoc(), "expected non-negative integer '")
        << key << "'";
    return failure();
  }
  return static_cast<unsigned>(integer.getInt());
}

static LogicalResult checkKeys(AsmParser &parser, DictionaryAttr dict,
                               ArrayRef<StringRef> known) {
  for (NamedAttribute entry : dict)
    if (!llvm::is_contained(known, entry.getName().strref()))
      return parser.emitError(parser.getNameLoc(), "unexpected key '")
             << entry.getName().strref() << "'";
  return success();
}

static void printArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}

//===----------------------------------------------------------------------===//
// BlockedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  FailureOr<DictionaryAttr> dict = parseBody(parser);
  if (failed(dict) ||
      failed(checkKeys(parser, *dict,
                       {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"})))
    return {};
  auto spt = getUnsignedArray(parser, *dict, "sizePerThread");
  auto tpw = getUnsignedArray(parser, *dict, "threadsPerWarp");
  auto wpc = getUnsignedArray(parser, *dict, "warpsPerCTA");
  auto order = getUnsignedArray(parser, *dict, "order");
  if (failed(spt) || failed(tpw) || failed(wpc) || failed(order))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(), *spt, *tpw,
                                                *wpc, *order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threadsPerWarp,
                            ArrayRef<unsigned> warpsPerCTA,
                            ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "blocked layout arrays must all have rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "blocked layout order must be a permutation of [0, "
                         << rank << ")";
    seen[dim] = true;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SliceEncodingAttr
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  FailureOr<DictionaryAttr> dict = parseBody(parser);
  if (failed(dict) || failed(checkKeys(parser, *dict, {"dim", "parent"})))
    return {};
  FailureOr<unsigned> dim = getUnsigned(parser, *dict, "dim");
  Attribute parent = dict->get("parent");
  if (failed(dim))
    return {};
  if (!parent) {
    parser.emitError(parser.getNameLoc(), "expected 'parent'");
    return {};
  }
  return SliceEncodingAttr::get(parser.getContext(), *dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

//===----------------------------------------------------------------------===//
// SwizzledSharedEncodingAttr
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  FailureOr<DictionaryAttr> dict = parseBody(parser);
  if (failed(dict) ||
      failed(checkKeys(parser, *dict, {"vec", "perPhase", "maxPhase", "order"})))
    return {};
  auto vec = getUnsigned(parser, *dict, "vec");
  auto perPhase = getUnsigned(parser, *dict, "perPhase");
  auto maxPhase = getUnsigned(parser, *dict, "maxPhase");
  auto order = getUnsignedArray(parser, *dict, "order");
  if (failed(vec) || failed(perPhase) || failed(maxPhase) || failed(order))
    return {};
  return SwizzledSharedEncodingAttr::get(parser.getContext(), *vec, *perPhase,
                                         *maxPhase, *order);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// MemDescType: `!ttg.memdesc<SHAPExELT, ENC, SPACE[, mutable][, ALLOCSHAPE]>`
//===----------------------------------------------------------------------===//

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding, memorySpace;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseComma() ||
      parser.parseAttribute(memorySpace))
    return {};
  bool mutableMemory = false;
  SmallVector<int64_t> allocShape(shape);
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      mutableMemory = true;
      continue;
    }
    allocShape.clear();
    if (parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType,
                                        encoding, memorySpace, mutableMemory,
                                        allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getEncoding() << ", "
          << getMemorySpace();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, Attribute memorySpace,
                                  bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  if (allocShape.size() < shape.size())
    return emitError() << "memdesc alloc shape rank (" << allocShape.size()
                       << ") must be at least the shape rank (" << shape.size()
                       << ")";
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "memdesc dimensions must be positive";
  return success();
}
