//===- Distributed.cpp - device meshes, shardings, distributed ops --------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tle;

namespace {
/// Parses `[` (string (`,` string)*)? `]` into `names`.
ParseResult parseNameList(AsmParser &parser, AsmParser::Delimiter delimiter,
                          SmallVectorImpl<StringAttr> &names) {
  return parser.parseCommaSeparatedList(delimiter, [&]() -> ParseResult {
    std::string name;
    if (parser.parseString(&name))
      return failure();
    names.push_back(StringAttr::get(parser.getContext(), name));
    return success();
  });
}

void printNameList(AsmPrinter &printer, ArrayRef<StringAttr> names) {
  llvm::interleaveComma(names, printer,
                        [&](StringAttr name) { printer.printAttribute(name); });
}
} // namespace

//===----------------------------------------------------------------------===//
// #tle.device_mesh
//===----------------------------------------------------------------------===//

Attribute DeviceMeshAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  SmallVector<StringAttr> axes;
  if (parser.parseLess() || parser.parseKeyword("shape") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
                                       int64_t size;
                                       if (parser.parseInteger(size))
                                         return failure();
                                       shape.push_back(size);
                                       return success();
                                     }) ||
      parser.parseComma() || parser.parseKeyword("axes") ||
      parser.parseEqual() ||
      parseNameList(parser, AsmParser::Delimiter::Square, axes))
    return {};
  SmallVector<StringAttr> levels;
  if (succeeded(parser.parseOptionalComma())) {
    SMLoc levelsLoc = parser.getCurrentLocation();
    if (parser.parseKeyword("levels") || parser.parseEqual() ||
        parseNameList(parser, AsmParser::Delimiter::Square, levels))
      return {};
    // An empty list would read as "unknown"; say what is wrong instead.
    if (levels.empty()) {
      parser.emitError(levelsLoc)
          << "device mesh has " << axes.size() << " axes but 0 levels";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<DeviceMeshAttr>(
      loc, parser.getContext(), ArrayRef<int64_t>(shape),
      ArrayRef<StringAttr>(axes), ArrayRef<StringAttr>(levels));
}

void DeviceMeshAttr::print(AsmPrinter &printer) const {
  printer << "<shape = [";
  llvm::interleaveComma(getShape(), printer);
  printer << "], axes = [";
  printNameList(printer, getAxes());
  printer << "]";
  if (!getLevels().empty()) {
    printer << ", levels = [";
    printNameList(printer, getLevels());
    printer << "]";
  }
  printer << ">";
}

LogicalResult
DeviceMeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, ArrayRef<StringAttr> axes,
                       ArrayRef<StringAttr> levels) {
  if (shape.empty())
    return emitError() << "device mesh must have at least one axis";
  if (shape.size() != axes.size())
    return emitError() << "device mesh has " << shape.size() << " sizes but "
                       << axes.size() << " axis names";
  llvm::SmallDenseSet<StringRef> seen;
  for (auto [size, axis] : llvm::zip_equal(shape, axes)) {
    if (!axis || axis.getValue().empty())
      return emitError() << "device mesh axis names must be non-empty";
    if (size <= 0)
      return emitError() << "device mesh axis " << axis
                         << " must have a positive size, got " << size;
    if (!seen.insert(axis.getValue()).second)
      return emitError() << "device mesh axis name " << axis
                         << " is used more than once";
  }
  if (levels.empty())
    return success();
  if (levels.size() != axes.size())
    return emitError() << "device mesh has " << axes.size() << " axes but "
                       << levels.size() << " levels";
  for (auto [axis, level] : llvm::zip_equal(axes, levels)) {
    StringRef name = level ? level.getValue() : StringRef();
    if (!llvm::is_contained({StringRef(interop::kMeshLevelNode),
                             StringRef(interop::kMeshLevelDevice),
                             StringRef(interop::kMeshLevelBlockCluster),
                             StringRef(interop::kMeshLevelBlock)},
                            name))
      return emitError() << "device mesh axis " << axis << " has level \""
                         << name
                         << "\"; expected one of \"node\", \"device\", "
                            "\"block_cluster\", \"block\"";
  }
  return success();
}

StringRef DeviceMeshAttr::getAxisLevel(unsigned index) const {
  if (getLevels().empty())
    return {};
  return getLevels()[index].getValue();
}

int64_t DeviceMeshAttr::getLevelSize(StringRef level) const {
  int64_t size = 1;
  for (unsigned i = 0, e = getShape().size(); i < e; ++i)
    if (getAxisLevel(i) == level)
      size *= getShape()[i];
  return size;
}

std::optional<unsigned> DeviceMeshAttr::getAxisIndex(StringRef name) const {
  for (auto [i, axis] : llvm::enumerate(getAxes()))
    if (axis.getValue() == name)
      return i;
  return std::nullopt;
}

