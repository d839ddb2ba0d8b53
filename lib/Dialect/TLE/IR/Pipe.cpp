//===- Pipe.cpp - !tle.pipe and the tle.pipe.* ops ------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tle;

/// `[A-Za-z_][A-Za-z0-9_]*`: the names a Python frontend can spell.
static bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name.drop_front(),
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Unique identifiers; `what` is "field" or "reader".
static LogicalResult verifyNames(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<StringAttr> names, StringRef what) {
  llvm::SmallDenseSet<StringAttr> seen;
  for (StringAttr name : names) {
    if (!isIdentifier(name.getValue()))
      return emitError() << what << " name '" << name.getValue()
                         << "' is not a valid identifier";
    if (!seen.insert(name).second)
      return emitError() << "duplicate " << what << " name '" << name.getValue()
                         << "'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PipeType
//===----------------------------------------------------------------------===//

LogicalResult PipeType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int32_t capacity,
                               ArrayRef<StringAttr> fieldNames,
                               ArrayRef<Type> fieldTypes,
                               ArrayRef<StringAttr> readers, bool oneShot) {
  if (capacity <= 0)
    return emitError() << "pipe capacity must be positive, got " << capacity;
  if (fieldNames.size() != fieldTypes.size())
    return emitError() << "pipe needs one field name per field, got "
                       << fieldNames.size() << " names for "
                       << fieldTypes.size() << " fields";
  if (failed(verifyNames(emitError, fieldNames, "field")))
    return failure();
  for (auto [name, type] : llvm::zip_equal(fieldNames, fieldTypes)) {
    auto memdesc = dyn_cast<ttg::MemDescType>(type);
    if (!memdesc)
      return emitError() << "pipe field '" << name.getValue()
                         << "' must be a !ttg.memdesc, got " << type;
    if (!isa_and_nonnull<ttg::SharedMemorySpaceAttr>(memdesc.getMemorySpace()))
      return emitError() << "pipe field '" << name.getValue()
                         << "' must be in #ttg.shared_memory, got "
                         << memdesc.getMemorySpace();
    if (!memdesc.getMutableMemory())
      return emitError() << "pipe field '" << name.getValue()
                         << "' must be mutable";
    if (memdesc.getShape().size() < 2)
      return emitError() << "pipe field '" << name.getValue()
                         << "' must have rank >= 2 (slot dim first), got rank "
                         << memdesc.getShape().size();
    if (memdesc.getShape().front() != capacity)
      return emitError() << "pipe field '" << name.getValue()
                         << "' has dim 0 = " << memdesc.getShape().front()
                         << " but the capacity is " << capacity;
  }
  if (readers.empty())
    return emitError() << "pipe needs at least one reader";
  return verifyNames(emitError, readers, "reader");
}

std::optional<unsigned> PipeType::getFieldIndex(StringRef name) const {
  for (auto [index, field] : llvm::enumerate(getFieldNames()))
    if (field.getValue() == name)
      return index;
  return std::nullopt;
}

bool PipeType::hasReader(StringRef name) const {
  return llvm::any_of(getReaders(), [&](StringAttr reader) {
    return reader.getValue() == name;
  });
}

void PipeType::getAsmName(OpAsmSetNameFn setNameFn) const { setNameFn("pipe"); }

OpAsmAliasResult PipeType::getAlias(raw_ostream &os) const {
  os << "pipe";
  return OpAsmAliasResult::FinalAlias;
}

// !tle.pipe<capacity = N, fields = [name: type, ...], readers = [name, ...]
//           [, one_shot]>
Type PipeType::parse(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  int32_t capacity = 0;
  SmallVector<StringAttr> fieldNames, readers;
  SmallVector<Type> fieldTypes;
  auto parseName = [&](SmallVectorImpl<StringAttr> &names) -> ParseResult {
    std::string name;
    if (parser.parseKeywordOrString(&name))
      return failure();
    names.push_back(StringAttr::get(ctx, name));
    return success();
  };
  auto parseField = [&]() -> ParseResult {
    Type type;
    if (parseName(fieldNames) || parser.parseColonType(type))
      return failure();
    fieldTypes.push_back(type);
    return success();
  };
  if (parser.parseLess() || parser.parseKeyword("capacity") ||
      parser.parseEqual() || parser.parseInteger(capacity) ||
      parser.parseComma() || parser.parseKeyword("fields") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     parseField) ||
      parser.parseComma() || parser.parseKeyword("readers") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&] { return parseName(readers); }))
    return {};
  bool oneShot = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("one_shot"))
      return {};
    oneShot = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<PipeType>(
      ctx, capacity, ArrayRef<StringAttr>(fieldNames),
      ArrayRef<Type>(fieldTypes), ArrayRef<StringAttr>(readers), oneShot);
}

