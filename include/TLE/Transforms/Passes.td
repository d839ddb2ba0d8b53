//===- Passes.td - TLE passes ---------------------------------------------===//
//
// Pass names mirror FlagTree's TLE (`triton-tle-*`) where FlagTree has the pass.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TRANSFORMS_PASSES_TD
#define TLE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLEAssertLowered : Pass<"tle-assert-lowered", "mlir::ModuleOp"> {
  let summary = "Fail if any tle op is left, before IR goes back to Triton";
  let description = [{
    Triton cannot read `tle.*` ops, so the backend hook runs this pass last in
    every TLE stage: each remaining `tle` op is reported as an error at its
    location, naming the op, and the pass fails.
  }];
}

def TLEOptimizeExclusiveCumsumLayouts
    : Pass<"triton-tle-optimize-exclusive-cumsum-layouts", "mlir::ModuleOp"> {
  let summary = "Give each tle.exclusive_cumsum a layout tt.scan can lower, "
                "with as few layout conversions around it as possible";
  let description = [{
    Runs in TTGIR, after Triton's own layout passes (which will not run again)
    and before `tle.exclusive_cumsum` is lowered to `tt.scan` in its input's
    encoding. Ops on tensors without an encoding (TTIR) are left alone.

    **Which encodings the scan accepts.** Triton 3.6's `tt.scan` lowering
    (sm_90) accepts only `#ttg.blocked` inputs; `#ttg.slice`,
    `#ttg.nvidia_mma` (v2 and v3) and `#ttg.linear` inputs fail with
    "unsupported scan layout". A blocked layout whose `CGALayout` splits the
    tensor across the CTAs of a cluster aborts Triton's scan lowering (stock
    `tl.cumsum` with `num_ctas=2` too); only a CTA-broadcast `CGALayout`
    (all bases zero) lowers. So *supported* here means: blocked, and no
    non-zero `CGALayout` basis. `python/test/test_cumsum_layouts_triton.py`
    keeps these facts checked against the pinned Triton.

    **Candidates.** For each op: its current input encoding; the source
    encoding of a `ttg.convert_layout` that produces the input; the target
    encodings of `ttg.convert_layout` users of the exclusive result; and the
    parent `P` of each `#ttg.slice<{dim = axis, parent = P}>` that the total
    is converted to. Unsupported candidates are dropped. When the current
    encoding is unsupported, one more candidate is built: a blocked layout
    for the shape, the module's `ttg.num-warps` and `ttg.threads-per-warp`
    and the input's CTA layout, with the scan axis fastest
    (`order[0] = axis`), lanes on the axis first, warps on the other
    dimensions first (so the axis stays inside a warp when it can), and the
    rest of the axis contiguous in each thread (`sizePerThread[axis]`).

    **Cost** of a candidate `E` = the number of `ttg.convert_layout` ops
    that would serve the op once it is rebuilt on `E` and adjacent
    conversions are folded:
      * input: 0 if `E` is the current encoding and the input is not the
        result of a convert used only by this op, or if `E` is that
        convert's source encoding (the convert is bypassed); else 1;
      * per result: 1 if it has users other than converts and its type
        changes, plus 1 for every convert user whose target type differs
        from the result's new type (a convert to exactly the new type
        disappears).
    The cheapest candidate wins; ties keep the current encoding, then take
    the candidates in the order listed above, the built layout last.

    **Rewrite** (only when the winner is not the current encoding): convert
    the input to `E` (folding a convert that produced it, or using its source
    directly), create the op on `E` (total: `#ttg.slice<{dim = axis, parent
    = E}>`), convert each used result back to its old type, then fold:
    `convert(convert(x))` -> `convert(x)`, a convert to its own operand's
    type -> that operand, dead converts erased. Only converts the pass
    created or that are adjacent to the op are touched; the pass runs no
    canonicalizer.

    Errors, at the op: a layout has to be built but the module has no
    `ttg.num-warps` / `ttg.threads-per-warp`, or the input's CTA layout
    splits the tensor across CTAs (Triton 3.6 cannot lower such a scan).

    Observing it: `-mlir-pass-statistics` counts the scans looked at, those
    moved and the layouts built; `-debug-only=triton-tle-optimize-exclusive-cumsum-layouts`
    prints each scan's candidates with their costs and the winner.
  }];
  let statistics = [
    Statistic<"numScans", "scans", "tle.exclusive_cumsum ops on TTGIR looked at">,
    Statistic<"numRelaidOut", "relaid-out",
              "Scans moved to another encoding">,
    Statistic<"numLayoutsBuilt", "layouts-built",
              "Blocked scan layouts built (the input's was not one)">
  ];
}

