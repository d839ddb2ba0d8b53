//===- TLEBarrierOps.td - explicit barriers and async TMA copies ----------===//
//
// FlagTree's explicit synchronization primitives (its PRs #534 and #707):
// mbarrier arrays (`tle.barrier_alloc`, `tle.barrier_arrive`,
// `tle.barrier_wait`), named barriers
// (`tle.named_barrier_sync`, `tle.named_barrier_arrive`), copies into a
// buffer that complete on an mbarrier (`tle.async_tma_load`,
// `tle.async_copy_load`) and asynchronous TMA stores out of a buffer
// (`tle.async_tma_store`, `tle.tma_store_wait`), and TMA descriptors read
// from global memory (`tle.tensor_map_fence_acquire`,
// `tle.reinterpret_tensor_map`).
// Verifiers live in lib/Dialect/TLE/IR/Barrier.cpp; the lowering is
// `triton-tle-lower-barriers` (lib/Conversion/TLEToTritonGPU/LowerBarriers.cpp).
// docs/barriers.md is the user-level description.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_DIALECT_TLEBARRIEROPS_TD
#define TLE_DIALECT_TLEBARRIEROPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def TLE_BarrierAllocOp : TLE_Op<"barrier_alloc",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Allocate and initialize an array of mbarriers";
  let description = [{
    `tle.gpu.alloc_barriers(num_barriers, arrive_count, init)`: `N`
    mbarriers in shared memory, a mutable `!ttg.memdesc<Nx1xi64>` in
    `#ttg.shared_memory`, each initialized to expect `arrive_count`
    arrivals per phase (1 to 2^20 - 1). With `ready`, a barrier starts as
    if its phase before the first had completed (FlagTree's
    `init=tle.gpu.READY`): the first `tle.barrier_wait` on it, at phase
    index 0, returns at once; without it (`tle.gpu.PENDING`) it waits for
    the first phase's arrivals.

    ```mlir
    %full = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
    %empty = tle.barrier_alloc arrive_count 2 ready : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$arrive_count,
                       UnitAttr:$ready);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    `arrive_count` $arrive_count (`ready` $ready^)? attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLE_BarrierArriveOp : TLE_Op<"barrier_arrive"> {
  let summary = "Arrive on one mbarrier of an array";
  let description = [{
    `tle.gpu.barrier_arrive(bars[index], ...)`: the executing thread group
    (the CTA, or the warp_specialize partition it runs in) arrives `count`
    times on `barriers[index]`, once, from one thread, after its warps have
    synchronized; with `expect_tx`, the arrival also adds that many bytes
    to the barrier's pending transaction count
    (`mbarrier.arrive.expect_tx`), so the phase completes only when that
    many bytes of asynchronous copies (TMA) have landed. `count` is 1 to
    2^20 - 1, `expect_tx` 1 to 2^20 - 1 bytes. A constant `index` must be
    in range.

    ```mlir
    tle.barrier_arrive %bars[%i] : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>, i32
    tle.barrier_arrive %bars[%i] {expect_tx = 8192 : i64} : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>, i32
    ```
  }];
  let arguments = (ins Arg<TTG_MemDesc, "barriers", [MemWrite]>:$barriers,
                       I32:$index,
                       DefaultValuedAttr<ConfinedAttr<I32Attr, [IntPositive]>, "1">:$count,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$expect_tx);
  let assemblyFormat = [{
    $barriers `[` $index `]` attr-dict `:` qualified(type($barriers)) `,` type($index)
  }];
  let hasVerifier = 1;
}

def TLE_BarrierWaitOp : TLE_Op<"barrier_wait"> {
  let summary = "Wait for a phase of one mbarrier of an array";
  let description = [{
    `tle.gpu.barrier_wait(bars[index], phaseIdx)`: every thread waits until
    the phase `phase` (FlagTree's `phaseIdx`, the number of earlier uses of
    this barrier: 0, 1, 2, ...) of `barriers[index]` has completed. Only
    its parity is used: the hardware remembers one phase back, so a wait
    must come before the barrier completes two further phases. A barrier
    allocated `ready` is shifted by one phase (its phase 0 is complete at
    once).

    With `named` (FlagTree's `barrier_wait(bars[i])` without `phaseIdx`),
    the array's barriers are used as hardware named barriers instead:
    `triton-tle-lower-barriers` gives the array consecutive named-barrier
    ids and makes this wait `tle.named_barrier_sync` of barrier `index` (a
    constant) with the array's `arrive_count` threads, and every arrive on
    the array `tle.named_barrier_arrive`; `phase` is then unused.

    ```mlir
    tle.barrier_wait %bars[%i], %phase : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>, i32, i32
    tle.barrier_wait %ping[%c0], %c0 {named} : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>, i32, i32
    ```
  }];
  let arguments = (ins Arg<TTG_MemDesc, "barriers", [MemRead, MemWrite]>:$barriers,
                       I32:$index, I32:$phase, UnitAttr:$named);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:` qualified(type($barriers)) `,`
    type($index) `,` type($phase)
  }];
  let hasVerifier = 1;
}

