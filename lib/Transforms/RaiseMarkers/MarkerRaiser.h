//===- MarkerRaiser.h - the parts of triton-tle-raise-markers ---*- C++ -*-===//
//
// The reading side of docs/markers.md: a `tt.elementwise_inline_asm` whose asm
// string is `tle.<op> {attrs}` stands for that tle op. The pass raises every
// registered tle op the same way (it has no per-op code): what differs
// between markers is which `tle.marker.*` keys they carry, and each key
// belongs to the op family that brought it into the convention. The pass is
// split along those lines:
//
//   MarkerRaiser.cpp     what every marker has: the op name and the
//                        attribute dictionary, scalar operands, result types
//                        (`result_types`, `no_results`); builds, verifies and
//                        substitutes the op
//   NarrowedResults.cpp  `narrowed`: results picked down one axis
//                        (tle.exclusive_cumsum's total)
//   Tiles.cpp            `tile_shape`, `tiled_operands`, `tiled_results`
//                        (tle.extract_tile / tle.insert_tile, tle.reshard)
//   Regions.cpp          `region`: the body of tle.dsl_region (TLE-Raw)
//   Buffers.cpp          buffer handles: results typed !ttg.memdesc (local
//                        memory, tle.pipe.slot), !tle.pipe or !tle.dsa.buffer
//   Descriptors.cpp      `descriptor`: a result that is a tensor descriptor,
//                        made by Triton from the marker's base pointer
//   RaiseMarkers.cpp     the pass: raises every marker, then erases the
//                        markers of buffer handles
//
// A key is honoured on every marker, not only on its family's ops.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_TRANSFORMS_RAISEMARKERS_MARKER_H
#define TLE_LIB_TRANSFORMS_RAISEMARKERS_MARKER_H

#include "TLE/Dialect/TLE/IR/TLE.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tle::raise_markers {

constexpr llvm::StringLiteral kResultTypes = "tle.marker.result_types";

/// State shared by the markers of one run.
struct RaiseState {
  /// Buffer handle (a marker result) -> the buffer (the raised op's result).
  llvm::DenseMap<Value, Value> handles;
  /// Markers that produce handles: erased once every marker is raised.
  SmallVector<Operation *> handleMarkers;
  /// verify-only: raised ops kept until the end so later markers can take
  /// their buffers; erased, newest first, at the end.
  SmallVector<Operation *> temporaries;
  /// Markers declaring result types (possible buffers) that could not be
  /// raised: markers taking their results stay quiet.
  llvm::DenseSet<Operation *> failed;
};

// MarkerRaiser.cpp.

/// A `tt.elementwise_inline_asm` naming a tle op (not a region marker).
bool isMarker(tt::ElementwiseInlineAsmOp op);

/// Same shape and element type, different encodings: a ttg.convert_layout
/// turns one into the other.
bool isBridgeable(Type from, Type to);

/// The keys listing a marker's narrowed and tiled results.
inline constexpr llvm::StringLiteral kNarrowed = "tle.marker.narrowed";
inline constexpr llvm::StringLiteral kTiledResults = "tle.marker.tiled_results";
/// The key of a marker whose result is a tensor descriptor's base.
inline constexpr llvm::StringLiteral kDescriptor = "tle.marker.descriptor";

/// The indices a marker's attributes list under `key` (an
/// `array<i32: ...>`), or none: also when its text does not parse, which
/// is reported only when the marker is raised.
SmallVector<unsigned> listedIndices(tt::ElementwiseInlineAsmOp marker,
                                    StringRef key);

/// Ops a buffer handle (or a scalar operand) may pass through on its way to a
/// marker: they only change its shape or encoding.
bool isHandleCarrier(Operation *op);

/// Erases the op defining `value` if it is dead and `isCarrier` holds for
/// it, then, recursively, the carriers feeding it that become dead.
void eraseDeadCarriers(Value value,
                       bool (*isCarrier)(Operation *) = isHandleCarrier);

// NarrowedResults.cpp.

/// A `tt.reduce` of one tensor whose combining body returns its first
/// argument: it only changes the shape (and, in TTGIR, the encoding).
bool isPickReduce(tt::ReduceOp reduce);

/// Follows `value` through its single-use ttg.convert_layouts, appending
/// them to `converts`; returns the last one's result (or `value`).
Value followConverts(Value value, SmallVectorImpl<Operation *> &converts);

