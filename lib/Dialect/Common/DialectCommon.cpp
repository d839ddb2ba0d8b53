//===- DialectCommon.cpp - Shared pieces of the tle and iluvatar_tle dialects =//
#include "TLE/Dialect/Common/DialectCommon.h"

#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "mlir/IR/TypeUtilities.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

// Triton's shared-memory address space.
static constexpr int kSharedAddressSpace = 3;

std::optional<unsigned> tle::common::cudaCapability(StringRef target) {
  unsigned capability;
  if (!target.consume_front("cuda:") || target.getAsInteger(10, capability))
    return std::nullopt;
  return capability;
}

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
    return op->emitOpError() << tileName << " has rank " << tileShape.size()
                             << " but the source has rank " << srcShape.size();

  SmallVector<int64_t> grid;
  int64_t numTiles = 1;
  for (auto [dim, pair] : llvm::enumerate(llvm::zip(srcShape, tileShape))) {
    auto [srcDim, tileDim] = pair;
    if (srcDim <= 0)
      return op->emitOpError()
             << "source dimension " << dim << " is "
             << (ShapedType::isDynamic(srcDim) ? std::string("dynamic")
                                               : std::to_string(srcDim))
             << "; expected > 0";
    if (tileDim <= 0)
      return op->emitOpError() << tileName << " dimension " << dim << " is "
                               << tileDim << "; expected > 0";
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
           << value << " is out of bounds for a " << gridText << " tile grid ("
           << numTiles << " tiles)";
  }
  return success();
}

LogicalResult tle::common::verifyLocalPointers(Operation *op,
                                               ttg::MemDescType buffer,
                                               OperandRange indices,
                                               Type resultType) {
  if (!isa<ttg::SharedMemorySpaceAttr>(buffer.getMemorySpace()))
    return op->emitOpError("expects a buffer in #ttg.shared_memory, got ")
           << buffer.getMemorySpace();

  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(resultType));
  if (pointer.getAddressSpace() != kSharedAddressSpace)
    return op->emitOpError("result pointers must be in address space 3 "
                           "(shared memory), got address space ")
           << pointer.getAddressSpace();
  if (pointer.getPointeeType() != buffer.getElementType())
    return op->emitOpError("result pointee type ")
           << pointer.getPointeeType() << " must equal the buffer element type "
           << buffer.getElementType();
  // The pointers live in registers: a shared layout (or a memory space) is
  // no layout for them, and the lowerings slice the result's layout.
  if (resultTensor && resultTensor.getEncoding() &&
      !isa<VerifiableTensorEncoding>(resultTensor.getEncoding()))
    return op->emitOpError("result encoding must be a distributed (register) "
                           "layout, got ")
           << resultTensor.getEncoding();

  if (indices.empty()) {
    if (!resultTensor || resultTensor.getShape() != buffer.getShape())
      return op->emitOpError("full view (no indices) must produce a tensor "
                             "of pointers of the buffer shape ")
             << shapeStr(buffer.getShape()) << ", got " << resultType;
    return success();
  }

  if (indices.size() != static_cast<size_t>(buffer.getRank()))
    return op->emitOpError("expects ")
           << buffer.getRank() << " indices (the buffer rank), got "
           << indices.size();
  size_t numTensors = llvm::count_if(indices, [](Value index) {
    return isa<RankedTensorType>(index.getType());
  });
  if (numTensors != 0 && numTensors != indices.size())
    return op->emitOpError(
        "indices must be all scalars or all tensors, not a mix");

  if (numTensors == 0) {
    if (resultTensor)
      return op->emitOpError(
                 "scalar indices must produce a scalar pointer, got ")
             << resultType;
    return success();
  }
  if (!resultTensor)
    return op->emitOpError(
               "tensor indices must produce a tensor of pointers, got ")
           << resultType;
  for (auto [position, index] : llvm::enumerate(indices)) {
    auto indexType = cast<RankedTensorType>(index.getType());
    if (indexType.getShape() != resultTensor.getShape())
      return op->emitOpError("index #")
             << position << " shape " << shapeStr(indexType.getShape())
             << " must equal the result shape "
             << shapeStr(resultTensor.getShape());
    if (indexType.getEncoding() != resultTensor.getEncoding())
      return op->emitOpError("index #")
             << position << " encoding " << encodingStr(indexType.getEncoding())
             << " must equal the result encoding "
             << encodingStr(resultTensor.getEncoding());
  }
  return success();
}
