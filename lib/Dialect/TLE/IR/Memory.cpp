//===- Memory.cpp - TLE buffers, local/remote pointers and tiles ----------===//
//
// Verifiers, custom assembly directives and memory effects of the ops in
// TLEMemoryOps.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Dialect/Common/DialectCommon.h"
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ModuleContext.h"
#include "TLE/Interop/Triton/TTNG.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tle;
using tle::common::encodingStr;
using tle::common::shapeStr;
using tle::common::verifyTiling;

// Triton's address spaces.
static constexpr int kGlobalAddressSpace = 1;
static constexpr int kSharedAddressSpace = 3;
static constexpr int kClusterSharedAddressSpace = 7;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isSharedMemory(ttg::MemDescType type) {
  return isa<ttg::SharedMemorySpaceAttr>(type.getMemorySpace());
}

static bool isTensorMemory(ttg::MemDescType type) {
  return isa<ttng::TensorMemorySpaceAttr>(type.getMemorySpace());
}

/// `tle.local_load` / `tle.local_store`: a tensor and a whole buffer.
static LogicalResult verifyBufferAccess(Operation *op, ttg::MemDescType buffer,
                                        RankedTensorType tensor,
                                        StringRef tensorName) {
  if (!isSharedMemory(buffer) && !isTensorMemory(buffer))
    return op->emitOpError("expects a buffer in #ttg.shared_memory or "
                           "#ttng.tensor_memory, got ")
           << buffer.getMemorySpace();
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError()
           << tensorName << " shape " << shapeStr(tensor.getShape())
           << " must equal the buffer shape " << shapeStr(buffer.getShape());
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError()
           << tensorName << " element type " << tensor.getElementType()
           << " must equal the buffer element type " << buffer.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Keyword forms of the enum attributes: `smem`, `cluster`, ...
//===----------------------------------------------------------------------===//

ParseResult AllocOp::parseMemorySpaceKeyword(OpAsmParser &parser,
                                             MemorySpaceAttr &scope) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<MemorySpace> value = symbolizeMemorySpace(keyword);
  if (!value)
    return parser.emitError(loc,
                            "expected memory space 'smem' or 'tmem', got '")
           << keyword << "'";
  scope = MemorySpaceAttr::get(parser.getContext(), *value);
  return success();
}

void AllocOp::printMemorySpaceKeyword(OpAsmPrinter &printer, Operation *,
                                      MemorySpaceAttr scope) {
  printer << stringifyMemorySpace(scope.getValue());
}

ParseResult RemotePointersOp::parseRemoteSpaceKeyword(OpAsmParser &parser,
                                                      RemoteSpaceAttr &space) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<RemoteSpace> value = symbolizeRemoteSpace(keyword);
  if (!value)
    return parser.emitError(
               loc, "expected remote space 'cluster' or 'device', got '")
           << keyword << "'";
  space = RemoteSpaceAttr::get(parser.getContext(), *value);
  return success();
}

void RemotePointersOp::printRemoteSpaceKeyword(OpAsmPrinter &printer,
                                               Operation *,
                                               RemoteSpaceAttr space) {
  printer << stringifyRemoteSpace(space.getValue());
}

ParseResult RemotePointersOp::parseResultAndShardType(OpAsmParser &parser,
                                                      Type &result,
                                                      Type &shard) {
  if (parser.parseType(result))
    return failure();
  if (failed(parser.parseOptionalKeyword("shard"))) {
    shard = parser.getBuilder().getI32Type();
    return success();
  }
  return parser.parseType(shard);
}

void RemotePointersOp::printResultAndShardType(OpAsmPrinter &printer,
                                               Operation *, Type result,
                                               Type shard) {
  printer << result;
  if (isa<RankedTensorType>(shard))
    printer << " shard " << shard;
}

//===----------------------------------------------------------------------===//
// LocalPointersOp
//===----------------------------------------------------------------------===//

LogicalResult LocalPointersOp::verify() {
  return tle::common::verifyLocalPointers(*this, getBuffer().getType(),
                                          getIndices(), getResult().getType());
}

//===----------------------------------------------------------------------===//
// RemotePointersOp
//===----------------------------------------------------------------------===//

/// `type` (a pointer or a tensor of pointers) with the pointers moved to
/// `addressSpace`.
static Type withAddressSpace(Type type, int addressSpace) {
  auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(type));
  auto moved = tt::PointerType::get(pointer.getPointeeType(), addressSpace);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), moved,
                                 tensor.getEncoding());
  return moved;
}

