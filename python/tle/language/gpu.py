"""``tle.gpu``: shared-memory buffers and pointers into them (TLE-Struct GPU).

    buf = tle.gpu.alloc([BLOCK], dtype=tl.int32, scope=tle.gpu.smem)
    ptr = tle.gpu.local_ptr(buf, (idx,))        # !tt.ptr<i32, 3> per element
    tl.atomic_add(ptr, 1)                        # atom.shared
    vals = tle.gpu.local_load(buf)

How these cross Triton and reach PTX is docs/local-memory.md.
"""

from __future__ import annotations

import builtins
import math

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe, dims, unwrap
from .buffers import (CLUSTER_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, _buffer, _const_shape, alloc_buffer, buffered_tensor,
                      buffered_tensor_type, memdesc_type, mlir_type, smem, tmem)
from .buffers import storage_kind  # noqa: F401  (tle.gpu.storage_kind)
from .core import _require_capability, _require_enabled, _to_tensor
from .mesh import _mesh, _scalar_i32, cluster_mesh, linear_shard
# tle.gpu.warp_specialize is defined with the pipes it synchronizes.
from .pipe import warp_specialize  # noqa: F401
# FlagTree's staged loop (tl.range with num_stages): tle.gpu.pipeline.
from .pipeline import pipeline  # noqa: F401
# FlagTree's explicit barriers (docs/barriers.md).
from . import barriers as _barriers
from .barriers import (PENDING, READY, alloc_barrier, alloc_barriers, barrier_array, barrier_arrive,  # noqa: F401
                       barrier_wait, mbarrier, named_barrier)
# FlagTree's explicit asynchronous wgmma (docs/barriers.md).
from .wgmma import memdesc_wgmma_view, tma_store_wait, wgmma, wgmma_shared_operand_fence, wgmma_wait  # noqa: F401

# FlagTree's name for the type of tle.gpu.smem / tle.gpu.tmem.
scope = storage_kind

# The unit attribute on the tt.load of a tle.gpu.copy(is_async=True)
# (docs/warp-specialize.md, "Asynchronous slot fills").
ASYNC_COPY_ATTR = "tle.async_copy"
# The unit attribute on the tle.local_store marker of a tle.gpu.copy from a
# tensor descriptor (docs/warp-specialize.md, "Slot fills by TMA").
TMA_FILL_ATTR = "tle.tma_fill"

# The public names of tle.gpu (the rest is shared with the other primitives' modules).
__all__ = ["alloc", "alloc_barrier", "alloc_barriers", "barrier_array", "barrier_arrive",
           "barrier_wait", "buffered_tensor", "copy", "local_load", "local_ptr", "local_store", "mbarrier",
           "memdesc_wgmma_view",
           "memory_space", "named_barrier", "remote", "smem", "storage_kind", "tma_store_wait", "tmem",
           "warp_specialize", "wgmma", "wgmma_shared_operand_fence", "wgmma_wait"]


def _require_pow2_shape(shape, what):
    for d in shape:
        if d & (d - 1):
            raise TLEUsageError(f"{what}: the buffer shape {list(shape)} is used as a tensor shape, so every "
                                "dimension must be a power of two")


def _splat(handle_value: tlc.tensor, shape, _semantic) -> tlc.tensor:
    return _semantic.splat(handle_value, list(shape))


def _handle_tensor(buf: buffered_tensor) -> tlc.tensor:
    return tlc.tensor(buf.handle, buf.type.handle_type())


