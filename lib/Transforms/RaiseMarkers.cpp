//===- RaiseMarkers.cpp - raise frontend markers to tle ops ---------------===//
//
// The reading side of docs/markers.md: a `tt.elementwise_inline_asm` whose asm
// string is `tle.<op> {attrs}` stands for that tle op. Each marker is turned
// into the op it names, verified at the marker's location, and replaces the
// marker's results (and, for narrowed results, the pick reduces that shape
// them). Buffer handles (a marker result that `tle.marker.result_types`
// gives a `!ttg.memdesc` or `!tle.dsa.buffer` type) are handed to the later markers that take
// them, directly or through tt.splat / tt.broadcast / ttg.convert_layout.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "MarkerText.h"
#include "TLE/Interop/Triton/Integer.h"
#include "TLE/Transforms/Passes.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Parser/Parser.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLERAISEMARKERS
#include "TLE/Transforms/Passes.h.inc"

namespace {
constexpr llvm::StringLiteral kMarkerPrefix = "tle.";
constexpr llvm::StringLiteral kMetaPrefix = "tle.marker.";
constexpr llvm::StringLiteral kScalarOperands = "tle.marker.scalar_operands";
constexpr llvm::StringLiteral kNarrowed = "tle.marker.narrowed";
constexpr llvm::StringLiteral kResultTypes = "tle.marker.result_types";
constexpr llvm::StringLiteral kNoResults = "tle.marker.no_results";
constexpr llvm::StringLiteral kTileShape = "tle.marker.tile_shape";
constexpr llvm::StringLiteral kTiledOperands = "tle.marker.tiled_operands";
constexpr llvm::StringLiteral kTiledResults = "tle.marker.tiled_results";
constexpr llvm::StringLiteral kRegion = "tle.marker.region";

bool isMarker(tt::ElementwiseInlineAsmOp op) {
  StringRef text = op.getAsmString();
  // Region markers (tle.gpu.warp_specialize) stand for regions, not ops:
  // triton-tle-raise-warp-specialize reads them.
  if (text.starts_with("tle.warp_specialize") &&
      text.contains("tle.marker.partition"))
    return false;
  return text.starts_with(kMarkerPrefix);
}

/// A `tt.reduce` of one tensor whose combining body returns its first
/// argument: it only changes the shape (and, in TTGIR, the encoding).
bool isPickReduce(tt::ReduceOp reduce) {
  if (reduce->getNumOperands() != 1 || reduce->getNumResults() != 1)
    return false;
  Region &region = reduce->getRegion(0);
  if (!region.hasOneBlock())
    return false;
  Block &body = region.front();
  if (body.empty() || body.getNumArguments() < 1)
    return false;
  auto ret = dyn_cast<tt::ReduceReturnOp>(body.back());
  return ret && ret->getNumOperands() == 1 &&
         ret->getOperand(0) == body.getArgument(0);
}

/// Same shape and element type, different encodings: a ttg.convert_layout
/// turns one into the other.
bool isBridgeable(Type from, Type to) {
  auto fromTensor = dyn_cast<RankedTensorType>(from);
  auto toTensor = dyn_cast<RankedTensorType>(to);
  return fromTensor && toTensor &&
         fromTensor.getShape() == toTensor.getShape() &&
         fromTensor.getElementType() == toTensor.getElementType();
}

/// Ops a buffer handle may pass through on its way to a marker: they only
/// change its shape or encoding.
bool isHandleCarrier(Operation *op) {
  return isa<tt::SplatOp, tt::BroadcastOp, ttg::ConvertLayoutOp>(op);
}

/// Follows `value` back through tt.splat / tt.broadcast / ttg.convert_layout.
Value stripCarriers(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isHandleCarrier(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// Erases `op` and, recursively, the carriers feeding it that become dead.
void eraseDeadCarriers(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isHandleCarrier(def) || !def->use_empty())
    return;
  Value src = def->getOperand(0);
  def->erase();
  eraseDeadCarriers(src);
}

/// Ops the frontend uses to repeat a tile over its tile grid
/// (docs/markers.md, "Tiles").
bool isTileCarrier(Operation *op) {
  return isa<tt::ReshapeOp, tt::BroadcastOp, tt::ExpandDimsOp, tt::SplatOp,
             ttg::ConvertLayoutOp>(op);
}

/// Erases the dead tile carriers feeding `value`, recursively.
void eraseDeadTileCarriers(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isTileCarrier(def) || !def->use_empty())
    return;
  Value src = def->getOperand(0);
  def->erase();
  eraseDeadTileCarriers(src);
}

/// Follows `value` back through ttg.convert_layout.
Value skipConverts(Value value) {
  while (auto convert = value.getDefiningOp<ttg::ConvertLayoutOp>())
    value = convert.getSrc();
  return value;
}

/// A type for a tile of `shape` cut from `like`: `like`'s encoding when it
/// is a blocked one (valid for any shape of the same rank) or absent.
std::optional<RankedTensorType> tileTypeLike(RankedTensorType like,
                                             ArrayRef<int64_t> shape) {
  Attribute encoding = like.getEncoding();
  if (encoding && !isa<ttg::BlockedEncodingAttr>(encoding))
    return std::nullopt;
  return RankedTensorType::get(shape, like.getElementType(), encoding);
}

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

class MarkerRaiser {
public:
  MarkerRaiser(tt::ElementwiseInlineAsmOp marker, bool verifyOnly,
               RaiseState &state)
      : marker(marker), verifyOnly(verifyOnly), state(state) {}

