//===- TLEPipeOps.td - CTA-scoped producer/consumer pipes -----------------===//
#ifndef TLE_DIALECT_TLEPIPEOPS_TD
#define TLE_DIALECT_TLEPIPEOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEPipeTypes.td"
include "mlir/IR/OpAsmInterface.td"

class TLE_PipeOp<string mnemonic, list<Trait> traits = []>
    : TLE_Op<"pipe." # mnemonic, traits>;

// The synchronizing pipe ops order the accesses to the fields' shared memory,
// which the handle does not name: they read and write the default resource so
// that nothing is CSE'd, dropped or moved across them.
defvar TLE_PipeSync = MemoryEffects<[MemRead, MemWrite]>;

def TLE_PipeCreateOp : TLE_PipeOp<"create", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Create a CTA-scoped pipe over shared-memory field buffers";
  let description = [{
    Builds a ring of `capacity` slots over the `fields` buffers (one
    `!ttg.memdesc` per field; dim 0 of each is the slot index) with one writer
    and the named `readers`. The result type is inferred from the attributes
    and the field types (see `!tle.pipe`).

    Protocol: the writer `writer_acquire`s a free slot, fills the fields'
    slot views (`tle.pipe.slot`), then `writer_commit`s it; each reader
    `reader_wait`s for the next committed slot, reads it and
    `reader_release`s it; a slot is free again once every reader released
    it. Slots are handed out in ring order. `writer_close` ends the stream:
    a `reader_wait` after the last committed slot returns `is_closed = true`.

    `one_shot` pipes: each slot is written at most once (at most `capacity`
    items ever travel through the pipe), so the writer never waits for a
    release and the stream ends implicitly; `writer_close` is rejected on
    them. Releasing is still allowed (it is a no-op).

    Rules: `scope` is "cta" (the only one supported); `capacity` > 0; one
    unique identifier in `field_names` per field; each field in
    `#ttg.shared_memory`, mutable, rank >= 2, dim 0 == capacity; at least one
    reader; reader names unique identifiers. `name` is a label for debugging
    and diagnostics.

    ```mlir
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"]
        fields(k = %k : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>,
               v = %v : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>)
    ```
  }];
  let arguments = (ins
    Variadic<TTG_MemDesc>:$fields,
    I32Attr:$capacity,
    DefaultValuedStrAttr<StrAttr, "cta">:$scope,
    StrAttr:$name,
    StrArrayAttr:$field_names,
    StrArrayAttr:$readers,
    DefaultValuedAttr<BoolAttr, "false">:$one_shot);
  let results = (outs Res<TLE_PipeType, "", [MemAlloc<DefaultResource>]>:$pipe);
  let assemblyFormat = [{
    $name `capacity` $capacity `readers` $readers
    custom<PipeFields>($fields, type($fields), $field_names)
    attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // The `fields(name = %value : type, ...)` directive (members, so that the
    // generated parser and printer find them in any translation unit).
    static ::mlir::ParseResult parsePipeFields(::mlir::OpAsmParser &parser,
        ::llvm::SmallVectorImpl<::mlir::OpAsmParser::UnresolvedOperand> &fields,
        ::llvm::SmallVectorImpl<::mlir::Type> &types, ::mlir::ArrayAttr &names);
    static void printPipeFields(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::OperandRange fields,
        ::mlir::TypeRange types, ::mlir::ArrayAttr names);
  }];
}

