//===- TTGOps.td - Interop ops of Triton 3.6's `ttg` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTGOPS_TD
#define TLE_INTEROP_TTGOPS_TD

include "TLE/Interop/Triton/TTG.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums (I32EnumAttr: stored as i32 IntegerAttr, as Triton does)
//===----------------------------------------------------------------------===//

// Printed by keyword in custom formats: `cacheModifier = ca`.
def TTG_CacheModifierAttr : I32EnumAttr<"CacheModifier", "load cache modifier", [
    I32EnumAttrCase<"NONE", 1, "none">,
    I32EnumAttrCase<"CA", 2, "ca">,
    I32EnumAttrCase<"CG", 3, "cg">,
    I32EnumAttrCase<"WB", 4, "wb">,
    I32EnumAttrCase<"CS", 5, "cs">,
    I32EnumAttrCase<"WT", 6, "wt">,
    I32EnumAttrCase<"CV", 7, "cv">]> {
  let cppNamespace = "::mlir::ttg";
}

// Printed by keyword in custom formats: `evictionPolicy = evict_last`.
def TTG_EvictionPolicyAttr : I32EnumAttr<"EvictionPolicy", "eviction policy", [
    I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
    I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
    I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]> {
  let cppNamespace = "::mlir::ttg";
}

//===----------------------------------------------------------------------===//
// Constraints and resources
//===----------------------------------------------------------------------===//

def TTG_SharedMemory : Resource<"::mlir::ttg::SharedMemory">;
def TTG_GlobalMemory : Resource<"::mlir::ttg::GlobalMemory">;

def TTG_I1Tensor : RankedTensorOf<[I1]>;

class TTG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TTG_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Register <-> shared memory
//===----------------------------------------------------------------------===//

// `%y = ttg.convert_layout %x : tensor<..., #a> -> tensor<..., #b>`
def TTG_ConvertLayoutOp : TTG_Op<"convert_layout", [
    Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Change the distributed layout of a tensor";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

// `%m = ttg.local_alloc : () -> !ttg.memdesc<..., mutable>`
// `%m = ttg.local_alloc %x : (tensor<...>) -> !ttg.memdesc<...>`
def TTG_LocalAllocOp : TTG_Op<"local_alloc", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Allocate a shared-memory buffer, optionally filled from a tensor";
  let arguments = (ins Optional<AnyRankedTensor>:$src,
                       OptionalAttr<I32Attr>:$alignment);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

// `ttg.local_dealloc %m : !ttg.memdesc<...>`
def TTG_LocalDeallocOp : TTG_Op<"local_dealloc"> {
  let summary = "Free a shared-memory buffer";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemFree<TTG_SharedMemory>]>:$src);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src))";
}

// `%x = ttg.local_load %m[ token %t] : !ttg.memdesc<...> -> tensor<...>`
def TTG_LocalLoadOp : TTG_Op<"local_load"> {
  let summary = "Load a tensor from a shared-memory buffer";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemRead<TTG_SharedMemory>]>:$src,
                       Optional<TTG_AsyncToken>:$token);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src (`token` $token^)? attr-dict `:` qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

