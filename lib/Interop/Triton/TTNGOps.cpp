//===- TTNGOps.cpp - Interop ops of Triton 3.6's `ttng` dialect -----------===//
//
// Verifiers check only rules that are simple and certain; anything Triton
// 3.6.0 prints must parse.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TTNG.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ttng;
using ttg::MemDescType;

//===----------------------------------------------------------------------===//
// `custom<Token>`: `[]` or `[%dep]` after a tcgen05 MMA's accumulator when the
// op gives an async token (Gluon's form); nothing when it gives none.
//===----------------------------------------------------------------------===//

static ParseResult
parseToken(OpAsmParser &parser,
           std::optional<OpAsmParser::UnresolvedOperand> &dep, Type &token) {
  if (failed(parser.parseOptionalLSquare()))
    return success();
  token = ttg::AsyncTokenType::get(parser.getContext());
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult parsed = parser.parseOptionalOperand(operand);
  if (parsed.has_value()) {
    if (failed(*parsed))
      return failure();
    dep = operand;
  }
  return parser.parseRSquare();
}

static void printToken(OpAsmPrinter &printer, Operation *, Value dep,
                       Type token) {
  if (!token)
    return;
  printer << "[";
  if (dep)
    printer << dep;
  printer << "]";
}

//===----------------------------------------------------------------------===//
// `custom<Barriers>`: `, %bar0[%pred0], %bar1[%pred1]`
//===----------------------------------------------------------------------===//

static ParseResult
parseBarriers(OpAsmParser &parser,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &barriers,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &preds) {
  while (succeeded(parser.parseOptionalComma()))
    if (parser.parseOperand(barriers.emplace_back()) || parser.parseLSquare() ||
        parser.parseOperand(preds.emplace_back()) || parser.parseRSquare())
      return failure();
  return success();
}

static void printBarriers(OpAsmPrinter &printer, Operation *,
                          OperandRange barriers, OperandRange preds) {
  for (auto [barrier, pred] : llvm::zip_equal(barriers, preds))
    printer << ", " << barrier << "[" << pred << "]";
}

#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTNGOps.cpp.inc"

//===----------------------------------------------------------------------===//
// WarpGroupDotOp
//===----------------------------------------------------------------------===//

void WarpGroupDotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // wgmma reads its shared-memory operands; register operands are values.
  for (OpOperand &operand : getOperation()->getOpOperands())
    if (isa<MemDescType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           ttg::SharedMemory::get());
}

//===----------------------------------------------------------------------===//
// WarpGroupDotWaitOp: its results take its operands' types
//===----------------------------------------------------------------------===//

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncTMACopyGlobalToLocalOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  if (!cast<MemDescType>(getResult().getType()).getMutableMemory())
    return emitOpError("cannot copy into an immutable memdesc");
  return success();
}

//===----------------------------------------------------------------------===//
// AsyncTMAGatherOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncTMAGatherOp::verify() {
  if (!cast<MemDescType>(getResult().getType()).getMutableMemory())
    return emitOpError("cannot gather into an immutable memdesc");
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

LogicalResult TMEMAllocOp::verify() {
  return ttg::verifyAlloc(*this, getSrc(),
                          cast<MemDescType>(getResult().getType()));
}

LogicalResult TMEMLoadOp::verify() {
  return ttg::verifySameShapeAndElement(
      *this, cast<RankedTensorType>(getResult().getType()),
      cast<MemDescType>(getSrc().getType()));
}

LogicalResult TMEMStoreOp::verify() {
  auto dst = cast<MemDescType>(getDst().getType());
  if (!dst.getMutableMemory())
    return emitOpError("cannot store into an immutable memdesc");
  return ttg::verifySameShapeAndElement(
      *this, cast<RankedTensorType>(getSrc().getType()), dst);
}

LogicalResult TMEMSubSliceOp::verify() {
  auto src = cast<MemDescType>(getSrc().getType());
  auto result = cast<MemDescType>(getResult().getType());
  if (src.getShape().size() != 2 || result.getShape().size() != 2)
    return emitOpError("source and result must be 2-D");
  if (src.getElementType() != result.getElementType())
    return emitOpError("result element type must match the source's");
  int64_t n = getN();
  if (result.getDimSize(0) != src.getDimSize(0) || n < 0 ||
      n + result.getDimSize(1) > src.getDimSize(1))
    return emitOpError("columns [N, N + result columns) must lie within the "
                       "source");
  return success();
}

//===----------------------------------------------------------------------===//
// tcgen05 MMAs: one predicate per barrier
//===----------------------------------------------------------------------===//

static LogicalResult verifyBarrierPreds(Operation *op, OperandRange barriers,
                                        OperandRange preds) {
  if (barriers.size() != preds.size())
    return op->emitOpError("needs one predicate per barrier");
  return success();
}

LogicalResult TCGen5MMAOp::verify() {
  return verifyBarrierPreds(*this, getBarriers(), getBarrierPreds());
}

LogicalResult TCGen5MMAScaledOp::verify() {
  return verifyBarrierPreds(*this, getBarriers(), getBarrierPreds());
}
