//===- WgmmaDescriptors.h - wgmma descriptors computed at their use -*- C++ -*-===//
//
// Part of TLE's llir stage (docs/local-memory.md, section 5; the rules in
// docs/warp-specialize.md, "wgmma descriptors"). Triton passes each wgmma
// its two 64-bit shared-memory matrix descriptors as inline-asm operands,
// each `add`/`or` of a buffer's base descriptor and a constant (the k step,
// the tile). LLVM hoists the loop-invariant ones out of the loop, so a loop
// over a resident operand (sparse MLA's Q: 72 KB, 36 k steps a chunk) keeps
// dozens of 64-bit values live across it, which ptxas spills and reloads
// before every wgmma. foldWgmmaDescriptorOffsets moves each such add into
// the wgmma's own asm, so only the base stays live.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TARGET_LLVMIR_WGMMADESCRIPTORS_H
#define TLE_TARGET_LLVMIR_WGMMADESCRIPTORS_H

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::tle {

/// For every inline-asm call whose string issues `wgmma.mma_async`: each
/// 64-bit (`l`) input that is `add`/`or` of a value and a constant, defined
/// in another basic block than the call (hoisted), is replaced by that value,
/// and the asm computes the descriptor itself into a scoped register
/// (`{ .reg .b64 %tle_wd<N>; add.s64 %tle_wd0, $k, C; ... }`). The asm stays
/// `sideeffect`, so nothing hoists the recomputation again. Adds left unused
/// are erased. A base is folded only when the blocks of all the wgmmas that
/// read a descriptor of it are ordered by dominance (before a loop and in
/// it, say): read in a loop's body and after the loop, both copies were one
/// value to ptxas 12.8, which computed it in the loop body only, undefined
/// after a loop that ran zero times; such a base keeps LLVM's adds.
/// Returns whether the module changed.
bool foldWgmmaDescriptorOffsets(llvm::Module &module);

} // namespace mlir::tle

#endif // TLE_TARGET_LLVMIR_WGMMADESCRIPTORS_H
