"""TLE's primitives under Triton's interpreter (``TRITON_INTERPRET=1``).

Triton's interpreter runs a kernel's programs one after another on the host,
each op on the whole block at once, with numpy. TLE's primitives reach it the
way they reach the compiler: the public function validates its arguments and
emits markers (docs/markers.md); under the interpreter ``_markers.emit`` hands
each marker to ``run`` here instead of building IR. A buffer is host memory and
its handle that memory's address, so the pointers ``tle.gpu.local_ptr`` builds
are host addresses that the interpreter's own ``tl.load`` / ``tl.store`` read
and write. docs/interpreter.md says what runs and how it differs from a GPU.

Semantics: every op completes for the whole program before the next starts,
so a CTA barrier is implied between any two accesses (the barriers TLE inserts
on the GPU are not needed, and a missing one cannot be seen here). A fresh
buffer holds all-ones bytes (NaN for floats, -1 for signed integers), not
zeros, so a read before the first write shows. A program's buffers are freed
when the next program starts.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import re

from triton import knobs
from triton.language import core as tlc

from ._errors import TLEUsageError

# What runs here (the public names); docs/interpreter.md lists the same.
SUPPORTED = ("tle.gpu.alloc", "tle.gpu.local_ptr", "tle.gpu.local_load", "tle.gpu.local_store",
             "buffered_tensor.load / store / slot",
             "tle.gpu.copy (synchronous, and is_async=True into a buffer: it lands at once)",
             "tle.gpu.async_commit_group / async_wait_group", "tle.gpu.memory_space", "tle.cumsum", "tl.atomic_* on local pointers",
             "tle.range / tle.gpu.pipeline / tle.gpu.range / tle.pipeline_group", "mbarriers and named barriers",
             "tle.gpu.copy(..., barrier=)", "asynchronous TMA stores", "tle.load(is_async=True)",
             "tle.gpu.wgmma (fp16, bf16) / wgmma_wait / memdesc_wgmma_view")

_primitive = contextvars.ContextVar("tle_interpret_primitive", default=None)


def enabled() -> bool:
    """Whether kernels run under Triton's interpreter (``TRITON_INTERPRET=1``)."""
    return bool(knobs.runtime.interpret)


def running() -> bool:
    """Whether an interpreted kernel is running now: Triton's interpreter
    gives tensors ``__index__`` for the length of a launch (and takes it back
    after), so a TLE primitive called from plain Python still gets its
    "inside a kernel" error."""
    return enabled() and "__index__" in vars(tlc.tensor)


def active(_semantic) -> bool:
    """Whether ``_semantic`` is the interpreter's (no IR is being built)."""
    builder = getattr(_semantic, "builder", None)
    return builder is not None and type(builder).__name__ == "InterpreterBuilder"


def semantic():
    """The interpreter's semantic object, which Triton passes its own builtins."""
    from triton.runtime import interpreter
    _install_program_hook(interpreter.interpreter_builder)
    return interpreter.interpreter_semantic


@contextlib.contextmanager
def primitive(name: str):
    """Marks the public primitive being run, for the messages of ``run``."""
    token = _primitive.set(name)
    try:
        yield
    finally:
        _primitive.reset(token)


# ---------------------------------------------------------------------------
# Buffers: host memory, freed when the next program starts


class _Allocation:

    def __init__(self, nbytes: int):
        import numpy as np
        self.array = np.full(max(nbytes, 1), 0xFF, dtype=np.uint8)
        self.base = int(self.array.ctypes.data)
        self.nbytes = nbytes


_live: list[_Allocation] = []
# mbarriers of the running program, by (handle address, index).
_barriers: dict[tuple[int, int], "_Barrier"] = {}


class _Barrier:
    """An mbarrier's state: ``completed`` phases, arrivals still ``pending`` in
    the current phase (of ``count``), transaction bytes still expected."""

    def __init__(self, count: int, ready: bool):
        self.count = self.pending = count
        self.tx = 0
        self.completed = 1 if ready else 0  # READY: phase 0 is complete at once

    def arrive(self, count: int = 1, expect_tx: int = 0) -> None:
        self.pending -= count
        self.tx += expect_tx
        if self.pending < 0:
            raise TLEUsageError(f"{_name()}: {count} arrival(s) on an mbarrier whose phase "
                                f"{self.completed} expects {self.count} in all: more arrivals than its arrive_count")
        if self.pending == 0 and self.tx <= 0:
            self.completed += 1
            self.pending, self.tx = self.count, 0

    def done(self, phase: int) -> bool:
        """Whether a wait on ``phase`` returns: mbarrier.try_wait.parity's rule
        (the phase of that parity before the current one has completed)."""
        return (self.completed - phase) % 2 == 1


