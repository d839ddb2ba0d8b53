//===- TmaGather.cpp - TMA row gathers on Hopper --------------------------===//
//
// TLE/Target/LLVMIR/TmaGather.h.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/TmaGather.h"
#include "SharedAsmCalls.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using mlir::tle::llir::describe;
using mlir::tle::llir::fail;

namespace mlir::tle {

static constexpr StringLiteral kGridConstant = "nvvm.grid_constant";

/// The ordinal of `arg` among its function's grid-constant arguments.
static std::optional<unsigned> gridConstantOrdinal(const Argument *arg) {
  const Function *f = arg->getParent();
  if (!f->getAttributes().hasParamAttr(arg->getArgNo(), kGridConstant))
    return std::nullopt;
  unsigned ordinal = 0;
  for (const Argument &other : f->args()) {
    if (&other == arg)
      return ordinal;
    if (f->getAttributes().hasParamAttr(other.getArgNo(), kGridConstant))
      ++ordinal;
  }
  return std::nullopt;
}

/// Four one-row copies of the gather4's rows $4..$7 to $1 + i * rowBytes.
static std::string rowCopies(uint64_t rowBytes) {
  std::string text;
  for (unsigned i = 0; i < 4; ++i) {
    std::string dst = "$1";
    if (i)
      dst += "+" + std::to_string(i * rowBytes);
    text += "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile."
            "mbarrier::complete_tx::bytes [" +
            dst + "], [$2, {$3, $" + std::to_string(4 + i) + "}], [$8];";
    if (i != 3)
      text += "\n\t";
  }
  return text;
}

Expected<bool> splitTmaGathers(Module &module, ArrayRef<uint64_t> rowBytes) {
  SmallVector<CallInst *> gathers =
      llir::inlineAsmCalls(module, "tile::gather4");
  for (CallInst *call : gathers) {
    auto *ia = cast<InlineAsm>(call->getCalledOperand());
    if (StringRef(ia->getAsmString()).trim() != kTmaGather4Asm ||
        call->arg_size() != 9)
      return fail("unexpected TMA gather4 " + describe(call) +
                  ": expected Triton's `" + kTmaGather4Asm +
                  "` with 9 operands");
    auto *map = dyn_cast<Argument>(call->getArgOperand(2)->stripPointerCasts());
    std::optional<unsigned> ordinal =
        map ? gridConstantOrdinal(map) : std::nullopt;
    if (!ordinal)
      return fail("TMA gather4 " + describe(call) +
                  " reads a tensor map that is not a grid-constant kernel "
                  "argument; on sm_90 a gather needs a host tensor "
                  "descriptor (its box width is known from the launch)");
    if (*ordinal >= rowBytes.size() || rowBytes[*ordinal] == 0)
      return fail(formatv("TMA gather4 {0} reads tensor descriptor {1}, but "
                          "the row widths given cover {2} descriptors",
                          describe(call), *ordinal, rowBytes.size())
                      .str());
    if (rowBytes[*ordinal] % 128)
      return fail(formatv("TMA gather4 {0}: rows of {1} bytes cannot be "
                          "copied one by one on sm_90 (TMA needs 128-byte "
                          "aligned shared-memory addresses)",
                          describe(call), rowBytes[*ordinal])
                      .str());
    InlineAsm *rows =
        InlineAsm::get(ia->getFunctionType(), rowCopies(rowBytes[*ordinal]),
                       ia->getConstraintString(), /*hasSideEffects=*/true,
                       ia->isAlignStack(), ia->getDialect(), ia->canThrow());
    call->setCalledOperand(rows);
  }
  return !gathers.empty();
}

} // namespace mlir::tle
