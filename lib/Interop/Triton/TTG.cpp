//===- TTG.cpp - Interop definition of Triton 3.6's `ttg` dialect ---------===//
//
// Parsers and printers here reproduce Triton 3.6.0's textual form exactly.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/Integer.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/Unknown.h"

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

namespace {
/// Gives the aliases Triton prints: `#blocked`, `#shared`, `#smem`, ...
struct TTGOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<NvidiaMmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<LinearEncodingAttr>(attr)) {
      os << "linear";
      return AliasResult::FinalAlias;
    }
    if (isa<SwizzledSharedEncodingAttr, NVMMASharedEncodingAttr>(attr)) {
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

std::optional<Dialect::ParseOpHook>
TTGDialect::getParseOperationHook(StringRef opName) const {
  return tle::interop::unknownOpHook(opName);
}

/// The program-shape attributes Triton sets on the module and reads with
/// getInt() as counts: `"ttg.num-warps" = 4 : i32` and the like. TLE's passes
/// read them too, so anything else (`4 : ui32`, `0 : i32`, `2^32`, `i32`)
/// is rejected here instead of asserting or dividing by zero there.
LogicalResult TTGDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().strref();
  if (!llvm::is_contained({StringRef(tle::interop::kNumWarpsAttr),
                           StringRef(tle::interop::kNumCTAsAttr),
                           StringRef(tle::interop::kThreadsPerWarpAttr),
                           StringRef(tle::interop::kTotalNumWarpsAttr)},
                          name))
    return success();
  std::optional<int64_t> value = tle::interop::signlessInt(attr.getValue(), 32);
  if (!value || *value <= 0)
    return op->emitOpError()
           << "attribute '" << name
           << "' must be a positive 32-bit integer, got " << attr.getValue();
  return success();
}

//===----------------------------------------------------------------------===//
// Triton's `<{key = value, ...}>` attribute bodies
//===----------------------------------------------------------------------===//

namespace {
/// Reads a parsed `<{...}>` body key by key; reports missing, ill-typed and
/// unknown keys at the attribute's location.
class Body {
public:
  explicit Body(AsmParser &parser) : parser(parser), loc(parser.getNameLoc()) {
    if (parser.parseLess() || parser.parseAttribute(dict) ||
        parser.parseGreater())
      failed = true;
  }

  /// A signless (or index) integer in [0, 2^32): what Triton reads with
  /// getInt() into an unsigned. Anything else (`4 : ui32`, `-1`,
  /// `4294967296`, `1.0`) is not.
  static std::optional<unsigned> asUnsigned(Attribute attr) {
    std::optional<int64_t> value = tle::interop::signlessInt(attr);
    if (!value || *value < 0 || *value > std::numeric_limits<unsigned>::max())
      return std::nullopt;
    return static_cast<unsigned>(*value);
  }

