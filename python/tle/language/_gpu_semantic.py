"""The semantics of ``tle.gpu``'s buffer primitives: argument validation and
IR building (the markers of docs/markers.md; docs/local-memory.md).

``gpu.py`` holds the user-facing builtins (``tle.gpu.alloc``, ``local_ptr``,
``local_store``, ``local_load``, ``copy``, ``memory_space``, ``tle.remote``)
with their docstrings; each calls the function of the same name here, as
Gluon's ``_core.py`` calls its ``_semantic.py``. ``_semantic`` is Triton's
semantic object (its builder and tensor operations).
"""

from __future__ import annotations

import builtins
import math

from triton.language import core as tlc

from . import _interpret, _markers
from . import barriers as _barriers
from ._markers import TLEUsageError, builtin, describe, dims, unwrap
from .buffers import (CLUSTER_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, _buffer, _const_shape, buffer_view, _element_dtype, alloc_buffer,
                      buffered_tensor, buffered_tensor_type, memdesc_type, mlir_type, smem, tmem)
from .core import _require_capability, _require_enabled, _to_tensor
from .mesh import _mesh, _scalar_i32, cluster_mesh, linear_shard

# The unit attribute on the tt.load of a tle.gpu.copy(is_async=True)
# (docs/warp-specialize.md, "Asynchronous slot fills").
ASYNC_COPY_ATTR = "tle.async_copy"
# The unit attribute on the tle.local_store marker of a tle.gpu.copy from a
# tensor descriptor (docs/warp-specialize.md, "Slot fills by TMA").
TMA_FILL_ATTR = "tle.tma_fill"


def _require_pow2_shape(shape, what):
    for d in shape:
        if d & (d - 1):
            raise TLEUsageError(f"{what}: the buffer shape {list(shape)} is used as a tensor shape, so every "
                                "dimension must be a power of two")


def _splat(handle_value: tlc.tensor, shape, _semantic) -> tlc.tensor:
    return _semantic.splat(handle_value, list(shape))


def alloc(shape, dtype, layout, scope, init_value, nv_mma_shared_layout, _semantic, alias=None):
    shape = _const_shape(shape, "tle.gpu.alloc shape")
    dtype = _element_dtype(dtype, "tle.gpu.alloc dtype")
    scope = tlc._unwrap_if_constexpr(scope)
    if isinstance(scope, str):
        scope = {"smem": smem, "shared_memory": smem, "tmem": tmem, "tensor_memory": tmem}.get(scope, scope)
    if scope is tmem:
        raise TLEUsageError("tle.gpu.alloc scope=tmem is Blackwell (sm_100+) tensor memory, which TLE does not "
                            "support; use scope=tle.gpu.smem")
    if scope is not smem:
        raise TLEUsageError(f"tle.gpu.alloc scope must be tle.gpu.smem, got {describe(scope)}")
    layout = tlc._unwrap_if_constexpr(layout)
    if layout is not None:
        from .layouts import shared_layout
        if not isinstance(layout, shared_layout):
            raise TLEUsageError(f"tle.gpu.alloc layout= must be None or a tle.gpu shared layout "
                                f"(swizzled_shared_layout, nv_mma_shared_layout), got {describe(layout)}")
        layout._check_alloc(shape, "tle.gpu.alloc")
    # FlagTree's default is True (an NVMMA layout). Here the compiler picks
    # every buffer's encoding from its uses (triton-tle-select-encodings:
    # NVMMA for wgmma and TMA operands, unswizzled row-major for pointer
    # access), so either value means "the compiler's choice".
    if not isinstance(tlc._unwrap_if_constexpr(nv_mma_shared_layout), bool):
        raise TLEUsageError(f"tle.gpu.alloc nv_mma_shared_layout must be a compile-time bool, got "
                            f"{describe(nv_mma_shared_layout)}")
    _require_enabled("tle.gpu.alloc", _semantic)
    alias = tlc._unwrap_if_constexpr(alias)
    if alias is not None:
        buf = _alloc_alias(shape, dtype, alias, _semantic)
    else:
        buf = alloc_buffer(shape, dtype, memdesc_type(shape, dtype), _semantic)
    if init_value is not None:
        _local_store(buf, init_value, "tle.gpu.alloc init_value", _semantic)
    return buf


def _alloc_alias(shape, dtype, alias, _semantic) -> buffered_tensor:
    """tle.gpu.alloc(shape, dtype, alias=buffer): the ``tle.alloc_alias`` marker."""
    if not isinstance(alias, buffered_tensor):
        raise TLEUsageError(f"tle.gpu.alloc alias= must be a buffer from tle.gpu.alloc, got {describe(alias)}")
    if alias.remote_shard is not None:
        raise TLEUsageError("tle.gpu.alloc alias=: a remote buffer view cannot be aliased")
    size = math.prod(shape) * dtype.primitive_bitwidth // 8
    source = math.prod(alias.type.shape) * alias.type.dtype.primitive_bitwidth // 8
    if size > source:
        raise TLEUsageError(f"tle.gpu.alloc alias=: a {list(shape)} x {dtype} buffer ({size} bytes) does not fit in "
                            f"the aliased {list(alias.type.shape)} x {alias.type.dtype} buffer ({source} bytes)")
    btype = buffered_tensor_type(shape, dtype, smem)
    (handle,) = _markers.emit("alloc_alias", {"tle.marker.result_types": ("list", [memdesc_type(shape, dtype)])},
                              [tlc.tensor(alias.handle, alias.type.handle_type())], [btype.handle_type()],
                              _semantic=_semantic)
    return buffered_tensor(handle.handle, btype)


def _as_index(value, what, _semantic):
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, bool):
        raise TLEUsageError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        return _semantic.to_tensor(value)
    if not isinstance(value, tlc.tensor):
        raise TLEUsageError(f"{what} must be an integer scalar or tensor, got {describe(value)}")
    if not value.dtype.is_int() or value.dtype.is_int1():
        raise TLEUsageError(f"{what} must have an integer type, got {value.dtype}")
    if value.dtype.int_bitwidth < 32:
        value = _semantic.cast(value, tlc.int32)
    return value


