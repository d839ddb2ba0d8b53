//===- ModuleContext.cpp - Triton's module context lookups ----------------===//
#include "TLE/Interop/Triton/ModuleContext.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

using namespace mlir;

namespace {
/// A warp_specialize's partitions op: Triton's, or TLE's (whose op names
/// mirror Triton's; TLE's dialect is not visible from the interop layer).
constexpr llvm::StringLiteral kTTGPartitionsOp =
    "ttg.warp_specialize.partitions";
constexpr llvm::StringLiteral kTLEPartitionsOp =
    "tle.warp_specialize.partitions";
/// tle.warp_specialize's warp count per partition.
constexpr llvm::StringLiteral kTLEPartitionNumWarpsAttr = "partition_num_warps";
} // namespace

std::optional<int64_t> tle::interop::lookupIntAttr(Operation *op,
                                                   StringRef name) {
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<IntegerAttr>(name))
      return attr.getInt();
  return std::nullopt;
}

std::optional<int64_t> tle::interop::lookupNumWarps(Operation *op) {
  for (Operation *child = op; child; child = child->getParentOp()) {
    if (auto attr = child->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      return attr.getInt();
    Operation *parent = child->getParentOp();
    if (!parent)
      break;
    StringRef parentName = parent->getName().getStringRef();
    bool ttg = parentName == kTTGPartitionsOp;
    if (!ttg && parentName != kTLEPartitionsOp)
      continue;
    // The partitions op sits in its warp_specialize's holder region; its
    // region K is worker partition K.
    Operation *ws = parent->getParentOp();
    auto warps =
        ws ? ws->getAttrOfType<DenseI32ArrayAttr>(
                 ttg ? kPartitionNumWarpsAttr : kTLEPartitionNumWarpsAttr)
           : DenseI32ArrayAttr();
    unsigned index = child->getParentRegion()->getRegionNumber();
    if (warps && index < warps.asArrayRef().size())
      return warps.asArrayRef()[index];
  }
  return std::nullopt;
}

std::optional<int64_t> tle::interop::lookupThreadsPerWarp(Operation *op) {
  return lookupIntAttr(op, kThreadsPerWarpAttr);
}

StringRef tle::interop::lookupTarget(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<StringAttr>(kTargetAttr))
      return attr.getValue();
  return {};
}
