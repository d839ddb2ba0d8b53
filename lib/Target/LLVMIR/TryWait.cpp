//===- TryWait.cpp - non-blocking mbarrier phase tests --------------------===//
//
// TLE/Target/LLVMIR/TryWait.h.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/TryWait.h"
#include "SharedAsmCalls.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using mlir::tle::llir::describe;
using mlir::tle::llir::fail;
using mlir::tle::llir::inlineAsmOf;

namespace mlir::tle {

/// The test: the phase's completion as 0 or 1, from every thread.
static constexpr StringLiteral kTryWaitAsm =
    "{\n\t.reg .pred complete;\n\t"
    "mbarrier.try_wait.parity.shared.b64 complete, [$1], $2;\n\t"
    "selp.u32 $0, 1, 0, complete;\n}";

static bool isAsm(const Value *v, StringRef text) {
  InlineAsm *ia = inlineAsmOf(v);
  return ia && StringRef(ia->getAsmString()).trim() == text;
}

/// Triton's predicated ttng.wait_barrier: `[$0]` the barrier, `$1` the
/// parity, `$2` the predicate.
static CallInst *predicatedWait(Instruction *pred) {
  for (User *user : pred->users()) {
    auto *call = dyn_cast<CallInst>(user);
    InlineAsm *ia = inlineAsmOf(call);
    if (ia &&
        StringRef(ia->getAsmString()).contains("mbarrier.try_wait.parity") &&
        call->arg_size() == 3 && call->getArgOperand(2) == pred &&
        ia->getConstraintString() == "r,r,b")
      return call;
  }
  return nullptr;
}

Expected<bool> finishBarrierTryWaits(Module &module) {
  SmallVector<CallInst *> ends = llir::inlineAsmCalls(module, kTryWaitEndAsm);
  for (CallInst *end : ends) {
    if (!isAsm(end, kTryWaitEndAsm) || end->arg_size() != 1 ||
        !isAsm(end->getArgOperand(0), kTryWaitBeginAsm))
      return fail("malformed barrier_try_wait marker " + describe(end) +
                  ": expected `" + kTryWaitEndAsm + "` of a `" +
                  kTryWaitBeginAsm + "` marker");
    auto *begin = cast<CallInst>(end->getArgOperand(0));
    CallInst *wait = nullptr;
    Instruction *pred = nullptr;
    for (User *user : begin->users()) {
      auto *cmp = dyn_cast<ICmpInst>(user);
      if (!cmp)
        continue;
      if (CallInst *w = predicatedWait(cmp)) {
        wait = w;
        pred = cmp;
        break;
      }
    }
    if (!wait)
      return fail("barrier_try_wait marker " + describe(begin) +
                  " predicates no mbarrier wait (Triton's "
                  "`mbarrier.try_wait.parity` loop, predicated)");
    IRBuilder<> b(wait);
    FunctionType *type = FunctionType::get(
        b.getInt32Ty(),
        {wait->getArgOperand(0)->getType(), wait->getArgOperand(1)->getType()},
        false);
    InlineAsm *test = InlineAsm::get(type, kTryWaitAsm, "=r,r,r",
                                     /*hasSideEffects=*/true);
    CallInst *result =
        b.CreateCall(test, {wait->getArgOperand(0), wait->getArgOperand(1)});
    result->setDebugLoc(wait->getDebugLoc());
    result->setTailCall(wait->isTailCall());
    end->replaceAllUsesWith(result);
    end->eraseFromParent();
    wait->eraseFromParent();
    if (pred->use_empty())
      pred->eraseFromParent();
    if (!begin->use_empty())
      return fail("barrier_try_wait marker " + describe(begin) +
                  " has uses other than its wait and end marker");
    begin->eraseFromParent();
  }
  if (!llir::inlineAsmCalls(module, kTryWaitBeginAsm).empty())
    return fail("a barrier_try_wait begin marker without its end marker");
  return !ends.empty();
}

} // namespace mlir::tle
