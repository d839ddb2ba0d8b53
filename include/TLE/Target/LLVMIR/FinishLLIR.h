//===- FinishLLIR.h - the llir-stage finish of TLE's local memory ---------===//
//
// docs/local-memory.md, section 5. Triton's `make_llir` output still holds
// TLE's `tle.smem.base N;` markers, and Triton lowers `tt.load`/`tt.store` on
// shared (addrspace 3) and cluster (addrspace 7) pointers to inline asm with
// the `.global` state space. finishLLIR resolves the markers to addresses in
// Triton's `@global_smem` after Triton's own shared memory, rewrites that asm
// to `.shared` / `.shared::cluster` on a 32-bit address, and refuses anything
// it cannot prove correct.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TARGET_LLVMIR_FINISHLLIR_H
#define TLE_TARGET_LLVMIR_FINISHLLIR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tle {

/// TLE's region starts at Triton's shared size rounded up to this.
constexpr uint64_t kTLESharedBaseAlign = 128;

struct FinishResult {
  /// The finished LLVM IR (the input text itself when nothing was to do).
  std::string llir;
  /// The kernel's shared-memory size: base + tleShared, or tritonShared
  /// when the module has no TLE region.
  uint64_t sharedSize = 0;
  /// Whether the module was rewritten (false: `llir` is the input).
  bool changed = false;
};

/// `align(tritonShared, kTLESharedBaseAlign)`.
uint64_t tleSharedBase(uint64_t tritonShared);

/// Finishes `llir` (textual LLVM IR from Triton's make_llir): the three steps
/// of docs/local-memory.md section 5. `tritonShared` is Triton's
/// metadata["shared"], `tleShared` the module's `tle.shared` region size.
/// With tleShared == 0 and no marker the region steps are skipped and
/// sharedSize = tritonShared. `foldWgmmaDescriptors` also runs
/// foldWgmmaDescriptorOffsets (TLE/Target/LLVMIR/WgmmaDescriptors.h). A
/// non-empty `tmaGatherRowBytes` (sm_90 targets) runs splitTmaGathers
/// (TLE/Target/LLVMIR/TmaGather.h) with those row widths; TMA cache-hint
/// markers run finishTmaCacheHints (TLE/Target/LLVMIR/TmaCacheHints.h). When
/// nothing changes the input comes back as it is. Errors name the offending
/// inline asm or instruction; the result always passes llvm::verifyModule.
llvm::Expected<FinishResult>
finishLLIR(llvm::StringRef llir, uint64_t tritonShared, uint64_t tleShared,
           bool foldWgmmaDescriptors = false,
           llvm::ArrayRef<uint64_t> tmaGatherRowBytes = {});

/// The same on a parsed module, in place, with TLE's region at `base`.
/// Returns whether the module changed.
llvm::Expected<bool> finishModule(llvm::Module &module, uint64_t base);

} // namespace mlir::tle

#endif // TLE_TARGET_LLVMIR_FINISHLLIR_H