LogicalResult RemotePointersOp::verify() {
  Type srcType = getSrc().getType();
  Type resultType = getResult().getType();
  int srcSpace =
      cast<tt::PointerType>(getElementTypeOrSelf(srcType)).getAddressSpace();

  if (auto shards = dyn_cast<RankedTensorType>(getShardId().getType())) {
    auto srcTensor = dyn_cast<RankedTensorType>(srcType);
    if (getSpace() != RemoteSpace::cluster)
      return emitOpError("a tensor of shard ids is only allowed with space "
                         "cluster");
    if (!srcTensor || shards.getShape() != srcTensor.getShape() ||
        shards.getEncoding() != srcTensor.getEncoding())
      return emitOpError("a tensor of shard ids must have the shape and "
                         "encoding of the pointers ")
             << srcType << ", got " << shards;
  }
  switch (getSpace()) {
  case RemoteSpace::cluster: {
    if (getOffset())
      return emitOpError("offset is only allowed with space device");
    if (srcSpace != kSharedAddressSpace &&
        srcSpace != kClusterSharedAddressSpace)
      return emitOpError("cluster space expects source pointers in address "
                         "space 3 (shared memory) or 7 (another CTA's), got "
                         "address space ")
             << srcSpace;
    Type expected = withAddressSpace(srcType, kClusterSharedAddressSpace);
    if (resultType != expected)
      return emitOpError("cluster space result type must be ")
             << expected << " (the source type with address space 7), got "
             << resultType;
    return success();
  }
  case RemoteSpace::device:
    if (!getOffset())
      return emitOpError("device space requires an i64 offset");
    if (srcSpace != kGlobalAddressSpace)
      return emitOpError("device space expects source pointers in address "
                         "space 1 (global memory), got address space ")
             << srcSpace;
    if (resultType != srcType)
      return emitOpError("device space result type must equal the source type ")
             << srcType << ", got " << resultType;
    return success();
  }
  llvm_unreachable("unknown remote space");
}

//===----------------------------------------------------------------------===//
// Tiles
//===----------------------------------------------------------------------===//

ParseResult ExtractTileOp::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  return tle::common::parseTileIndex(parser, index, staticIndex);
}

void ExtractTileOp::printTileIndex(OpAsmPrinter &printer, Operation *,
                                   Value index, IntegerAttr staticIndex) {
  tle::common::printTileIndex(printer, index, staticIndex);
}

ParseResult InsertTileOp::parseTileIndex(
    OpAsmParser &parser, std::optional<OpAsmParser::UnresolvedOperand> &index,
    IntegerAttr &staticIndex) {
  return tle::common::parseTileIndex(parser, index, staticIndex);
}

void InsertTileOp::printTileIndex(OpAsmPrinter &printer, Operation *,
                                  Value index, IntegerAttr staticIndex) {
  tle::common::printTileIndex(printer, index, staticIndex);
}

LogicalResult ExtractTileOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  RankedTensorType resultType = getResult().getType();
  if (!srcType.hasStaticShape())
    return emitOpError("expects a statically shaped source, got ") << srcType;
  if (resultType.getElementType() != srcType.getElementType())
    return emitOpError("result element type ")
           << resultType.getElementType()
           << " must equal the source element type "
           << srcType.getElementType();
  if (failed(verifyTiling(*this, srcType.getShape(), getTileShape(),
                          "tile_shape", getIndex(), getStaticIndexAttr())))
    return failure();
  if (resultType.getShape() != getTileShape())
    return emitOpError("result shape ")
           << shapeStr(resultType.getShape()) << " must equal tile_shape "
           << shapeStr(getTileShape());
  return success();
}

