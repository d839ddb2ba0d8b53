"""``tle.dsa``: buffers in DSA (Ascend-style) on-chip memories (TLE-Struct DSA).

    a_ub = tle.dsa.alloc([XBLOCK, YBLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    tle.dsa.copy(x_ptrs, a_ub, [tail_m, tail_n])      # GM -> UB, leading tail_m x tail_n
    tle.dsa.add(a_ub, b_ub, c_ub)                     # c = a + b on the vector unit
    c_val = tle.dsa.to_tensor(c_ub, writable=True)    # the buffer as a tensor value
    d_ub = tle.dsa.to_buffer(c_val, tle.dsa.ascend.UB)
    tle.dsa.copy(d_ub, out_ptrs, [tail_m, tail_n])    # UB -> GM

pip Triton has no DSA backend: kernels using ``tle.dsa`` compile to TTIR
through Triton's NVIDIA frontend, and ``tle.dsa_lower(kernel, ...)`` runs the
DSA pipeline on that TTIR (docs/dsa.md). The NVIDIA TTGIR stage rejects them.
Each primitive checks its arguments at the user's line and emits a marker
(docs/markers.md) that ``triton-tle-raise-markers`` turns into a ``tle.dsa.*``
op.
"""

from __future__ import annotations

import enum

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe
from .core import _require_enabled
from .buffers import SHARED_ADDRESS_SPACE, _const_shape, _element_dtype, buffer_type_base, buffer_value, mlir_type


class address_space(enum.Enum):
    """A DSA on-chip memory (``#tle.dsa.address_space<...>``)."""
    UB = "UB"    # unified buffer: the vector unit's memory
    L1 = "L1"    # L1 buffer: staging for the cube unit
    L0A = "L0A"  # cube unit left operand
    L0B = "L0B"  # cube unit right operand
    L0C = "L0C"  # cube unit accumulator

    def __repr__(self):
        return f"tle.dsa.ascend.{self.value}"


class ascend:
    """FlagTree's spelling: ``tle.dsa.ascend.UB`` etc.

    The attributes ``UB`` (unified buffer, the vector unit's memory), ``L1``
    (staging for the cube unit), ``L0A`` / ``L0B`` (the cube unit's left and
    right operands) and ``L0C`` (its accumulator) are the members of
    ``tle.dsa.address_space``.

    Example::

        ub = tle.dsa.alloc([16, 16], dtype=tl.float16, mem_addr_space=tle.dsa.ascend.L1)
    """
    UB = address_space.UB
    L1 = address_space.L1
    L0A = address_space.L0A
    L0B = address_space.L0B
    L0C = address_space.L0C


GM = "GM"  # global memory, reached through pointer tensors

# The data paths tle.dsa.copy accepts (the op's verifier has the same table).
_MOVES = {
    (GM, address_space.UB), (GM, address_space.L1),
    (address_space.UB, GM), (address_space.UB, address_space.UB),
    (address_space.L1, GM), (address_space.L1, address_space.L0A), (address_space.L1, address_space.L0B),
    (address_space.L0C, address_space.UB), (address_space.L0C, GM),
}
_MOVES_TEXT = "GM->UB, GM->L1, UB->GM, UB->UB, L1->GM, L1->L0A, L1->L0B, L0C->UB, L0C->GM"


def _space(value, what) -> address_space:
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, str):
        value = address_space.__members__.get(value, value)
    if not isinstance(value, address_space):
        raise TLEUsageError(f"{what} must be one of tle.dsa.ascend.UB, L1, L0A, L0B, L0C, got {describe(value)}")
    return value


def buffer_mlir_type(shape, dtype, space: address_space) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"!tle.dsa.buffer<{dims}{mlir_type(dtype)}, {space.value}>"