@builtin("tle.gpu.alloc")
def alloc(shape, dtype, layout=None, scope=smem, init_value=None, nv_mma_shared_layout=False, alias=None,
          _semantic=None, _generator=None):
    """Allocate a buffer of ``shape`` x ``dtype`` in the CTA's shared memory.

    ``scope`` is ``tle.gpu.smem`` (``tle.gpu.storage_kind.smem``); tensor memory
    (``tmem``) exists only on Blackwell and is rejected. ``layout=None`` lets the
    compiler choose the shared encoding (``triton-tle-select-encodings``).
    ``init_value``, a tensor of the buffer's shape, is stored into it.

    Args:
        shape: a list of compile-time ints.
        dtype: a scalar triton dtype (not a pointer).
        layout: None (other values are rejected).
        scope: ``tle.gpu.smem`` (or ``"smem"`` / ``"shared_memory"``).
        init_value: None, or a tensor of ``shape`` stored into the buffer.
        nv_mma_shared_layout: False (True is rejected).
        alias: None, or a buffer: the new buffer is a typed view of that
            buffer's first bytes instead of memory of its own (FlagTree's
            FEP-0065), at most as large; what one writes the other reads,
            each in its own layout, so order the accesses with a barrier.
            Neither may be accessed through ``local_ptr``.

    Returns:
        A ``tle.gpu.buffered_tensor``: pass it to ``tle.gpu.local_ptr``,
        ``local_load``, ``local_store``, ``copy`` or ``tle.remote``.

    Example::

        @triton.jit
        def histogram(X, OUT, N: tl.constexpr, BINS: tl.constexpr):
            counts = tle.gpu.alloc([BINS], dtype=tl.int32, scope=tle.gpu.smem,
                                   init_value=tl.zeros([BINS], tl.int32))
            x = tl.load(X + tl.arange(0, N))
            tl.atomic_add(tle.gpu.local_ptr(counts, (x % BINS,)), 1)
            tl.store(OUT + tl.arange(0, BINS), tle.gpu.local_load(counts))
    """
    shape = _const_shape(shape, "tle.gpu.alloc shape")
    dtype = tlc._unwrap_if_constexpr(dtype)
    if not isinstance(dtype, tlc.dtype) or dtype.is_ptr() or isinstance(dtype, tlc.block_type):
        raise TLEUsageError(f"tle.gpu.alloc dtype must be a scalar triton dtype, got {describe(dtype)}")
    mlir_type(dtype, "tle.gpu.alloc dtype")
    scope = tlc._unwrap_if_constexpr(scope)
    if isinstance(scope, str):
        scope = {"smem": smem, "shared_memory": smem, "tmem": tmem, "tensor_memory": tmem}.get(scope, scope)
    if scope is tmem:
        raise TLEUsageError("tle.gpu.alloc scope=tmem is Blackwell (sm_100+) tensor memory, which TLE does not "
                            "support; use scope=tle.gpu.smem")
    if scope is not smem:
        raise TLEUsageError(f"tle.gpu.alloc scope must be tle.gpu.smem, got {describe(scope)}")
    if tlc._unwrap_if_constexpr(layout) is not None:
        raise TLEUsageError("tle.gpu.alloc layout= is not supported: the compiler picks the shared encoding "
                            "(triton-tle-select-encodings); pass layout=None")
    if tlc._unwrap_if_constexpr(nv_mma_shared_layout):
        raise TLEUsageError("tle.gpu.alloc nv_mma_shared_layout=True is not supported; pass False")
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
                              [_handle_tensor(alias)], [btype.handle_type()], _semantic=_semantic)
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
    handle = _handle_tensor(buf)
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
    (ptrs,) = _markers.emit("local_pointers", attrs, operands, [ptr_ty], _semantic=_semantic)
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
    shape = list(buf.type.shape)
    strides = [1] * len(shape)
    for d in builtins.range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    indices, rest = [], offsets
    for stride in strides[:-1]:
        indices.append(rest.__floordiv__(stride, _semantic=_semantic))
        rest = rest.__mod__(stride, _semantic=_semantic)
    indices.append(rest)
    return tuple(indices)


@builtin("tle.gpu.local_ptr")
def local_ptr(buffer, indices=None, offsets=None, _semantic=None, _generator=None):
    """Pointers (address space 3, or 7 for a ``tle.remote`` view) into a buffer.

    ``indices=None`` gives the full view: a tensor of the buffer's shape whose
    element ``(i, j)`` points at ``buffer[i, j]``. Otherwise pass one integer
    index per buffer dimension, all scalars (one pointer) or all tensors
    (broadcast to one shape; one pointer per element). The pointers work with
    ``tl.load``, ``tl.store`` and ``tl.atomic_*``, masks included.

    ``offsets=`` (FlagTree's form) is instead one integer tensor of flat
    element offsets into the buffer, row-major (last dimension fastest): the
    result has the offsets' shape and element ``k`` points at the buffer's
    element number ``offsets[k]``. ``indices`` and ``offsets`` exclude each
    other.

    Args:
        buffer: a ``tle.gpu.buffered_tensor`` from ``tle.gpu.alloc`` (or a
            ``tle.remote`` view of one, whose pointers reach the peer CTA's
            copy in address space 7).
        indices: None (the full view; every buffer dimension must then be a
            power of two), or a tuple with one index per buffer dimension: an
            int or integer scalar, or all integer tensors broadcastable to one
            shape (not a mix of scalars and tensors). Constant indices must
            lie inside the buffer; narrower ints are widened to int32.
        offsets: FlagTree's form, instead of ``indices``: one integer
            tensor of flat row-major element offsets into the buffer.

    Returns:
        A pointer (scalar indices) or a tensor of pointers (the indices'
        broadcast shape, or the buffer's shape for ``indices=None``) to the
        buffer's dtype in address space 3 (7 for a remote view).

    Example::

        @triton.jit
        def count(X, OUT, N: tl.constexpr, BINS: tl.constexpr):
            bins = tle.gpu.alloc([BINS], dtype=tl.int32,
                                 init_value=tl.zeros([BINS], tl.int32))
            x = tl.load(X + tl.arange(0, N))
            tl.atomic_add(tle.gpu.local_ptr(bins, (x,)), 1, mask=(x >= 0) & (x < BINS))
            tl.store(OUT + tl.arange(0, BINS), tl.load(tle.gpu.local_ptr(bins)))
    """
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
                  [value, _splat(_handle_tensor(buf), shape, _semantic)], [tlc.int32], _semantic=_semantic)