LogicalResult InsertTileOp::verify() {
  RankedTensorType srcType = getSrc().getType();
  RankedTensorType tileType = getTile().getType();
  if (!srcType.hasStaticShape() || !tileType.hasStaticShape())
    return emitOpError("expects a statically shaped source and tile");
  if (tileType.getElementType() != srcType.getElementType())
    return emitOpError("tile element type ")
           << tileType.getElementType()
           << " must equal the source element type "
           << srcType.getElementType();
  return verifyTiling(*this, srcType.getShape(), tileType.getShape(), "tile",
                      getIndex(), getStaticIndexAttr());
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

/// Whether a `ttg.target` string names a target with tensor memory:
/// `cuda:N` with 100 <= N < 120: the datacenter Blackwell family (sm_100,
/// sm_103, sm_110) has tcgen05 tensor memory; sm_120/121 (consumer Blackwell)
/// do not.
static bool targetHasTensorMemory(StringRef target) {
  std::optional<unsigned> capability = common::cudaCapability(target);
  return capability && *capability >= 100 && *capability < 120;
}

bool AllocOp::isPointerBuffer() {
  // Local pointers into the buffer or into a slot of it (slots of slots
  // included: FlagTree's local_ptr(buf.slot(i), ...)).
  SmallVector<Value> views{getResult()};
  while (!views.empty()) {
    for (Operation *user : views.pop_back_val().getUsers()) {
      if (isa<LocalPointersOp>(user))
        return true;
      if (auto slot = dyn_cast<BufferSlotOp>(user))
        views.push_back(slot.getResult());
    }
  }
  return false;
}

LogicalResult AllocOp::verify() {
  ttg::MemDescType type = getResult().getType();
  if (!type.getMutableMemory())
    return emitOpError("result buffer must be mutable");
  if (type.getAllocShape() != type.getShape())
    return emitOpError(
               "result must describe the whole allocation: alloc shape ")
           << shapeStr(type.getAllocShape()) << " must equal the shape "
           << shapeStr(type.getShape());

  switch (getScope()) {
  case MemorySpace::smem:
    if (!isSharedMemory(type))
      return emitOpError(
                 "scope smem requires a buffer in #ttg.shared_memory, got ")
             << type.getMemorySpace();
    break;
  case MemorySpace::tmem: {
    if (!isTensorMemory(type))
      return emitOpError(
                 "scope tmem requires a buffer in #ttng.tensor_memory, got ")
             << type.getMemorySpace();
    if (type.getRank() != 2)
      return emitOpError("tensor memory buffers must have rank 2, got rank ")
             << type.getRank();
    // The nearest enclosing module that names a target decides; without one
    // the IR is target-neutral.
    for (auto module = (*this)->getParentOfType<ModuleOp>(); module;
         module = module->getParentOfType<ModuleOp>()) {
      auto target = module->getAttrOfType<StringAttr>(interop::kTargetAttr);
      if (!target)
        continue;
      if (target.getValue().starts_with("iluvatar:"))
        return emitError("iluvatar TLE alloc does not support tmem storage");
      if (!targetHasTensorMemory(target.getValue()))
        return emitOpError("tensor memory requires an sm_100-family target "
                           "(sm_100 to sm_11x); module targets ")
               << target.getValue();
      break;
    }
    break;
  }
  }

  if (Value init = getInit()) {
    auto initType = cast<RankedTensorType>(init.getType());
    if (initType.getShape() != type.getShape())
      return emitOpError("init shape ")
             << shapeStr(initType.getShape()) << " must equal the buffer shape "
             << shapeStr(type.getShape());
    if (initType.getElementType() != type.getElementType())
      return emitOpError("init element type ")
             << initType.getElementType()
             << " must equal the buffer element type " << type.getElementType();
  }
  return success();
}

void AllocOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  OpResult buffer = getOperation()->getOpResult(0);
  effects.emplace_back(MemoryEffects::Allocate::get(), buffer);
  if (getInit())
    effects.emplace_back(MemoryEffects::Write::get(), buffer);
}

//===----------------------------------------------------------------------===//
// BufferSlotOp
//===----------------------------------------------------------------------===//

/// Whether `result` is `src`'s shared encoding as one of its slots sees it:
/// the same attribute, or (an unswizzled row-major buffer) the same
/// swizzled layout with dimension 0 dropped from its order.
static bool isSlotEncoding(Attribute src, Attribute result, int64_t srcRank) {
  if (src == result)
    return true;
  auto s = dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(src);
  auto r = dyn_cast_or_null<ttg::SwizzledSharedEncodingAttr>(result);
  if (!s || !r || s.getVec() != r.getVec() ||
      s.getPerPhase() != r.getPerPhase() || s.getMaxPhase() != r.getMaxPhase())
    return false;
  if (static_cast<int64_t>(s.getOrder().size()) != srcRank)
    return false;
  SmallVector<unsigned> dropped;
  for (unsigned d : s.getOrder())
    if (d != 0)
      dropped.push_back(d - 1);
  return ArrayRef<unsigned>(dropped) == r.getOrder();
}