class buffer_type(buffer_type_base):
    """The type of a ``tle.dsa.buffer``: ``!tle.dsa.buffer<shape x dtype, space>``.

    Args:
        shape: the buffer's shape, a sequence of ints.
        dtype: its scalar triton dtype.
        space: its ``tle.dsa.address_space`` (``tle.dsa.ascend.UB``, ...).
        shaped_handle: whether the IR handle is a tensor of pointers of the
            buffer's shape (``tle.dsa.to_buffer``) rather than one pointer
            (``tle.dsa.alloc``).

    Example::

        t = tle.dsa.buffer_type([16, 16], tl.float32, tle.dsa.ascend.UB)
        # repr(t) == "dsa_buffer<[16, 16], fp32, tle.dsa.ascend.UB>"
    """

    def __init__(self, shape, dtype: tlc.dtype, space: address_space, shaped_handle: bool = False):
        super().__init__(shape, dtype)
        self.space = space
        # tle.dsa.to_buffer's handle is a pointer tensor of the buffer's shape
        # (its marker has the tensor operand's shape); alloc's is a scalar.
        self.shaped_handle = shaped_handle

    def _key(self) -> tuple:
        return super()._key() + (self.space, self.shaped_handle)

    def __repr__(self):
        return f"dsa_buffer<{list(self.shape)}, {self.dtype}, {self.space!r}>"

    def mangle(self) -> str:
        return self._mangle("D", f"{self.space.value}{'T' if self.shaped_handle else ''}")

    def handle_type(self):
        ptr = super().handle_type()
        return tlc.block_type(ptr, list(self.shape)) if self.shaped_handle else ptr

    def _unflatten_ir(self, handles, cursor):
        return buffer(handles[cursor], self), cursor + 1


class buffer(buffer_value):
    """A DSA buffer (``tle.dsa.alloc`` / ``tle.dsa.to_buffer``): in the IR, a
    buffer handle that only TLE's markers consume (docs/markers.md).

    Kernels get buffers from ``tle.dsa.alloc`` and ``tle.dsa.to_buffer``, not
    from the constructor. ``shape`` (a list of constexprs) and ``dtype``
    describe it.

    Args:
        handle: the IR value of the buffer handle.
        type: its ``tle.dsa.buffer_type``.

    Example::

        ub = tle.dsa.alloc([16, 16], dtype=tl.float32)   # a tle.dsa.buffer
        # ub.shape == [16, 16], ub.dtype == tl.float32
    """

    def __init__(self, handle, type: buffer_type):
        super().__init__(handle, type)

    def __repr__(self):
        return repr(self.type)


def _buffer(value, what) -> buffer:
    value = tlc._unwrap_if_constexpr(value)
    if not isinstance(value, buffer):
        raise TLEUsageError(f"{what} expects a buffer from tle.dsa.alloc or tle.dsa.to_buffer, "
                            f"got {describe(value)}")
    return value


def _operand(buf: buffer, _semantic) -> tuple[tlc.tensor, bool]:
    """The buffer's handle at the buffer's shape; True when it was splatted."""
    handle = buf._handle_tensor()
    if buf.type.shaped_handle:
        return handle, False
    return _semantic.splat(handle, list(buf.type.shape)), True


@builtin("tle.dsa.alloc")
def alloc(shape, dtype, mem_addr_space=address_space.UB, _semantic=None, _generator=None):
    """Allocate a ``shape`` x ``dtype`` buffer in ``mem_addr_space``
    (``tle.dsa.ascend.UB``, ``L1``, ``L0A``, ``L0B`` or ``L0C``). Its contents
    are undefined until written.

    Args:
        shape: a list of compile-time ints.
        dtype: a scalar triton dtype (not a pointer).
        mem_addr_space: a ``tle.dsa.ascend`` space (or its name, ``"UB"``,
            ``"L1"``, ...); default UB.

    Returns:
        A ``tle.dsa.buffer``.

    Example::

        @triton.jit
        def stage(X, OUT, M: tl.constexpr, N: tl.constexpr):
            offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
            ub = tle.dsa.alloc([M, N], dtype=tl.float16, mem_addr_space=tle.dsa.ascend.UB)
            tle.dsa.copy(X + offs, ub)
            tle.dsa.copy(ub, OUT + offs)
    """
    shape = _const_shape(shape, "tle.dsa.alloc shape")
    dtype = _element_dtype(dtype, "tle.dsa.alloc dtype")
    space = _space(mem_addr_space, "tle.dsa.alloc mem_addr_space")
    _require_enabled("tle.dsa.alloc", _semantic)
    btype = buffer_type(shape, dtype, space)
    (handle,) = _markers.emit("dsa.alloc", {"tle.marker.result_types": ("list", [buffer_mlir_type(shape, dtype, space)])},
                              [], [btype.handle_type()], _semantic=_semantic)
    return buffer(handle.handle, btype)