void PipeType::print(AsmPrinter &printer) const {
  printer << "<capacity = " << getCapacity() << ", fields = [";
  llvm::interleaveComma(
      llvm::zip(getFieldNames(), getFieldTypes()), printer, [&](auto field) {
        printer.printKeywordOrString(std::get<0>(field).getValue());
        printer << ": " << std::get<1>(field);
      });
  printer << "], readers = [";
  llvm::interleaveComma(getReaders(), printer, [&](StringAttr reader) {
    printer.printKeywordOrString(reader.getValue());
  });
  printer << "]";
  if (getOneShot())
    printer << ", one_shot";
  printer << ">";
}

//===----------------------------------------------------------------------===//
// `fields(name = %value : type, ...)` of tle.pipe.create
//===----------------------------------------------------------------------===//

ParseResult PipeCreateOp::parsePipeFields(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &fields,
    SmallVectorImpl<Type> &types, ArrayAttr &names) {
  SmallVector<Attribute> nameAttrs;
  auto parseField = [&]() -> ParseResult {
    std::string name;
    OpAsmParser::UnresolvedOperand field;
    Type type;
    if (parser.parseKeywordOrString(&name) || parser.parseEqual() ||
        parser.parseOperand(field) || parser.parseColonType(type))
      return failure();
    nameAttrs.push_back(parser.getBuilder().getStringAttr(name));
    fields.push_back(field);
    types.push_back(type);
    return success();
  };
  if (parser.parseKeyword("fields") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseField))
    return failure();
  names = parser.getBuilder().getArrayAttr(nameAttrs);
  return success();
}

void PipeCreateOp::printPipeFields(OpAsmPrinter &printer, Operation *,
                                   OperandRange fields, TypeRange types,
                                   ArrayAttr names) {
  printer << "fields(";
  for (auto [index, field] : llvm::enumerate(fields)) {
    if (index)
      printer << ", ";
    auto name = names && index < names.size()
                    ? dyn_cast<StringAttr>(names[index])
                    : StringAttr();
    printer.printKeywordOrString(name ? name.getValue() : "<unnamed>");
    printer << " = " << field << " : " << types[index];
  }
  printer << ")";
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

/// The pipe type that `tle.pipe.create` yields; errors (the type's verifier)
/// go to `location`.
LogicalResult PipeCreateOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Adaptor adaptor(operands, attributes, properties, regions);
  IntegerAttr capacity = adaptor.getCapacityAttr();
  ArrayAttr fieldNameAttrs = adaptor.getFieldNamesAttr();
  ArrayAttr readerAttrs = adaptor.getReadersAttr();
  if (!capacity || !fieldNameAttrs || !readerAttrs)
    return emitOptionalError(location, "'", getOperationName(),
                             "' needs capacity, field_names and readers");
  // Called on unverified operations too (marker raising).
  if (!capacity.getType().isSignlessInteger(32))
    return emitOptionalError(location, "'", getOperationName(),
                             "' capacity must be an i32");
  auto toNames = [&](ArrayAttr array, SmallVectorImpl<StringAttr> &names) {
    for (Attribute attr : array) {
      auto name = dyn_cast<StringAttr>(attr);
      if (!name)
        return false;
      names.push_back(name);
    }
    return true;
  };
  SmallVector<StringAttr> fieldNames, readers;
  if (!toNames(fieldNameAttrs, fieldNames) || !toNames(readerAttrs, readers))
    return emitOptionalError(location, "'", getOperationName(),
                             "' field_names and readers must be strings");
  SmallVector<Type> fieldTypes(adaptor.getFields().getTypes());
  // The custom parser infers before it moves attributes of the trailing
  // attr-dict (e.g. `{one_shot = true}`) into the properties.
  BoolAttr oneShotAttr = adaptor.getOneShotAttr();
  if (!oneShotAttr && attributes)
    oneShotAttr = attributes.getAs<BoolAttr>(
        getOneShotAttrName(OperationName(getOperationName(), ctx)));
  bool oneShot = oneShotAttr && oneShotAttr.getValue();
  auto emitError = [&]() -> InFlightDiagnostic {
    if (location)
      return mlir::emitError(*location);
    return mlir::emitError(UnknownLoc::get(ctx));
  };
  PipeType type = PipeType::getChecked(
      emitError, ctx, static_cast<int32_t>(capacity.getInt()),
      ArrayRef<StringAttr>(fieldNames), ArrayRef<Type>(fieldTypes),
      ArrayRef<StringAttr>(readers), oneShot);
  if (!type)
    return failure();
  inferredReturnTypes.push_back(type);
  return success();
}