def _local_pointers(buf: buffered_tensor, indices, _semantic) -> tlc.tensor:
    ptr_ty = buf.type.handle_type()
    handle = buf._handle_tensor()
    if indices is None:
        _require_pow2_shape(buf.type.shape, "tle.gpu.local_ptr without indices")
        operands = [_splat(handle, buf.type.shape, _semantic)]
        attrs = {"tle.marker.scalar_operands": ("i32-array", [0])}
    else:
        indices = unwrap(indices)
        if isinstance(indices, (tlc.tensor, int)):
            indices = (indices,)
        if not isinstance(indices, (tuple, list, tlc.tuple)):
            raise TLEUsageError(f"tle.gpu.local_ptr indices must be a tuple with one index per buffer dimension, "
                                f"got {describe(indices)}")
        indices = list(indices)
        rank = len(buf.type.shape)
        if len(indices) != rank:
            raise TLEUsageError(f"tle.gpu.local_ptr got {len(indices)} indices for a rank-{rank} buffer; "
                                f"pass one index per dimension")
        for i, (v, size) in enumerate(zip(indices, buf.type.shape)):
            # A constant index is known to be in or out of the buffer now.
            v = tlc._unwrap_if_constexpr(v)
            if isinstance(v, int) and not isinstance(v, bool) and not 0 <= v < size:
                raise TLEUsageError(f"tle.gpu.local_ptr index {i} is {v}, outside [0, {size}) (the buffer's shape "
                                    f"is {list(buf.type.shape)})")
        idx = [_as_index(v, f"tle.gpu.local_ptr index {i}", _semantic) for i, v in enumerate(indices)]
        blocks = [v.type.is_block() for v in idx]
        if any(blocks) and not all(blocks):
            raise TLEUsageError("tle.gpu.local_ptr cannot mix scalar and tensor indices; "
                                "broadcast the scalars (e.g. tl.full(shape, i, tl.int32)) or use all scalars")
        if all(blocks):
            # Broadcast every index to one shape (Triton's rules): the first
            # pass grows idx[0] to the common shape, the second brings the
            # others up to it.
            try:
                for i in range(1, len(idx)):
                    idx[0], idx[i] = _semantic.broadcast_impl_value(idx[0], idx[i])
                for i in range(1, len(idx)):
                    idx[0], idx[i] = _semantic.broadcast_impl_value(idx[0], idx[i])
            except ValueError:
                raise TLEUsageError(f"tle.gpu.local_ptr indices of shapes {[dims(v.shape) for v in idx]} do not "
                                    "broadcast to one shape") from None
            operands = [_splat(handle, idx[0].shape, _semantic)] + idx
            attrs = {"tle.marker.scalar_operands": ("i32-array", [0])}
        else:
            operands = [handle] + idx
            attrs = {}
    (ptrs,) = _markers.emit("local_pointers", attrs, operands, [ptr_ty],
                            interpret={"buffer_shape": dims(buf.type.shape)}, _semantic=_semantic)
    return ptrs


def remote_pointers(ptrs: tlc.tensor, rank: tlc.tensor, _semantic) -> tlc.tensor:
    """``tle.remote_pointers cluster``: the same element in CTA ``rank``'s shared memory."""
    ptr_ty = tlc.pointer_type(ptrs.dtype.element_ty, CLUSTER_ADDRESS_SPACE)
    if ptrs.type.is_block():
        operands = [ptrs, _semantic.splat(rank, ptrs.shape)]
        attrs = {"space": "#tle.remote_space<cluster>", "tle.marker.scalar_operands": ("i32-array", [1])}
    else:
        operands = [ptrs, rank]
        attrs = {"space": "#tle.remote_space<cluster>"}
    (result,) = _markers.emit("remote_pointers", attrs, operands, [ptr_ty], _semantic=_semantic)
    return result


def _flat_offsets_to_indices(buf: buffered_tensor, offsets, _semantic):
    """``local_ptr(buf, offsets=t)``: one index tensor per buffer dimension
    such that ``sum(index[d] * stride[d]) == t`` exactly (row-major strides;
    the first index is not reduced, so an offset past the end stays past the
    end rather than wrapping)."""
    offsets = tlc._unwrap_if_constexpr(offsets)
    if isinstance(offsets, (tuple, list, tlc.tuple)):
        raise TLEUsageError("tle.gpu.local_ptr offsets= takes one tensor of flat (row-major) element offsets, got "
                            f"{describe(offsets)}; for one index per dimension use indices=(i, j, ...)")
    if not isinstance(offsets, tlc.tensor) or not offsets.type.is_block():
        raise TLEUsageError("tle.gpu.local_ptr offsets= must be a tensor of flat (row-major) element offsets, got "
                            f"{describe(offsets)}; for a single element use indices=(i, j, ...)")
    if not offsets.dtype.is_int() or offsets.dtype.is_int1():
        raise TLEUsageError(f"tle.gpu.local_ptr offsets= must have an integer type, got {offsets.dtype}")
    if offsets.dtype.int_bitwidth < 32:
        offsets = _semantic.cast(offsets, tlc.int32)
    return _unravel(offsets, list(buf.type.shape), _semantic)


def _row_major_strides(shape):
    strides = [1] * len(shape)
    for d in builtins.range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return strides


def _unravel(flat, shape, _semantic):
    """One index per dimension of ``shape`` for the flat row-major offset
    ``flat`` (a tensor or a scalar); the first index is not reduced."""
    indices, rest = [], flat
    for stride in _row_major_strides(shape)[:-1]:
        indices.append(rest.__floordiv__(stride, _semantic=_semantic))
        rest = rest.__mod__(stride, _semantic=_semantic)
    indices.append(rest)
    return tuple(indices)


def _view_indices(view: buffer_view, indices, offsets, _semantic):
    """``local_ptr(view, ...)`` as indices into the view's buffer: the flat
    row-major offset of the view's element, unravelled in the buffer's shape
    (every index scalar, or every one a tensor)."""
    shape = list(view.type.shape)
    if tlc._unwrap_if_constexpr(offsets) is not None:
        if tlc._unwrap_if_constexpr(indices) is not None:
            raise TLEUsageError("tle.gpu.local_ptr takes indices= (one index per dimension) or offsets= (flat "
                                "element offsets), not both")
        return _flat_offsets_to_indices(view.base, offsets, _semantic)  # flat offsets are the buffer's too
    if indices is None:
        raise TLEUsageError(f"tle.gpu.local_ptr of a reshaped view ({view!r}) takes indices= or offsets=")
    indices = unwrap(indices)
    if isinstance(indices, (tlc.tensor, int)):
        indices = (indices,)
    if not isinstance(indices, (tuple, list, tlc.tuple)) or len(list(indices)) != len(shape):
        raise TLEUsageError(f"tle.gpu.local_ptr of a reshaped view takes one index per dimension of its shape "
                            f"{shape}, got {describe(indices)}")
    flat = None
    for i, (v, size, stride) in enumerate(zip(list(indices), shape, _row_major_strides(shape))):
        c = tlc._unwrap_if_constexpr(v)
        if isinstance(c, int) and not isinstance(c, bool) and not 0 <= c < size:
            raise TLEUsageError(f"tle.gpu.local_ptr index {i} is {c}, outside [0, {size}) (the view's shape is "
                                f"{shape})")
        term = _as_index(v, f"tle.gpu.local_ptr index {i}", _semantic)
        if term.dtype != tlc.int32:
            term = _semantic.cast(term, tlc.int32)
        if stride != 1:
            term = _semantic.mul(term, _semantic.to_tensor(stride), True)
        flat = term if flat is None else _semantic.add(flat, term, True)
    return _unravel(flat, list(view.base.type.shape), _semantic)


