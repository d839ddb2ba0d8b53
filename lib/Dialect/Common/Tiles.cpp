//===- Tiles.cpp - Shared pieces of the tle and iluvatar_tle dialects -----===//
#include "TLE/Dialect/Common/Tiles.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string tle::common::shapeStr(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t dim) {
    if (ShapedType::isDynamic(dim))
      os << "?";
    else
      os << dim;
  });
  os << "]";
  return text;
}

std::string tle::common::encodingStr(Attribute encoding) {
  if (!encoding)
    return "none";
  std::string text;
  llvm::raw_string_ostream os(text);
  encoding.print(os);
  return text;
}

ParseResult tle::common::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult parsed = parser.parseOptionalOperand(operand);
  if (parsed.has_value()) {
    if (failed(*parsed))
      return failure();
    index = operand;
    return success();
  }
  int64_t value;
  if (parser.parseInteger(value))
    return failure();
  staticIndex = parser.getBuilder().getI64IntegerAttr(value);
  return success();
}

void tle::common::printTileIndex(OpAsmPrinter &printer, Value index,
                                 IntegerAttr staticIndex) {
  if (index)
    printer << index;
  else if (staticIndex)
    printer << staticIndex.getInt();
}

LogicalResult tle::common::verifyTiling(Operation *op,
                                        ArrayRef<int64_t> srcShape,
                                        ArrayRef<int64_t> tileShape,
                                        StringRef tileName, Value index,
                                        IntegerAttr staticIndex) {
  if (static_cast<bool>(index) == static_cast<bool>(staticIndex))
    return op->emitOpError("expects exactly one of a static index attribute "
                           "or a dynamic index operand");
  if (tileShape.size() != srcShape.size())
    return op->emitOpError()
           << tileName << " has rank " << tileShape.size()
           << " but the source has rank " << srcShape.size();

  SmallVector<int64_t> grid;
  int64_t numTiles = 1;
  for (auto [dim, pair] : llvm::enumerate(llvm::zip(srcShape, tileShape))) {
    auto [srcDim, tileDim] = pair;
    if (tileDim <= 0)
      return op->emitOpError()
             << tileName << " dimension " << dim << " is " << tileDim
             << "; expected > 0";
    if (srcDim % tileDim != 0)
      return op->emitOpError()
             << tileName << " dimension " << dim << " (" << tileDim
             << ") does not divide the source dimension (" << srcDim << ")";
    grid.push_back(srcDim / tileDim);
    numTiles *= srcDim / tileDim;
  }

  // The index, when known: the attribute or a constant operand.
  std::string value;
  bool inBounds = true;
  if (staticIndex) {
    int64_t linear = staticIndex.getInt();
    value = std::to_string(linear);
    inBounds = linear >= 0 && linear < numTiles;
  } else {
    APInt constant;
    if (!matchPattern(index, m_ConstantInt(&constant)))
      return success();
    // Triton integers are signed.
    value = llvm::toString(constant, 10, /*Signed=*/true);
    inBounds = constant.getSignificantBits() <= 64 &&
               constant.getSExtValue() >= 0 &&
               constant.getSExtValue() < numTiles;
  }
  if (!inBounds) {
    std::string gridText;
    llvm::raw_string_ostream os(gridText);
    llvm::interleave(grid, os, "x");
    return op->emitOpError("tile index ")
           << value << " is out of bounds for a " << gridText
           << " tile grid (" << numTiles << " tiles)";
  }
  return success();
}
