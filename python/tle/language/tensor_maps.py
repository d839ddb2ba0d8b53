"""TMA descriptors read from global memory in ``tle.gpu`` (FlagTree's
descriptor tables): ``tle.gpu.tensor_map_fenceproxy_acquire`` and
``tle.gpu.reinterpret_tensor_map``. The maps are encoded on the host
(``tle.encode_tensor_map``, python/tle/_tensor_map.py); docs/barriers.md,
"Tensor maps in global memory", describes both sides. The markers are
lowered by ``triton-tle-lower-barriers``.
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe
from .buffers import buffered_tensor
from .core import _require_capability, _require_enabled


def _map_pointer(ptr, name: str) -> tlc.tensor:
    """A scalar pointer into global memory (where a 128-byte map lives)."""
    ptr = tlc._unwrap_if_constexpr(ptr)
    if not isinstance(ptr, tlc.tensor) or ptr.type.is_block() or not ptr.dtype.is_ptr():
        raise TLEUsageError(f"{name} ptr must be a scalar pointer to a 128-byte tensor map in global memory (e.g. "
                            f"table + i * 128 for a uint8 table), got {describe(ptr)}")
    if ptr.dtype.address_space != 1:
        raise TLEUsageError(f"{name} ptr must point into global memory (address space 1), got address space "
                            f"{ptr.dtype.address_space}")
    return ptr


@builtin("tle.gpu.tensor_map_fenceproxy_acquire")
def tensor_map_fenceproxy_acquire(ptr, _semantic=None, _generator=None):
    """Acquire the tensor map at ``ptr`` for this thread's TMA copies.

    ``fence.proxy.tensormap::generic.acquire.gpu [ptr], 128``: TMA reads a
    map through the tensor-map proxy, which does not see what was written
    to global memory through the ordinary (generic) proxy until this fence.
    Call it once in a program before the first copy through a map from
    ``tle.gpu.reinterpret_tensor_map``, after the map's bytes were written
    (by the host, or an earlier kernel). sm_90.

    Args:
        ptr: a scalar pointer into global memory to a 128-byte CUDA tensor
            map (any pointee type; a table of maps is usually ``uint8``,
            entry ``i`` at ``table + i * 128``).

    Returns:
        None.

    Example::

        entry = table + tl.program_id(0) * 128
        tle.gpu.tensor_map_fenceproxy_acquire(entry)
        desc = tle.gpu.reinterpret_tensor_map(entry, tile)
        tle.gpu.copy(desc, tile, [8, 32], [0, 0])
    """
    ptr = _map_pointer(ptr, "tle.gpu.tensor_map_fenceproxy_acquire")
    _require_enabled("tle.gpu.tensor_map_fenceproxy_acquire", _semantic)
    _require_capability("tle.gpu.tensor_map_fenceproxy_acquire (TMA)", 90, _semantic)
    _markers.emit("tensor_map_fence_acquire", {"tle.marker.no_results": True}, [ptr], [tlc.int32],
                  _semantic=_semantic)


@builtin("tle.gpu.reinterpret_tensor_map")
def reinterpret_tensor_map(ptr, buffer, _semantic=None, _generator=None):
    """The tensor map at ``ptr`` as a tensor descriptor of ``buffer``'s block.

    The 128-byte CUDA tensor map in global memory at ``ptr`` (64-byte
    aligned; encoded on the host by ``tle.encode_tensor_map``, or any
    encoder) becomes a tensor descriptor whose block is ``buffer``'s shape
    and dtype: ``tle.gpu.copy(desc, buffer, shape, offsets)`` loads through
    it (synchronously, or on a barrier), ``tle.gpu.copy(buffer, desc, ...)``
    stores. The kernel neither builds nor checks the map: its base, sizes,
    strides and bounds are the encoder's, so one kernel can pick among many
    tensors at run time (a table of maps, one per owner or expert), and its
    element type, box and swizzle must be those the kernel expects for the
    block (``tle.encode_tensor_map`` picks them). Acquire the map first
    (``tle.gpu.tensor_map_fenceproxy_acquire``). sm_90.

    Args:
        ptr: a scalar pointer into global memory to the map (any pointee
            type).
        buffer: a shared-memory buffer (``tle.gpu.alloc``) whose shape (rank
            1 to 5, at most 256 a dimension, a multiple of 16 bytes in the
            last) and dtype are the descriptor's block.

    Returns:
        A tensor descriptor (``tl.tensor_descriptor``) of ``buffer``'s block.

    Example::

        @triton.jit
        def per_owner(table, out):
            owner = tl.program_id(0)
            tile = tle.gpu.alloc([8, 32], dtype=tl.float32)
            entry = table + owner * 128
            tle.gpu.tensor_map_fenceproxy_acquire(entry)
            desc = tle.gpu.reinterpret_tensor_map(entry, tile)
            tle.gpu.copy(desc, tile, [8, 32], [0, 0])
    """
    name = "tle.gpu.reinterpret_tensor_map"
    ptr = _map_pointer(ptr, name)
    buffer = tlc._unwrap_if_constexpr(buffer)
    if not isinstance(buffer, buffered_tensor) or buffer.remote_shard is not None:
        raise TLEUsageError(f"{name} buffer must be a shared-memory buffer (tle.gpu.alloc) whose shape and dtype "
                            f"are the descriptor's block, got {describe(buffer)}")
    shape = [int(tlc._unwrap_if_constexpr(d)) for d in buffer.type.shape]
    dtype = buffer.type.dtype
    if not 1 <= len(shape) <= 5 or any(not 1 <= d <= 256 for d in shape):
        raise TLEUsageError(f"{name}: a TMA block has rank 1 to 5 and 1 to 256 elements a dimension, got the "
                            f"buffer's shape {shape}")
    if shape[-1] * dtype.primitive_bitwidth % 128:
        raise TLEUsageError(f"{name}: a TMA block's last dimension must be a multiple of 16 bytes, got "
                            f"{shape[-1]} x {dtype}")
    _require_enabled(name, _semantic)
    _require_capability(f"{name} (TMA)", 90, _semantic)
    # The marker yields the descriptor's base; Triton makes the descriptor (and
    # picks the block's shared layout); triton-tle-raise-markers puts the op
    # in the descriptor's place (docs/markers.md, "Descriptors"). The shape and
    # strides given here are placeholders: the map's own are used.
    (base,) = _markers.emit("reinterpret_tensor_map", {"tle.marker.descriptor": True}, [ptr],
                            [tlc.pointer_type(dtype)], _semantic=_semantic)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return _semantic.make_tensor_descriptor(base, [tlc.constexpr(d) for d in shape],
                                            [tlc.constexpr(s) for s in strides], [tlc.constexpr(d) for d in shape])