LogicalResult BufferSlotOp::verify() {
  ttg::MemDescType src = getSrc().getType();
  ttg::MemDescType result = getResult().getType();
  if (!isSharedMemory(src))
    return emitOpError("takes slots of a buffer in #ttg.shared_memory, got ")
           << src.getMemorySpace();
  if (src.getRank() < 2)
    return emitOpError("src must have rank 2 or more (slots x slot shape), "
                       "got ")
           << shapeStr(src.getShape());
  ArrayRef<int64_t> slotShape = src.getShape().drop_front();
  if (result.getShape() != slotShape)
    return emitOpError("result shape must be ")
           << shapeStr(slotShape) << " (src's without its slot dimension), got "
           << shapeStr(result.getShape());
  if (result.getElementType() != src.getElementType() ||
      result.getMemorySpace() != src.getMemorySpace() ||
      result.getMutableMemory() != src.getMutableMemory())
    return emitOpError(
        "result must keep src's element type, memory space and mutability");
  // As ttg.memdesc_index in Triton 3.6: whole allocations in and out.
  if (src.getAllocShape() != src.getShape() ||
      result.getAllocShape() != result.getShape())
    return emitOpError("src and result must each describe a whole allocation "
                       "(alloc shape = shape), as ttg.memdesc_index's");
  if (!isSlotEncoding(src.getEncoding(), result.getEncoding(), src.getRank()))
    return emitOpError("result encoding ")
           << result.getEncoding() << " is not a slot of src's "
           << src.getEncoding();
  APInt value;
  if (matchPattern(getIndex(), m_ConstantInt(&value))) {
    int64_t i = value.getSExtValue(), n = src.getShape()[0];
    if (i < 0 || i >= n)
      return emitOpError("slot index ") << i << " is out of range for " << n
                                        << " slot" << (n == 1 ? "" : "s");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  auto srcBuffer = dyn_cast<ttg::MemDescType>(getSrc().getType());
  auto dstBuffer = dyn_cast<ttg::MemDescType>(getDst().getType());
  if (srcBuffer && dstBuffer)
    return emitOpError("cannot copy from a buffer to a buffer; one side must "
                       "be a tensor of global pointers");
  if (!srcBuffer && !dstBuffer)
    return emitOpError("cannot copy from pointers to pointers; one side must "
                       "be a !ttg.memdesc buffer");

  ttg::MemDescType buffer = srcBuffer ? srcBuffer : dstBuffer;
  auto pointers = cast<RankedTensorType>(srcBuffer ? getDst().getType()
                                                   : getSrc().getType());
  auto pointer = cast<tt::PointerType>(pointers.getElementType());
  if (pointer.getAddressSpace() != kGlobalAddressSpace)
    return emitOpError("pointers must point to global memory (address space "
                       "1), got address space ")
           << pointer.getAddressSpace();
  if (!isSharedMemory(buffer))
    return emitOpError("expects a buffer in #ttg.shared_memory, got ")
           << buffer.getMemorySpace();

  ArrayRef<int64_t> shape = getShape();
  if (pointers.getShape() != shape)
    return emitOpError("shape ")
           << shapeStr(shape) << " must equal the pointer tensor shape "
           << shapeStr(pointers.getShape());
  if (buffer.getShape() != shape)
    return emitOpError("shape ")
           << shapeStr(shape) << " must equal the buffer shape "
           << shapeStr(buffer.getShape());
  if (pointer.getPointeeType() != buffer.getElementType())
    return emitOpError("pointee type ")
           << pointer.getPointeeType() << " must equal the buffer element type "
           << buffer.getElementType();
  if (dstBuffer && !dstBuffer.getMutableMemory())
    return emitOpError("destination buffer must be mutable");
  return success();
}

//===----------------------------------------------------------------------===//
// LocalLoadOp / LocalStoreOp
//===----------------------------------------------------------------------===//

LogicalResult LocalLoadOp::verify() {
  return verifyBufferAccess(*this, getBuffer().getType(), getResult().getType(),
                            "result");
}

LogicalResult LocalStoreOp::verify() {
  if (failed(verifyBufferAccess(*this, getBuffer().getType(),
                                getValue().getType(), "value")))
    return failure();
  if (!getBuffer().getType().getMutableMemory())
    return emitOpError("destination buffer must be mutable");
  return success();
}

//===----------------------------------------------------------------------===//
// AtomicRMWOp / AtomicCASOp
//===----------------------------------------------------------------------===//

/// Parses a bare enum keyword with `symbolize`, naming `what` on failure.
template <typename AttrT, typename SymbolizeFn>
static ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr,
                                    SymbolizeFn symbolize, StringRef what) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  auto value = symbolize(keyword);
  if (!value)
    return parser.emitError(loc, "expected ")
           << what << ", got '" << keyword << "'";
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

