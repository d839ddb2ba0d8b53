//===- SharedAsmCalls.h - inline-asm calls on shared pointers -------------===//
//
// Internal to the llir finish: step 2 (rewrite `.global` asm on shared and
// cluster pointers) and step 3 (check every remaining shared-pointer use),
// and what the finish's rewrites of inline-asm calls share.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_TARGET_LLVMIR_SHAREDASMCALLS_H
#define TLE_LIB_TARGET_LLVMIR_SHAREDASMCALLS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class CallInst;
class InlineAsm;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace mlir::tle::llir {

/// Whether `as` is TLE's shared (3) or cluster-shared (7) address space.
inline bool isSharedAddressSpace(unsigned as) { return as == 3 || as == 7; }

/// Rewrites `call` (to inline asm) if it passes a shared pointer in a 64-bit
/// register to `.global` accesses. Returns whether it changed (the call is
/// then replaced and erased). Shared pointers already passed as 32-bit `r`
/// operands (Triton's own shared-memory asm) are accepted as they are unless
/// a `.global`-only statement uses them.
llvm::Expected<bool> rewriteSharedAsmCall(llvm::CallInst *call);

/// Step 3: every use of a shared pointer must be one LLVM (and NVPTX)
/// handles, and no TLE marker asm may remain.
llvm::Error checkSharedPointerUses(llvm::Module &module);

/// The module's calls to inline asm whose string contains `text` (all of
/// them for an empty `text`), collected before a rewrite replaces any.
llvm::SmallVector<llvm::CallInst *> inlineAsmCalls(llvm::Module &module,
                                                   llvm::StringRef text = "");

/// The inline asm `v` calls; null when `v` is not a call to inline asm.
llvm::InlineAsm *inlineAsmOf(const llvm::Value *v);

/// `inline asm "..."` [in @f] [at file:line:col] for messages.
std::string describe(const llvm::Instruction *inst);

llvm::Error fail(const llvm::Twine &msg);

} // namespace mlir::tle::llir

#endif // TLE_LIB_TARGET_LLVMIR_SHAREDASMCALLS_H
