//===- WgmmaDescriptors.cpp - wgmma descriptors computed at their use -----===//
//
// See TLE/Target/LLVMIR/WgmmaDescriptors.h.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/WgmmaDescriptors.h"
#include "PTXAsm.h"
#include "SharedAsmCalls.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir::tle {
namespace {

/// A descriptor operand `add`/`or` (base, constant) of i64.
struct Descriptor {
  BinaryOperator *inst;
  Value *base;
  uint64_t imm;
  bool isOr;
};

std::optional<Descriptor> descriptorOf(Value *value) {
  auto *bin = dyn_cast<BinaryOperator>(value);
  if (!bin || !bin->getType()->isIntegerTy(64))
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
  return Descriptor{bin, base, imm->getZExtValue(), opcode == Instruction::Or};
}

/// One descriptor operand to compute inside the asm.
struct Fold {
  unsigned operand; // $N in the asm string
  unsigned arg;     // the call argument
  Descriptor desc;
};

/// The call's descriptors: each 64-bit (`l`) input that is `add`/`or` (base,
/// constant), as a Fold (whether or not it is computed in the call's block).
SmallVector<Fold> descriptorOperands(CallInst *call) {
  auto *ia = cast<InlineAsm>(call->getCalledOperand());
  // Asm operand N is the N-th constraint that is not a clobber; inputs (and
  // indirect outputs) take the call's arguments in order.
  SmallVector<Fold> found;
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
    if (std::optional<Descriptor> desc = descriptorOf(call->getArgOperand(a)))
      found.push_back(Fold{n, a, *desc});
  }
  return found;
}

/// Whether every two of `blocks` are ordered by dominance (one path from the
/// entry passes through all of them in one order).
bool dominanceChain(ArrayRef<BasicBlock *> blocks, const DominatorTree &dt) {
  for (auto [i, a] : llvm::enumerate(blocks))
    for (BasicBlock *b : blocks.drop_front(i + 1))
      if (!dt.dominates(a, b) && !dt.dominates(b, a))
        return false;
  return true;
}

void foldCall(CallInst *call, ArrayRef<Fold> folds) {
  auto *ia = cast<InlineAsm>(call->getCalledOperand());
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
    os << "\t" << (fold.desc.isOr ? "or.b64" : "add.s64") << " %tle_wd" << i
       << ", $" << fold.operand << ", " << format_hex(fold.desc.imm, 18)
       << ";\n";
  os << "\t" << body << "\n}";

  SmallVector<Instruction *> dead;
  for (const Fold &fold : folds) {
    call->setArgOperand(fold.arg, fold.desc.base);
    if (fold.desc.inst->use_empty())
      dead.push_back(fold.desc.inst);
  }
  call->setCalledOperand(
      InlineAsm::get(ia->getFunctionType(), asmString,
                     ia->getConstraintString(), ia->hasSideEffects(),
                     ia->isAlignStack(), ia->getDialect(), ia->canThrow()));
  for (Instruction *op : dead)
    if (op->use_empty())
      op->eraseFromParent();
}

bool foldFunction(Function &fn, ArrayRef<CallInst *> calls) {
  // Each call's descriptors, and the blocks of the wgmmas that read a
  // descriptor of each base.
  SmallVector<std::pair<CallInst *, SmallVector<Fold>>> found;
  DenseMap<Value *, SmallSetVector<BasicBlock *, 4>> blocks;
  for (CallInst *call : calls) {
    SmallVector<Fold> folds = descriptorOperands(call);
    for (const Fold &fold : folds)
      blocks[fold.desc.base].insert(call->getParent());
    found.emplace_back(call, std::move(folds));
  }
  // Folded, a descriptor is computed in each block whose wgmmas read it.
  // Where two of those blocks are not ordered by dominance (a loop's body
  // and the block after the loop, which a loop that runs zero times goes
  // to directly), ptxas 12.8 (sm_90a) took the copies in both for one value
  // (and derived the base's other descriptors from it by their constants),
  // computed it in the loop body only, and the wgmma after a zero-trip loop
  // read undefined uniform registers. Such a base keeps all its descriptors
  // where LLVM put them: an `add`/`or` dominates each of its wgmmas.
  DominatorTree dt(fn);
  DenseMap<Value *, bool> foldable;
  for (auto &[base, where] : blocks)
    foldable[base] = dominanceChain(where.getArrayRef(), dt);

  bool changed = false;
  for (auto &[call, folds] : found) {
    // Only descriptors hoisted out of the call's block, of bases that fold.
    llvm::erase_if(folds, [&, call = call](const Fold &f) {
      return f.desc.inst->getParent() == call->getParent() ||
             !foldable.lookup(f.desc.base);
    });
    if (folds.empty())
      continue;
    foldCall(call, folds);
    changed = true;
  }
  return changed;
}

} // namespace

bool foldWgmmaDescriptorOffsets(Module &module) {
  MapVector<Function *, SmallVector<CallInst *>> byFunction;
  for (CallInst *call : llir::inlineAsmCalls(module, "wgmma.mma_async"))
    byFunction[call->getFunction()].push_back(call);
  bool changed = false;
  for (auto &[fn, calls] : byFunction)
    changed |= foldFunction(*fn, calls);
  return changed;
}

} // namespace mlir::tle