def _tail(sizes, shape, _semantic):
    """The copy's sizes as i32 scalars, or None when they are the full shape."""
    sizes = tlc._unwrap_if_constexpr(sizes)
    if sizes is None:
        return None
    if isinstance(sizes, (int, tlc.tensor)):
        sizes = [sizes]
    if not isinstance(sizes, (list, tuple, tlc.tuple)):
        raise TLEUsageError(f"tle.dsa.copy shape must be a list with one size per dimension, got {describe(sizes)}")
    sizes = [tlc._unwrap_if_constexpr(s) for s in sizes]
    if len(sizes) != len(shape):
        raise TLEUsageError(f"tle.dsa.copy shape has {len(sizes)} sizes for a rank-{len(shape)} buffer of shape "
                            f"{list(shape)}; pass one size per dimension")
    for d, (s, dim) in enumerate(zip(sizes, shape)):
        if isinstance(s, bool) or not isinstance(s, (int, tlc.tensor)):
            raise TLEUsageError(f"tle.dsa.copy shape: size {d} must be an integer, got {describe(s)}")
        if isinstance(s, int) and not 0 <= s <= dim:
            problem = f"is larger than the buffer's {dim}" if s > dim else "is negative"
            raise TLEUsageError(f"tle.dsa.copy shape: size {s} of dimension {d} {problem} "
                                f"(tail sizes must lie in [0, {dim}])")
        if isinstance(s, tlc.tensor) and (s.type.is_block() or not s.dtype.is_int() or s.dtype.is_int1()):
            raise TLEUsageError(f"tle.dsa.copy shape: size {d} must be an integer scalar, got {describe(s)}")
    if all(isinstance(s, int) for s in sizes) and list(sizes) == list(shape):
        return None
    out = []
    for s in sizes:
        t = _semantic.to_tensor(s) if isinstance(s, int) else s
        if t.dtype != tlc.int32:
            t = _semantic.cast(t, tlc.int32)
        out.append(t)
    return out


@builtin("tle.dsa.copy")
def copy(src, dst, shape=None, _semantic=None, _generator=None):
    """Copy between global memory and a buffer, or between two buffers.

    A global side is a tensor of global pointers of the buffer's shape, one per
    element. ``shape`` (one size per dimension, compile-time or runtime ints)
    copies only the leading ``shape[d]`` elements of every dimension ``d``
    (tails); ``None`` or the buffer's shape copies everything. Legal moves:
    GM->UB, GM->L1, UB->GM, UB->UB, L1->GM, L1->L0A, L1->L0B, L0C->UB, L0C->GM.

    Args:
        src: a buffer, or a tensor of global pointers (address space 1) of
            the buffer's shape to its dtype.
        dst: a buffer or such a pointer tensor; at least one of ``src`` and
            ``dst`` is a buffer, and two buffers must have one shape and
            dtype.
        shape: None, or one size per dimension (ints in ``[0, dim]`` or
            integer scalars).

    Returns:
        None.

    Example::

        @triton.jit
        def tail_copy(X, OUT, m, n, M: tl.constexpr, N: tl.constexpr):
            offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
            ub = tle.dsa.alloc([M, N], dtype=tl.float32)
            tle.dsa.copy(X + offs, ub, [m, n])     # the leading m x n elements
            tle.dsa.copy(ub, OUT + offs, [m, n])
    """
    src, dst = tlc._unwrap_if_constexpr(src), tlc._unwrap_if_constexpr(dst)
    bufs = [v for v in (src, dst) if isinstance(v, buffer)]
    if not bufs:
        raise TLEUsageError("tle.dsa.copy needs a buffer on at least one side (src or dst); global-to-global "
                            "copies are tl.load + tl.store")
    buf = bufs[0]
    places = []
    for name, v in (("src", src), ("dst", dst)):
        if isinstance(v, buffer):
            places.append(v.type.space)
            continue
        if not isinstance(v, tlc.tensor) or not v.type.is_block() or not v.dtype.is_ptr():
            raise TLEUsageError(f"tle.dsa.copy {name} must be a buffer or a tensor of global pointers, "
                                f"got {describe(v)}")
        if v.dtype.address_space != 1:
            raise TLEUsageError(f"tle.dsa.copy {name} pointers must be global (address space 1), got address "
                                f"space {v.dtype.address_space}")
        if v.dtype.element_ty != buf.type.dtype:
            raise TLEUsageError(f"tle.dsa.copy: {name} points to {v.dtype.element_ty} but the buffer holds "
                                f"{buf.type.dtype}")
        if list(v.type.shape) != list(buf.type.shape):
            raise TLEUsageError(f"tle.dsa.copy {name}: the pointer tensor's shape {list(v.type.shape)} does not match "
                                f"the buffer's {list(buf.type.shape)}")
        places.append(GM)
    if len(bufs) == 2:
        if bufs[0].type.shape != bufs[1].type.shape or bufs[0].type.dtype != bufs[1].type.dtype:
            raise TLEUsageError(f"tle.dsa.copy: src {bufs[0].type!r} and dst {bufs[1].type!r} differ in shape "
                                "or dtype")
    move = tuple(places)
    if move not in _MOVES:
        names = [p if p == GM else p.value for p in move]
        raise TLEUsageError(f"tle.dsa.copy src -> dst: no data path from {names[0]} to {names[1]}; legal copies are "
                            f"{_MOVES_TEXT}")
    sizes = _tail(shape, buf.type.shape, _semantic)
    _require_enabled("tle.dsa.copy", _semantic)
    operands, scalars = [], []
    for v in (src, dst):
        if isinstance(v, buffer):
            handle, splatted = _operand(v, _semantic)
            if splatted:
                scalars.append(len(operands))
            operands.append(handle)
        else:
            operands.append(v)
    for s in sizes or []:
        scalars.append(len(operands))
        operands.append(_semantic.splat(s, list(buf.type.shape)))
    attrs = {"tle.marker.no_results": True}
    if scalars:
        attrs = {"tle.marker.scalar_operands": ("i32-array", scalars), **attrs}
    _markers.emit("dsa.copy", attrs, operands, [tlc.int32], _semantic=_semantic)