def _install_program_hook(builder) -> None:
    """Frees the buffers of a program when the interpreter starts the next
    (it runs programs one after another, calling ``set_grid_idx`` before
    each), and checks the loads and stores through shared-memory pointers
    (address space 3: ``tle.gpu.local_ptr``'s) against the live buffers: on
    the host an access outside them would corrupt the process."""
    if getattr(builder, "_tle_program_hook", False):
        return
    start, load, store = builder.set_grid_idx, builder.create_masked_load, builder.create_masked_store

    def set_grid_idx(x, y, z):
        _live.clear()
        _barriers.clear()
        return start(x, y, z)

    def create_masked_load(ptrs, mask, *args, **kwargs):
        _check_access(ptrs, mask, "tl.load")
        return load(ptrs, mask, *args, **kwargs)

    def create_masked_store(ptrs, value, mask, *args, **kwargs):
        _check_access(ptrs, mask, "tl.store")
        return store(ptrs, value, mask, *args, **kwargs)

    rmw, cas = builder.create_atomic_rmw, builder.create_atomic_cas

    def create_atomic_rmw(op, ptrs, value, mask, *args, **kwargs):
        _check_access(ptrs, mask, "an atomic")
        return rmw(op, ptrs, value, mask, *args, **kwargs)

    def create_atomic_cas(ptrs, cmp, value, *args, **kwargs):
        _check_access(ptrs, None, "an atomic compare-and-swap")
        return cas(ptrs, cmp, value, *args, **kwargs)

    builder.set_grid_idx = set_grid_idx
    builder.create_masked_load = create_masked_load
    builder.create_masked_store = create_masked_store
    builder.create_atomic_rmw = create_atomic_rmw
    builder.create_atomic_cas = create_atomic_cas
    builder._tle_program_hook = True


def _check_access(ptrs, mask, what: str) -> None:
    dtype = ptrs.dtype
    if not isinstance(dtype, tlc.pointer_type) or dtype.address_space != 3:
        return
    import numpy as np
    size = _np_dtype(dtype.element_ty).itemsize
    addrs = np.asarray(ptrs.data, dtype=np.uint64)
    on = np.ones(addrs.shape, dtype=bool) if mask is None else np.broadcast_to(np.asarray(mask.data, dtype=bool),
                                                                                  addrs.shape)
    inside = np.zeros(addrs.shape, dtype=bool)
    for a in _live:
        inside |= (addrs >= a.base) & (addrs + size <= a.base + a.nbytes)
    bad = on & ~inside
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise TLEUsageError(f"{what} through tle.gpu.local_ptr pointers: {int(bad.sum())} of {int(on.sum())} "
                            f"accessed elements fall outside every live TLE buffer (the first at block index "
                            f"{first}); on a GPU this reads or writes other shared memory")


def _allocation(address: int, nbytes: int) -> _Allocation:
    for a in _live:
        if a.base <= address and address + nbytes <= a.base + a.nbytes:
            return a
    raise TLEUsageError(f"{_name()}: {nbytes} bytes at {address:#x} are not inside a live TLE buffer "
                        "(a buffer lives until its program ends)")


def _view(address: int, count: int, dtype):
    """``count`` elements of triton dtype ``dtype`` at ``address``, as a writable numpy view."""
    np_dtype = _np_dtype(dtype)
    a = _allocation(address, count * np_dtype.itemsize)
    offset = address - a.base
    return a.array[offset:offset + count * np_dtype.itemsize].view(np_dtype)


def _np_dtype(dtype):
    from triton.runtime.interpreter import _get_np_dtype
    import numpy as np
    return np.dtype(_get_np_dtype(dtype))


# ---------------------------------------------------------------------------
# Markers


def _name() -> str:
    return _primitive.get() or "a TLE primitive"


