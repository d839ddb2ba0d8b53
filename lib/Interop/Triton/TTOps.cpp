//===- TTOps.cpp - Interop ops of Triton 3.6's `tt` dialect ---------------===//
//
// Custom parsers, printers, verifiers and side effects of the tt ops declared
// in TTOps.td. Verifiers check only rules that are simple and certain; they
// must accept everything pip Triton 3.6.0 prints.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TT.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::tt;

#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Type helpers and traits
//===----------------------------------------------------------------------===//

Type mlir::tt::getPointeeTypeOf(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike)) {
    if (auto ptr = dyn_cast<PointerType>(tensor.getElementType()))
      return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                   tensor.getEncoding());
    return ptrLike;
  }
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  return ptrLike;
}

Type mlir::tt::getI1SameShape(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

Type mlir::tt::getBlockPtrBaseType(Type blockPtr) {
  auto ptr = dyn_cast<PointerType>(blockPtr);
  auto tensor = ptr ? dyn_cast<RankedTensorType>(ptr.getPointeeType())
                    : RankedTensorType();
  if (!tensor)
    return blockPtr; // not a block pointer; the result's constraint reports it
  return PointerType::get(tensor.getElementType(), ptr.getAddressSpace());
}

LogicalResult mlir::tt::OpTrait::verifySameOperandsEncoding(Operation *op,
                                                            bool withResults) {
  std::optional<Attribute> encoding;
  auto matches = [&](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return true;
    if (!encoding) {
      encoding = tensor.getEncoding();
      return true;
    }
    return *encoding == tensor.getEncoding();
  };
  for (Type type : op->getOperandTypes())
    if (!matches(type))
      return op->emitOpError("requires the same encoding for all operands");
  if (withResults)
    for (Type type : op->getResultTypes())
      if (!matches(type))
        return op->emitOpError(
            "requires the same encoding for all operands and results");
  return success();
}

static void addGlobalReadWrite(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), GlobalMemory::get());
  effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

//===----------------------------------------------------------------------===//
// tt.func, tt.return, tt.call
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<NamedAttribute> attrs) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.attributes.append(attrs.begin(), attrs.end());
  state.addRegion();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult ReturnOp::verify() {
  auto func = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = func.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError("has ")
           << getNumOperands() << " operands, but enclosing function (@"
           << func.getName() << ") returns " << results.size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), results)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("type of return operand ")
             << index << " (" << std::get<0>(pair)
             << ") doesn't match function result type (" << std::get<1>(pair)
             << ") in function @" << func.getName();
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee = getCalleeAttr();
  auto func = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, callee);
  if (!func)
    return emitOpError("'")
           << callee.getValue() << "' does not reference a valid tt.func";
  FunctionType type = func.getFunctionType();
  if (type.getNumInputs() != getNumOperands())
    return emitOpError("incorrect number of operands for callee");
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getOperandTypes(), type.getInputs())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("operand type mismatch: expected operand type ")
             << std::get<1>(pair) << ", but provided " << std::get<0>(pair)
             << " for operand number " << index;
  if (type.getNumResults() != getNumResults())
    return emitOpError("incorrect number of results for callee");
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getResultTypes(), type.getResults())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("result type mismatch at index ")
             << index << ": expected " << std::get<1>(pair) << ", but got "
             << std::get<0>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// Ranges and shapes
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  // I32Attr getters return uint32_t; read the attributes as signed values.
  int64_t start = getStartAttr().getInt(), end = getEndAttr().getInt();
  if (end <= start)
    return emitOpError("end (")
           << end << ") must be greater than start (" << start << ")";
  auto type = getResult().getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError("result must be a 1-D tensor of ")
           << end - start << " elements, got " << type;
  return success();
}

LogicalResult UnsplatOp::verify() {
  if (getSrc().getType().getNumElements() != 1)
    return emitOpError("source tensor must have exactly one element");
  return success();
}

LogicalResult BroadcastOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  ArrayRef<int64_t> dst = getResult().getType().getShape();
  if (src.size() != dst.size())
    return emitOpError("source rank (")
           << src.size() << ") must equal result rank (" << dst.size() << ")";
  for (auto [i, s, d] : llvm::enumerate(src, dst))
    if (s != 1 && s != d)
      return emitOpError("source dimension ")
             << i << " (" << s << ") must be 1 or equal the result's (" << d
             << ")";
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > static_cast<int64_t>(src.size()))
    return emitOpError("axis ")
           << axis << " is out of range [0, " << src.size() << "]";
  SmallVector<int64_t> expected(src);
  expected.insert(expected.begin() + axis, 1);
  if (getResult().getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be the source shape with a 1 "
                       "inserted at axis ")
           << axis;
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (getSrc().getType().getNumElements() !=
      getResult().getType().getNumElements())
    return emitOpError("source and result must have the same number of "
                       "elements");
  return success();
}