REMATERIALIZE_ATTR = "tle.rematerialize_index"


def rematerialize_index(x, _semantic):
    """tle.gpu.rematerialize_index: an impure ``mov`` of ``x`` (LLVM may not
    CSE or hoist it), tagged ``tle.rematerialize_index``."""
    x = tlc._unwrap_if_constexpr(x)
    if isinstance(x, int) and not isinstance(x, bool):
        x = _semantic.to_tensor(x)
    if not isinstance(x, tlc.tensor) or x.dtype not in (tlc.int32, tlc.uint32, tlc.int64, tlc.uint64):
        raise TLEUsageError("tle.gpu.rematerialize_index takes a 32-bit or 64-bit integer scalar or tensor, got "
                            f"{describe(x)}")
    if _interpret.active(_semantic):
        return x
    wide = x.dtype.primitive_bitwidth == 64
    asm, constraints = ("mov.b64 $0, $1;", "=l,l") if wide else ("mov.b32 $0, $1;", "=r,r")
    out = tlc.inline_asm_elementwise(asm, constraints, [x], x.dtype, is_pure=False, pack=1, _semantic=_semantic)
    out.handle.set_attr(REMATERIALIZE_ATTR, _semantic.builder.get_unit_attr())
    return out


def local_ptr(buffer, indices, offsets, _semantic, shape=None):
    shape = tlc._unwrap_if_constexpr(shape)
    if shape is not None:
        indices = _broadcast_indices(indices, offsets, shape, _semantic)
    view = tlc._unwrap_if_constexpr(buffer)
    if isinstance(view, buffer_view):
        _require_enabled("tle.gpu.local_ptr", _semantic)
        indices, offsets, buffer = _view_indices(view, indices, offsets, _semantic), None, view.base
    buf = _buffer(buffer, "tle.gpu.local_ptr")
    _require_enabled("tle.gpu.local_ptr", _semantic)
    if tlc._unwrap_if_constexpr(offsets) is not None:
        if tlc._unwrap_if_constexpr(indices) is not None:
            raise TLEUsageError("tle.gpu.local_ptr takes indices= (one index per dimension) or offsets= (flat "
                                "element offsets), not both")
        indices = _flat_offsets_to_indices(buf, offsets, _semantic)
    ptrs = _local_pointers(buf, indices, _semantic)
    if buf.remote_shard is not None:
        ptrs = remote_pointers(ptrs, buf.remote_shard, _semantic)
    return ptrs


def _broadcast_indices(indices, offsets, shape, _semantic):
    """local_ptr(buf, indices, shape=...): each index broadcast to ``shape``."""
    what = "tle.gpu.local_ptr shape="
    shape = _const_shape(shape, what)
    if tlc._unwrap_if_constexpr(offsets) is not None:
        raise TLEUsageError(f"{what} goes with indices= (one index per dimension), not offsets=")
    indices = tlc._unwrap_if_constexpr(indices)
    if isinstance(indices, tlc.tuple):
        indices = list(indices.values)
    if not isinstance(indices, (list, tuple)):
        raise TLEUsageError(f"{what} needs indices=, a tuple with one index per buffer dimension, got "
                            f"{describe(indices)}")
    out = []
    for i, index in enumerate(indices):
        index = _to_tensor(tlc._unwrap_if_constexpr(index), f"tle.gpu.local_ptr indices[{i}]", _semantic)
        have = dims(index.shape) if index.type.is_block() else []
        if len(have) > len(shape) or any(h not in (1, w) for h, w in zip(have[::-1], shape[::-1])):
            raise TLEUsageError(f"tle.gpu.local_ptr indices[{i}] of shape {have} does not broadcast to shape={shape}")
        if not index.type.is_block():
            out.append(_semantic.splat(index, shape))
            continue
        if len(have) < len(shape):
            index = _semantic.reshape(index, [1] * (len(shape) - len(have)) + have, False)
        out.append(_semantic.broadcast_impl_shape(index, shape))
    return tuple(out)


def _local_store(buf: buffered_tensor, value, what, _semantic, marker_attrs=None):
    if buf.remote_shard is not None:
        raise TLEUsageError(f"{what}: a remote buffer view is written through tle.gpu.local_ptr pointers")
    shape = list(buf.type.shape)
    _require_pow2_shape(shape, what)
    value = _to_tensor(value, f"{what}: value", _semantic)
    if value.dtype.is_ptr():
        raise TLEUsageError(f"{what}: value holds pointers ({value.dtype}); a buffer of {buf.type.dtype} cannot "
                            "store them")
    if not value.type.is_block():
        value = _semantic.splat(value, shape)
    if dims(value.shape) != shape:
        raise TLEUsageError(f"{what}: value of shape {dims(value.shape)} does not match the buffer's {shape}")
    if value.dtype != buf.type.dtype:
        value = _semantic.cast(value, buf.type.dtype)
    _markers.emit("local_store", {**(marker_attrs or {}), "tle.marker.scalar_operands": ("i32-array", [1]),
                                  "tle.marker.no_results": True},
                  [value, _splat(buf._handle_tensor(), shape, _semantic)], [tlc.int32], _semantic=_semantic)


