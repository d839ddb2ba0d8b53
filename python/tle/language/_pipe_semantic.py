"""The semantics of ``tle.pipe`` and ``tle.gpu.warp_specialize``: argument
validation and IR building (the markers of docs/markers.md).

``pipe.py`` holds the user-facing builtins and types (a pipe, its endpoints
and slots); each builtin checks nothing itself and calls the function here
that validates its arguments and emits its markers, as Gluon's ``_core.py``
calls its ``_semantic.py``. This module deals in IR values (``tlc.tensor``)
and plain Python data and never builds the user-facing values: it does not
import ``pipe.py``.
"""

from __future__ import annotations

import difflib
import weakref

from triton import knobs
from triton.compiler.errors import CompilationError
from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, describe, traced_failure, unwrap
from .core import _require_capability, _require_enabled
from .buffers import (SHARED_ADDRESS_SPACE, _buffer, _const_shape, alloc_buffer, buffered_tensor,
                      buffered_tensor_type, memdesc_type, mlir_type, smem)

# The IR handle of a pipe, its endpoints and its slots.
PIPE_HANDLE = tlc.pointer_type(tlc.int8, SHARED_ADDRESS_SPACE)

PASS_ENDPOINTS = ("tle.pipe: pass a pipe's endpoints (pipe.writer(), pipe.reader(name)) to functions, "
                  "not the pipe itself")

# tle.pipe's own keyword parameters; any other keyword names a field.
_PIPE_PARAMETERS = ("capacity", "scope", "name", "readers", "one_shot")


def _identifier(name, what) -> str:
    name = tlc._unwrap_if_constexpr(name)
    if not isinstance(name, str) or not name.isidentifier():
        raise TLEUsageError(f"{what} must be an identifier string, got {describe(name)}")
    return name


def _quoted(names) -> str:
    return "[" + ", ".join(f'"{n}"' for n in names) + "]"


def _handle(handle) -> tlc.tensor:
    return tlc.tensor(handle, PIPE_HANDLE)


# --- tle.pipe


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


def pipe_arguments(capacity, scope, name, readers, one_shot, fields, _semantic):
    """``tle.pipe``'s parameters checked: ``(capacity, name, readers, one_shot)``
    as compile-time Python values; then TLE and the target are checked."""
    capacity = tlc._unwrap_if_constexpr(capacity)
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity <= 0:
        raise TLEUsageError(f"tle.pipe capacity must be a positive compile-time int, got {describe(capacity)}")
    scope = tlc._unwrap_if_constexpr(scope)
    if not isinstance(scope, str) or scope != "cta":
        raise TLEUsageError(f"tle.pipe scope must be \"cta\" (the only scope supported), got {describe(scope)}")
    # name=None (FlagTree's default): the pipe is called "pipe" in messages.
    name = "pipe" if tlc._unwrap_if_constexpr(name) is None else _identifier(name, "tle.pipe name")
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
    return capacity, name, readers, one_shot


def pipe_fields(capacity, fields, _semantic):
    """The field buffers of a pipe of ``capacity`` slots: ``(specs, handles)``,
    one ``(name, shape incl. dim 0, dtype, rank of the encoding's order)`` and
    one buffer handle per field. A ``(shape, dtype)`` field is allocated here."""
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
    return specs, handles


def create_pipe(ptype, handles, _semantic):
    """The ``pipe.create`` marker over the field buffers ``handles``: the pipe's handle.
    ``ptype`` is its ``pipe_type``."""
    attrs = {"name": f'"{ptype.name}"', "capacity": ("i32", ptype.capacity), "scope": '"cta"',
             "field_names": _quoted([f[0] for f in ptype.fields]), "readers": _quoted(ptype.readers),
             "one_shot": ptype.one_shot, "tle.marker.result_types": ("list", [ptype.mlir()])}
    (handle,) = _markers.emit("pipe.create", attrs, handles, [PIPE_HANDLE], _semantic=_semantic)
    return handle.handle


def reader_name(ptype, name) -> str:
    """The reader ``pipe.reader(name)`` names (None: the pipe's only reader)."""
    name = tlc._unwrap_if_constexpr(name)
    if name is None:
        if len(ptype.readers) != 1:
            raise TLEUsageError(f"pipe '{ptype.name}' has readers {list(ptype.readers)}; "
                                "name the one you want: pipe.reader(name)")
        name = ptype.readers[0]
    if not isinstance(name, str) or name not in ptype.readers:
        raise TLEUsageError(f"pipe '{ptype.name}' has no reader {describe(name)} (readers: "
                            f"{list(ptype.readers)}); pass one of them as pipe.reader(name)")
    return name


