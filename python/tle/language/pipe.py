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
"""

from __future__ import annotations

import difflib

from triton import knobs
from triton.compiler.errors import CompilationError
from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe, traced_failure, unwrap
from .core import _require_capability, _require_enabled
from .buffers import (SHARED_ADDRESS_SPACE, _buffer, _const_shape, alloc_buffer, buffered_tensor,
                      buffered_tensor_type, memdesc_type, mlir_type, smem)

_PIPE_HANDLE = tlc.pointer_type(tlc.int8, SHARED_ADDRESS_SPACE)


def _identifier(name, what) -> str:
    name = tlc._unwrap_if_constexpr(name)
    if not isinstance(name, str) or not name.isidentifier():
        raise TLEUsageError(f"{what} must be an identifier string, got {describe(name)}")
    return name


def _quoted(names) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


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
        raise TLEUsageError(_PASS_ENDPOINTS)

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

    def __init__(self, pipe: pipe_type, reader=None):
        self.pipe = pipe
        self.reader = reader  # None: the writer

    def __eq__(self, other):
        return isinstance(other, endpoint_type) and (self.pipe, self.reader) == (other.pipe, other.reader)

    def __repr__(self):
        role = f"reader {self.reader!r}" if self.reader else "writer"
        return f"{role} of {self.pipe!r}"

    def mangle(self) -> str:
        return f"E{self.pipe.mangled_signature()}{'R' + self.reader if self.reader else 'W'}"

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_PIPE_HANDLE.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        cls = pipe_reader if self.reader else pipe_writer
        return cls(handles[cursor], self), cursor + 1


class slot_type(tlc.base_type):
    """A slot handed out by an endpoint (acquire / wait): its index in the ring."""

    def __init__(self, endpoint: endpoint_type):
        self.endpoint = endpoint

    def __eq__(self, other):
        return isinstance(other, slot_type) and self.endpoint == other.endpoint

    def __repr__(self):
        return f"slot of the {self.endpoint!r}"

    def mangle(self) -> str:
        return f"S{self.endpoint.mangle()}"

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_PIPE_HANDLE.to_ir(builder))
        out.append(tlc.int32.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        return pipe_slot(handles[cursor], tlc.tensor(handles[cursor + 1], tlc.int32), self), cursor + 2



_PASS_ENDPOINTS = ("tle.pipe: pass a pipe's endpoints (pipe.writer(), pipe.reader(name)) to functions, "
                   "not the pipe itself")


def _handle(value) -> tlc.tensor:
    return tlc.tensor(value.handle, _PIPE_HANDLE)


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
        shared-memory view in the slot (use it with ``tle.gpu.local_ptr``,
        ``local_load`` / ``local_store`` or ``tle.gpu.copy``).

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
    return pipe_value(capacity, scope, name, readers, one_shot, fields, _semantic)


# tle.pipe's own keyword parameters; any other keyword names a field.
_PIPE_PARAMETERS = ("capacity", "scope", "name", "readers", "one_shot")


def _check_field_keywords(fields) -> None:
    """A keyword that resembles a parameter and whose value cannot be a field
    (a buffer, or a (shape, dtype) pair) is a misspelled parameter, not a
    field: say which one it resembles."""
    for field, value in fields.items():
        value = unwrap(value)
        if isinstance(value, buffered_tensor):
            continue
        if isinstance(value, (tuple, list, tlc.tuple)) and len(value) == 2 and isinstance(
                tlc._unwrap_if_constexpr(value[1]), tlc.dtype):
            continue
        close = difflib.get_close_matches(field, _PIPE_PARAMETERS, n=1, cutoff=0.6)
        if close:  # (other non-fields get the field checks' own errors)
            raise TLEUsageError(f"tle.pipe got keyword {field!r} = {describe(value)}, which is not a parameter of "
                                f"tle.pipe ({', '.join(_PIPE_PARAMETERS)}) and not a field; did you mean "
                                f"{close[0]!r}? (a field is a buffer from tle.gpu.alloc or a (shape, dtype) pair)")


class pipe_value(tlc.base_value):
    """A pipe (``tle.pipe``'s result): hands out its endpoints."""

    def __init__(self, capacity, scope, name, readers, one_shot, fields, _semantic):
        capacity = tlc._unwrap_if_constexpr(capacity)
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity <= 0:
            raise TLEUsageError(f"tle.pipe capacity must be a positive compile-time int, got {describe(capacity)}")
        scope = tlc._unwrap_if_constexpr(scope)
        if not isinstance(scope, str) or scope != "cta":
            raise TLEUsageError(f"tle.pipe scope must be \"cta\" (the only scope supported), got {describe(scope)}")
        name = _identifier(name, "tle.pipe name")
        readers = unwrap(readers)
        if isinstance(readers, str):
            # Triton's frontend cannot build a list of strings inside a
            # kernel, so readers may be spelled "mma" or "mma, epilogue".
            readers = [r.strip() for r in readers.split(",")]
        elif isinstance(readers, (list, tuple, tlc.tuple)):
            readers = [tlc._unwrap_if_constexpr(r) for r in readers]
        elif readers is not None:
            raise TLEUsageError(f"tle.pipe readers must be reader names (\"a\", \"a, b\" or a tuple of names), "
                                f"got {describe(readers)}")
        readers = ["reader"] if readers is None else [_identifier(r, "tle.pipe reader name") for r in readers]
        if not readers:
            raise TLEUsageError("tle.pipe needs at least one reader")
        if len(set(readers)) != len(readers):
            raise TLEUsageError(f"tle.pipe reader names must be unique, got {readers}")
        one_shot = tlc._unwrap_if_constexpr(one_shot)
        if not isinstance(one_shot, (bool, int)):
            raise TLEUsageError(f"tle.pipe one_shot must be a compile-time bool, got {describe(one_shot)}")
        one_shot = bool(one_shot)
        _check_field_keywords(fields)
        _require_enabled("tle.pipe", _semantic)
        _require_capability("tle.pipe (mbarrier rings)", 80, _semantic)
        specs, handles = [], []
        for field, value in fields.items():
            _identifier(field, "tle.pipe field name")
            value = unwrap(value)
            if isinstance(value, (tuple, list, tlc.tuple)) and len(value) == 2 and not isinstance(
                    value[0], buffered_tensor):
                shape = _const_shape(value[0], f"tle.pipe field {field!r} shape")
                dtype = tlc._unwrap_if_constexpr(value[1])
                if not isinstance(dtype, tlc.dtype) or dtype.is_ptr() or isinstance(dtype, tlc.block_type):
                    raise TLEUsageError(f"tle.pipe field {field!r}: dtype must be a scalar triton dtype, got "
                                        f"{describe(dtype)}")
                mlir_type(dtype, f"tle.pipe field {field!r} dtype")
                # Laid out like one slot (Triton's multi-buffer convention).
                buf = alloc_buffer([capacity] + shape, dtype,
                                   memdesc_type([capacity] + shape, dtype, order_rank=len(shape)), _semantic)
                order_rank = len(shape)
            else:
                buf = _buffer(value, f"tle.pipe field {field!r}")
                if buf.remote_shard is not None:
                    raise TLEUsageError(f"tle.pipe field {field!r}: a remote buffer view cannot be a pipe field")
                order_rank = len(buf.type.shape)
            shape = tuple(buf.type.shape)
            if len(shape) < 2:
                raise TLEUsageError(f"tle.pipe field {field!r}: a field buffer has rank >= 2 (dim 0 indexes the "
                                    f"slot), got shape {list(shape)}")
            if shape[0] != capacity:
                raise TLEUsageError(f"tle.pipe field {field!r}: stage count mismatch: the buffer's dim 0 is "
                                    f"{shape[0]} but the pipe has capacity {capacity}")
            specs.append((field, shape, buf.type.dtype, order_rank))
            handles.append(tlc.tensor(buf.handle, buf.type.handle_type()))
        self.type = pipe_type(name, capacity, specs, readers, one_shot)
        attrs = {"name": f'"{name}"', "capacity": ("i32", capacity), "scope": '"cta"',
                 "field_names": _quoted([f[0] for f in specs]), "readers": _quoted(readers),
                 "one_shot": one_shot, "tle.marker.result_types": ("list", [self.type.mlir()])}
        (handle,) = _markers.emit("pipe.create", attrs, handles, [_PIPE_HANDLE], _semantic=_semantic)
        self.handle = handle.handle

    def _flatten_ir(self, handles) -> None:
        raise TLEUsageError(_PASS_ENDPOINTS)

    @tlc.builtin
    def writer(self, _semantic=None):
        """The writer endpoint: acquire / commit / close."""
        return pipe_writer(self.handle, endpoint_type(self.type))

    @tlc.builtin
    def reader(self, name=None, _semantic=None):
        """The endpoint of reader ``name`` (may be omitted when the pipe has one reader): wait / release."""
        name = tlc._unwrap_if_constexpr(name)
        if name is None:
            if len(self.type.readers) != 1:
                raise TLEUsageError(f"pipe '{self.type.name}' has readers {list(self.type.readers)}; "
                                    "name the one you want: pipe.reader(name)")
            name = self.type.readers[0]
        if not isinstance(name, str) or name not in self.type.readers:
            raise TLEUsageError(f"pipe '{self.type.name}' has no reader {describe(name)} (readers: "
                                f"{list(self.type.readers)}); pass one of them as pipe.reader(name)")
        return pipe_reader(self.handle, endpoint_type(self.type, name))


class _endpoint(tlc.base_value):

    def __init__(self, handle, type: endpoint_type):
        self.handle = handle
        self.type = type

    def _flatten_ir(self, handles) -> None:
        handles.append(self.handle)

    def _check_slot(self, slot, what) -> "pipe_slot":
        slot = tlc._unwrap_if_constexpr(slot)
        if not isinstance(slot, pipe_slot):
            raise TLEUsageError(f"{what} expects a slot from this endpoint's "
                                f"{'wait' if self.type.reader else 'acquire'}(), got {describe(slot)}")
        if slot.type.endpoint != self.type:
            raise TLEUsageError(f"{what}: the slot was handed out by the {slot.type.endpoint!r}, not by this "
                                f"{self.type!r}; release / commit only a slot you acquired or waited for")
        return slot


class pipe_writer(_endpoint):
    """The writer of a pipe (``pipe.writer()``)."""

    @tlc.builtin
    def acquire(self, _semantic=None):
        """Wait until the next slot is free (every reader released it) and return it."""
        (slot,) = _markers.emit("pipe.writer_acquire", {}, [_handle(self)], [tlc.int32], _semantic=_semantic)
        return pipe_slot(self.handle, slot, slot_type(self.type))

    @tlc.builtin
    def commit(self, slot, _semantic=None):
        """Publish an acquired slot: its field writes become visible and the readers wake up."""
        slot = self._check_slot(slot, "pipe writer commit")
        _markers.emit("pipe.writer_commit", {"tle.marker.no_results": True}, [_handle(self), slot.index],
                      [tlc.int32], _semantic=_semantic)

    @tlc.builtin
    def close(self, _semantic=None):
        """End the stream: a reader's wait after the last committed slot returns is_closed = True."""
        if self.type.pipe.one_shot:
            raise TLEUsageError(f"pipe '{self.type.pipe.name}' is one_shot: its stream ends by itself; "
                                "do not close it")
        _markers.emit("pipe.writer_close", {"tle.marker.no_results": True}, [_handle(self)], [tlc.int32],
                      _semantic=_semantic)


class pipe_reader(_endpoint):
    """One reader of a pipe (``pipe.reader(name)``)."""

    @tlc.builtin
    def wait(self, _semantic=None):
        """Wait for the next committed slot; returns ``(slot, is_closed)``.

        When ``is_closed`` is true the writer closed the pipe and the slot must not be used.
        """
        slot, closed = _markers.emit("pipe.reader_wait", {"reader": f'"{self.type.reader}"'}, [_handle(self)],
                                     [tlc.int32, tlc.int1], _semantic=_semantic)
        return tlc.tuple([pipe_slot(self.handle, slot, slot_type(self.type)), closed])

    @tlc.builtin
    def release(self, slot, _semantic=None):
        """Give a slot back; the writer reuses it once every reader released it."""
        slot = self._check_slot(slot, "pipe reader release")
        _markers.emit("pipe.reader_release", {"reader": f'"{self.type.reader}"', "tle.marker.no_results": True},
                      [_handle(self), slot.index], [tlc.int32], _semantic=_semantic)


class pipe_slot(tlc.base_value):
    """A slot of a pipe: ``slot[field]`` (or ``slot.field(name)``) is that field's shared-memory view."""

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
        name = tlc._unwrap_if_constexpr(name)
        pt = self.type.endpoint.pipe
        shape, dtype, order_rank = pt.field(name, "pipe slot field")
        view = tuple(shape[1:])
        view_ty = memdesc_type(view, dtype, order_rank)
        (handle,) = _markers.emit(
            "pipe.slot", {"field": f'"{name}"', "tle.marker.result_types": ("list", [view_ty])},
            [tlc.tensor(self.pipe_handle, _PIPE_HANDLE), self.index],
            [buffered_tensor_type(view, dtype).handle_type()], _semantic=_semantic)
        return buffered_tensor(handle.handle, buffered_tensor_type(view, dtype, smem))

    @tlc.builtin
    def __getitem__(self, name, _semantic=None):
        return self.field(name, _semantic=_semantic)


def _unwrap_shallow(value):
    """``value``'s constexpr payload, not recursing into lists and tuples."""
    return value.value if isinstance(value, tlc.constexpr) else value


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
    # Unwrapped one level at a time: Triton's recursive unwrap rebuilds a
    # tl.tuple from the raw values, which fails for constexpr arguments it
    # cannot type (a string); the arguments are passed on as they are.
    fns = _unwrap_shallow(functions_and_args)
    if not isinstance(fns, (list, tuple, tlc.tuple)) or len(fns) < 2:
        raise TLEUsageError("tle.gpu.warp_specialize expects a list of (function, args) pairs: the default "
                            "partition then at least one worker")
    pairs = []
    for i, item in enumerate(fns):
        item = _unwrap_shallow(item)
        if not isinstance(item, (tuple, list, tlc.tuple)) or len(item) != 2:
            raise TLEUsageError(f"tle.gpu.warp_specialize entry {i} must be a (function, args) pair")
        fn, args = (_unwrap_shallow(x) for x in item)
        if not hasattr(fn, "fn") or not callable(getattr(fn, "fn", None)):
            raise TLEUsageError(f"tle.gpu.warp_specialize entry {i}: {fn!r} is not a @triton.jit function")
        if not isinstance(args, (tuple, list, tlc.tuple)):
            raise TLEUsageError(f"tle.gpu.warp_specialize entry {i}: the arguments must be a tuple")
        pairs.append((fn, tuple(args)))

    def ints(values, what):
        values = tlc._unwrap_if_constexpr(values)
        if not isinstance(values, (list, tuple, tlc.tuple)):
            raise TLEUsageError(f"tle.gpu.warp_specialize {what} must be a list of ints")
        out = [tlc._unwrap_if_constexpr(v) for v in values]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in out):
            raise TLEUsageError(f"tle.gpu.warp_specialize {what} must be a list of compile-time ints, got {out}")
        return out

    warps = ints(worker_num_warps, "worker_num_warps")
    if len(warps) != len(pairs) - 1:
        raise TLEUsageError(f"tle.gpu.warp_specialize got {len(pairs) - 1} worker partitions but "
                            f"{len(warps)} worker_num_warps")
    for i, w in enumerate(warps):
        if w < 1 or w & (w - 1):
            raise TLEUsageError(f"tle.gpu.warp_specialize worker {i}: num_warps must be a power of two, got {w}")
    regs = None if tlc._unwrap_if_constexpr(worker_num_regs) is None else ints(worker_num_regs, "worker_num_regs")
    if regs is not None:
        if len(regs) != len(warps):
            raise TLEUsageError(f"tle.gpu.warp_specialize got {len(warps)} workers but {len(regs)} worker_num_regs")
        for i, r in enumerate(regs):
            if r < 24 or r > 256 or r % 8:
                raise TLEUsageError(f"tle.gpu.warp_specialize worker {i}: num_regs must be a multiple of 8 in "
                                    f"[24, 256], got {r}")
    _require_enabled("tle.gpu.warp_specialize", _semantic)
    _require_capability("tle.gpu.warp_specialize", 80, _semantic)
    if regs is not None:
        _require_capability("tle.gpu.warp_specialize worker_num_regs (register reallocation, setmaxnreg)", 90,
                            _semantic, "leave worker_num_regs out: the partitions then keep the kernel's "
                            "register budget")

    builder = _semantic.builder
    group = _next_group(builder)
    results = None
    for index, (fn, args) in enumerate(pairs):
        attrs = {"tle.marker.partition": ("i32", index), "tle.marker.group": ("i32", group)}
        if index == 0:
            attrs["partition_num_warps"] = ("i32-array", warps)
            if regs is not None:
                attrs["partition_num_regs"] = ("i32-array", regs)
        (cond,) = _markers.emit("warp_specialize", attrs, [], [tlc.int1], _semantic=_semantic)
        if index == 0:
            results = _default_partition(fn, args, cond, _semantic, _generator)
            continue
        if_op = builder.create_if_op([], cond.handle, False)
        ip = builder.get_insertion_point()
        # create_if_op gave the then-block its scf.yield: the body goes before it.
        builder.set_insertion_point_to_start(if_op.get_then_block())
        result = _call_partition(fn, args, index, _generator)
        builder.restore_insertion_point(ip)
        if result is not None and not (isinstance(result, tlc.tuple) and len(result.values) == 0):
            raise TLEUsageError(f"tle.gpu.warp_specialize: partition {index} ({fn.__name__}) is a worker and "
                                "returns a value; only the default partition (the first function) returns "
                                "values (store a worker's results to memory or send them through a tle.pipe)")
    return results