def local_store(buffer, value, _semantic, name="tle.gpu.local_store"):
    view = tlc._unwrap_if_constexpr(buffer)
    if isinstance(view, buffer_view):
        # Row-major: the value reshaped to the buffer's shape is the same elements.
        shape = list(view.type.shape)
        _require_pow2_shape(shape, name)
        value = _to_tensor(value, f"{name}: value", _semantic)
        if value.type.is_block():
            if dims(value.shape) != shape:
                raise TLEUsageError(f"{name}: value of shape {dims(value.shape)} does not match the view's {shape}")
            value = _semantic.reshape(value, list(view.base.type.shape), False)
        buffer = view.base
    buf = _buffer(buffer, name)
    _require_enabled(name, _semantic)
    _local_store(buf, value, name, _semantic)


def local_load(buffer, _semantic, name="tle.gpu.local_load"):
    view = tlc._unwrap_if_constexpr(buffer)
    if isinstance(view, buffer_view):
        _require_pow2_shape(view.type.shape, name)
        return _semantic.reshape(local_load(view.base, _semantic, name), list(view.type.shape), False)
    buf = _buffer(buffer, name)
    if buf.remote_shard is not None:
        raise TLEUsageError(f"{name}: a remote buffer view is read through tle.gpu.local_ptr pointers")
    _require_pow2_shape(buf.type.shape, name)
    _require_enabled(name, _semantic)
    return _local_load(buf, _semantic)


@builtin("tle.gpu.buffered_tensor.load")
def _buffer_load(self, _semantic=None, _generator=None):
    """The whole buffer as a tensor of its shape and dtype: FlagTree's
    ``buf.load()``, the same as ``tle.gpu.local_load(buf)``.

    Returns:
        A tensor of the buffer's shape and dtype.

    Example::

        buf = tle.gpu.alloc([N], dtype=tl.float32)
        buf.store(tl.load(X + tl.arange(0, N)))
        tl.store(OUT + tl.arange(0, N), buf.load() * 2)
    """
    return local_load(self, _semantic, name="tle.gpu.buffered_tensor.load")


@builtin("tle.gpu.buffered_tensor.store")
def _buffer_store(self, value, _semantic=None, _generator=None):
    """Write ``value`` into the whole buffer: FlagTree's ``buf.store(value)``,
    the same as ``tle.gpu.local_store(buf, value)``.

    Args:
        value: a tensor of exactly the buffer's shape, or a scalar (splat
            to that shape); it is cast to the buffer's dtype.

    Returns:
        None.
    """
    local_store(self, value, _semantic, name="tle.gpu.buffered_tensor.store")


# FlagTree's buffer methods: buf.load(), buf.store(value), on buffers and
# their reshaped views.
buffered_tensor.load = buffer_view.load = _buffer_load
buffered_tensor.store = buffer_view.store = _buffer_store


def _local_load(buf: buffered_tensor, _semantic) -> tlc.tensor:
    (value,) = _markers.emit("local_load", {"tle.marker.scalar_operands": ("i32-array", [0])},
                             [_splat(buf._handle_tensor(), buf.type.shape, _semantic)], [buf.type.dtype],
                             _semantic=_semantic)
    return value


_EVICTION_POLICIES = ("", "evict_first", "evict_last")


def _copy_mask(mask, ptrs, shape, is_async, _semantic):
    """``mask=`` of a pointer copy (FlagTree's): a boolean tensor or scalar
    broadcast to ``shape``, for ``is_async=True`` copies into a buffer only;
    masked-off elements land as zeros. None when no mask was given."""
    mask = tlc._unwrap_if_constexpr(mask)
    if mask is None:
        return None
    if not is_async:
        raise TLEUsageError("tle.gpu.copy mask requires is_async=True (a cp.async copy into a buffer, masked-off "
                            "elements zero-filled); mask a synchronous copy's pointers with tl.load / tl.store")
    if isinstance(mask, bool):
        mask = _semantic.to_tensor(mask)
    if not isinstance(mask, tlc.tensor) or mask.dtype != tlc.int1:
        raise TLEUsageError(f"tle.gpu.copy mask must have boolean elements (a comparison), got "
                            f"{describe(mask.dtype if isinstance(mask, tlc.tensor) else mask)}")
    if not mask.type.is_block():
        return _semantic.splat(mask, shape)
    try:
        return _semantic.broadcast_impl_shape(mask, shape)
    except ValueError as e:
        raise TLEUsageError(f"tle.gpu.copy mask of shape {dims(mask.shape)} does not broadcast to the copy's "
                            f"shape {shape}: {e}") from None