def TLE_PipeWriterAcquireOp : TLE_PipeOp<"writer_acquire", [TLE_PipeSync,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "Wait for a free slot and return its index";
  let description = [{
    Blocks the writer until the next slot in ring order has been released by
    every reader (immediately for the first `capacity` acquires), and returns
    its index in [0, capacity).

    With `at [%stage, %phase]` (a cursor: FlagTree's `writer.acquire(cursor)`)
    the op takes slot `%stage` of round parity `%phase` instead of the
    endpoint's next slot in ring order: the kernel carries its position and
    no counter is threaded for this endpoint. An endpoint gives a position
    to every op that takes a slot, or to none. A constant `%stage` must be in
    [0, capacity).

    ```mlir
    %slot = tle.pipe.writer_acquire %pipe : !pipe
    %slot = tle.pipe.writer_acquire %pipe at [%stage, %phase] : !pipe
    ```
  }];
  let arguments = (ins TLE_PipeType:$pipe, Optional<I32>:$stage,
                       Optional<I1>:$phase);
  let results = (outs I32:$slot);
  let assemblyFormat = [{
    $pipe (`at` ` ` `[` $stage^ `,` $phase `]`)? attr-dict `:` qualified(type($pipe))
  }];
  let hasVerifier = 1;
}

def TLE_PipeWriterCommitOp : TLE_PipeOp<"writer_commit", [TLE_PipeSync]> {
  let summary = "Publish an acquired slot to the readers";
  let description = [{
    Makes the writes to `slot` visible and wakes the readers. A constant
    `slot` must be in [0, capacity). `slot` is the result of the writer's
    `writer_acquire`, or, when the writer's ops take positions (`at`), the
    stage of the cursor it acquired with.

    ```mlir
    tle.pipe.writer_commit %pipe[%slot] : !pipe
    ```
  }];
  let arguments = (ins TLE_PipeType:$pipe, I32:$slot);
  let assemblyFormat = [{
    $pipe `[` $slot `]` attr-dict `:` qualified(type($pipe))
  }];
  let hasVerifier = 1;
}

def TLE_PipeWriterCloseOp : TLE_PipeOp<"writer_close", [TLE_PipeSync,
    AttrSizedOperandSegments]> {
  let summary = "End the stream";
  let description = [{
    No slot is committed after this; a reader that has consumed every
    committed slot gets `is_closed = true` from `reader_wait`. Not allowed on
    a one-shot pipe, whose stream ends implicitly. A close takes a slot (it
    commits the end of the stream into it), so it takes a position `at
    [%stage, %phase]` when its endpoint's other ops do.

    ```mlir
    tle.pipe.writer_close %pipe : !pipe
    ```
  }];
  let arguments = (ins TLE_PipeType:$pipe, Optional<I32>:$stage,
                       Optional<I1>:$phase);
  let assemblyFormat = [{
    $pipe (`at` ` ` `[` $stage^ `,` $phase `]`)? attr-dict `:` qualified(type($pipe))
  }];
  let hasVerifier = 1;
}

def TLE_PipeReaderWaitOp : TLE_PipeOp<"reader_wait", [TLE_PipeSync,
    AttrSizedOperandSegments]> {
  let summary = "Wait for the next committed slot (or the end of the stream)";
  let description = [{
    Blocks reader `reader` until the next slot in ring order is committed, or
    the writer closed the pipe. Returns the slot index and `is_closed`; when
    `is_closed` is true the slot index must not be used. `reader` must be one
    of the pipe's readers.

    With `at [%stage, %phase]` (a cursor: FlagTree's `writer.acquire(cursor)`)
    the op takes slot `%stage` of round parity `%phase` instead of the
    endpoint's next slot in ring order: the kernel carries its position and
    no counter is threaded for this endpoint. An endpoint gives a position
    to every op that takes a slot, or to none. A constant `%stage` must be in
    [0, capacity).

    ```mlir
    %slot, %closed = tle.pipe.reader_wait %pipe reader "mma" : !pipe
    %slot, %closed = tle.pipe.reader_wait %pipe at [%stage, %phase] reader "mma" : !pipe
    ```
  }];
  let arguments = (ins TLE_PipeType:$pipe, Optional<I32>:$stage,
                       Optional<I1>:$phase, StrAttr:$reader);
  let results = (outs I32:$slot, I1:$is_closed);
  let assemblyFormat = [{
    $pipe (`at` ` ` `[` $stage^ `,` $phase `]`)? `reader` $reader attr-dict `:`
    qualified(type($pipe))
  }];
  let hasVerifier = 1;
}

def TLE_PipeReaderReleaseOp : TLE_PipeOp<"reader_release", [TLE_PipeSync]> {
  let summary = "Give a consumed slot back to the writer";
  let description = [{
    Reader `reader` is done with `slot`; once every reader released it, the
    writer may acquire it again. `reader` must be one of the pipe's readers;
    a constant `slot` must be in [0, capacity). `slot` is the result of the
    reader's `reader_wait`, or, when the reader's ops take positions (`at`),
    the stage of the cursor it waited with.

    ```mlir
    tle.pipe.reader_release %pipe[%slot] reader "mma" : !pipe
    ```
  }];
  let arguments = (ins TLE_PipeType:$pipe, I32:$slot, StrAttr:$reader);
  let assemblyFormat = [{
    $pipe `[` $slot `]` `reader` $reader attr-dict `:` qualified(type($pipe))
  }];
  let hasVerifier = 1;
}

def TLE_PipeSlotOp : TLE_PipeOp<"slot", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "View one slot of a pipe field";
  let description = [{
    The shared-memory view of `field` at `slot`: the field memdesc with dim 0
    dropped (same element type, encoding, memory space, mutable; like Triton
    3.6's `ttg.memdesc_index`, the view's alloc shape is its own shape). It
    is only a view: accessing it is ordered by the acquire/commit (writer)
    and wait/release (reader) ops around it. `field` must name a field of the
    pipe; a constant `slot` must be in [0, capacity).

    ```mlir
    %k_slot = tle.pipe.slot %pipe[%slot] field "k"
        : !pipe -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    ```
  }];
  let arguments = (ins TLE_PipeType:$pipe, I32:$slot, StrAttr:$field);
  let results = (outs TTG_MemDesc:$view);
  let assemblyFormat = [{
    $pipe `[` $slot `]` `field` $field attr-dict `:` qualified(type($pipe))
    `->` qualified(type($view))
  }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLEPIPEOPS_TD