@builtin("tle.dsa.to_tensor")
def to_tensor(buffer, writable=False, _semantic=None, _generator=None):
    """The buffer's current contents as a tensor of its shape and dtype.

    ``writable=True`` lets the lowering update the buffer in place when the
    tensor is materialized back into the same memory (``bufferization.
    to_tensor ... writable``); without it the buffer is never written through
    the tensor.

    Args:
        buffer: a ``tle.dsa.buffer``.
        writable: a compile-time bool.

    Returns:
        A tensor of the buffer's shape and dtype.

    Example::

        @triton.jit
        def scale(X, OUT, M: tl.constexpr, N: tl.constexpr):
            offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
            ub = tle.dsa.alloc([M, N], dtype=tl.float32)
            tle.dsa.copy(X + offs, ub)
            y = tle.dsa.to_tensor(ub) * 2.0
            tle.dsa.copy(tle.dsa.to_buffer(y, tle.dsa.ascend.UB), OUT + offs)
    """
    buf = _buffer(buffer, "tle.dsa.to_tensor")
    writable = tlc._unwrap_if_constexpr(writable)
    if not isinstance(writable, bool):
        raise TLEUsageError(f"tle.dsa.to_tensor writable must be True or False, got {describe(writable)}")
    _require_enabled("tle.dsa.to_tensor", _semantic)
    handle, splatted = _operand(buf, _semantic)
    attrs = {}
    if writable:
        attrs["writable"] = "unit"
    if splatted:
        attrs["tle.marker.scalar_operands"] = ("i32-array", [0])
    (value,) = _markers.emit("dsa.to_tensor", attrs, [handle], [buf.type.dtype], _semantic=_semantic)
    return value


@builtin("tle.dsa.to_buffer")
def to_buffer(tensor, mem_addr_space=address_space.UB, _semantic=None, _generator=None):
    """A new buffer in ``mem_addr_space`` holding ``tensor`` (same shape and dtype).

    Args:
        tensor: a tensor (not a scalar, not pointers, not a buffer).
        mem_addr_space: a ``tle.dsa.ascend`` space (or its name); default UB.

    Returns:
        A ``tle.dsa.buffer`` of ``tensor``'s shape and dtype.

    Example::

        @triton.jit
        def store_sum(X, Y, OUT, M: tl.constexpr, N: tl.constexpr):
            offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
            s = tl.load(X + offs) + tl.load(Y + offs)
            tle.dsa.copy(tle.dsa.to_buffer(s, tle.dsa.ascend.UB), OUT + offs)
    """
    tensor = tlc._unwrap_if_constexpr(tensor)
    if isinstance(tensor, buffer):
        raise TLEUsageError("tle.dsa.to_buffer expects a tensor, got a DSA buffer; copy buffers with tle.dsa.copy")
    if not isinstance(tensor, tlc.tensor) or not tensor.type.is_block():
        raise TLEUsageError(f"tle.dsa.to_buffer expects a tensor (not a scalar), got {describe(tensor)}")
    if tensor.dtype.is_ptr():
        raise TLEUsageError(f"tle.dsa.to_buffer cannot put pointers in a DSA buffer (tensor holds {tensor.dtype})")
    space = _space(mem_addr_space, "tle.dsa.to_buffer mem_addr_space")
    mlir_type(tensor.dtype, "tle.dsa.to_buffer tensor")
    _require_enabled("tle.dsa.to_buffer", _semantic)
    btype = buffer_type(list(tensor.type.shape), tensor.dtype, space, shaped_handle=True)
    ptr = tlc.pointer_type(tensor.dtype, SHARED_ADDRESS_SPACE)
    (handle,) = _markers.emit(
        "dsa.to_buffer", {"tle.marker.result_types": ("list", [buffer_mlir_type(tensor.type.shape, tensor.dtype, space)])},
        [tensor], [ptr], _semantic=_semantic)
    return buffer(handle.handle, btype)


