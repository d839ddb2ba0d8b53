//===- MarkerRaiser.cpp - what every marker has ---------------------------===//
//
// Part of triton-tle-raise-markers (MarkerRaiser.h lists the parts): the op
// name and the attribute dictionary, scalar operands and the buffers behind
// handles, `tle.marker.result_types` / `no_results`; builds the op, verifies
// it at the marker's location and replaces the marker's results.
//
//===----------------------------------------------------------------------===//
#include "MarkerRaiser.h"
#include "../MarkerText.h"
#include "TLE/Support/ParserGuard.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tle::raise_markers {
namespace {
constexpr llvm::StringLiteral kMarkerPrefix = "tle.";
constexpr llvm::StringLiteral kMetaPrefix = "tle.marker.";
constexpr llvm::StringLiteral kScalarOperands = "tle.marker.scalar_operands";
constexpr llvm::StringLiteral kNoResults = "tle.marker.no_results";

/// Follows `value` back through tt.splat / tt.broadcast / ttg.convert_layout.
Value stripCarriers(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isHandleCarrier(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

} // namespace

bool isBridgeable(Type from, Type to) {
  auto fromTensor = dyn_cast<RankedTensorType>(from);
  auto toTensor = dyn_cast<RankedTensorType>(to);
  return fromTensor && toTensor &&
         fromTensor.getShape() == toTensor.getShape() &&
         fromTensor.getElementType() == toTensor.getElementType();
}

SmallVector<unsigned> listedIndices(tt::ElementwiseInlineAsmOp marker,
                                    StringRef key) {
  SmallVector<unsigned> indices;
  StringRef text = marker.getAsmString();
  StringRef name = text.take_front(text.find_first_of(" {"));
  StringRef rest = text.drop_front(name.size()).trim();
  if (rest.empty() || findDenseIndexArray(rest) != StringRef::npos)
    return indices;
  std::string unloaded;
  Attribute parsed;
  {
    ScopedDiagnosticHandler quiet(marker.getContext(),
                                  [](Diagnostic &) { return success(); });
    parsed = parseMarkerAttribute(rest, marker.getContext(), unloaded);
  }
  auto dict = dyn_cast_or_null<DictionaryAttr>(parsed);
  auto array = dict ? dyn_cast_or_null<DenseI32ArrayAttr>(dict.get(key))
                    : DenseI32ArrayAttr();
  if (array)
    for (int32_t index : array.asArrayRef())
      if (index >= 0)
        indices.push_back(index);
  return indices;
}

bool isMarker(tt::ElementwiseInlineAsmOp op) {
  StringRef text = op.getAsmString();
  // Region markers (tle.gpu.warp_specialize) stand for regions, not ops:
  // triton-tle-raise-warp-specialize reads them.
  if (text.starts_with("tle.warp_specialize") &&
      text.contains("tle.marker.partition"))
    return false;
  return text.starts_with(kMarkerPrefix);
}

bool isHandleCarrier(Operation *op) {
  return isa<tt::SplatOp, tt::BroadcastOp, ttg::ConvertLayoutOp>(op);
}

void eraseDeadCarriers(Value value, bool (*isCarrier)(Operation *)) {
  Operation *def = value.getDefiningOp();
  if (!def || !isCarrier(def) || !def->use_empty())
    return;
  Value src = def->getOperand(0);
  def->erase();
  eraseDeadCarriers(src, isCarrier);
}

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
  if (findDenseIndexArray(rest) != StringRef::npos)
    return emitError() << "TLE marker '" << name
                       << "': " << denseIndexArrayMessage();
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
      return emitError()
             << "scalar operand " << index << " of TLE marker '" << name
             << "' is not defined by a tt.splat or a splat constant";
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
    if (!isBufferType(type.getValue()))
      continue;
    if (llvm::is_contained(narrowed, index))
      return emitError() << "result " << index << " of TLE marker '" << name
                         << "' cannot be both narrowed and a buffer";
    handleResults.push_back(index);
  }
  hasResultTypes = true;
  return success();
}

Operation *MarkerRaiser::buildOp() {
  MLIRContext *ctx = marker.getContext();
  if (failed(checkNarrowedTypes()))
    return nullptr;
  SmallVector<Type> types;
  if (hasResultTypes)
    types = resultTypes;
  else if (!noResults)
    for (auto [index, pair] :
         llvm::enumerate(llvm::zip(marker->getResults(), replaced))) {
      auto [result, value] = pair;
      auto unused = unusedTiledTypes.find(index);
      types.push_back(value                              ? value.getType()
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
      failed(readNarrowed()) || failed(readTiles()) || failed(readRegion()) ||
      failed(readDescriptor()) || failed(checkTileKeys()))
    return failure();
  for (NamedAttribute attr : attrs)
    if (attr.getName().strref().starts_with(kMetaPrefix) &&
        attr.getName() != kResultTypes && attr.getName() != kNoResults)
      return emitError() << "unknown marker key '" << attr.getName().strref()
                         << "' in TLE marker '" << name << "'";
  if (failed(collectOperands()))
    return failure();
  replaced.assign(marker->result_begin(), marker->result_end());
  if (failed(collectNarrowed()) || failed(collectTiled()) ||
      failed(collectResultTypes()) || failed(collectDescriptor()))
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
  for (Value input : llvm::SetVector<Value>(inputs.begin(), inputs.end()))
    eraseDeadCarriers(input,
                      tiledOperands.empty() ? isHandleCarrier : isTileCarrier);
  return success();
}

} // namespace mlir::tle::raise_markers
