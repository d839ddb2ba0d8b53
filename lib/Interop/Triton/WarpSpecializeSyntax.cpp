//===- WarpSpecializeSyntax.cpp - the warp_specialize assembly ------------===//
#include "TLE/Interop/Triton/WarpSpecializeSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/ScopeExit.h"

#include <memory>
#include <string>

using namespace mlir;

namespace {
/// A failed parse that parsed regions outside `result` (the partitions, which
/// go into a nested op) must not destroy them itself, before the parser tears
/// down everything else: a value they define may already have uses elsewhere
/// (a use before the definition, in the enclosing block or a sibling region,
/// resolves to it), and destroying a definition that still has uses is fatal
/// ("operation destroyed but still has uses"). Handing them to `result` gets
/// them torn down the way the parser tears down any op's regions. (Found by
/// scripts/fuzz_tle_opt.py.)
void keepRegions(MutableArrayRef<std::unique_ptr<Region>> regions,
                 OperationState &result) {
  for (std::unique_ptr<Region> &region : regions)
    if (region)
      result.addRegion(std::move(region));
}
} // namespace

ParseResult
tle::interop::parseWarpSpecialize(OpAsmParser &parser, OperationState &result,
                                  const WarpSpecializeSyntax &syntax) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default"))
    return failure();
  Region *defaultRegion = result.addRegion();
  if (parser.parseRegion(*defaultRegion, /*arguments=*/{}))
    return failure();
  if (syntax.finishRegion)
    syntax.finishRegion(*defaultRegion, /*isDefault=*/true, result.location);

  OperationState partitionState(result.location, syntax.partitionsOpName);
  bool parsed = false;
  auto dropReferences = llvm::make_scope_exit([&] {
    if (!parsed)
      keepRegions(partitionState.regions, result);
  });
  SmallVector<int32_t> numWarps, numRegs;
  StringRef keyword;
  for (unsigned index = 0;; ++index) {
    SMLoc loc = parser.getCurrentLocation();
    if (failed(parser.parseOptionalKeyword(&keyword)))
      break;
    std::string expected = "partition" + std::to_string(index);
    if (keyword != expected)
      return parser.emitError(parser.getCurrentLocation())
             << "expected '" << expected << "', found '" << keyword << "'";
    SmallVector<OpAsmParser::Argument> arguments;
    int32_t warps = 0;
    if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(warps) || parser.parseRParen())
      return failure();
    numWarps.push_back(warps);
    if (!syntax.numRegsAttrName.empty() &&
        succeeded(parser.parseOptionalKeyword("num_regs"))) {
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
    if (syntax.finishRegion)
      syntax.finishRegion(*region, /*isDefault=*/false, result.location);
  }

  FunctionType type;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(syntax.numWarpsAttrName,
                      DenseI32ArrayAttr::get(ctx, numWarps));
  if (!numRegs.empty())
    result.addAttribute(syntax.numRegsAttrName,
                        DenseI32ArrayAttr::get(ctx, numRegs));

  // The holder region: one block holding the partitions op.
  Region *holder = result.addRegion();
  OpBuilder builder(ctx);
  builder.createBlock(holder);
  builder.create(partitionState);
  parsed = true;
  return success();
}

void tle::interop::printWarpSpecialize(OpAsmPrinter &printer, Operation *op,
                                       ValueRange captures,
                                       Region &defaultRegion,
                                       MutableArrayRef<Region> partitions,
                                       ArrayRef<int32_t> numWarps,
                                       std::optional<ArrayRef<int32_t>> numRegs,
                                       const WarpSpecializeSyntax &syntax) {
  printer << '(' << captures << ')';
  SmallVector<StringRef, 2> elided{syntax.numWarpsAttrName};
  if (!syntax.numRegsAttrName.empty())
    elided.push_back(syntax.numRegsAttrName);
  printer.printOptionalAttrDictWithKeyword(op->getAttrs(), elided);
  printer.printNewline();
  printer << "default ";
  printer.printRegion(defaultRegion, /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
  for (auto [index, region] : llvm::enumerate(partitions)) {
    printer.printNewline();
    printer << "partition" << index << '(';
    if (!region.empty())
      llvm::interleaveComma(
          region.getArguments(), printer,
          [&](BlockArgument arg) { printer.printRegionArgument(arg); });
    // (An op that fails verification prints in generic form; the guards only
    // keep a direct print of a malformed op from reading out of bounds.)
    printer << ") num_warps(";
    if (index < numWarps.size())
      printer << numWarps[index];
    printer << ')';
    if (!syntax.numRegsAttrName.empty() && numRegs && index < numRegs->size())
      printer << " num_regs(" << (*numRegs)[index] << ')';
    printer << ' ';
    printer.printRegion(region, /*printEntryBlockArgs=*/false,
                        /*printBlockTerminators=*/true);
  }
  printer << " : ";
  printer.printFunctionalType(captures.getTypes(), op->getResultTypes());
}