@builtin("tle.gpu.local_store")
def local_store(buffer, value, _semantic=None, _generator=None):
    """Store a tensor of the buffer's shape into the whole buffer.

    Args:
        buffer: a ``tle.gpu.buffered_tensor`` from ``tle.gpu.alloc`` whose
            dimensions are all powers of two (not a ``tle.remote`` view:
            write a peer's buffer through ``tle.gpu.local_ptr`` pointers).
        value: a tensor of exactly the buffer's shape, or a scalar (splat to
            that shape); it is cast to the buffer's dtype. Not pointers.

    Returns:
        None.

    Example::

        @triton.jit
        def stage(X, OUT, N: tl.constexpr):
            buf = tle.gpu.alloc([N], dtype=tl.float32)
            tle.gpu.local_store(buf, tl.load(X + tl.arange(0, N)))
            tl.store(OUT + tl.arange(0, N), tle.gpu.local_load(buf) * 2)
    """
    buf = _buffer(buffer, "tle.gpu.local_store")
    _require_enabled("tle.gpu.local_store", _semantic)
    _local_store(buf, value, "tle.gpu.local_store", _semantic)


@builtin("tle.gpu.local_load")
def local_load(buffer, _semantic=None, _generator=None):
    """Load the whole buffer into a tensor of its shape.

    Args:
        buffer: a ``tle.gpu.buffered_tensor`` from ``tle.gpu.alloc`` whose
            dimensions are all powers of two (not a ``tle.remote`` view:
            read a peer's buffer through ``tle.gpu.local_ptr`` pointers).

    Returns:
        A tensor of the buffer's shape and dtype.

    Example::

        @triton.jit
        def zero_fill(OUT, N: tl.constexpr):
            buf = tle.gpu.alloc([N], dtype=tl.int32, init_value=tl.zeros([N], tl.int32))
            tl.store(OUT + tl.arange(0, N), tle.gpu.local_load(buf))
    """
    buf = _buffer(buffer, "tle.gpu.local_load")
    if buf.remote_shard is not None:
        raise TLEUsageError("tle.gpu.local_load: a remote buffer view is read through tle.gpu.local_ptr pointers")
    _require_pow2_shape(buf.type.shape, "tle.gpu.local_load")
    _require_enabled("tle.gpu.local_load", _semantic)
    return _local_load(buf, _semantic)


def _local_load(buf: buffered_tensor, _semantic) -> tlc.tensor:
    (value,) = _markers.emit("local_load", {"tle.marker.scalar_operands": ("i32-array", [0])},
                             [_splat(_handle_tensor(buf), buf.type.shape, _semantic)], [buf.type.dtype],
                             _semantic=_semantic)
    return value


