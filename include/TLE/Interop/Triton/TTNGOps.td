//===- TTNGOps.td - Interop ops of Triton 3.6's `ttng` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTNGOPS_TD
#define TLE_INTEROP_TTNGOPS_TD

include "TLE/Interop/Triton/TTNG.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Enums. The same cases as ttg's (TTGOps.td); both are i32 IntegerAttrs, so
// the attributes are interchangeable. Repeated here because each dialect's
// enums are generated from its own Ops.td.
//===----------------------------------------------------------------------===//

def TTNG_CacheModifierAttr : I32EnumAttr<"CacheModifier", "load cache modifier", [
    I32EnumAttrCase<"NONE", 1, "none">,
    I32EnumAttrCase<"CA", 2, "ca">,
    I32EnumAttrCase<"CG", 3, "cg">,
    I32EnumAttrCase<"WB", 4, "wb">,
    I32EnumAttrCase<"CS", 5, "cs">,
    I32EnumAttrCase<"WT", 6, "wt">,
    I32EnumAttrCase<"CV", 7, "cv">]> {
  let cppNamespace = "::mlir::ttng";
}

def TTNG_EvictionPolicyAttr : I32EnumAttr<"EvictionPolicy", "eviction policy", [
    I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
    I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
    I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]> {
  let cppNamespace = "::mlir::ttng";
}

//===----------------------------------------------------------------------===//
// Constraints and resources (the C++ resources live in TTG.h)
//===----------------------------------------------------------------------===//

def TTNG_SharedMemory : Resource<"::mlir::ttg::SharedMemory">;
def TTNG_GlobalMemory : Resource<"::mlir::ttg::GlobalMemory">;

def TTNG_FpIntTensor : RankedTensorOf<[AnyFloat, AnyInteger]>;
def TTNG_TensorOrMemDesc : AnyTypeOf<[AnyRankedTensor, TTG_MemDesc],
                                     "tensor or memdesc">;

class TTNG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TTNG_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Hopper wgmma
//===----------------------------------------------------------------------===//

// `%d = ttng.warp_group_dot %a, %b, %c[, %useC] {inputPrecision = 0 : i32[, isAsync = true]}
//      : A * !ttg.memdesc<...> -> tensor<...>`
// `inputPrecision` is Triton's InputPrecision (tf32 = 0, tf32x3, ieee = 2, ...).
def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["c", "d"]>]> {
  let summary = "Warp-group matrix multiply-accumulate (wgmma)";
  let arguments = (ins
    TTNG_TensorOrMemDesc:$a,
    TTG_MemDesc:$b,
    TTNG_FpIntTensor:$c,
    Optional<I1>:$useC,
    DefaultValuedAttr<I32Attr, "2">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    DefaultValuedAttr<BoolAttr, "false">:$isAsync);
  let results = (outs TTNG_FpIntTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? attr-dict
    `:` type($a) `*` qualified(type($b)) `->` type($d)
  }];
}

// `%r:3 = ttng.warp_group_dot_wait %d, %a, %b {pendings = 0 : i32} : T0, T1, T2`
def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Wait until at most `pendings` async wgmma groups are in flight";
  let arguments = (ins Variadic<TTNG_TensorOrMemDesc>:$inputs,
                       I32Attr:$pendings);
  let results = (outs Variadic<TTNG_TensorOrMemDesc>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

//===----------------------------------------------------------------------===//
// Fences and mbarriers
//===----------------------------------------------------------------------===//

// `ttng.fence_async_shared {bCluster = false}`
def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "Order generic-proxy shared-memory accesses before async-proxy ones";
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

// `ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, ...>`
def TTNG_InitBarrierOp : TTNG_Op<"init_barrier"> {
  let summary = "Initialize an mbarrier with an arrival count";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$alloc,
                       I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
}

// `ttng.inval_barrier %b : !ttg.memdesc<1xi64, ...>`
def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier"> {
  let summary = "Invalidate an mbarrier";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
}

// `ttng.barrier_expect %b, 32768, %pred : !ttg.memdesc<1xi64, ...>`
def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect"> {
  let summary = "Expect `size` bytes of transactions on an mbarrier";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$alloc,
                       I32Attr:$size, I1:$pred);
  let assemblyFormat = [{
    $alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))
  }];
}

// `ttng.wait_barrier %b, %phase[, %pred][ deps %d0, %d1] : !ttg.memdesc<...>[, D0, D1]`
def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments]> {
  let summary = "Wait for an mbarrier to complete the given phase";
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$alloc,
    I32:$phase,
    Optional<I1>:$pred,
    Variadic<TTG_MemDesc>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)?
    attr-dict `:` qualified(type($alloc)) (`,` type($deps)^)?
  }];
}

// `ttng.arrive_barrier %b, 1[, %pred] : !ttg.memdesc<1xi64, ...>`
def TTNG_ArriveBarrierOp : TTNG_Op<"arrive_barrier"> {
  let summary = "Arrive `count` times on an mbarrier";
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>:$alloc,
    I32Attr:$count,
    Optional<I1>:$pred);
  let assemblyFormat = [{
    $alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))
  }];
}

// `ttng.async_copy_mbarrier_arrive %b[ {noIncrement}] : !ttg.memdesc<1xi64, ...>`:
// the mbarrier gets an arrival once the thread's outstanding cp.async copies
// complete (`noIncrement`: the arrival is counted against the pending count
// set by init_barrier rather than incrementing it first).
def TTNG_AsyncCopyMbarrierArriveOp : TTNG_Op<"async_copy_mbarrier_arrive"> {
  let summary = "Arrive on an mbarrier when the thread's cp.async copies complete";
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
    UnitAttr:$noIncrement);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

// `ttng.async_tma_copy_global_to_local %desc[%x, %y] %dst, %bar, %pred
//      : !tt.tensordesc<...>, !ttg.memdesc<1xi64, ...> -> !ttg.memdesc<...>`
def TTNG_AsyncTMACopyGlobalToLocalOp
    : TTNG_Op<"async_tma_copy_global_to_local"> {
  let summary = "Asynchronously copy a block from a tensor descriptor to shared memory";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
    Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$result,
    I1:$pred,
    DefaultValuedAttr<TTNG_CacheModifierAttr, "::mlir::ttng::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TTNG_EvictionPolicyAttr, "::mlir::ttng::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $coord `]` $result `,` $barrier `,` $pred
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// `ttng.async_tma_copy_local_to_global %desc[%x, %y] %src
//      : !tt.tensordesc<...>, !ttg.memdesc<...>`
def TTNG_AsyncTMACopyLocalToGlobalOp
    : TTNG_Op<"async_tma_copy_local_to_global"> {
  let summary = "Asynchronously copy a block from shared memory to a tensor descriptor";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,` qualified(type($src))
  }];
}

// `ttng.async_tma_store_wait {pendings = 0 : i32}`
def TTNG_AsyncTMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "Wait until at most `pendings` TMA stores are reading shared memory";
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Thread-block clusters
//===----------------------------------------------------------------------===//

// `ttng.cluster_arrive {relaxed = false}`
def TTNG_ClusterArriveOp : TTNG_Op<"cluster_arrive"> {
  let summary = "Arrive on the cluster barrier";
  let arguments = (ins I1Attr:$relaxed);
  let assemblyFormat = "attr-dict";
}

// `ttng.cluster_wait`
def TTNG_ClusterWaitOp : TTNG_Op<"cluster_wait"> {
  let summary = "Wait on the cluster barrier";
  let assemblyFormat = "attr-dict";
}

#endif // TLE_INTEROP_TTNGOPS_TD
