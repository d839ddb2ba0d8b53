//===- DSA.cpp - DSA buffer type and tle.dsa.* ops ------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tle;

namespace {
/// "16x16", with "?" for dynamic sizes.
std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleave(
      shape, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      "x");
  return s;
}
} // namespace

//===----------------------------------------------------------------------===//
// !tle.dsa.buffer
//===----------------------------------------------------------------------===//

Type DSABufferType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma())
    return {};
  FailureOr<DSAAddressSpace> space =
      FieldParser<DSAAddressSpace>::parse(parser);
  if (failed(space) || parser.parseGreater())
    return {};
  return parser.getChecked<DSABufferType>(
      loc, parser.getContext(), ArrayRef<int64_t>(shape), elementType, *space);
}

void DSABufferType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t d : getShape())
    printer << d << 'x';
  printer << getElementType() << ", " << stringifyDSAAddressSpace(getSpace())
          << '>';
}

LogicalResult
DSABufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, Type elementType,
                      DSAAddressSpace space) {
  if (shape.empty())
    return emitError() << "dsa buffer must have rank >= 1";
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "dsa buffer needs a static shape with positive "
                          "sizes, got "
                       << shapeString(shape);
  if (!elementType.isSignlessIntOrFloat())
    return emitError() << "dsa buffer element type must be a signless "
                          "integer or floating-point type, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
/// Shape, element type and place (nullopt = global memory) of a copy end.
struct Endpoint {
  ArrayRef<int64_t> shape;
  Type elementType;
  std::optional<DSAAddressSpace> space;
};

Endpoint describe(Type type) {
  if (auto buffer = dyn_cast<DSABufferType>(type))
    return {buffer.getShape(), buffer.getElementType(), buffer.getSpace()};
  auto tensor = cast<RankedTensorType>(type);
  return {tensor.getShape(),
          cast<tt::PointerType>(tensor.getElementType()).getPointeeType(),
          std::nullopt};
}

StringRef placeName(std::optional<DSAAddressSpace> space) {
  return space ? stringifyDSAAddressSpace(*space) : StringRef("GM");
}

/// The data paths `tle.dsa.copy` accepts (see its description).
bool isLegalMove(std::optional<DSAAddressSpace> from,
                 std::optional<DSAAddressSpace> to) {
  using S = DSAAddressSpace;
  if (!from)
    return to == S::UB || to == S::L1;
  switch (*from) {
  case S::UB:
    return !to || to == S::UB;
  case S::L1:
    return !to || to == S::L0A || to == S::L0B;
  case S::L0C:
    return !to || to == S::UB;
  case S::L0A:
  case S::L0B:
    return false;
  }
  return false;
}

constexpr StringLiteral kLegalMoves =
    "GM->UB, GM->L1, UB->GM, UB->UB, L1->GM, L1->L0A, L1->L0B, L0C->UB, "
    "L0C->GM";

/// `aName` and `bName` must agree on shape and element type.
LogicalResult verifySameShapeAndElement(Operation *op, StringRef aName,
                                        ArrayRef<int64_t> aShape, Type aElt,
                                        StringRef bName,
                                        ArrayRef<int64_t> bShape, Type bElt) {
  if (aShape != bShape)
    return op->emitOpError()
           << aName << " shape " << shapeString(aShape) << " does not match "
           << bName << " shape " << shapeString(bShape);
  if (aElt != bElt)
    return op->emitOpError()
           << aName << " element type " << aElt << " does not match " << bName
           << " element type " << bElt;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// tle.dsa.copy
//===----------------------------------------------------------------------===//

LogicalResult DSACopyOp::verify() {
  Type srcType = getSrc().getType(), dstType = getDst().getType();
  if (!isa<DSABufferType>(srcType) && !isa<DSABufferType>(dstType))
    return emitOpError("global-to-global copies are not supported; src or dst "
                       "must be a !tle.dsa.buffer");
  for (auto [name, type] : {std::pair<StringRef, Type>{"src", srcType},
                            std::pair<StringRef, Type>{"dst", dstType}}) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      continue;
    int addressSpace =
        cast<tt::PointerType>(tensor.getElementType()).getAddressSpace();
    if (addressSpace != 1)
      return emitOpError() << name
                           << " pointers must point to global memory "
                              "(address space 1), got address space "
                           << addressSpace;
  }

  Endpoint src = describe(srcType), dst = describe(dstType);
  if (failed(verifySameShapeAndElement(*this, "src", src.shape, src.elementType,
                                       "dst", dst.shape, dst.elementType)))
    return failure();
  if (!isLegalMove(src.space, dst.space))
    return emitOpError() << "no data path from " << placeName(src.space)
                         << " to " << placeName(dst.space)
                         << "; legal copies are " << kLegalMoves;

  if (getSizes().empty())
    return success();
  if (getSizes().size() != src.shape.size())
    return emitOpError() << "expects " << src.shape.size()
                         << " sizes (one per dimension), got "
                         << getSizes().size();
  for (auto [dim, size] : llvm::enumerate(getSizes())) {
    APInt value;
    if (!matchPattern(size, m_ConstantInt(&value)))
      continue;
    int64_t s = value.getSExtValue();
    if (s < 0 || s > src.shape[dim])
      return emitOpError() << "size " << s << " of dimension " << dim
                           << " is out of range [0, " << src.shape[dim] << "]";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tle.dsa.to_tensor / tle.dsa.to_buffer
//===----------------------------------------------------------------------===//

LogicalResult DSAToTensorOp::verify() {
  DSABufferType buffer = getBuffer().getType();
  RankedTensorType result = getResult().getType();
  return verifySameShapeAndElement(*this, "result", result.getShape(),
                                   result.getElementType(), "buffer",
                                   buffer.getShape(), buffer.getElementType());
}

LogicalResult DSAToBufferOp::verify() {
  RankedTensorType src = getSrc().getType();
  DSABufferType result = getResult().getType();
  return verifySameShapeAndElement(*this, "result", result.getShape(),
                                   result.getElementType(), "tensor",
                                   src.getShape(), src.getElementType());
}

//===----------------------------------------------------------------------===//
// tle.dsa.add / sub / mul / div / max / min
//===----------------------------------------------------------------------===//

namespace {
ParseResult parseBinaryTypes(OpAsmParser &parser, Type &lhs, Type &rhs,
                             Type &out) {
  if (parser.parseType(lhs))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    rhs = out = lhs;
    return success();
  }
  return failure(parser.parseType(rhs) || parser.parseComma() ||
                 parser.parseType(out));
}

void printBinaryTypes(OpAsmPrinter &printer, Type lhs, Type rhs, Type out) {
  printer << lhs;
  if (rhs != lhs || out != lhs)
    printer << ", " << rhs << ", " << out;
}

template <typename OpTy> LogicalResult verifyBinary(OpTy op) {
  DSABufferType lhs = op.getLhs().getType();
  for (auto [name, type] :
       {std::pair<StringRef, DSABufferType>{"rhs", op.getRhs().getType()},
        std::pair<StringRef, DSABufferType>{"out", op.getOut().getType()}})
    if (failed(verifySameShapeAndElement(op, name, type.getShape(),
                                         type.getElementType(), "lhs",
                                         lhs.getShape(), lhs.getElementType())))
      return failure();
  for (auto [name, type] :
       {std::pair<StringRef, DSABufferType>{"lhs", lhs},
        std::pair<StringRef, DSABufferType>{"rhs", op.getRhs().getType()},
        std::pair<StringRef, DSABufferType>{"out", op.getOut().getType()}})
    if (type.getSpace() != DSAAddressSpace::UB)
      return op.emitOpError()
             << name << " is in " << stringifyDSAAddressSpace(type.getSpace())
             << ", but the vector unit reads and writes only UB";
  if (!OpTy::kAllowsIntegers && !isa<FloatType>(lhs.getElementType()))
    return op.emitOpError() << "needs a floating-point element type, got "
                            << lhs.getElementType() << " (no integer division)";
  return success();
}
} // namespace

#define TLE_DSA_BINARY_OP(OP)                                                  \
  LogicalResult OP::verify() { return verifyBinary(*this); }                   \
  ParseResult OP::parseDSABinaryTypes(OpAsmParser &parser, Type &lhs,          \
                                      Type &rhs, Type &out) {                  \
    return parseBinaryTypes(parser, lhs, rhs, out);                            \
  }                                                                            \
  void OP::printDSABinaryTypes(OpAsmPrinter &printer, Operation *, Type lhs,   \
                               Type rhs, Type out) {                           \
    printBinaryTypes(printer, lhs, rhs, out);                                  \
  }

TLE_DSA_BINARY_OP(DSAAddOp)
TLE_DSA_BINARY_OP(DSASubOp)
TLE_DSA_BINARY_OP(DSAMulOp)
TLE_DSA_BINARY_OP(DSADivOp)
TLE_DSA_BINARY_OP(DSAMaxOp)
TLE_DSA_BINARY_OP(DSAMinOp)

#undef TLE_DSA_BINARY_OP