  unsigned getUnsigned(StringRef key) {
    std::optional<unsigned> value = asUnsigned(take(key));
    if (!value)
      return fail(key, "a non-negative integer"), 0;
    return *value;
  }
  std::optional<unsigned> getOptionalUnsigned(StringRef key) {
    if (!dict || !dict.get(key))
      return std::nullopt;
    return getUnsigned(key);
  }
  bool getBool(StringRef key) {
    auto value = dyn_cast_or_null<BoolAttr>(take(key));
    if (!value)
      return fail(key, "true or false"), false;
    return value.getValue();
  }
  bool getOptionalBool(StringRef key) {
    return dict && dict.get(key) ? getBool(key) : false;
  }
  SmallVector<unsigned> getUnsignedArray(StringRef key) {
    SmallVector<unsigned> values;
    auto array = dyn_cast_or_null<ArrayAttr>(take(key));
    if (!array)
      return fail(key, "an array of integers"), values;
    for (Attribute element : array) {
      std::optional<unsigned> value = asUnsigned(element);
      if (!value)
        return fail(key, "an array of non-negative integers"), values;
      values.push_back(*value);
    }
    return values;
  }
  /// An array of arrays of non-negative integers (linear-layout bases), kept
  /// as parsed.
  ArrayAttr getBases(StringRef key, bool optional = false) {
    if (optional && (!dict || !dict.get(key)))
      return {};
    auto array = dyn_cast_or_null<ArrayAttr>(take(key));
    bool ok = array && llvm::all_of(array, [](Attribute row) {
                auto inner = dyn_cast<ArrayAttr>(row);
                return inner && llvm::all_of(inner, [](Attribute a) {
                         return asUnsigned(a).has_value();
                       });
              });
    if (!ok)
      return fail(key, "an array of arrays of non-negative integers"),
             ArrayAttr();
    return array;
  }
  Attribute getAttr(StringRef key) {
    Attribute value = take(key);
    if (!value)
      fail(key, "an attribute");
    return value;
  }
  /// Fails on keys nobody asked for, then reports overall success.
  bool ok() {
    if (failed || !dict)
      return false;
    for (NamedAttribute entry : dict)
      if (!llvm::is_contained(used, entry.getName().strref())) {
        parser.emitError(loc, "unexpected key '")
            << entry.getName().strref() << "' (Triton 3.6 syntax)";
        return false;
      }
    return true;
  }

private:
  Attribute take(StringRef key) {
    used.push_back(key);
    return dict ? dict.get(key) : Attribute();
  }
  void fail(StringRef key, StringRef what) {
    if (!failed && dict)
      parser.emitError(loc, "expected '") << key << "' to be " << what;
    failed = true;
  }

  AsmParser &parser;
  SMLoc loc;
  DictionaryAttr dict;
  SmallVector<StringRef> used;
  bool failed = false;
};

/// Prints `key = value` pairs separated by commas, in call order.
class BodyPrinter {
public:
  explicit BodyPrinter(AsmPrinter &printer) : printer(printer) {
    printer << "<{";
  }
  ~BodyPrinter() { printer << "}>"; }
  BodyPrinter &key(StringRef name) {
    printer << (first ? "" : ", ") << name << " = ";
    first = false;
    return *this;
  }
  BodyPrinter &field(StringRef name, unsigned value) {
    key(name).printer << value;
    return *this;
  }
  BodyPrinter &field(StringRef name, bool value) {
    key(name).printer << (value ? "true" : "false");
    return *this;
  }
  BodyPrinter &field(StringRef name, ArrayRef<unsigned> values) {
    key(name).printer << "[";
    llvm::interleaveComma(values, printer);
    printer << "]";
    return *this;
  }
  BodyPrinter &field(StringRef name, Attribute value) {
    if (value)
      key(name).printer << value;
    return *this;
  }

private:
  AsmPrinter &printer;
  bool first = true;
};
} // namespace

//===----------------------------------------------------------------------===//
// Distributed encodings
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  auto spt = body.getUnsignedArray("sizePerThread");
  auto tpw = body.getUnsignedArray("threadsPerWarp");
  auto wpc = body.getUnsignedArray("warpsPerCTA");
  auto order = body.getUnsignedArray("order");
  ArrayAttr cga = body.getBases("CGALayout", /*optional=*/true);
  if (!body.ok())
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(), spt, tpw,
                                                wpc, order, cga);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter(printer)
      .field("sizePerThread", getSizePerThread())
      .field("threadsPerWarp", getThreadsPerWarp())
      .field("warpsPerCTA", getWarpsPerCTA())
      .field("order", getOrder())
      .field("CGALayout", getCGALayout());
}

