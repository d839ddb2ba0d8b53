//===- TmaCacheHints.cpp - L2 eviction hints on TMA loads -----------------===//
//
// TLE/Target/LLVMIR/TmaCacheHints.h.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/TmaCacheHints.h"
#include "SharedAsmCalls.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using mlir::tle::llir::describe;
using mlir::tle::llir::fail;
using mlir::tle::llir::inlineAsmOf;

namespace mlir::tle {

/// A TMA load from a tensor map into shared memory completing on an
/// mbarrier (Triton's lowering of ttng.async_tma_copy_global_to_local).
static bool isTmaLoad(const CallInst *call) {
  InlineAsm *ia = inlineAsmOf(call);
  if (!ia)
    return false;
  StringRef text = ia->getAsmString();
  return text.contains("cp.async.bulk.tensor") &&
         text.contains(".shared::cluster.global.") &&
         text.contains("mbarrier::complete_tx::bytes");
}

/// The TMA loads whose predicate derives from `marker`: its users, through
/// any instructions but calls, up to the loads.
static SmallVector<CallInst *> hintedLoads(CallInst *marker) {
  SmallVector<CallInst *> loads;
  SetVector<Instruction *> seen;
  SmallVector<Instruction *> work{marker};
  while (!work.empty()) {
    Instruction *inst = work.pop_back_val();
    for (User *user : inst->users()) {
      auto *next = dyn_cast<Instruction>(user);
      if (!next || !seen.insert(next))
        continue;
      if (auto *call = dyn_cast<CallInst>(next)) {
        if (isTmaLoad(call) && !llvm::is_contained(loads, call))
          loads.push_back(call);
        continue;
      }
      work.push_back(next);
    }
  }
  return loads;
}

/// `load` with `.L2::cache_hint` and `policy` as its last operand.
static Error hint(CallInst *load, Value *policy) {
  InlineAsm *ia = inlineAsmOf(load);
  std::string text = ia->getAsmString().str();
  StringRef trimmed = StringRef(text).rtrim();
  constexpr StringRef kCompletion = "mbarrier::complete_tx::bytes";
  size_t at = text.find(kCompletion);
  if (StringRef(text).count("cp.async.bulk.tensor") != 1 ||
      StringRef(text).count(kCompletion) != 1 || !trimmed.ends_with("];") ||
      text.find(".L2::cache_hint") != std::string::npos ||
      !ia->getFunctionType()->getReturnType()->isVoidTy())
    return fail("cannot hint TMA load " + describe(load) +
                ": expected one `cp.async.bulk.tensor ... "
                "mbarrier::complete_tx::bytes [...], [...], [...];` without "
                "a cache hint");
  text.insert(at + kCompletion.size(), ".L2::cache_hint");
  size_t end = StringRef(text).rtrim().size();
  text.replace(end - 2, 2, "], $" + std::to_string(load->arg_size()) + ";");
  SmallVector<Type *> params(ia->getFunctionType()->params());
  params.push_back(policy->getType());
  FunctionType *type =
      FunctionType::get(ia->getFunctionType()->getReturnType(), params, false);
  InlineAsm *hinted =
      InlineAsm::get(type, text, (ia->getConstraintString() + ",l").str(),
                     /*hasSideEffects=*/true, ia->isAlignStack(),
                     ia->getDialect(), ia->canThrow());
  SmallVector<Value *> args(load->args());
  args.push_back(policy);
  IRBuilder<> b(load);
  CallInst *call = b.CreateCall(hinted, args);
  call->copyMetadata(*load);
  load->eraseFromParent();
  return Error::success();
}

Expected<bool> finishTmaCacheHints(Module &module) {
  SmallVector<CallInst *> markers =
      llir::inlineAsmCalls(module, kTmaHintPrefix);
  for (CallInst *marker : markers) {
    StringRef text = StringRef(inlineAsmOf(marker)->getAsmString()).trim();
    StringRef policy;
    if (text == kTmaHintEvictFirstAsm)
      policy = "evict_first";
    else if (text == kTmaHintEvictLastAsm)
      policy = "evict_last";
    if (policy.empty() || marker->arg_size() != 0 ||
        !marker->getType()->isIntegerTy(32))
      return fail("malformed TMA cache-hint marker " + describe(marker) +
                  ": expected `" + kTmaHintEvictFirstAsm + "` or `" +
                  kTmaHintEvictLastAsm + "` with no operands, giving an i32");
    SmallVector<CallInst *> loads = hintedLoads(marker);
    if (loads.empty())
      return fail("TMA cache-hint marker " + describe(marker) +
                  " predicates no TMA load (Triton's `cp.async.bulk.tensor` "
                  "into shared memory on an mbarrier)");
    IRBuilder<> b(marker);
    FunctionType *make = FunctionType::get(b.getInt64Ty(), {}, false);
    Value *value = b.CreateCall(InlineAsm::get(
        make, ("createpolicy.fractional.L2::" + policy + ".b64 $0, 1.0;").str(),
        "=l", /*hasSideEffects=*/false));
    for (CallInst *load : loads)
      if (Error e = hint(load, value))
        return std::move(e);
    marker->replaceAllUsesWith(b.getInt32(1));
    marker->eraseFromParent();
  }
  return !markers.empty();
}

} // namespace mlir::tle