  LogicalResult raise();

private:
  InFlightDiagnostic emitError() { return marker.emitError(); }
  LogicalResult parseAsmString();
  LogicalResult takeIndices(StringRef key, unsigned limit, StringRef what,
                            SmallVectorImpl<unsigned> &indices);
  LogicalResult collectOperands();
  LogicalResult collectNarrowed();
  LogicalResult collectTiled();
  LogicalResult collectResultTypes();
  LogicalResult checkHandleUses(unsigned index);
  LogicalResult parseRegion(Region &region);
  Operation *buildOp();

  tt::ElementwiseInlineAsmOp marker;
  bool verifyOnly;
  RaiseState &state;

  /// `tle.marker.result_types`, when given: the op's result types.
  SmallVector<Type> resultTypes;
  bool hasResultTypes = false;
  /// `tle.marker.no_results = true`.
  bool noResults = false;
  /// Marker results that are buffer handles.
  SmallVector<unsigned> handleResults;

  StringRef name;
  std::optional<RegisteredOperationName> opName;
  NamedAttrList attrs;
  SmallVector<unsigned> scalarOperands, narrowed;
  /// `tle.marker.tiled_operands` / `tiled_results` and `tile_shape`.
  SmallVector<unsigned> tiledOperands, tiledResults;
  SmallVector<int64_t> tileShape;
  /// `tle.marker.region`: the text of a func.func whose body becomes the
  /// op's one region.
  StringAttr regionSource;
  /// Types of tiled results nobody uses.
  llvm::DenseMap<unsigned, Type> unusedTiledTypes;
  SmallVector<Value> operands;
  /// Per marker result, the value the op's result replaces: the marker's
  /// result, or the pick reduce's for a narrowed one; null for a narrowed
  /// result nobody uses.
  SmallVector<Value> replaced;
  /// Pick reduces and the convert_layouts before them, in erasure order.
  SmallVector<Operation *> chains;
};

LogicalResult MarkerRaiser::parseAsmString() {
  MLIRContext *ctx = marker.getContext();
  StringRef text = marker.getAsmString();
  name = text.take_front(text.find_first_of(" {"));
  opName = RegisteredOperationName::lookup(name, ctx);
  if (!opName || opName->getDialect().getNamespace() != "tle")
    return emitError() << "unknown TLE marker '" << name << "'";

  StringRef rest = text.drop_front(name.size()).trim();
  if (rest.empty())
    return success();
  // The parser reports into the context at a location inside `rest`; keep
  // the first message and report it at the marker instead.
  std::string parserMessage, unloaded;
  Attribute parsed;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (parserMessage.empty())
        parserMessage = diag.str();
      return success();
    });
    parsed = parseMarkerAttribute(rest, ctx, unloaded);
  }
  if (!unloaded.empty())
    return emitError() << "TLE marker '" << name << "': '" << rest
                       << "' names the dialect '" << unloaded
                       << "', which TLE markers do not use";
  auto dict = dyn_cast_or_null<DictionaryAttr>(parsed);
  if (!dict) {
    InFlightDiagnostic diag = emitError();
    diag << "TLE marker '" << name << "': cannot parse '" << rest
         << "' as an attribute dictionary";
    if (!parserMessage.empty())
      diag << ": " << parserMessage;
    return diag;
  }
  attrs.assign(dict.getValue());
  return success();
}

