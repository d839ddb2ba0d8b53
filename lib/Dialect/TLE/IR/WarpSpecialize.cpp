//===- WarpSpecialize.cpp - tle.warp_specialize ---------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/WarpSpecializeSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

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

static interop::WarpSpecializeSyntax syntaxOf(OperationName name) {
  // The default region ends with a tle.warp_yield, each partition with a
  // tle.warp_return; both may be left implicit.
  static auto finish = [](Region &region, bool isDefault, Location loc) {
    OpBuilder builder(loc.getContext());
    if (!isDefault) {
      WarpSpecializePartitionsOp::ensureTerminator(region, builder, loc);
      return;
    }
    if (region.empty())
      region.emplaceBlock();
    Block &block = region.front();
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
      builder.setInsertionPointToEnd(&block);
      WarpYieldOp::create(builder, loc, ValueRange());
    }
  };
  return {WarpSpecializePartitionsOp::getOperationName(),
          WarpSpecializeOp::getPartitionNumWarpsAttrName(name).getValue(),
          WarpSpecializeOp::getPartitionNumRegsAttrName(name).getValue(),
          finish};
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  return interop::parseWarpSpecialize(parser, result, syntaxOf(result.name));
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  interop::printWarpSpecialize(printer, *this, getCaptures(),
                               getDefaultRegion(), getPartitionRegions(),
                               getPartitionNumWarps(), getPartitionNumRegs(),
                               syntaxOf((*this)->getName()));
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