/// `order` must be a permutation of [0, rank).
static LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef layout, ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned dim : order) {
    if (dim >= order.size() || seen[dim])
      return emitError() << layout
                         << " layout order must be a permutation of [0, "
                         << order.size() << ")";
    seen[dim] = true;
  }
  return success();
}

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order, ArrayAttr) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "blocked layout arrays must all have rank " << rank;
  // Counts of elements, lanes and warps: a zero one distributes nothing (and
  // hung triton-tle-lower-warp-specialize, found by the fuzzer).
  for (auto [name, counts] : {std::pair<StringRef, ArrayRef<unsigned>>{
                                  "sizePerThread", sizePerThread},
                              {"threadsPerWarp", threadsPerWarp},
                              {"warpsPerCTA", warpsPerCTA}})
    if (llvm::is_contained(counts, 0u))
      return emitError() << "blocked layout " << name
                         << " entries must be positive";
  return verifyOrder(emitError, "blocked", order);
}

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  unsigned dim = body.getUnsigned("dim");
  Attribute parent = body.getAttr("parent");
  if (!body.ok())
    return {};
  return SliceEncodingAttr::get(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter(printer).field("dim", getDim()).field("parent", getParent());
}

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  unsigned opIdx = body.getUnsigned("opIdx");
  Attribute parent = body.getAttr("parent");
  unsigned kWidth = body.getOptionalUnsigned("kWidth").value_or(0);
  if (!body.ok())
    return {};
  return parser.getChecked<DotOperandEncodingAttr>(parser.getContext(), opIdx,
                                                   parent, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter body(printer);
  body.field("opIdx", getOpIdx()).field("parent", getParent());
  if (getKWidth() != 0)
    body.field("kWidth", getKWidth());
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute, unsigned) {
  if (opIdx > 1)
    return emitError() << "dot operand index must be 0 or 1, got " << opIdx;
  return success();
}

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  unsigned major = body.getUnsigned("versionMajor");
  unsigned minor = body.getUnsigned("versionMinor");
  auto wpc = body.getUnsignedArray("warpsPerCTA");
  ArrayAttr cga = body.getBases("CGALayout", /*optional=*/true);
  auto instrShape = body.getUnsignedArray("instrShape");
  if (!body.ok())
    return {};
  return NvidiaMmaEncodingAttr::get(parser.getContext(), major, minor, wpc, cga,
                                    instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter(printer)
      .field("versionMajor", getVersionMajor())
      .field("versionMinor", getVersionMinor())
      .field("warpsPerCTA", getWarpsPerCTA())
      .field("CGALayout", getCGALayout())
      .field("instrShape", getInstrShape());
}

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  ArrayAttr reg = body.getBases("register");
  ArrayAttr lane = body.getBases("lane");
  ArrayAttr warp = body.getBases("warp");
  ArrayAttr block = body.getBases("block");
  if (!body.ok())
    return {};
  return LinearEncodingAttr::get(parser.getContext(), reg, lane, warp, block);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter(printer)
      .field("register", getRegisterBases())
      .field("lane", getLaneBases())
      .field("warp", getWarpBases())
      .field("block", getBlockBases());
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  unsigned vec = body.getUnsigned("vec");
  unsigned perPhase = body.getUnsigned("perPhase");
  unsigned maxPhase = body.getUnsigned("maxPhase");
  auto order = body.getUnsignedArray("order");
  ArrayAttr cga = body.getBases("CGALayout", /*optional=*/true);
  if (!body.ok())
    return {};
  return parser.getChecked<SwizzledSharedEncodingAttr>(
      parser.getContext(), vec, perPhase, maxPhase, order, cga);
}

LogicalResult
SwizzledSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned, unsigned, unsigned,
                                   ArrayRef<unsigned> order, ArrayAttr) {
  return verifyOrder(emitError, "swizzled_shared", order);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter(printer)
      .field("vec", getVec())
      .field("perPhase", getPerPhase())
      .field("maxPhase", getMaxPhase())
      .field("order", getOrder())
      .field("CGALayout", getCGALayout());
}

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  Body body(parser);
  unsigned swizzle = body.getUnsigned("swizzlingByteWidth");
  bool transposed = body.getBool("transposed");
  unsigned bits = body.getUnsigned("elementBitWidth");
  bool fp4Padded = body.getOptionalBool("fp4Padded");
  std::optional<unsigned> rank = body.getOptionalUnsigned("rank");
  ArrayAttr cga = body.getBases("CGALayout", /*optional=*/true);
  if (!body.ok())
    return {};
  if (!rank)
    rank = cga && !cga.empty() ? cast<ArrayAttr>(cga[0]).size() : 2;
  return NVMMASharedEncodingAttr::get(parser.getContext(), swizzle, transposed,
                                      bits, fp4Padded, *rank, cga);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  BodyPrinter body(printer);
  body.field("swizzlingByteWidth", getSwizzlingByteWidth())
      .field("transposed", getTransposed())
      .field("elementBitWidth", getElementBitWidth());
  if (getFp4Padded())
    body.field("fp4Padded", true);
  if (!getCGALayout() && getRank() != 2)
    body.field("rank", getRank());
  body.field("CGALayout", getCGALayout());
}

