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

namespace {
/// Gives the aliases Triton prints: `#tmem`, `#tmem_scales`.
struct TTNGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<TensorMemoryEncodingAttr>(attr)) {
      os << "tmem";
      return AliasResult::FinalAlias;
    }
    if (isa<TensorMemoryScalesEncodingAttr>(attr)) {
      os << "tmem_scales";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TTNGDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "TLE/Interop/Triton/TTNGAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "TLE/Interop/Triton/TTNGOps.cpp.inc"
      >();
  addInterfaces<TTNGOpAsmInterface>();
}

std::optional<Dialect::ParseOpHook>
TTNGDialect::getParseOperationHook(StringRef opName) const {
  return tle::interop::unknownOpHook(opName);
}

//===----------------------------------------------------------------------===//
// Tensor-memory layouts: `<key = value, ...>`, in Triton's key order, keys
// at their default value left out
//===----------------------------------------------------------------------===//

namespace {
/// A parsed `<key = value, ...>` list: unsigned integers and booleans.
class KeyValues {
public:
  explicit KeyValues(AsmParser &parser) : parser(parser) {
    failed = failed ||
             parser.parseCommaSeparatedList(
                 AsmParser::Delimiter::LessGreater, [&]() -> ParseResult {
                   StringRef key;
                   if (parser.parseKeyword(&key) || parser.parseEqual())
                     return failure();
                   if (succeeded(parser.parseOptionalKeyword("true")))
                     values.push_back({key, 1, true});
                   else if (succeeded(parser.parseOptionalKeyword("false")))
                     values.push_back({key, 0, true});
                   else if (parser.parseInteger(values.emplace_back().value))
                     return failure();
                   values.back().key = key;
                   return success();
                 });
  }

  unsigned get(StringRef key, std::optional<unsigned> defaultValue = {}) {
    return take(key, /*isBool=*/false, defaultValue);
  }
  bool getBool(StringRef key) { return take(key, /*isBool=*/true, 0); }

  /// Fails on a key nobody asked for or given twice.
  bool ok() {
    for (const Entry &entry : values)
      if (!failed && llvm::count(used, entry.key) != 1) {
        parser.emitError(parser.getNameLoc(), "unexpected key '")
            << entry.key << "' (Triton 3.6 syntax)";
        failed = true;
      }
    return !failed;
  }

private:
  struct Entry {
    StringRef key;
    unsigned value = 0;
    bool isBool = false;
  };

  unsigned take(StringRef key, bool isBool,
                std::optional<unsigned> defaultValue) {
    used.push_back(key);
    for (const Entry &entry : values) {
      if (entry.key != key)
        continue;
      if (entry.isBool != isBool && !failed) {
        parser.emitError(parser.getNameLoc(), "expected '")
            << key << "' to be " << (isBool ? "true or false" : "an integer");
        failed = true;
      }
      return entry.value;
    }
    if (!defaultValue && !failed) {
      parser.emitError(parser.getNameLoc(), "expected '") << key << "'";
      failed = true;
    }
    return defaultValue.value_or(0);
  }

  AsmParser &parser;
  SmallVector<Entry> values;
  SmallVector<StringRef> used;
  bool failed = false;
};

/// Prints `<key = value, ...>`; `field` skips a value equal to its default.
class KeyValuePrinter {
public:
  explicit KeyValuePrinter(AsmPrinter &printer) : printer(printer) {
    printer << "<";
  }
  ~KeyValuePrinter() { printer << ">"; }
  KeyValuePrinter &field(StringRef key, unsigned value,
                         std::optional<unsigned> defaultValue = {}) {
    if (value != defaultValue)
      separator() << key << " = " << value;
    return *this;
  }
  KeyValuePrinter &flag(StringRef key, bool value) {
    if (value)
      separator() << key << " = true";
    return *this;
  }

private:
  AsmPrinter &separator() {
    printer << (first ? "" : ", ");
    first = false;
    return printer;
  }
  AsmPrinter &printer;
  bool first = true;
};
} // namespace

Attribute TensorMemoryEncodingAttr::parse(AsmParser &parser, Type) {
  KeyValues body(parser);
  unsigned blockM = body.get("blockM");
  unsigned blockN = body.get("blockN");
  unsigned colStride = body.get("colStride");
  unsigned splitM = body.get("CTASplitM", 1);
  unsigned splitN = body.get("CTASplitN", 1);
  bool twoCTAs = body.getBool("twoCTAs");
  if (!body.ok())
    return {};
  return TensorMemoryEncodingAttr::get(parser.getContext(), blockM, blockN,
                                       colStride, splitM, splitN, twoCTAs);
}

void TensorMemoryEncodingAttr::print(AsmPrinter &printer) const {
  KeyValuePrinter(printer)
      .field("blockM", getBlockM())
      .field("blockN", getBlockN())
      .field("colStride", getColStride())
      .field("CTASplitM", getCTASplitM(), 1)
      .field("CTASplitN", getCTASplitN(), 1)
      .flag("twoCTAs", getTwoCTAs());
}

Attribute TensorMemoryScalesEncodingAttr::parse(AsmParser &parser, Type) {
  KeyValues body(parser);
  unsigned splitM = body.get("CTASplitM", 1);
  unsigned splitN = body.get("CTASplitN", 1);
  if (!body.ok())
    return {};
  return TensorMemoryScalesEncodingAttr::get(parser.getContext(), splitM,
                                             splitN);
}

void TensorMemoryScalesEncodingAttr::print(AsmPrinter &printer) const {
  KeyValuePrinter(printer)
      .field("CTASplitM", getCTASplitM(), 1)
      .field("CTASplitN", getCTASplitN(), 1);
}