#define TLE_ATOMIC_KEYWORDS(Op)                                                \
  ParseResult Op::parseRMWKind(OpAsmParser &parser, AtomicRMWKindAttr &attr) { \
    return parseEnumKeyword(                                                   \
        parser, attr, [](StringRef s) { return symbolizeAtomicRMWKind(s); },   \
        "an atomic kind (add, fadd, max, min, umax, umin, and, or, xor, "      \
        "exch)");                                                              \
  }                                                                            \
  void Op::printRMWKind(OpAsmPrinter &printer, Operation *,                    \
                        AtomicRMWKindAttr attr) {                              \
    printer << stringifyAtomicRMWKind(attr.getValue());                        \
  }                                                                            \
  ParseResult Op::parseSemantic(OpAsmParser &parser, MemSemanticAttr &attr) {  \
    return parseEnumKeyword(                                                   \
        parser, attr, [](StringRef s) { return symbolizeMemSemantic(s); },     \
        "a memory semantic (relaxed, acquire, release, acq_rel)");             \
  }                                                                            \
  void Op::printSemantic(OpAsmPrinter &printer, Operation *,                   \
                         MemSemanticAttr attr) {                               \
    printer << stringifyMemSemantic(attr.getValue());                          \
  }                                                                            \
  ParseResult Op::parseSyncScope(OpAsmParser &parser,                          \
                                 MemSyncScopeAttr &attr) {                     \
    return parseEnumKeyword(                                                   \
        parser, attr, [](StringRef s) { return symbolizeMemSyncScope(s); },    \
        "a memory scope (cta, cluster, gpu, sys)");                            \
  }                                                                            \
  void Op::printSyncScope(OpAsmPrinter &printer, Operation *,                  \
                          MemSyncScopeAttr attr) {                             \
    printer << stringifyMemSyncScope(attr.getValue());                         \
  }

TLE_ATOMIC_KEYWORDS(AtomicRMWOp)
TLE_ATOMIC_KEYWORDS(AtomicCASOp)
#undef TLE_ATOMIC_KEYWORDS

/// The pointer operand of a TLE atomic: address space 3 or 7 only. Returns
/// the pointee type, or null after reporting.
static Type verifyAtomicPointer(Operation *op, Type ptrType) {
  auto pointer = cast<tt::PointerType>(getElementTypeOrSelf(ptrType));
  int space = pointer.getAddressSpace();
  if (space == kGlobalAddressSpace) {
    op->emitOpError("pointers in address space 1 (global memory) must use "
                    "Triton's tt.")
        << op->getName().stripDialect() << "; tle."
        << op->getName().stripDialect()
        << " takes shared-memory pointers (address space 3 or 7)";
    return {};
  }
  if (space != kSharedAddressSpace && space != kClusterSharedAddressSpace) {
    op->emitOpError("expects pointers in address space 3 (shared memory) or "
                    "7 (cluster shared memory), got address space ")
        << space;
    return {};
  }
  return pointer.getPointeeType();
}

/// `value` (named `name`) has the pointee type and `ptr`'s shape/encoding.
static LogicalResult verifyAtomicValue(Operation *op, Type ptrType,
                                       Type pointee, Type valueType,
                                       StringRef name) {
  Type expected = pointee;
  if (auto tensor = dyn_cast<RankedTensorType>(ptrType))
    expected = tensor.clone(pointee);
  if (valueType != expected)
    return op->emitOpError()
           << name << " type " << valueType << " must be " << expected
           << " (the pointee type in the pointers' shape)";
  return success();
}

static bool isIntOfWidth(Type type, ArrayRef<unsigned> widths) {
  return type.isSignlessInteger() &&
         llvm::is_contained(widths, type.getIntOrFloatBitWidth());
}