def TLE_BarrierTryWaitOp : TLE_Op<"barrier_try_wait"> {
  let summary = "Test, without blocking, whether a phase of one mbarrier has completed";
  let description = [{
    `tle.gpu.barrier_try_wait(bars[index], phaseIdx)`: `true` when the
    phase `phase` of `barriers[index]` has completed, like
    `tle.barrier_wait` but returning instead of waiting
    (`mbarrier.try_wait.parity`, which may suspend the thread for a
    hardware-chosen time limit before giving up). Each thread gets its own
    answer; a thread that saw `true` has seen the phase's data, as after
    a wait. The phase is counted as for `tle.barrier_wait` (its parity,
    shifted by one for a barrier allocated `ready`).

    ```mlir
    %done = tle.barrier_try_wait %bars[%i], %phase : !ttg.memdesc<2x1xi64, #shared, #smem, mutable>, i32, i32
    ```
  }];
  let arguments = (ins Arg<TTG_MemDesc, "barriers", [MemRead, MemWrite]>:$barriers,
                       I32:$index, I32:$phase);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:` qualified(type($barriers)) `,`
    type($index) `,` type($phase)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

class TLE_NamedBarrierOp<string mnemonic, string ptx> : TLE_Op<mnemonic> {
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<1>, IntMaxValue<15>]>:$id,
                       ConfinedAttr<I32Attr, [IntPositive]>:$num_threads);
  let assemblyFormat = [{ $id `,` $num_threads attr-dict }];
  let hasVerifier = 1;
}

def TLE_NamedBarrierSyncOp : TLE_NamedBarrierOp<"named_barrier_sync", "bar.sync"> {
  let summary = "Wait at a named (hardware) barrier";
  let description = [{
    `tle.gpu.barrier_wait(tle.gpu.named_barrier(id, num_threads))`:
    `bar.sync id, num_threads`. The executing warps arrive at hardware
    barrier `id` (1 to 15; 0 is the CTA-wide `__syncthreads`) and wait until
    `num_threads` threads (a positive multiple of 32, at most 1024) have
    arrived at it, counting those of `tle.named_barrier_arrive`. Inside a
    kernel with `tle.gpu.warp_specialize`, Triton itself uses the ids up to
    the number of worker partitions plus 2; `triton-tle-lower-barriers`
    rejects those.

    ```mlir
    tle.named_barrier_sync 5, 256
    ```
  }];
}

def TLE_NamedBarrierArriveOp : TLE_NamedBarrierOp<"named_barrier_arrive", "bar.arrive"> {
  let summary = "Arrive at a named (hardware) barrier without waiting";
  let description = [{
    `tle.gpu.barrier_arrive(tle.gpu.named_barrier(id, num_threads))`:
    `bar.arrive id, num_threads`: the executing warps count towards the
    `num_threads` arrivals that release the threads waiting at barrier `id`
    (`tle.named_barrier_sync`) and go on. Same `id` and `num_threads` rules
    as `tle.named_barrier_sync`.

    ```mlir
    tle.named_barrier_arrive 5, 256
    ```
  }];
}

//===----------------------------------------------------------------------===//
// TMA copies completing on a barrier
//===----------------------------------------------------------------------===//

def TLE_AsyncTMALoadOp : TLE_Op<"async_tma_load"> {
  let summary = "Make a tensor descriptor load land in a buffer, completing on an mbarrier";
  let description = [{
    `tle.gpu.copy(desc, buf, shape, offsets, barrier=bars[index])`. The
    frontend emits Triton's `tt.descriptor_load` of the block and this op
    on its result `value`: the block goes straight from global memory into
    the mutable shared buffer `buffer` (same shape and element type) by one
    TMA load, without passing through registers and without waiting for
    it. The issuing thread group arrives once on `barriers[index]`
    announcing the copy's bytes (`mbarrier.arrive.expect_tx`), and the
    copy's completion counts those bytes down: a `tle.barrier_wait` on the
    barrier's phase returns once the data has landed. Out-of-bounds
    elements of the block read as zeros. Needs sm_90.

    `triton-tle-lower-barriers` finds TritonGPU's expansion of the
    descriptor load (a `ttng.async_tma_copy_global_to_local` into a scratch
    buffer of its own, waited for on a barrier of its own, then a
    `ttg.local_load`), retargets the copy to `buffer` and `barriers[index]`
    and deletes the rest; `value` must have no other use. The buffer takes
    the descriptor's NVMMA shared layout, so it cannot also be accessed
    through local pointers.

    ```mlir
    tle.async_tma_load %v, %buf, %bars[%i]
        : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>,
          !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>, i32
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       Arg<TTG_MemDesc, "buffer", [MemWrite]>:$buffer,
                       Arg<TTG_MemDesc, "barriers", [MemWrite]>:$barriers,
                       I32:$index);
  let assemblyFormat = [{
    $value `,` $buffer `,` $barriers `[` $index `]` attr-dict `:`
    type($value) `,` qualified(type($buffer)) `,` qualified(type($barriers)) `,` type($index)
  }];
  let hasVerifier = 1;
}