std::optional<int64_t> DeviceMeshAttr::getAxisSize(StringRef name) const {
  if (std::optional<unsigned> i = getAxisIndex(name))
    return getShape()[*i];
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// #tle.sharding
//===----------------------------------------------------------------------===//

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  MLIRContext *ctx = parser.getContext();
  DeviceMeshAttr mesh;
  SmallVector<ArrayAttr> split;
  SmallVector<StringAttr> partial;
  auto parseDim = [&]() -> ParseResult {
    SMLoc dimLoc = parser.getCurrentLocation();
    StringRef kind;
    if (parser.parseKeyword(&kind))
      return failure();
    if (kind == "B") {
      split.push_back(ArrayAttr::get(ctx, {}));
      return success();
    }
    if (kind != "S")
      return parser.emitError(dimLoc, "expected S<\"axis\", ...> or B");
    SmallVector<StringAttr> names;
    if (parseNameList(parser, AsmParser::Delimiter::LessGreater, names))
      return failure();
    if (names.empty())
      return parser.emitError(dimLoc, "S<...> needs at least one mesh axis");
    split.push_back(ArrayAttr::get(
        ctx, SmallVector<Attribute>(names.begin(), names.end())));
    return success();
  };
  if (parser.parseLess() || parser.parseKeyword("mesh") ||
      parser.parseEqual() || parser.parseAttribute(mesh) ||
      parser.parseComma() || parser.parseKeyword("split") ||
      parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("partial") || parser.parseEqual() ||
       parseNameList(parser, AsmParser::Delimiter::Square, partial)))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ShardingAttr>(loc, ctx, mesh,
                                         ArrayRef<ArrayAttr>(split),
                                         ArrayRef<StringAttr>(partial));
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << "<mesh = ";
  printer.printAttribute(getMesh());
  printer << ", split = [";
  llvm::interleaveComma(getSplit(), printer, [&](ArrayAttr axes) {
    if (axes.empty()) {
      printer << 'B';
      return;
    }
    printer << "S<";
    llvm::interleaveComma(
        axes, printer, [&](Attribute axis) { printer.printAttribute(axis); });
    printer << '>';
  });
  printer << ']';
  if (!getPartial().empty()) {
    printer << ", partial = [";
    printNameList(printer, getPartial());
    printer << ']';
  }
  printer << '>';
}

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   DeviceMeshAttr mesh,
                                   ArrayRef<ArrayAttr> split,
                                   ArrayRef<StringAttr> partial) {
  if (!mesh)
    return emitError() << "sharding needs a device mesh";
  llvm::SmallDenseSet<StringRef> used;
  auto use = [&](Attribute attr, StringRef where) -> LogicalResult {
    auto axis = dyn_cast_or_null<StringAttr>(attr);
    if (!axis)
      return emitError() << where << " entries must be mesh axis names";
    if (!mesh.getAxisIndex(axis.getValue()))
      return emitError() << where << " axis " << axis
                         << " is not an axis of the mesh";
    if (!used.insert(axis.getValue()).second)
      return emitError() << "mesh axis " << axis
                         << " is used more than once in the sharding";
    return success();
  };
  for (ArrayAttr axes : split) {
    if (!axes)
      return emitError() << "split entries must be arrays of mesh axis names";
    for (Attribute axis : axes)
      if (failed(use(axis, "split")))
        return failure();
  }
  for (StringAttr axis : partial)
    if (failed(use(axis, "partial")))
      return failure();
  return success();
}

int64_t ShardingAttr::getNumShards(unsigned dim) const {
  int64_t shards = 1;
  for (Attribute axis : getSplit()[dim])
    if (auto name = dyn_cast<StringAttr>(axis)) // always, once verified
      shards *= getMesh().getAxisSize(name.getValue()).value_or(1);
  return shards;
}

LogicalResult
ShardingAttr::verifyShape(ArrayRef<int64_t> shape,
                          function_ref<InFlightDiagnostic()> emitError) const {
  if (getSplit().size() != shape.size())
    return emitError() << "split has " << getSplit().size()
                       << " entries but the tensor has rank " << shape.size();
  for (auto [dim, size] : llvm::enumerate(shape)) {
    int64_t shards = getNumShards(dim);
    if (!ShapedType::isDynamic(size) && size % shards != 0)
      return emitError() << "dimension " << dim << " (size " << size
                         << ") is not divisible by its shard count " << shards;
  }
  return success();
}

SmallVector<int64_t>
ShardingAttr::getLocalShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> local(shape);
  for (auto [dim, size] : llvm::enumerate(local))
    if (!ShapedType::isDynamic(size) && dim < getSplit().size())
      size /= getNumShards(dim);
  return local;
}

