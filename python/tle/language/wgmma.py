"""Explicit asynchronous warpgroup MMA in ``tle.gpu`` (FlagTree's PR #707):
``tle.gpu.wgmma``, ``tle.gpu.wgmma_wait`` and
``tle.gpu.wgmma_shared_operand_fence``; and ``tle.gpu.tma_store_wait`` for
asynchronous TMA stores. docs/barriers.md describes them; the markers are
lowered by ``triton-tle-lower-wgmma`` and ``triton-tle-lower-barriers``.
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _interpret, _markers
from ._markers import TLEUsageError, builtin, describe, dims
from .buffers import buffered_tensor, buffered_tensor_type, mlir_type, smem
from .core import _require_capability, _require_enabled


_DTYPES_16 = (tlc.float16, tlc.bfloat16)
_DTYPES_8 = (tlc.float8e4nv, tlc.float8e5)


def _operand(value, what) -> buffered_tensor:
    value = tlc._unwrap_if_constexpr(value)
    if not isinstance(value, buffered_tensor):
        raise TLEUsageError(f"tle.gpu.wgmma {what} must be a shared-memory buffer (tle.gpu.alloc), got "
                            f"{describe(value)}; store a register tile into a buffer first")
    if value.remote_shard is not None:
        raise TLEUsageError(f"tle.gpu.wgmma {what}: a remote buffer view cannot be a wgmma operand")
    if len(value.type.shape) != 2:
        raise TLEUsageError(f"tle.gpu.wgmma {what} must be a 2-D buffer, got shape {list(value.type.shape)}")
    if value.type.dtype not in _DTYPES_16 + _DTYPES_8:
        raise TLEUsageError(f"tle.gpu.wgmma {what} must hold fp16, bf16, fp8e4nv or fp8e5, got {value.type.dtype}")
    return value


def _transposed_view(buf, what, _semantic):
    """``buf``'s transpose as a wgmma operand (``trans_a`` / ``trans_b``)."""
    if buf.type.dtype in _DTYPES_8:
        raise TLEUsageError(f"tle.gpu.wgmma trans_{what}=True needs a 16-bit {what}: wgmma reads 8-bit operands "
                            "K-major only")
    return _memdesc_view(buf, (1, 0), _semantic)


def _register_a(value) -> tlc.tensor:
    """A register ``a`` operand (FA3's ``P @ V``): a 2-D fp16 / bf16 tensor."""
    if not value.type.is_block() or len(value.shape) != 2:
        raise TLEUsageError(f"tle.gpu.wgmma a in registers must be a 2-D tensor, got {describe(value)}")
    if value.dtype not in _DTYPES_16:
        raise TLEUsageError(f"tle.gpu.wgmma a in registers must hold fp16 or bf16, got {value.dtype} (an 8-bit "
                            "a must be a shared-memory buffer)")
    return value