def TLE_AsyncCopyLoadOp : TLE_Op<"async_copy_load"> {
  let summary = "Make a global load land in a buffer by cp.async, completing on an mbarrier";
  let description = [{
    `tle.gpu.copy(ptrs, buf, shape, barrier=bars[index])`. The frontend
    emits a `tt.load` of the pointers and this op on its result `value`:
    the tile is copied from global memory straight into the mutable shared
    buffer `buffer` (same shape and element type) by `cp.async`, without
    passing through registers and without waiting for it; the calling
    thread group counts as one arrival on `barriers[index]`, and that
    arrival completes only once every thread's copies have landed
    (`cp.async.mbarrier.arrive` by each thread, then one ordinary arrival).
    Needs sm_80.

    `triton-tle-lower-barriers` replaces the `tt.load` (which must have no
    other use, and no `other` value, cache modifier, eviction policy or
    volatile flag) by `ttg.async_copy_global_to_local` into the buffer (a
    masked-off element is zero-filled); each thread of the group then
    issues `ttng.async_copy_mbarrier_arrive` on the barrier, and after a
    `gpu.barrier` one thread arrives. Triton's layout for the load must
    give each thread 4, 8 or 16 contiguous bytes (what `cp.async` copies).

    ```mlir
    tle.async_copy_load %v, %buf, %bars[%i]
        : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>,
          !ttg.memdesc<2x1xi64, #shared1, #smem, mutable>, i32
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       Arg<TTG_MemDesc, "buffer", [MemWrite]>:$buffer,
                       Arg<TTG_MemDesc, "barriers", [MemWrite]>:$barriers,
                       I32:$index);
  let assemblyFormat = [{
    $value `,` $buffer `,` $barriers `[` $index `]` attr-dict `:`
    type($value) `,` qualified(type($buffer)) `,` qualified(type($barriers)) `,` type($index)
  }];
  let hasVerifier = 1;
}

def TLE_AsyncCopyOp : TLE_Op<"async_copy"> {
  let summary = "Make a global load land in a buffer by cp.async, completing with its commit group";
  let description = [{
    `tle.gpu.copy(ptrs, buf, shape, is_async=True)` into a buffer that is
    not a pipe slot (FlagTree's transport-level asynchronous copy): the tile
    `value` (a `tt.load` of global pointers) is copied from global memory
    straight into the mutable shared buffer `buffer` (same shape and element
    type) by `cp.async`, and nothing waits for it. The kernel commits the
    copies issued so far as a group (`tle.async_commit_group`) and waits for
    groups (`tle.async_wait_group`) before it reads the buffer. Needs sm_80.

    The frontend emits a `tt.load` tagged `tle.async_copy` and a store of
    it into the buffer; `triton-tle-lower-pipes` turns those it does not
    make pipe slot fills into this op. `triton-tle-lower-barriers` replaces
    the `tt.load` (used only here, through layout conversions used only
    there; no cache modifier or volatile flag, `other` absent or zero) by
    `ttg.async_copy_global_to_local` into the buffer with the load's mask
    (a masked-off element is zero-filled) and eviction policy. A load
    `cp.async` cannot carry (elements narrower than 32 bits, whose runs
    Triton may split below cp.async's 4 bytes; a layout giving a thread more
    than 16 contiguous bytes), or a buffer accessed through local pointers,
    becomes `tle.local_store %value, %buf` (synchronous, correct). Each op must be followed, in its function, by a
    `tle.async_commit_group`: a copy never committed is never waited for.

    ```mlir
    tle.async_copy %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       Arg<TTG_MemDesc, "buffer", [MemWrite]>:$buffer);
  let assemblyFormat = [{
    $value `,` $buffer attr-dict `:` type($value) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLE_AsyncCommitGroupOp : TLE_Op<"async_commit_group",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Commit the cp.async copies issued so far as one group";
  let description = [{
    `tle.gpu.async_commit_group()`: `cp.async.commit_group`
    (`ttg.async_commit_group`): every `tle.async_copy` this thread issued
    since the last commit forms one group, which `tle.async_wait_group`
    counts.

    ```mlir
    tle.async_commit_group
    ```
  }];
  let assemblyFormat = [{ attr-dict }];
}

def TLE_AsyncWaitGroupOp : TLE_Op<"async_wait_group",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until at most `pendings` committed cp.async groups are in flight";
  let description = [{
    `tle.gpu.async_wait_group(max_pending)`: `cp.async.wait_group pendings`
    (`ttg.async_wait {num = pendings}`), after which Triton's barrier
    analysis syncs the CTA, so every thread sees every thread's copies of
    the groups waited for. `pendings` is 0 to 7 (FlagTree's range).

    ```mlir
    tle.async_wait_group 1
    ```
  }];
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = [{ $pendings attr-dict }];
  let hasVerifier = 1;
}

def TLE_AsyncTMAStoreOp : TLE_Op<"async_tma_store"> {
  let summary = "Make the tensor descriptor store of a buffer asynchronous, reading the buffer in place";
  let description = [{
    `tle.gpu.copy(buf, desc, shape, offsets, is_async=True)`. The frontend
    emits a whole-buffer load of `buffer` (`value`), Triton's
    `tt.descriptor_store` of it, and this op: the store reads the buffer
    in place by TMA and is not waited for. It is committed as one bulk
    async group; `tle.tma_store_wait` waits for groups, and the buffer must
    not be written again before it has.

    `triton-tle-lower-barriers` finds TritonGPU's expansion of the
    descriptor store (`ttg.local_alloc %value` into a scratch buffer, a
    `ttng.fence_async_shared`, `ttng.async_tma_copy_local_to_global` of the
    scratch buffer, `ttng.async_tma_store_wait {pendings = 0}`), makes the
    copy read `buffer` (which takes the descriptor's NVMMA shared layout),
    keeps the fence and drops the scratch buffer, the wait and the load.
    `value` must be a `tle.local_load` of `buffer` used only by the store
    and this op. Needs sm_90.

    ```mlir
    tle.async_tma_store %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       Arg<TTG_MemDesc, "buffer", [MemRead]>:$buffer);
  let assemblyFormat = [{
    $value `,` $buffer attr-dict `:` type($value) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLE_TMAStoreWaitOp : TLE_Op<"tma_store_wait"> {
  let summary = "Wait until at most `pendings` asynchronous TMA store groups are in flight";
  let description = [{
    `tle.gpu.tma_store_wait(pendings)`: `cp.async.bulk.wait_group.read
    pendings` (`ttng.async_tma_store_wait`): the buffers of all but the
    last `pendings` asynchronous TMA stores (`tle.async_tma_store`) have
    been read and may be written again. `pendings` is 0 to 63.

    ```mlir
    tle.tma_store_wait 0
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<63>]>:$pendings);
  let assemblyFormat = [{ $pendings attr-dict }];
}

def TLE_TMALoadCacheHintOp : TLE_Op<"tma_load_cache_hint"> {
  let summary = "Give the TMA load of a descriptor block an L2 eviction hint";
  let description = [{
    `tle.gpu.copy(desc, buf, ..., eviction_policy=P)`: the TMA load that
    TritonGPU makes of the `tt.descriptor_load` giving `value` carries the
    L2 cache policy `P` (`"evict_first"` or `"evict_last"`):
    `createpolicy.fractional.L2::P.b64` and the load's `.L2::cache_hint`.
    Triton 3.6 refuses an eviction policy on its TMA copy, so
    `triton-tle-lower-barriers` predicates the copy on a marker that the
    llir finish turns into the hint (TLE/Target/LLVMIR/TmaCacheHints.h).
    Needs sm_90.

    ```mlir
    tle.tma_load_cache_hint %v "evict_first" : tensor<64x64xf16, #blocked>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, StrAttr:$policy);
  let assemblyFormat = [{ $value $policy attr-dict `:` type($value) }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA descriptors in global memory
//===----------------------------------------------------------------------===//

def TLE_TensorMapFenceAcquireOp : TLE_Op<"tensor_map_fence_acquire"> {
  let summary = "Acquire a TMA descriptor written to global memory for this thread's TMA use";
  let description = [{
    `tle.gpu.tensor_map_fenceproxy_acquire(ptr)`:
    `fence.proxy.tensormap::generic.acquire.gpu [ptr], 128`
    (`ttng.tensormap_fenceproxy_acquire`). `ptr` is a scalar pointer into
    global memory to a 128-byte CUDA tensor map (any pointee type: a table
    of maps is usually bytes); after the fence, TMA copies of this thread
    through the map (`tle.reinterpret_tensor_map`) see the bytes the
    generic proxy wrote there before (by the host, or earlier kernels).
    Needs sm_90.

    ```mlir
    tle.tensor_map_fence_acquire %entry : !tt.ptr<i8>
    ```
  }];
  let arguments = (ins Arg<TT_Ptr, "", [MemRead, MemWrite]>:$ptr);
  let assemblyFormat = [{ $ptr attr-dict `:` qualified(type($ptr)) }];
  let hasVerifier = 1;
}

def TLE_ReinterpretTensorMapOp : TLE_Op<"reinterpret_tensor_map", [Pure]> {
  let summary = "Use a CUDA tensor map in global memory as a tensor descriptor";
  let description = [{
    `tle.gpu.reinterpret_tensor_map(ptr, buffer)`: the 128-byte CUDA
    tensor map at `ptr` (a scalar pointer into global memory, 64-byte
    aligned) used as a tensor descriptor of the result's block
    (`ttng.reinterpret_tensor_descriptor`): the kernel does not build or
    check the map, so its element type, box (the block), swizzle and
    bounds are the encoder's, and must match the block and its shared
    layout. The block has rank 1 to 5, at most 256 elements a dimension
    and a multiple of 16 bytes in its last one (TMA's box). Needs sm_90.

    ```mlir
    %d = tle.reinterpret_tensor_map %entry : !tt.ptr<i8> -> !tt.tensordesc<tensor<8x32xf32, #shared>>
    ```
  }];
  let arguments = (ins TT_Ptr:$ptr);
  let results = (outs TT_TensorDescType:$result);
  let assemblyFormat = [{
    $ptr attr-dict `:` qualified(type($ptr)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLEBARRIEROPS_TD