/// Removes `key` from the attributes and reads it as distinct indices below
/// `limit`.
LogicalResult MarkerRaiser::takeIndices(StringRef key, unsigned limit,
                                        StringRef what,
                                        SmallVectorImpl<unsigned> &indices) {
  Attribute value = attrs.erase(key);
  if (!value)
    return success();
  auto array = dyn_cast<DenseI32ArrayAttr>(value);
  if (!array)
    return emitError() << "'" << key << "' must be an array<i32: ...>, got "
                       << value;
  for (int32_t index : array.asArrayRef()) {
    if (index < 0 || static_cast<unsigned>(index) >= limit)
      return emitError() << "'" << key << "' lists " << what << " " << index
                         << ", but the marker has " << limit;
    if (llvm::is_contained(indices, static_cast<unsigned>(index)))
      return emitError() << "'" << key << "' lists " << what << " " << index
                         << " twice";
    indices.push_back(index);
  }
  return success();
}

LogicalResult MarkerRaiser::collectOperands() {
  operands.assign(marker->operand_begin(), marker->operand_end());
  for (auto [index, operand] : llvm::enumerate(operands)) {
    // A buffer handle, splatted or not, stands for its buffer.
    Value root = stripCarriers(operand);
    // Already reported at the marker that failed.
    if (state.failed.contains(root.getDefiningOp()))
      return failure();
    auto handle = state.handles.find(root);
    if (handle != state.handles.end()) {
      operand = handle->second;
      continue;
    }
    if (!llvm::is_contained(scalarOperands, index))
      continue;
    // Triton may have converted or broadcast the splat; the value is uniform
    // either way.
    Value value = operand;
    while (Operation *def = value.getDefiningOp()) {
      if (!isa<tt::BroadcastOp, ttg::ConvertLayoutOp>(def))
        break;
      value = def->getOperand(0);
    }
    // Triton folds the splat of a constant into a splat constant.
    DenseElementsAttr dense;
    if (matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
      OpBuilder builder(marker);
      auto scalar = arith::ConstantOp::create(
          builder, marker.getLoc(),
          cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      if (verifyOnly)
        state.temporaries.push_back(scalar);
      operand = scalar;
      continue;
    }
    auto splat = value.getDefiningOp<tt::SplatOp>();
    if (!splat)
      return emitError() << "scalar operand " << index << " of TLE marker '"
                         << name << "' is not defined by a tt.splat or a splat constant";
    operand = splat.getSrc();
  }
  return success();
}

LogicalResult MarkerRaiser::collectResultTypes() {
  if (Attribute value = attrs.erase(kNoResults)) {
    auto flag = dyn_cast<BoolAttr>(value);
    if (!flag)
      return emitError() << "'" << kNoResults << "' must be true or false, got "
                         << value;
    noResults = flag.getValue();
  }
  if (noResults) {
    for (OpResult result : marker->getResults()) {
      if (result.use_empty())
        continue;
      Operation *user = *result.user_begin();
      InFlightDiagnostic diag = emitError();
      diag << "TLE marker '" << name << "' has no results ('" << kNoResults
           << "'), but its dummy result " << result.getResultNumber()
           << " is used by '" << user->getName() << "'";
      diag.attachNote(user->getLoc()) << "used here";
      return diag;
    }
  }
  Attribute value = attrs.erase(kResultTypes);
  if (!value)
    return success();
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return emitError() << "'" << kResultTypes
                       << "' must be an array of types, got " << value;
  if (noResults)
    return emitError() << "'" << kResultTypes << "' and '" << kNoResults
                       << "' cannot be combined";
  if (array.size() != marker->getNumResults())
    return emitError() << "'" << kResultTypes << "' lists " << array.size()
                       << " types, but the marker has "
                       << marker->getNumResults() << " results";
  for (auto [index, entry] : llvm::enumerate(array)) {
    auto type = dyn_cast<TypeAttr>(entry);
    if (!type)
      return emitError() << "'" << kResultTypes << "' entry " << index
                         << " is not a type: " << entry;
    resultTypes.push_back(type.getValue());
    if (!isa<ttg::MemDescType, DSABufferType, PipeType>(type.getValue()))
      continue;
    if (llvm::is_contained(narrowed, index))
      return emitError() << "result " << index << " of TLE marker '" << name
                         << "' cannot be both narrowed and a buffer";
    handleResults.push_back(index);
  }
  hasResultTypes = true;
  return success();
}

/// Every use of the handle `index` reaches a marker, through carriers only.
LogicalResult MarkerRaiser::checkHandleUses(unsigned index) {
  Value handle = marker->getResult(index);
  // A DSA buffer made from a tensor (tle.dsa.to_buffer) has a handle of the
  // marker's shape; every other handle is a scalar.
  if (isa<ShapedType>(handle.getType()) &&
      !(isa<DSABufferType>(resultTypes[index]) && marker->getNumOperands() > 0))
    return emitError() << "buffer result " << index << " of TLE marker '"
                       << name << "' must be a scalar handle, got "
                       << handle.getType();
  SmallVector<Value> work{handle};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isHandleCarrier(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (auto other = dyn_cast<tt::ElementwiseInlineAsmOp>(user);
          other && isMarker(other))
        continue;
      InFlightDiagnostic diag = emitError();
      diag << "buffer handle (result " << index << " of TLE marker '" << name
           << "') is used by '" << user->getName()
           << "'; a buffer handle may only be passed to TLE markers, "
              "directly or through tt.splat, tt.broadcast and "
              "ttg.convert_layout";
      diag.attachNote(user->getLoc()) << "used here";
      return diag;
    }
  }
  return success();
}