def copy(src, dst, shape, offsets, barrier, is_async, _semantic, mask=None, eviction_policy=""):
    shape = _const_shape(shape, "tle.gpu.copy shape")
    eviction_policy = tlc._unwrap_if_constexpr(eviction_policy)
    if eviction_policy is None:
        eviction_policy = ""
    if eviction_policy not in _EVICTION_POLICIES:
        raise TLEUsageError(f"tle.gpu.copy eviction_policy must be one of {list(_EVICTION_POLICIES)}, got "
                            f"{describe(eviction_policy)}")
    src_desc = isinstance(tlc._unwrap_if_constexpr(src), tlc.tensor_descriptor_base)
    dst_desc = isinstance(tlc._unwrap_if_constexpr(dst), tlc.tensor_descriptor_base)
    gather = src_desc and (tlc._unwrap_if_constexpr(is_async) is True or _is_row_gather(offsets))
    if eviction_policy and (dst_desc or gather or (
            src_desc and not isinstance(tlc._unwrap_if_constexpr(dst), buffered_tensor))):
        raise TLEUsageError("tle.gpu.copy eviction_policy= with a tensor descriptor is for a TMA load of a block "
                            "into a buffer (an L2 cache hint), not for stores or row gathers")
    if tlc._unwrap_if_constexpr(mask) is not None and (src_desc or dst_desc):
        raise TLEUsageError("tle.gpu.copy mask= is for copies from global pointers into a buffer with is_async=True "
                            "(cp.async), not for tensor-descriptor copies (the descriptor's bounds mask them)")
    if gather:
        _copy_from_descriptor(src, dst, shape, offsets, barrier, is_async, _semantic)
        return
    if src_desc:
        _copy_descriptor_sync(src, dst, shape, offsets, barrier, is_async, _semantic, load=True,
                              eviction_policy=eviction_policy)
        return
    if dst_desc:
        _copy_descriptor_sync(dst, src, shape, offsets, barrier, is_async, _semantic, load=False)
        return
    if tlc._unwrap_if_constexpr(offsets) is not None:
        raise TLEUsageError("tle.gpu.copy offsets= is for a tensor-descriptor source or destination (the block's "
                            "coordinates); slice the pointers instead")
    barrier = tlc._unwrap_if_constexpr(barrier)
    src, dst = tlc._unwrap_if_constexpr(src), tlc._unwrap_if_constexpr(dst)
    view = src if isinstance(src, buffer_view) else dst if isinstance(dst, buffer_view) else None
    if view is not None and isinstance(src, (buffered_tensor, buffer_view)) != isinstance(dst, (buffered_tensor,
                                                                                               buffer_view)):
        # A copy between global pointers and a reshaped view is the same copy
        # between the pointers reshaped to the buffer's shape and the buffer.
        other = dst if view is src else src
        if not isinstance(other, tlc.tensor) or not other.type.is_block() or dims(other.shape) != shape \
                or list(view.type.shape) != shape:
            raise TLEUsageError(f"tle.gpu.copy requires shape to exactly match both operands: shape {shape}, the "
                                f"pointer tensor's "
                                f"{dims(other.shape) if isinstance(other, tlc.tensor) else describe(other)}, the "
                                f"view's {list(view.type.shape)}")
        _require_pow2_shape(shape, "tle.gpu.copy")
        shape = list(view.base.type.shape)
        other = _semantic.reshape(other, shape, False)
        src, dst = (view.base, other) if view is src else (other, view.base)
    if isinstance(src, buffered_tensor) == isinstance(dst, buffered_tensor):
        raise TLEUsageError("tle.gpu.copy copies between a buffer and a tensor of global pointers: exactly one "
                            "of src and dst must be a buffer")
    buf, ptrs = (src, dst) if isinstance(src, buffered_tensor) else (dst, src)
    buf_arg, ptrs_arg = ("src", "dst") if buf is src else ("dst", "src")
    if buf.remote_shard is not None:
        raise TLEUsageError(f"tle.gpu.copy {buf_arg}: a remote buffer view cannot be copied; copy to a local "
                            "buffer, or use tl.load/tl.store on its tle.gpu.local_ptr pointers")
    if not isinstance(ptrs, tlc.tensor) or not ptrs.type.is_block() or not ptrs.dtype.is_ptr():
        raise TLEUsageError(f"tle.gpu.copy {ptrs_arg} must be a tensor of global pointers ({buf_arg} is the buffer), "
                            f"got {describe(ptrs)}")
    if ptrs.dtype.address_space != 1:
        raise TLEUsageError(f"tle.gpu.copy {ptrs_arg}: pointers must be global (address space 1), got address space "
                            f"{ptrs.dtype.address_space}; use tl.load/tl.store on local pointers instead")
    if ptrs.dtype.element_ty != buf.type.dtype:
        raise TLEUsageError(f"tle.gpu.copy: {ptrs_arg} points to {ptrs.dtype.element_ty} but the buffer ({buf_arg}) "
                            f"holds {buf.type.dtype}")
    if dims(ptrs.shape) != shape or list(buf.type.shape) != shape:
        raise TLEUsageError(f"tle.gpu.copy requires shape to exactly match both operands: shape {shape}, the "
                            f"pointer tensor's {dims(ptrs.shape)}, the buffer's {list(buf.type.shape)}")
    _require_pow2_shape(shape, "tle.gpu.copy")
    _require_enabled("tle.gpu.copy", _semantic)
    is_async = tlc._unwrap_if_constexpr(is_async)
    if not isinstance(is_async, bool):
        raise TLEUsageError(f"tle.gpu.copy is_async must be a compile-time bool, got {describe(is_async)}")
    if (eviction_policy or tlc._unwrap_if_constexpr(mask) is not None) and (not is_async or buf is src):
        if buf is src:
            raise TLEUsageError("tle.gpu.copy(is_async=True) with mask= or eviction_policy= supports only a "
                                "tl.tensor of global pointers copied into a buffer")
        if tlc._unwrap_if_constexpr(mask) is not None:
            _copy_mask(mask, ptrs, shape, is_async, _semantic)  # the error
        raise TLEUsageError("tle.gpu.copy eviction_policy= is for is_async=True copies (cp.async) into a buffer")
    if barrier is not None:
        if buf is src:
            raise TLEUsageError("tle.gpu.copy barrier= is for a copy into a buffer (it completes on the barrier); "
                                "a copy out of a buffer is synchronous: omit barrier=")
        if is_async:
            raise TLEUsageError("tle.gpu.copy takes barrier= or is_async=True (a pipe slot fill), not both")
        bar = _barriers._one_barrier(barrier, "tle.gpu.copy barrier=")
        _require_capability("tle.gpu.copy(ptrs, buffer, ..., barrier=) (cp.async)", 80, _semantic)
        value = _semantic.load(ptrs, None, None, (), "", "", "", False)
        _barriers.async_copy_load(value, buf, bar, _semantic)
        return
    if is_async:
        if buf is src:
            raise TLEUsageError("tle.gpu.copy(is_async=True) supports only a tl.tensor of global pointers copied "
                                "into a buffer; a copy out of a buffer is synchronous: drop is_async")
        _require_capability("tle.gpu.copy(is_async=True) (cp.async)", 80, _semantic)
        # A tagged tt.load and a store into the buffer: Triton's coalescing
        # gives the load its vector layout, then triton-tle-lower-pipes makes
        # the pair one cp.async into a pipe slot (completing at the writer's
        # commit), or into any other buffer a tle.async_copy that the
        # kernel's tle.gpu.async_commit_group / async_wait_group complete.
        mask = _copy_mask(mask, ptrs, shape, is_async, _semantic)
        other = None if mask is None else _semantic.to_tensor(tlc.constexpr(0)).to(buf.type.dtype,
                                                                                   _semantic=_semantic)
        value = _semantic.load(ptrs, mask, other, (), "", "", eviction_policy, False)
        if not _interpret.active(_semantic):  # the interpreter copies at once
            value.handle.set_attr(ASYNC_COPY_ATTR, _semantic.builder.get_unit_attr())
        _local_store(buf, value, "tle.gpu.copy", _semantic)
        return
    handle = _splat(buf._handle_tensor(), shape, _semantic)
    handle_index = 0 if buf is src else 1
    operands = [handle, ptrs] if handle_index == 0 else [ptrs, handle]
    _markers.emit("copy", {"shape": ("i64-array", shape),
                           "tle.marker.scalar_operands": ("i32-array", [handle_index]),
                           "tle.marker.no_results": True}, operands, [tlc.int32], _semantic=_semantic)