def _handle(data, dtype):
    from triton.runtime.interpreter import TensorHandle
    return TensorHandle(data, dtype)


def _scalar(value) -> int:
    """A value's first element as an int: a scalar, a buffer handle splat over
    a block (its address), a buffer's or barrier array's handle."""
    return int(value.handle.data.reshape(-1)[0])


def _address_handle(address: int, dtype):
    """A buffer or barrier handle under the interpreter: its host address."""
    import numpy as np
    return _handle(np.array([address], dtype=np.uint64), dtype)


def _write(value: tlc.tensor, handle: tlc.tensor) -> None:
    """``value``'s elements into the buffer at ``handle``, row-major."""
    view = _view(_scalar(handle), value.handle.data.size, value.dtype)
    view[:] = value.handle.data.reshape(-1).astype(view.dtype)


def _memdesc_shape(attrs) -> list[int]:
    kind, types = attrs["tle.marker.result_types"]
    found = re.match(r"!ttg\.memdesc<((?:\d+x)+)", types[0])
    return [int(d) for d in found.group(1).rstrip("x").split("x")]


def _alloc(attrs, operands, types, extra):
    shape = _memdesc_shape(attrs)
    element = types[0].element_ty
    a = _Allocation(math.prod(shape) * _np_dtype(element).itemsize)
    _live.append(a)
    return [_address_handle(a.base, types[0])]


def _alloc_alias(attrs, operands, types, extra):
    shape = _memdesc_shape(attrs)
    base = _scalar(operands[0])
    _allocation(base, math.prod(shape) * _np_dtype(types[0].element_ty).itemsize)
    return [_address_handle(base, types[0])]


def _buffer_slot(attrs, operands, types, extra):
    """``buf.slot(i)``: the i-th ``shape[1:]`` block of the buffer, row-major
    (an index outside the buffer is the out-of-bounds error)."""
    view = _memdesc_shape(attrs)
    nbytes = math.prod(view) * _np_dtype(types[0].element_ty).itemsize
    address = _scalar(operands[0]) + _scalar(operands[1]) * nbytes
    _allocation(address, nbytes)
    return [_address_handle(address, types[0])]


def _local_pointers(attrs, operands, types, extra):
    import numpy as np
    element = types[0].scalar.element_ty
    base = _scalar(operands[0])
    shape = list(extra["buffer_shape"])
    indices = [v.handle.data.astype(np.int64) for v in operands[1:]]
    if not indices:  # the whole buffer, in row-major order
        flat = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    else:
        flat = np.zeros(np.broadcast_shapes(*[i.shape for i in indices]), dtype=np.int64)
        stride = 1
        for index, size in zip(reversed(indices), reversed(shape)):
            flat = flat + index * stride
            stride *= size
    ptrs = (np.uint64(base) + (flat * _np_dtype(element).itemsize).astype(np.uint64)).astype(np.uint64)
    if types[0].is_block():
        ptrs = ptrs.reshape([int(d) for d in types[0].shape])
    else:
        ptrs = ptrs.reshape(1)
    return [_handle(ptrs, types[0].scalar)]


def _local_load(attrs, operands, types, extra):
    shape = [int(d) for d in types[0].shape]
    element = types[0].scalar
    view = _view(_scalar(operands[0]), math.prod(shape), element)
    return [_handle(view.copy().reshape(shape), element)]


def _local_store(attrs, operands, types, extra):
    _write(operands[0], operands[1])
    return _no_results(types)


def _copy(attrs, operands, types, extra):
    import numpy as np
    from triton.runtime.interpreter import _interpreter
    (handle_index,) = attrs["tle.marker.scalar_operands"][1]
    handle, ptrs = operands[handle_index], operands[1 - handle_index]
    element = ptrs.dtype.element_ty
    view = _view(_scalar(handle), ptrs.handle.data.size, element)
    mask = np.ones(ptrs.handle.data.shape, dtype=bool)
    if handle_index == 1:  # global -> buffer
        other = np.zeros(ptrs.handle.data.shape, dtype=view.dtype)
        view[:] = _interpreter.load(ptrs.handle.data, mask, other, view.dtype).reshape(-1)
    else:  # buffer -> global
        _interpreter.store(ptrs.handle.data, view.reshape(ptrs.handle.data.shape).copy(), mask)
    return _no_results(types)