@builtin("tle.gpu.copy")
def copy(src, dst, shape, offsets=None, barrier=None, is_async=False, _semantic=None, _generator=None):
    """Copy a block between global memory and a buffer, in either direction.

    One side is a buffer, the other a tensor of global pointers of ``shape``
    (which must also be the buffer's shape).

    ``is_async=True`` (global memory into a field of a pipe slot taken by the
    writer's ``acquire()``) issues the copy as cp.async straight into the slot,
    without staging it in registers; the writer's ``commit`` then publishes the
    slot when the copies have landed (``cp.async.mbarrier.arrive`` on the
    slot's ready barrier), so the writer does not wait for them
    (docs/warp-specialize.md, "Asynchronous slot fills").

    One side may instead be a tensor descriptor (a host
    ``triton.tools.tensor_descriptor.TensorDescriptor`` kernel argument, or
    ``tl.make_tensor_descriptor``): ``copy(desc, buf, shape, offsets)`` loads
    the descriptor's block at coordinates ``offsets`` (one scalar per
    dimension) into the buffer, ``copy(buf, desc, shape, offsets)`` stores
    the buffer there; ``shape`` is the block shape and the buffer's. Both are
    synchronous: Triton's descriptor load / store (TMA on sm_90+, plain loads
    and stores before), with the buffer stored / loaded whole; out-of-bounds
    elements read as zeros and are not written. With ``barrier=bars[i]`` a
    copy from a descriptor into a buffer is asynchronous instead: one TMA
    load into the buffer that completes on the barrier
    (``tle.gpu.barrier_wait``; docs/barriers.md); so is a copy from global
    pointers into a buffer (``cp.async``). With ``is_async=True`` a copy of a
    buffer to a descriptor is an asynchronous TMA store reading the buffer
    in place; ``tle.gpu.tma_store_wait`` waits for it.

    ``src`` may also be a 2-D tensor descriptor (a host
    ``triton.tools.tensor_descriptor.TensorDescriptor`` kernel argument) whose
    block is one row, ``[1, W]``, with ``offsets=[rows, col]``: a TMA row
    gather, ``dst[i, j] = src[rows[i], col + j]`` for a ``[len(rows), W]``
    pipe slot field, rows outside the tensor read as zeros. It fills the slot
    asynchronously (``is_async=True`` is required): the TMA unit writes the
    rows and the writer's ``commit`` counts their bytes on the slot's ready
    barrier (``mbarrier.arrive.expect_tx``), so the writer's threads issue
    the copies and go on (docs/warp-specialize.md, "Slot fills by TMA").

    Args:
        src: the buffer (a ``tle.gpu.buffered_tensor``, not a ``tle.remote``
            view), a tensor of global pointers (address space 1) to the
            buffer's dtype, or a 2-D tensor descriptor with a ``[1, W]``
            block. Exactly one of ``src`` and ``dst`` is a buffer.
        dst: the other side: a tensor of global pointers or a buffer (for a
            descriptor ``src``, a pipe slot field of shape ``[len(rows), W]``).
        shape: a list of compile-time ints (powers of two), equal to the
            pointer tensor's shape and the buffer's.
        offsets: None, or ``[rows, col]`` for a descriptor ``src`` only:
            ``rows`` a 1-D integer tensor of row indices (a multiple of 4, at
            least 8 of them), ``col`` a scalar column; a row must be at least
            32 bytes. TMA needs sm_90.
        barrier: None, or for a copy into a buffer one mbarrier (``bars[i]``
            of ``tle.gpu.alloc_barriers``): the copy is then asynchronous
            and counts as one arrival of the calling thread group on the
            barrier that completes when the data has landed, so
            ``tle.gpu.barrier_wait`` on the barrier's phase returns once it
            is there (docs/barriers.md). From a tensor descriptor: one TMA
            load straight into the buffer (sm_90); from global pointers:
            ``cp.async`` (sm_80; a copy cp.async cannot carry, e.g. 2-byte
            vectors, is made synchronously before the arrival).
        is_async: a compile-time bool; True for a copy from global memory
            (pointers, sm_80+, or a row gather from a descriptor, sm_90+)
            into a pipe slot field, and for an asynchronous TMA store of a
            buffer to a descriptor (sm_90: committed as one bulk group, not
            waited for; ``tle.gpu.tma_store_wait`` waits before the buffer
            is written again).

    Returns:
        None.

    Example::

        @triton.jit
        def round_trip(X, Y, N: tl.constexpr):
            buf = tle.gpu.alloc([N], dtype=tl.float32)
            offs = tl.arange(0, N)
            tle.gpu.copy(X + offs, buf, [N])   # global -> shared
            tle.gpu.copy(buf, Y + offs, [N])   # shared -> global
    """
    shape = _const_shape(shape, "tle.gpu.copy shape")
    if isinstance(tlc._unwrap_if_constexpr(src), tlc.tensor_descriptor_base):
        if tlc._unwrap_if_constexpr(is_async) is True or _is_row_gather(offsets):
            _copy_from_descriptor(src, dst, shape, offsets, barrier, is_async, _semantic)
        else:
            _copy_descriptor_sync(src, dst, shape, offsets, barrier, is_async, _semantic, load=True)
        return
    if isinstance(tlc._unwrap_if_constexpr(dst), tlc.tensor_descriptor_base):
        _copy_descriptor_sync(dst, src, shape, offsets, barrier, is_async, _semantic, load=False)
        return
    if tlc._unwrap_if_constexpr(offsets) is not None:
        raise TLEUsageError("tle.gpu.copy offsets= is for a tensor-descriptor source or destination (the block's "
                            "coordinates); slice the pointers instead")
    barrier = tlc._unwrap_if_constexpr(barrier)
    src, dst = tlc._unwrap_if_constexpr(src), tlc._unwrap_if_constexpr(dst)
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
        raise TLEUsageError(f"tle.gpu.copy shape {shape} must equal the pointer tensor's shape "
                            f"{dims(ptrs.shape)} and the buffer's {list(buf.type.shape)}")
    _require_pow2_shape(shape, "tle.gpu.copy")
    _require_enabled("tle.gpu.copy", _semantic)
    is_async = tlc._unwrap_if_constexpr(is_async)
    if not isinstance(is_async, bool):
        raise TLEUsageError(f"tle.gpu.copy is_async must be a compile-time bool, got {describe(is_async)}")
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
            raise TLEUsageError("tle.gpu.copy(is_async=True) copies global memory into a buffer (a pipe slot "
                                "field); a copy out of a buffer is synchronous: drop is_async")
        _require_capability("tle.gpu.copy(is_async=True) (cp.async)", 80, _semantic)
        # A tagged tt.load and a store into the slot: Triton's coalescing
        # gives the load its vector layout, then triton-tle-lower-pipes makes
        # the pair one cp.async into the slot (an error when dst is not one).
        value = _semantic.load(ptrs, None, None, (), "", "", "", False)
        value.handle.set_attr(ASYNC_COPY_ATTR, _semantic.builder.get_unit_attr())
        _local_store(buf, value, "tle.gpu.copy", _semantic)
        return
    handle = _splat(_handle_tensor(buf), shape, _semantic)
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


