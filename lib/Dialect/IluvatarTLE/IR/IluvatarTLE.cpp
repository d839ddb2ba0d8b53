//===- IluvatarTLE.cpp - The iluvatar_tle dialect: verifiers, assembly ----===//
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLE.h"
#include "TLE/Dialect/Common/DialectCommon.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::iluvatar_tle;
using mlir::tle::common::encodingStr;
using mlir::tle::common::shapeStr;

#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEDialect.cpp.inc"
#define GET_OP_CLASSES
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEOps.cpp.inc"

void IluvatarTLEDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LocalPointersOp
//===----------------------------------------------------------------------===//

LogicalResult LocalPointersOp::verify() {
  return mlir::tle::common::verifyLocalPointers(
      *this, getBuffer().getType(), getIndices(), getResult().getType());
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

ParseResult ExtractTileOp::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  return mlir::tle::common::parseTileIndex(parser, index, staticIndex);
}

void ExtractTileOp::printTileIndex(OpAsmPrinter &printer, Operation *,
                                   Value index, IntegerAttr staticIndex) {
  mlir::tle::common::printTileIndex(printer, index, staticIndex);
}

ParseResult InsertTileOp::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  return mlir::tle::common::parseTileIndex(parser, index, staticIndex);
}

void InsertTileOp::printTileIndex(OpAsmPrinter &printer, Operation *,
                                  Value index, IntegerAttr staticIndex) {
  mlir::tle::common::printTileIndex(printer, index, staticIndex);
}

/// The Iluvatar tile lowering handles `#ttg.blocked` tensors only.
static LogicalResult verifyBlocked(Operation *op, RankedTensorType type,
                                   StringRef name) {
  if (!type.getEncoding())
    return op->emitOpError() << name << " must carry an encoding; got " << type;
  if (!isa<ttg::BlockedEncodingAttr>(type.getEncoding()))
    return op->emitOpError()
           << name
           << " encoding must be #ttg.blocked (BlockedEncodingAttr), got "
           << encodingStr(type.getEncoding());
  return success();
}

/// Static shapes and equal element types, then the shared tile-grid rules.
static LogicalResult verifyTiling(Operation *op, RankedTensorType src,
                                  RankedTensorType tile, StringRef tileName,
                                  Value index, IntegerAttr staticIndex) {
  if (!src.hasStaticShape() || !tile.hasStaticShape())
    return op->emitOpError("expects statically shaped tensors");
  if (tile.getElementType() != src.getElementType())
    return op->emitOpError()
           << tileName << " element type " << tile.getElementType()
           << " must equal the source element type " << src.getElementType();
  return mlir::tle::common::verifyTiling(op, src.getShape(), tile.getShape(),
                                         tileName, index, staticIndex);
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