// Tiles.cpp.

/// Ops the frontend uses to repeat a tile over its tile grid
/// (docs/markers.md, "Tiles").
bool isTileCarrier(Operation *op);

// Buffers.cpp.

/// A result type that makes a marker result a buffer handle.
bool isBufferType(Type type);

/// Erases the markers of buffer handles, newest first, with the carriers of
/// their handles. Fails, after reporting, if a handle is still used.
LogicalResult eraseHandleMarkers(RaiseState &state);

/// Raises one marker: reads its keys, collects the values the op takes and
/// replaces, builds and verifies the op, then replaces the marker. The
/// members for a family's keys are defined in that family's file.
class MarkerRaiser {
public:
  MarkerRaiser(tt::ElementwiseInlineAsmOp marker, bool verifyOnly,
               RaiseState &state)
      : marker(marker), verifyOnly(verifyOnly), state(state) {}

  LogicalResult raise();

private:
  InFlightDiagnostic emitError() { return marker.emitError(); }

  // MarkerRaiser.cpp: every marker.
  LogicalResult parseAsmString();
  /// Removes `key` from the attributes and reads it as distinct indices
  /// below `limit`.
  LogicalResult takeIndices(StringRef key, unsigned limit, StringRef what,
                            SmallVectorImpl<unsigned> &indices);
  LogicalResult collectOperands();
  LogicalResult collectResultTypes();
  /// Creates the op before the marker; null (after reporting) if it is
  /// invalid.
  Operation *buildOp();

  // NarrowedResults.cpp: `tle.marker.narrowed`.
  LogicalResult readNarrowed();
  LogicalResult collectNarrowed();
  /// Before the op is built: an unused narrowed result needs inference.
  LogicalResult checkNarrowedTypes();

  // Tiles.cpp: `tle.marker.tile_shape`, `tiled_operands`, `tiled_results`.
  LogicalResult readTiles();
  /// After every key is read: `tile_shape` goes with a tiled key.
  LogicalResult checkTileKeys();
  LogicalResult collectTiled();

  // Regions.cpp: `tle.marker.region`.
  LogicalResult readRegion();
  LogicalResult parseRegion(Region &region);

  // Descriptors.cpp: `tle.marker.descriptor`.
  LogicalResult readDescriptor();
  /// After the result types are read: the descriptor made from the
  /// marker's result becomes the op's result; Triton's making of it goes.
  LogicalResult collectDescriptor();

  // Buffers.cpp: buffer handles.
  /// Every use of the handle `index` reaches a marker, through carriers only.
  LogicalResult checkHandleUses(unsigned index);

  tt::ElementwiseInlineAsmOp marker;
  bool verifyOnly;
  RaiseState &state;

  StringRef name;
  std::optional<RegisteredOperationName> opName;
  NamedAttrList attrs;
  SmallVector<unsigned> scalarOperands;
  /// `tle.marker.result_types`, when given: the op's result types.
  SmallVector<Type> resultTypes;
  bool hasResultTypes = false;
  /// `tle.marker.no_results = true`.
  bool noResults = false;
  /// Marker results that are buffer handles.
  SmallVector<unsigned> handleResults;
  SmallVector<Value> operands;
  /// Per marker result, the value the op's result replaces: the marker's
  /// result, or the pick reduce's for a narrowed or tiled one; null for a
  /// narrowed or tiled result nobody uses.
  SmallVector<Value> replaced;
  /// Pick reduces and the ops before them, in erasure order.
  SmallVector<Operation *> chains;

  /// `tle.marker.narrowed`.
  SmallVector<unsigned> narrowed;
  /// `tle.marker.tiled_operands` / `tiled_results` and `tile_shape`.
  SmallVector<unsigned> tiledOperands, tiledResults;
  SmallVector<int64_t> tileShape;
  /// Types of tiled results nobody uses.
  llvm::DenseMap<unsigned, Type> unusedTiledTypes;
  /// `tle.marker.descriptor = true`.
  bool descriptor = false;
  /// `tle.marker.region`: the text of a func.func whose body becomes the
  /// op's one region.
  StringAttr regionSource;
};

} // namespace mlir::tle::raise_markers

#endif // TLE_LIB_TRANSFORMS_RAISEMARKERS_MARKER_H
