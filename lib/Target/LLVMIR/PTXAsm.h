//===- PTXAsm.h - reading and rewriting Triton's PTX inline asm -----------===//
//
// Internal to the llir finish. An asm string is split into statements at
// `;`; each statement is [prefix][guard][opcode][operands]; operand
// references are `$N`, `${N}` or `${N:mod}` (`$$` is a literal `$`).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_LIB_TARGET_LLVMIR_PTXASM_H
#define TLE_LIB_TARGET_LLVMIR_PTXASM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::tle::ptx {

/// One reference to an asm operand inside a string: [begin, end) and N.
struct OperandRef {
  size_t begin, end;
  unsigned operand;
};

/// Every operand reference in `text`, in order.
llvm::SmallVector<OperandRef> findOperandRefs(llvm::StringRef text);

/// The state space a statement's opcode names for memory, if any:
/// "global", "shared", "shared::cta", "shared::cluster", "local", ...
/// Several (a copy) or none give the respective counts.
struct StateSpaces {
  unsigned global = 0, shared = 0, other = 0;
};

/// One statement of an asm string.
struct Statement {
  std::string prefix;     // whitespace, `{`, `}` before the instruction
  std::string guard;      // `@$3 `, `@!p ` or empty
  std::string opcode;     // `ld.global.v4.b32`
  std::string operands;   // ` { $0 }, [ $1 + 0 ]`, up to the `;`
  std::string terminator; // `;` or empty for trailing text
  StateSpaces spaces() const;
  bool references(unsigned operand) const;
  /// The state-space qualifier (`global`, `shared`, `shared::cta`, ...) of
  /// the address `[...]` that references `$operand`, when the opcode's
  /// state-space qualifiers pair one to one, in order, with its addresses
  /// (`tensormap.cp_fenceproxy.global.shared::cta [$0], [$1]`: `$1` is
  /// `shared::cta`); empty otherwise.
  std::string addressSpaceOf(unsigned operand) const;
  std::string str() const {
    return prefix + guard + opcode + operands + terminator;
  }
};

llvm::SmallVector<Statement> splitStatements(llvm::StringRef asmString);

/// A `ptr addrspace(3|7)` operand passed in a 64-bit register (`l`) whose
/// `.global` accesses must become shared ones.
struct SharedOperand {
  unsigned operand;   // the $N
  unsigned addrSpace; // 3 or 7
};

struct Rewritten {
  std::string asmString;
  /// Operands (a `.L2::cache_hint` policy) that the new string no longer
  /// references; every reference above them is renumbered down already.
  llvm::SmallVector<unsigned> droppedOperands;
};

/// Rewrites each statement that references one of `shared`: it must be a
/// `ld`/`st`/`atom`/`red` whose only state space is `.global` and reference
/// the operand only inside `[...]`; `.global` becomes `.shared` (3) or
/// `.shared::cluster` (7), global-only qualifiers are dropped, and the policy
/// operand of `.L2::cache_hint` with it. `pointerSpaces[n]` is the address
/// space of operand n when it is a pointer, else -1 (mixed spaces in one
/// address are refused).
llvm::Expected<Rewritten>
rewriteSharedAccesses(llvm::StringRef asmString,
                      llvm::ArrayRef<SharedOperand> shared,
                      llvm::ArrayRef<int> pointerSpaces);

/// `asmString` with newlines and tabs escaped, for messages.
std::string quote(llvm::StringRef asmString);

} // namespace mlir::tle::ptx

#endif // TLE_LIB_TARGET_LLVMIR_PTXASM_H