def TLERaiseMarkers : Pass<"triton-tle-raise-markers", "mlir::ModuleOp"> {
  let summary = "Raise the frontend's tt.elementwise_inline_asm markers to tle ops";
  let description = [{
    Reads the marker convention of `docs/markers.md`: every
    `tt.elementwise_inline_asm` whose asm string starts with `tle.` names a
    `tle` op and spells its attributes. The pass builds that op from the
    marker's operands (taking the source of each `tt.splat` listed in
    `tle.marker.scalar_operands`), with result types from the op's
    `InferTypeOpInterface` when it has one, verifies it at once (errors point
    at the marker's location, the user's call), and replaces the marker's
    results; a result listed in `tle.marker.narrowed` replaces its pick
    `tt.reduce` (through single-use `ttg.convert_layout`s). Where a result
    type differs from the replaced value's only in its encoding, a
    `ttg.convert_layout` bridges them. A marker with
    `tle.marker.descriptor = true` yields a tensor descriptor's base: its op
    replaces the descriptor (a `tt.make_tensor_descriptor` of the result, or
    in TTGIR Triton's expansion of one), which is erased. Other inline asm
    is left alone.
  }];
  let options = [
    Option<"verifyOnly", "verify-only", "bool", /*default=*/"false",
           "Build and verify every marker's op, report errors, change nothing">,
    ListOption<"ops", "ops", "std::string",
               "Raise only the markers naming these ops (e.g. tle.async_load); "
               "every marker when empty">
  ];
  // func onward: what a `tle.marker.region` body (TLE-Raw, docs/raw.md) may hold.
  let dependentDialects = ["::mlir::tle::TLEDialect", "::mlir::ttg::TTGDialect",
                           "::mlir::func::FuncDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::NVVM::NVVMDialect", "::mlir::math::MathDialect",
                           "::mlir::index::IndexDialect", "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TLERaiseWarpSpecialize
    : Pass<"triton-tle-raise-warp-specialize", "mlir::ModuleOp"> {
  let summary = "Raise the frontend's warp_specialize region markers to tle.warp_specialize";
  let description = [{
    `tle.gpu.warp_specialize` crosses Triton's frontend as one `scf.if` per
    partition whose condition is a region marker (docs/markers.md, "Regions"):
    `tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.group = G,
    tle.marker.partition = R, ...}" -> i1`. Region 0 is the default partition and
    its marker carries `partition_num_warps` (and `partition_num_regs`). The
    pass turns the `scf.if`s of one group into one `tle.warp_specialize` at the
    default partition's `scf.if`: the then-blocks become the default region and
    the partition regions, in order. Partitions keep using the values from
    above they use (`tle.warp_specialize` does not isolate them; captures are
    made when it is lowered to `ttg.warp_specialize`). When the default
    partition returns values, its `scf.if` yields them (the else branch yields
    placeholders, `ub.poison`): the then-yield becomes `tle.warp_yield`, the
    `scf.if`'s results become the op's, and the else branch is dropped.

    Errors (at the marker): a marker that is not the condition of exactly one
    `scf.if`, a result-less `scf.if` with an else branch, a worker's `scf.if`
    with results, a default partition's else branch with side effects,
    regions of one group in different blocks, missing or repeated region
    numbers, and `partition_num_warps` whose length is not the number of
    worker regions.
  }];
  let dependentDialects = ["::mlir::tle::TLEDialect", "::mlir::scf::SCFDialect"];
}

def TLEForwardPipeMmaOperands
    : Pass<"triton-tle-forward-pipe-mma-operands", "mlir::ModuleOp"> {
  let summary = "Let wgmma read pipe slots in place (sm_90: wgmma; nothing to do below)";
  let description = [{
    On TTGIR after Triton's dot lowering, before `triton-tle-lower-pipes`
    (docs/warp-specialize.md, "wgmma operands"). A reader that loads a pipe
    slot into registers only to feed a dot gets, from Triton,
    `ttg.local_alloc (tle.local_load %slot)`: a second shared-memory copy in
    the `#ttg.nvmma_shared` encoding `E` that `ttng.warp_group_dot` reads.
    For a field whose slot views are only `tle.local_store`d (the writer) and
    `tle.local_load`ed (the readers), which still has the default unswizzled
    encoding, and where every such `ttg.local_alloc` of a slot wants the same
    `E` with the slot's shape:

    * the field is allocated in `E` (the pipe type and every slot view
      follow), so the writer stores straight into the wgmma layout;
    * each such `ttg.local_alloc` is replaced by the slot view itself (users
      through `ttg.memdesc_trans` and `ttng.warp_group_dot_wait` become
      mutable views of it), and a load left without users is erased;
    * the slot's `tle.pipe.reader_release` moves after the last op of its
      block that reads the slot: a `ttng.warp_group_dot` is done reading at
      the `ttng.warp_group_dot_wait {pendings = 0}` of its result, which
      must be in that block.

    The writer's generic-proxy stores are ordered before the wgmma's
    async-proxy reads by the `ttng.fence_async_shared` that
    `triton-tle-lower-pipes` puts before every commit's arrive.

    **TMA copies of a whole slot.** Triton expands a synchronous
    `tle.gpu.copy(desc, slot.f, ...)` into a staging buffer of its own
    (`ttng.async_tma_copy_global_to_local` on a barrier that only it uses,
    waited for, `ttg.local_load`ed and `tle.local_store`d into the slot) and
    `tle.gpu.copy(slot.f, desc, ...)` into `ttg.local_alloc (tle.local_load
    %slot)` read by `ttng.async_tma_copy_local_to_global` and a
    `ttng.async_tma_store_wait {pendings = 0}` right after it. When every
    such copy of a field uses one NVMMA encoding `T` (the descriptors'),
    the slot view is defined before the load copy in its block, and no op
    between the TMA copy and the store into the slot (the load of the slot
    and the TMA store) uses the slot or its pipe, the field takes `T`: the
    TMA copies write and read the slot in place (staging buffers, loads and
    stores erased; the wait keeps the copy synchronous). A wgmma copy in
    another NVMMA encoding then becomes the slot view too when its users,
    through `ttng.warp_group_dot_wait`, are only wgmma operands and its
    elements are 16-bit (both major orders are wgmma operands; the waits'
    results are retyped); if one is not (a `ttg.memdesc_trans`, say), the
    field follows the rules above alone and the TMA copies keep their
    staging buffers. FlagTree's sparse-MLA pipe kernel: its Q fields are
    filled by TMA, read by wgmma and stored out by TMA (306304 B of shared
    memory before, 248960 B after).

    **Buffers a pipe guards.** A plain `tle.alloc` shared-memory buffer of
    16-bit elements with the default layout, not a field of any pipe, whose
    only users are `tle.local_store`s that each sit between a
    `tle.pipe.writer_acquire` and a `tle.pipe.writer_commit` of one pipe of
    capacity 1 (not one-shot) and `tle.local_load`s that each sit between a
    `tle.pipe.reader_wait` and a `tle.pipe.reader_release` of the same
    reader of that pipe (no other endpoint op of the pipe between them, in
    the access's block), holds one value from a commit until every reader
    has released it: a reader's `ttg.local_alloc` copy of such a load into
    a wgmma operand is forwarded as for a field (the buffer takes the
    copy's encoding, the copy becomes the buffer, the release moves after
    the wgmma's pendings-0 wait). FlagTree's sparse MLA hands its P tile
    from one warpgroup to the other this way (248960 -> 243328 B).

    **Blocks of a slot.** A slot read through `ttg.memdesc_subslice` views
    (the blocks `triton-tle-optimize-local-pointer-loads` makes of
    rectangular local pointers) is forwarded block by block: each copy of a
    block's load is replaced by the block. Every such copy must be 16-bit
    and feed only wgmma operands (directly, through `ttg.memdesc_trans` or
    `ttng.warp_group_dot_wait`), since the field takes the copies' NVMMA
    encoding in row-major order whatever major order Triton chose for the
    copy (transposed views of a block take the other order and the
    permuted allocation shape); every block must start on a row that is a
    multiple of 8 and span whole swizzle atoms in columns, so that it has
    the layout a buffer of its shape would have. TMA copies of such a field
    keep their staging buffers. A buffer that is a field of several pipes
    (FlagTree's FlashMLA prefill kernel guards the column halves of one KV
    buffer with two pipes) is planned once with the slots of all of them,
    and every pipe's type follows.

    A slot taken by a positioned wait (`at [%stage, %phase]`) is released
    by its stage (by the same reader: another reader's release of that
    stage is not its release). A reader of a one-shot pipe that never releases its slot
    (FlagTree's Q hand-off) has no release to move. A copy whose uses are
    not wgmma reads (a TMA store's staging buffer) stays with its load. A
    reader's `tle.local_store` into the field must come, in its block,
    after the last forwarded read; in another partition, the reading
    reader may send no signal (pipe commit / release, barrier arrive, any
    op with write effects) between the forwarded load and its last read.

    A field is left as it is (the copy stays) when any rule does not hold:
    a slot view used by another op (pointers, copies), a field with a
    chosen layout, wgmma copies wanting different encodings, a dot whose
    pendings-0 wait is not in the release's block, a read of the slot
    outside that block, another endpoint op of the pipe between the release
    and the last read, or no such copy at all. Nothing is reported: the
    program is correct either way.
  }];
  let dependentDialects = ["::mlir::ttng::TTNGDialect"];
}

def TLEOptimizeLocalPointerLoads
    : Pass<"triton-tle-optimize-local-pointer-loads", "mlir::ModuleOp"> {
  let summary = "Turn plain loads of a whole buffer through local pointers "
                "into tle.local_load";
  let description = [{
    A `tt.load` whose pointer is a full-view `tle.local_pointers %buf` (no
    indices) and that has no mask, no `other`, no boundary check or padding,
    the default cache modifier and eviction policy and is not volatile reads
    every element of `%buf` once, in the load's register layout: it becomes
    `tle.local_load %buf` with the load's result type (encoding included).
    Every other load (masked, with `other`, volatile, cached/evicting,
    through indexed or derived pointers) is left alone. A `tle.local_pointers`
    left without users is erased, so a buffer whose only pointer uses were
    such loads becomes a memdesc buffer (docs/local-memory.md).

    **Rectangles.** Indexed pointers of the buffer's rank whose index `d` is
    `o_d + position along dimension d` (constants, `tt.make_range`, splats
    of constants, `arith.addi` / `subi`, `muli` by a constant, `expand_dims`,
    `broadcast` and layout conversions of them: FlagTree's
    `local_ptr(buf, (rows, cols))` over a row range and a column range),
    with `0 <= o_d` and `o_d + size_d` within the buffer, address the block
    `ttg.memdesc_subslice %buf[o...]` whole. When every `tle.local_pointers`
    of the buffer's memory (its alloc, buffer slots and pipe slots) is a
    full view or such a rectangle and is only loaded plainly or stored as
    `triton-tle-optimize-local-pointer-stores` turns into whole stores, a
    plain load through a rectangle becomes `tle.local_load` of the block;
    else it stays (the buffer keeps its pointers).
  }];
}

def TLEOptimizeLocalPointerStores
    : Pass<"triton-tle-optimize-local-pointer-stores", "mlir::ModuleOp"> {
  let summary = "Turn plain stores of a whole buffer through local pointers "
                "into tle.local_store";
  let description = [{
    A `tt.store %p, %v` whose pointer is a full-view `tle.local_pointers %buf`
    (no indices) into a mutable buffer, with no mask, no boundary check and
    the default cache modifier and eviction policy writes every element of
    `%buf`: it becomes `tle.local_store %v, %buf`. A `tle.local_pointers`
    left without users is erased.

    A masked store `tt.store %p, %v, %m` becomes `tle.local_store
    (arith.select %m, %v, (tle.local_load %buf)), %buf` (the elements the
    mask leaves out are written back unchanged) when (a) every
    `tle.local_pointers` of the buffer's memory — the `tle.alloc`, its
    `tle.buffer_slot`s and, for a pipe field, every `tle.pipe.slot` of that
    field — is a full view whose users are such stores, so the buffer stops
    being a pointer buffer (wgmma, TMA and Triton's own shared-memory
    accesses can use it; FlagTree's pipe kernels store their tiles with
    masks), and (b) nothing else may write the elements meanwhile: the
    store is outside `tle.warp_specialize`, or into a pipe slot the writer
    acquired, or into one a reader waited for when the other readers only
    read that field. Cached/evicting stores, indexed pointers and masked
    stores failing (a) or (b) are left alone.

    Rectangles (see `triton-tle-optimize-local-pointer-loads`) count as full
    views of their block: when every `tle.local_pointers` of the buffer's
    memory is a full view or a rectangle used only by such stores, a store
    through a rectangle becomes `tle.local_store` into its
    `ttg.memdesc_subslice` (masked: the read-modify-write of the block), so
    the buffer leaves the pointer region (FlagTree's FlashMLA prefill kernel
    stores its KV rows in 64-column blocks of a 64 x 512 buffer).

    A masked store's value that Triton converted to the pointers' encoding
    (`ttg.convert_layout %v`, Triton's layout passes having given the
    pointers another encoding than the value's) is read, selected and
    stored in `%v`'s encoding when the mask can be recomputed there
    (constants, ranges, splats through elementwise arith, expand_dims and
    broadcast; a 1-D leaf it cannot recompute, such as loaded indices, of at
    most 1024 elements is converted instead): the convert of the whole tile,
    a trip through shared-memory scratch as large as the tile, goes. Off
    with `in-value-encoding=false`.
  }];
  let options = [
    Option<"inValueEncoding", "in-value-encoding", "bool", /*default=*/"true",
           "Build a masked store's read-modify-write in the encoding its "
           "value is computed in">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ttg::TTGDialect"];
}

def TLEZeroPartialBuffers
    : Pass<"triton-tle-zero-partial-buffers", "mlir::ModuleOp"> {
  let summary = "Zero the shared-memory buffers read where partial writes "
                "may not have written";
  let description = [{
    A `tle.alloc` in shared memory (in a function's body, without `init`)
    whose memory -- the buffer and its views: `tle.buffer_slot`,
    `ttg.memdesc_index`, sub-slices, reshapes and transposes, pipe slots
    after `triton-tle-lower-pipes` -- is

    - written partially: a masked `tt.store` through full-view
      `tle.local_pointers`, any `tt.store` through indexed ones, a
      read-modify-write `tle.local_store (arith.select %m, %v,
      (tle.local_load %same)), %same` (what
      `triton-tle-optimize-local-pointer-stores` makes of masked stores), or
      pointers used otherwise (atomics, pointer arithmetic); and
    - read whole: an unmasked `tt.load` through full-view local pointers, a
      `tle.local_load` (other than a read-modify-write's own), or any other
      use of the memdesc (a copy out, a wgmma operand, a TMA store)

    starts zeroed: `tle.local_store` of zeros right after the `tle.alloc`
    (slot by slot through a view like its users' when it is a ring of
    slots), then, on sm_90+ targets when a use other than local loads,
    stores, pointers and copies takes it (a wgmma operand, a TMA copy: the
    async proxy), `ttng.fence_async_shared`. Such a program
    reads, in the elements no write reached, what the memory held before;
    TLE defines that as zero (it is otherwise whatever an earlier kernel
    left, NaN included). FlagTree's sparse-MLA pipe kernel stores KV tiles
    with row masks into pipe slots and multiplies whole slots, so its first
    round of slots would otherwise feed stale bits into its dots.

    Left alone: buffers only written whole (unmasked stores, TMA fills) or
    read only through indexed or masked pointers, buffers whose first access
    after the allocation (in its block, before any region op using them) is
    a whole write (a histogram the kernel zeroes itself), allocations inside loops
    or other regions (zeroing each time would not be first contents only)
    and buffers that remote (cluster) pointers reach (a peer may write them
    before this CTA runs the fill).
  }];
  let statistics = [
    Statistic<"numZeroed", "zeroed", "Buffers zeroed after their allocation">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ttg::TTGDialect", "::mlir::ttng::TTNGDialect"];
}

def TLESelectEncodings
    : Pass<"triton-tle-select-encodings", "mlir::ModuleOp"> {
  let summary = "Choose register encodings of local pointers and shared "
                "encodings of memdesc buffers";
  let description = [{
    Runs in TTGIR after Triton's layout passes (which will not run again), so
    it only ever removes `ttg.convert_layout` ops or keeps their number.

    **(a) Full views.** For each `tt.load` (no mask, no `other`) through a
    full-view `tle.local_pointers %buf` (no indices) whose users are all
    `ttg.convert_layout` ops to one encoding `E` different from the load's:
    a full-view `tle.local_pointers` in `E` is built just before the load,
    the load is rebuilt in `E` (attributes kept) and the converts are
    replaced by it. For each unmasked `tt.store` through a full-view
    `tle.local_pointers` whose value is a `ttg.convert_layout` of `%v`: the
    pointers are rebuilt in `%v`'s encoding before the store and `%v` is
    stored. The same two rewrites apply to `tle.local_load` (result only
    converted to `E`: load in `E`) and `tle.local_store` (value is a convert:
    store its source). Pointers are rebuilt per access (a full view is pure
    address arithmetic), so one access's choice never forces another's; a
    `tle.local_pointers` or convert left without users is erased.

    **(b) Indexed pointers.** For a `tt.load` (no mask, no `other`) through
    a tensor-indexed `tle.local_pointers %buf[%i, ...]` whose users are all
    converts to one encoding `E`: the indices are brought to `E` instead,
    the pointers and the load rebuilt in `E`, and the converts replaced by
    the load. An index costs nothing when it is the result of a convert
    from `E` (its source is used), a `tt.splat` (re-splatted in `E`) or a
    splat `arith.constant` (rebuilt in `E`); every other index costs one new
    convert, unless (d) can recompute it in `E` (then it costs nothing and
    is recomputed). The rewrite happens only when the new converts are no
    more than the converts it removes (a later layout pass is not guaranteed
    to run).

    **(d) Indexed accesses follow their values.** Triton's Coalesce runs
    before TLE lowers the markers and sees local pointers as opaque
    (contiguity 1), so a 2-D (or higher) indexed access gets a layout of its
    own, often column-major, and the value crosses a `ttg.convert_layout`
    (Triton's shared memory and barriers) on its way. For an unmasked or
    masked `tt.store` through a tensor-indexed `tle.local_pointers` whose
    value is a `ttg.convert_layout` of `%v` in a `#ttg.blocked` or
    `#ttg.linear` encoding `S`: when every index, and the mask, can be
    *recomputed* in `S`, the pointers are rebuilt in `S` from the recomputed
    indices, `%v` is stored (the store takes the layout the value is
    computed in: row-major and vectorizable where Triton laid out the global
    side so) and the mask is recomputed before the store. An index
    can be recomputed when it is built, within 64 ops, from
    `arith.constant`s, `tt.splat`s and `tt.make_range`s through elementwise,
    side-effect-free `arith` ops, `tt.broadcast` and `tt.expand_dims` (an
    operand of `tt.expand_dims {axis = a}` is recomputed in
    `#ttg.slice<{dim = a, parent = S}>`, so only for a blocked `S`);
    `ttg.convert_layout`s on the way are looked through. The chain is cloned
    in `S` next to the pointers; the old pointers, convert and index chains
    are erased when dead. Accesses whose indices cannot be recomputed
    (function arguments, loaded values, ...), stores of values that are not
    a convert, and values in other encodings (mma, ...) are left alone.
    Accesses already in the layout of all their neighbours (no convert
    around them) keep it, even when it is column-major: changing it there
    would move converts elsewhere.

    **(e) Vector layouts of indexed loads.** An indexed `tt.load` (no
    `other`; a mask is recomputed) through a tensor `tle.local_pointers`,
    or a `tle.remote_pointers cluster` of one with a scalar shard id,
    whose users are only `ttg.local_alloc`s (a wgmma operand's copy, which
    takes a value in any layout) and `ttg.convert_layout`s, in a
    `#ttg.blocked` layout: the offsets of its elements are evaluated
    exactly up to one sum of scalars (lib/Transforms/IndexSets.h); when
    they run contiguously along a dimension for `r` elements (a power of
    two, at most 16 bytes) and the layout gives a thread fewer than `r`
    there, the load takes the blocked layout with `r` elements per thread
    along that dimension (the fastest; the others in the old order, lanes
    and warps along that order, the old counts and CTA layout). Indices and
    mask are recomputed in it as in (d) (left alone when they cannot be);
    the copies take the new value, converts start from it. FlagTree's
    cluster GEMM reads A from rank 0 transposed: one f16 per thread
    (`ld.shared::cluster.b16`) becomes eight (`ld.shared::cluster.v4.b32`).

    **(c) Shared encodings of memdesc buffers.** For each `tle.alloc` in
    `#ttg.shared_memory` of rank >= 2 that is not a pointer buffer
    (`AllocOp::isPointerBuffer()`) and still has the default unswizzled
    `#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order}>`,
    and whose users are only `tle.local_load`, `tle.local_store` and
    `tle.copy`: the register layouts of those accesses (load result, stored
    value, copy pointer tensor) are collected. If each is a `#ttg.blocked`
    whose `order` equals the buffer's `order` (threads walk rows, so a
    warp's accesses fall in consecutive banks), the encoding is kept.
    Otherwise it becomes the bank-conflict-avoiding swizzle, with
    `B = element bytes` (at least 1) and `R = shape[order[0]]` (row elements):
      * `vec = min(16 / B, R)`: one 16-byte chunk (4 banks) moves as a unit;
      * `perPhase = max(1, 128 / (R * B))`: rows that share one 128-byte line
        of the 32 four-byte banks share a phase;
      * `maxPhase = max(1, min(8 / perPhase, R / vec))`: a 128-byte line has
        8 chunks, and a row cannot permute more chunks than it has.
    (all rounded down to powers of two). Row `r`'s chunk `c` then lands in
    chunk `c xor ((r / perPhase) mod maxPhase)`, so up to 8 consecutive
    rows read down one column hit 8 different bank groups. The alloc
    result's type is updated in place; all users see it. Pointer buffers
    keep their unswizzled encoding (the lowering only supports that); one
    with any other encoding is an error. Buffers with other users, other
    encodings or in tensor memory are left alone.

    Observing it: `-mlir-pass-statistics` counts the accesses moved and the
    buffers swizzled; `-debug-only=triton-tle-select-encodings` says for each
    access and buffer what was chosen and why (or why it stays).
  }];
  let dependentDialects = ["::mlir::ttg::TTGDialect", "::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numAccessesMoved", "accesses-moved",
              "Shared-memory accesses moved to the layout their users want">,
    Statistic<"numBuffersSwizzled", "buffers-swizzled",
              "Shared buffers given a swizzled encoding">
  ];
}

def TLEMergeWgmmaWaits
    : Pass<"triton-tle-merge-wgmma-waits", "mlir::ModuleOp"> {
  let summary = "Wait once for a run of wgmma groups instead of after each (sm_90: wgmma; nothing to do below)";
  let description = [{
    On TTGIR after Triton's passes. Outside the loops its pipeliner handles,
    Triton waits for every wgmma right after issuing it
    (`ttng.warp_group_dot_wait %d, %a, %b {pendings = 0}`), so an
    accumulation split over several dots (`acc = dot(a1, b1); acc = dot(a2,
    b2, acc); ...`) or a run of independent dots drains the wgmma pipeline
    once per dot.

    A pendings-0 wait `W1` that directly follows the async dot `D1` it waits
    for is folded into the next wait `W2` of its block when:
      * `W2` is a pendings-0 wait directly following its own async dot `D2`;
      * every op between `W1` and `W2` can be crossed: ops free of memory
        effects, `ttng.warp_group_dot`, `ttng.fence_async_shared`,
        `ttg.local_load`, the `ttg.memdesc_*` views and `ttng.wait_barrier`
        (an mbarrier wait only blocks until other threads' writes are
        visible, so `D1`, issued on operands ready before it, may run across
        it: a scorer issues S over the half of a pipe slot that has landed
        while it waits for the other half); anything that writes memory,
        signals other threads (`gpu.barrier`, `ttng.arrive_barrier`) or holds
        regions ends the search, so a release of the operands' buffers stays
        after the wait;
      * between `W1` and `W2`, `W1`'s results are used only as the
        accumulator (`c`) of a `ttng.warp_group_dot` (wgmma accumulates into
        the same registers in issue order).
    Those accumulator uses take `D1`'s result directly; `W1` and `W2` become
    one pendings-0 wait on `W2`'s inputs followed by `W1`'s, whose results
    replace both waits' results (so `D1`'s operand buffers stay live until
    the wait). Merges repeat until none applies: a chain of N dots ends with
    one wait. Waits with pendings > 0 (Triton's pipelined loops) are left
    alone.

    Observing it: `-mlir-pass-statistics` counts the waits merged;
    `-debug-only=triton-tle-merge-wgmma-waits` says for each wait of an async
    dot which wait it merged into, or which rule kept it.
  }];
  let dependentDialects = ["::mlir::ttng::TTNGDialect"];
  let statistics = [
    Statistic<"numWaitsMerged", "waits-merged",
              "wgmma waits folded into the next wait">
  ];
}

def TLEForwardBufferLoads
    : Pass<"triton-tle-forward-buffer-loads", "mlir::ModuleOp"> {
  let summary = "Load a tensor from its buffer instead of from a copy of it";
  let description = [{
    On TTGIR after Triton's passes and TLE's lowerings. Triton decomposes a
    layout conversion into a dot-operand layout into a shared-memory round
    trip: `%c = ttg.local_alloc %x` then `ttg.local_load %c` in the operand
    layout. When `%x` was itself just loaded from a shared buffer
    (`%x = ttg.local_load %buf`, e.g. a `tle.gpu.local_load` of a
    `tle.gpu.alloc` buffer), the copy holds the buffer's contents: each load
    of `%c` becomes a load of `%buf` (with `%x`'s async token) in the same
    layout, and the copy (and `%x`, when unused) is erased. That saves the
    copy's shared memory and a store, a barrier and a load per use, in every
    loop iteration (sparse MLA's P exchange between warpgroups).

    Forwarded only when both of these hold, else nothing changes:
      * `%buf` and `%c` have the same shape, element type and memory space
        (encodings may differ: a load reads values, whatever the layout);
      * every user of `%c` is a `ttg.local_load` after it in the same block.

    A forwarded load stays where the copy's load was when no op between
    `%x` and it may write memory (declared write, allocate or free effects,
    or no declared effects at all, as for calls and non-pure inline asm;
    nested ops count). Otherwise the buffer may hold other values by then
    (a store, or a `tle.pipe` slot released to its writer before the dot
    that uses the operand), and the forwarded load goes just before the
    first such op, when the buffer still holds the values `%x` read and the
    copy holds: the operand is then held in registers from there.
  }];
  let dependentDialects = ["::mlir::ttg::TTGDialect"];
}

def TLEForwardBufferMmaOperands
    : Pass<"triton-tle-forward-buffer-mma-operands", "mlir::ModuleOp"> {
  let summary = "Let wgmma read a buffer that is only read while it runs in place (sm_90: wgmma; nothing to do below)";
  let description = [{
    On TTGIR after `triton-tle-lower-warp-specialize`. A `tle.gpu.alloc`
    buffer that the kernel fills before a `tle.gpu.warp_specialize` and
    whose partitions only load (a query tile every partition multiplies,
    for instance) reaches Triton as a `ttg.local_load` in each partition.
    Triton's dot lowering keeps a wgmma's A operand in registers unless it
    comes from a global load, so each partition copies the buffer into a
    `ttg.local_alloc` of its own and loads the copy into registers for every
    wgmma: one more buffer per partition, and the operand's registers
    (64 x 256 bf16 is 64 a thread).

    For each capture `%buf` of a `ttg.warp_specialize` that
      * is a `ttg.local_alloc` without an initial value, in shared memory,
        captured once,
      * is used outside the op only by `ttg.local_store`, `ttg.local_load`
        and `ttg.local_dealloc`, and
      * is used inside the op (directly in the default region, through its
        block argument in each partition) only by `ttg.local_load`,
    the buffer does not change while the op runs, so:
      * a `ttg.local_load` of it (or of a `ttg.local_alloc` copy of such a
        load with the buffer's shape and element type) whose only users are
        `ttng.warp_group_dot` A operands (and inputs of
        `ttng.warp_group_dot_wait` whose results are unused) is replaced by
        the buffer itself: the wgmma reads A from shared memory. The buffer
        then takes the NVMMA encoding a K-contiguous A operand needs
        (128/64/32-byte swizzle by its row size in bytes; rank 2 only, else
        the loads stay in registers), which its stores and loads accept;
      * every other load of such a copy loads the buffer directly;
      * copies and loads left without users are erased.
    When a wgmma now reads the buffer, a `ttng.fence_async_shared` and a
    `gpu.barrier` go before the op: the parent's stores are generic-proxy
    writes that the wgmma's async-proxy reads must see.

    **Outside warp_specialize.** In a kernel (a public `tt.func`), a buffer
    that is a `ttg.local_alloc` without an initial value in the function
    body, used only by `ttg.local_store`, `ttg.local_load` and
    `ttg.local_dealloc`, whose every store sits in (or under) a top-level
    op before the top-level op holding a load, does not change while
    those loads run, nor while the asynchronous wgmmas fed from them read
    (a query tile stored once before the key loop). For such a load:
      * a `ttg.local_alloc` copy of it with the buffer's shape, element type
        and memory space whose users are all `ttng.warp_group_dot` A or B
        operands (directly, or through a `ttg.memdesc_trans` feeding B) and
        `ttng.warp_group_dot_wait` inputs, in an NVMMA encoding (one
        encoding for all such copies), is replaced by the buffer: the
        buffer takes the copy's encoding, transposed views are rebuilt on
        it (mutable), and wait results take its type;
      * a load, or a load of such a copy, whose only users are wgmma A
        operands in registers is replaced by the buffer, which then takes
        the copies' encoding or else the K-contiguous NVMMA one (a
        transposed encoding only for 16-bit elements).
    A fence and a barrier follow the buffer's last store. Buffers with
    other users (TMA copies, views, a warp_specialize capture), stores
    after a load, copies with other readers and helper functions are left
    alone. This is what fits FlagTree's sparse MLA tutorial kernel (its Q
    and Q-tail tiles, 72 KiB, read by every wgmma of the loop) in the
    H200's shared memory.
  }];
  let dependentDialects = ["::mlir::ttg::TTGDialect", "::mlir::ttng::TTNGDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TLEDropRedundantAsyncFences
    : Pass<"triton-tle-drop-redundant-async-fences", "mlir::ModuleOp"> {
  let summary = "Drop an async-proxy fence that repeats the one before it (sm_90: wgmma; nothing to do below)";
  let description = [{
    On TTGIR after Triton's passes and TLE's lowerings. Triton puts a
    `ttng.fence_async_shared` (PTX `fence.proxy.async`, in SASS a
    `MEMBAR.ALL.CTA`, which waits for all of the thread's outstanding memory
    operations) before every wgmma whose shared-memory operands it cannot
    prove were written through the async proxy: pipe slots and buffers that
    a partition receives are such operands, so a chain of wgmmas reading
    them, outside Triton's own pipelined loops, fences before every dot
    (sparse MLA's scores chain: 9 fences a chunk).

    A fence is erased when an earlier fence of its block precedes it and
    every op in between
      * is a `ttng.warp_group_dot` (reads shared memory through the async
        proxy, writes registers), a `ttng.warp_group_dot_wait`, a
        `ttg.local_load`, a `ttg.memdesc_*` view, or an op free of memory
        effects, and
      * holds no regions.
    Nothing between the two fences wrote memory or synchronized with other
    threads, so the second orders nothing the first did not. Anything else
    (a store, a barrier or mbarrier op, a cp.async wait, a loop) makes the
    next fence stay. A cluster-scope fence (`bCluster = true`) is not erased
    after a CTA-scope one.
  }];
  let dependentDialects = ["::mlir::ttng::TTNGDialect"];
}

def TLEFoldScatterConverts
    : Pass<"triton-tle-fold-scatter-converts", "mlir::ModuleOp"> {
  let summary = "Scattered stores take the layout their operands are "
                "computed in instead of converting them";
  let description = [{
    Triton's Coalesce pass gives a `tt.store` whose pointers it cannot prove
    contiguous a `#ttg.blocked` layout with one element per thread
    (`sizePerThread` all 1), and `ttg.convert_layout` ops bring its pointer,
    value and mask there from the (vectorized) layout they are computed in.
    Every such convert goes through shared memory with barriers, in every loop
    iteration: TLE kernels that scatter through computed slots (compaction,
    histogram candidates, local pointers into buffers) pay three per store.

    This pass runs last in the TTGIR stage, after Triton's layout passes (which
    will not run again) and after TLE's lowerings. For each `tt.store` whose
    pointer encoding `D` is a `#ttg.blocked` with `sizePerThread` all 1 and
    whose operands include a `ttg.convert_layout` from a `#ttg.blocked`
    encoding `E` to `D` (all such converts from the same `E`): if every tensor operand (pointer, value, mask) can be had in
    `E` without a new convert, the store is rebuilt in `E` and the converts
    it used are erased when they have no other user. An operand can be had in
    `E` when it is
      * a `ttg.convert_layout` whose source is in `E` (the source is used);
      * a `tt.splat`, a `tt.make_range` or a splat `arith.constant` (rebuilt
        in `E`);
      * the result of a pure elementwise op (an `arith` op with the
        `Elementwise` trait, or `tt.addptr` / `tt.bitcast` / `tt.int_to_ptr`
        / `tt.ptr_to_int`) in `D` whose tensor operands can, to a depth of
        6 ops (the chain is cloned in `E` right before the store).

    Nothing else is rewritten: a store that would need a new convert keeps
    its layout, so the pass never adds a convert.

    The store issues as many instructions as before: its pointers are not
    contiguous, so it writes one element per instruction in either layout
    (Triton vectorizes by the pointers' contiguity, which did not change).
    What can change is which lanes of a warp write together; for stores
    whose active lanes write consecutive addresses (dense compaction) the
    one-element layout coalesced better. The converts saved are paid on
    every execution, whatever the data.
  }];
  let dependentDialects = ["::mlir::ttg::TTGDialect", "::mlir::arith::ArithDialect"];
}

def TLEInsertLocalPointerBarriers
    : Pass<"triton-tle-insert-local-pointer-barriers", "mlir::ModuleOp"> {
  let summary = "Insert CTA and cluster barriers between conflicting "
                "accesses to pointer buffers";
  let description = [{
    Pointer buffers live outside Triton's shared-memory allocation, so
    Triton's membar analysis does not see them; this pass synchronizes them.

    **Provenance.** Per function, every pointer value in address space 3 or
    7 gets the set of pointer buffers it may point into, to a fixpoint:
    `tle.local_pointers %buf` -> `{%buf}` (local); `tle.remote_pointers
    cluster` -> its source's set, remote; any op without memory effects
    whose result is a pointer (`tt.addptr`, `tt.splat`, `tt.broadcast`,
    `tt.expand_dims`, `ttg.convert_layout`, `arith.select`, ...) -> union of
    its pointer operands; `scf.for` / `scf.while` / `scf.if` results and
    block arguments -> union of what flows into them (init and yielded
    values). Anything else (function arguments, loaded pointers,
    `tt.int_to_ptr`, other region ops) is *unknown*: it may point into any
    buffer, in its address space.

    **Accesses.** `tt.load` (read), `tt.store` (write), ops named
    `tle.atomic_rmw` / `tle.atomic_cas` and `tt.atomic_rmw` / `tt.atomic_cas`
    (atomic) on such pointers; any other op taking such a pointer reads and
    writes it as its memory effects on that operand say (no interface and no
    recursive effects: read and write); `tle.local_load` (read),
    `tle.local_store` (write), `tle.copy` (read src / write dst) on a pointer
    buffer. An access through address space 7 is *remote*. Memdesc buffers
    are ignored (Triton synchronizes them).

    **Conflicts.** Two accesses to one buffer conflict when one writes, they
    are not both atomic (RAW, WAR, WAW), and their element sets are not
    provably disjoint (below). State, per buffer: the accesses
    pending since the last CTA barrier (`gpu.barrier`, or a cluster barrier),
    and the local and remote accesses pending since the last cluster barrier
    (`ttng.cluster_arrive` directly followed by `ttng.cluster_wait`, or
    `tle.distributed_barrier cluster`; a `tle.distributed_barrier submesh`
    counts as one too: it is the user's statement that the remote accesses
    around it stay inside its sub-mesh, and a remote access to a CTA outside
    it needs a cluster barrier the user writes). A local access conflicting with a
    pending CTA access needs `gpu.barrier`; a remote access conflicting with
    a pending local or remote access, or a local access conflicting with a
    pending remote access, needs `ttng.cluster_arrive {relaxed = false}` +
    `ttng.cluster_wait` (which also orders the CTA). The barrier goes right
    before the access and clears the state; existing barriers clear it too.

    **Disjoint element sets.** A `tt.load` / `tt.store` whose pointers
    come from a tensor- or scalar-indexed `tle.local_pointers %buf[...]` of
    a `tle.alloc` result (through `ttg.convert_layout`, `tt.broadcast`,
    `tt.expand_dims`, `tt.splat`, `tt.reshape` without reorder and
    `tle.remote_pointers` only) has a *footprint*: the i32 linear offsets
    `sum(index_d * stride_d)` the lowering computes (for an NVMMA-shared
    buffer the row-major logical offsets, a bijection of its in-bounds
    indices onto its elements), evaluated as `U + C(e)`. `U` is a sum of
    uniform scalars times constants; a uniform scalar is an integer of 32
    bits or more that is a function argument, `tt.get_program_id`,
    `tt.get_num_programs`, the induction variable of an `scf.for` with
    uniform lower bound and step, or an `arith` op of uniform scalars,
    defined in no region op other than `scf.if`, `scf.for` and `scf.while`
    (one value per run of the function, or per iteration of the loops it is
    defined in, in every thread). `C(e)` is
    the constant offset of element `e`, evaluated exactly from
    `tt.make_range`, integer constants, `tt.splat`, `tt.broadcast`,
    `tt.expand_dims`, `tt.join`, `tt.reshape` (no reorder),
    `ttg.convert_layout` and integer `arith` ops at their bit width
    (add, sub, mul, div/rem, shifts, and/or/xor, min/max, ext/trunc); uniform
    scalars only pass through add, sub, and mul / shl by a uniform constant
    (modulo 2^32), and a wider index is truncated, a narrower one
    sign-extended, as the lowering does. Two footprints with the same `U`
    whose `C` sets (modulo 2^32, at most 65536 elements each) share no value
    touch no common element (translation by `U` is a bijection modulo 2^32,
    and distinct i32 offsets are distinct addresses), whichever threads
    issue them: the two accesses need no barrier between them. **Slots:**
    two footprints whose `U` differ by `k r1 - k r2`, where `r1`, `r2` are
    `arith.remsi` / `arith.remui` of `b + c1` and `b + c2` by the same power
    of two `m` (the same symbolic `b`, constants with `c1 != c2` mod `m`:
    slot `i % 2` against slot `(i + 1) % 2`), are disjoint when `C1 + k d`
    and `C2` share no value for every difference `d` the two residues can
    have (`d = c1 - c2` mod `m`, `|d| < 2m`, `< m` when both are unsigned).
    A footprint with a term defined inside a loop holds for one iteration:
    the state crossing the loop's back edge (and leaving it) replaces it by
    its union over the iterations when its only such term is the induction
    variable of an `scf.for` with constant bounds (at most 65536 offsets),
    else by "unknown elements". Remote accesses have footprints too; a
    conflict between accesses of different CTAs (a remote one and any other)
    is ruled out only by footprints whose terms are the same in every CTA of
    the cluster (constants, function arguments, `tt.get_num_programs`, loop
    induction variables with such bounds and `arith` of those; no program
    id). Masks only shrink the sets. Anything else (pointers moved by
    `tt.addptr`, indices loaded or passed as tensors, full views,
    `tle.local_load` / `tle.local_store` / `tle.copy`, atomics) has no
    footprint and conflicts as before. An access never counts as disjoint
    from itself (in a loop, the previous iteration's execution of the same
    op touches the same elements). Typical uses: `base + arange(n)` and
    `base + arange(n) + K` with `K >= n`; even / odd interleavings `2 i`,
    `2 i + 1`; the FFT's four scattered stores of a stage
    (`(j // s) 4 s + r s + j % s`, padded with `p + (p >> 5)`); a two-slot
    buffer read at slot `i % 2` and refilled at slot `(i + 1) % 2` (FlagTree's
    cluster GEMM: the refill needs no cluster barrier before it).

    **Control flow** (a forward may-analysis over the region tree, joins =
    union): `scf.if` joins its branches (a missing else is the input state);
    `scf.for` / `scf.while` iterate the body with entry = input joined with
    the state at the back edge until it is stable. Before that, the body is
    probed from the back-edge state alone: if that state conflicts with an
    access of the body, the barrier goes at the end of the body (before its
    `scf.yield`) rather than before the access. Other region ops and
    multi-block regions are treated as running their blocks any number of
    times in any order. The whole analysis is rerun until no barrier is
    added, so it is a fixpoint over the final IR.

    **Exit.** When the function has a remote access, a cluster barrier is
    inserted before each `tt.return` at which a remote access may be pending
    since the last cluster barrier (a CTA's shared memory must outlive its
    peers' accesses).

    **Cluster-uniform placement.** A cluster barrier only synchronizes the
    cluster where every CTA of the cluster reaches it: one that only some
    CTAs run pairs with the others' next cluster barrier (wrong results, or
    a hang). So a cluster barrier needed before an op inside an `scf.if`
    whose condition, or an `scf.for` whose bounds, provably differ between
    the CTAs of a cluster goes before the outermost such op instead. A value
    provably differs when it is computed from `tt.get_program_id`,
    `tle.shard_id` or an inline asm reading `%ctaid` / `%cluster_ctarank`
    through side-effect-free ops without regions (and scf.for induction
    variables with such bounds). Loaded values, iter_args and region
    results end the chain: a branch on data is taken to be cluster-uniform,
    as around `tle.distributed_barrier`, and that is the user's to keep.
    (FlagTree's cluster GEMM: rank 0 refills the next A slot under `if
    has_next and cluster_rank == 0` after every CTA read this one; the
    barrier goes before the `if`.) When the conflicting accesses both lie
    in such control flow, no placement orders them: a warning names the op
    and the control flow, and the ordering is left to the user, as in
    FlagTree (whose top-k selector has such accesses in branches whose
    conflicts its own data flow rules out).

    `all-buffers=true` treats every `tle.alloc` as a pointer buffer. The
    Iluvatar pipeline needs it: `triton-tle-lower-to-iluvatar` turns
    `tle.copy` into loads and stores through local pointers, which Triton's
    membar analysis does not see, whatever the buffer (docs/iluvatar.md).

    Observing it: `-mlir-pass-statistics` counts the CTA and cluster
    barriers inserted; `-debug-only=triton-tle-insert-local-pointer-barriers`
    names each function's tracked buffers and each barrier's op and reason.
  }];
  let options = [
    Option<"allBuffers", "all-buffers", "bool", /*default=*/"false",
           "Synchronize accesses to every tle.alloc buffer, not only to "
           "pointer buffers">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::ttng::TTNGDialect"];
  let statistics = [
    Statistic<"numCTABarriers", "cta-barriers", "gpu.barrier ops inserted">,
    Statistic<"numClusterBarriers", "cluster-barriers",
              "Cluster barriers (arrive + wait) inserted">
  ];
}

def TLEUnpipelineLocalPointerLoads
    : Pass<"triton-tle-unpipeline-local-pointer-loads", "mlir::ModuleOp"> {
  let summary = "Keep Triton's pipeliner away from loads through shared "
                "(address space 3) or cluster (7) pointers";
  let description = [{
    Runs in the tle-ttir stage, after `triton-tle-lower-pipeline-groups` and
    before Triton's TTGIR conversion and software pipeliner.

    Triton 3.6's pipeliner takes every `tt.load` of a loop that feeds a
    `tt.dot` (or, in a loop with `tt.num_stages`, every load) and that is at
    least 32 bits wide per contiguous run for an early copy into
    multi-buffered shared memory: `cp.async.ca.shared.global`, issued one or
    more iterations ahead. For a load through `tle.gpu.local_ptr` pointers
    that is wrong twice: `cp.async` has no shared source (the llir finish
    cannot turn it into a shared access and fails), and the early copy reads
    the buffer before this iteration's `tle.gpu.copy` / `tl.store` into it
    (Triton knows nothing of the buffer's writers).

    So every `scf.for` whose body holds, directly, such a load that Triton
    could take gets `tt.num_stages = 1` (Triton's pipeliner then leaves the
    loop alone; other loads of the loop are not pipelined either). A load is
    left out (Triton never takes it) when its pointer is a scalar, or when
    its element is narrower than 32 bits and its pointer comes straight from
    a `tt.elementwise_inline_asm` (a TLE marker: Triton's AxisInfo gives it
    contiguity 1, so the load is "too small"). In a loop whose body already
    holds `tt.latency` attributes (user schedules, `tle.range` pipeline
    groups), Triton pipelines exactly the ops with a latency: there such a
    load's `tt.latency` becomes 0 (not issued early) and the rest of the
    schedule stays.

    A second rule covers the order inside the loop. Triton's scheduler puts
    the ops a pipelined load's consumer depends on in that consumer's
    cluster and the ops it cannot relate to anything in a later one, and it
    sees no dependence between a write to a buffer (or a TLE barrier) and a
    later read through local pointers. So in a pipelined loop a read of a
    buffer that feeds the `tt.dot` can be moved before the store and the
    cluster barrier that precede it (FlagTree's remote-dot kernel with one
    dot per K step read its tile before rank 0 had written it). Every
    `scf.for` without a user schedule that Triton would pipeline (it holds,
    directly, a tensor load of global memory or a descriptor load, and a
    `tt.dot` or `tt.num_stages` > 1) and whose body, nested regions
    included, both reads shared or cluster memory (`tt.load`, atomics) and
    writes it (`tt.store`, atomics) or holds a side-effecting TLE marker (a
    barrier, a copy; pointer markers do not count) gets `tt.num_stages = 1`.
  }];
}

def TLEBindPipelineGroups
    : Pass<"triton-tle-bind-pipeline-groups", "mlir::ModuleOp"> {
  let summary = "Bind tle.range pipeline-group markers to their loop; drop "
                "the groups of a loop Triton folded away";
  let description = [{
    Runs first in the tle-ttir stage, on the raw markers
    (docs/pipeline-groups.md, "Folded loops"). The frontend gives each
    `tle.pipeline_group_begin` marker one operand: its `tle.range` loop's
    induction variable (the value the loop variable holds at the top of the
    body). For each begin marker with that operand:

    * the operand is computed from the induction variable of an enclosing
      `scf.for` (the innermost such loop): the group belongs to that loop.
      The operand is dropped; a marker not directly in that loop's body
      stays, and the op's verifier reports it (a group inside an `scf.if`
      of the loop, say);
    * it is computed from no enclosing loop's induction variable: Triton's
      canonicalizer folded the loop (a one-trip loop, e.g. a trip count that
      the JIT specialised to 1, inlined into its parent; the induction
      variable became the lower bound). There is nothing to pipeline: the
      marker and its `tle.pipeline_group_end` (the next end marker of the
      same group in the block) are erased.

    Begin markers without an operand (hand-written IR) are left as they are.
  }];
}

def TLELowerPipelineGroups
    : Pass<"triton-tle-lower-pipeline-groups", "mlir::ModuleOp"> {
  let summary = "Turn tle.range pipeline groups into Triton's loop schedule "
                "attributes (tt.latency, tt.num_stages) and group order";
  let description = [{
    Runs in the tle-ttir stage, after `triton-tle-raise-markers` raised the
    `tle.pipeline_group_begin` / `tle.pipeline_group_end` markers and before
    Triton's TTGIR conversion and pipeliner (docs/pipeline-groups.md).

    For every `scf.for` whose body holds group ops:

    * **Checks** (errors at the group op, i.e. the user's `with` line):
      begin/end pairs well nested and naming the same group; every group
      `0..num_groups-1` present exactly once (a group is one contiguous
      block); all groups agree on `num_groups` and `num_stages`; the loop is
      innermost (no `scf.for` / `scf.while` in its body: Triton pipelines
      innermost loops only); no op uses a value computed in the same
      iteration by a group of a *later* stage.
    * **Membership.** An op between a begin and its end belongs to that
      group. Any other op of the body takes the group of its first user in
      the body (following ungrouped users); an op with no such user (a
      store, a value only yielded) takes the group of the nearest group
      block before it, else the first one after it.
    * **Order** (`pipe_orders`): the body's ops are stably sorted by their
      group's order. Moving an op above one it follows is an error when the
      op uses that op's result, or when both touch memory and one writes.
    * **Stages** (`pipe_stages`). Triton 3.6's `schedule_loops` re-derives
      every loop schedule from op latencies (it overwrites `loop.stage` /
      `loop.cluster`), so stages are expressed as the latencies it honours:
      each `tt.load` / `tt.descriptor_load` / `tt.descriptor_gather` of the
      body gets `tt.latency` chosen so that Triton's schedule puts it in its
      group's stage (`latency = (S - stage) - D`, `S` the largest stage and
      `D` the distance Triton computes for its users from the latencies
      downstream of it), and the loop gets `tt.num_stages = num_stages`.
      A load whose consumers leave it no latency gets `tt.latency = 0`
      (not issued early).
    * The group ops are erased.
  }];
  let dependentDialects = ["::mlir::tle::TLEDialect"];
}

def TLENumberMarkers : Pass<"triton-tle-number-markers", "mlir::ModuleOp"> {
  let summary = "Give every TLE marker on TTIR its own number (tle.marker.id)";
  let description = [{
    The last pass of TLE's TTIR stage. Every marker (a
    `tt.elementwise_inline_asm` whose asm string starts with `tle.`,
    docs/markers.md) left in the module gets the discardable attribute
    `tle.marker.id = N : i64`, numbered in walk order from 0; a marker that
    already has one keeps it (the stage can run twice on one module). Triton's
    ttir-to-ttgir conversion and its passes keep an op's attributes, and its
    remove-layout-conversions copies an op with them when it rematerializes
    it in another layout: after make_ttgir, markers that share a number are
    copies of one marker the frontend emitted, which
    `triton-tle-merge-marker-copies` folds back into one. Nothing else
    reads the number.
  }];
  let statistics = [
    Statistic<"numNumbered", "numbered", "Markers given a tle.marker.id">
  ];
}

def TLEMergeMarkerCopies
    : Pass<"triton-tle-merge-marker-copies", "mlir::ModuleOp"> {
  let summary = "Fold the copies Triton's layout propagation made of a TLE marker back into one";
  let description = [{
    The first pass of TLE's TTGIR stage, before the markers are raised.
    Triton's remove-layout-conversions rematerializes an op once per layout
    its users want, TLE's markers included (it does not ask whether a
    `tt.elementwise_inline_asm` is pure): one `tle.gpu.wgmma` whose result a
    row max and an exp2 read reached TTGIR as four wgmma markers and four
    waits, each of which became a real wgmma.

    Markers carrying the same `tle.marker.id` (`triton-tle-number-markers`)
    are copies of one frontend marker. In each block, a marker is folded into
    the first earlier marker of its number when
      * both have the same asm string, attributes and source location, and
        result types equal but for their encodings;
      * their operands hold the same elements, one possibly in another
        layout: the same value, either through a `ttg.convert_layout`; the
        same results of two pure ops of one kind with equal attributes (a
        splat constant compared by value, bodies such as a `tt.reduce`'s
        combiner compared as written) whose operands match in turn; results
        of two copies of one marker (as here, in turn); or the values Triton
        carries through a loop or a branch once per layout: two iter_args of
        one `scf.for` whose inits and yields match, two results of one
        `scf.for` whose iter_args match, two results of one `scf.if` whose
        yields match in both branches. A loop is compared coinductively: the
        pair is assumed equal while its inits and yields are compared, and
        whatever was proved under an assumption that fails is forgotten. The
        induction variable and other block arguments only match themselves;
      * every op between the two is free of memory effects or another copy
        of the same marker;
      * a tiled or narrowed result (docs/markers.md: its `tt.reshape` and
        pick `tt.reduce`s, through single-use converts) has that chain in
        both, ending in one block with every use of the copy's end after
        both ends.
    The copy's used results are replaced by the first's, through a
    `ttg.convert_layout` where the encodings differ (for a tiled or narrowed
    result, the end of the copy's chain by the end of the first's, after
    both; the copy's chain is erased); the copy and the pure ops only it used
    are erased. Copies folded first make the copies of their users (a
    wgmma's waits) match in turn. Then, in each `scf.for` whose body had a
    copy folded, an iter_arg that matches an earlier one (the rules above)
    is dropped: its uses in the body and the loop's result read the kept
    one, through a `ttg.convert_layout` where the encodings differ, so the
    loop carries the state once instead of once per layout (registers: the
    row statistics of an attention loop). Markers without a number, with
    different numbers, in different blocks or separated by anything else
    stay: two markers the frontend emitted separately are never merged, even
    when the same source line made them (a `tl.static_range` body).
    `-mlir-pass-statistics` counts the folded copies and the dropped
    iter_args.
  }];
  let statistics = [
    Statistic<"numMerged", "merged", "Marker copies folded into the first">,
    Statistic<"numIterArgsMerged", "iter-args-merged",
              "Loop-carried duplicates dropped (loops with folded copies)">
  ];
  let dependentDialects = ["::mlir::ttg::TTGDialect"];
}

#endif // TLE_TRANSFORMS_PASSES_TD
