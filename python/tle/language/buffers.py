"""Buffers: the types and helpers ``tle.gpu``, ``tle.pipe`` and ``tle.dsa`` share.

Every buffer a kernel holds is a ``buffer_value`` of a ``buffer_type_base``:
a shape, a scalar dtype and one IR value, the *buffer handle* that only TLE's
markers consume (docs/markers.md). Two kinds derive from them: a shared-memory
buffer (``buffered_tensor``, ``tle.gpu.alloc``'s result, the ``tle.alloc``
marker; docs/local-memory.md), on which ``tle.gpu`` builds pointers, loads,
stores and copies and ``tle.pipe`` rings of slots; and a DSA buffer
(``tle.dsa.buffer``, in dsa.py). The element-type and shape checks are shared
too.
"""

from __future__ import annotations

import enum

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe

SHARED_ADDRESS_SPACE = 3
CLUSTER_ADDRESS_SPACE = 7


class storage_kind(enum.Enum):
    """Where ``tle.gpu.alloc`` places a buffer (FlagTree: ``tle.gpu.storage_kind``)."""
    smem = "smem"  # the CTA's shared memory
    tmem = "tmem"  # Blackwell tensor memory (sm_100+)

    def __repr__(self):
        return f"tle.gpu.{self.value}"


smem = storage_kind.smem
tmem = storage_kind.tmem

# MLIR spelling of Triton's scalar types.
_MLIR_TYPES = {
    "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
    "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64",
    "fp8e5": "f8E5M2", "fp8e4nv": "f8E4M3FN",
}


def mlir_type(dtype: tlc.dtype, what: str | None = None) -> str:
    """The MLIR spelling of a buffer element type; ``what`` names the
    argument in the error (``"tle.gpu.alloc dtype"``)."""
    try:
        return _MLIR_TYPES[dtype.name]
    except KeyError:
        where = f"{what}: " if what else ""
        raise TLEUsageError(f"{where}TLE buffers cannot hold {dtype} "
                            f"(supported: {', '.join(_MLIR_TYPES)})") from None


def memdesc_type(shape, dtype: tlc.dtype, order_rank=None, alloc_shape=None) -> str:
    """The fresh buffer's memdesc: row-major, unswizzled, mutable shared memory.

    ``order_rank``: the rank the encoding's order covers (default: the
    buffer's). A ring of slots (a pipe field) is laid out like one slot, as
    Triton does for multi-buffered allocations. ``alloc_shape``: the whole
    allocation's shape, for a view of part of it.
    """
    rank = len(shape) if order_rank is None else order_rank
    order = ", ".join(str(d) for d in reversed(range(rank)))
    enc = f"#ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [{order}]}}>"
    dims = "x".join(str(d) for d in shape)
    alloc = "" if alloc_shape is None else ", " + "x".join(str(d) for d in alloc_shape)
    return f"!ttg.memdesc<{dims}x{mlir_type(dtype)}, {enc}, #ttg.shared_memory, mutable{alloc}>"


class buffer_type_base(tlc.base_type):
    """The type of a buffer: its shape and scalar dtype; the IR carries one
    handle of ``handle_type()`` (a subclass may add values after it)."""

    def __init__(self, shape, dtype: tlc.dtype):
        self.shape = tuple(shape)
        self.dtype = dtype

    def _key(self) -> tuple:
        """What tells two buffer types of one kind apart: shape, dtype, then the kind's own fields."""
        return (self.shape, self.dtype)

    def __eq__(self, other):
        return isinstance(other, type(self)) and self._key() == other._key()

    def _mangle(self, kind: str, suffix: str) -> str:
        return f"{kind}{'_'.join(map(str, self.shape))}{self.dtype.mangle()}{suffix}"

    def handle_type(self):
        """A pointer to the element type in shared memory (what the markers pass around)."""
        return tlc.pointer_type(self.dtype, SHARED_ADDRESS_SPACE)

    def _flatten_ir_types(self, builder, out) -> None:
        out.append(self.handle_type().to_ir(builder))


class _shaped:
    """``shape`` (a list of constexprs) and ``dtype`` from ``self.type``."""

    @property
    def shape(self):
        return [tlc.constexpr(d) for d in self.type.shape]

    @property
    def dtype(self):
        return self.type.dtype