std::optional<unsigned> ShardingAttr::getSplitDim(StringRef axis) const {
  for (auto [dim, axes] : llvm::enumerate(getSplit()))
    for (Attribute name : axes)
      if (cast<StringAttr>(name).getValue() == axis)
        return dim;
  return std::nullopt;
}

bool ShardingAttr::isPartial(StringRef axis) const {
  return llvm::any_of(getPartial(),
                      [&](StringAttr name) { return name.getValue() == axis; });
}

//===----------------------------------------------------------------------===//
// tle.distributed_barrier
//===----------------------------------------------------------------------===//

ParseResult
DistributedBarrierOp::parseGroupKind(OpAsmParser &parser,
                                     DistributedGroupKindAttr &group) {
  FailureOr<DistributedGroupKind> kind =
      FieldParser<DistributedGroupKind>::parse(parser);
  if (failed(kind))
    return failure();
  group = DistributedGroupKindAttr::get(parser.getContext(), *kind);
  return success();
}

void DistributedBarrierOp::printGroupKind(OpAsmPrinter &printer, Operation *,
                                          DistributedGroupKindAttr group) {
  printer << stringifyDistributedGroupKind(group.getValue());
}

LogicalResult DistributedBarrierOp::verify() {
  DistributedGroupKind group = getGroup();
  StringRef groupName = stringifyDistributedGroupKind(group);
  bool hasAny = getRankAttr() || getShapeAttr() || getAxesAttr();
  if (group != DistributedGroupKind::submesh) {
    if (hasAny)
      return emitOpError() << "group '" << groupName
                           << "' takes no rank, shape or axes";
    if (group == DistributedGroupKind::grid && getMeshAttr())
      return emitOpError("group 'grid' takes no mesh");
    if (getAtAttr())
      return emitOpError() << "group '" << groupName << "' takes no `at`";
    return success();
  }
  if (!getRankAttr() || !getShapeAttr() || !getAxesAttr() || !getMeshAttr())
    return emitOpError("group 'submesh' needs rank, shape, axes and mesh");
  int64_t rank = *getRank();
  ArrayRef<int64_t> shape = *getShape();
  ArrayAttr axes = *getAxes();
  if (rank <= 0)
    return emitOpError() << "submesh rank must be positive, got " << rank;
  if (static_cast<int64_t>(shape.size()) != rank ||
      static_cast<int64_t>(axes.size()) != rank)
    return emitOpError() << "submesh rank " << rank << " must equal the number "
                         << "of sizes (" << shape.size() << ") and of axes ("
                         << axes.size() << ")";
  for (int64_t size : shape)
    if (size <= 0)
      return emitOpError() << "submesh sizes must be positive, got " << size;
  llvm::SmallDenseSet<StringRef> seen;
  for (Attribute attr : axes) {
    StringRef axis = cast<StringAttr>(attr).getValue();
    if (axis.empty())
      return emitOpError("submesh axis names must be non-empty");
    if (!seen.insert(axis).second)
      return emitOpError() << "submesh axis \"" << axis
                           << "\" appears more than once";
  }
  DeviceMeshAttr mesh = *getMesh();
  for (auto [attr, size] : llvm::zip(axes, shape)) {
    StringRef axis = cast<StringAttr>(attr).getValue();
    std::optional<unsigned> index = mesh.getAxisIndex(axis);
    if (!index)
      return emitOpError() << "submesh axis \"" << axis
                           << "\" is not an axis of the mesh";
    if (mesh.getAxisLevel(*index) != "block_cluster")
      return emitOpError() << "submesh axis \"" << axis
                           << "\" is not a block_cluster axis of the mesh";
    if (mesh.getShape()[*index] != size)
      return emitOpError() << "submesh axis \"" << axis << "\" has size "
                           << mesh.getShape()[*index] << " in the mesh, not "
                           << size;
  }
  if (DictionaryAttr at = getAtAttr())
    for (NamedAttribute entry : at) {
      StringRef axis = entry.getName().getValue();
      std::optional<unsigned> index = mesh.getAxisIndex(axis);
      if (!index || mesh.getAxisLevel(*index) != "block_cluster")
        return emitOpError() << "`at` axis \"" << axis
                             << "\" is not a block_cluster axis of the mesh";
      if (seen.contains(axis))
        return emitOpError()
               << "`at` axis \"" << axis << "\" is also a sub-mesh axis";
      auto coord = dyn_cast<IntegerAttr>(entry.getValue());
      int64_t size = mesh.getShape()[*index];
      if (!coord || coord.getInt() < 0 || coord.getInt() >= size)
        return emitOpError() << "`at` coordinate of axis \"" << axis
                             << "\" must be an integer in [0, " << size
                             << "), got " << entry.getValue();
    }
  return success();
}