def _is_row_gather(offsets) -> bool:
    """offsets=[rows, col] with rows a tensor: the TMA row gather form."""
    offsets = tlc._unwrap_if_constexpr(offsets)
    if isinstance(offsets, tlc.tuple):
        offsets = list(offsets.values)
    if not isinstance(offsets, (list, tuple)) or len(offsets) == 0:
        return False
    first = tlc._unwrap_if_constexpr(offsets[0])
    return isinstance(first, tlc.tensor) and first.type.is_block()


def _copy_descriptor_sync(desc, buf, shape, offsets, barrier, is_async, _semantic, load, eviction_policy=""):
    """tle.gpu.copy(desc, buf, shape, offsets) / tle.gpu.copy(buf, desc, shape, offsets):
    a synchronous copy of the descriptor's block at ``offsets`` into / out of a
    buffer: Triton's descriptor load (a TMA load on sm_90+) stored into the
    buffer, or the buffer loaded and stored by Triton's descriptor store
    (a TMA store). Both complete before the next statement."""
    desc = tlc._unwrap_if_constexpr(desc)
    buf = tlc._unwrap_if_constexpr(buf)
    direction = "from" if load else "to"
    what = f"tle.gpu.copy {direction} a tensor descriptor"
    barrier = tlc._unwrap_if_constexpr(barrier)
    if barrier is not None and not load:
        raise TLEUsageError(f"{what}: barrier= is for a copy from a descriptor into a buffer (a TMA load that "
                            "completes on the barrier); an asynchronous TMA store is is_async=True, waited for "
                            "with tle.gpu.tma_store_wait")
    if barrier is not None:
        barrier = _barriers._one_barrier(barrier, f"{what} barrier=")
    is_async = tlc._unwrap_if_constexpr(is_async)
    async_store = False
    if is_async is not False and is_async is not None:
        if load:
            raise TLEUsageError(f"{what}: is_async=True is the TMA row gather into a pipe slot "
                                "(offsets=[rows, col]); an asynchronous block copy into a buffer completes on a "
                                "barrier: pass barrier= instead")
        if is_async is not True:
            raise TLEUsageError(f"{what}: is_async must be a compile-time bool, got {describe(is_async)}")
        async_store = True
    buf_arg = "dst" if load else "src"
    if not isinstance(buf, buffered_tensor):
        raise TLEUsageError(f"{what} copies {'into' if load else 'out of'} a buffer: {buf_arg} must be a "
                            f"tle.gpu.alloc buffer, got {describe(buf)}")
    if buf.remote_shard is not None:
        raise TLEUsageError(f"{what}: {buf_arg} is a remote buffer view; copy with a local buffer")
    block = dims(desc.block_shape)
    if desc.dtype != buf.type.dtype:
        raise TLEUsageError(f"{what}: the descriptor holds {desc.dtype} but the buffer holds {buf.type.dtype}")
    if shape != block or list(buf.type.shape) != shape:
        raise TLEUsageError(f"{what}: shape {shape} must equal the descriptor's block shape {block} and the "
                            f"buffer's shape {list(buf.type.shape)}")
    offsets = tlc._unwrap_if_constexpr(offsets)
    if isinstance(offsets, tlc.tuple):
        offsets = list(offsets.values)
    if not isinstance(offsets, (list, tuple)) or len(offsets) != len(block):
        raise TLEUsageError(f"{what} needs offsets=[...], one scalar coordinate per dimension of the descriptor "
                            f"({len(block)}), got offsets={describe(offsets)}")
    coords = []
    for i, o in enumerate(offsets):
        o = tlc._unwrap_if_constexpr(o)
        if isinstance(o, bool) or not isinstance(o, (int, tlc.tensor)) or \
                (isinstance(o, tlc.tensor) and (o.type.is_block() or not o.dtype.is_int())):
            raise TLEUsageError(f"{what}: offsets[{i}] must be an integer scalar, got {describe(o)}")
        coords.append(o)
    _require_pow2_shape(shape, what)
    _require_enabled("tle.gpu.copy", _semantic)
    if load and barrier is not None:
        nbytes = builtins.int(math.prod(shape)) * desc.dtype.primitive_bitwidth // 8
        expect = barrier.array.type.expect_bytes
        if expect is not None and expect != nbytes:
            raise TLEUsageError(f"{what}: the copy moves {nbytes} bytes but its barrier was allocated with "
                                f"expect_bytes={expect}")
        if nbytes >= 1 << 20:
            raise TLEUsageError(f"{what}: the copy moves {nbytes} bytes; an mbarrier counts fewer than 2^20 a phase")
        _require_capability(f"{what} with barrier= (an asynchronous TMA load)", 90, _semantic)
        value = _semantic.descriptor_load(desc, coords, "", "")
        _cache_hint(value, eviction_policy, what, _semantic)
        _barriers.async_tma_load(value, buf, barrier, _semantic)
    elif load:
        value = _semantic.descriptor_load(desc, coords, "", "")
        _cache_hint(value, eviction_policy, what, _semantic)
        _local_store(buf, value, what, _semantic)
    elif async_store:
        _require_capability(f"{what} with is_async=True (an asynchronous TMA store)", 90, _semantic)
        value = _local_load(buf, _semantic)
        _semantic.descriptor_store(desc, value, coords)
        _markers.emit("async_tma_store", {"tle.marker.scalar_operands": ("i32-array", [1]),
                                          "tle.marker.no_results": True},
                      [value, _splat(tlc.tensor(buf.handle, buf.type.handle_type()), shape, _semantic)], [tlc.int32],
                      _semantic=_semantic)
    else:
        _semantic.descriptor_store(desc, _local_load(buf, _semantic), coords)


def _cache_hint(value, eviction_policy, what, _semantic):
    """An L2 eviction policy on the TMA load giving ``value``
    (``tle.tma_load_cache_hint``; FlagTree's ``eviction_policy=``)."""
    if not eviction_policy:
        return
    _require_capability(f"{what} with eviction_policy= (an L2 cache hint on a TMA load)", 90, _semantic)
    _markers.emit("tma_load_cache_hint", {"policy": f'"{eviction_policy}"', "tle.marker.no_results": True}, [value],
                  [tlc.int32], _semantic=_semantic)


