"""Explicit synchronization in ``tle.gpu``: mbarriers and named barriers.

FlagTree's names (its PRs #534 and #707): ``tle.gpu.alloc_barriers`` /
``alloc_barrier``, ``barrier_arrive``, ``barrier_wait`` and, for hardware
named barriers, ``tle.gpu.named_barrier``. A copy from a tensor descriptor
into a buffer completes on one of these barriers with
``tle.gpu.copy(desc, buf, shape, offsets, barrier=bars[i])``.

How they cross Triton and reach PTX is docs/barriers.md: markers raised to
``tle.barrier_*`` / ``tle.named_barrier_*`` ops, lowered by
``triton-tle-lower-barriers`` to Triton's mbarrier ops.
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe
from .buffers import SHARED_ADDRESS_SPACE
from .core import _require_capability, _require_enabled

# FlagTree's initial states of an mbarrier (alloc_barriers(init=...)).
PENDING = tlc.constexpr("pending")  # the first wait (phase 0) waits for the first phase's arrivals
READY = tlc.constexpr("ready")  # the first wait returns at once: a free slot's "empty" barrier

# An mbarrier counts at most 2^20 - 1 arrivals and transaction bytes a phase.
_MAX_COUNT = (1 << 20) - 1

_HANDLE = tlc.pointer_type(tlc.int64, SHARED_ADDRESS_SPACE)


def _barriers_memdesc(n: int) -> str:
    enc = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>"
    return f"!ttg.memdesc<{n}x1xi64, {enc}, #ttg.shared_memory, mutable>"


class barrier_type(tlc.base_type):
    """The type of every TLE barrier value (FlagTree's ``tle.gpu.barrier_type``):
    ``barrier_array_type``, ``mbarrier_type`` and ``named_barrier_type``
    derive from it, so ``isinstance(v.type, tle.gpu.barrier_type)`` holds
    for each.

    Example::

        bars = tle.gpu.alloc_barriers(2)   # bars.type is a tle.gpu.barrier_type
    """


class barrier(tlc.base_value):
    """Every TLE barrier value (FlagTree's ``tle.gpu.barrier``, which names an
    array of mbarriers and one of its slots alike): ``barrier_array``
    (``tle.gpu.alloc_barriers``), ``mbarrier`` (``bars[i]``,
    ``tle.gpu.alloc_barrier``) and ``named_barrier`` derive from it, so
    ``isinstance(v, tle.gpu.barrier)`` holds for each. Kernels get barriers
    from those functions, not from this class.

    Example::

        @triton.jit
        def k(OUT):
            bars = tle.gpu.alloc_barriers(2)   # isinstance(bars, tle.gpu.barrier)
            tle.gpu.barrier_arrive(bars[0])    # so is bars[0]
            tle.gpu.barrier_wait(bars[0], 0)
    """


class barrier_array_type(barrier_type):
    """The type of ``tle.gpu.alloc_barriers``' result: N mbarriers."""

    def __init__(self, num_barriers: int, arrive_count: int, ready: bool, expect_bytes=None):
        self.num_barriers = num_barriers
        self.arrive_count = arrive_count
        self.ready = ready
        self.expect_bytes = expect_bytes

    def _key(self):
        return (self.num_barriers, self.arrive_count, self.ready, self.expect_bytes)

    def __eq__(self, other):
        return isinstance(other, barrier_array_type) and self._key() == other._key()

    def __repr__(self):
        return (f"barriers<{self.num_barriers}, arrive_count={self.arrive_count}, "
                f"{'READY' if self.ready else 'PENDING'}>")

    def mangle(self) -> str:
        return f"MB{self.num_barriers}_{self.arrive_count}{'R' if self.ready else 'P'}{self.expect_bytes or 0}"

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_HANDLE.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        return barrier_array(handles[cursor], self), cursor + 1


class barrier_array(barrier):
    """N mbarriers in shared memory (``tle.gpu.alloc_barriers``' result).

    Index it (``bars[i]``, a compile-time or runtime integer) to get one
    barrier for ``barrier_arrive``, ``barrier_wait`` and ``copy(...,
    barrier=)``. Kernels get one from ``tle.gpu.alloc_barriers``, not from the
    constructor; it can be passed to ``@triton.jit`` functions and
    ``tle.gpu.warp_specialize`` partitions.

    Args:
        handle: the IR value of the barriers' buffer handle.
        type: its ``barrier_array_type``.

    Example::

        @triton.jit
        def k(OUT):
            bars = tle.gpu.alloc_barriers(2, arrive_count=1)   # a barrier_array
            tle.gpu.barrier_arrive(bars[1])
            tle.gpu.barrier_wait(bars[1], phaseIdx=0)
    """

    def __init__(self, handle, type: barrier_array_type):
        self.handle = handle
        self.type = type

    def _flatten_ir(self, handles) -> None:
        handles.append(self.handle)

    @builtin("tle.gpu barriers[index]")
    def __getitem__(self, index, _semantic=None, _generator=None):
        return mbarrier(self, _index(index, self.type.num_barriers, _semantic))

    def __repr__(self):
        return repr(self.type)


class mbarrier_type(barrier_type):
    """The type of one barrier of an array (``bars[i]``)."""

    def __init__(self, array: barrier_array_type):
        self.array = array

    def __eq__(self, other):
        return isinstance(other, mbarrier_type) and self.array == other.array

    def __repr__(self):
        return f"one of {self.array!r}"

    def mangle(self) -> str:
        return f"M{self.array.mangle()}"

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(_HANDLE.to_ir(builder))
        out.append(tlc.int32.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        array = barrier_array(handles[cursor], self.array)
        return mbarrier(array, tlc.tensor(handles[cursor + 1], tlc.int32)), cursor + 2


class mbarrier(barrier):
    """One mbarrier: an array and an int32 index into it (``bars[i]``).

    Args:
        array: the ``barrier_array``.
        index: an int32 scalar tensor.

    Example::

        bar = tle.gpu.alloc_barrier()          # an mbarrier (array of one, index 0)
        tle.gpu.barrier_arrive(bar)
        tle.gpu.barrier_wait(bar, 0)
    """

    def __init__(self, array: barrier_array, index: tlc.tensor):
        self.array = array
        self.index = index
        self.type = mbarrier_type(array.type)

    def _flatten_ir(self, handles) -> None:
        handles.append(self.array.handle)
        handles.append(self.index.handle)

    def __repr__(self):
        return repr(self.type)


class named_barrier(barrier):
    """A hardware named barrier: ``bar.sync`` / ``bar.arrive`` with an id and
    a thread count (FlagTree's named barriers; FA3's warpgroup ping-pong).

    ``tle.gpu.barrier_wait(nb)`` is ``bar.sync id, num_threads`` (arrive and
    wait until ``num_threads`` threads have arrived), ``tle.gpu.barrier_arrive(nb)``
    is ``bar.arrive id, num_threads`` (count towards them and go on).

    Args:
        id: a compile-time int, 1 to 15 (0 is ``__syncthreads``); inside a
            kernel with ``tle.gpu.warp_specialize`` of W worker partitions,
            above W + 2 (Triton uses the lower ids).
        num_threads: a compile-time multiple of 32, at most 1024: the threads
            of all ``barrier_wait`` and ``barrier_arrive`` calls that release
            one phase.

    Example::

        @triton.jit
        def k(X):
            nb = tle.gpu.named_barrier(5, 256)   # two warpgroups
            tle.gpu.barrier_wait(nb)             # bar.sync 5, 256
    """

    def __init__(self, id, num_threads):
        id = tlc._unwrap_if_constexpr(id)
        num_threads = tlc._unwrap_if_constexpr(num_threads)
        if isinstance(id, bool) or not isinstance(id, int) or not 1 <= id <= 15:
            raise TLEUsageError(f"tle.gpu.named_barrier id must be a compile-time int from 1 to 15 (0 is the "
                                f"CTA-wide barrier), got {describe(id)}")
        if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads <= 0 \
                or num_threads % 32 or num_threads > 1024:
            raise TLEUsageError(f"tle.gpu.named_barrier num_threads must be a compile-time multiple of 32 (whole "
                                f"warps), at most 1024, got {describe(num_threads)}")
        self.id = id
        self.num_threads = num_threads
        self.type = named_barrier_type(id, num_threads)

    def _flatten_ir(self, handles) -> None:
        pass

    def __repr__(self):
        return repr(self.type)


class named_barrier_type(barrier_type):
    """The type of a ``named_barrier`` (compile-time id and thread count)."""

    def __init__(self, id, num_threads):
        self.id = id
        self.num_threads = num_threads

    def __eq__(self, other):
        return isinstance(other, named_barrier_type) and (self.id, self.num_threads) == (other.id,
                                                                                          other.num_threads)

    def __repr__(self):
        return f"named_barrier<{self.id}, {self.num_threads}>"

    def mangle(self) -> str:
        return f"NB{self.id}_{self.num_threads}"

    def _flatten_ir_types(self, builder, out) -> None:
        pass

    def _unflatten_ir(self, handles, cursor):
        return named_barrier(self.id, self.num_threads), cursor


def _const_int(value, what, low, high=None):
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise TLEUsageError(f"{what} must be a compile-time int {bound}, got {describe(value)}")
    return value


def _index(index, n, _semantic) -> tlc.tensor:
    index = tlc._unwrap_if_constexpr(index)
    if isinstance(index, bool):
        raise TLEUsageError(f"a barrier index must be an integer, got {index!r}")
    if isinstance(index, int):
        if not 0 <= index < n:
            raise TLEUsageError(f"barrier index {index} is out of range for {n} barrier{'s' if n != 1 else ''}")
        return _semantic.to_tensor(index)
    if not isinstance(index, tlc.tensor) or index.type.is_block() or not index.dtype.is_int() \
            or index.dtype.is_int1():
        raise TLEUsageError(f"a barrier index must be an integer scalar, got {describe(index)}")
    if index.dtype != tlc.int32:
        index = _semantic.cast(index, tlc.int32)
    return index


def _phase(value, what, _semantic) -> tlc.tensor:
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, bool):
        raise TLEUsageError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise TLEUsageError(f"{what} must not be negative, got {value}")
        return _semantic.to_tensor(value & 1)
    if not isinstance(value, tlc.tensor) or value.type.is_block() or not value.dtype.is_int() \
            or value.dtype.is_int1():
        raise TLEUsageError(f"{what} must be an integer scalar (the barrier's use count), got {describe(value)}")
    if value.dtype != tlc.int32:
        value = _semantic.cast(value, tlc.int32)
    return value


def _one_barrier(bar, what) -> mbarrier:
    bar = tlc._unwrap_if_constexpr(bar)
    if isinstance(bar, barrier_array):
        if bar.type.num_barriers != 1:
            raise TLEUsageError(f"{what} takes one barrier: index the {bar.type.num_barriers} barriers "
                                "(bars[i])")
        raise TLEUsageError(f"{what} takes one barrier: index the array (bars[0])")
    if not isinstance(bar, mbarrier):
        raise TLEUsageError(f"{what} expects a barrier (tle.gpu.alloc_barriers(...)[i], tle.gpu.alloc_barrier() "
                            f"or tle.gpu.named_barrier(...)), got {describe(bar)}")
    return bar


@builtin("tle.gpu.alloc_barriers")
def alloc_barriers(num_barriers=1, arrive_count=1, init=PENDING, expect_bytes=None, _semantic=None,
                   _generator=None):
    """Allocate and initialize ``num_barriers`` mbarriers in shared memory.

    Each barrier completes a phase when ``arrive_count`` arrivals
    (``barrier_arrive``: one per thread group, i.e. per ``warp_specialize``
    partition or per kernel) and all the bytes announced by ``expect_tx``
    or by ``copy(..., barrier=)`` have come in; it then starts the next
    phase. ``barrier_wait(bars[i], phaseIdx=n)`` waits for the n-th phase
    (n = 0, 1, 2, ...: how often the barrier was used before).

    Args:
        num_barriers: a compile-time int >= 1.
        arrive_count: a compile-time int, 1 to 2^20 - 1: arrivals per phase.
        init: ``tle.gpu.PENDING`` (default: the first wait waits for the
            first phase) or ``tle.gpu.READY`` (the first wait, phaseIdx 0,
            returns at once: an "empty" barrier whose slot starts free).
        expect_bytes: None, or a compile-time int: the bytes one
            ``copy(..., barrier=)`` into these barriers must move (checked
            at each such copy; FlagTree's hint for the TMA transaction count).

    Returns:
        A ``tle.gpu.barrier_array``; ``bars[i]`` is one barrier.

    Example::

        @triton.jit
        def k(X, OUT, N: tl.constexpr):
            bars = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=1)
            tle.gpu.barrier_arrive(bars[0])
            tle.gpu.barrier_wait(bars[0], phaseIdx=0)   # phase 0 done: returns
    """
    n = _const_int(num_barriers, "tle.gpu.alloc_barriers num_barriers", 1)
    count = _const_int(arrive_count, "tle.gpu.alloc_barriers arrive_count", 1, _MAX_COUNT)
    init = tlc._unwrap_if_constexpr(init)
    if init not in ("ready", "pending"):
        raise TLEUsageError(f"tle.gpu.alloc_barriers init must be tle.gpu.READY or tle.gpu.PENDING, got "
                            f"{describe(init)}")
    expect = tlc._unwrap_if_constexpr(expect_bytes)
    if expect is not None:
        expect = _const_int(expect, "tle.gpu.alloc_barriers expect_bytes", 1, _MAX_COUNT)
    _require_enabled("tle.gpu.alloc_barriers", _semantic)
    _require_capability("tle.gpu.alloc_barriers (mbarriers)", 80, _semantic)
    btype = barrier_array_type(n, count, init == "ready", expect)
    attrs = {"arrive_count": ("i32", count)}
    if init == "ready":
        attrs["ready"] = "unit"
    attrs["tle.marker.result_types"] = ("list", [_barriers_memdesc(n)])
    # The marker's result is the barriers' handle: a pointer in shared memory.
    (handle,) = _markers.emit("barrier_alloc", attrs, [], [_HANDLE], _semantic=_semantic)
    return barrier_array(handle.handle, btype)


@builtin("tle.gpu.alloc_barrier")
def alloc_barrier(arrive_count=1, init=PENDING, expect_bytes=None, _semantic=None, _generator=None):
    """Allocate and initialize one mbarrier (``alloc_barriers(1, ...)[0]``).

    Args:
        arrive_count: as for ``alloc_barriers``.
        init: ``tle.gpu.PENDING`` or ``tle.gpu.READY``.
        expect_bytes: as for ``alloc_barriers``.

    Returns:
        A ``tle.gpu.mbarrier``.

    Example::

        bar = tle.gpu.alloc_barrier(arrive_count=2)
    """
    bars = alloc_barriers(1, arrive_count, init, expect_bytes, _semantic=_semantic, _generator=_generator)
    return mbarrier(bars, _semantic.to_tensor(0))


@builtin("tle.gpu.barrier_arrive")
def barrier_arrive(bar, arrive_count=None, phaseIdx=None, expect_tx=None, count=None, _semantic=None, _generator=None):
    """Arrive on a barrier.

    On an mbarrier (``bars[i]``): the calling thread group (all warps of the
    ``warp_specialize`` partition, or of the kernel) synchronizes its warps,
    then one thread arrives ``arrive_count`` times; ``expect_tx=B`` makes the
    arrival also expect B more bytes of asynchronous copies
    (``mbarrier.arrive.expect_tx``, sm_90), so the phase completes when
    they have landed. On a ``named_barrier``: ``bar.arrive id, num_threads``
    (every calling thread counts, none waits).

    Args:
        bar: one barrier (``bars[i]``, ``alloc_barrier()``) or a
            ``tle.gpu.named_barrier``.
        arrive_count: a compile-time int, 1 to 2^20 - 1 (mbarriers only;
            default 1). Second positionally, as in FlagTree's
            ``barrier_arrive(barr, arrive_count=1, phaseIdx=None)``.
        phaseIdx: None, or the barrier's use count (FlagTree passes the same
            value as the matching wait); not needed to arrive.
        count: the same as ``arrive_count`` (give one of the two).
        expect_tx: None, or a compile-time int of bytes, 1 to 2^20 - 1
            (mbarriers only).

    Returns:
        None.

    Example::

        tle.gpu.barrier_arrive(empty[slot], phaseIdx=use)   # give the slot back
    """
    bar = tlc._unwrap_if_constexpr(bar)
    arrive_count, count = tlc._unwrap_if_constexpr(arrive_count), tlc._unwrap_if_constexpr(count)
    if arrive_count is not None:
        if count is not None:
            raise TLEUsageError("tle.gpu.barrier_arrive takes arrive_count or count (the same thing), not both")
        count = arrive_count
    elif count is None:
        count = 1
    if isinstance(bar, named_barrier):
        if count != 1 or tlc._unwrap_if_constexpr(expect_tx) is not None:
            raise TLEUsageError("tle.gpu.barrier_arrive on a named barrier takes no count or expect_tx (its "
                                "thread count is the named barrier's)")
        _require_enabled("tle.gpu.barrier_arrive", _semantic)
        _named(bar, "named_barrier_arrive", _semantic)
        return
    bar = _one_barrier(bar, "tle.gpu.barrier_arrive")
    count = _const_int(count, "tle.gpu.barrier_arrive count", 1, _MAX_COUNT)
    attrs = {}
    if count != 1:
        attrs["count"] = ("i32", count)
    tx = tlc._unwrap_if_constexpr(expect_tx)
    if tx is not None:
        tx = _const_int(tx, "tle.gpu.barrier_arrive expect_tx", 1, _MAX_COUNT)
        _require_capability("tle.gpu.barrier_arrive expect_tx (transaction bytes)", 90, _semantic)
        attrs["expect_tx"] = f"{tx} : i64"
    if phaseIdx is not None:
        _phase(phaseIdx, "tle.gpu.barrier_arrive phaseIdx", _semantic)  # checked, not needed
    _require_enabled("tle.gpu.barrier_arrive", _semantic)
    attrs["tle.marker.no_results"] = True
    _markers.emit("barrier_arrive", attrs, [_handle(bar), bar.index], [tlc.int32], _semantic=_semantic)


@builtin("tle.gpu.barrier_wait")
def barrier_wait(bar, phaseIdx=None, _semantic=None, _generator=None):
    """Wait on a barrier.

    On an mbarrier: every calling thread waits until the barrier's phase
    ``phaseIdx`` has completed (``mbarrier.try_wait.parity`` in a loop).
    ``phaseIdx`` counts the barrier's uses, 0, 1, 2, ...; only its parity
    matters, so a wait must not fall two phases behind. A barrier allocated
    with ``init=tle.gpu.READY`` has its phase 0 complete from the start. On a
    ``named_barrier``: ``bar.sync id, num_threads``.

    Without ``phaseIdx``, as in FlagTree, the array ``bars[i]`` belongs to is
    used as hardware named barriers: the compiler gives it consecutive
    named-barrier ids, this wait is ``bar.sync id, arrive_count`` (the
    array's ``arrive_count`` counts threads: a multiple of 32), and every
    ``barrier_arrive`` on the array is ``bar.arrive``. ``i`` must then be a
    constant, and no wait on the array may pass a phase.

    Args:
        bar: one barrier (``bars[i]``, ``alloc_barrier()``) or a
            ``tle.gpu.named_barrier``.
        phaseIdx: None (named use, above), or an integer (compile-time or a
            runtime int32 scalar), the phase waited for (mbarriers only).

    Returns:
        None.

    Example::

        tle.gpu.barrier_wait(full[slot], phaseIdx=k // NUM_SLOTS)
    """
    bar = tlc._unwrap_if_constexpr(bar)
    if isinstance(bar, named_barrier):
        _require_enabled("tle.gpu.barrier_wait", _semantic)
        _named(bar, "named_barrier_sync", _semantic)
        return
    bar = _one_barrier(bar, "tle.gpu.barrier_wait")
    phaseIdx = tlc._unwrap_if_constexpr(phaseIdx)
    attrs = {"tle.marker.no_results": True}
    if phaseIdx is None:  # FlagTree's named use of the array
        attrs["named"] = "unit"
        phaseIdx = 0
    phase = _phase(phaseIdx, "tle.gpu.barrier_wait phaseIdx", _semantic)
    _require_enabled("tle.gpu.barrier_wait", _semantic)
    _markers.emit("barrier_wait", attrs, [_handle(bar), bar.index, phase], [tlc.int32], _semantic=_semantic)


@builtin("tle.gpu.barrier_try_wait")
def barrier_try_wait(bar, phaseIdx=0, _semantic=None, _generator=None):
    """Test, without blocking, whether a phase of an mbarrier has completed.

    ``barrier_wait`` that returns instead of waiting: True when the phase
    ``phaseIdx`` of ``bar`` has completed (``mbarrier.try_wait.parity``,
    which may suspend the thread for a short, hardware-chosen time before
    answering False). Each thread gets its own answer; after True the
    thread sees the phase's data, as after a wait. Phases count as for
    ``barrier_wait`` (only the parity matters; a barrier allocated
    ``READY`` has its phase 0 complete at once). The answer may count
    arrivals made while the test was suspended, also ones that follow it
    in the program without depending on it: use the answer before an
    arrival it must not see. sm_90.

    Args:
        bar: one mbarrier (``bars[i]``, ``alloc_barrier()``).
        phaseIdx: an integer (compile-time or a runtime int32 scalar), the
            phase tested.

    Returns:
        An int1 scalar.

    Example::

        while not tle.gpu.barrier_try_wait(full[slot], phaseIdx=use):
            pass   # or do other work, then test again
    """
    bar = tlc._unwrap_if_constexpr(bar)
    if isinstance(bar, named_barrier):
        raise TLEUsageError("tle.gpu.barrier_try_wait tests an mbarrier; a named barrier has no phase to test "
                            "(bar.sync always waits)")
    bar = _one_barrier(bar, "tle.gpu.barrier_try_wait")
    phase = _phase(phaseIdx, "tle.gpu.barrier_try_wait phaseIdx", _semantic)
    _require_enabled("tle.gpu.barrier_try_wait", _semantic)
    _require_capability("tle.gpu.barrier_try_wait (mbarrier.try_wait.parity)", 90, _semantic)
    (done,) = _markers.emit("barrier_try_wait", {}, [_handle(bar), bar.index, phase], [tlc.int1],
                            _semantic=_semantic)
    return done


def _handle(bar: mbarrier) -> tlc.tensor:
    return tlc.tensor(bar.array.handle, _HANDLE)


def _named(bar: named_barrier, op: str, _semantic):
    _markers.emit(op, {"id": ("i32", bar.id), "num_threads": ("i32", bar.num_threads),
                       "tle.marker.no_results": True}, [], [tlc.int32], _semantic=_semantic)


def async_tma_load(value: tlc.tensor, buf, bar: mbarrier, _semantic):
    """The ``tle.async_tma_load`` marker: ``value`` (Triton's descriptor load)
    lands in ``buf`` by TMA, completing on ``bar``."""
    shape = list(buf.type.shape)
    buf_handle = tlc.tensor(buf.handle, buf.type.handle_type())
    operands = [value, _semantic.splat(buf_handle, shape),
                _semantic.splat(_handle(bar), shape), _semantic.splat(bar.index, shape)]
    _markers.emit("async_tma_load", {"tle.marker.scalar_operands": ("i32-array", [1, 2, 3]),
                                     "tle.marker.no_results": True}, operands, [tlc.int32], _semantic=_semantic)


def async_copy_load(value: tlc.tensor, buf, bar: mbarrier, _semantic):
    """The ``tle.async_copy_load`` marker: ``value`` (a load of global
    pointers) lands in ``buf`` by cp.async, completing on ``bar``."""
    shape = list(buf.type.shape)
    buf_handle = tlc.tensor(buf.handle, buf.type.handle_type())
    operands = [value, _semantic.splat(buf_handle, shape),
                _semantic.splat(_handle(bar), shape), _semantic.splat(bar.index, shape)]
    _markers.emit("async_copy_load", {"tle.marker.scalar_operands": ("i32-array", [1, 2, 3]),
                                      "tle.marker.no_results": True}, operands, [tlc.int32], _semantic=_semantic)
