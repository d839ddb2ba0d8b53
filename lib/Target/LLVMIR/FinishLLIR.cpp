//===- FinishLLIR.cpp - the llir-stage finish of TLE's local memory -------===//
//
// docs/local-memory.md, section 5: resolve `tle.smem.base N;` markers, move
// `.global` asm on shared/cluster pointers to the shared state spaces, check
// what remains, verify.
//
//===----------------------------------------------------------------------===//
#include "TLE/Target/LLVMIR/FinishLLIR.h"
#include "PTXAsm.h"
#include "SharedAsmCalls.h"
#include "TLE/Target/LLVMIR/GridBarrier.h"
#include "TLE/Target/LLVMIR/TmaCacheHints.h"
#include "TLE/Target/LLVMIR/TmaGather.h"
#include "TLE/Target/LLVMIR/TryWait.h"
#include "TLE/Target/LLVMIR/WgmmaDescriptors.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using mlir::tle::llir::describe;
using mlir::tle::llir::fail;

namespace mlir::tle {

static constexpr StringLiteral kMarker = "tle.smem.base";
static constexpr StringLiteral kSharedGlobal = "global_smem";

uint64_t tleSharedBase(uint64_t tritonShared) {
  return alignTo(tritonShared, kTLESharedBaseAlign);
}

/// `tle.smem.base N;` -> N, for a marker call; std::nullopt for other calls;
/// an error for a malformed marker.
static Expected<std::optional<uint64_t>> markerOffset(CallInst *call) {
  auto *ia = dyn_cast<InlineAsm>(call->getCalledOperand());
  if (!ia)
    return std::nullopt;
  StringRef text = StringRef(ia->getAsmString()).trim();
  if (!text.consume_front(kMarker))
    return std::nullopt;
  uint64_t offset;
  StringRef digits = text.trim();
  bool ok = digits.consume_back(";") && !digits.trim().empty() &&
            !digits.trim().getAsInteger(10, offset) &&
            call->getType()->isIntegerTy(32) && call->arg_size() == 0 &&
            ia->getConstraintString() == "=r";
  if (!ok)
    return fail("malformed TLE marker " + describe(call) +
                ": expected `tle.smem.base <offset>;` with constraint \"=r\" "
                "returning i32");
  return offset;
}

static Expected<GlobalVariable *> getSharedGlobal(Module &module) {
  if (GlobalVariable *gv = module.getGlobalVariable(kSharedGlobal, true)) {
    if (gv->getAddressSpace() != 3)
      return fail("@global_smem is not in address space 3");
    return gv;
  }
  if (module.getNamedValue(kSharedGlobal))
    return fail("@global_smem exists and is not a global variable");
  LLVMContext &ctx = module.getContext();
  auto *gv = new GlobalVariable(
      module, ArrayType::get(Type::getInt8Ty(ctx), 0),
      /*isConstant=*/false, GlobalValue::ExternalLinkage, nullptr,
      kSharedGlobal, nullptr, GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  gv->setAlignment(Align(16));
  return gv;
}

/// Step 1. Returns whether any marker was found.
static Expected<bool> resolveMarkers(Module &module, uint64_t base) {
  SmallVector<std::pair<CallInst *, uint64_t>> markers;
  for (Function &f : module)
    for (Instruction &inst : instructions(f))
      if (auto *call = dyn_cast<CallInst>(&inst)) {
        Expected<std::optional<uint64_t>> offset = markerOffset(call);
        if (!offset)
          return offset.takeError();
        if (*offset)
          markers.push_back({call, **offset});
      }
  if (markers.empty())
    return false;
  Expected<GlobalVariable *> smem = getSharedGlobal(module);
  if (!smem)
    return smem.takeError();
  Type *i8 = Type::getInt8Ty(module.getContext());
  Type *i32 = Type::getInt32Ty(module.getContext());
  for (auto [call, offset] : markers) {
    uint64_t address = base + offset;
    if (address > UINT32_MAX)
      return fail(formatv("shared address {0} of {1} does not fit 32 bits",
                          address, describe(call))
                      .str());
    Constant *gep = ConstantExpr::getGetElementPtr(
        i8, *smem, ConstantInt::get(i32, address));
    call->replaceAllUsesWith(ConstantExpr::getPtrToInt(gep, i32));
    call->eraseFromParent();
  }
  return true;
}

// Attributes LLVM 22 attaches when it parses Triton's IR (intrinsic
// declarations are auto-upgraded) that Triton 3.6's LLVM cannot parse back:
// printing them would make Triton's make_ptx abort. They only describe
// intrinsics, so dropping them changes no code.
static void dropAttributesNewerThanTriton(Module &module) {
  static constexpr Attribute::AttrKind kNewer[] = {
      Attribute::NoCreateUndefOrPoison};
  for (Function &f : module) {
    for (Attribute::AttrKind kind : kNewer)
      f.removeFnAttr(kind);
    for (Instruction &inst : instructions(f))
      if (auto *call = dyn_cast<CallBase>(&inst))
        for (Attribute::AttrKind kind : kNewer)
          call->removeFnAttr(kind);
  }
}

/// The functions `llir` declares (`declare ... @name(`), as Triton's LLVM
/// named them.
static StringSet<> declaredNames(StringRef llir) {
  StringSet<> names;
  SmallVector<StringRef> lines;
  llir.split(lines, '\n');
  for (StringRef line : lines) {
    if (!line.starts_with("declare "))
      continue;
    size_t at = line.find(" @");
    if (at == StringRef::npos)
      continue;
    StringRef name = line.drop_front(at + 2);
    names.insert(name.take_until([](char c) { return c == '('; }));
  }
  return names;
}

/// LLVM 22's parser renames the NVVM intrinsics whose type suffix was `.f`
/// or `.d` to `.f32` / `.f64` (`llvm.nvvm.ex2.approx.ftz.f` becomes
/// `...ftz.f32`). Triton's LLVM still uses the old names and would emit a
/// new one as a call to an external function, which ptxas rejects. A
/// declaration so renamed from a name the input declared (and the module
/// no longer has) gets that name back; others stay.
static void restoreIntrinsicNames(Module &module, const StringSet<> &original) {
  static constexpr std::pair<StringLiteral, StringLiteral> kRenamed[] = {
      {".f32", ".f"}, {".f64", ".d"}};
  for (Function &f : module) {
    StringRef name = f.getName();
    if (!f.isDeclaration() || !name.starts_with("llvm.nvvm.") ||
        original.contains(name))
      continue;
    for (auto [now, was] : kRenamed) {
      if (!name.ends_with(now))
        continue;
      std::string old = (name.drop_back(now.size()) + was).str();
      if (original.contains(old) && !module.getFunction(old))
        f.setName(old);
      break;
    }
  }
}

/// A rewritten module must verify (`what` prefixes the verifier's message);
/// then step 4: keep only what Triton's LLVM reads.
static Error verifyForTriton(Module &module, StringRef what) {
  std::string errors;
  raw_string_ostream os(errors);
  if (verifyModule(module, &os))
    return fail(what + ": " + StringRef(errors).trim());
  dropAttributesNewerThanTriton(module);
  return Error::success();
}

Expected<bool> finishModule(Module &module, uint64_t base) {
  Expected<bool> changed = resolveMarkers(module, base);
  if (!changed)
    return changed.takeError();
  // Step 2: every inline-asm call with a shared or cluster pointer.
  for (CallInst *call : llir::inlineAsmCalls(module)) {
    Expected<bool> rewritten = llir::rewriteSharedAsmCall(call);
    if (!rewritten)
      return rewritten.takeError();
    *changed |= *rewritten;
  }
  // Step 3.
  if (Error e = llir::checkSharedPointerUses(module))
    return std::move(e);
  if (Error e = verifyForTriton(module, "the finished module does not verify"))
    return std::move(e);
  return *changed;
}

/// parseAssemblyString, but an error instead of an abort on IR that does not
/// verify: the parser's debug-info upgrade verifies a module that carries
/// debug info and calls report_fatal_error("Broken module found") when it
/// does not. So parse without the upgrade, verify (IR that does not verify is
/// an error: the finish rewrites valid IR only), then upgrade.
static Expected<std::unique_ptr<Module>> parseModule(StringRef llir,
                                                     LLVMContext &ctx) {
  MemoryBufferRef buffer(llir, "<string>");
  SourceMgr sources;
  sources.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(buffer), SMLoc());
  auto module = std::make_unique<Module>(buffer.getBufferIdentifier(), ctx);
  SMDiagnostic diag;
  if (LLParser(llir, sources, diag, module.get(), /*Index=*/nullptr, ctx)
          .Run(/*UpgradeDebugInfo=*/false)) {
    std::string text;
    raw_string_ostream os(text);
    os << "cannot parse the LLVM IR: " << diag.getLineNo() << ":"
       << diag.getColumnNo() + 1 << ": " << diag.getMessage();
    return fail(text);
  }
  std::string errors;
  raw_string_ostream os(errors);
  bool brokenDebugInfo = false;
  if (verifyModule(*module, &os, &brokenDebugInfo))
    return fail("the LLVM IR does not verify: " + StringRef(errors).trim());
  UpgradeDebugInfo(*module);
  return module;
}

Expected<FinishResult> finishLLIR(StringRef llir, uint64_t tritonShared,
                                  uint64_t tleShared, bool foldWgmmaDescriptors,
                                  ArrayRef<uint64_t> tmaGatherRowBytes) {
  auto unchanged = [&] {
    FinishResult result;
    result.llir = llir.str();
    result.sharedSize = tritonShared;
    return result;
  };
  bool region = tleShared != 0 || llir.contains(kMarker);
  bool fold = foldWgmmaDescriptors && llir.contains("wgmma.mma_async");
  bool split = !tmaGatherRowBytes.empty() && llir.contains("tile::gather4");
  bool tryWait = llir.contains(kTryWaitEndAsm);
  bool hints = llir.contains(kTmaHintPrefix);
  bool grid = llir.contains(kGridBarrierAsm);
  if (!region && !fold && !split && !tryWait && !hints && !grid)
    return unchanged();
  uint64_t base = tleSharedBase(tritonShared);
  LLVMContext ctx;
  Expected<std::unique_ptr<Module>> module = parseModule(llir, ctx);
  if (!module)
    return module.takeError();
  // Whether a step below changed the module (the region finish comes after).
  bool changed = fold && foldWgmmaDescriptorOffsets(**module);
  auto run = [&](bool wanted,
                 function_ref<Expected<bool>(Module &)> step) -> Error {
    if (!wanted)
      return Error::success();
    Expected<bool> stepChanged = step(**module);
    if (!stepChanged)
      return stepChanged.takeError();
    changed |= *stepChanged;
    return Error::success();
  };
  if (Error e = run(split, [&](Module &m) {
        return splitTmaGathers(m, tmaGatherRowBytes);
      }))
    return std::move(e);
  if (Error e = run(tryWait, finishBarrierTryWaits))
    return std::move(e);
  if (Error e = run(hints, finishTmaCacheHints))
    return std::move(e);
  if (Error e = run(grid, finishGridBarriers))
    return std::move(e);
  if (!region && !changed)
    return unchanged();
  FinishResult result;
  result.sharedSize = tritonShared;
  if (region) {
    Expected<bool> finished = finishModule(**module, base);
    if (!finished)
      return finished.takeError();
    result.sharedSize = base + tleShared;
  } else if (Error e = verifyForTriton(
                 **module,
                 "the module does not verify after folding wgmma descriptors, "
                 "splitting TMA gathers, finishing barrier try-waits, "
                 "hinting TMA loads or finishing grid barriers")) {
    return std::move(e);
  }
  restoreIntrinsicNames(**module, declaredNames(llir));
  raw_string_ostream os(result.llir);
  (*module)->print(os, nullptr);
  result.changed = true;
  return result;
}

} // namespace mlir::tle
