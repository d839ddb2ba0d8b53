//===- IluvatarTLE.cpp - The iluvatar_tle dialect: verifiers, assembly ----===//
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLE.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::iluvatar_tle;

#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEDialect.cpp.inc"
#define GET_OP_CLASSES
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEOps.cpp.inc"

void IluvatarTLEDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEOps.cpp.inc"
      >();
}

static constexpr int kSharedAddressSpace = 3;

/// `[64, 32]`.
static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}

/// An encoding for a diagnostic: the attribute, or `none`.
static std::string encodingStr(Attribute encoding) {
  if (!encoding)
    return "none";
  std::string text;
  llvm::raw_string_ostream os(text);
  encoding.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// LocalPointersOp
//===----------------------------------------------------------------------===//

LogicalResult LocalPointersOp::verify() {
  ttg::MemDescType buffer = getBuffer().getType();
  if (!isa<ttg::SharedMemorySpaceAttr>(buffer.getMemorySpace()))
    return emitOpError("expects a buffer in #ttg.shared_memory, got ")
           << buffer.getMemorySpace();

  Type resultType = getResult().getType();
  auto resultTensor = dyn_cast<RankedTensorType>(resultType);
  auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(resultType));
  if (pointer.getAddressSpace() != kSharedAddressSpace)
    return emitOpError("result pointers must be in address space 3 (shared "
                       "memory), got address space ")
           << pointer.getAddressSpace();
  if (pointer.getPointeeType() != buffer.getElementType())
    return emitOpError("result pointee type ")
           << pointer.getPointeeType() << " must equal the buffer element type "
           << buffer.getElementType();

  OperandRange indices = getIndices();
  if (indices.empty()) {
    if (!resultTensor || resultTensor.getShape() != buffer.getShape())
      return emitOpError("full view (no indices) must produce a tensor of "
                         "pointers of the buffer shape ")
             << shapeStr(buffer.getShape()) << ", got " << resultType;
    return success();
  }
  if (indices.size() != static_cast<size_t>(buffer.getRank()))
    return emitOpError("expects ")
           << buffer.getRank() << " indices (the buffer rank), got "
           << indices.size();
  size_t numTensors = llvm::count_if(indices, [](Value index) {
    return isa<RankedTensorType>(index.getType());
  });
  if (numTensors != 0 && numTensors != indices.size())
    return emitOpError("indices must be all scalars or all tensors, not a mix");
  if (numTensors == 0) {
    if (resultTensor)
      return emitOpError("scalar indices must produce a scalar pointer, got ")
             << resultType;
    return success();
  }
  if (!resultTensor)
    return emitOpError("tensor indices must produce a tensor of pointers, got ")
           << resultType;
  for (auto [position, index] : llvm::enumerate(indices)) {
    auto indexType = cast<RankedTensorType>(index.getType());
    if (indexType.getShape() != resultTensor.getShape())
      return emitOpError("index #")
             << position << " shape " << shapeStr(indexType.getShape())
             << " must equal the result shape "
             << shapeStr(resultTensor.getShape());
    if (indexType.getEncoding() != resultTensor.getEncoding())
      return emitOpError("index #")
             << position << " encoding " << encodingStr(indexType.getEncoding())
             << " must equal the result encoding "
             << encodingStr(resultTensor.getEncoding());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

static ParseResult
parseTileIndexImpl(OpAsmParser &parser,
                   std::optional<OpAsmParser::UnresolvedOperand> &index,
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

static void printTileIndexImpl(OpAsmPrinter &printer, Value index,
                               IntegerAttr staticIndex) {
  if (index)
    printer << index;
  else if (staticIndex)
    printer << staticIndex.getInt();
}

ParseResult ExtractTileOp::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  return parseTileIndexImpl(parser, index, staticIndex);
}

void ExtractTileOp::printTileIndex(OpAsmPrinter &printer, Operation *,
                                   Value index, IntegerAttr staticIndex) {
  printTileIndexImpl(printer, index, staticIndex);
}

ParseResult InsertTileOp::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  return parseTileIndexImpl(parser, index, staticIndex);
}

void InsertTileOp::printTileIndex(OpAsmPrinter &printer, Operation *,
                                  Value index, IntegerAttr staticIndex) {
  printTileIndexImpl(printer, index, staticIndex);
}

/// The Iluvatar tile lowering handles `#ttg.blocked` tensors only.
static LogicalResult verifyBlocked(Operation *op, RankedTensorType type,
                                   StringRef name) {
  if (!type.getEncoding())
    return op->emitOpError() << name << " must carry an encoding; got " << type;
  if (!isa<ttg::BlockedEncodingAttr>(type.getEncoding()))
    return op->emitOpError()
           << name << " encoding must be #ttg.blocked (BlockedEncodingAttr), got "
           << encodingStr(type.getEncoding());
  return success();
}

/// `tileShape` tiles `srcShape`, and the static or constant index lies in
/// the row-major tile grid.
static LogicalResult verifyTiling(Operation *op, RankedTensorType src,
                                  RankedTensorType tile, StringRef tileName,
                                  Value index, IntegerAttr staticIndex) {
  if (static_cast<bool>(index) == static_cast<bool>(staticIndex))
    return op->emitOpError("expects exactly one of a static index attribute "
                           "or a dynamic index operand");
  if (!src.hasStaticShape() || !tile.hasStaticShape())
    return op->emitOpError("expects statically shaped tensors");
  if (tile.getElementType() != src.getElementType())
    return op->emitOpError()
           << tileName << " element type " << tile.getElementType()
           << " must equal the source element type " << src.getElementType();
  ArrayRef<int64_t> srcShape = src.getShape();
  ArrayRef<int64_t> tileShape = tile.getShape();
  if (tileShape.size() != srcShape.size())
    return op->emitOpError()
           << tileName << " has rank " << tileShape.size()
           << " but the source has rank " << srcShape.size();
  int64_t numTiles = 1;
  for (auto [dim, pair] : llvm::enumerate(llvm::zip(srcShape, tileShape))) {
    auto [srcDim, tileDim] = pair;
    if (tileDim <= 0)
      return op->emitOpError() << tileName << " dimension " << dim << " is "
                               << tileDim << "; expected > 0";
    if (srcDim % tileDim != 0)
      return op->emitOpError()
             << tileName << " dimension " << dim << " (" << tileDim
             << ") does not divide the source dimension (" << srcDim << ")";
    numTiles *= srcDim / tileDim;
  }
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
    value = llvm::toString(constant, 10, /*Signed=*/true);
    inBounds = constant.getSignificantBits() <= 64 &&
               constant.getSExtValue() >= 0 &&
               constant.getSExtValue() < numTiles;
  }
  if (!inBounds)
    return op->emitOpError("tile index ")
           << value << " is out of bounds (" << numTiles << " tiles)";
  return success();
}

LogicalResult ExtractTileOp::verify() {
  RankedTensorType src = getSrc().getType();
  RankedTensorType result = getResult().getType();
  if (failed(verifyBlocked(*this, src, "source")) ||
      failed(verifyBlocked(*this, result, "result")))
    return failure();
  return verifyTiling(*this, src, result, "result", getIndex(),
                      getStaticIndexAttr());
}

LogicalResult InsertTileOp::verify() {
  RankedTensorType src = getSrc().getType();
  RankedTensorType tile = getTile().getType();
  if (failed(verifyBlocked(*this, src, "source")) ||
      failed(verifyBlocked(*this, tile, "tile")))
    return failure();
  return verifyTiling(*this, src, tile, "tile", getIndex(),
                      getStaticIndexAttr());
}