def _copy_from_descriptor(desc, dst, shape, offsets, barrier, is_async, _semantic):
    """tle.gpu.copy(desc, slot_field, shape, offsets=[rows, col], is_async=True):
    Triton's descriptor gather of the rows, stored into the slot field by a
    local_store marker tagged ``tle.tma_fill``; triton-tle-lower-pipes makes
    the pair one TMA gather into the slot on its ready barrier."""
    desc = tlc._unwrap_if_constexpr(desc)
    dst = tlc._unwrap_if_constexpr(dst)
    if tlc._unwrap_if_constexpr(barrier) is not None:
        raise TLEUsageError("tle.gpu.copy from a tensor descriptor completes on the pipe slot's ready barrier; "
                            "barrier= is not supported")
    if tlc._unwrap_if_constexpr(is_async) is not True:
        raise TLEUsageError("tle.gpu.copy from a tensor descriptor with offsets=[rows, col] (a tensor of rows) is a "
                            "TMA row gather into a pipe slot (it completes at the writer's commit): pass "
                            "is_async=True; for a synchronous block copy give one scalar offset per dimension")
    if not isinstance(dst, buffered_tensor):
        raise TLEUsageError(f"tle.gpu.copy from a tensor descriptor copies into a buffer (a field of a pipe slot), "
                            f"got dst {describe(dst)}")
    block = dims(desc.block_shape)
    if len(block) != 2 or block[0] != 1:
        raise TLEUsageError(f"tle.gpu.copy from a tensor descriptor gathers rows: the descriptor's block must be "
                            f"[1, W], got {block}")
    if desc.dtype != dst.type.dtype:
        raise TLEUsageError(f"tle.gpu.copy: the descriptor holds {desc.dtype} but the buffer holds {dst.type.dtype}")
    offsets = tlc._unwrap_if_constexpr(offsets)
    if not isinstance(offsets, (list, tuple, tlc.tuple)) or len(offsets) != 2:
        raise TLEUsageError("tle.gpu.copy from a tensor descriptor needs offsets=[rows, col]: an int32 tensor of row "
                            f"indices and a column, got offsets={describe(offsets)}")
    rows, col = (tlc._unwrap_if_constexpr(o) for o in offsets)
    if not isinstance(rows, tlc.tensor) or not rows.type.is_block() or len(rows.shape) != 1 \
            or not rows.dtype.is_int() or rows.dtype.primitive_bitwidth > 32:
        raise TLEUsageError(f"tle.gpu.copy offsets[0] must be a 1-D tensor of int32 row indices, got {describe(rows)}")
    if rows.dtype != tlc.int32:
        rows = _semantic.cast(rows, tlc.int32)
    n = dims(rows.shape)[0]
    if shape != [n, block[1]] or list(dst.type.shape) != shape:
        raise TLEUsageError(f"tle.gpu.copy from a tensor descriptor: shape {shape} must be [len(rows), W] = "
                            f"[{n}, {block[1]}] (the descriptor's block is [1, {block[1]}]) and equal the buffer's "
                            f"{list(dst.type.shape)}")
    if n < 8 or n % 4:
        raise TLEUsageError(f"tle.gpu.copy from a tensor descriptor gathers a multiple of 4 rows, at least 8 "
                            f"(TMA copies them four at a time), got {n}")
    bits = desc.dtype.primitive_bitwidth
    if block[1] * bits // 8 < 32:
        raise TLEUsageError(f"tle.gpu.copy from a tensor descriptor: a row of the block must be at least 32 bytes, "
                            f"got {block[1]} x {desc.dtype}")
    if isinstance(col, tlc.tensor) and col.type.is_block():
        raise TLEUsageError(f"tle.gpu.copy offsets[1] (the column) must be a scalar, got {describe(col)}")
    _require_enabled("tle.gpu.copy", _semantic)
    _require_capability("tle.gpu.copy from a tensor descriptor (TMA)", 90, _semantic)
    value = _semantic.descriptor_gather(desc, rows, col, "", "")
    _local_store(dst, value, "tle.gpu.copy", _semantic, marker_attrs={TMA_FILL_ATTR: "unit"})


def memory_space(input, space, _semantic):
    space = tlc._unwrap_if_constexpr(space)
    # (A runtime value must not reach `in`: a tensor's == is a builtin.)
    if not isinstance(space, (str, type(smem))) or space not in ("shared_memory", "smem", smem):
        raise TLEUsageError(f"tle.gpu.memory_space space must be 'shared_memory', got {describe(space)}")
    input = tlc._unwrap_if_constexpr(input)
    if not isinstance(input, tlc.tensor) or not input.type.is_block():
        raise TLEUsageError(f"tle.gpu.memory_space input must be a tensor, got {describe(input)}")
    if input.dtype.is_ptr():
        raise TLEUsageError(f"tle.gpu.memory_space input holds pointers ({input.dtype}), which TLE buffers cannot hold")
    mlir_type(input.dtype, "tle.gpu.memory_space input")
    _require_enabled("tle.gpu.memory_space", _semantic)
    buf = alloc(dims(input.shape), input.dtype, None, smem, input, False, _semantic)
    return local_load(buf, _semantic)


def remote(buffer_or_ptr, shard_id, scope, context, _semantic):
    context = tlc._unwrap_if_constexpr(context)
    target = tlc._unwrap_if_constexpr(buffer_or_ptr)
    mesh = None  # scope None: the kernel's own cluster
    if tlc._unwrap_if_constexpr(scope) is None:
        if context is not None:
            raise TLEUsageError("tle.remote with a device context needs scope= (the context's device mesh)")
    else:
        scope_mesh = _mesh(scope, "tle.remote", "scope")
        global_ptrs = (isinstance(target, tlc.tensor) and not isinstance(target, buffered_tensor)
                       and target.dtype.is_ptr() and target.dtype.address_space == 1)
        if context is not None or (global_ptrs and scope_mesh.level_size("device") > 1):
            return _remote_device(buffer_or_ptr, shard_id, scope_mesh, context, _semantic)
        mesh = cluster_mesh(scope, "tle.remote", "scope")
    _require_enabled("tle.remote", _semantic)
    _require_capability("tle.remote (thread-block clusters, distributed shared memory)", 90, _semantic)
    rank = (_implicit_cluster_rank(shard_id, _semantic) if mesh is None
            else linear_shard(shard_id, mesh, _semantic))
    if isinstance(target, buffered_tensor):
        if target.remote_shard is not None:
            raise TLEUsageError("tle.remote of a remote buffer view: pass the buffer itself as buffer_or_ptr")
        rtype = buffered_tensor_type(target.type.shape, target.type.dtype, target.type.scope, remote=True)
        return buffered_tensor(target.handle, rtype, remote_shard=rank)
    if (not isinstance(target, tlc.tensor) or not target.dtype.is_ptr()
            or target.dtype.address_space not in (SHARED_ADDRESS_SPACE, CLUSTER_ADDRESS_SPACE)):
        got = (f"pointers in address space {target.dtype.address_space}"
               if isinstance(target, tlc.tensor) and target.dtype.is_ptr() else describe(target))
        raise TLEUsageError(f"tle.remote buffer_or_ptr must be a buffer, shared-memory pointers from "
                            f"tle.gpu.local_ptr or cluster pointers from tle.remote, got {got}")
    # Pointers already into a peer's shared memory (address space 7) are
    # re-targeted to CTA `rank`'s copy, as FlagTree allows.
    return remote_pointers(target, rank, _semantic)