def _call_partition(fn, args, index, _generator):
    """``fn(*args)`` traced into the kernel as partition ``index``. A failure
    inside it (or inside a function it calls) is a TLEUsageError carrying
    the failure's own message and lines, which Triton reports at the
    ``warp_specialize`` call: Triton's own wrapper of a failed call keeps
    only the caller's line in its message."""
    try:
        return _generator.call_JitFunction(fn, args, kwargs={})
    except CompilationError as e:
        if knobs.compilation.front_end_debugging:
            raise
        raise TLEUsageError(traced_failure(f"tle.gpu.warp_specialize: partition {index} ({fn.__name__})", e, fn)) \
            from e


def _default_partition(fn, args, cond, _semantic, _generator):
    """The default partition's ``scf.if`` (docs/markers.md, "Regions"): its
    then-branch calls ``fn`` and yields what it returns; the else branch,
    never taken, yields ``ub.poison``. Returns the ``scf.if``'s results in
    the shape of ``fn``'s return value (None when it returns nothing)."""
    builder = _semantic.builder
    ip = builder.get_insertion_point()
    # The body is generated into a block of its own, as Triton's `if` does:
    # the scf.if's result types are known only after the call.
    body = builder.create_block()
    result = _call_partition(fn, args, 0, _generator)
    if isinstance(result, tlc.tuple) and len(result.values) == 0:
        result = None
    values = [] if result is None else _flatten_results(result, fn)
    builder.restore_insertion_point(ip)
    if_op = builder.create_if_op([v.handle.get_type() for v in values], cond.handle, bool(values))
    body.merge_block_before(if_op.get_then_block())
    if values:
        builder.set_insertion_point_to_end(if_op.get_then_block())
        builder.create_yield_op([v.handle for v in values])
        builder.set_insertion_point_to_end(if_op.get_else_block())
        builder.create_yield_op([builder.create_poison(v.handle.get_type()) for v in values])
    builder.restore_insertion_point(ip)
    if result is None:
        return None
    handles = iter(if_op.get_result(i) for i in range(len(values)))
    return _unflatten_results(result, handles)


def _flatten_results(value, fn) -> list:
    if isinstance(value, tlc.tuple):
        return [t for v in value.values for t in _flatten_results(v, fn)]
    if isinstance(value, tlc.tensor):
        return [value]
    what = type(tlc._unwrap_if_constexpr(value)).__name__
    raise TLEUsageError(f"tle.gpu.warp_specialize: the default partition ({fn.__name__}) returns a {what}; it "
                        "may return tensors (block or scalar) or tuples of tensors")


def _unflatten_results(value, handles):
    if isinstance(value, tlc.tuple):
        return tlc.tuple([_unflatten_results(v, handles) for v in value.values])
    return tlc.tensor(next(handles), value.type)


_GROUPS = {}


def _next_group(builder) -> int:
    # One id per warp_specialize call in a kernel; it only has to tell the
    # markers of different calls apart.
    key = id(builder)
    _GROUPS[key] = _GROUPS.get(key, -1) + 1
    return _GROUPS[key]