//===----------------------------------------------------------------------===//
// tle.shard_id
//===----------------------------------------------------------------------===//

LogicalResult ShardIdOp::verify() {
  if (!getMesh().getAxisIndex(getAxis()))
    return emitOpError() << "axis \"" << getAxis()
                         << "\" is not an axis of the mesh";
  return success();
}

//===----------------------------------------------------------------------===//
// tle.make_sharded_tensor / tle.reshard
//===----------------------------------------------------------------------===//

/// Checks that `type` is the block `sharding` gives each shard of a tensor
/// of shape `shape`; `what` names the value in the error.
static LogicalResult verifyLocalType(ShardingAttr sharding,
                                     ArrayRef<int64_t> shape,
                                     RankedTensorType type, StringRef what,
                                     function_ref<InFlightDiagnostic()> error) {
  SmallVector<int64_t> local = sharding.getLocalShape(shape);
  if (type.getRank() != static_cast<int64_t>(local.size()))
    return error() << what << " has rank " << type.getRank()
                   << " but the sharded tensor has rank " << local.size();
  for (auto [dim, want, have] : llvm::enumerate(local, type.getShape()))
    if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
        have != want)
      return error() << what << " dimension " << dim << " has size " << have
                     << ", but each shard holds " << want << " of "
                     << shape[dim] << " (" << sharding.getNumShards(dim)
                     << " shards)";
  return success();
}

LogicalResult MakeShardedTensorOp::verify() {
  ArrayRef<int64_t> shape = getShape();
  if (failed(getSharding().verifyShape(shape, [&] { return emitOpError(); })))
    return failure();
  return verifyLocalType(getSharding(), shape, getSrc().getType(),
                         "the local block", [&] { return emitOpError(); });
}

LogicalResult ReshardOp::verify() {
  ShardingAttr source = getSource(), target = getTarget();
  if (source.getMesh() != target.getMesh())
    return emitOpError("source and target shardings must use the same mesh");
  ArrayRef<int64_t> shape = getShape();
  if (failed(source.verifyShape(
          shape, [&] { return emitOpError() << "source sharding: "; })))
    return failure();
  if (failed(target.verifyShape(
          shape, [&] { return emitOpError() << "target sharding: "; })))
    return failure();
  auto srcType = getSrc().getType();
  auto resultType = getResult().getType();
  if (srcType.getElementType() != resultType.getElementType())
    return emitOpError("operand and result element types differ: ")
           << srcType.getElementType() << " vs " << resultType.getElementType();
  if (failed(verifyLocalType(source, shape, srcType, "the operand",
                             [&] { return emitOpError(); })) ||
      failed(verifyLocalType(target, shape, resultType, "the result",
                             [&] { return emitOpError(); })))
    return failure();
  for (StringAttr axis : target.getPartial())
    if (!source.isPartial(axis.getValue()))
      return emitOpError("cannot reshard to a partial sum over mesh axis ")
             << axis << ": the source is not partial over it";
  if (std::optional<int64_t> root = getRoot()) {
    int64_t cluster =
        source.getMesh().getLevelSize(interop::kMeshLevelBlockCluster);
    if (*root < 0 || *root >= cluster)
      return emitOpError("root ")
             << *root << " is not a CTA rank of the mesh's cluster of "
             << cluster << " CTAs";
    if (!target.getPartial().empty())
      return emitOpError("a reshard to a root cannot leave partial axes");
  }
  bool any = getWorkspace() || getFlags() || getPeerOffsets() ||
             getDeviceRank() || getEpoch();
  bool all = getWorkspace() && getFlags() && getPeerOffsets() &&
             getDeviceRank() && getEpoch();
  if (any && !all)
    return emitOpError("device operands (workspace, flags, peer offsets, "
                       "rank, epoch) come all together");
  if (all) {
    auto ptrTo = [](Value v) { return cast<tt::PointerType>(v.getType()); };
    if (ptrTo(getWorkspace()).getPointeeType() != srcType.getElementType() ||
        ptrTo(getWorkspace()).getAddressSpace() != 1)
      return emitOpError("the workspace must be a global pointer to ")
             << srcType.getElementType() << ", got "
             << getWorkspace().getType();
    if (!ptrTo(getFlags()).getPointeeType().isInteger(32) ||
        ptrTo(getFlags()).getAddressSpace() != 1)
      return emitOpError("the flags must be a global pointer to i32, got ")
             << getFlags().getType();
    if (!ptrTo(getPeerOffsets()).getPointeeType().isInteger(64) ||
        ptrTo(getPeerOffsets()).getAddressSpace() != 1)
      return emitOpError("the peer offsets must be a global pointer to i64, "
                         "got ")
             << getPeerOffsets().getType();
  }
  return success();
}
