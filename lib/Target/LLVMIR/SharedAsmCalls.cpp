//===- SharedAsmCalls.cpp - inline-asm calls on shared pointers -----------===//
#include "SharedAsmCalls.h"
#include "PTXAsm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace mlir::tle::llir {

Error fail(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

InlineAsm *inlineAsmOf(const Value *v) {
  const auto *call = dyn_cast_or_null<CallInst>(v);
  return call ? dyn_cast<InlineAsm>(call->getCalledOperand()) : nullptr;
}

std::string describe(const Instruction *inst) {
  std::string text;
  raw_string_ostream os(text);
  if (const InlineAsm *ia = inlineAsmOf(inst))
    os << "inline asm " << ptx::quote(ia->getAsmString());
  else
    os << "`" << StringRef(formatv("{0}", *inst).str()).trim() << "`";
  if (const Function *f = inst->getFunction())
    os << " in @" << f->getName();
  if (const DebugLoc &loc = inst->getDebugLoc())
    os << " at " << loc->getFilename() << ":" << loc.getLine() << ":"
       << loc.getCol();
  return text;
}

static unsigned sharedSpaceOf(Type *type) {
  auto *ptr = dyn_cast<PointerType>(type->getScalarType());
  return ptr && isSharedAddressSpace(ptr->getAddressSpace())
             ? ptr->getAddressSpace()
             : 0;
}

/// Whether `type` is a struct with a shared or cluster pointer in it
/// (Triton's shared-memory descriptor, `{ptr addrspace(3), i32}`, which its
/// own mbarrier asm takes whole).
static bool holdsSharedPointer(Type *type) {
  auto *st = dyn_cast<StructType>(type);
  return st && any_of(st->elements(), [](Type *element) {
           return sharedSpaceOf(element) || holdsSharedPointer(element);
         });
}

namespace {
/// How the operands of an inline-asm call line up with its constraints.
struct AsmOperands {
  InlineAsm::ConstraintInfoVector infos;
  SmallVector<int> operandOfArg;      // $N of each call argument
  SmallVector<unsigned> constraintOf; // index in `infos` of each $N
  SmallVector<int> pointerSpace;      // address space of each $N, or -1
};
} // namespace

static AsmOperands analyze(CallInst *call, InlineAsm *ia) {
  AsmOperands a;
  a.infos = ia->ParseConstraints();
  a.operandOfArg.assign(call->arg_size(), -1);
  unsigned arg = 0;
  for (unsigned ci = 0; ci < a.infos.size(); ++ci) {
    const InlineAsm::ConstraintInfo &info = a.infos[ci];
    if (info.Type == InlineAsm::isClobber)
      continue;
    unsigned n = a.constraintOf.size();
    a.constraintOf.push_back(ci);
    a.pointerSpace.push_back(-1);
    bool takesArg = info.Type == InlineAsm::isInput ||
                    (info.Type == InlineAsm::isOutput && info.isIndirect);
    if (takesArg && arg < call->arg_size()) {
      a.operandOfArg[arg] = n;
      if (auto *ptr =
              dyn_cast<PointerType>(call->getArgOperand(arg)->getType()))
        a.pointerSpace[n] = ptr->getAddressSpace();
      ++arg;
    }
  }
  return a;
}

static bool isCode(const InlineAsm::ConstraintInfo &info, StringRef code) {
  return info.Type == InlineAsm::isInput && !info.isIndirect &&
         info.Codes.size() == 1 && info.Codes[0] == code;
}

/// An input tied to output `$tied` (constraint "<digits>"): the value passes
/// through the output's register, e.g. the operands Triton's wgmma wait
/// (`// wait for regs: $0, ...`) keeps alive, a memdesc's shared base among
/// them.
static std::optional<unsigned>
tiedOutput(const InlineAsm::ConstraintInfo &info) {
  unsigned tied;
  if (info.Type != InlineAsm::isInput || info.isIndirect ||
      info.Codes.size() != 1 || info.Codes[0].empty() ||
      !all_of(info.Codes[0], isDigit) ||
      StringRef(info.Codes[0]).getAsInteger(10, tied))
    return std::nullopt;
  return tied;
}

/// Whether a `.global`-only statement of `statements` references `$n`.
static const ptx::Statement *
globalStatementReferencing(ArrayRef<ptx::Statement> statements, unsigned n) {
  for (const ptx::Statement &st : statements) {
    ptx::StateSpaces s = st.spaces();
    if (st.references(n) && s.global && !s.shared)
      return &st;
  }
  return nullptr;
}

/// Whether every statement taking `$n` takes it as a shared address: the
/// statement names a shared state space and no other, or its state spaces
/// pair with its addresses and `$n`'s is shared. Triton's own device-side
/// tensor descriptors are built in shared memory and passed as 64-bit
/// shared addresses (`tensormap.replace...shared::cta [$0], ...`,
/// `tensormap.cp_fenceproxy.global.shared::cta [$0], [$1]`): right as they
/// are.
static bool onlySharedStatementsReference(ArrayRef<ptx::Statement> statements,
                                          unsigned n) {
  bool any = false;
  for (const ptx::Statement &st : statements) {
    if (!st.references(n))
      continue;
    ptx::StateSpaces s = st.spaces();
    bool sharedOnly = s.shared && !s.global && !s.other;
    if (!sharedOnly && !StringRef(st.addressSpaceOf(n)).starts_with("shared"))
      return false;
    any = true;
  }
  return any;
}

Expected<bool> rewriteSharedAsmCall(CallInst *call) {
  auto *ia = dyn_cast<InlineAsm>(call->getCalledOperand());
  if (!ia)
    return false;
  auto cannot = [&](const Twine &why) {
    return fail("cannot finish " + describe(call) + ": " + why);
  };
  AsmOperands a = analyze(call, ia);
  SmallVector<ptx::SharedOperand> shared;
  SmallVector<ptx::Statement> statements =
      ptx::splitStatements(ia->getAsmString());
  for (unsigned i = 0; i < call->arg_size(); ++i) {
    Type *type = call->getArgOperand(i)->getType();
    unsigned space = sharedSpaceOf(type);
    if (!space)
      continue;
    if (type->isVectorTy())
      return cannot(formatv("argument {0} is a vector of pointers to address "
                            "space {1}",
                            i, space)
                        .str());
    if (a.operandOfArg[i] < 0)
      return cannot(formatv("argument {0} has no constraint", i).str());
    unsigned n = a.operandOfArg[i];
    const InlineAsm::ConstraintInfo &info = a.infos[a.constraintOf[n]];
    if (isCode(info, "r")) {
      // Already a 32-bit shared address (Triton's own shared-memory asm):
      // fine unless a `.global`-only statement takes it.
      if (const ptx::Statement *st = globalStatementReferencing(statements, n))
        return cannot(formatv("operand ${0} (address space {1}) is the "
                              "address of `{2}`, a .global access, but is "
                              "passed as a 32-bit `r` operand",
                              n, space, st->opcode)
                          .str());
      continue;
    }
    if (std::optional<unsigned> tied = tiedOutput(info)) {
      // Passed through the register of output $tied: fine unless a
      // `.global`-only statement takes it (by either number).
      for (unsigned m : {n, *tied})
        if (const ptx::Statement *st =
                globalStatementReferencing(statements, m))
          return cannot(formatv("operand ${0} (address space {1}, tied to "
                                "${2}) is the address of `{3}`, a .global "
                                "access",
                                n, space, *tied, st->opcode)
                            .str());
      continue;
    }
    if (!isCode(info, "l"))
      return cannot(formatv("operand ${0} (address space {1}) has constraint "
                            "'{2}', not 'l', 'r' or a tied output",
                            n, space, info.Codes.empty() ? "" : info.Codes[0])
                        .str());
    if (onlySharedStatementsReference(statements, n))
      continue;
    shared.push_back({n, space});
  }
  if (shared.empty())
    return false;

  Expected<ptx::Rewritten> rewritten =
      ptx::rewriteSharedAccesses(ia->getAsmString(), shared, a.pointerSpace);
  if (!rewritten)
    return cannot(toString(rewritten.takeError()));

  // The new constraint string: one entry per constraint.
  SmallVector<StringRef> entries;
  StringRef(ia->getConstraintString()).split(entries, ',');
  if (entries.size() != a.infos.size())
    return cannot("its constraint string has alternatives or nested commas");
  SmallVector<std::string> newEntries(entries.begin(), entries.end());
  SmallVector<bool> dropEntry(entries.size(), false);
  SmallVector<bool> dropArg(call->arg_size(), false);
  for (unsigned d : rewritten->droppedOperands) {
    unsigned ci = d < a.constraintOf.size() ? a.constraintOf[d] : ~0u;
    auto *argIt = llvm::find(a.operandOfArg, (int)d);
    if (ci == ~0u || a.infos[ci].Type != InlineAsm::isInput ||
        argIt == a.operandOfArg.end())
      return cannot(
          formatv("the .L2::cache_hint policy ${0} is not an input", d).str());
    dropEntry[ci] = true;
    dropArg[argIt - a.operandOfArg.begin()] = true;
  }
  for (const ptx::SharedOperand &op : shared)
    newEntries[a.constraintOf[op.operand]] = "r";
  std::string constraints;
  for (unsigned ci = 0; ci < newEntries.size(); ++ci) {
    if (dropEntry[ci])
      continue;
    if (!constraints.empty())
      constraints += ",";
    constraints += newEntries[ci];
  }

  IRBuilder<> builder(call);
  SmallVector<Value *> args;
  SmallVector<Type *> argTypes;
  for (unsigned i = 0; i < call->arg_size(); ++i) {
    if (dropArg[i])
      continue;
    Value *v = call->getArgOperand(i);
    int n = a.operandOfArg[i];
    if (n >= 0 &&
        any_of(shared, [&](auto &op) { return (int)op.operand == n; }))
      v = builder.CreatePtrToInt(v, builder.getInt32Ty());
    args.push_back(v);
    argTypes.push_back(v->getType());
  }
  auto *fnType = FunctionType::get(call->getType(), argTypes, false);
  if (Error e = InlineAsm::verify(fnType, constraints))
    return cannot("the rewritten constraints '" + constraints +
                  "' do not verify: " + toString(std::move(e)));
  InlineAsm *newAsm = InlineAsm::get(fnType, rewritten->asmString, constraints,
                                     ia->hasSideEffects(), ia->isAlignStack(),
                                     ia->getDialect(), ia->canThrow());
  CallInst *newCall = builder.CreateCall(fnType, newAsm, args);
  newCall->setTailCallKind(call->getTailCallKind());
  newCall->setCallingConv(call->getCallingConv());
  AttributeList attrs = call->getAttributes();
  newCall->setAttributes(AttributeList::get(
      call->getContext(), attrs.getFnAttrs(), attrs.getRetAttrs(), {}));
  newCall->copyMetadata(*call);
  newCall->takeName(call);
  call->replaceAllUsesWith(newCall);
  call->eraseFromParent();
  return true;
}

/// Uses of a shared pointer that LLVM's NVPTX backend lowers correctly by
/// itself: memory instructions, address arithmetic, casts, data flow.
static bool isPlainUse(const Instruction &inst) {
  if (isa<LoadInst, StoreInst, GetElementPtrInst, CastInst, PHINode, SelectInst,
          ICmpInst, ExtractElementInst, InsertElementInst, ShuffleVectorInst,
          AtomicRMWInst, AtomicCmpXchgInst, FreezeInst, InsertValueInst,
          ExtractValueInst>(inst))
    return true;
  if (const auto *call = dyn_cast<CallInst>(&inst)) {
    if (isa<IntrinsicInst>(call))
      return true;
    // A call to a function of this module, whose body is finished too.
    if (const Function *callee = call->getCalledFunction())
      return !callee->isDeclaration();
  }
  return false;
}

SmallVector<CallInst *> inlineAsmCalls(Module &module, StringRef text) {
  SmallVector<CallInst *> calls;
  for (Function &f : module)
    for (Instruction &inst : instructions(f))
      if (auto *call = dyn_cast<CallInst>(&inst))
        if (auto *ia = dyn_cast<InlineAsm>(call->getCalledOperand()))
          if (StringRef(ia->getAsmString()).contains(text))
            calls.push_back(call);
  return calls;
}

Error checkSharedPointerUses(Module &module) {
  for (Function &f : module) {
    for (Instruction &inst : instructions(f)) {
      auto *call = dyn_cast<CallInst>(&inst);
      if (InlineAsm *ia = inlineAsmOf(call)) {
        if (StringRef(ia->getAsmString()).ltrim().starts_with("tle."))
          return fail("unfinished TLE marker: " + describe(call));
        AsmOperands a = analyze(call, ia);
        for (unsigned i = 0; i < call->arg_size(); ++i) {
          Type *type = call->getArgOperand(i)->getType();
          int n = a.operandOfArg[i];
          if (holdsSharedPointer(type)) {
            // Only shared-state statements may read such a struct.
            if (n < 0 || !onlySharedStatementsReference(
                             ptx::splitStatements(ia->getAsmString()), n))
              return fail("a struct holding a shared pointer is passed to " +
                          describe(call));
            continue;
          }
          if (!sharedSpaceOf(type))
            continue;
          if (n < 0 || (!isCode(a.infos[a.constraintOf[n]], "r") &&
                        !tiedOutput(a.infos[a.constraintOf[n]]) &&
                        !onlySharedStatementsReference(
                            ptx::splitStatements(ia->getAsmString()), n)))
            return fail("a shared pointer is still passed to " +
                        describe(call));
        }
        continue;
      }
      bool takesShared = any_of(inst.operands(), [](const Use &u) {
        return sharedSpaceOf(u->getType()) != 0;
      });
      if (takesShared && !isPlainUse(inst))
        return fail("cannot prove this use of a shared pointer correct: " +
                    describe(&inst));
    }
  }
  return Error::success();
}

} // namespace mlir::tle::llir