LogicalResult TransOp::verify() {
  ArrayRef<int64_t> src = getSrc().getType().getShape();
  ArrayRef<int64_t> dst = getResult().getType().getShape();
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != src.size() || dst.size() != src.size())
    return emitOpError("order must have one entry per source dimension (")
           << src.size() << ")";
  SmallVector<bool> seen(src.size(), false);
  for (auto [i, dim] : llvm::enumerate(order)) {
    if (dim < 0 || dim >= static_cast<int32_t>(src.size()) || seen[dim])
      return emitOpError("order must be a permutation of [0, ")
             << src.size() << ")";
    seen[dim] = true;
    if (dst[i] != src[dim])
      return emitOpError("result dimension ")
             << i << " (" << dst[i] << ") must equal source dimension " << dim
             << " (" << src[dim] << ")";
  }
  return success();
}

LogicalResult JoinOp::verify() {
  auto src = getLhs().getType();
  auto dst = getResult().getType();
  SmallVector<int64_t> expected(src.getShape());
  expected.push_back(2);
  if (dst.getShape() != ArrayRef<int64_t>(expected) ||
      dst.getElementType() != src.getElementType())
    return emitOpError("result must be the operand type with a minor "
                       "dimension of 2 appended");
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = getSrc().getType();
  auto dst = getOutLHS().getType();
  if (src.getRank() == 0 || src.getShape().back() != 2)
    return emitOpError("source's minor dimension must be 2");
  if (dst.getShape() != src.getShape().drop_back() ||
      dst.getElementType() != src.getElementType())
    return emitOpError("results must be the source type without its minor "
                       "dimension");
  return success();
}

void SplitOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getOutLHS(), "outLHS");
  setNameFn(getOutRHS(), "outRHS");
}

LogicalResult GatherOp::verify() {
  auto src = getSrc().getType();
  auto indices = getIndices().getType();
  auto result = getResult().getType();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range [0, " << src.getRank() << ")";
  if (indices.getRank() != src.getRank())
    return emitOpError("indices and source must have the same rank");
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError("result must have the indices' shape and the source's "
                       "element type");
  return success();
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type src = getElementTypeOrSelf(getSrc().getType());
  Type dst = getElementTypeOrSelf(getResult().getType());
  if (src.isIntOrFloat() && dst.isIntOrFloat() &&
      src.getIntOrFloatBitWidth() != dst.getIntOrFloatBitWidth())
    return emitOpError("source and result element types must have the same "
                       "bit width");
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult MakeTensorPtrOp::verify() {
  auto block = cast<RankedTensorType>(
      cast<PointerType>(getResult().getType()).getPointeeType());
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank ||
      getOffsets().size() != rank || getOrder().size() != rank)
    return emitOpError("shape, strides, offsets and order must each have ")
           << rank << " entries (the block's rank)";
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       GlobalMemory::get());
  // A volatile load must neither be removed nor reordered with other accesses.
  if (getIsVolatile())
    effects.emplace_back(MemoryEffects::Write::get(), GlobalMemory::get());
}

//===----------------------------------------------------------------------===//
// Element-wise calls into external code
//===----------------------------------------------------------------------===//

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!getPure())
    addGlobalReadWrite(effects);
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!getPure())
    addGlobalReadWrite(effects);
}

//===----------------------------------------------------------------------===//
// tt.dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  ArrayRef<int64_t> a = getA().getType().getShape();
  ArrayRef<int64_t> b = getB().getType().getShape();
  ArrayRef<int64_t> c = getC().getType().getShape();
  size_t rank = a.size();
  if (rank < 2 || b.size() != rank || c.size() != rank)
    return emitOpError("operands must all have the same rank, at least 2");
  if (a[rank - 1] != b[rank - 2])
    return emitOpError("reduction dimensions of a (")
           << a[rank - 1] << ") and b (" << b[rank - 2] << ") differ";
  if (c[rank - 2] != a[rank - 2] || c[rank - 1] != b[rank - 1] ||
      a.drop_back(2) != b.drop_back(2) || a.drop_back(2) != c.drop_back(2))
    return emitOpError("accumulator shape must be [batch.., M, N] for a "
                       "[batch.., M, K] and b [batch.., K, N]");
  return success();
}

LogicalResult DotScaledOp::verify() {
  int64_t rank = getC().getType().getRank();
  if (rank < 2 || getA().getType().getRank() != rank ||
      getB().getType().getRank() != rank)
    return emitOpError("operands must all have the same rank, at least 2");
  return success();
}

//===----------------------------------------------------------------------===//
// tt.descriptor_gather, tt.descriptor_scatter: N rows of the descriptor's
// [1, K] block make an [N, K] tensor
//===----------------------------------------------------------------------===//

