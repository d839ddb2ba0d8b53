//===- GridBarrier.cpp - barriers of every program of a launch ------------===//
//
// TLE/Target/LLVMIR/GridBarrier.h.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/GridBarrier.h"
#include "SharedAsmCalls.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using mlir::tle::llir::describe;
using mlir::tle::llir::fail;
using mlir::tle::llir::inlineAsmOf;

namespace mlir::tle {

/// Thread 0 of the CTA (Triton's blocks are one-dimensional): `$0` is the
/// global {count, generation} pair. The CTA barriers around it are the
/// marker's neighbours in TTGIR. The fences make the barrier cumulative
/// over every thread's accesses, as CUDA's grid.sync() does.
static constexpr StringLiteral kGridBarrierPtx =
    "{\n\t"
    ".reg .pred leader, last, same;\n\t"
    ".reg .b32 tid, gen, seen, old, n, ny, nz;\n\t"
    "mov.u32 tid, %tid.x;\n\t"
    "setp.eq.u32 leader, tid, 0;\n\t"
    "@!leader bra gridBarrierDone;\n\t"
    "mov.u32 n, %nctaid.x;\n\t"
    "mov.u32 ny, %nctaid.y;\n\t"
    "mov.u32 nz, %nctaid.z;\n\t"
    "mul.lo.u32 n, n, ny;\n\t"
    "mul.lo.u32 n, n, nz;\n\t"
    "ld.acquire.gpu.u32 gen, [$0+4];\n\t"
    "fence.acq_rel.gpu;\n\t"
    "atom.add.release.gpu.u32 old, [$0], 1;\n\t"
    "add.u32 old, old, 1;\n\t"
    "setp.eq.u32 last, old, n;\n\t"
    "@!last bra gridBarrierWait;\n\t"
    "fence.acq_rel.gpu;\n\t"
    "st.relaxed.gpu.u32 [$0], 0;\n\t"
    "add.u32 gen, gen, 1;\n\t"
    "st.release.gpu.u32 [$0+4], gen;\n\t"
    "bra gridBarrierDone;\n"
    "gridBarrierWait:\n\t"
    "ld.acquire.gpu.u32 seen, [$0+4];\n\t"
    "setp.eq.u32 same, seen, gen;\n\t"
    "@same bra gridBarrierWait;\n\t"
    "fence.acq_rel.gpu;\n"
    "gridBarrierDone:\n"
    "}";

static GlobalVariable *gridBarrierGlobal(Module &module) {
  if (GlobalVariable *gv = module.getGlobalVariable(kGridBarrierGlobal, true))
    return gv;
  auto *type = ArrayType::get(Type::getInt32Ty(module.getContext()), 2);
  auto *gv = new GlobalVariable(
      module, type, /*isConstant=*/false, GlobalValue::InternalLinkage,
      ConstantAggregateZero::get(type), kGridBarrierGlobal,
      /*InsertBefore=*/nullptr, GlobalValue::NotThreadLocal,
      /*AddressSpace=*/1);
  gv->setAlignment(Align(8));
  return gv;
}

Expected<bool> finishGridBarriers(Module &module) {
  SmallVector<CallInst *> markers =
      llir::inlineAsmCalls(module, kGridBarrierAsm);
  if (markers.empty())
    return false;
  GlobalVariable *state = gridBarrierGlobal(module);
  for (CallInst *marker : markers) {
    InlineAsm *ia = inlineAsmOf(marker);
    if (!ia || StringRef(ia->getAsmString()).trim() != kGridBarrierAsm ||
        marker->arg_size() != 0 || !marker->use_empty())
      return fail("malformed grid barrier marker " + describe(marker) +
                  ": expected `" + kGridBarrierAsm +
                  "` without operands or used results");
    IRBuilder<> b(marker);
    FunctionType *type =
        FunctionType::get(b.getVoidTy(), {state->getType()}, false);
    InlineAsm *barrier = InlineAsm::get(type, kGridBarrierPtx, "l,~{memory}",
                                        /*hasSideEffects=*/true);
    CallInst *call = b.CreateCall(barrier, {state});
    call->setDebugLoc(marker->getDebugLoc());
    marker->eraseFromParent();
  }
  return true;
}

} // namespace mlir::tle