//===----------------------------------------------------------------------===//
// Encodings on tensors (VerifiableTensorEncoding)
//===----------------------------------------------------------------------===//

/// The length of the first basis vector of a linear layout, if it has one.
static std::optional<unsigned> linearRank(LinearEncodingAttr linear) {
  for (ArrayAttr bases : {linear.getRegisterBases(), linear.getLaneBases(),
                          linear.getWarpBases(), linear.getBlockBases()})
    for (Attribute basis : bases)
      return cast<ArrayAttr>(basis).size();
  return std::nullopt;
}

std::optional<unsigned> mlir::ttg::getLayoutRank(Attribute layout) {
  return TypeSwitch<Attribute, std::optional<unsigned>>(layout)
      .Case([](BlockedEncodingAttr blocked) { return blocked.getRank(); })
      .Case([](NvidiaMmaEncodingAttr mma) {
        return static_cast<unsigned>(mma.getWarpsPerCTA().size());
      })
      .Case([](SliceEncodingAttr slice) -> std::optional<unsigned> {
        std::optional<unsigned> parent = getLayoutRank(slice.getParent());
        if (!parent || *parent == 0)
          return std::nullopt;
        return *parent - 1;
      })
      .Case([](DotOperandEncodingAttr dot) {
        return getLayoutRank(dot.getParent());
      })
      .Case([](LinearEncodingAttr linear) { return linearRank(linear); })
      .Default([](Attribute) { return std::nullopt; });
}

/// A distributed layout of known rank must have the tensor's rank.
static LogicalResult
verifyLayoutRank(Attribute layout, StringRef name, ArrayRef<int64_t> shape,
                 function_ref<InFlightDiagnostic()> emitError) {
  std::optional<unsigned> rank = getLayoutRank(layout);
  if (rank && *rank != shape.size())
    return emitError() << name << " layout " << layout << " has rank " << *rank
                       << ", but the tensor it is attached to has rank "
                       << shape.size();
  return success();
}

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutRank(*this, "blocked", shape, emitError);
}

LogicalResult NvidiaMmaEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLayoutRank(*this, "nvidia_mma", shape, emitError);
}

LogicalResult LinearEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type,
    function_ref<InFlightDiagnostic()> emitError) const {
  for (ArrayAttr bases :
       {getRegisterBases(), getLaneBases(), getWarpBases(), getBlockBases()})
    for (Attribute basis : bases)
      if (cast<ArrayAttr>(basis).size() != shape.size())
        return emitError() << "linear layout " << *this << " has a basis "
                           << basis << " of length "
                           << cast<ArrayAttr>(basis).size()
                           << ", but the tensor it is attached to has rank "
                           << shape.size();
  return success();
}

/// The parent of a slice or dot operand layout must be a distributed layout
/// itself valid for a tensor of rank `parentRank`.
static LogicalResult
verifyParent(Attribute parent, StringRef name, size_t parentRank, Type element,
             function_ref<InFlightDiagnostic()> emitError) {
  auto verifiable = dyn_cast<VerifiableTensorEncoding>(parent);
  if (!verifiable)
    return emitError() << name
                       << " layout parent must be a distributed layout, got "
                       << parent;
  return verifiable.verifyEncoding(SmallVector<int64_t>(parentRank, 1), element,
                                   emitError);
}

LogicalResult SliceEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (getDim() > shape.size())
    return emitError() << "slice layout " << *this << " removes dimension "
                       << getDim() << " of a rank-" << shape.size() + 1
                       << " parent";
  return verifyParent(getParent(), "slice", shape.size() + 1, element,
                      emitError);
}

LogicalResult DotOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyParent(getParent(), "dot_op", shape.size(), element, emitError);
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