def pick(value: tlc.tensor, axis: int) -> tlc.tensor:
    """A narrowed marker result: its first element along ``axis`` (what the
    pick reduce keeps on the GPU, where all are equal)."""
    import numpy as np
    shape = [int(d) for d in value.shape]
    data = np.take(value.handle.data, 0, axis=axis)
    del shape[axis]
    if not shape:
        return tlc.tensor(_handle(data.reshape(1), value.dtype), value.dtype)
    return tlc.tensor(_handle(data, value.dtype), tlc.block_type(value.dtype, shape))


def _exclusive_cumsum(attrs, operands, types, extra):
    import numpy as np
    axis, reverse = attrs["axis"][1], attrs["reverse"]
    element = types[0].scalar
    data = operands[0].handle.data.astype(_np_dtype(element))
    if reverse:
        data = np.flip(data, axis)
    inclusive = np.cumsum(data, axis=axis, dtype=data.dtype)
    zero = np.zeros_like(np.take(data, [0], axis=axis))
    exclusive = np.concatenate([zero, np.delete(inclusive, -1, axis=axis)], axis=axis)
    total = np.broadcast_to(np.take(inclusive, [-1], axis=axis), data.shape).copy()
    if reverse:
        exclusive = np.flip(exclusive, axis).copy()
    return [_handle(exclusive, element), _handle(total, element)]


def _no_results(types):
    import numpy as np
    out = []
    for t in types:
        shape = [int(d) for d in t.shape] if t.is_block() else [1]
        out.append(_handle(np.zeros(shape, dtype=_np_dtype(t.scalar)), t.scalar))
    return out


def _barrier(operands, first: int) -> "_Barrier":
    """The mbarrier that operands[first] (handle) and operands[first + 1] (index) name."""
    key = (_scalar(operands[first]), _scalar(operands[first + 1]))
    if key not in _barriers:
        raise TLEUsageError(f"{_name()}: not a live mbarrier (a barrier lives until its program ends)")
    return _barriers[key]


def _barrier_alloc(attrs, operands, types, extra):
    (n, _) = _memdesc_shape(attrs)
    a = _Allocation(8 * n)
    _live.append(a)
    for i in range(n):
        _barriers[(a.base, i)] = _Barrier(attrs["arrive_count"][1], "ready" in attrs)
    return [_address_handle(a.base, types[0])]


def _barrier_arrive(attrs, operands, types, extra):
    expect = int(attrs["expect_tx"].split(":")[0]) if "expect_tx" in attrs else 0
    _barrier(operands, 0).arrive(attrs["count"][1] if "count" in attrs else 1, expect)
    return _no_results(types)


def _barrier_wait(attrs, operands, types, extra):
    if "named" in attrs:  # a named barrier: one program's threads run as one
        return _no_results(types)
    bar, phase = _barrier(operands, 0), _scalar(operands[2])
    if not bar.done(phase):
        raise TLEUsageError(f"{_name()}: waits on phase {phase} of an mbarrier that has completed {bar.completed} "
                            f"phase(s) with {bar.count - bar.pending} of {bar.count} arrivals in the current one: "
                            "with one program running at a time nothing else can arrive, so on a GPU this wait "
                            "would hang (or wait for a later phase)")
    return _no_results(types)


def _barrier_try_wait(attrs, operands, types, extra):
    import numpy as np
    done = _barrier(operands, 0).done(_scalar(operands[2]))
    return [_handle(np.array([done], dtype=bool), tlc.int1)]


def _async_load(attrs, operands, types, extra):
    """A TMA or cp.async copy into a buffer that completes on a barrier: the
    value (Triton's load, already run) lands at once, and the copy is the one
    arrival its barrier expects of it (docs/barriers.md)."""
    _write(operands[0], operands[1])
    _barrier(operands, 2).arrive()
    return _no_results(types)


