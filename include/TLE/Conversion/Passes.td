//===- Passes.td - TLE conversions ----------------------------------------===//
//
// Conversions from TLE ops to Triton ops. Pass names mirror FlagTree's TLE
// (`triton-tle-*`) where FlagTree has the pass.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_CONVERSION_PASSES_TD
#define TLE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLELowerExclusiveCumsum
    : Pass<"triton-tle-lower-exclusive-cumsum", "mlir::ModuleOp"> {
  let summary = "Lower tle.exclusive_cumsum to tt.scan and tt.reduce";
  let description = [{
    Rewrites every `tle.exclusive_cumsum` into Triton ops, in TTIR (tensors
    without encoding) or TTGIR (the new values carry the input's encoding, or
    slices of it). Every created op gets the cumsum's location.

    Integers (i32, i64): `incl = tt.scan(x)` with `arith.addi`,
    `exclusive = incl - x` (exact in wraparound arithmetic) and
    `total = tt.reduce(x)` with `arith.addi`.

    Floats (f16, bf16, f32, f64): a two-operand `tt.scan` over pairs
    `(s, v)`, starting from `(0.0, x)`, with the associative combine
    `((s1, v1), (s2, v2)) -> (s1 + v1 + s2, v2)`; its first result is the
    exclusive sum (no `incl - x`, which turns `inf` into `NaN` and cancels).
    `total` is the inclusive value `s + v` at the last position in scan order,
    picked by a `tt.reduce` with `arith.addf` over
    `select(index == last, s + v, -0.0)`; the index is a `tt.make_range` along
    the axis, expanded and broadcast to the input shape.

    Any other element type is an error at the op.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect"];
}

def TLELowerLocalMemory
    : Pass<"triton-tle-lower-local-memory", "mlir::ModuleOp"> {
  let summary = "Lower TLE buffers, local/remote pointers, shared-memory "
                "atomics and cluster ops to Triton ops (cluster ops: sm_90+; "
                "the rest: any target)";
  let description = [{
    Implements docs/local-memory.md section 4, on TTGIR:

    - A *memdesc buffer* (a `tle.alloc` without `tle.local_pointers` users)
      becomes `ttg.local_alloc` (with its `init`); `tle.local_load` /
      `tle.local_store` become `ttg.local_load` / `ttg.local_store`;
      `tle.copy` becomes `tt.load` + `ttg.local_store` (global to shared) or
      `ttg.local_load` + `tt.store` (shared to global). Its dimensions after
      the first must be powers of two (Triton's rule for a memdesc: an
      error otherwise); a buffer without any user is erased, whatever its
      shape.
    - A *pointer buffer* gets a slot in TLE's shared-memory region, in
      program order, aligned to 16 bytes (128 above 4 KiB); the module gets
      `tle.shared = <region bytes> : i32`. Its base is
      `tt.elementwise_inline_asm "tle.smem.base <offset>;"` (pure, `=r`) at
      the function entry, `arith.extui` to i64 and `tt.int_to_ptr` to
      `!tt.ptr<T, 3>` carrying `tt.divisibility = dense<16> : tensor<1xi32>`.
      `tle.local_pointers` becomes `tt.addptr(splat(base), offsets)` with
      row-major i32 offsets over the shared encoding's `order` (only
      `#ttg.swizzled_shared` with `maxPhase = 1` is accepted); the full view
      builds its indices with `tt.make_range` / `tt.expand_dims` /
      `tt.broadcast` in the result encoding. Whole-buffer accesses
      (`local_load`, `local_store`, `copy`, `init`) go through full-view
      pointers in the accessed tensor's encoding.
    - `tle.remote_pointers cluster`: `tt.ptr_to_int`, `arith.trunci` to i32,
      `mapa.shared::cluster.u32` inline asm with the shard id, `arith.extui`,
      `tt.int_to_ptr` to address space 7. Pointers `tt.addptr (tt.splat
      %base), %offsets` with a uniform shard id (scalar, splat, splat
      constant) map only `%base` (one scalar mapa; a CTA's shared memory is
      contiguous in the cluster window) and keep the offsets, so the
      accesses stay contiguous for Triton's vectorizer. `device`: the offset
      is added to the 64-bit address; on `tt.addptr (tt.splat %base),
      %offsets` only `%base` moves, by `offset / sizeof(T)` elements (hinted
      as a multiple of 16 bytes: peer offsets are, docs/distributed.md §5).
    - `tle.atomic_rmw` / `tle.atomic_cas`: predicated inline asm
      `atom.<sem>.<scope>.shared::cta|shared::cluster.<op>.<type>` on the
      32-bit address; predicate = mask && owner (see
      LowerLocalMemoryAtomics.cpp: one thread per element of a replicated
      blocked layout, thread 0 for a scalar). Masked-off and non-owner
      threads return 0.
    - `tle.shard_id` on a `block_cluster` axis: `%cluster_ctarank`
      decomposed row-major over the mesh's block_cluster axes.
    - `tle.distributed_barrier cluster`: `ttng.cluster_arrive` +
      `ttng.cluster_wait`; `grid`: `gpu.barrier`, the marker
      `tle.grid_barrier;` (the llir finish makes it a barrier of every CTA of
      the launch on a module global), `gpu.barrier`, and the module gets
      `tle.grid_barrier = 1 : i32` (a cooperative launch); inside a
      warp_specialize partition it is an error.
    - `tle.distributed_barrier submesh` (K programs: the caller's group along
      the sub-mesh axes): each CTA holds one mbarrier (arrive count K) and a
      phase word per distinct axis set, in TLE's shared region, initialized
      at the kernel's entry (thread 0, `fence.mbarrier_init.release.cluster`,
      then a cluster barrier). At the barrier: `gpu.barrier`; thread j < K
      arrives (`mbarrier.arrive.release.cluster.shared::cluster`, through
      `mapa`) on the mbarrier of the group's j-th CTA; every thread waits on
      its own CTA's mbarrier for the phase word's parity
      (`mbarrier.try_wait.parity.acquire.cluster`); `gpu.barrier`; thread 0
      flips the phase word, all under `scf.if` on the `at` coordinates when
      the op has them. Only the group's CTAs take part: a program that does
      not call the barrier, or is not at `at`, does not hold the others.
    - Cluster modules: the meshes of the module's `tle.shard_id` ops and
      `tle.distributed_barrier`s that have block_cluster axes must agree on
      the cluster size N (product of those axes' sizes); the module gets
      `tle.cluster_size = N : i32` (the launch runs a grid of G as G clusters
      of N CTAs). Program ids are left alone: as in FlagTree, a program is a
      CTA and `tt.get_program_id x` is its global index (`%ctaid.x`, in
      [0, G * N)). `tle.remote_pointers cluster` in a module without a cluster
      of N > 1 is an error.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
                           "mlir::scf::SCFDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect", "mlir::ttng::TTNGDialect"];
}

def TLELowerAsyncLoads
    : Pass<"triton-tle-lower-async-loads", "mlir::ModuleOp"> {
  let summary = "Lower tle.async_load to a tt.load that Triton pipelines "
                "asynchronously, tagged for triton-tle-async-copy-loads "
                "(sm_80+)";
  let description = [{
    Runs in TTIR, before Triton's software pipeliner (the `tle-ttir` stage),
    and again in TTGIR (for IR that reaches TTGIR with the op). Each
    `tle.async_load %ptr[, %mask[, %other]]` becomes
    `tt.load %ptr[, %mask[, %other]] {tle.async}` with the op's location.

    When `num-stages` > 0 and the op sits directly in the body of an
    innermost `scf.for` (no loop nested in it), the load also gets
    `tt.latency = S - 1 : i32`, where `S` is the loop's `tt.num_stages`
    (`tl.range(..., num_stages=S)`) or else `num-stages` (the compile's
    `num_stages`); nothing when `S` <= 1. Triton 3.6's `AssignLatencies`
    takes `tt.latency` as a user-given latency and its pipeliner then turns
    the load into a multi-buffered `ttg.async_copy_global_to_local` (cp.async)
    whose wait sits before the first use, `S - 1` iterations later.

    Consequence (Triton 3.6): once one op of a loop carries `tt.latency`,
    Triton uses only the user-given latencies for that loop, so the loop's
    other loads (plain `tl.load`) are no longer pipelined by Triton's own
    heuristics; mark every load of such a loop `is_async=True` to pipeline
    them all.
  }];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"0",
           "The compile's num_stages (loops without tt.num_stages); 0: "
           "never add tt.latency">
  ];
  let dependentDialects = ["mlir::tt::TTDialect"];
}

def TLEAsyncCopyLoads
    : Pass<"triton-tle-async-copy-loads", "mlir::ModuleOp"> {
  let summary = "Turn the tle.async loads Triton's pipeliner left "
                "synchronous into cp.async copies waited for before first use "
                "(sm_80+)";
  let description = [{
    Runs in TTGIR, after Triton's pipeliner. A `tt.load {tle.async}` (from
    `triton-tle-lower-async-loads`) that is still a `tt.load` was not
    pipelined (outside a loop, or in a loop Triton does not pipeline). With
    `%buf` a fresh mutable `ttg.local_alloc` of the load's shape in
    `#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order}>`
    (`order` and `CGALayout` of the load's `#ttg.blocked` layout), it becomes:

    ```mlir
    %buf = ttg.local_alloc : () -> !ttg.memdesc<..., mutable>
    %t = ttg.async_copy_global_to_local %ptr, %buf [mask %m] [other %o]
    %g = ttg.async_commit_group tokens %t
    ...                                   // ops up to the wait point
    %w = ttg.async_wait %g {num = 0 : i32}
    %v = ttg.local_load %buf token %w -> the load's type
    [%v' = arith.select %m, %v, %o]       // when `other` is not +0 / 0
    ```

    The wait point is the first op after the load, in the load's block, that
    uses the result (or contains a use in a nested region), or that may write
    memory (a write effect, or unknown effects), since the copy's global
    reads are not ordered with later writes before the wait; the block's
    terminator when there is none. cp.async zero-fills masked-off elements,
    hence the `arith.select` for any other `other` (Triton's pipeliner does
    the same). When the layout holds more than 16 contiguous bytes per
    thread (cp.async's limit), the copy's operands are converted to the same
    blocked layout with `sizePerThread` along `order[0]` cut to 16 bytes.

    Loads kept synchronous (a hint, not an error; the attribute is dropped):
    elements narrower than 4 bytes (cp.async copies 4, 8 or 16 bytes and the
    contiguity that would allow wider copies is not known here), element
    types that are not integers or floats, layouts other than
    `#ttg.blocked`, volatile loads and loads with a cache modifier or
    eviction policy. `tt.latency` is dropped from every load handled.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect"];
}


def TLELowerTiles : Pass<"triton-tle-lower-tiles", "mlir::ModuleOp"> {
  let summary = "Lower tle.extract_tile / tle.insert_tile (through shared memory where they need it)";
  let description = [{
    On TTGIR. The source is stored in a `ttg.local_alloc` with a row-major
    `#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1}>` layout and
    a tile is the `ttg.memdesc_subslice` at its element offsets (tile number
    `i` of the row-major tile grid).

    - `tle.extract_tile`, constant index, of a source computed elementwise
      (pure arith / math ops, `tt.addptr`, layout conversions) from
      `tt.make_range`, `tt.splat`, splat constants, `tt.expand_dims`,
      `tt.broadcast` and a non-volatile `tt.load` the extract alone uses,
      all in blocked or sliced encodings: that computation replayed on the
      tile's elements only (ranges from the tile's offsets), then a layout
      conversion to the result's encoding if it differs. The source is not
      built: a tile of a large loaded tensor loads only the tile.
    - `tle.extract_tile`, constant index, otherwise: `local_alloc(src)`,
      subslice, `ttg.local_load` in the result's encoding.
    - `tle.insert_tile`, constant index, whose result only a `tt.store`
      stores, through pointers (and a mask) the replay above narrows to the
      tile: two stores to disjoint addresses and no buffer, the source's
      through the store's pointers with the tile's box masked off (bounds
      from `tt.make_range`s in the source's encoding), the tile's through
      the narrowed pointers and mask (the tile converted to their layout).
      A tile inserted into a large loaded tensor that is then stored needs
      no shared memory.
    - `tle.insert_tile`, constant index, otherwise: mutable `local_alloc`,
      `local_store(src)`, `local_store(tile)` into the subslice,
      `local_load` of the whole buffer in the source's encoding.
    - Dynamic index (a grid of at most 64 tiles, else an error): extract
      loads every tile and keeps tile `index` with `arith.select`; insert
      stores the tile under `scf.if (index == k)` for each tile `k`. An
      index outside the grid extracts tile 0 and inserts nothing.

    An unused op is erased. An operand without a distributed encoding (not
    TTGIR) is an error at the op.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::tt::TTDialect", "mlir::ttg::TTGDialect"];
}

def TLELowerPipes : Pass<"triton-tle-lower-pipes", "mlir::ModuleOp"> {
  let summary = "Lower tle.pipe to mbarrier rings inside tle.warp_specialize "
                "(sm_80+; TMA slot fills: sm_90+)";
  let description = [{
    On TTGIR, after `triton-tle-raise-warp-specialize` and before
    `triton-tle-lower-local-memory` (docs/warp-specialize.md). Every endpoint
    op of a pipe must sit in one `tle.warp_specialize` (default region or a
    partition); the writer's ops in one partition, each reader's ops in one
    partition, and no partition both writes and reads the pipe. One
    exception, FlagTree's one-shot hand-off: a writer's `writer_acquire` /
    `writer_commit` may sit in the kernel body before the
    `tle.warp_specialize` its readers run in (every warp of the kernel
    fills the slot; the commit is lowered as in the default region). Such a
    writer cannot wait for a released slot, so its pipe must be `one_shot`
    (an error otherwise); readers before the op are an error.

    At `tle.pipe.create`: a `ready` ring (`ttg.local_alloc` of `Cx1xi64`,
    `ttng.init_barrier` count 1 per slot) and, unless `one_shot`, an `empty`
    ring (count = number of readers); when the writer closes the pipe, a
    `Cx1xi32` closed-flag buffer (`ttg.local_alloc`; one flag per slot,
    written and read as a `tensor<1xi32>`). After the `tle.warp_specialize`: `ttng.inval_barrier`
    of every slot.

    Each endpoint (the writer, each reader) counts the slots it takes with an
    i32 counter threaded through its partition (`scf.for` iter_args, `scf.if`
    results); for count `n`, slot `s = n mod C` and phase `p = (n / C) & 1`.

    - `writer_acquire`: `ttng.wait_barrier empty[s], p ^ 1` (none when one-shot,
      where `s = n`); returns `s`.
    - `writer_commit`: closed flag 0 (if the pipe is ever closed), a partition
      barrier (`gpu.barrier`, when the partition has more than one warp),
      `ttng.fence_async_shared`, `ttng.arrive_barrier ready[s], 1`.
    - `writer_close`: acquires the next slot, sets its closed flag to 1 and
      commits it.
    - `reader_wait`: `ttng.wait_barrier ready[s], p`; `is_closed` is the slot's
      closed flag (constant false when the pipe is never closed).
    - `reader_release`: partition barrier, `ttng.arrive_barrier empty[s], 1`
      (nothing when one-shot).
    - `tle.pipe.slot`: `ttg.memdesc_index field[s]`.

    Asynchronous slot fills (`tle.gpu.copy(..., is_async=True)`): a `tt.load
    {tle.async_copy}` whose value a `tle.local_store` / `ttg.local_store`
    stores whole into a slot view from `writer_acquire` becomes
    `ttg.async_copy_global_to_local %ptrs, field[s]` at the store (after the
    acquire freed the slot); the load goes when nothing else uses it. When a
    pipe has such fills, each `writer_commit` first issues
    `ttng.async_copy_mbarrier_arrive ready[s] {noIncrement}` (every thread
    of the writer arrives once its cp.async copies have landed: the ready
    barriers of such a pipe expect the writer partition's threads plus the
    elected arrive, e.g. 129 for four warps; a `writer_close` issues the same
    arrivals before its own), and each `reader_wait`
    is followed by `ttng.fence_async_shared` (the generic-proxy cp.async
    writes, observed through the barrier, before async-proxy wgmma reads).
    A tagged load whose layout gives a thread fewer than 4 or more than 16
    contiguous bytes (cp.async copies 4, 8 or 16; Triton's coalescing chose
    the layout from the pointers' proven contiguity and alignment), or with
    a mask, `other`, cache modifier, eviction policy or volatile flag, stays
    a synchronous load and store (correct, staged in registers); the tag is
    dropped.

    TMA slot fills (`tle.gpu.copy(desc, ..., offsets=[rows, col],
    is_async=True)`): a `tle.local_store {tle.tma_fill}` into a slot view
    from `writer_acquire` whose value is TritonGPU's expansion of a
    `tt.descriptor_gather` (a `ttg.local_load`, through layout conversions
    used only there, of a `ttg.local_alloc` that one `ttng.async_tma_gather`
    fills on a barrier of its own: init / expect / wait / inval) becomes
    `ttng.async_tma_gather %desc[%rows, %col] field[s], ready[s], true` at
    the store; the scratch buffer, its barrier ops and the load go. The
    field takes the descriptor block's NVMMA layout (the pipe type and every
    slot view of it follow). The slot's commit (in the same block, after the
    fill) ends with `ttng.barrier_expect ready[s], B, true` instead of the
    elected arrive: an arrive that also expects the B bytes of the slot's TMA
    fills. Errors: a fill of a reader's slot; a value that is not that
    expansion; no commit of the slot in the fill's block; over 2^20 - 1
    bytes a commit; a field laid out otherwise (or a block argument); on
    `cuda:` targets below 100, a box row that is not a multiple of 128
    bytes (each row becomes a TMA copy of its own at the llir finish); a
    `tle.local_store {tle.tma_fill}` left over (into no pipe slot).

    Errors (at the op): an endpoint op outside any `tle.warp_specialize`, or
    in another one than the rest of the pipe; a partition that writes and
    reads one pipe; a writer (reader) used in two partitions; a commit whose
    slot does not come from this pipe's `writer_acquire`, a release whose slot
    does not come from this reader's `reader_wait` (release before acquire);
    an endpoint op inside a region other than `scf.for` / `scf.if`; a pipe used
    by other ops; an asynchronous copy into a slot a reader waited for; a
    `tt.load {tle.async_copy}` left over (its store is into no pipe slot).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
                           "mlir::scf::SCFDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect", "mlir::ttng::TTNGDialect",
                           "mlir::tle::TLEDialect"];
}

def TLELowerBarriers : Pass<"triton-tle-lower-barriers", "mlir::ModuleOp"> {
  let summary = "Lower explicit mbarriers, named barriers and TMA loads on a "
                "barrier (sm_80+; expect_tx and TMA: sm_90+)";
  let description = [{
    On TTGIR, after `triton-tle-lower-pipes` and before
    `triton-tle-lower-local-memory` and `triton-tle-lower-warp-specialize`
    (docs/barriers.md):

    - `tle.barrier_alloc` (N barriers, arrive count C): `ttg.local_alloc`
      of the `Nx1xi64` array, `ttng.init_barrier` C of each barrier, then
      `gpu.barrier`.
    - `tle.barrier_arrive %bars[%i] {count = K, expect_tx = B}`: a
      `gpu.barrier` when the thread group (the warp_specialize partition, or
      the kernel) has more than one warp, then, with `expect_tx`,
      `ttng.barrier_expect` B (one arrival that also expects B bytes) and
      `ttng.arrive_barrier` K - 1 when K > 1; without it
      `ttng.arrive_barrier` K. Each runs on one thread.
    - `tle.barrier_wait %bars[%i], %phase`: `ttng.wait_barrier` on
      `%phase & 1`, xor 1 when the barriers were allocated `ready`.
    - `tle.named_barrier_sync id, n` / `tle.named_barrier_arrive id, n`:
      `tt.elementwise_inline_asm` (not pure) running `bar.sync id, n;` /
      `bar.arrive id, n;`.
    - `tle.async_copy_load %value, %buf, %bars[%i]`: the `tt.load` that
      made `%value` (used only here, through layout conversions used only
      there) becomes `ttg.async_copy_global_to_local %ptrs, %buf`, then
      `ttng.async_copy_mbarrier_arrive %bars[%i]` (each thread: an arrival
      once its copies land, balanced by the pending count it adds), a
      `gpu.barrier` when the group has more than one warp and
      `ttng.arrive_barrier %bars[%i], 1`. A load `cp.async` cannot carry (a
      mask or `other`, a cache modifier, eviction policy or volatile flag,
      a layout giving a thread fewer than 4 or more than 16 contiguous
      bytes) becomes `ttg.local_store %value, %buf` before the arrival
      (synchronous, correct).
    - `tle.async_tma_store %value, %buf`: TritonGPU's expansion of the
      `tt.descriptor_store` of `%value` (a `tle.local_load` of `%buf`):
      `ttg.local_alloc %value` (through layout conversions),
      `ttng.fence_async_shared`, `ttng.async_tma_copy_local_to_global` of
      the scratch buffer, then `ttng.async_tma_store_wait {pendings = 0}`;
      the copy reads `%buf` instead (which takes the descriptor's NVMMA
      layout), the wait, the scratch buffer and the load go, the fence
      stays.
    - `tle.tma_store_wait P`: `ttng.async_tma_store_wait {pendings = P}`.
    - `tle.tma_load_cache_hint %v P` (first): the
      `ttng.async_tma_copy_global_to_local` of TritonGPU's expansion of the
      descriptor load giving `%v` is predicated on `pred && (%m != 0)`,
      `%m` the inline asm `"tle.tma_cache_hint.P;" -> i32`, which the llir
      finish turns into the copy's `.L2::cache_hint` operand (Triton 3.6
      refuses an eviction policy on the copy).
    - `tle.tensor_map_fence_acquire %p` / `tle.reinterpret_tensor_map %p`:
      `ttng.tensormap_fenceproxy_acquire` / `ttng.reinterpret_tensor_descriptor`
      of `%p` as an i8 pointer (a `tt.bitcast` of any other); sm_90.
    - `tle.async_tma_load %value, %buf, %bars[%i]`: TritonGPU's expansion of
      the `tt.descriptor_load` that made `%value` (a `ttg.local_load`,
      through layout conversions used only there, of a scratch
      `ttg.local_alloc` that one `ttng.async_tma_copy_global_to_local`
      fills on a barrier of its own: init / expect / wait / inval) becomes
      `ttng.barrier_expect %bars[%i], B` (B the block's bytes) and
      `ttng.async_tma_copy_global_to_local %desc[...] %buf, %bars[%i]` at
      the op; the scratch buffer, its barrier ops and the load go. The
      buffer (a `tle.alloc`) takes the descriptor block's NVMMA layout.

    Errors (at the op): barriers that do not come from a `tle.barrier_alloc`
    (a block argument, say); a named barrier id at most W + 2 in a module
    with a `tle.warp_specialize` of W worker partitions (Triton's own named
    barriers); `expect_tx`, a TMA load or store on a `cuda:` target below
    90, a cp.async copy below 80; a TMA load or store that is not that
    expansion, or whose buffer cannot take the descriptor's layout (a
    buffer with local pointers, or a layout set otherwise); a cp.async copy
    whose value is not a `tt.load`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
                           "mlir::tt::TTDialect", "mlir::ttg::TTGDialect",
                           "mlir::ttng::TTNGDialect", "mlir::tle::TLEDialect"];
}

def TLELowerWgmma : Pass<"triton-tle-lower-wgmma", "mlir::ModuleOp"> {
  let summary = "Lower explicit asynchronous wgmma, its waits, operand "
                "fences and views, and buffer aliases (wgmma: sm_90+)";
  let description = [{
    On TTGIR, after `triton-tle-lower-barriers` and before
    `triton-tle-lower-local-memory` and `triton-tle-lower-warp-specialize`
    (docs/barriers.md):

    - `tle.wgmma %a, %b, %acc`: `ttng.warp_group_dot %a, %b, %acc
      {isAsync = true}`. Operand buffers (`tle.alloc`, unswizzled) take a
      `#ttg.nvmma_shared` layout (the widest swizzle a row fills: 128, 64,
      32 bytes or none); buffers laid out already in an NVMMA layout (a TMA
      copy's) keep it. The accumulator takes `#ttg.nvidia_mma` version 3:
      one warpgroup per 64 rows, the kernel's other warpgroups splitting N,
      instruction N the largest multiple of 8 up to 256 dividing a
      warpgroup's columns.
    - `tle.wgmma_wait %v... {pendings = P}`: `ttng.warp_group_dot_wait`.
    - `tle.wgmma_shared_operand_fence`: `ttng.fence_async_shared`.
    - `tle.memdesc_wgmma_view %buf {order}`: the buffer (laid out for
      wgmma as above) itself for `[0, 1]`, its `ttg.memdesc_trans` for
      `[1, 0]` (the NVMMA layout with `transposed` flipped).
    - `tle.alloc_alias %buf`: `ttg.memdesc_reinterpret %buf` to the view's
      type.

    The accumulator web -- the results of `tle.wgmma` and `tle.wgmma_wait`
    and the `scf.for` iter_args / results and `scf.if` results they are
    yielded to -- is retyped to the accumulator layout as a whole, so an
    accumulator in flight is never converted; a `ttg.convert_layout` into
    the layout where a value enters the web (the initial accumulator, a
    loop's init, the other branch of an `scf.if`), and one back to the
    original layout before each use outside it (which must come after a
    wait with pendings 0).

    Errors (at the op): a target below sm_90; a wgmma in a warp_specialize
    partition whose warp count is not the kernel's `num_warps`, or a
    `num_warps` that is not a multiple of 4; an accumulator that cannot be
    split over the warpgroups; an operand that is not a `tle.alloc` buffer
    without local pointers (or NVMMA laid out already); one value carrying
    accumulators of two layouts; a `tle.memdesc_wgmma_view` used other than
    as a wgmma operand; an alias of a buffer accessed through local
    pointers (or an alias accessed through them).
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::ttg::TTGDialect",
                           "mlir::ttng::TTNGDialect", "mlir::tle::TLEDialect"];
}

def TLELowerLayouts : Pass<"triton-tle-lower-layouts", "mlir::ModuleOp"> {
  let summary = "Lower tle.set_layout: the user's distributed layout, "
                "carried through the elementwise code that uses it";
  let description = [{
    On TTGIR, after `triton-tle-lower-wgmma` and before
    `triton-tle-lower-warp-specialize` (docs/barriers.md, "Layouts"):
    `tle.set_layout %x {layout = L}` becomes `ttg.convert_layout %x` to
    `L` (nothing when `%x` is in `L` already). The layout is then carried
    forward: an elementwise op (arith, math, Triton's elementwise ops)
    whose tensor operands are all in `L` or are splat constants / `tt.splat`s
    (rebuilt in `L`) computes in `L`, and a `ttg.convert_layout` back to
    the layout Triton chose is left only before each use that is not such
    an op (a reduction, a store, a dot, a loop's yield...). Conversions
    made dead by this are erased.

    Errors (at the op): a layout whose warps are not the thread group's
    (the kernel's `num_warps`, or the `warp_specialize` partition's), or
    whose threads per warp are not the module's.
  }];
  let dependentDialects = ["mlir::ttg::TTGDialect", "mlir::tt::TTDialect"];
}

def TLELowerWarpSpecialize
    : Pass<"triton-tle-lower-warp-specialize", "mlir::ModuleOp"> {
  let summary = "Lower tle.warp_specialize to Triton's ttg.warp_specialize "
                "(sm_80+; worker register counts, setmaxnreg: sm_90+)";
  let description = [{
    On TTGIR, after every other TLE lowering. The default region moves as is
    (it may use values from above); its `tle.warp_yield` becomes
    `ttg.warp_yield` and the op's results keep their types, the module's
    encodings (code after the op, such as an epilogue, uses them). Each worker partition becomes an isolated
    `ttg.warp_specialize` partition: values from above that it uses are
    captured when they are scalars (integers, floats, pointers), tensor
    descriptors (`!tt.tensordesc`) or shared-memory descriptors
    (`!ttg.memdesc`), and recomputed inside the
    partition when they are tensors computed by side-effect-free ops (chains
    of `arith.constant`, `tt.make_range`, `tt.splat`, arithmetic...) from such
    values. A tensor from above computed by an op with memory effects is an
    error at its use (send it through a `tle.pipe`). `partition_num_warps`
    becomes `partitionNumWarps`, `partition_num_regs` `requestedRegisters`.

    A worker partition runs on its own warp count: when it differs from the
    module's `ttg.num-warps`, every `#ttg.blocked` encoding in the partition
    (also under `#ttg.slice` and as a `#ttg.dot_op` / `#ttg.nvidia_mma`
    parent) gets `warpsPerCTA` for the partition's warps; other distributed
    encodings are an error.
  }];
  let dependentDialects = ["mlir::ttg::TTGDialect", "mlir::tle::TLEDialect"];
}

def TLELowerDSLRegion
    : Pass<"triton-tle-lower-dsl-region", "mlir::ModuleOp"> {
  let summary = "Lower tle.dsl_region (TLE-Raw): operands staged in shared "
                "memory, the body an inlined LLVM function every thread calls";
  let description = [{
    docs/raw.md. On TTGIR, for each `tle.dsl_region`:

    1. The body becomes a `func.func` whose tensor arguments are
       `memref<shape x T, 3>` (address space 3; a strided layout from the
       operand's `orders` entry, identity when row-major) and which returns
       `i32 0`: `tensor.extract` -> `memref.load`, `tensor.insert` ->
       `memref.store` into the buffer its chain is rooted at (the insert's
       result is that buffer), `tensor.dim` -> `memref.dim`. Thread-id reads
       are the call's: `tid.{x,y,z}` delinearize `%tid.x` over `threads`
       (x fastest), `ntid` is `threads` (1 past its rank), `ctaid` 0 and
       `nctaid` 1. MLIR's own conversions (`convert-scf-to-cf`,
       `convert-arith-to-llvm`, `convert-index-to-llvm`,
       `convert-math-to-llvm`, `finalize-memref-to-llvm`,
       `convert-cf-to-llvm`, `convert-func-to-llvm` with bare-pointer
       memrefs, `reconcile-unrealized-casts`, then `canonicalize` and `cse`) turn it into an `llvm.func`
       `@__tle_raw_<name>` (internal, `always_inline`) at the end of the
       module. A body that does not convert is an error at the op.
    2. In the kernel, before the op: per tensor operand a pointer buffer
       (`tle.alloc smem`, unswizzled `#ttg.swizzled_shared` with the
       operand's order), `tle.local_store` of the operand and
       `tle.local_pointers %buf[0, ...]` for its base; `gpu.barrier`; one
       `tt.extern_elementwise` (not pure) of the function on the bases and
       the scalar operands, which every thread executes once; `gpu.barrier`;
       then `tle.local_load` of each buffer the body writes (results of
       unwritten operands are the operands). Triton's `make_llir` keeps the
       `llvm.func` and calls it; LLVM's inliner (Triton's O3) inlines it.

    Errors at the op: a tensor operand without encoding (not TTGIR), a
    module without `ttg.num-warps`, or `threads` whose product is not the
    program's thread count (`ttg.num-warps` x `ttg.threads-per-warp`).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::cf::ControlFlowDialect",
                           "mlir::func::FuncDialect", "mlir::gpu::GPUDialect",
                           "mlir::index::IndexDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::math::MathDialect", "mlir::memref::MemRefDialect",
                           "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
                           "mlir::tle::TLEDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect"];
}

def TLELowerDistributed
    : Pass<"triton-tle-lower-distributed", "mlir::ModuleOp"> {
  let summary = "Lower sharded tensors and reshards: collectives over "
                "distributed shared memory (clusters) or symmetric memory "
                "(devices) (clusters: sm_90+; devices: any target with "
                "system-scope atomics)";
  let description = [{
    On TTGIR, right after `triton-tle-raise-markers` (docs/distributed.md).

    - `tle.make_sharded_tensor` is erased (its operand is the local block).
    - `tle.reshard`: per mesh axis, the reshard *changes* the axis when its
      role (splits dimension d / partial / unused) differs between `source`
      and `target`. No changed axis and no `root`: the operand (through a
      `ttg.convert_layout` if the encodings differ). Changed axes must all
      be `block_cluster` axes or all `device` axes; any other level, or a
      mesh without `levels`, is an error at the op.
    - Cluster: a mutable row-major `tle.alloc` of the source block at the
      function entry, `tle.local_store` of the operand into it,
      `tle.distributed_barrier cluster`, then for every element of the
      target block (indices in the result's encoding) its global index,
      the source shard that holds it and its index in that shard's block;
      `tle.local_pointers` at that index, `tle.remote_pointers cluster`
      with a tensor of CTA ranks (axes the source splits: the holder's
      coordinate; axes whose partial sums are resolved: each coordinate in
      turn; other axes: the caller's), `tt.load`, and an `arith.addf` /
      `arith.addi` chain over the resolved partial axes in coordinate order.
      When no element comes from another CTA (broadcast -> split, a
      scatter) there is no barrier and no remote pointer. With `root = r`
      the loads are masked by `cluster rank == r` (others get zeros). The
      pass also emits a `tle.shard_id` per cluster axis of the mesh, so the
      module is a cluster module. Cluster barriers after the reads
      (before the buffer is written again, before the kernel exits) come
      from `triton-tle-insert-local-pointer-barriers`.
    - Device: needs the op's device operands (else an error); the program
      `pid = x + nx * (y + ny * z)` stores its block at
      `workspace + pid * block elements` (row-major), then a flag barrier
      (phase 0), the pull as above through
      `tle.remote_pointers device` with peer `q`'s byte offset
      (`peer_offsets[q]`), one masked load per device (made visible by the
      thread's own acquire of the flags), and a second
      flag barrier (phase 1). A flag barrier: `gpu.barrier`; thread 0
      writes `epoch` to flag `(pid * 2 + phase) * D + rank` of every device
      (`fence.acq_rel.sys` + `st.relaxed.sys.global.b32`); every thread
      spins (`scf.while`) until each of its own `D` flags of the phase is
      >= `epoch` (`ld.acquire.sys.global.b32`).
  }];
  let options = [
    Option<"waitLimit", "wait-limit", "int64_t", /*default=*/"0",
           "Debug mode: a device flag wait gives up after this many polls "
           "and fails a tt.assert naming the flag (0: wait for ever). Set "
           "from TLE_DEVICE_WAIT_LIMIT by the Python bridge.">
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
                           "mlir::scf::SCFDialect", "mlir::tt::TTDialect",
                           "mlir::ttg::TTGDialect"];
}

#endif // TLE_CONVERSION_PASSES_TD