def _implicit_cluster_rank(shard_id, _semantic):
    """``tle.remote`` without ``scope``: the rank in the kernel's own cluster
    (set by its meshes; a kernel without one is a cluster of one CTA, whose
    only rank is 0: the compiler refuses any other there)."""
    shard = tlc._unwrap_if_constexpr(shard_id)
    if isinstance(shard, (tuple, list, tlc.tuple)):
        raise TLEUsageError("tle.remote without scope takes the CTA's rank in the kernel's cluster (one int), got "
                            f"coordinates {describe(shard)}; pass scope=<mesh> to give one per mesh axis")
    if isinstance(shard, int) and not isinstance(shard, bool) and shard < 0:
        raise TLEUsageError(f"tle.remote shard_id {shard} is negative")
    return _scalar_i32(shard, "tle.remote shard_id", _semantic)


def _remote_device(ptrs, shard_id, mesh, context, _semantic):
    """``tle.remote`` over device axes: ``tle.remote_pointers device`` with the
    peer's byte offset from the context's ``peer_offsets``."""
    from .device_runtime import device_context
    if mesh.level_size("device") <= 1:
        raise TLEUsageError(f"tle.remote with a context: scope {mesh!r} has no device axis of size > 1")
    if not isinstance(context, device_context):
        raise TLEUsageError("tle.remote over device axes needs context=tle.device_context(...) (the peers' heap "
                            f"offsets), got {describe(context)}")
    if context.mesh != mesh:
        raise TLEUsageError(f"tle.remote: the device context is for {context.mesh!r}, scope is {mesh!r}")
    _require_enabled("tle.remote", _semantic)
    target = tlc._unwrap_if_constexpr(ptrs)
    if isinstance(target, buffered_tensor) or not isinstance(target, tlc.tensor) or not target.dtype.is_ptr() \
            or target.dtype.address_space != 1:
        got = (f"pointers in address space {target.dtype.address_space}"
               if isinstance(target, tlc.tensor) and target.dtype.is_ptr() else describe(target))
        raise TLEUsageError("tle.remote over device axes takes pointers into this device's symmetric heap "
                            f"(global memory), got {got}")
    device_axes = [a for a, lvl in zip(mesh.axis_names, mesh.levels) if lvl == "device"]
    shard = tlc._unwrap_if_constexpr(shard_id)
    if isinstance(shard, (tuple, list, tlc.tuple)):
        coords = [tlc._unwrap_if_constexpr(c) for c in shard]
        if len(coords) != len(device_axes):
            raise TLEUsageError(f"tle.remote shard_id has {len(coords)} coordinates but {mesh!r} has "
                                f"{len(device_axes)} device axes")
    else:
        coords = [shard]
        device_axes = ["device rank"]
    sizes = [mesh.level_size("device")] if device_axes == ["device rank"] else \
        [mesh.axis_size(a) for a in device_axes]
    rank = None
    for c, axis, size in zip(coords, device_axes, sizes):
        if isinstance(c, int) and not isinstance(c, bool) and not 0 <= c < size:
            raise TLEUsageError(f"tle.remote shard_id: {axis} {c} is outside [0, {size}) for {mesh!r}")
        v = _scalar_i32(c, "tle.remote shard_id", _semantic)
        rank = v if rank is None else _semantic.add(_semantic.mul(rank, _semantic.to_tensor(size), True), v, True)
    offset = _semantic.load(_semantic.add(context.peer_offsets, rank, True), None, None, (), "", "", "", False)
    # The pointers moved by the peer's byte offset, as plain pointer
    # arithmetic (what `tle.remote_pointers device` lowers to): Triton's
    # alignment and coalescing analyses then see the pointers' contiguity,
    # and the offset's guaranteed 16-byte multiple (from_group checks it)
    # keeps the source's alignment, so peer loads and stores vectorize.
    element = target.dtype.element_ty
    bits = element.primitive_bitwidth if not element.is_ptr() else 64
    if bits % 8 == 0 and bits <= 128:
        nbytes = bits // 8
        elems = _semantic.floordiv(offset, _semantic.to_tensor(nbytes)) if nbytes > 1 else offset
        elems = _semantic.multiple_of(elems, [max(1, 16 // nbytes)])
        return _semantic.add(target, elems, True)
    raw = _semantic.bitcast(target, tlc.pointer_type(tlc.int8))
    raw = _semantic.add(raw, _semantic.multiple_of(offset, [16]), True)
    return _semantic.bitcast(raw, target.dtype)


def async_commit_group(_semantic) -> None:
    _require_enabled("tle.gpu.async_commit_group", _semantic)
    _require_capability("tle.gpu.async_commit_group (cp.async)", 80, _semantic)
    _markers.emit("async_commit_group", {"tle.marker.no_results": True}, [], [tlc.int32], _semantic=_semantic)


def async_wait_group(max_pending, _semantic) -> None:
    max_pending = tlc._unwrap_if_constexpr(max_pending)
    if isinstance(max_pending, bool) or not isinstance(max_pending, int):
        raise TLEUsageError(f"tle.gpu.async_wait_group max_pending must be a compile-time int in [0, 7], got "
                            f"{describe(max_pending)}")
    if not 0 <= max_pending <= 7:
        raise TLEUsageError(f"tle.gpu.async_wait_group max_pending must be in [0, 7], got {max_pending}")
    _require_enabled("tle.gpu.async_wait_group", _semantic)
    _require_capability("tle.gpu.async_wait_group (cp.async)", 80, _semantic)
    _markers.emit("async_wait_group", {"pendings": ("i32", max_pending), "tle.marker.no_results": True}, [],
                  [tlc.int32], _semantic=_semantic)
