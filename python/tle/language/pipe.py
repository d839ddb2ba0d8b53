"""``tle.pipe`` and ``tle.gpu.warp_specialize``: producer/consumer pipelines.

    kv = tle.pipe(capacity=2, name="kv", readers=["mma"],
                  k=tle.gpu.alloc([2, BLOCK, D], tl.float16))
    tle.gpu.warp_specialize([(consumer, (kv.reader("mma"), ...)),
                             (producer, (kv.writer(), ...))],
                            worker_num_warps=[1], worker_num_regs=[40])

    # producer                          # consumer
    w_slot = writer.acquire()           slot, closed = reader.wait()
    tle.gpu.local_store(w_slot["k"], x) x = tle.gpu.local_load(slot["k"])
    writer.commit(w_slot)               reader.release(slot)
    writer.close()

A pipe is a ring of ``capacity`` slots over shared-memory *fields* (one buffer
per field, dim 0 indexes the slot) with one writer and named readers. Endpoints
are typed: a writer has acquire / commit / close, a reader has wait / release.
The compiler lowers the pipe to mbarrier rings and ``warp_specialize`` to
Triton's ``ttg.warp_specialize`` (docs/warp-specialize.md).

This module is the user-facing half, as Gluon's ``_core.py`` is: the builtins
(``tle.pipe``, ``tle.gpu.warp_specialize``), the types and the values a kernel
holds (a pipe, its endpoints and slots). Argument checks and IR building are
in ``_pipe_semantic.py``, which each builtin calls.
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _pipe_semantic as _sem
from ._markers import TLEUsageError, builtin, describe
from .buffers import memdesc_type


class pipe_type(tlc.base_type):
    """The signature of a pipe: capacity, fields (name -> shape, dtype), readers, one_shot."""

    def __init__(self, name, capacity, fields, readers, one_shot):
        self.name = name
        self.capacity = capacity
        # ((name, shape incl. dim 0, dtype, rank of the encoding's order), ...)
        self.fields = tuple(fields)
        self.readers = tuple(readers)
        self.one_shot = one_shot

    def __eq__(self, other):
        return isinstance(other, pipe_type) and self._key() == other._key()

    def _key(self):
        return (self.name, self.capacity, self.fields, self.readers, self.one_shot)

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"pipe<{self.name}, capacity={self.capacity}, readers={list(self.readers)}>"

    def mangle(self) -> str:
        # Triton mangles the types of a called function's arguments before it
        # compiles the callee: refusing here reports the mistake at the call.
        raise TLEUsageError(_sem.PASS_ENDPOINTS)

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_sem.PIPE_HANDLE.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        return pipe_value(handles[cursor], self), cursor + 1

    def mangled_signature(self) -> str:
        """What the mangled names of endpoints and slots spell for their pipe."""
        fields = "_".join(f"{n}{'x'.join(map(str, s))}{d.mangle()}o{r}" for n, s, d, r in self.fields)
        return f"P{self.name}_{self.capacity}_{fields}_{'_'.join(self.readers)}{'O' if self.one_shot else ''}"

    def mlir(self) -> str:
        fields = ", ".join(f"{n}: {memdesc_type(s, d, r)}" for n, s, d, r in self.fields)
        one_shot = ", one_shot" if self.one_shot else ""
        return (f"!tle.pipe<capacity = {self.capacity}, fields = [{fields}], "
                f"readers = [{', '.join(self.readers)}]{one_shot}>")

    def field(self, name, what):
        # (A runtime value must not reach ==: a tensor's == is a builtin.)
        for n, shape, dtype, order_rank in self.fields if isinstance(name, str) else ():
            if n == name:
                return shape, dtype, order_rank
        raise TLEUsageError(f"{what}: pipe '{self.name}' has no field {describe(name)} "
                            f"(fields: {[f[0] for f in self.fields]})")


class endpoint_type(tlc.base_type):
    """A pipe endpoint: the writer, or one named reader."""

    def __init__(self, pipe: pipe_type, reader=None, fields=None):
        self.pipe = pipe
        self.reader = reader  # None: the writer
        # A reader's view of the slots (FlagTree's pipe.reader(name, fields=...)): None, every field.
        self.fields = None if fields is None else tuple(fields)

    def __eq__(self, other):
        return isinstance(other, endpoint_type) and (self.pipe, self.reader, self.fields) == (
            other.pipe, other.reader, other.fields)

    def __repr__(self):
        role = f"reader {self.reader!r}" if self.reader else "writer"
        view = f" (fields {list(self.fields)})" if self.fields is not None else ""
        return f"{role}{view} of {self.pipe!r}"

    def mangle(self) -> str:
        view = "F" + "_".join(self.fields) if self.fields is not None else ""
        return f"E{self.pipe.mangled_signature()}{'R' + self.reader if self.reader else 'W'}{view}"

    def check_field(self, name, what):
        """A field this endpoint's slots show (``pipe_type.field`` checks it is the pipe's)."""
        found = self.pipe.field(name, what)
        if self.fields is not None and name not in self.fields:
            raise TLEUsageError(f"{what}: reader {self.reader!r} of pipe '{self.pipe.name}' was made with "
                                f"fields={list(self.fields)}; field {name!r} is not among them")
        return found

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_sem.PIPE_HANDLE.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        cls = pipe_reader if self.reader else pipe_writer
        return cls(handles[cursor], self), cursor + 1


class slot_type(tlc.base_type):
    """A slot handed out by an endpoint (acquire / wait): its index in the ring."""

    def __init__(self, endpoint: endpoint_type, semantic=None):
        self.endpoint = endpoint
        # The semantic (builder) of the kernel being built: ``slot.<field>``
        # is an attribute access, which Triton passes no semantic to. Not part
        # of the type's identity.
        self.semantic = semantic

    def __eq__(self, other):
        return isinstance(other, slot_type) and self.endpoint == other.endpoint

    def __repr__(self):
        return f"slot of the {self.endpoint!r}"

    def mangle(self) -> str:
        return f"S{self.endpoint.mangle()}"

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_sem.PIPE_HANDLE.to_ir(builder))
        out.append(tlc.int32.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        return pipe_slot(handles[cursor], tlc.tensor(handles[cursor + 1], tlc.int32), self), cursor + 2


class cursor_type(tlc.base_type):
    """A position in a ring of ``capacity`` slots: an int32 stage and an int1 phase."""

    def __init__(self, capacity: int):
        self.capacity = capacity

    def __eq__(self, other):
        return isinstance(other, cursor_type) and self.capacity == other.capacity

    def __hash__(self):
        return hash(("cursor", self.capacity))

    def __repr__(self):
        return f"pipe_cursor<capacity={self.capacity}>"

    def mangle(self) -> str:
        return f"C{self.capacity}"

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(tlc.int32.to_ir(builder))
        out.append(tlc.int1.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        return pipe_cursor(self.capacity, tlc.tensor(handles[cursor], tlc.int32),
                           tlc.tensor(handles[cursor + 1], tlc.int1)), cursor + 2


class pipe_cursor(tlc.base_value):
    """A loop-carried position in a pipe's ring (FlagTree's typed-pipe cursor).

    ``pipe.cursor(i)`` (or an endpoint's ``cursor(i)``) is iteration ``i``'s
    position: ``stage`` = i % capacity (int32), ``phase`` = the parity of
    i // capacity (int1). ``cursor.advance()`` is the next position, with one
    compare and no division; carried through a loop it costs two scalars.
    Endpoint ops given a cursor (``writer.acquire(cursor)``, ``commit``,
    ``close``, ``reader.wait``, ``release``) take that slot instead of the next
    in ring order; an endpoint uses cursors on all its ops or on none.
    """

    def __init__(self, capacity: int, stage: tlc.tensor, phase: tlc.tensor):
        self.capacity = capacity
        self.stage = stage
        self.phase = phase
        self.type = cursor_type(capacity)

    def _flatten_ir(self, handles) -> None:
        handles.append(self.stage.handle)
        handles.append(self.phase.handle)

    def _parts(self):
        return (self.capacity, self.stage, self.phase)

    @tlc.builtin
    def advance(self, _semantic=None):
        """The next position: stage + 1, wrapping to 0 (and flipping the phase) at capacity."""
        return pipe_cursor(self.capacity, *_sem.advance(self.capacity, self.stage, self.phase, _semantic))


def _position(ptype: pipe_type, at, what, _semantic):
    """``(stage, phase)`` of a cursor or an iteration (``_sem.position``)."""
    at = tlc._unwrap_if_constexpr(at)
    return _sem.position(ptype, at._parts() if isinstance(at, pipe_cursor) else at, what, _semantic)


def _cursor(ptype: pipe_type, at, what, _semantic) -> pipe_cursor:
    return pipe_cursor(ptype.capacity, *_position(ptype, at, what, _semantic))


class pipe_wait_result_type(tlc.tuple_type):
    """The type of a ``pipe_wait_result``: Triton's named-tuple type whose
    values rebuild as ``pipe_wait_result`` (through calls and loops)."""

    def _unflatten_ir(self, handles, cursor):
        value, cursor = super()._unflatten_ir(handles, cursor)
        return pipe_wait_result(value.values, self), cursor


class pipe_wait_result(tlc.tuple):
    """What ``reader.wait()`` returns (FlagTree's ``tle.pipe_wait_result``): a
    tuple that unpacks as ``slot, is_closed`` and names them ``.slot`` (the
    ``pipe_slot``) and ``.is_closed`` (an i1 scalar: the writer closed the
    pipe and no slot is left). Kernels get one from ``wait()``, not from the
    constructor.

    Args:
        args: the two values, ``[slot, is_closed]``.
        type: its ``pipe_wait_result_type``.

    Example::

        got = reader.wait()          # isinstance(got, tle.pipe_wait_result)
        slot, closed = got           # or got.slot, got.is_closed
    """


def _wait_result(slot, closed) -> pipe_wait_result:
    """``reader.wait()``'s result: Triton's named-tuple fields ``slot`` and
    ``is_closed``, so the names survive calls and loops."""
    return pipe_wait_result([slot, closed], pipe_wait_result_type([slot.type, closed.type], ["slot", "is_closed"]))


@builtin("tle.pipe")
def pipe(capacity, scope="cta", name="pipe", readers=None, one_shot=False, _semantic=None, _generator=None,
         **fields):
    """``tle.pipe(capacity, scope="cta", name=..., readers=..., one_shot=False, **fields)``.

    Each field is a shared-memory buffer from ``tle.gpu.alloc`` whose dim 0 is
    ``capacity`` (one entry per slot), or a ``(shape, dtype)`` pair, for which
    the pipe allocates ``[capacity] + shape``. ``readers`` names the consumers
    (default ``["reader"]``); every reader waits for and releases every slot.
    ``one_shot=True``: at most ``capacity`` items ever go through the pipe, so
    the writer never waits and ``close`` is not needed. Needs sm_80+ (mbarrier
    rings); used with ``tle.gpu.warp_specialize`` (docs/warp-specialize.md).

    Args:
        capacity: the number of slots, a positive compile-time int.
        scope: ``"cta"``, the only scope supported.
        name: the pipe's name in messages and IR, an identifier.
        readers: the reader names: ``"a"``, ``"a, b"`` or a tuple of names
            (unique identifiers; default one reader, ``"reader"``).
        one_shot: a compile-time bool (see above); a one-shot pipe cannot be
            closed.
        **fields: one keyword per field of a slot: ``name=([shape], dtype)``
            (the pipe allocates ``[capacity] + shape`` in shared memory) or
            ``name=buf`` with ``buf = tle.gpu.alloc([capacity, ...], ...)``
            (rank >= 2, dim 0 == ``capacity``). A keyword that is neither and
            resembles a parameter (``readrs=``) is an error with "did you mean".

    Returns:
        A pipe (below): ``pipe.writer()`` and ``pipe.reader(name)`` give the
        endpoints the partitions use; ``slot["field"]`` is a field's
        shared-memory view in the slot (use it with ``tle.gpu.local_load`` /
        ``local_store``, ``tle.gpu.copy``, as a ``tl.dot`` operand, or
        through ``tle.gpu.local_ptr(slot.field[, indices])`` as FlagTree's
        kernels do: loads and stores of the whole slot, masked stores
        included, stay shared-memory accesses; a field also taken by indexed
        pointers becomes a pointer buffer, which a TMA fill cannot write;
        docs/warp-specialize.md, "Local pointers into slots").

    Example::

        @triton.jit
        def producer(w, X, N: tl.constexpr):
            for i in range(4):
                slot = w.acquire()
                tle.gpu.local_store(slot["x"], tl.load(X + i * N + tl.arange(0, N)))
                w.commit(slot)
            w.close()

        @triton.jit
        def consumer(r, OUT, N: tl.constexpr):
            for i in range(4):
                slot, closed = r.wait()
                tl.store(OUT + i * N + tl.arange(0, N), tle.gpu.local_load(slot["x"]))
                r.release(slot)

        @triton.jit
        def kernel(X, OUT, N: tl.constexpr):
            p = tle.pipe(2, name="ring", x=([N], tl.float32))
            tle.gpu.warp_specialize([(consumer, (p.reader(), OUT, N)), (producer, (p.writer(), X, N))],
                                    worker_num_warps=[4])
    """
    capacity, name, readers, one_shot = _sem.pipe_arguments(capacity, scope, name, readers, one_shot, fields,
                                                            _semantic)
    specs, handles = _sem.pipe_fields(capacity, fields, _semantic)
    ptype = pipe_type(name, capacity, specs, readers, one_shot)
    return pipe_value(_sem.create_pipe(ptype, handles, _semantic), ptype)


class pipe_value(tlc.base_value):
    """A pipe (``tle.pipe``'s result): hands out its endpoints
    (FlagTree's ``tle.pipe_value``). Kernels get one from ``tle.pipe``, not
    from the constructor.

    Args:
        handle: the IR value of the pipe.
        type: its ``pipe_type`` (capacity, fields, readers).

    Example::

        p = tle.pipe(2, x=([64], tl.float32))          # a tle.pipe_value
        w, r = p.writer(), p.reader()                  # a tle.pipe_writer, a tle.pipe_reader
        slot = w.acquire()                             # a tle.pipe_slot
        tle.gpu.local_store(slot["x"], tl.load(X + tl.arange(0, 64)))
        w.commit(slot)
        got = r.wait()                                 # a tle.pipe_wait_result
        vals = tle.gpu.local_load(got.slot["x"])
        r.release(got.slot)
    """

    def __init__(self, handle, type: pipe_type):
        self.handle = handle
        self.type = type

    def _flatten_ir(self, handles) -> None:
        # A loop in the pipe's scope carries it as its handle (Triton
        # flattens the values live across a loop); a call does not take a
        # pipe: pipe_type.mangle refuses it at the call.
        handles.append(self.handle)

    @tlc.builtin
    def cursor(self, iter=0, _semantic=None):
        """The position of iteration ``iter`` (an int or an integer scalar; default 0) in this pipe's ring:
        a ``pipe_cursor``, to give the endpoint ops and to advance."""
        return _cursor(self.type, iter, "pipe.cursor", _semantic)

    @tlc.builtin
    def writer(self, _semantic=None):
        """The writer endpoint: acquire / commit / close."""
        return pipe_writer(self.handle, endpoint_type(self.type))

    @tlc.builtin
    def reader(self, name=None, fields=None, _semantic=None):
        """The endpoint of reader ``name`` (may be omitted when the pipe has one reader): wait / release.

        ``fields``: None, or a tuple of field names (FlagTree's reader field subset): the slots this
        endpoint hands out show only those fields (it still waits for and releases whole slots)."""
        return pipe_reader(self.handle, endpoint_type(self.type, _sem.reader_name(self.type, name),
                                                      _sem.reader_fields(self.type, fields)))


class _endpoint(tlc.base_value):

    def __init__(self, handle, type: endpoint_type):
        self.handle = handle
        self.type = type

    def _flatten_ir(self, handles) -> None:
        handles.append(self.handle)

    def _check_slot(self, slot, what) -> "pipe_slot":
        slot = tlc._unwrap_if_constexpr(slot)
        _sem.check_slot(slot, slot.type.endpoint if isinstance(slot, pipe_slot) else None, self.type, what)
        return slot

    def _given(self, slot_or_at, what, _semantic):
        """The slot index a commit / release gives back: a slot's own, or the
        stage of a cursor or an iteration (FlagTree's ``commit(cursor)``)."""
        value = tlc._unwrap_if_constexpr(slot_or_at)
        if isinstance(value, pipe_slot):
            return self._check_slot(value, what).index
        if isinstance(value, (pipe_cursor, int, tlc.tensor)) and not isinstance(value, bool):
            return _position(self.type.pipe, value, what, _semantic)[0]
        return self._check_slot(value, what).index  # the error: not a slot

    def _at(self, at, what, _semantic):
        return None if tlc._unwrap_if_constexpr(at) is None else _position(self.type.pipe, at, what, _semantic)

    def _slot(self, index, _semantic):
        return pipe_slot(self.handle, index, slot_type(self.type, _semantic))

    @tlc.builtin
    def cursor(self, iter=0, _semantic=None):
        """``pipe.cursor(iter)``: the position of iteration ``iter`` in the ring."""
        return _cursor(self.type.pipe, iter, "cursor", _semantic)


class pipe_writer(_endpoint):
    """The writer of a pipe (``pipe.writer()``; FlagTree's
    ``tle.pipe_writer``): acquire, commit and close slots.

    Args:
        handle: the IR value of the pipe.
        type: its ``endpoint_type``.

    Example::

        w = p.writer()                                 # p = tle.pipe(2, x=([64], tl.float32))
        slot = w.acquire()
        tle.gpu.local_store(slot["x"], tl.load(X + tl.arange(0, 64)))
        w.commit(slot)
        w.close()
    """

    @tlc.builtin
    def acquire(self, at=None, _semantic=None):
        """Wait until the next slot is free (every reader released it) and return it.

        ``at``: a cursor or an iteration: take that position's slot instead of the next in ring order
        (FlagTree's ``writer.acquire(cursor)``; then commit and close take positions too).
        """
        pos = self._at(at, "pipe writer acquire", _semantic)
        return self._slot(_sem.writer_acquire(self.handle, pos, _semantic), _semantic)

    @tlc.builtin
    def commit(self, slot, _semantic=None):
        """Publish an acquired slot (or the slot of a cursor / iteration the writer acquired at): its field
        writes become visible and the readers wake up."""
        _sem.writer_commit(self.handle, self._given(slot, "pipe writer commit", _semantic), _semantic)

    @tlc.builtin
    def close(self, at=None, _semantic=None):
        """End the stream: a reader's wait after the last committed slot returns is_closed = True. A writer
        that acquires at cursors closes at the cursor after its last commit."""
        _sem.writer_close(self.type.pipe, self.handle, self._at(at, "pipe writer close", _semantic), _semantic)


class pipe_reader(_endpoint):
    """One reader of a pipe (``pipe.reader(name)``; FlagTree's
    ``tle.pipe_reader``): wait for and release slots.

    Args:
        handle: the IR value of the pipe.
        type: its ``endpoint_type`` (which reader, which fields).

    Example::

        r = p.reader()                                 # p = tle.pipe(2, x=([64], tl.float32))
        slot, closed = r.wait()
        vals = tle.gpu.local_load(slot["x"])
        r.release(slot)
    """

    @tlc.builtin
    def wait(self, at=None, _semantic=None):
        """Wait for the next committed slot; returns ``(slot, is_closed)`` (also ``.slot`` and
        ``.is_closed``).

        When ``is_closed`` is true the writer closed the pipe and the slot must not be used. ``at``: a
        cursor or an iteration: wait for that position's slot instead of the next in ring order (then
        release takes positions too).
        """
        pos = self._at(at, "pipe reader wait", _semantic)
        slot, closed = _sem.reader_wait(self.handle, self.type.reader, pos, _semantic)
        return _wait_result(self._slot(slot, _semantic), closed)

    @tlc.builtin
    def release(self, slot, _semantic=None):
        """Give a slot (or the slot of a cursor / iteration the reader waited at) back; the writer reuses it
        once every reader released it."""
        _sem.reader_release(self.handle, self.type.reader, self._given(slot, "pipe reader release", _semantic),
                            _semantic)


class pipe_slot(tlc.base_value):
    """A slot of a pipe: ``slot[field]`` (or ``slot.field(name)``) is that field's shared-memory view
    (FlagTree's ``tle.pipe_slot``). Endpoints hand slots out.

    Args:
        pipe_handle: the IR value of the pipe.
        index: the slot's index in the ring, an int32 scalar.
        type: its ``slot_type``.

    Example::

        slot = p.writer().acquire()                    # p = tle.pipe(2, x=([64], tl.float32))
        tle.gpu.local_store(slot["x"], vals)           # slot["x"]: the field's [64] view
    """

    def __init__(self, pipe_handle, index: tlc.tensor, type: slot_type):
        self.pipe_handle = pipe_handle
        self.index = index
        self.type = type

    def _flatten_ir(self, handles) -> None:
        handles.append(self.pipe_handle)
        handles.append(self.index.handle)

    @tlc.builtin
    def field(self, name, _semantic=None):
        """The slot's view of field ``name`` (a ``tle.gpu.buffered_tensor`` of the field's shape without dim 0);
        ``slot[name]`` is the same."""
        self.type.endpoint.check_field(tlc._unwrap_if_constexpr(name), "pipe slot field")
        return _sem.slot_field(self.pipe_handle, self.index, self.type.endpoint.pipe, name, _semantic)

    @tlc.builtin
    def __getitem__(self, name, _semantic=None):
        return self.field(name, _semantic=_semantic)

    def __getattr__(self, name):
        # slot.<field> (FlagTree's spelling): Triton passes attribute accesses
        # no semantic, so the one the slot was made with builds the view.
        # Only field names get here (methods and attributes come first).
        if name.startswith("_") or "type" not in self.__dict__:
            raise AttributeError(name)
        ptype = self.type.endpoint.pipe
        if not any(f[0] == name for f in ptype.fields):
            raise AttributeError(f"pipe slot has no attribute or field {name!r} (fields: "
                                 f"{[f[0] for f in ptype.fields]})")
        self.type.endpoint.check_field(name, f"slot.{name}")
        if self.type.semantic is None:
            raise TLEUsageError(f"slot.{name}: write slot[{name!r}] here (this slot came from outside the kernel's "
                                "builder)")
        return _sem.slot_field(self.pipe_handle, self.index, ptype, name, self.type.semantic)


@tlc.builtin
def warp_specialize(functions_and_args, worker_num_warps, worker_num_regs=None, _semantic=None, _generator=None):
    """Run functions concurrently on disjoint groups of warps.

    ``functions_and_args[0]`` is the default partition: it runs on the
    kernel's ``num_warps`` warps. Each further ``(fn, args)`` is a worker
    partition on ``worker_num_warps[i]`` warps (a power of two), optionally
    with a per-thread register budget ``worker_num_regs[i]`` (a multiple of 8
    in [24, 256]; Hopper ``setmaxnreg``). Functions are ``@triton.jit``
    functions; they share data through ``tle.pipe`` endpoints and shared
    buffers.

    Returns what the default function returns: nothing, a tensor (block or
    scalar) or a (nested) tuple of tensors, like Gluon's ``warp_specialize``.
    Code using the results runs after every partition has finished, when the
    pipes' slots are dead, so Triton can reuse their shared memory (e.g. for
    an epilogue's layout conversions). Workers return nothing.

    Args:
        functions_and_args: a list of at least two ``(fn, args)`` pairs:
            ``fn`` a ``@triton.jit`` function, ``args`` a tuple of its
            arguments (pipe endpoints, buffers, tensors, constexprs). The
            first is the default partition, the rest workers.
        worker_num_warps: a compile-time list with one power-of-two warp
            count per worker.
        worker_num_regs: None (the partitions keep the kernel's register
            budget), or one compile-time int per worker, a multiple of 8 in
            ``[24, 256]`` (sm_90+). Warp specialization itself needs sm_80+.

    Returns:
        What the default partition's function returns (None, a tensor or a
        tuple of tensors).

    Example::

        @triton.jit
        def producer(w, X, N: tl.constexpr):
            slot = w.acquire()
            tle.gpu.local_store(slot["x"], tl.load(X + tl.arange(0, N)))
            w.commit(slot)
            w.close()

        @triton.jit
        def consumer(r, N: tl.constexpr):
            slot, closed = r.wait()
            total = tl.sum(tle.gpu.local_load(slot["x"]))
            r.release(slot)
            return total

        @triton.jit
        def kernel(X, OUT, N: tl.constexpr):
            p = tle.pipe(1, x=([N], tl.float32))
            total = tle.gpu.warp_specialize([(consumer, (p.reader(), N)), (producer, (p.writer(), X, N))],
                                            worker_num_warps=[1])
            tl.store(OUT, total)
    """
    return _sem.warp_specialize(functions_and_args, worker_num_warps, worker_num_regs, _semantic, _generator)
