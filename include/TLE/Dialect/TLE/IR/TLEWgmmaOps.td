//===- TLEWgmmaOps.td - asynchronous warpgroup MMA ------------------------===//
//
// FlagTree's explicit Hopper wgmma (its PR #707): `tle.wgmma` issues an
// asynchronous warpgroup MMA on two shared-memory buffers, `tle.wgmma_wait`
// waits until at most `pendings` wgmma groups are in flight, and
// `tle.wgmma_shared_operand_fence` orders generic-proxy writes of an
// operand buffer before the wgmma reads it. Verifiers live in
// lib/Dialect/TLE/IR/Wgmma.cpp; the lowering is `triton-tle-lower-wgmma`
// (lib/Conversion/TLEToTritonGPU/LowerWgmma.cpp); docs/barriers.md.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEWGMMAOPS_TD
#define TLE_DIALECT_TLEWGMMAOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

def TLE_WgmmaOp : TLE_Op<"wgmma", [AllTypesMatch<["acc", "result"]>]> {
  let summary = "Issue an asynchronous warpgroup MMA: result = a @ b + acc";
  let description = [{
    `tle.gpu.wgmma(a, b, acc)`: `b` (`K x N`) is a buffer in shared memory
    (`!ttg.memdesc`), `a` (`M x K`) a buffer too or a tensor in registers
    (FA3's `P @ V`: the lowering converts it to the wgmma register operand
    layout, `#ttg.dot_op<{opIdx = 0}>` of the accumulator's layout), `acc`
    an `M x N` f32 tensor. The operands hold f16 or bf16 (the same for
    both), or, buffers only, 8-bit floats (f8E4M3FN, f8E5M2, mixed
    allowed): wgmma reads 8-bit operands K-major only, so an 8-bit `b` must
    be a `tle.memdesc_wgmma_view` of an `N x K` buffer (checked by the
    lowering); `max_num_imprecise_acc` (8-bit operands only) is the number
    of products wgmma may add in reduced precision before the lowering
    accumulates in f32. The MMA is issued by the thread
    group's warpgroups (`wgmma.mma_async`, committed as one group) and not
    waited for: `result` may only be used as the `acc` of a later
    `tle.wgmma` of the same shape or by `tle.wgmma_wait`, whose results
    are the values once at most `pendings` groups are in flight. `M` is a
    multiple of 64, `N` a multiple of 8 (at most 256 per instruction; wider
    tiles are split), `K` a multiple of 16 (32 for 8-bit operands). Needs
    sm_90.

    The buffers are read through the async proxy: a buffer written by
    generic stores (`tle.local_store`, stores through local pointers) needs
    a `tle.wgmma_shared_operand_fence` between the stores and the wgmma;
    one filled by TMA does not.

    ```mlir
    %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>,
        !ttg.memdesc<32x64xf16, #shared, #smem, mutable>, tensor<64x64xf32, #blocked>
    %o = tle.wgmma %p, %v, %acc : tensor<64x32xbf16, #blocked>,
        !ttg.memdesc<32x64xbf16, #shared, #smem, mutable>, tensor<64x64xf32, #blocked>
    ```
  }];
  let arguments = (ins Arg<AnyTypeOf<[TTG_MemDesc, AnyRankedTensor]>, "a", [MemRead]>:$a,
                       Arg<TTG_MemDesc, "b", [MemRead]>:$b,
                       AnyRankedTensor:$acc,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$max_num_imprecise_acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def TLE_WgmmaWaitOp : TLE_Op<"wgmma_wait", [AllTypesMatch<["values", "results"]>]> {
  let summary = "Wait until at most `pendings` wgmma groups are in flight";
  let description = [{
    `tle.gpu.wgmma_wait(pendings, *values)`: `wgmma.wait_group pendings`;
    `results` are `values` (results of `tle.wgmma`, or of earlier waits)
    once all but the last `pendings` wgmma groups of the thread group have
    completed. With `pendings = 0` every result is complete and may be used
    like any tensor. `pendings` is 0 to 7.

    ```mlir
    %r = tle.wgmma_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #blocked>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$values,
                       ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<7>]>:$pendings);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{ $values attr-dict `:` type($values) }];
  let hasVerifier = 1;
}

def TLE_WgmmaSharedOperandFenceOp : TLE_Op<"wgmma_shared_operand_fence"> {
  let summary = "Order generic-proxy shared-memory writes before wgmma reads";
  let description = [{
    `tle.gpu.wgmma_shared_operand_fence()`: `fence.proxy.async.shared::cta`
    (`ttng.fence_async_shared`): the calling thread's earlier writes to
    shared memory through the generic proxy (`st.shared`) are ordered before
    later reads through the async proxy (a `tle.wgmma` operand, a TMA
    store). Needs sm_90.

    ```mlir
    tle.wgmma_shared_operand_fence
    ```
  }];
  let assemblyFormat = [{ attr-dict }];
}

def TLE_MemDescWgmmaViewOp : TLE_Op<"memdesc_wgmma_view", [Pure]> {
  let summary = "A buffer seen as a wgmma operand, transposed or not";
  let description = [{
    `tle.gpu.memdesc_wgmma_view(buffer, order)`: a view of the 2-D shared
    buffer `src` whose dimensions are permuted by `order` (`[1, 0]`: the
    transpose, `[0, 1]`: the buffer itself), for use as a `tle.wgmma`
    operand: `K` stored `N x D` is the `B` operand `D x N` of `Q @ K^T`
    without moving data (wgmma reads a 16-bit operand in either major
    order). The result's shape is `src`'s permuted; element type and memory
    space are `src`'s. Its only users may be `tle.wgmma` ops (checked by
    `triton-tle-lower-wgmma`, which makes it a `ttg.memdesc_trans` of the
    buffer in its NVMMA layout).

    ```mlir
    %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 0>}
        : !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared1, #smem, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src, DenseI32ArrayAttr:$order);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLE_AllocAliasOp : TLE_Op<"alloc_alias", [Pure]> {
  let summary = "A typed view of another buffer's shared memory";
  let description = [{
    `tle.gpu.alloc(shape, dtype, alias=buffer)` (FEP-0065): a buffer of its
    own shape and element type that occupies the first bytes of `src`
    instead of shared memory of its own, so that phases of a kernel that
    never use both at once can share the memory (a softmax tile reused for
    the output tile, say). Both live in `#ttg.shared_memory`; the view may
    not be larger than `src` (bytes), and is mutable when `src` is. The
    bytes are shared as they are laid out: what one view writes, the other
    reads in its own layout. Ordering accesses across views is the
    kernel's job (a barrier between a write through one and a read through
    the other). Lowered by `triton-tle-lower-wgmma` to
    `ttg.memdesc_reinterpret`; neither buffer may be accessed through local
    pointers.

    ```mlir
    %o = tle.alloc_alias %p : !ttg.memdesc<128x64xf32, #shared, #smem, mutable>
        -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins TTG_MemDesc:$src);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLEWGMMAOPS_TD