def _async_load_value(attrs, operands, types, extra):
    """tle.load(is_async=True): a load like tl.load (masked-off elements read
    ``other``, else zero)."""
    import numpy as np
    from triton.runtime.interpreter import _interpreter
    _, has_mask, has_other = attrs["operandSegmentSizes"][1]
    ptrs = operands[0].handle.data
    element = types[0].scalar
    mask = operands[1].handle.data if has_mask else np.ones(ptrs.shape, dtype=bool)
    other = (operands[1 + has_mask].handle.data if has_other else np.zeros(ptrs.shape, dtype=_np_dtype(element)))
    return [_handle(_interpreter.load(ptrs, mask, other.astype(_np_dtype(element)), _np_dtype(element)), element)]


# A transposed memdesc_wgmma_view's handle: the buffer's address with this bit
# set (a view may only be passed to tle.gpu.wgmma, which reads it transposed).
_TRANSPOSED = 1 << 62


def wgmma_view_handle(buf, order, btype):
    """The handle of ``tle.gpu.memdesc_wgmma_view(buf, order)`` under the
    interpreter: the same buffer, its address tagged when the view is the
    transpose."""
    address = _scalar(buf)
    if tuple(order) == (1, 0):
        address |= _TRANSPOSED
    return _address_handle(address, btype.handle_type())


def _as_float32(data, dtype):
    import numpy as np
    if dtype == tlc.bfloat16:  # stored as its 16 bits
        return (data.astype(np.uint32) << 16).view(np.float32)
    if dtype in (tlc.float16, tlc.float32):
        return data.astype(np.float32)
    raise TLEUsageError(f"{_name()}: {dtype} operands do not run under Triton's interpreter (fp16 and bf16 do)")


def _operand_values(buf):
    """A wgmma operand buffer (or transposed view) as float32, [rows, cols] as wgmma reads it."""
    address = _scalar(buf)
    rows, cols = (int(d) for d in buf.type.shape)
    if address & _TRANSPOSED:
        data = _view(address & ~_TRANSPOSED, rows * cols, buf.type.dtype).reshape(cols, rows).T
    else:
        data = _view(address, rows * cols, buf.type.dtype).reshape(rows, cols)
    return _as_float32(data, buf.type.dtype)


def wgmma(a, b, acc, registers: bool):
    """``tle.gpu.wgmma`` under the interpreter: ``acc + a @ b`` in float32, complete
    at once (``wgmma_wait`` has nothing left to wait for)."""
    left = _as_float32(a.handle.data, a.dtype) if registers else _operand_values(a)
    total = acc.handle.data.astype("float32") + left @ _operand_values(b)
    return tlc.tensor(_handle(total.astype("float32"), tlc.float32), acc.type)


def _nothing(attrs, operands, types, extra):
    """Ordering a GPU needs that one program at a time already has."""
    return _no_results(types)


_RUN = {
    "alloc": _alloc,
    "alloc_alias": _alloc_alias,
    "buffer_slot": _buffer_slot,
    "local_pointers": _local_pointers,
    "local_load": _local_load,
    "local_store": _local_store,
    "copy": _copy,
    "exclusive_cumsum": _exclusive_cumsum,
    "barrier_alloc": _barrier_alloc,
    "barrier_arrive": _barrier_arrive,
    "barrier_wait": _barrier_wait,
    "barrier_try_wait": _barrier_try_wait,
    "async_load": _async_load_value,
    "async_tma_load": _async_load,
    "async_copy_load": _async_load,
    "async_tma_store": _nothing,  # Triton's descriptor store already ran
    "tma_store_wait": _nothing,
    "tma_load_cache_hint": _nothing,  # an L2 hint: nothing to do on the host
    "async_commit_group": _nothing,  # the interpreter's async copies land at once
    "async_wait_group": _nothing,
    "wgmma_shared_operand_fence": _nothing,
    "named_barrier_sync": _nothing,  # one program's threads all take part
    "named_barrier_arrive": _nothing,
}


def run(op: str, attrs, operands, result_types, extra) -> list:
    """The results of marker ``tle.<op>`` (interpreter TensorHandles, one per
    result type) computed on the host; a TLEUsageError naming the primitive
    for a marker the interpreter does not run."""
    fn = _RUN.get(op)
    if fn is None:
        raise TLEUsageError(f"{_name()} does not run under Triton's interpreter (TRITON_INTERPRET=1): it needs "
                            f"the GPU (the tle.{op} marker). What runs there: {', '.join(SUPPORTED)}; "
                            "docs/interpreter.md")
    return fn(attrs, operands, result_types, extra or {})