// `ttg.local_store %x, %m : tensor<...> -> !ttg.memdesc<..., mutable>`
def TTG_LocalStoreOp : TTG_Op<"local_store"> {
  let summary = "Store a tensor into a mutable shared-memory buffer";
  let arguments = (ins AnyRankedTensor:$src,
                       Arg<TTG_MemDesc, "", [MemWrite<TTG_SharedMemory>]>:$dst);
  let assemblyFormat = [{
    $src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

// `%y = ttg.fp4_to_fp %x {axis = 1 : i32} : tensor<128x64xi8, #a> -> tensor<128x128xbf16, #b>`:
// unpacks two e2m1 values per i8 along `axis`.
def TTG_Fp4ToFpOp : TTG_Op<"fp4_to_fp", [Pure]> {
  let summary = "Upcast packed e2m1 (fp4) values to floats";
  let arguments = (ins RankedTensorOf<[I8]>:$src, I32Attr:$axis);
  let results = (outs RankedTensorOf<[AnyFloat]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Views of a memdesc
//===----------------------------------------------------------------------===//

// `%v = ttg.memdesc_index %m[%i] : !ttg.memdesc<3x...> -> !ttg.memdesc<...>`
def TTG_MemDescIndexOp : TTG_Op<"memdesc_index", [Pure]> {
  let summary = "View of one slice of a memdesc along its leading dimension";
  let arguments = (ins TTG_MemDesc:$src, I32:$index);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// `%v = ttg.memdesc_subslice %m[0, 32] : !ttg.memdesc<...> -> !ttg.memdesc<...>`
def TTG_MemDescSubsliceOp : TTG_Op<"memdesc_subslice", [Pure]> {
  let summary = "View of a constant-offset sub-block of a memdesc";
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$offsets);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src `[` custom<Offsets>($offsets) `]` attr-dict `:` qualified(type($src))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// `%v = ttg.memdesc_trans %m {order = array<i32: 1, 0>} : !ttg.memdesc<...> -> !ttg.memdesc<...>`
def TTG_MemDescTransOp : TTG_Op<"memdesc_trans", [Pure]> {
  let summary = "Transposed view of a memdesc";
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// `%v = ttg.memdesc_reshape %m : !ttg.memdesc<...> -> !ttg.memdesc<...>`
def TTG_MemDescReshapeOp : TTG_Op<"memdesc_reshape", [Pure]> {
  let summary = "Reshaped view of a memdesc";
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// `%v = ttg.memdesc_reinterpret %m : !ttg.memdesc<...> -> !ttg.memdesc<...>`
def TTG_MemDescReinterpretOp : TTG_Op<"memdesc_reinterpret", [Pure]> {
  let summary = "View of a memdesc's buffer with another shape, type or layout";
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Async copies
//===----------------------------------------------------------------------===//

// `%t = ttg.async_copy_global_to_local %ptrs, %m[ mask %k[ other %o]]
//      [cacheModifier = ca][ evictionPolicy = evict_last]
//      : tensor<Nx!tt.ptr<T>, #l> -> <NxT, ...>`
// The mask and other types follow from the pointer tensor's; the destination
// type prints without its `!ttg.memdesc` prefix, as Triton prints it.
def TTG_AsyncCopyGlobalToLocalOp : TTG_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments,
    TypesMatchWith<"mask type matches the pointer tensor", "src", "mask",
                   "::mlir::ttg::getI1SameShape($_self)",
                   "!::llvm::cast<::mlir::ttg::AsyncCopyGlobalToLocalOp>(&$_op).getMask() || std::equal_to<>()">,
    TypesMatchWith<"other type matches the pointee tensor", "src", "other",
                   "::mlir::ttg::getPointeeSameShape($_self)",
                   "!::llvm::cast<::mlir::ttg::AsyncCopyGlobalToLocalOp>(&$_op).getOther() || std::equal_to<>()">]> {
  let summary = "Asynchronously copy a tensor of global pointers into shared memory";
  let arguments = (ins
    Arg<TT_PtrTensor, "", [MemRead<TTG_GlobalMemory>]>:$src,
    Arg<TTG_MemDesc, "", [MemWrite<TTG_SharedMemory>]>:$result,
    Optional<TTG_I1Tensor>:$mask,
    Optional<AnyRankedTensor>:$other,
    DefaultValuedAttr<TTG_CacheModifierAttr, "::mlir::ttg::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TTG_EvictionPolicyAttr, "::mlir::ttg::EvictionPolicy::NORMAL">:$evict);
  let results = (outs TTG_AsyncToken:$token);
  let assemblyFormat = [{
    $src `,` $result (`mask` $mask^)? (`other` $other^)?
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

// `%g = ttg.async_commit_group[ tokens %t0, %t1]`
def TTG_AsyncCommitGroupOp : TTG_Op<"async_commit_group"> {
  let summary = "Close the current group of async copies";
  let arguments = (ins Variadic<TTG_AsyncToken>:$inputTokens);
  let results = (outs TTG_AsyncToken:$asyncToken);
  let assemblyFormat = "(`tokens` $inputTokens^)? attr-dict";
}

// `%t = ttg.async_wait[ %g0, %g1] {num = 0 : i32}`
def TTG_AsyncWaitOp : TTG_Op<"async_wait"> {
  let summary = "Wait until at most `num` async copy groups are outstanding";
  let arguments = (ins Variadic<TTG_AsyncToken>:$asyncToken, I32Attr:$num);
  let results = (outs TTG_AsyncToken:$retToken);
  let assemblyFormat = "($asyncToken^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Global scratch memory
//===----------------------------------------------------------------------===//

// `%p = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>`
// (e.g. the 128 bytes of a TMA descriptor made in the kernel).
def TTG_GlobalScratchAllocOp : TTG_Op<"global_scratch_alloc", [
    MemoryEffects<[MemAlloc<TTG_GlobalMemory>]>]> {
  let summary = "Per-program scratch buffer in global memory";
  let arguments = (ins I32Attr:$nbytes, I32Attr:$alignment);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

// What Triton 3.6 prints (Gluon's gl.warp_specialize, TTGIR for sm_90):
//
//   %r:2 = ttg.warp_specialize(%a, %b) attributes {requestedRegisters = array<i32: 48>}
//   default {
//     ...
//     ttg.warp_yield %x, %y : f32, tensor<256xf32, #blocked>
//   }
//   partition0(%arg2: T0, %arg3: T1) num_warps(2) {
//     ...
//     ttg.warp_return
//   } : (T0, T1) -> (f32, tensor<256xf32, #blocked>)
//
// Structure (the text shows it only through the custom syntax): region 0 is
// the default partition, run by the parent's warps, whose `ttg.warp_yield`
// gives the op's results; region 1 holds one block with a single
// `ttg.warp_specialize.partitions` op whose N regions are the worker
// partitions. Each worker region takes every capture as a block argument and
// uses nothing else from above (Triton re-materializes constants inside it).
// `num_warps(n)` of `partitionK` is element K of `partitionNumWarps`, which the
// attribute dictionary therefore never shows.
def TTG_WarpSpecializeOp : TTG_Op<"warp_specialize", [
    RecursiveMemoryEffects]> {
  let summary = "Fork the current warps into a default and worker partitions";
  let arguments = (ins
    Variadic<AnyType>:$explicitCaptures,
    DenseI32ArrayAttr:$partitionNumWarps,
    OptionalAttr<DenseI32ArrayAttr>:$requestedRegisters);
  let results = (outs Variadic<AnyType>:$defaultPassthrough);
  let regions = (region MinSizedRegion<1>:$defaultRegion,
                        SizedRegion<1>:$partitionOpHolder);
  let extraClassDeclaration = [{
    /// The `ttg.warp_specialize.partitions` op in the holder region, or null.
    WarpSpecializePartitionsOp getPartitionOp();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

// Printed only inside `ttg.warp_specialize`'s syntax (partition0, partition1,
// ...); its regions are the worker partitions, isolated from above.
def TTG_WarpSpecializePartitionsOp : TTG_Op<"warp_specialize.partitions", [
    IsolatedFromAbove, RecursiveMemoryEffects,
    Terminator, HasParent<"WarpSpecializeOp">]> {
  let summary = "Holder of the worker partitions of a ttg.warp_specialize";
  let regions = (region VariadicRegion<MinSizedRegion<1>>:$partitionRegions);
}

// `ttg.warp_yield[ %x, %y : T0, T1]`: ends the default partition.
def TTG_WarpYieldOp : TTG_Op<"warp_yield", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializeOp">]> {
  let summary = "Yield the default partition's results";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

// `ttg.warp_return`: ends a worker partition.
def TTG_WarpReturnOp : TTG_Op<"warp_return", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "End a worker partition";
  let assemblyFormat = "attr-dict";
}

#endif // TLE_INTEROP_TTGOPS_TD
