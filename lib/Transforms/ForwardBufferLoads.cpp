//===- ForwardBufferLoads.cpp - read a buffer, not a copy of it -----------===//
//
// triton-tle-forward-buffer-loads: a tensor loaded from a shared buffer and
// copied into a fresh ttg.local_alloc only to be loaded again in another
// layout (Triton's decomposition of a layout conversion into a dot-operand
// layout) is loaded from the buffer directly. The rules are documented with
// the pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Support/MemoryEffects.h"
#include "TLE/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::tle {
#define GEN_PASS_DEF_TLEFORWARDBUFFERLOADS
#include "TLE/Transforms/Passes.h.inc"

namespace {

/// The first op strictly between `from` and `to` (same block, `from` first)
/// that may write memory, or null.
Operation *firstWriteBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to;
       op = op->getNextNode())
    if (mayWriteMemory(op))
      return op;
  return nullptr;
}

void forward(ttg::LocalAllocOp alloc) {
  auto load = alloc.getSrc() ? alloc.getSrc().getDefiningOp<ttg::LocalLoadOp>()
                             : ttg::LocalLoadOp();
  if (!load || load->getBlock() != alloc->getBlock())
    return;
  auto bufType = cast<ttg::MemDescType>(load.getSrc().getType());
  auto copyType = cast<ttg::MemDescType>(alloc.getResult().getType());
  if (bufType.getShape() != copyType.getShape() ||
      bufType.getElementType() != copyType.getElementType() ||
      bufType.getMemorySpace() != copyType.getMemorySpace())
    return;
  // Every user of the copy is a load after the copy, in its block.
  SmallVector<ttg::LocalLoadOp> reads;
  for (Operation *user : alloc->getUsers()) {
    auto read = dyn_cast<ttg::LocalLoadOp>(user);
    if (!read || read->getBlock() != alloc->getBlock() ||
        !alloc->isBeforeInBlock(read))
      return;
    reads.push_back(read);
  }
  if (reads.empty())
    return;
  for (ttg::LocalLoadOp read : reads) {
    // Where no write to memory comes between, the buffer is read where the
    // copy was; else (the buffer may be overwritten: a pipe slot released
    // to its writer, a store) just before the first such write, when it
    // still holds the values the first load read and the copy holds.
    OpBuilder builder(read);
    if (Operation *write = firstWriteBetween(load, read))
      builder.setInsertionPoint(write);
    auto direct = ttg::LocalLoadOp::create(builder, read.getLoc(),
                                           read.getResult().getType(),
                                           load.getSrc(), load.getToken());
    read.getResult().replaceAllUsesWith(direct.getResult());
    read->erase();
  }
  alloc->erase();
  if (load->use_empty())
    load->erase();
}

struct TLEForwardBufferLoads
    : impl::TLEForwardBufferLoadsBase<TLEForwardBufferLoads> {
  void runOnOperation() override {
    SmallVector<ttg::LocalAllocOp> allocs;
    getOperation()->walk([&](ttg::LocalAllocOp alloc) {
      if (alloc.getSrc())
        allocs.push_back(alloc);
    });
    for (ttg::LocalAllocOp alloc : allocs)
      forward(alloc);
  }
};
} // namespace
} // namespace mlir::tle