static LogicalResult verifyGatherScatter(Operation *op, TensorDescType desc,
                                         RankedTensorType rows,
                                         RankedTensorType tensor) {
  ArrayRef<int64_t> block = desc.getBlockType().getShape();
  if (block.size() != 2 || rows.getRank() != 1 || tensor.getRank() != 2)
    return op->emitOpError("needs a 2-D descriptor, 1-D row offsets and a "
                           "2-D tensor");
  if (tensor.getDimSize(0) != rows.getDimSize(0) ||
      tensor.getDimSize(1) != block[1])
    return op->emitOpError("tensor shape must be [number of rows, block "
                           "columns]");
  return success();
}

LogicalResult DescriptorGatherOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(),
                             getXOffsets().getType(), getResult().getType());
}

LogicalResult DescriptorScatterOp::verify() {
  return verifyGatherScatter(*this, getDesc().getType(),
                             getXOffsets().getType(), getSrc().getType());
}

//===----------------------------------------------------------------------===//
// tt.reduce and tt.scan
//===----------------------------------------------------------------------===//

static LogicalResult verifyAxis(Operation *op, ValueRange srcs, int64_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  int64_t rank = cast<RankedTensorType>(srcs.front().getType()).getRank();
  if (axis < 0 || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range [0, " << rank << ")";
  return success();
}

/// The combining region takes (acc..., cur...) scalars, one pair per operand,
/// and yields one scalar per operand through `TerminatorOp`.
template <typename TerminatorOp>
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ValueRange srcs) {
  SmallVector<Type> elementTypes;
  for (Value src : srcs)
    elementTypes.push_back(getElementTypeOrSelf(src.getType()));
  Block &block = region.front();
  if (block.getNumArguments() != 2 * elementTypes.size())
    return op->emitOpError("combining region must take ")
           << 2 * elementTypes.size() << " arguments";
  for (auto [index, arg] : llvm::enumerate(block.getArguments()))
    if (arg.getType() != elementTypes[index % elementTypes.size()])
      return op->emitOpError("combining region argument ")
             << index << " must have type "
             << elementTypes[index % elementTypes.size()];
  auto terminator =
      block.empty() ? TerminatorOp() : dyn_cast<TerminatorOp>(block.back());
  if (!terminator)
    return op->emitOpError("combining region must end with ")
           << TerminatorOp::getOperationName();
  if (TypeRange(terminator->getOperandTypes()) != TypeRange(elementTypes))
    return terminator.emitOpError("must return one value of each operand's "
                                  "element type");
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyAxis(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("must have one result per operand");
  for (auto [src, result] : llvm::zip(getSrcs(), getResult())) {
    auto srcType = cast<RankedTensorType>(src.getType());
    Type resultType = result.getType();
    if (srcType.getRank() == 1) {
      if (resultType != srcType.getElementType())
        return emitOpError("reducing a 1-D tensor must give a scalar of its "
                           "element type");
      continue;
    }
    SmallVector<int64_t> shape(srcType.getShape());
    shape.erase(shape.begin() + getAxis());
    auto tensor = dyn_cast<RankedTensorType>(resultType);
    if (!tensor || tensor.getShape() != ArrayRef<int64_t>(shape) ||
        tensor.getElementType() != srcType.getElementType())
      return emitOpError("result must be the operand without the reduced axis");
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion<ReduceReturnOp>(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyAxis(*this, getSrcs(), getAxisAttr().getInt())))
    return failure();
  if (TypeRange(getResult().getTypes()) != TypeRange(getSrcs().getTypes()))
    return emitOpError("results must have the operands' types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion<ScanReturnOp>(*this, getCombineOp(), getSrcs());
}

//===----------------------------------------------------------------------===//
// tt.map_elementwise
//===----------------------------------------------------------------------===//

LogicalResult MapElementwiseOp::verify() {
  if (getPack() < 1)
    return emitOpError("pack must be at least 1");
  return success();
}

/// The region takes `pack` scalars of each operand's element type (operand
/// by operand) and returns `pack` scalars of each result's element type.
LogicalResult MapElementwiseOp::verifyRegions() {
  uint64_t pack = getPack(); // at least 1: verify() ran
  // Each operand (result) stands for `pack` consecutive scalars of its
  // element type. Compared without expanding the lists: a huge pack is just
  // a count mismatch.
  auto matchesExpanded = [pack](TypeRange scalars, TypeRange types) {
    if (scalars.size() != pack * types.size())
      return false;
    for (auto [i, scalar] : llvm::enumerate(scalars))
      if (scalar != getElementTypeOrSelf(types[i / pack]))
        return false;
    return true;
  };
  if (!matchesExpanded(getScalarOp().getArgumentTypes(), getSrcs().getTypes()))
    return emitOpError("region must take ")
           << pack << " scalar(s) of each operand's element type";
  for (Block &block : getScalarOp()) {
    auto ret = block.empty() ? MapElementwiseReturnOp()
                             : dyn_cast<MapElementwiseReturnOp>(block.back());
    if (ret &&
        !matchesExpanded(ret.getResult().getTypes(), getResult().getTypes()))
      return ret.emitOpError("must return ")
             << pack << " scalar(s) of each result's element type";
  }
  return success();
}