def reader_fields(ptype, fields):
    """``pipe.reader(name, fields=...)``: None, or the field names (unique,
    each the pipe's) a reader's slots show."""
    fields = unwrap(fields)
    if fields is None:
        return None
    if isinstance(fields, str):
        fields = [f.strip() for f in fields.split(",")]
    elif isinstance(fields, (list, tuple, tlc.tuple)):
        fields = [tlc._unwrap_if_constexpr(f) for f in fields]
    else:
        raise TLEUsageError(f"pipe.reader fields must be field names (a tuple of names, or \"a, b\"), got "
                            f"{describe(fields)}")
    if not fields:
        raise TLEUsageError("pipe.reader fields must name at least one field")
    for f in fields:
        ptype.field(f, "pipe.reader fields")
    if len(set(fields)) != len(fields):
        raise TLEUsageError(f"pipe.reader fields must be unique, got {fields}")
    return tuple(fields)


# --- endpoints and slots


def check_slot(slot, slot_endpoint, endpoint, what) -> None:
    """``slot`` may be committed / released by ``endpoint`` (an ``endpoint_type``):
    ``slot_endpoint`` is the endpoint type that handed it out, None when
    ``slot`` is not a slot at all."""
    if slot_endpoint is None:
        raise TLEUsageError(f"{what} expects a slot from this endpoint's "
                            f"{'wait' if endpoint.reader else 'acquire'}() (or the cursor / iteration it took the "
                            f"slot at), got {describe(slot)}")
    if slot_endpoint != endpoint:
        raise TLEUsageError(f"{what}: the slot was handed out by the {slot_endpoint!r}, not by this "
                            f"{endpoint!r}; release / commit only a slot you acquired or waited for")


# --- cursors (FlagTree's loop-carried pipe positions)


