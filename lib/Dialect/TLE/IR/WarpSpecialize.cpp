//===- WarpSpecialize.cpp - tle.warp_specialize ---------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/ParseRegions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::tle;

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

WarpSpecializePartitionsOp WarpSpecializeOp::getPartitionOp() {
  Region &holder = getPartitionOpHolder();
  if (holder.empty() || holder.front().empty())
    return {};
  return dyn_cast<WarpSpecializePartitionsOp>(holder.front().front());
}

MutableArrayRef<Region> WarpSpecializeOp::getPartitionRegions() {
  if (WarpSpecializePartitionsOp partitions = getPartitionOp())
    return partitions.getPartitionRegions();
  return {};
}

WarpYieldOp WarpSpecializeOp::getDefaultYield() {
  Region &region = getDefaultRegion();
  if (region.empty() || region.front().empty())
    return {};
  return dyn_cast<WarpYieldOp>(region.front().back());
}

//===----------------------------------------------------------------------===//
// Assembly
//
//   %r = tle.warp_specialize(%a, %b) [attributes {...}]
//   default {
//     ...
//     tle.warp_yield %x : f32
//   }
//   partition0(%arg0: T, %arg1: U) num_warps(4) [num_regs(232)] {
//     ...
//     tle.warp_return
//   } : (T, U) -> f32
//===----------------------------------------------------------------------===//

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  OpBuilder builder(ctx);
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default"))
    return failure();

  Region *defaultRegion = result.addRegion();
  if (parser.parseRegion(*defaultRegion, /*arguments=*/{}))
    return failure();
  if (defaultRegion->empty())
    defaultRegion->emplaceBlock();
  Block &defaultBlock = defaultRegion->front();
  if (defaultBlock.empty() ||
      !defaultBlock.back().hasTrait<OpTrait::IsTerminator>()) {
    builder.setInsertionPointToEnd(&defaultBlock);
    WarpYieldOp::create(builder, result.location, ValueRange());
  }

  OperationState partitionState(result.location,
                                WarpSpecializePartitionsOp::getOperationName());
  // See ParseRegions.h (found by scripts/fuzz_tle_opt.py).
  bool parsed = false;
  auto dropReferences = llvm::make_scope_exit([&] {
    if (!parsed)
      interop::keepRegions(partitionState.regions, result);
  });
  SmallVector<int32_t> numWarps, numRegs;
  for (unsigned index = 0;; ++index) {
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeyword(
            ("partition" + Twine(index)).str())))
      break;
    SmallVector<OpAsmParser::Argument> arguments;
    int32_t warps = 0;
    if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen())
      return failure();
    numWarps.push_back(warps);
    if (succeeded(parser.parseOptionalKeyword("num_regs"))) {
      int32_t regs = 0;
      if (parser.parseLParen() || parser.parseInteger(regs) ||
          parser.parseRParen())
        return failure();
      if (numRegs.size() != index)
        return parser.emitError(loc, "num_regs must be given for every "
                                     "partition or for none");
      numRegs.push_back(regs);
    } else if (!numRegs.empty()) {
      return parser.emitError(loc, "num_regs must be given for every "
                                   "partition or for none");
    }
    Region *region = partitionState.addRegion();
    if (parser.parseRegion(*region, arguments))
      return failure();
    WarpSpecializePartitionsOp::ensureTerminator(*region, builder,
                                                 result.location);
  }

  FunctionType type;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(getPartitionNumWarpsAttrName(result.name),
                      DenseI32ArrayAttr::get(ctx, numWarps));
  if (!numRegs.empty())
    result.addAttribute(getPartitionNumRegsAttrName(result.name),
                        DenseI32ArrayAttr::get(ctx, numRegs));

  Region *holder = result.addRegion();
  Block *holderBlock = builder.createBlock(holder);
  builder.setInsertionPointToEnd(holderBlock);
  builder.create(partitionState);
  parsed = true;
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  printer << "(" << getCaptures() << ")";
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getPartitionNumWarpsAttrName(), getPartitionNumRegsAttrName()});
  printer.printNewline();
  printer << "default ";
  printer.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  std::optional<ArrayRef<int32_t>> numRegs = getPartitionNumRegs();
  for (auto [index, region] : llvm::enumerate(getPartitionRegions())) {
    printer.printNewline();
    printer << "partition" << index << "(";
    if (!region.empty())
      llvm::interleaveComma(region.getArguments(), printer,
                            [&](BlockArgument arg) {
                              printer.printRegionArgument(arg);
                            });
    // (An op that fails verification prints in generic form; the guards only
    // keep a direct print of a malformed op from reading out of bounds.)
    printer << ") num_warps("
            << (index < numWarps.size() ? numWarps[index] : 0) << ")";
    if (numRegs && index < numRegs->size())
      printer << " num_regs(" << (*numRegs)[index] << ")";
    printer << " ";
    printer.printRegion(region, /*printEntryBlockArgs=*/false,
                        /*printBlockTerminators=*/true);
  }
  printer << " : ";
  printer.printFunctionalType(getCaptures().getTypes(), getResultTypes());
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// `(T, U)`, unquoted (a diagnostic quotes each streamed type).
static std::string typeList(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(types, os);
  os << ")";
  return text;
}

LogicalResult WarpSpecializeOp::verify() {
  WarpSpecializePartitionsOp partitions = getPartitionOp();
  Region &holder = getPartitionOpHolder();
  if (!partitions || holder.front().getOperations().size() != 1)
    return emitOpError("second region must hold exactly one "
                       "tle.warp_specialize.partitions op");

  ArrayRef<int32_t> numWarps = getPartitionNumWarps();
  unsigned numPartitions = partitions.getNumRegions();
  if (numWarps.size() != numPartitions)
    return emitOpError("has ")
           << numPartitions << " partition regions but partition_num_warps has "
           << numWarps.size() << " entries";
  for (auto [index, warps] : llvm::enumerate(numWarps))
    if (warps < 1 || !llvm::isPowerOf2_32(warps))
      return emitOpError("partition ")
             << index << " num_warps must be a power of two >= 1, got "
             << warps;

  if (std::optional<ArrayRef<int32_t>> numRegs = getPartitionNumRegs()) {
    if (numRegs->size() != numPartitions)
      return emitOpError("has ")
             << numPartitions << " partitions but partition_num_regs has "
             << numRegs->size() << " entries";
    for (auto [index, regs] : llvm::enumerate(*numRegs))
      if (regs < 24 || regs > 256 || regs % 8 != 0)
        return emitOpError("partition ")
               << index
               << " num_regs must be a multiple of 8 in [24, 256], got "
               << regs;
  }
  return success();
}

LogicalResult WarpSpecializeOp::verifyRegions() {
  Block &defaultBlock = getDefaultRegion().front();
  if (defaultBlock.getNumArguments() != 0)
    return emitOpError("default region must have no arguments");
  WarpYieldOp yield = getDefaultYield();
  if (!yield)
    return emitOpError("default region must end with tle.warp_yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError("default region yields ")
           << typeList(yield.getValues().getTypes())
           << " but the op results are " << typeList(getResultTypes());

  TypeRange captureTypes = getCaptures().getTypes();
  for (auto [index, region] : llvm::enumerate(getPartitionRegions())) {
    TypeRange argTypes = region.front().getArgumentTypes();
    if (argTypes != captureTypes)
      return emitOpError("partition ")
             << index << " block arguments " << typeList(argTypes)
             << " must match the capture types " << typeList(captureTypes);
  }
  return success();
}
