//===- TTNGOps.td - Interop ops of Triton 3.6's `ttng` dialect ---------===//
//
// Each op's assembly format reproduces what pip Triton 3.6.0 prints, byte for
// byte; ops Triton prints in generic form have no custom format here.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TTNGOPS_TD
#define TLE_INTEROP_TTNGOPS_TD

include "TLE/Interop/Triton/TTNG.td"
include "mlir/IR/OpAsmInterface.td"
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

// tt's DescriptorReduceKind (TTOps.td), for ttng.async_tma_reduce.
def TTNG_DescriptorReduceKindAttr : I32EnumAttr<"DescriptorReduceKind", "TMA reduction", [
    I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
    I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
    I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
    I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">]> {
  let cppNamespace = "::mlir::ttng";
}

// tt's ScaleDotElemType (TTOps.td), for ttng.tc_gen5_mma_scaled.
def TTNG_ScaleDotElemTypeAttr : I32EnumAttr<"ScaleDotElemType", "microscaled element type", [
    I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
    I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
    I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
    I32EnumAttrCase<"FP16", 6, "fp16">]> {
  let cppNamespace = "::mlir::ttng";
}

//===----------------------------------------------------------------------===//
// Constraints and resources (the C++ resources live in TTG.h)
//===----------------------------------------------------------------------===//

def TTNG_SharedMemory : Resource<"::mlir::ttg::SharedMemory">;
def TTNG_GlobalMemory : Resource<"::mlir::ttg::GlobalMemory">;
def TTNG_TensorMemory : Resource<"::mlir::ttng::TensorMemory">;

def TTNG_FpIntTensor : RankedTensorOf<[AnyFloat, AnyInteger]>;
def TTNG_I32Tensor : RankedTensorOf<[I32]>;
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

// `ttng.async_tma_reduce add, %desc[%x, %y] %src : !tt.tensordesc<...>, !ttg.memdesc<...>`
def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce"> {
  let summary = "Asynchronously reduce a block from shared memory into a tensor descriptor";
  let arguments = (ins
    TTNG_DescriptorReduceKindAttr:$kind,
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
    Variadic<I32>:$coord,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,`
    qualified(type($src))
  }];
}

// `ttng.async_tma_gather %desc[%rows, %col] %dst, %bar, %pred
//      : !tt.tensordesc<...>, tensor<Nxi32, ...>, i32, !ttg.memdesc<1xi64, ...>, !ttg.memdesc<...>, i1`
// (TMA gather4: rows `%rows` of a 2-D descriptor, from column `%col`).
def TTNG_AsyncTMAGatherOp : TTNG_Op<"async_tma_gather"> {
  let summary = "Asynchronously gather rows of a tensor descriptor into shared memory";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>]>:$desc,
    TTNG_I32Tensor:$x_offsets,
    I32:$y_offset,
    Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier,
    Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$result,
    I1:$pred);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred
    attr-dict `:` type(operands)
  }];
  let hasVerifier = 1;
}

// `ttng.async_tma_scatter %desc[%rows, %col] %src
//      : !tt.tensordesc<...>, tensor<Nxi32, ...>, i32, !ttg.memdesc<...>`
def TTNG_AsyncTMAScatterOp : TTNG_Op<"async_tma_scatter"> {
  let summary = "Asynchronously scatter rows from shared memory into a tensor descriptor";
  let arguments = (ins
    Arg<TT_TensorDescType, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc,
    TTNG_I32Tensor:$x_offsets,
    I32:$y_offset,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)
  }];
}

//===----------------------------------------------------------------------===//
// TMA descriptors made in the kernel (tl.make_tensor_descriptor)
//===----------------------------------------------------------------------===//