def _binary(op, lhs, rhs, out, _semantic):
    what = f"tle.dsa.{op}"
    bufs = [_buffer(v, f"{what} {name}") for v, name in ((lhs, "lhs"), (rhs, "rhs"), (out, "out"))]
    first = bufs[0].type
    for name, b in zip(("rhs", "out"), bufs[1:]):
        if b.type.shape != first.shape:
            raise TLEUsageError(f"{what}: {name} shape {list(b.type.shape)} does not match lhs shape "
                                f"{list(first.shape)}")
        if b.type.dtype != first.dtype:
            raise TLEUsageError(f"{what}: {name} dtype {b.type.dtype} does not match lhs dtype {first.dtype}")
    for name, b in zip(("lhs", "rhs", "out"), bufs):
        if b.type.space is not address_space.UB:
            raise TLEUsageError(f"{what}: {name} is in {b.type.space.value}, but the vector unit reads and writes "
                                "only UB")
    if op == "div" and not first.dtype.is_floating():
        raise TLEUsageError(f"{what} needs floating-point buffers, got {first.dtype} lhs, rhs and out "
                            "(no integer division)")
    if op in ("max", "min") and first.dtype.is_int_unsigned():
        raise TLEUsageError(f"{what} compares integers as signed; {first.dtype} buffers are not supported "
                            "(lhs, rhs and out)")
    _require_enabled(what, _semantic)
    operands, scalars = [], []
    for b in bufs:
        handle, splatted = _operand(b, _semantic)
        if splatted:
            scalars.append(len(operands))
        operands.append(handle)
    attrs = {"tle.marker.no_results": True}
    if scalars:
        attrs = {"tle.marker.scalar_operands": ("i32-array", scalars), **attrs}
    _markers.emit(f"dsa.{op}", attrs, operands, [tlc.int32], _semantic=_semantic)


def _binary_builtin(op: str, expr: str, on: str, note: str = ""):
    """The public ``tle.dsa.<op>``: ``_binary`` with its docstring, which the
    six elementwise ops share but for the expression, the buffers they take
    and a note on rejected dtypes."""
    example = expr.replace("lhs", "a").replace("rhs", "b")
    note = f"\n            {note}" if note else ""

    def fn(lhs, rhs, out, _semantic=None, _generator=None):
        _binary(op, lhs, rhs, out, _semantic)

    fn.__name__ = fn.__qualname__ = op
    fn.__doc__ = f"""``out = {expr}`` elementwise on {on}.

    Args:
        lhs: a UB buffer (``tle.dsa.alloc`` / ``tle.dsa.to_buffer``).
        rhs: a UB buffer of ``lhs``'s shape and dtype.
        out: the UB buffer written, of ``lhs``'s shape and dtype (it may be
            ``lhs`` or ``rhs``).{note}

    Returns:
        None (the result is in ``out``).

    Example::

        @triton.jit
        def {op}_kernel(X, Y, OUT, M: tl.constexpr, N: tl.constexpr):
            offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
            a = tle.dsa.alloc([M, N], dtype=tl.float32)   # UB
            b = tle.dsa.alloc([M, N], dtype=tl.float32)
            tle.dsa.copy(X + offs, a)
            tle.dsa.copy(Y + offs, b)
            tle.dsa.{op}(a, b, a)                       # a = {example}
            tle.dsa.copy(a, OUT + offs)
    """
    return builtin(f"tle.dsa.{op}")(fn)


_SAME = "UB buffers of one shape and dtype"
_SIGNED = "UB buffers (integers signed)"
add = _binary_builtin("add", "lhs + rhs", _SAME)
sub = _binary_builtin("sub", "lhs - rhs", _SAME)
mul = _binary_builtin("mul", "lhs * rhs", _SAME)
div = _binary_builtin("div", "lhs / rhs", "floating-point UB buffers", "Integer buffers are rejected.")
max = _binary_builtin("max", "max(lhs, rhs)", _SIGNED, "Unsigned integer buffers are rejected.")
min = _binary_builtin("min", "min(lhs, rhs)", _SIGNED, "Unsigned integer buffers are rejected.")


__all__ = ["GM", "add", "address_space", "alloc", "ascend", "buffer", "buffer_type", "copy", "div", "max", "min",
           "mul", "sub", "to_buffer", "to_tensor"]