LogicalResult MarkerRaiser::collectNarrowed() {
  replaced.assign(marker->result_begin(), marker->result_end());
  auto axisAttr = attrs.get("axis");
  // An axis getInt() cannot read is no axis; the raised op's verifier
  // reports it.
  std::optional<int64_t> axis = interop::signlessInt(axisAttr);

  for (unsigned index : narrowed) {
    Value value = marker->getResult(index);
    if (value.use_empty()) {
      replaced[index] = nullptr;
      continue;
    }
    SmallVector<Operation *> converts;
    while (value.hasOneUse()) {
      auto convert = dyn_cast<ttg::ConvertLayoutOp>(*value.user_begin());
      if (!convert)
        break;
      converts.push_back(convert);
      value = convert.getResult();
    }
    auto diagnose = [&]() {
      InFlightDiagnostic diag = emitError();
      diag << "narrowed result " << index << " of TLE marker '" << name
           << "' must have no user or exactly one pick tt.reduce (through "
              "single-use ttg.convert_layouts), but ";
      if (!converts.empty())
        diag << "the ttg.convert_layout on it ";
      return diag;
    };
    if (!value.hasOneUse())
      return diagnose() << "has "
                        << std::distance(value.use_begin(), value.use_end())
                        << " uses";
    Operation *user = *value.user_begin();
    auto reduce = dyn_cast<tt::ReduceOp>(user);
    if (!reduce)
      return diagnose() << "is used by '" << user->getName() << "'";
    if (!isPickReduce(reduce))
      return diagnose() << "is used by a tt.reduce that does not return its "
                           "first argument";
    if (axis && reduce.getAxis() != *axis)
      return emitError() << "narrowed result " << index << " of TLE marker '"
                         << name << "' is picked along axis "
                         << reduce.getAxis() << ", but the op's axis is "
                         << *axis;
    replaced[index] = reduce->getResult(0);
    chains.push_back(reduce);
    chains.append(converts.rbegin(), converts.rend());
  }
  return success();
}

