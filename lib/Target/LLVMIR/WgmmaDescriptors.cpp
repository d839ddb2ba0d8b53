//===- WgmmaDescriptors.cpp - wgmma descriptors computed at their use -----===//
//
// See TLE/Target/LLVMIR/WgmmaDescriptors.h.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/WgmmaDescriptors.h"
#include "PTXAsm.h"
#include "SharedAsmCalls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir::tle {
namespace {

/// One descriptor operand to compute inside the asm.
struct Fold {
  unsigned operand; // $N in the asm string
  unsigned arg;     // the call argument
  Value *base;
  uint64_t imm;
  bool isOr;
};

/// `add`/`or` (base, constant) of i64, defined outside `call`'s block.
std::optional<Fold> foldable(CallInst *call, unsigned operand, unsigned arg) {
  auto *bin = dyn_cast<BinaryOperator>(call->getArgOperand(arg));
  if (!bin || !bin->getType()->isIntegerTy(64) ||
      bin->getParent() == call->getParent())
    return std::nullopt;
  unsigned opcode = bin->getOpcode();
  if (opcode != Instruction::Add && opcode != Instruction::Or)
    return std::nullopt;
  Value *base = bin->getOperand(0);
  auto *imm = dyn_cast<ConstantInt>(bin->getOperand(1));
  if (!imm) {
    base = bin->getOperand(1);
    imm = dyn_cast<ConstantInt>(bin->getOperand(0));
  }
  if (!imm || isa<Constant>(base))
    return std::nullopt;
  return Fold{operand, arg, base, imm->getZExtValue(),
              opcode == Instruction::Or};
}

bool foldCall(CallInst *call) {
  auto *ia = cast<InlineAsm>(call->getCalledOperand());
  // Asm operand N is the N-th constraint that is not a clobber; inputs (and
  // indirect outputs) take the call's arguments in order.
  SmallVector<Fold> folds;
  unsigned operand = 0, arg = 0;
  for (const InlineAsm::ConstraintInfo &c : ia->ParseConstraints()) {
    if (c.Type == InlineAsm::isClobber)
      continue;
    unsigned n = operand++;
    if (c.Type == InlineAsm::isOutput && !c.isIndirect)
      continue;
    unsigned a = arg++;
    if (c.Type != InlineAsm::isInput || c.isIndirect || c.Codes.size() != 1 ||
        c.Codes[0] != "l")
      continue;
    if (std::optional<Fold> fold = foldable(call, n, a))
      folds.push_back(*fold);
  }
  if (folds.empty())
    return false;

  // References to a folded operand name its scoped register instead.
  std::string text = ia->getAsmString().str();
  std::string body;
  size_t at = 0;
  for (const ptx::OperandRef &ref : ptx::findOperandRefs(text)) {
    const Fold *fold = llvm::find_if(
        folds, [&](const Fold &f) { return f.operand == ref.operand; });
    if (fold == folds.end())
      continue;
    body += text.substr(at, ref.begin - at);
    body += "%tle_wd" + std::to_string(fold - folds.begin());
    at = ref.end;
  }
  body += text.substr(at);

  std::string asmString;
  raw_string_ostream os(asmString);
  os << "{\n\t.reg .b64 %tle_wd<" << folds.size() << ">;\n";
  for (auto [i, fold] : llvm::enumerate(folds))
    os << "\t" << (fold.isOr ? "or.b64" : "add.s64") << " %tle_wd" << i << ", $"
       << fold.operand << ", " << format_hex(fold.imm, 18) << ";\n";
  os << "\t" << body << "\n}";

  SmallVector<Instruction *> dead;
  for (const Fold &fold : folds) {
    auto *old = cast<Instruction>(call->getArgOperand(fold.arg));
    call->setArgOperand(fold.arg, fold.base);
    if (old->use_empty())
      dead.push_back(old);
  }
  call->setCalledOperand(
      InlineAsm::get(ia->getFunctionType(), asmString,
                     ia->getConstraintString(), ia->hasSideEffects(),
                     ia->isAlignStack(), ia->getDialect(), ia->canThrow()));
  for (Instruction *op : dead)
    if (op->use_empty())
      op->eraseFromParent();
  return true;
}

} // namespace

bool foldWgmmaDescriptorOffsets(Module &module) {
  bool changed = false;
  for (CallInst *call : llir::inlineAsmCalls(module, "wgmma.mma_async"))
    changed |= foldCall(call);
  return changed;
}

} // namespace mlir::tle