class buffer_value(_shaped, tlc.base_value):
    """A buffer a kernel holds: its IR handle and its ``buffer_type_base``.
    ``shape`` (a list of constexprs) and ``dtype`` describe it."""

    def __init__(self, handle, type: buffer_type_base):
        self.handle = handle
        self.type = type

    def _handle_tensor(self) -> tlc.tensor:
        """The handle as a Triton value of the type's ``handle_type()`` (a marker operand)."""
        return tlc.tensor(self.handle, self.type.handle_type())

    def _flatten_ir(self, handles) -> None:
        handles.append(self.handle)


class buffered_tensor_type(buffer_type_base):

    def __init__(self, shape, dtype: tlc.dtype, scope: storage_kind = smem, remote: bool = False):
        super().__init__(shape, dtype)
        self.scope = scope
        self.remote = remote  # a tle.remote view: the handle plus the peer CTA's rank

    def _key(self) -> tuple:
        return super()._key() + (self.scope, self.remote)

    def __repr__(self):
        remote = ", remote" if self.remote else ""
        return f"buffered_tensor<{list(self.shape)}, {self.dtype}, {self.scope!r}{remote}>"

    def mangle(self) -> str:
        return self._mangle("B", f"{self.scope.value}{'R' if self.remote else ''}")

    def _flatten_ir_types(self, builder, out) -> None:
        super()._flatten_ir_types(builder, out)
        if self.remote:
            out.append(tlc.int32.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        if self.remote:
            shard = tlc.tensor(handles[cursor + 1], tlc.int32)
            return buffered_tensor(handles[cursor], self, remote_shard=shard), cursor + 2
        return buffered_tensor(handles[cursor], self), cursor + 1


class buffered_tensor(buffer_value):
    """A buffer in on-chip memory (``tle.gpu.alloc``'s result).

    In the IR it is a *buffer handle* (docs/local-memory.md): the result of the
    alloc marker, which only TLE's markers consume. ``remote_shard`` is set on
    the view ``tle.remote(buffer, shard, mesh)`` returns: pointers built from it
    reach that CTA's copy of the buffer. ``shape`` (a list of constexprs) and
    ``dtype`` describe it. Kernels get one from ``tle.gpu.alloc``,
    ``tle.remote`` or a pipe slot's field, not from the constructor.

    Args:
        handle: the IR value of the buffer handle.
        type: its ``buffered_tensor_type`` (shape, dtype, scope).
        remote_shard: None, or for a remote view the int32 scalar rank of
            the CTA whose copy it reaches.

    Example::

        @triton.jit
        def k(OUT, N: tl.constexpr):
            buf = tle.gpu.alloc([N], dtype=tl.float32)   # a tle.gpu.buffered_tensor
            tle.gpu.local_store(buf, tl.full([N], 1.0, tl.float32))
            tl.store(OUT + tl.arange(0, N), tle.gpu.local_load(buf))
    """

    def __init__(self, handle, type: buffered_tensor_type, remote_shard=None):
        super().__init__(handle, type)
        self.remote_shard = remote_shard

    def _flatten_ir(self, handles) -> None:
        super()._flatten_ir(handles)
        if self.remote_shard is not None:
            handles.append(self.remote_shard.handle)

    def __repr__(self):
        return f"{self.type!r}" + (" (remote)" if self.remote_shard is not None else "")

    @builtin("tle.gpu.buffered_tensor.slot")
    def slot(self, index, _semantic=None, _generator=None):
        """Slot ``index`` of a multi-stage buffer: the view of ``buffer[index]``.

        A buffer of shape ``[S, d1, ..., dn]`` (``tle.gpu.alloc([NUM_STAGES,
        BM, BK], ...)``) holds ``S`` slots of shape ``[d1, ..., dn]``;
        ``buf.slot(i)`` is slot ``i`` (FlagTree's
        ``tle.gpu.buffered_tensor.slot``), a buffer like any other: a
        ``tle.gpu.wgmma`` operand, the destination of ``tle.gpu.copy(...,
        barrier=)``, the source of ``local_load`` and the destination of
        ``local_store``. A buffer taken slots of cannot also be accessed
        through ``local_ptr``.

        Args:
            index: a compile-time int in ``[0, S)``, or an integer scalar
                (not checked at run time: keep it in range).

        Returns:
            A ``tle.gpu.buffered_tensor`` of shape ``[d1, ..., dn]``.

        Example::

            a_bufs = tle.gpu.alloc([STAGES, BM, BK], dtype=tl.float16)
            tle.gpu.copy(a_desc, a_bufs.slot(i % STAGES), [BM, BK], [m, k], barrier=full[i % STAGES])
        """
        from .core import _require_enabled
        shape = list(self.type.shape)
        if self.remote_shard is not None:
            raise TLEUsageError("tle.gpu.buffered_tensor.slot: a remote buffer view has no slots")
        if self.type.scope != smem:
            raise TLEUsageError(f"tle.gpu.buffered_tensor.slot: slots of {self.type.scope!r} buffers are not "
                                "supported")
        if len(shape) < 2:
            raise TLEUsageError(f"tle.gpu.buffered_tensor.slot: a buffer of shape {shape} has no slots (its first "
                                "dimension counts the slots of a buffer of rank 2 or more)")
        index = tlc._unwrap_if_constexpr(index)
        if isinstance(index, bool):
            raise TLEUsageError(f"tle.gpu.buffered_tensor.slot index must be an integer, got {index!r}")
        if isinstance(index, int):
            if not 0 <= index < shape[0]:
                raise TLEUsageError(f"tle.gpu.buffered_tensor.slot index {index} is out of range for {shape[0]} "
                                    f"slot{'s' if shape[0] != 1 else ''}")
            index = _semantic.to_tensor(index)
        elif not isinstance(index, tlc.tensor) or index.type.is_block() or not index.dtype.is_int() \
                or index.dtype.is_int1():
            raise TLEUsageError(f"tle.gpu.buffered_tensor.slot index must be an integer scalar, got "
                                f"{describe(index)}")
        elif index.dtype != tlc.int32:
            index = _semantic.cast(index, tlc.int32)
        _require_enabled("tle.gpu.buffered_tensor.slot", _semantic)
        view = shape[1:]
        btype = buffered_tensor_type(view, self.type.dtype, smem)
        (handle,) = _markers.emit(
            "buffer_slot", {"tle.marker.result_types": ("list", [memdesc_type(view, self.type.dtype)])},
            [self._handle_tensor(), index], [btype.handle_type()], _semantic=_semantic)
        return buffered_tensor(handle.handle, btype)

    @builtin("tle.gpu.buffered_tensor.reshape")
    def reshape(self, shape, _semantic=None, _generator=None):
        """The buffer seen with another shape of the same number of elements,
        row-major (FlagTree's ``buffered_tensor.reshape``): element
        ``(i0, ..., ik)`` of the view is the buffer's element at the same
        flat row-major offset. Nothing is copied: local pointers through the
        view point into the buffer, and ``load()`` / ``store(value)`` through
        it are the buffer's, reshaped in registers (Triton may convert the
        tensor's layout for that).

        The view takes ``tle.gpu.local_ptr`` (``indices=`` in its shape, or
        flat ``offsets=``), ``load()`` / ``store(value)`` (and
        ``tle.gpu.local_load`` / ``local_store``), ``tle.gpu.copy`` to or from
        global pointers of its shape, and ``reshape`` again; other primitives
        (wgmma operands, TMA copies, slots) take the buffer itself.

        Args:
            shape: a list of compile-time positive ints whose product is the
                buffer's number of elements.

        Returns:
            A ``tle.gpu.buffer_view``.

        Example::

            smem = tle.gpu.alloc([32, 512], dtype=tl.float16)
            groups = smem.reshape([32, 4, 128])
            x = tl.load(tle.gpu.local_ptr(groups, (rows, group, cols)))
        """
        return buffer_view(self, _view_shape(self, shape, "tle.gpu.buffered_tensor.reshape"))

    # load() and store(value) are attached by _gpu_semantic.py, which holds the
    # local_load / local_store they share (an import from here would be a cycle).


def _view_shape(buf, shape, what):
    shape = tlc._unwrap_if_constexpr(shape)
    if isinstance(shape, tlc.tuple):
        shape = list(shape.values)
    if not isinstance(shape, (list, tuple)) or not shape:
        raise TLEUsageError(f"{what} takes a shape: a list of compile-time ints, got {describe(shape)}")
    dims = [tlc._unwrap_if_constexpr(d) for d in shape]
    if any(not isinstance(d, int) or isinstance(d, bool) or d <= 0 for d in dims):
        raise TLEUsageError(f"{what} takes a shape: a list of positive compile-time ints, got {describe(shape)}")
    size = 1
    for d in buf.type.shape:
        size *= d
    new = 1
    for d in dims:
        new *= d
    if new != size:
        raise TLEUsageError(f"{what}: shape {dims} has {new} elements but the buffer {list(buf.type.shape)} has "
                            f"{size}")
    return dims


class buffer_view_type(tlc.base_type):
    """The type of a reshaped buffer: the buffer's type and the view's shape."""

    def __init__(self, base: buffered_tensor_type, shape):
        self.base = base
        self.shape = tuple(shape)
        self.dtype = base.dtype

    def _key(self):
        return (self.base, self.shape)

    def __eq__(self, other):
        return isinstance(other, buffer_view_type) and self._key() == other._key()

    def __repr__(self):
        return f"buffer_view<{list(self.shape)} of {self.base!r}>"

    def mangle(self) -> str:
        return f"V{'_'.join(map(str, self.shape))}{self.base.mangle()}"

    def _flatten_ir_types(self, builder, out) -> None:
        self.base._flatten_ir_types(builder, out)

    def _unflatten_ir(self, handles, cursor):
        base, cursor = self.base._unflatten_ir(handles, cursor)
        return buffer_view(base, self.shape), cursor


class buffer_view(_shaped, tlc.base_value):
    """A buffer seen with another shape (``buffered_tensor.reshape``'s
    result): ``base`` is the buffer, ``type.shape`` the view's shape. It can
    be passed to ``@triton.jit`` functions and warp_specialize partitions."""

    def __init__(self, base: buffered_tensor, shape):
        self.base = base
        self.type = buffer_view_type(base.type, shape)

    def _flatten_ir(self, handles) -> None:
        self.base._flatten_ir(handles)

    def __repr__(self):
        return repr(self.type)

    @builtin("tle.gpu.buffer_view.reshape")
    def reshape(self, shape, _semantic=None, _generator=None):
        """The same buffer with yet another shape (see ``buffered_tensor.reshape``)."""
        return buffer_view(self.base, _view_shape(self.base, shape, "tle.gpu.buffer_view.reshape"))

    # load() and store(value) are attached by _gpu_semantic.py, like buffered_tensor's.


def _const_shape(shape, what):
    shape = tlc._unwrap_if_constexpr(shape)
    if isinstance(shape, (int, tlc.constexpr)):
        shape = [shape]
    if isinstance(shape, tlc.tensor):  # iterating it would call a builtin outside the code generator
        raise TLEUsageError(f"{what} must be a list of compile-time ints, got {describe(shape)}")
    try:
        dims = [tlc._unwrap_if_constexpr(d) for d in shape]
    except TypeError:
        raise TLEUsageError(f"{what} must be a list of compile-time ints, got {describe(shape)}") from None
    if not dims or any(isinstance(d, bool) or not isinstance(d, int) or d <= 0 for d in dims):
        raise TLEUsageError(f"{what} must be a non-empty list of positive compile-time ints, got {describe(dims)}")
    return dims


def _element_dtype(dtype, what) -> tlc.dtype:
    """``dtype`` checked as a buffer's element type: a scalar triton dtype
    TLE buffers can hold; ``what`` names the argument in the error."""
    dtype = tlc._unwrap_if_constexpr(dtype)
    if not isinstance(dtype, tlc.dtype) or dtype.is_ptr() or isinstance(dtype, tlc.block_type):
        raise TLEUsageError(f"{what} must be a scalar triton dtype, got {describe(dtype)}")
    mlir_type(dtype, what)
    return dtype


def _buffer(value, what) -> buffered_tensor:
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, buffer_view):
        raise TLEUsageError(f"{what} takes a buffer, not a reshaped view of one ({value!r}); a view takes "
                            "tle.gpu.local_ptr, load() / store(), tle.gpu.local_load / local_store and copies "
                            "to or from global pointers")
    if not isinstance(value, buffered_tensor):
        raise TLEUsageError(f"{what} expects a buffer from tle.gpu.alloc, got {describe(value)}")
    return value


def alloc_buffer(shape, dtype, type_str: str, _semantic) -> buffered_tensor:
    """The ``tle.alloc`` marker for a shared buffer of memdesc type ``type_str``."""
    btype = buffered_tensor_type(shape, dtype, smem)
    (handle,) = _markers.emit(
        "alloc", {"scope": "#tle.memory_space<smem>", "tle.marker.result_types": ("list", [type_str])},
        [], [btype.handle_type()], _semantic=_semantic)
    return buffered_tensor(handle.handle, btype)