/// Tiled operands and results (docs/markers.md, "Tiles"). A tiled operand
/// is the op's operand of shape `tile_shape`, repeated over the tile grid to
/// the marker's shape: `tt.reshape(tt.broadcast(tt.expand_dims*(tile)))`;
/// the tile is taken back from that chain (or, when Triton folded it, from a
/// splat, or cut out with a `tle.extract_tile` at grid position 0). A tiled
/// result is consumed by one `tt.reshape` to the grid view followed by one
/// pick `tt.reduce` per added axis (through single-use convert_layouts); the
/// op's result replaces the last reduce.
LogicalResult MarkerRaiser::collectTiled() {
  if (tileShape.empty())
    return success();
  for (unsigned index : tiledOperands) {
    Value tiled = operands[index];
    auto tiledType = dyn_cast<RankedTensorType>(tiled.getType());
    if (!tiledType || tiledType.getRank() != (int64_t)tileShape.size())
      return emitError() << "tiled operand " << index << " of TLE marker '"
                         << name << "' must be a tensor of the rank of '"
                         << kTileShape << "'";
    int64_t rank = tiledType.getRank();
    Value value = skipConverts(tiled);
    if (auto reshape = value.getDefiningOp<tt::ReshapeOp>();
        reshape && !reshape.getAllowReorder()) {
      value = skipConverts(reshape.getSrc());
      if (auto broadcast = value.getDefiningOp<tt::BroadcastOp>()) {
        value = skipConverts(broadcast.getSrc());
        while (cast<RankedTensorType>(value.getType()).getRank() > rank) {
          auto expand = value.getDefiningOp<tt::ExpandDimsOp>();
          if (!expand)
            break;
          value = skipConverts(expand.getSrc());
        }
        if (cast<RankedTensorType>(value.getType()).getShape() ==
            ArrayRef<int64_t>(tileShape)) {
          operands[index] = value;
          continue;
        }
      }
    }
    // Triton rewrote the chain: recover the tile from the repeated value.
    std::optional<RankedTensorType> type = tileTypeLike(tiledType, tileShape);
    if (!type)
      return emitError() << "cannot recover tiled operand " << index
                         << " of TLE marker '" << name << "' from "
                         << tiled.getType();
    OpBuilder builder(marker);
    Value uniform = tiled;
    while (Operation *def = uniform.getDefiningOp()) {
      if (!isa<tt::BroadcastOp, ttg::ConvertLayoutOp>(def))
        break;
      uniform = def->getOperand(0);
    }
    Operation *made;
    DenseElementsAttr dense;
    if (auto splat = uniform.getDefiningOp<tt::SplatOp>())
      made = tt::SplatOp::create(builder, marker.getLoc(), *type,
                                 splat.getSrc());
    else if (matchPattern(uniform, m_Constant(&dense)) && dense.isSplat())
      made = arith::ConstantOp::create(
          builder, marker.getLoc(),
          DenseElementsAttr::get(*type, dense.getSplatValue<Attribute>()));
    else
      made = ExtractTileOp::create(
          builder, marker.getLoc(), *type, tiled, Value(),
          builder.getI64IntegerAttr(0), builder.getDenseI64ArrayAttr(tileShape));
    if (verifyOnly)
      state.temporaries.push_back(made);
    operands[index] = made->getResult(0);
  }

  for (unsigned index : tiledResults) {
    Value value = marker->getResult(index);
    auto type = cast<RankedTensorType>(value.getType());
    int64_t rank = type.getRank();
    if (rank != (int64_t)tileShape.size())
      return emitError() << "tiled result " << index << " of TLE marker '"
                         << name << "' must have the rank of '" << kTileShape
                         << "'";
    if (value.use_empty()) {
      replaced[index] = nullptr;
      unusedTiledTypes[index] =
          RankedTensorType::get(tileShape, type.getElementType());
      continue;
    }
    SmallVector<Operation *> chain;
    auto next = [&]() -> Operation * {
      while (value.hasOneUse()) {
        auto convert = dyn_cast<ttg::ConvertLayoutOp>(*value.user_begin());
        if (!convert)
          break;
        chain.push_back(convert);
        value = convert.getResult();
      }
      return value.hasOneUse() ? *value.user_begin() : nullptr;
    };
    auto diagnose = [&]() {
      return emitError() << "tiled result " << index << " of TLE marker '"
                         << name << "' must be used by one tt.reshape and "
                            "pick tt.reduces down to the tile shape";
    };
    auto reshape = dyn_cast_or_null<tt::ReshapeOp>(next());
    if (!reshape || reshape.getAllowReorder())
      return diagnose();
    chain.push_back(reshape);
    value = reshape.getResult();
    while (cast<RankedTensorType>(value.getType()).getRank() > rank) {
      auto reduce = dyn_cast_or_null<tt::ReduceOp>(next());
      if (!reduce || !isPickReduce(reduce))
        return diagnose();
      chain.push_back(reduce);
      value = reduce->getResult(0);
    }
    if (cast<RankedTensorType>(value.getType()).getShape() !=
        ArrayRef<int64_t>(tileShape))
      return diagnose() << " (got " << value.getType() << ")";
    replaced[index] = value;
    chains.append(chain.rbegin(), chain.rend());
  }
  return success();
}