LogicalResult AtomicRMWOp::verify() {
  Type ptrType = getPtr().getType();
  Type pointee = verifyAtomicPointer(*this, ptrType);
  if (!pointee)
    return failure();
  if (failed(verifyAtomicValue(*this, ptrType, pointee, getVal().getType(),
                               "value")) ||
      failed(verifyAtomicValue(*this, ptrType, pointee, getResult().getType(),
                               "result")))
    return failure();
  if (Value mask = getMask()) {
    Type i1 = IntegerType::get(getContext(), 1);
    Type expected = i1;
    if (auto tensor = dyn_cast<RankedTensorType>(ptrType))
      expected = tensor.clone(i1);
    if (mask.getType() != expected)
      return emitOpError("mask type ")
             << mask.getType() << " must be " << expected;
  }

  AtomicRMWKind kind = getKind();
  StringRef kindName = stringifyAtomicRMWKind(kind);
  bool isFloat = isa<FloatType>(pointee);
  switch (kind) {
  case AtomicRMWKind::fadd:
    if (!isFloat)
      return emitOpError("fadd needs a floating-point element type, got ")
             << pointee << " (use add for integers)";
    if (!(pointee.isF16() || pointee.isBF16() || pointee.isF32() ||
          pointee.isF64()))
      return emitOpError("fadd supports f16, bf16, f32 and f64, got ")
             << pointee;
    return success();
  case AtomicRMWKind::xchg:
    if (!(isIntOfWidth(pointee, {32, 64}) || pointee.isF32() ||
          pointee.isF64()))
      return emitOpError("exch supports i32, i64, f32 and f64, got ")
             << pointee;
    return success();
  default:
    if (isFloat)
      return emitOpError() << kindName << " needs an integer element type, got "
                           << pointee
                           << (kind == AtomicRMWKind::add
                                   ? " (use fadd for floats)"
                                   : "");
    if (!isIntOfWidth(pointee, {32, 64}))
      return emitOpError() << kindName << " supports i32 and i64, got "
                           << pointee;
    return success();
  }
}

LogicalResult AtomicCASOp::verify() {
  Type ptrType = getPtr().getType();
  Type pointee = verifyAtomicPointer(*this, ptrType);
  if (!pointee)
    return failure();
  if (failed(verifyAtomicValue(*this, ptrType, pointee, getCmp().getType(),
                               "cmp")) ||
      failed(verifyAtomicValue(*this, ptrType, pointee, getVal().getType(),
                               "value")) ||
      failed(verifyAtomicValue(*this, ptrType, pointee, getResult().getType(),
                               "result")))
    return failure();
  if (!(isIntOfWidth(pointee, {16, 32, 64}) || pointee.isF16() ||
        pointee.isBF16() || pointee.isF32() || pointee.isF64()))
    return emitOpError("supports i16, i32, i64, f16, bf16, f32 and f64, got ")
           << pointee;
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncLoadOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncLoadOp::verify() {
  auto ptrType = cast<RankedTensorType>(getPtr().getType());
  auto pointer = dyn_cast<tt::PointerType>(ptrType.getElementType());
  if (!pointer)
    return emitOpError("expects a tensor of pointers, got ") << ptrType;
  if (pointer.getAddressSpace() != kGlobalAddressSpace)
    return emitOpError("expects pointers into global memory (address space ")
           << kGlobalAddressSpace << "), got address space "
           << pointer.getAddressSpace()
           << "; shared-memory pointers are read with tt.load";
  Type pointee = pointer.getPointeeType();
  Attribute encoding = ptrType.getEncoding();
  auto sameShape = [&](Value value, StringRef what,
                       Type element) -> LogicalResult {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() != ptrType.getShape())
      return emitOpError() << what << " shape " << shapeStr(type.getShape())
                           << " must equal the pointer shape "
                           << shapeStr(ptrType.getShape());
    if (type.getElementType() != element)
      return emitOpError() << what << " element type " << type.getElementType()
                           << " must be " << element;
    if (type.getEncoding() != encoding)
      return emitOpError() << what << " encoding "
                           << encodingStr(type.getEncoding())
                           << " must equal the pointer encoding "
                           << encodingStr(encoding);
    return success();
  };
  if (getMask() &&
      failed(sameShape(getMask(), "mask", IntegerType::get(getContext(), 1))))
    return failure();
  if (getOther()) {
    if (!getMask())
      return emitOpError("'other' needs a mask");
    if (failed(sameShape(getOther(), "other", pointee)))
      return failure();
  }
  return sameShape(getResult(), "result", pointee);
}