// Every rule on capacity, fields and readers is the !tle.pipe verifier's,
// applied when the result type is inferred (InferTypeOpInterface checks the
// result type against it too).
LogicalResult PipeCreateOp::verify() {
  if (getScope() != "cta")
    return emitOpError("scope '")
           << getScope() << "' is not supported; only \"cta\" is";
  return success();
}

/// A constant slot index (`what`: "slot", or a position's "stage") must be
/// in [0, capacity).
static LogicalResult verifySlot(Operation *op, Value slot, PipeType type,
                                StringRef what = "slot") {
  APInt value;
  if (!matchPattern(slot, m_ConstantInt(&value)))
    return success();
  int64_t index = value.getSExtValue();
  if (index < 0 || index >= type.getCapacity())
    return op->emitOpError(what)
           << " " << index << " is out of range for a pipe of capacity "
           << type.getCapacity();
  return success();
}

static LogicalResult verifyReader(Operation *op, StringRef reader,
                                  PipeType type) {
  if (type.hasReader(reader))
    return success();
  InFlightDiagnostic diag = op->emitOpError("'")
                            << reader
                            << "' is not a reader of this pipe (readers: ";
  llvm::interleaveComma(type.getReaders(), diag,
                        [&](StringAttr name) { diag << name.getValue(); });
  return diag << ")";
}

/// A position (`at [%stage, %phase]`) has both values or neither, and a
/// constant stage is a slot of the pipe.
static LogicalResult verifyPosition(Operation *op, Value stage, Value phase,
                                    PipeType type) {
  if (static_cast<bool>(stage) != static_cast<bool>(phase))
    return op->emitOpError("a position needs both a stage and a phase, got ")
           << (stage ? "a stage only" : "a phase only");
  return stage ? verifySlot(op, stage, type, "stage") : success();
}

LogicalResult PipeWriterAcquireOp::verify() {
  return verifyPosition(*this, getStage(), getPhase(), getPipe().getType());
}

void PipeWriterAcquireOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getSlot(), "slot");
}

void PipeSlotOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getView(), (getField() + "_slot").str());
}

LogicalResult PipeWriterCommitOp::verify() {
  return verifySlot(*this, getSlot(), getPipe().getType());
}

LogicalResult PipeWriterCloseOp::verify() {
  if (getPipe().getType().getOneShot())
    return emitOpError("cannot close a one-shot pipe; its stream ends after "
                       "capacity slots");
  return verifyPosition(*this, getStage(), getPhase(), getPipe().getType());
}

LogicalResult PipeReaderWaitOp::verify() {
  if (failed(verifyReader(*this, getReader(), getPipe().getType())))
    return failure();
  return verifyPosition(*this, getStage(), getPhase(), getPipe().getType());
}

LogicalResult PipeReaderReleaseOp::verify() {
  PipeType type = getPipe().getType();
  if (failed(verifyReader(*this, getReader(), type)))
    return failure();
  return verifySlot(*this, getSlot(), type);
}

LogicalResult PipeSlotOp::verify() {
  PipeType type = getPipe().getType();
  std::optional<unsigned> index = type.getFieldIndex(getField());
  if (!index)
    return emitOpError("pipe has no field '") << getField() << "'";
  if (failed(verifySlot(*this, getSlot(), type)))
    return failure();
  // Triton 3.6's `ttg.memdesc_index` convention: dim 0 dropped, everything
  // else kept; the view describes a whole allocation (alloc shape = shape).
  auto field = cast<ttg::MemDescType>(type.getFieldTypes()[*index]);
  ttg::MemDescType view = getView().getType();
  if (view.getShape() != field.getShape().drop_front() ||
      view.getElementType() != field.getElementType() ||
      view.getEncoding() != field.getEncoding() ||
      view.getMemorySpace() != field.getMemorySpace() ||
      view.getMutableMemory() != field.getMutableMemory() ||
      view.getAllocShape() != view.getShape()) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    os << "!ttg.memdesc<";
    for (int64_t dim : field.getShape().drop_front())
      os << dim << "x";
    os << field.getElementType() << ", " << field.getEncoding() << ", "
       << field.getMemorySpace()
       << (field.getMutableMemory() ? ", mutable" : "");
    return emitOpError("result type ")
           << view << " must be " << expected << ">, the slot view of field '"
           << getField() << "'";
  }
  return success();
}