def position(ptype, at, what, _semantic):
    """``(stage, phase)``, an int32 and an int1 scalar, of position ``at`` in
    the ring of ``ptype``: a cursor's own values (``(capacity, stage, phase)``
    as ``cursor_parts`` gives them), or those of iteration ``at`` (an int or
    an integer scalar): stage ``at % capacity``, phase the parity of
    ``at // capacity``."""
    if isinstance(at, tuple):  # a cursor's parts
        capacity, stage, phase = at
        if capacity != ptype.capacity:
            raise TLEUsageError(f"{what}: the cursor is for a ring of {capacity} slots, pipe '{ptype.name}' has "
                                f"{ptype.capacity}; make it with this pipe's cursor()")
        return stage, phase
    at = tlc._unwrap_if_constexpr(at)
    cap = ptype.capacity
    if isinstance(at, bool) or not isinstance(at, (int, tlc.tensor)):
        raise TLEUsageError(f"{what} takes a cursor (pipe.cursor(i), cursor.advance()) or an iteration (an integer), "
                            f"got {describe(at)}")
    if isinstance(at, int):
        if at < 0:
            raise TLEUsageError(f"{what}: iteration {at} is negative")
        return _semantic.to_tensor(at % cap), _semantic.to_tensor(bool((at // cap) % 2))
    if at.type.is_block() or not at.dtype.is_int():
        raise TLEUsageError(f"{what}: an iteration must be an integer scalar, got {at.type}")
    at = at.to(tlc.int32, _semantic=_semantic)
    stage = at.__mod__(cap, _semantic=_semantic)
    phase = at.__floordiv__(cap, _semantic=_semantic).__and__(1, _semantic=_semantic).__ne__(
        0, _semantic=_semantic)
    return stage, phase


def advance(capacity, stage: tlc.tensor, phase: tlc.tensor, _semantic):
    """The next position after ``(stage, phase)``: no division, one compare."""
    nxt = stage.__add__(1, _semantic=_semantic)
    wrapped = nxt.__eq__(capacity, _semantic=_semantic)
    stage = _semantic.where(wrapped, _semantic.to_tensor(0), nxt)
    return stage.to(tlc.int32, _semantic=_semantic), phase.__xor__(wrapped, _semantic=_semantic)


def _positioned(operands, pos):
    """The marker operands and ``operandSegmentSizes`` of an op that takes a slot
    at ``pos`` (``(stage, phase)``) or, when None, the next one in ring order."""
    if pos is None:
        return operands, {"operandSegmentSizes": ("i32-array", [1, 0, 0])}
    return operands + list(pos), {"operandSegmentSizes": ("i32-array", [1, 1, 1])}


def writer_acquire(handle, pos, _semantic) -> tlc.tensor:
    """The index of the slot the writer acquires (``pipe.writer_acquire``), at
    position ``pos`` (``(stage, phase)``) or the next in ring order (None)."""
    operands, attrs = _positioned([_handle(handle)], pos)
    (slot,) = _markers.emit("pipe.writer_acquire", attrs, operands, [tlc.int32], _semantic=_semantic)
    return slot


def writer_commit(handle, index: tlc.tensor, _semantic) -> None:
    _markers.emit("pipe.writer_commit", {"tle.marker.no_results": True}, [_handle(handle), index],
                  [tlc.int32], _semantic=_semantic)


def writer_close(ptype, handle, pos, _semantic) -> None:
    if ptype.one_shot:
        raise TLEUsageError(f"pipe '{ptype.name}' is one_shot: its stream ends by itself; do not close it")
    operands, attrs = _positioned([_handle(handle)], pos)
    attrs["tle.marker.no_results"] = True
    _markers.emit("pipe.writer_close", attrs, operands, [tlc.int32], _semantic=_semantic)


def reader_wait(handle, reader: str, pos, _semantic):
    """``(slot index, is_closed)`` of reader ``reader``'s wait (``pipe.reader_wait``),
    at position ``pos`` or the next in ring order (None)."""
    operands, attrs = _positioned([_handle(handle)], pos)
    attrs["reader"] = f'"{reader}"'
    slot, closed = _markers.emit("pipe.reader_wait", attrs, operands, [tlc.int32, tlc.int1], _semantic=_semantic)
    return slot, closed


def reader_release(handle, reader: str, index: tlc.tensor, _semantic) -> None:
    _markers.emit("pipe.reader_release", {"reader": f'"{reader}"', "tle.marker.no_results": True},
                  [_handle(handle), index], [tlc.int32], _semantic=_semantic)


def slot_field(handle, index: tlc.tensor, ptype, name, _semantic) -> buffered_tensor:
    """Field ``name`` of slot ``index`` of the pipe ``handle`` (of type
    ``ptype``): a buffer of the field's shape without dim 0 (``pipe.slot``)."""
    name = tlc._unwrap_if_constexpr(name)
    shape, dtype, order_rank = ptype.field(name, "pipe slot field")
    view = tuple(shape[1:])
    view_ty = memdesc_type(view, dtype, order_rank)
    (field,) = _markers.emit(
        "pipe.slot", {"field": f'"{name}"', "tle.marker.result_types": ("list", [view_ty])},
        [_handle(handle), index], [buffered_tensor_type(view, dtype).handle_type()], _semantic=_semantic)
    return buffered_tensor(field.handle, buffered_tensor_type(view, dtype, smem))


# --- tle.gpu.warp_specialize


def _unwrap_shallow(value):
    """``value``'s constexpr payload, not recursing into lists and tuples."""
    return value.value if isinstance(value, tlc.constexpr) else value


def warp_specialize(functions_and_args, worker_num_warps, worker_num_regs, _semantic, _generator):
    """``tle.gpu.warp_specialize``: its arguments checked, then one region
    marker and ``scf.if`` per partition (docs/markers.md, "Regions"). Returns
    what the default partition returns."""
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
    group = _next_group(_generator.module)
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


# The last warp_specialize group id given out in each module being built.
# An id tells the markers of different warp_specialize calls apart, and
# triton-tle-raise-warp-specialize pairs them per function after Triton has
# inlined every call into the kernel: ids are counted per module (what all the
# @triton.jit functions of one compile build into), not per function. Weakly
# keyed: a module's count goes with the module, so compiles do not accumulate
# state and a later module cannot inherit a dead one's count.
_GROUPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _next_group(module) -> int:
    group = _GROUPS.get(module, -1) + 1
    _GROUPS[module] = group
    return group