// `ttng.tensormap_create %ptr, %base, [%box..], [%dims..], [%strides..], [%elt_strides..]
//      {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
//      : (!tt.ptr<i8>, !tt.ptr<f16>, i32, ..., i64, ..., i32, ...) -> ()`
def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [
    AttrSizedOperandSegments]> {
  let summary = "Write a TMA descriptor into global memory";
  let arguments = (ins
    Arg<TT_Ptr, "", [MemWrite<TTNG_GlobalMemory>]>:$desc_ptr,
    TT_Ptr:$global_address,
    Variadic<I32>:$box_dim,
    Variadic<I32>:$global_dim,
    Variadic<I64>:$global_stride,
    Variadic<I32>:$element_stride,
    I32Attr:$elem_type,
    I32Attr:$interleave_layout,
    I32Attr:$swizzle_mode,
    I32Attr:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,`
    `[` $box_dim `]` `,`
    `[` $global_dim `]` `,`
    `[` $global_stride `]` `,`
    `[` $element_stride `]`
    attr-dict `:` functional-type(operands, results)
  }];
}

// `ttng.tensormap_fenceproxy_acquire %ptr : !tt.ptr<i8>`
def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire"> {
  let summary = "Acquire fence between a TMA descriptor written in global memory and its use";
  let arguments = (ins Arg<TT_Ptr, "", [MemRead<TTNG_GlobalMemory>, MemWrite<TTNG_GlobalMemory>]>:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

// `%d = ttng.reinterpret_tensor_descriptor %ptr : !tt.ptr<i8> to !tt.tensordesc<...>`
def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "Use a TMA descriptor in global memory as a tensor descriptor";
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Blackwell tensor memory and tcgen05 MMA
//===----------------------------------------------------------------------===//

// Triton names the results of tmem_alloc and tmem_load `%result` (when no
// name location gives another name).
class TTNG_ResultNamedOp<string mnemonic> : TTNG_Op<mnemonic, [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let extraClassDefinition = [{
    void $cppClass::getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      setNameFn(getResult(), "result");
    }
  }];
}

// `%m = ttng.tmem_alloc : () -> !ttg.memdesc<..., #tmem, #ttng.tensor_memory, mutable>`
// `%m = ttng.tmem_alloc %x : (tensor<...>) -> !ttg.memdesc<..., #ttng.tensor_memory>`
def TTNG_TMEMAllocOp : TTNG_ResultNamedOp<"tmem_alloc"> {
  let summary = "Allocate tensor memory, optionally filled from a tensor";
  let arguments = (ins Optional<AnyRankedTensor>:$src);
  let results = (outs Res<TTG_MemDesc, "", [MemAlloc<TTNG_TensorMemory>]>:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

// `%x = ttng.tmem_load %m : !ttg.memdesc<...> -> tensor<...>`
def TTNG_TMEMLoadOp : TTNG_ResultNamedOp<"tmem_load"> {
  let summary = "Load a tensor from tensor memory";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemRead<TTNG_TensorMemory>]>:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

// `ttng.tmem_store %x, %m, %pred : tensor<...> -> !ttg.memdesc<..., mutable>`
def TTNG_TMEMStoreOp : TTNG_Op<"tmem_store"> {
  let summary = "Store a tensor into tensor memory";
  // Triton's operand order (its generic form): destination first.
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_TensorMemory>]>:$dst,
                       AnyRankedTensor:$src,
                       I1:$pred);
  let assemblyFormat = [{
    $src `,` $dst `,` $pred attr-dict `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

// `%v = ttng.tmem_subslice %m {N = 64 : i32} : !ttg.memdesc<128x128x...> -> !ttg.memdesc<128x64x..., 128x128>`:
// columns [N, N + n) of a 2-D tensor-memory buffer.
def TTNG_TMEMSubSliceOp : TTNG_Op<"tmem_subslice", [Pure]> {
  let summary = "View of a column range of a tensor-memory buffer";
  let arguments = (ins TTG_MemDesc:$src, I32Attr:$N);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// What Triton 3.6 prints for tcgen05 MMAs (the operand `%d` is the
// accumulator in tensor memory; `%useD` false ignores its old value):
//
//   ttng.tc_gen5_mma %a, %b, %d, %useD, %pred, %bar[%barPred] {is_async} : A, B, D, BAR
//   %t = ttng.tc_gen5_mma %a, %b, %d[], %useD, %pred : A, B, D
//   %t = ttng.tc_gen5_mma %a, %b, %d[], %useD, %pred, %b0[%p0], %b1[%p1] {is_async} : A, B, D, B0, B1
//
// `[...]` after `%d` appears exactly when the op gives an `!ttg.async.token`
// (Gluon's form), holding the token it depends on if any; every barrier
// `%bar[%barPred]` is arrived on when the MMA completes.
def TTNG_TCGen5MMAOp : TTNG_Op<"tc_gen5_mma", [AttrSizedOperandSegments]> {
  let summary = "tcgen05 matrix multiply-accumulate into tensor memory";
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>, MemRead<TTNG_TensorMemory>]>:$a,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$b,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_TensorMemory>, MemWrite<TTNG_TensorMemory>]>:$d,
    Optional<TTG_AsyncToken>:$acc_dep,
    I1:$useD,
    I1:$pred,
    Arg<Variadic<TTG_MemDesc>, "", [MemWrite<TTNG_SharedMemory>]>:$barriers,
    Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async,
    UnitAttr:$two_ctas);
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $useD `,` $pred
    `` custom<Barriers>($barriers, $barrier_preds) attr-dict `:` qualified(type($a))
    `,` qualified(type($b)) `,` qualified(type($d)) (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

// `ttng.tc_gen5_mma_scaled %a, %b, %d, %as, %bs, %useD, %pred lhs = e4m3 rhs = e2m1, %bar[%barPred]
//      {is_async} : A, B, D, AS, BS, BAR`
// (scales in tensor memory, `#tmem_scales`); `[...]` after `%d` as for
// ttng.tc_gen5_mma.
def TTNG_TCGen5MMAScaledOp : TTNG_Op<"tc_gen5_mma_scaled", [AttrSizedOperandSegments]> {
  let summary = "tcgen05 microscaled matrix multiply-accumulate into tensor memory";
  let arguments = (ins
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>, MemRead<TTNG_TensorMemory>]>:$a,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_SharedMemory>]>:$b,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_TensorMemory>, MemWrite<TTNG_TensorMemory>]>:$d,
    Optional<TTG_AsyncToken>:$acc_dep,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_TensorMemory>]>:$a_scale,
    Arg<TTG_MemDesc, "", [MemRead<TTNG_TensorMemory>]>:$b_scale,
    TTNG_ScaleDotElemTypeAttr:$a_type,
    TTNG_ScaleDotElemTypeAttr:$b_type,
    I1:$useD,
    I1:$pred,
    Arg<Variadic<TTG_MemDesc>, "", [MemWrite<TTNG_SharedMemory>]>:$barriers,
    Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async);
  let results = (outs Optional<TTG_AsyncToken>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $a_scale `,`
    $b_scale `,` $useD `,` $pred `lhs` `=` $a_type `rhs` `=` $b_type
    `` custom<Barriers>($barriers, $barrier_preds) attr-dict `:` qualified(type($a))
    `,` qualified(type($b)) `,` qualified(type($d)) `,` qualified(type($a_scale))
    `,` qualified(type($b_scale)) (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

// `ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, ...>`: the mbarrier gets an
// arrival when the thread's earlier tcgen05 ops complete.
def TTNG_TCGen5CommitOp : TTNG_Op<"tc_gen5_commit"> {
  let summary = "Arrive on an mbarrier when earlier tcgen05 ops complete";
  let arguments = (ins Arg<TTG_MemDesc, "", [MemWrite<TTNG_SharedMemory>]>:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
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