/// `tle.marker.region` (docs/markers.md, "Regions"): parses the module text,
/// which must hold exactly one func.func of one block ending in a
/// `func.return` without operands, and moves that body (arguments included,
/// the return dropped) into `region`.
LogicalResult MarkerRaiser::parseRegion(Region &region) {
  MLIRContext *ctx = marker.getContext();
  std::string message;
  auto fail = [&]() {
    return emitError() << "TLE marker '" << name << "': '" << kRegion << "' ";
  };
  // Parsing loads the dialects the text names, which a pass may not do
  // (several may run at once); the pass loads the ones bodies may hold. So
  // the text is parsed in a private context first, and a text that needs any
  // other dialect is refused, naming the op.
  {
    MLIRContext scratch(ctx->getDialectRegistry(),
                        MLIRContext::Threading::DISABLED);
    ScopedDiagnosticHandler capture(&scratch, [&](Diagnostic &diag) {
      if (message.empty()) {
        llvm::raw_string_ostream os(message);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    OwningOpRef<ModuleOp> probe = parseSourceString<ModuleOp>(
        regionSource.getValue(), ParserConfig(&scratch), kRegion);
    if (!probe)
      return fail() << "cannot be parsed: " << message;
    std::string foreign;
    probe->walk([&](Operation *op) {
      StringRef ns = op->getName().getDialectNamespace();
      if (!ctx->getLoadedDialect(ns)) {
        foreign = op->getName().getStringRef().str();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!foreign.empty())
      return fail() << "uses op '" << foreign
                    << "', whose dialect a TLE-Raw body cannot hold";
    for (Dialect *dialect : scratch.getLoadedDialects())
      if (!ctx->getLoadedDialect(dialect->getNamespace()))
        return fail() << "uses the dialect '" << dialect->getNamespace()
                      << "', which a TLE-Raw body cannot hold";
  }
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (message.empty()) {
        llvm::raw_string_ostream os(message);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    module = parseSourceString<ModuleOp>(regionSource.getValue(),
                                         ParserConfig(ctx), kRegion);
  }
  if (!module)
    return fail() << "cannot be parsed: " << message;
  Block *top = module->getBody();
  auto func = top->empty() ? nullptr : dyn_cast<func::FuncOp>(top->front());
  if (!func || !llvm::hasSingleElement(*top) || func.isExternal())
    return fail() << "must hold exactly one func.func with a body";
  if (!func.getBody().hasOneBlock())
    return fail() << "function '" << func.getSymName()
                  << "' must have one block";
  auto ret = dyn_cast<func::ReturnOp>(func.front().getTerminator());
  if (!ret || ret.getNumOperands() != 0)
    return fail() << "function '" << func.getSymName()
                  << "' must end in a func.return without operands";
  ret.erase();
  region.takeBody(func.getBody());
  // Ops the text gives no location of their own point at the marker (the
  // user's call); the frontend's own locations are kept.
  Location here = marker.getLoc();
  auto unlocated = [&](Location loc) {
    auto file = dyn_cast<FileLineColLoc>(loc);
    return isa<UnknownLoc>(loc) || (file && file.getFilename() == kRegion);
  };
  region.walk([&](Operation *op) {
    if (unlocated(op->getLoc()))
      op->setLoc(here);
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        for (BlockArgument arg : block.getArguments())
          if (unlocated(arg.getLoc()))
            arg.setLoc(here);
  });
  for (BlockArgument arg : region.getArguments())
    if (unlocated(arg.getLoc()))
      arg.setLoc(here);
  return success();
}

/// Creates the op before the marker; null (after reporting) if it is invalid.
Operation *MarkerRaiser::buildOp() {
  MLIRContext *ctx = marker.getContext();
  // Without inference, a narrowed result's type comes from its pick reduce.
  if (!opName->hasInterface<InferTypeOpInterface>()) {
    for (unsigned index : narrowed) {
      if (replaced[index])
        continue;
      emitError() << "narrowed result " << index << " of TLE marker '" << name
                  << "' has no user, and '" << name
                  << "' does not infer its result types";
      return nullptr;
    }
  }
  SmallVector<Type> types;
  if (hasResultTypes)
    types = resultTypes;
  else if (!noResults)
    for (auto [index, pair] :
         llvm::enumerate(llvm::zip(marker->getResults(), replaced))) {
      auto [result, value] = pair;
      auto unused = unusedTiledTypes.find(index);
      types.push_back(value                            ? value.getType()
                      : unused != unusedTiledTypes.end() ? unused->second
                                                         : result.getType());
    }

  OperationState state(marker.getLoc(), *opName);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(types);
  if (regionSource && failed(parseRegion(*state.addRegion())))
    return nullptr;
  OpBuilder builder(marker);
  Operation *op = builder.create(state);

  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    // No location: a failure here is reported by the verifier below.
    SmallVector<Type> inferredTypes;
    if (succeeded(infer.inferReturnTypes(
            ctx, std::nullopt, op->getOperands(), op->getRawDictionaryAttrs(),
            op->getPropertiesStorage(), op->getRegions(), inferredTypes)) &&
        inferredTypes.size() == op->getNumResults()) {
      for (auto [result, type] : llvm::zip(op->getResults(), inferredTypes))
        result.setType(type);
    }
  }
  if (failed(verify(op))) {
    op->erase();
    return nullptr;
  }
  return op;
}

LogicalResult MarkerRaiser::raise() {
  if (failed(parseAsmString()) ||
      failed(takeIndices(kScalarOperands, marker->getNumOperands(), "operand",
                         scalarOperands)) ||
      failed(takeIndices(kNarrowed, marker->getNumResults(), "result",
                         narrowed)) ||
      failed(takeIndices(kTiledOperands, marker->getNumOperands(), "operand",
                         tiledOperands)) ||
      failed(takeIndices(kTiledResults, marker->getNumResults(), "result",
                         tiledResults)))
    return failure();
  if (Attribute value = attrs.erase(kTileShape)) {
    auto array = dyn_cast<DenseI64ArrayAttr>(value);
    if (!array)
      return emitError() << "'" << kTileShape
                         << "' must be an array<i64: ...>, got " << value;
    // Tile types are built from it before any verifier sees them.
    if (llvm::any_of(array.asArrayRef(), [](int64_t size) { return size <= 0; }))
      return emitError() << "'" << kTileShape
                         << "' sizes must be positive, got " << value;
    tileShape.assign(array.asArrayRef().begin(), array.asArrayRef().end());
  }
  if (Attribute value = attrs.erase(kRegion)) {
    regionSource = dyn_cast<StringAttr>(value);
    if (!regionSource)
      return emitError() << "'" << kRegion << "' must be a string, got "
                         << value;
  }
  if ((!tiledOperands.empty() || !tiledResults.empty()) != !tileShape.empty())
    return emitError() << "TLE marker '" << name << "': '" << kTileShape
                       << "' goes with '" << kTiledOperands << "' or '"
                       << kTiledResults << "'";
  for (NamedAttribute attr : attrs)
    if (attr.getName().strref().starts_with(kMetaPrefix) &&
        attr.getName() != kResultTypes && attr.getName() != kNoResults)
      return emitError() << "unknown marker key '" << attr.getName().strref()
                         << "' in TLE marker '" << name << "'";
  if (failed(collectOperands()) || failed(collectNarrowed()) ||
      failed(collectTiled()) || failed(collectResultTypes()))
    return failure();
  for (unsigned index : handleResults)
    if (failed(checkHandleUses(index)))
      return failure();

  Operation *op = buildOp();
  if (!op)
    return failure();
  unsigned expected = noResults ? 0 : marker->getNumResults();
  if (op->getNumResults() != expected) {
    InFlightDiagnostic diag = emitError();
    diag << "TLE marker '" << name << "' has " << marker->getNumResults()
         << " results";
    if (noResults)
      diag << " ('" << kNoResults << "')";
    diag << ", but the op has " << op->getNumResults();
    op->erase();
    return failure();
  }
  if (noResults)
    replaced.clear();
  for (unsigned index : handleResults)
    replaced[index] = nullptr;
  for (auto [index, value] : llvm::enumerate(replaced)) {
    if (!value)
      continue;
    Type have = op->getResult(index).getType();
    Type want = value.getType();
    if (have != want && !isBridgeable(have, want)) {
      emitError() << "marker result " << index << " has type " << want
                  << " but " << name << " produces " << have;
      op->erase();
      return failure();
    }
  }
  for (unsigned index : handleResults)
    state.handles[marker->getResult(index)] = op->getResult(index);
  if (verifyOnly) {
    if (handleResults.empty())
      op->erase();
    else
      state.temporaries.push_back(op);
    return success();
  }

  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  for (auto [index, value] : llvm::enumerate(replaced)) {
    if (!value)
      continue;
    Value result = op->getResult(index);
    if (result.getType() != value.getType())
      result = ttg::ConvertLayoutOp::create(builder, marker.getLoc(),
                                            value.getType(), result);
    value.replaceAllUsesWith(result);
  }
  for (Operation *dead : chains)
    dead->erase();
  if (!handleResults.empty()) {
    // Later markers still name the handle; erased at the end of the run.
    state.handleMarkers.push_back(marker);
    return success();
  }
  SmallVector<Value> inputs(marker->getOperands());
  marker->erase();
  for (Value input : llvm::SetVector<Value>(inputs.begin(), inputs.end())) {
    if (tiledOperands.empty())
      eraseDeadCarriers(input);
    else
      eraseDeadTileCarriers(input);
  }
  return success();
}

struct RaiseMarkersPass
    : public impl::TLERaiseMarkersBase<RaiseMarkersPass> {
  using TLERaiseMarkersBase::TLERaiseMarkersBase;

  void runOnOperation() override {
    SmallVector<tt::ElementwiseInlineAsmOp> markers;
    llvm::StringSet<> only;
    for (const std::string &name : ops)
      only.insert(name);
    getOperation()->walk([&](tt::ElementwiseInlineAsmOp op) {
      if (!isMarker(op))
        return;
      StringRef text = op.getAsmString();
      if (!only.empty() && !only.contains(text.take_front(text.find_first_of(" {"))))
        return;
      markers.push_back(op);
    });
    // Every marker is checked, so one run reports every bad one.
    bool failedAny = false;
    RaiseState state;
    for (tt::ElementwiseInlineAsmOp marker : markers)
      if (failed(MarkerRaiser(marker, verifyOnly, state).raise())) {
        if (marker.getAsmString().contains(kResultTypes))
          state.failed.insert(marker);
        failedAny = true;
      }
    for (Operation *op : llvm::reverse(state.temporaries))
      op->erase();
    if (failedAny)
      return signalPassFailure();
    // Every marker that took a handle is gone; so are the handles' users.
    for (Operation *marker : llvm::reverse(state.handleMarkers)) {
      for (Value handle : marker->getResults()) {
        SmallVector<Operation *> carriers(handle.getUsers());
        for (Operation *user : carriers)
          if (isHandleCarrier(user))
            eraseDeadCarriers(user->getResult(0));
      }
      if (!marker->use_empty()) {
        marker->emitError("buffer handle still used after raising");
        return signalPassFailure();
      }
      marker->erase();
    }
  }
};
} // namespace
} // namespace mlir::tle