def _copy_descriptor_sync(desc, buf, shape, offsets, barrier, is_async, _semantic, load):
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
        _barriers.async_tma_load(value, buf, barrier, _semantic)
    elif load:
        value = _semantic.descriptor_load(desc, coords, "", "")
        _local_store(buf, value, what, _semantic)
    elif async_store:
        _require_capability(f"{what} with is_async=True (an asynchronous TMA store)", 90, _semantic)
        value = _local_load(buf, _semantic)
        _semantic.descriptor_store(desc, value, coords)
        _markers.emit("async_tma_store", {"tle.marker.scalar_operands": ("i32-array", [1]),
                                          "tle.marker.no_results": True},
                      [value, _splat(_handle_tensor(buf), shape, _semantic)], [tlc.int32], _semantic=_semantic)
    else:
        _semantic.descriptor_store(desc, _local_load(buf, _semantic), coords)


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


@builtin("tle.gpu.memory_space")
def memory_space(input, space, _semantic=None, _generator=None):
    """Pass ``input`` through memory space ``space`` (``"shared_memory"``): the
    value is stored to a fresh shared-memory buffer and loaded back.

    Args:
        input: a tensor (not a scalar, not pointers) whose dimensions are all
            powers of two.
        space: ``"shared_memory"`` (or ``"smem"`` / ``tle.gpu.smem``), a
            compile-time value.

    Returns:
        A tensor equal to ``input`` (same shape and dtype), read back from
        shared memory.

    Example::

        @triton.jit
        def via_smem(X, Y, N: tl.constexpr):
            x = tl.load(X + tl.arange(0, N))
            y = tle.gpu.memory_space(x, "shared_memory")
            tl.store(Y + tl.arange(0, N), y)
    """
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
    buf = alloc(dims(input.shape), input.dtype, init_value=input, _semantic=_semantic)
    return local_load(buf, _semantic=_semantic)


