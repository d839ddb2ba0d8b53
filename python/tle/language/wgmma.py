"""Explicit asynchronous warpgroup MMA in ``tle.gpu`` (FlagTree's PR #707):
``tle.gpu.wgmma``, ``tle.gpu.wgmma_wait`` and
``tle.gpu.wgmma_shared_operand_fence``; and ``tle.gpu.tma_store_wait`` for
asynchronous TMA stores. docs/barriers.md describes them; the markers are
lowered by ``triton-tle-lower-wgmma`` and ``triton-tle-lower-barriers``.
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe, dims
from .buffers import buffered_tensor, buffered_tensor_type, mlir_type, smem
from .core import _require_capability, _require_enabled


def _operand(value, what) -> buffered_tensor:
    value = tlc._unwrap_if_constexpr(value)
    if not isinstance(value, buffered_tensor):
        raise TLEUsageError(f"tle.gpu.wgmma {what} must be a shared-memory buffer (tle.gpu.alloc), got "
                            f"{describe(value)}; store a register tile into a buffer first")
    if value.remote_shard is not None:
        raise TLEUsageError(f"tle.gpu.wgmma {what}: a remote buffer view cannot be a wgmma operand")
    if len(value.type.shape) != 2:
        raise TLEUsageError(f"tle.gpu.wgmma {what} must be a 2-D buffer, got shape {list(value.type.shape)}")
    if value.type.dtype not in (tlc.float16, tlc.bfloat16):
        raise TLEUsageError(f"tle.gpu.wgmma {what} must hold fp16 or bf16, got {value.type.dtype}")
    return value


@builtin("tle.gpu.wgmma")
def wgmma(a, b, acc=None, input_precision=None, max_num_imprecise_acc=None, out_dtype=tlc.float32, trans_a=False,
          trans_b=False, is_async=True, _semantic=None, _generator=None):
    """Issue an asynchronous warpgroup MMA: ``a @ b + acc`` (Hopper ``wgmma.mma_async``).

    ``a`` (``M x K``) and ``b`` (``K x N``) are shared-memory buffers; the
    result is the new accumulator, still being computed: until
    ``tle.gpu.wgmma_wait`` has waited for it (pendings 0), use it only as the
    ``acc`` of another ``wgmma`` of the same shape. Buffers written by
    ``local_store`` (generic stores) need ``tle.gpu.wgmma_shared_operand_fence()``
    between the stores and the wgmma; buffers filled by TMA do not. The
    buffers take the NVMMA shared layout wgmma reads (they cannot also be
    accessed through ``local_ptr``). sm_90; the thread group (the kernel, or
    a ``warp_specialize`` partition with the kernel's ``num_warps``) must be
    whole warpgroups.

    Args:
        a: an ``M x K`` fp16 / bf16 buffer (``M`` a multiple of 64, ``K`` of 16).
        b: a ``K x N`` buffer of the same dtype (``N`` a multiple of 8).
        acc: None (zeros) or an ``M x N`` fp32 tensor: the accumulator.
        input_precision: None (FlagTree's argument; 16-bit inputs have one precision).
        max_num_imprecise_acc: None (FlagTree's fp8 argument; fp8 is not supported).
        out_dtype: ``tl.float32``.
        trans_a: False (store the operand transposed instead).
        trans_b: False.
        is_async: True (default): return at once; False: wait for this
            wgmma (``wgmma_wait(0, ...)``) before returning.

    Returns:
        The ``M x N`` fp32 accumulator.

    Example::

        acc = tle.gpu.wgmma(a_buf, b_buf, acc)       # in flight
        acc = tle.gpu.wgmma_wait(0, acc)             # done: use it
    """
    a = _operand(a, "a")
    b = _operand(b, "b")
    if a.type.dtype != b.type.dtype:
        raise TLEUsageError(f"tle.gpu.wgmma a and b must hold the same dtype, got {a.type.dtype} and {b.type.dtype}")
    for name, value in (("trans_a", trans_a), ("trans_b", trans_b)):
        if tlc._unwrap_if_constexpr(value) not in (False, None):
            raise TLEUsageError(f"tle.gpu.wgmma {name}=True is not supported; store the operand transposed")
    if tlc._unwrap_if_constexpr(out_dtype) != tlc.float32:
        raise TLEUsageError(f"tle.gpu.wgmma out_dtype must be tl.float32, got {describe(out_dtype)}")
    if tlc._unwrap_if_constexpr(max_num_imprecise_acc) is not None:
        raise TLEUsageError("tle.gpu.wgmma max_num_imprecise_acc is for fp8 operands, which are not supported")
    is_async = tlc._unwrap_if_constexpr(is_async)
    if not isinstance(is_async, bool):
        raise TLEUsageError(f"tle.gpu.wgmma is_async must be a compile-time bool, got {describe(is_async)}")
    m, k = a.type.shape
    k2, n = b.type.shape
    if k != k2:
        raise TLEUsageError(f"tle.gpu.wgmma shapes do not multiply: a {list(a.type.shape)} @ b {list(b.type.shape)}")
    if m % 64 or n % 8 or k % 16:
        raise TLEUsageError(f"tle.gpu.wgmma needs M a multiple of 64, N of 8 and K of 16, got M={m}, N={n}, K={k}")
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
    handles = [_semantic.splat(tlc.tensor(buf.handle, buf.type.handle_type()), [m, n]) for buf in (a, b)]
    (result,) = _markers.emit("wgmma", {"tle.marker.scalar_operands": ("i32-array", [0, 1])}, handles + [acc],
                              [tlc.float32], _semantic=_semantic)
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
    out = _wait(pendings, values, _semantic)
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
    shape = [buf.type.shape[order[0]], buf.type.shape[order[1]]]
    _require_enabled("tle.gpu.memdesc_wgmma_view", _semantic)
    # The view's layout: the buffer's row-major bytes seen column-major when transposed.
    mem_order = "0, 1" if order == (1, 0) else "1, 0"
    enc = f"#ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [{mem_order}]}}>"
    ty = f"!ttg.memdesc<{shape[0]}x{shape[1]}x{mlir_type(buf.type.dtype)}, {enc}, #ttg.shared_memory, mutable>"
    btype = buffered_tensor_type(shape, buf.type.dtype, smem)
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
