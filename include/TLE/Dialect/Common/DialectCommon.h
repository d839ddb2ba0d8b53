//===- DialectCommon.h - Shared pieces of the tle and iluvatar_tle dialects ===//
//
// Both dialects have local_pointers ops with the same rules, and
// extract_tile / insert_tile ops over a row-major tile grid with a static or
// dynamic index; both print shapes and encodings in
// diagnostics the same way. One definition serves both.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_COMMON_DIALECTCOMMON_H
#define TLE_DIALECT_COMMON_DIALECTCOMMON_H

#include "TLE/Interop/Triton/TTG.h"
#include "mlir/IR/OpImplementation.h"

#include <optional>
#include <string>

namespace mlir::tle::common {

/// The compute capability a `ttg.target` string names (`cuda:90` -> 90);
/// std::nullopt for other targets.
std::optional<unsigned> cudaCapability(StringRef target);

/// `[64, 32]`, with `?` for dynamic dimensions.
std::string shapeStr(ArrayRef<int64_t> shape);

/// An encoding for a diagnostic: the attribute, or `none`.
std::string encodingStr(Attribute encoding);

/// `%i` (a dynamic index operand) or `3` (a static index).
ParseResult parseTileIndex(OpAsmParser &parser,
                           std::optional<OpAsmParser::UnresolvedOperand> &index,
                           IntegerAttr &staticIndex);
void printTileIndex(OpAsmPrinter &printer, Value index,
                    IntegerAttr staticIndex);

/// Checks that `tileShape` (named `tileName` in messages) tiles `srcShape`,
/// that exactly one of `index` / `staticIndex` is set, and that the index,
/// when static or a constant, lies in the row-major tile grid.
LogicalResult verifyTiling(Operation *op, ArrayRef<int64_t> srcShape,
                           ArrayRef<int64_t> tileShape, StringRef tileName,
                           Value index, IntegerAttr staticIndex);

/// The rules of a local-pointers op (tle and iluvatar_tle alike): a
/// shared-memory buffer; pointers in address space 3 to its element type; no
/// indices for a full view of the buffer's shape, else one index per buffer
/// dimension, all scalars (a scalar pointer) or all tensors of the result's
/// shape and encoding.
LogicalResult verifyLocalPointers(Operation *op, ttg::MemDescType buffer,
                                  OperandRange indices, Type resultType);

} // namespace mlir::tle::common

#endif // TLE_DIALECT_COMMON_DIALECTCOMMON_H