def _tiled(value: tlc.tensor, shape, _semantic) -> tlc.tensor:
    """``value`` repeated over the grid of its tiles in ``shape`` (docs/markers.md, "Tiles")."""
    from .tiles import grid_view
    tile = dims(value.shape)
    grid = [s // t for s, t in zip(shape, tile)]
    view, axes = grid_view(shape, tile, grid)
    for axis in axes:
        value = _semantic.expand_dims(value, axis)
    value = _semantic.broadcast_impl_shape(value, view)
    return _semantic.reshape(value, list(shape), can_reorder=False)


@builtin("tle.gpu.wgmma")
def wgmma(a, b, acc=None, input_precision=None, max_num_imprecise_acc=None, out_dtype=tlc.float32, trans_a=False,
          trans_b=False, is_async=True, _semantic=None, _generator=None):
    """Issue an asynchronous warpgroup MMA: ``a @ b + acc`` (Hopper ``wgmma.mma_async``).

    ``b`` (``K x N``) is a shared-memory buffer; ``a`` (``M x K``) is a
    buffer too, or a tensor in registers (FA3's ``P @ V``: the probabilities
    stay in registers, converted to the wgmma's A fragment layout). The
    result is the new accumulator, still being computed: until
    ``tle.gpu.wgmma_wait`` has waited for it (pendings 0), use it only as the
    ``acc`` of another ``wgmma`` of the same shape. Buffers written by
    ``local_store`` (generic stores) need ``tle.gpu.wgmma_shared_operand_fence()``
    between the stores and the wgmma; buffers filled by TMA do not. The
    buffers take the NVMMA shared layout wgmma reads (they cannot also be
    accessed through ``local_ptr``). sm_90; the thread group (the kernel, or
    a ``warp_specialize`` partition with the kernel's ``num_warps``) must be
    whole warpgroups, one per 64 rows of ``a`` when ``a`` is in registers.

    8-bit operands (``fp8e4nv``, ``fp8e5``; buffers only): wgmma reads them
    K-major, so ``b`` must be stored ``N x K`` and passed as
    ``tle.gpu.memdesc_wgmma_view(b)`` when it is filled by TMA (a buffer
    written by ``local_store`` is laid out K-major by the compiler).

    Args:
        a: an ``M x K`` fp16 / bf16 / fp8 buffer (``M`` a multiple of 64,
            ``K`` of 16, of 32 for fp8), or an ``M x K`` fp16 / bf16 tensor.
        b: a ``K x N`` buffer of the same dtype (any two fp8 dtypes mix;
            ``N`` a multiple of 8).
        acc: None (zeros) or an ``M x N`` fp32 tensor: the accumulator.
        input_precision: None (FlagTree's argument; these inputs have one precision).
        max_num_imprecise_acc: None, or (fp8 only) a compile-time int >= 32:
            the products wgmma may add in its reduced precision before an
            fp32 accumulation (None: 2^30, FlagTree's and Triton's default).
        out_dtype: ``tl.float32``.
        trans_a: True to multiply by ``a``'s transpose: ``a`` is then ``K x
            M`` (a buffer, read in place through its transposed view, 16-bit
            only; or a tensor, transposed in registers).
        trans_b: True to multiply by ``b``'s transpose: ``b`` is then an
            ``N x K`` buffer read in place (``memdesc_wgmma_view(b)``; 16-bit
            only, as 8-bit ``b`` is read K-major: FlagTree's ``Q @ K^T``).
        is_async: True (default): return at once; False: wait for this
            wgmma (``wgmma_wait(0, ...)``) before returning.

    Returns:
        The ``M x N`` fp32 accumulator.

    Example::

        acc = tle.gpu.wgmma(a_buf, b_buf, acc)       # in flight
        acc = tle.gpu.wgmma_wait(0, acc)             # done: use it
        o = tle.gpu.wgmma(p.to(tl.bfloat16), v_buf, o)   # a in registers
    """
    a = tlc._unwrap_if_constexpr(a)
    registers = isinstance(a, tlc.tensor)
    a = _register_a(a) if registers else _operand(a, "a")
    b = _operand(b, "b")
    trans = {}
    for name, value in (("trans_a", trans_a), ("trans_b", trans_b)):
        value = tlc._unwrap_if_constexpr(value)
        if value is None:
            value = False
        if not isinstance(value, bool):
            raise TLEUsageError(f"tle.gpu.wgmma {name} must be a compile-time bool, got {describe(value)}")
        trans[name] = value
    # FlagTree's transposes: of a buffer, the transposed view (read in place,
    # as memdesc_wgmma_view); of a register a, tl.trans.
    if trans["trans_b"]:
        b = _transposed_view(b, "b", _semantic)
    if trans["trans_a"]:
        a = _semantic.permute(a, [1, 0]) if registers else _transposed_view(a, "a", _semantic)
    a_shape = dims(a.shape) if registers else list(a.type.shape)
    a_dtype = a.dtype if registers else a.type.dtype
    eight = a_dtype in _DTYPES_8
    if eight != (b.type.dtype in _DTYPES_8) or (not eight and a_dtype != b.type.dtype):
        raise TLEUsageError(f"tle.gpu.wgmma a and b must hold the same 16-bit dtype or two fp8 dtypes, got "
                            f"{a_dtype} and {b.type.dtype}")
    if tlc._unwrap_if_constexpr(out_dtype) != tlc.float32:
        raise TLEUsageError(f"tle.gpu.wgmma out_dtype must be tl.float32, got {describe(out_dtype)}")
    imprecise = tlc._unwrap_if_constexpr(max_num_imprecise_acc)
    if imprecise is not None:
        if not eight:
            raise TLEUsageError("tle.gpu.wgmma max_num_imprecise_acc is for fp8 operands only")
        if isinstance(imprecise, bool) or not isinstance(imprecise, int) or imprecise < 32:
            raise TLEUsageError(f"tle.gpu.wgmma max_num_imprecise_acc must be a compile-time int >= 32, got "
                                f"{describe(imprecise)}")
    is_async = tlc._unwrap_if_constexpr(is_async)
    if not isinstance(is_async, bool):
        raise TLEUsageError(f"tle.gpu.wgmma is_async must be a compile-time bool, got {describe(is_async)}")
    m, k = a_shape
    k2, n = b.type.shape
    if k != k2:
        raise TLEUsageError(f"tle.gpu.wgmma shapes do not multiply: a {a_shape} @ b {list(b.type.shape)}")
    k_step = 32 if eight else 16
    if m % 64 or n % 8 or k % k_step:
        raise TLEUsageError(f"tle.gpu.wgmma needs M a multiple of 64, N of 8 and K of {k_step}, got M={m}, N={n}, "
                            f"K={k}")
    if n & (n - 1):
        raise TLEUsageError(f"tle.gpu.wgmma: N={n} is a tensor dimension, so it must be a power of two")
    acc = tlc._unwrap_if_constexpr(acc)
    if acc is None:
        acc = _semantic.full([m, n], 0.0, tlc.float32)
    if not isinstance(acc, tlc.tensor) or not acc.type.is_block() or dims(acc.shape) != [m, n] \
            or acc.dtype != tlc.float32:
        raise TLEUsageError(f"tle.gpu.wgmma acc must be a [{m}, {n}] fp32 tensor, got {describe(acc)}")
    _require_enabled("tle.gpu.wgmma", _semantic)
    _require_capability("tle.gpu.wgmma (wgmma.mma_async)", 90, _semantic)
    if _interpret.active(_semantic):
        return _interpret.wgmma(a, b, acc, registers)
    attrs = {}
    if imprecise is not None:
        attrs["max_num_imprecise_acc"] = ("i32", imprecise)
    if not registers:
        handles = [_semantic.splat(tlc.tensor(buf.handle, buf.type.handle_type()), [m, n]) for buf in (a, b)]
        attrs["tle.marker.scalar_operands"] = ("i32-array", [0, 1])
        (result,) = _markers.emit("wgmma", attrs, handles + [acc], [tlc.float32], _semantic=_semantic)
    else:
        # The marker's operands share one shape, [M, max(K, N)]: the narrower
        # of a and acc (and then the result) crosses as a tile repeated over
        # it (docs/markers.md, "Tiles"). K and N are powers of two.
        shape = [m, max(k, n)]
        b_handle = _semantic.splat(tlc.tensor(b.handle, b.type.handle_type()), shape)
        attrs["tle.marker.scalar_operands"] = ("i32-array", [1])
        if k < n:
            attrs["tle.marker.tile_shape"] = ("i64-array", [m, k])
            attrs["tle.marker.tiled_operands"] = ("i32-array", [0])
            (result,) = _markers.emit("wgmma", attrs, [_tiled(a, shape, _semantic), b_handle, acc],
                                      [tlc.float32], _semantic=_semantic)
        elif k > n:
            from .tiles import grid_view
            attrs["tle.marker.tile_shape"] = ("i64-array", [m, n])
            attrs["tle.marker.tiled_operands"] = ("i32-array", [2])
            attrs["tle.marker.tiled_results"] = ("i32-array", [0])
            (tiled,) = _markers.emit("wgmma", attrs, [a, b_handle, _tiled(acc, shape, _semantic)], [tlc.float32],
                                     _semantic=_semantic)
            view, axes = grid_view(shape, [m, n], [1, k // n])
            result = _semantic.reshape(tiled, view, can_reorder=False)
            for axis in reversed(axes):
                result = _markers._pick_reduce(result, axis, _semantic)
        else:
            (result,) = _markers.emit("wgmma", attrs, [a, b_handle, acc], [tlc.float32], _semantic=_semantic)
    if not is_async:
        (result,) = _wait(0, [result], _semantic)
    return result


def _wait(pendings, values, _semantic):
    out = []
    for v in values:
        (r,) = _markers.emit("wgmma_wait", {"pendings": ("i32", pendings)}, [v], [v.dtype], _semantic=_semantic)
        out.append(r)
    return out


@builtin("tle.gpu.wgmma_wait")
def wgmma_wait(pendings, *values, acc=None, _semantic=None, _generator=None):
    """Wait until at most ``pendings`` wgmma groups are in flight (``wgmma.wait_group``).

    Returns ``values`` (accumulators of ``tle.gpu.wgmma``) as they are once
    all but the last ``pendings`` wgmmas of the thread group have completed;
    with ``pendings=0`` they are complete and can be used like any tensor.
    A wgmma still in flight (``pendings > 0``) may keep accumulating into a
    returned value. FlagTree's forms ``wgmma_wait(pendings, acc)``,
    ``wgmma_wait(pendings, acc=acc)`` and ``wgmma_wait(acc)`` (pendings 0)
    are accepted.

    Args:
        pendings: a compile-time int, 0 to 7.
        values: the accumulators (fp32 tensors from ``tle.gpu.wgmma``).
        acc: FlagTree's keyword for one accumulator.

    Returns:
        The one value, or a tuple of them.

    Example::

        acc = tle.gpu.wgmma(a_buf, b_buf, acc)
        acc = tle.gpu.wgmma_wait(1, acc)   # the previous wgmma is done
    """
    pendings = tlc._unwrap_if_constexpr(pendings)
    values = [tlc._unwrap_if_constexpr(v) for v in values]
    if acc is not None:
        values.append(tlc._unwrap_if_constexpr(acc))
    if isinstance(pendings, tlc.tensor):  # wgmma_wait(acc): pendings 0
        values.insert(0, pendings)
        pendings = 0
    if isinstance(pendings, bool) or not isinstance(pendings, int) or not 0 <= pendings <= 7:
        raise TLEUsageError(f"tle.gpu.wgmma_wait pendings must be a compile-time int from 0 to 7, got "
                            f"{describe(pendings)}")
    if not values:
        raise TLEUsageError("tle.gpu.wgmma_wait needs the accumulators it waits for: wgmma_wait(pendings, acc)")
    for v in values:
        if not isinstance(v, tlc.tensor) or not v.type.is_block():
            raise TLEUsageError(f"tle.gpu.wgmma_wait waits for tensors (wgmma accumulators), got {describe(v)}")
    _require_enabled("tle.gpu.wgmma_wait", _semantic)
    _require_capability("tle.gpu.wgmma_wait (wgmma.wait_group)", 90, _semantic)
    out = values if _interpret.active(_semantic) else _wait(pendings, values, _semantic)
    return out[0] if len(out) == 1 else tlc.tuple(out)


@builtin("tle.gpu.memdesc_wgmma_view")
def memdesc_wgmma_view(buffer, order=(1, 0), _semantic=None, _generator=None):
    """A 2-D buffer seen as a wgmma operand with its dimensions permuted.

    ``order=(1, 0)`` (the default) is the transpose: ``K`` stored ``N x D``
    becomes the ``D x N`` B operand of ``Q @ K^T``, read in place (wgmma
    reads 16-bit operands in either major order); ``(0, 1)`` is the buffer
    itself. The view may only be passed to ``tle.gpu.wgmma``.

    Args:
        buffer: a 2-D fp16 / bf16 buffer from ``tle.gpu.alloc``.
        order: ``(1, 0)`` or ``(0, 1)``, compile-time.

    Returns:
        A ``tle.gpu.buffered_tensor`` of the permuted shape.

    Example::

        s = tle.gpu.wgmma(q_buf, tle.gpu.memdesc_wgmma_view(k_buf), s)   # Q @ K^T
    """
    buf = _operand(buffer, "memdesc_wgmma_view buffer")
    order = tlc._unwrap_if_constexpr(order)
    try:
        order = tuple(int(tlc._unwrap_if_constexpr(o)) for o in order)
    except TypeError:
        order = None
    if order not in ((1, 0), (0, 1)):
        raise TLEUsageError(f"tle.gpu.memdesc_wgmma_view order must be (1, 0) or (0, 1), got {describe(order)}")
    return _memdesc_view(buf, order, _semantic)


def _memdesc_view(buf, order, _semantic):
    shape = [buf.type.shape[order[0]], buf.type.shape[order[1]]]
    _require_enabled("tle.gpu.memdesc_wgmma_view", _semantic)
    # The view's layout: the buffer's row-major bytes seen column-major when transposed.
    mem_order = "0, 1" if order == (1, 0) else "1, 0"
    enc = f"#ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [{mem_order}]}}>"
    ty = f"!ttg.memdesc<{shape[0]}x{shape[1]}x{mlir_type(buf.type.dtype)}, {enc}, #ttg.shared_memory, mutable>"
    btype = buffered_tensor_type(shape, buf.type.dtype, smem)
    if _interpret.active(_semantic):
        return buffered_tensor(_interpret.wgmma_view_handle(buf, order, btype), btype)
    (handle,) = _markers.emit("memdesc_wgmma_view", {"order": ("i32-array", list(order)),
                                                     "tle.marker.result_types": ("list", [ty])},
                              [tlc.tensor(buf.handle, buf.type.handle_type())], [btype.handle_type()],
                              _semantic=_semantic)
    return buffered_tensor(handle.handle, btype)


@builtin("tle.gpu.wgmma_shared_operand_fence")
def wgmma_shared_operand_fence(_semantic=None, _generator=None):
    """Order this thread's earlier shared-memory stores before async-proxy reads.

    ``fence.proxy.async.shared::cta``: call it after writing a buffer with
    ``tle.gpu.local_store`` (or stores through local pointers) and before a
    ``tle.gpu.wgmma`` (or an asynchronous TMA store) reads it. sm_90.

    Returns:
        None.

    Example::

        tle.gpu.local_store(a_buf, a_tile)
        tle.gpu.wgmma_shared_operand_fence()
        acc = tle.gpu.wgmma(a_buf, b_buf, acc)
    """
    _require_enabled("tle.gpu.wgmma_shared_operand_fence", _semantic)
    _require_capability("tle.gpu.wgmma_shared_operand_fence (fence.proxy.async)", 90, _semantic)
    _markers.emit("wgmma_shared_operand_fence", {"tle.marker.no_results": True}, [], [tlc.int32], _semantic=_semantic)


@builtin("tle.gpu.tma_store_wait")
def tma_store_wait(pendings=0, _semantic=None, _generator=None):
    """Wait until at most ``pendings`` asynchronous TMA stores are still reading their buffers.

    ``cp.async.bulk.wait_group.read pendings``: after it, the buffers of all
    but the last ``pendings`` ``tle.gpu.copy(buf, desc, ..., is_async=True)``
    stores of this thread group may be written again. sm_90.

    Args:
        pendings: a compile-time int, 0 to 63.

    Returns:
        None.

    Example::

        tle.gpu.copy(out_buf, out_desc, [BM, BN], [m, n], is_async=True)
        ...
        tle.gpu.tma_store_wait(0)   # out_buf may be written again
    """
    pendings = tlc._unwrap_if_constexpr(pendings)
    if isinstance(pendings, bool) or not isinstance(pendings, int) or not 0 <= pendings <= 63:
        raise TLEUsageError(f"tle.gpu.tma_store_wait pendings must be a compile-time int from 0 to 63, got "
                            f"{describe(pendings)}")
    _require_enabled("tle.gpu.tma_store_wait", _semantic)
    _require_capability("tle.gpu.tma_store_wait (TMA stores)", 90, _semantic)
    _markers.emit("tma_store_wait", {"pendings": ("i32", pendings), "tle.marker.no_results": True}, [], [tlc.int32],
                  _semantic=_semantic)