@builtin("tle.remote")
def remote(buffer_or_ptr, shard_id, scope, context=None, _semantic=None, _generator=None):
    """The same memory in another shard of the mesh ``scope``.

    Thread-block cluster (``scope`` has ``block_cluster`` axes):
    ``buffer_or_ptr`` is a buffer (the result is a view whose ``local_ptr``
    pointers reach CTA ``shard_id``'s copy) or pointers into a buffer (address
    space 3; the result points in address space 7). ``shard_id`` is the CTA's
    rank in the cluster, or one coordinate per ``block_cluster`` axis of the
    mesh ``scope``.

    Devices (``scope`` has ``device`` axes and no cluster; pass
    ``context=tle.device_context(...)``): ``buffer_or_ptr`` are pointers
    (scalar or tensor) into this device's symmetric heap (the context's
    allocation: its workspace, or a tensor from ``ctx.empty``); the result
    points at the same elements of device ``shard_id``'s heap (its rank over
    the mesh's device axes, or one coordinate per device axis), reachable
    with ``tl.load`` / ``tl.store`` / ``tl.atomic_*`` (use ``scope="sys"``
    atomics to synchronize with other devices).

    Args:
        buffer_or_ptr: a buffer from ``tle.gpu.alloc`` (not already a remote
            view) or shared-memory pointers from ``tle.gpu.local_ptr``, for a
            cluster; global pointers into the symmetric heap, for devices.
        shard_id: the target shard: an integer (scalar, constant or runtime)
            rank over the mesh's ``block_cluster`` (or ``device``) axes, or a
            tuple of one coordinate per such axis. Constant values must be
            in range.
        scope: a ``tle.device_mesh`` (a compile-time value, typically a
            ``tl.constexpr`` kernel argument) with ``block_cluster`` axes of
            more than one CTA (sm_90+), or with ``device`` axes.
        context: None for a cluster; for devices a ``tle.device_context``
            built for the same mesh ``scope``.

    Returns:
        For a buffer, a remote view of it (a ``tle.gpu.buffered_tensor``, to
        pass to ``tle.gpu.local_ptr``); for shared-memory pointers, the same
        shape of pointers in address space 7; for device pointers, global
        pointers into device ``shard_id``'s heap.

    Example::

        MESH = tl.constexpr(tle.device_mesh({"block_cluster": [("cluster_x", 2)]}))

        @triton.jit
        def exchange(OUT, N: tl.constexpr, MESH: tl.constexpr):
            rank = tle.shard_id(MESH, "cluster_x")
            buf = tle.gpu.alloc([N], dtype=tl.int32)
            offs = tl.arange(0, N)
            tl.store(tle.gpu.local_ptr(buf, (offs,)), 1000 * rank + offs)
            tle.distributed_barrier(MESH)
            peer = tle.remote(buf, 1 - rank, scope=MESH)
            vals = tl.load(tle.gpu.local_ptr(peer, (offs,)))
            tl.store(OUT + rank * N + offs, vals)
    """
    scope_mesh = _mesh(scope, "tle.remote", "scope")
    context = tlc._unwrap_if_constexpr(context)
    target = tlc._unwrap_if_constexpr(buffer_or_ptr)
    global_ptrs = (isinstance(target, tlc.tensor) and not isinstance(target, buffered_tensor)
                   and target.dtype.is_ptr() and target.dtype.address_space == 1)
    if context is not None or (global_ptrs and scope_mesh.level_size("device") > 1):
        return _remote_device(buffer_or_ptr, shard_id, scope_mesh, context, _semantic)
    mesh = cluster_mesh(scope, "tle.remote", "scope")
    _require_enabled("tle.remote", _semantic)
    _require_capability("tle.remote (thread-block clusters, distributed shared memory)", 90, _semantic)
    rank = linear_shard(shard_id, mesh, _semantic)
    target = tlc._unwrap_if_constexpr(buffer_or_ptr)
    if isinstance(target, buffered_tensor):
        if target.remote_shard is not None:
            raise TLEUsageError("tle.remote of a remote buffer view: pass the buffer itself as buffer_or_ptr")
        rtype = buffered_tensor_type(target.type.shape, target.type.dtype, target.type.scope, remote=True)
        return buffered_tensor(target.handle, rtype, remote_shard=rank)
    if (not isinstance(target, tlc.tensor) or not target.dtype.is_ptr()
            or target.dtype.address_space != SHARED_ADDRESS_SPACE):
        got = (f"pointers in address space {target.dtype.address_space}"
               if isinstance(target, tlc.tensor) and target.dtype.is_ptr() else describe(target))
        raise TLEUsageError(f"tle.remote buffer_or_ptr must be a buffer or shared-memory pointers from "
                            f"tle.gpu.local_ptr, got {got}")
    return remote_pointers(target, rank, _semantic)


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
