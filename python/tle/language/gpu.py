"""``tle.gpu``: shared-memory buffers and pointers into them (TLE-Struct GPU).

    buf = tle.gpu.alloc([BLOCK], dtype=tl.int32, scope=tle.gpu.smem)
    ptr = tle.gpu.local_ptr(buf, (idx,))        # !tt.ptr<i32, 3> per element
    tl.atomic_add(ptr, 1)                        # atom.shared
    vals = tle.gpu.local_load(buf)

How these cross Triton and reach PTX is docs/local-memory.md.
"""

# The user-facing builtins, as Gluon's _core.py: each calls the function of
# the same name in _gpu_semantic.py, which validates its arguments and builds
# the IR.

from __future__ import annotations

from triton.language import core as tlc

from . import _gpu_semantic as _sem
from ._markers import builtin
# Names tle.gpu offers beyond __all__ (and FlagTree's `import ... gpu as tle` may use).
from ._gpu_semantic import ASYNC_COPY_ATTR, TMA_FILL_ATTR, remote_pointers  # noqa: F401
from ._markers import TLEUsageError  # noqa: F401
from .buffers import (CLUSTER_ADDRESS_SPACE, SHARED_ADDRESS_SPACE, buffer_view, buffered_tensor,  # noqa: F401
                      buffered_tensor_type,
                      smem, storage_kind, tmem)
# tle.gpu.warp_specialize is defined with the pipes it synchronizes.
from .pipe import warp_specialize  # noqa: F401
# FlagTree's staged loop (tl.range with num_stages): tle.gpu.pipeline.
from .pipeline import pipeline  # noqa: F401
# FlagTree's explicit barriers and asynchronous wgmma (docs/barriers.md).
from .barriers import (PENDING, READY, alloc_barrier, alloc_barriers, barrier, barrier_array,  # noqa: F401
                       barrier_arrive, barrier_try_wait, barrier_type, barrier_wait, mbarrier, named_barrier)
# FlagTree's user-chosen layouts (FEP-0065).
from .layouts import (BlockEncoding, DotOperandEncoding, MmaEncoding, SlicedEncoding,  # noqa: F401
                      distributed_encoding, layout, nv_mma_shared_layout, nv_tma_shared_layout, set_layout,
                      shared_layout, swizzled_shared_layout, tensor_memory_layout)
from .wgmma import memdesc_wgmma_view, tma_store_wait, wgmma, wgmma_shared_operand_fence, wgmma_wait  # noqa: F401
# FlagTree's descriptor tables: tensor maps in global memory.
from .tensor_maps import reinterpret_tensor_map, tensor_map_fenceproxy_acquire  # noqa: F401

# FlagTree's name for the type of tle.gpu.smem / tle.gpu.tmem.
scope = storage_kind

# The public names of tle.gpu (the rest is shared with the other primitives' modules).
__all__ = ["BlockEncoding", "DotOperandEncoding", "MmaEncoding", "SlicedEncoding",
           "alloc", "alloc_barrier", "async_commit_group", "async_wait_group", "alloc_barriers", "barrier", "barrier_array", "barrier_arrive",
           "barrier_try_wait", "barrier_type", "barrier_wait", "buffered_tensor", "copy", "distributed_encoding", "layout", "local_load",
           "local_ptr", "local_store", "mbarrier",
           "memdesc_wgmma_view",
           "memory_space", "named_barrier", "reinterpret_tensor_map", "rematerialize_index", "remote", "set_layout",
           "smem", "storage_kind",
           "tensor_map_fenceproxy_acquire", "tma_store_wait", "tmem",
           "warp_specialize", "wgmma", "wgmma_shared_operand_fence", "wgmma_wait",
           "nv_mma_shared_layout", "nv_tma_shared_layout", "shared_layout", "swizzled_shared_layout",
           "tensor_memory_layout"]


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
        layout: None, or one of FlagTree's shared layouts as a statement
            of what the kernel expects: ``swizzled_shared_layout.make_default(rank)``
            (unswizzled row-major) or an ``nv_mma_shared_layout`` /
            ``nv_tma_shared_layout`` of the buffer's shape; the compiler
            still picks the encoding from the buffer's uses. Other layouts
            (swizzles, other orders, ``tensor_memory_layout``) are an error.
        scope: ``tle.gpu.smem`` (or ``"smem"`` / ``"shared_memory"``).
        init_value: None, or a tensor of ``shape`` stored into the buffer.
        nv_mma_shared_layout: a compile-time bool, FlagTree's layout hint;
            either value lets the compiler pick the encoding from the
            buffer's uses (NVMMA for wgmma and TMA operands).
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
    return _sem.alloc(shape, dtype, layout, scope, init_value, nv_mma_shared_layout, _semantic, alias=alias)


@builtin("tle.gpu.local_ptr")
def local_ptr(buffer, indices=None, shape=None, offsets=None, _semantic=None, _generator=None):
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
        shape: None, or (FlagTree's form; also the third positional
            argument, as in FlagTree) the result's shape, a tuple of
            compile-time ints: every index (scalar or tensor, e.g. ``rows``
            of shape ``[R, 1]`` and ``cols`` of ``[1, C]``) is broadcast to
            it first. Only with ``indices``.
        offsets: (FlagTree's older form, keyword only) instead of
            ``indices``: one integer tensor of flat row-major element
            offsets into the buffer.

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
    return _sem.local_ptr(buffer, indices, offsets, _semantic, shape=shape)


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
    _sem.local_store(buffer, value, _semantic)


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
    return _sem.local_load(buffer, _semantic)


@builtin("tle.gpu.copy")
def copy(src, dst, shape, offsets=None, barrier=None, is_async=False, eviction_policy="", mask=None, _semantic=None,
         _generator=None):
    """Copy a block between global memory and a buffer, in either direction.

    One side is a buffer, the other a tensor of global pointers of ``shape``
    (which must also be the buffer's shape).

    ``is_async=True`` (global memory into a field of a pipe slot taken by the
    writer's ``acquire()``) issues the copy as cp.async straight into the slot,
    without staging it in registers; the writer's ``commit`` then publishes the
    slot when the copies have landed (``cp.async.mbarrier.arrive`` on the
    slot's ready barrier), so the writer does not wait for them
    (docs/warp-specialize.md, "Asynchronous slot fills"). Into any other
    buffer ``is_async=True`` is FlagTree's transport-level copy: cp.async,
    neither committed nor waited for; ``tle.gpu.async_commit_group()`` closes
    a group of them and ``tle.gpu.async_wait_group(n)`` waits until at most
    ``n`` groups are in flight, before the buffer is read (docs/barriers.md,
    "cp.async groups"). A copy no commit follows is a compile error.

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
    (``tle.gpu.barrier_wait``; docs/barriers.md; into a buffer also read
    through ``local_ptr`` the load is synchronous, then the barrier
    arrives); so is a copy from global
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
            is written again), and for a cp.async copy into any other
            buffer, completed by ``async_commit_group`` / ``async_wait_group``.
        eviction_policy: ``""``, ``"evict_first"`` or ``"evict_last"``: the
            L2 eviction policy of an ``is_async=True`` copy's global reads,
            or of a TMA load from a descriptor into a buffer (synchronous or
            with ``barrier=``; sm_90): ``createpolicy.fractional.L2::...``
            and the load's ``.L2::cache_hint``.
        mask: None, or for an ``is_async=True`` copy from global pointers a
            boolean tensor (or scalar) broadcast to ``shape``: masked-off
            elements are not read and land as zeros.

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
    return _sem.copy(src, dst, shape, offsets, barrier, is_async, _semantic, mask=mask,
                     eviction_policy=eviction_policy)


@builtin("tle.gpu.async_commit_group")
def async_commit_group(_semantic=None, _generator=None):
    """Commit the cp.async copies this thread issued since the last commit as one group.

    ``cp.async.commit_group``: the ``tle.gpu.copy(ptrs, buf, shape,
    is_async=True)`` copies into buffers outside pipes issued since the
    previous commit form one group, which ``async_wait_group`` counts. sm_80.

    Returns:
        None.

    Example::

        tle.gpu.copy(x_ptr + offs, stage0, [BLOCK], is_async=True)
        tle.gpu.async_commit_group()
        tle.gpu.copy(x_ptr + BLOCK + offs, stage1, [BLOCK], is_async=True)
        tle.gpu.async_commit_group()
        tle.gpu.async_wait_group(1)   # stage0 has landed, stage1 may not have
    """
    _sem.async_commit_group(_semantic)


@builtin("tle.gpu.async_wait_group")
def async_wait_group(max_pending=0, _semantic=None, _generator=None):
    """Wait until at most ``max_pending`` committed cp.async groups are still in flight.

    ``cp.async.wait_group max_pending``, then a CTA barrier (Triton's), so
    every thread sees the copies of every group waited for. sm_80.

    Args:
        max_pending: a compile-time int in ``[0, 7]``; 0 waits for every
            committed group.

    Returns:
        None.

    Example::

        tle.gpu.copy(x_ptr + offs, buf, [BLOCK], is_async=True)
        tle.gpu.async_commit_group()
        tle.gpu.async_wait_group(0)   # buf holds x_ptr[offs]
        y = buf.load()
    """
    _sem.async_wait_group(max_pending, _semantic)


@builtin("tle.gpu.rematerialize_index")
def rematerialize_index(x, _semantic=None, _generator=None):
    """The same integer value, recomputed here (FlagTree's name).

    An index the kernel computed long before its use (a ``tl.arange`` or
    an offset tensor built before a loop) is otherwise kept in registers
    from its definition to every use. ``rematerialize_index(x)`` is a copy
    the compiler may not merge with other copies nor move (a ``mov``
    in inline PTX with a side effect), so the value held across the code in
    between is ``x``'s inputs, not ``x``: a way to shorten live ranges in a
    register-bound kernel. Each call is its own copy.

    Args:
        x: an int32, uint32, int64 or uint64 scalar or tensor (an int is
            taken as int32).

    Returns:
        ``x``'s value, of its type and layout.

    Example::

        offs = tl.arange(0, BLOCK)
        for k in range(n):
            acc += tl.load(x_ptr + tle.gpu.rematerialize_index(offs) + k * BLOCK)
    """
    return _sem.rematerialize_index(x, _semantic)


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
    return _sem.memory_space(input, space, _semantic)


@builtin("tle.remote")
def remote(buffer_or_ptr, shard_id=None, scope=None, context=None, space=None, dtype=None, offset=None,
           _semantic=None, _generator=None):
    """The same memory in another shard of the mesh ``scope``.

    Thread-block cluster (``scope`` has ``block_cluster`` axes):
    ``buffer_or_ptr`` is a buffer (the result is a view whose ``local_ptr``
    pointers reach CTA ``shard_id``'s copy) or pointers into a buffer (address
    space 3; the result points in address space 7), or pointers already into
    a peer's copy (address space 7: re-targeted to CTA ``shard_id``'s, as
    FlagTree allows). ``shard_id`` is the CTA's
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
            view), shared-memory pointers from ``tle.gpu.local_ptr`` or
            cluster pointers from ``tle.remote``, for a cluster; global
            pointers into the symmetric heap, for devices.
        shard_id: the target shard: an integer (scalar, constant or runtime)
            rank over the mesh's ``block_cluster`` (or ``device``) axes, or a
            tuple of one coordinate per such axis. Constant values must be
            in range.
        scope: a ``tle.device_mesh`` (a compile-time value, typically a
            ``tl.constexpr`` kernel argument) with ``block_cluster`` axes of
            more than one CTA (sm_90+), or with ``device`` axes. None (as in
            FlagTree): the kernel's own cluster, as its other primitives'
            meshes set it; ``shard_id`` is then a rank, and a kernel without
            a cluster (one CTA) only has rank 0 (any other is a compile
            error).
        context: None for a cluster; for devices a ``tle.device_context``
            built for the same mesh ``scope``.
        space, dtype, offset: FlagTree's device path on a registered buffer
            (docs/distributed.md): ``tle.remote(ctx, shard_id=r,
            space="device", dtype=T, offset=o)`` with ``ctx`` the context
            ``tle.create_dist_tensor`` returned (a ``tl.constexpr`` kernel
            argument) is a pointer of element type ``T`` to element ``o`` of
            rank ``r``'s buffer; with ``tle.create_comm_tensor``'s memory
            handle (its second result, an int kernel argument) as the first
            argument, the same read from the handle at run time. None
            otherwise.

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
    from . import signals
    space = tlc._unwrap_if_constexpr(space)
    if signals.context_of(buffer_or_ptr) is not None:
        if space not in (None, "device"):
            raise TLEUsageError(f"tle.remote with a tle.create_dist_tensor context reaches a peer's buffer in space "
                                f"'device' (one host); got space={space!r}")
        return signals.remote_from_context(buffer_or_ptr, shard_id, dtype, offset, _semantic)
    handle = tlc._unwrap_if_constexpr(buffer_or_ptr)
    if space == "device" and isinstance(handle, tlc.tensor) and not handle.type.is_block() and \
            handle.dtype in (tlc.int64, tlc.uint64):
        from . import comm_handles
        return comm_handles.remote(handle, shard_id, dtype, offset, _semantic, _generator)
    if space is not None or tlc._unwrap_if_constexpr(dtype) is not None or \
            tlc._unwrap_if_constexpr(offset) is not None:
        raise TLEUsageError("tle.remote: space=, dtype= and offset= go with a tle.create_dist_tensor context as the "
                            "first argument (FlagTree's device path); use scope= for a mesh")
    if shard_id is None:
        raise TLEUsageError("tle.remote needs shard_id (the target shard)")
    return _sem.remote(buffer_or_ptr, shard_id, scope, context, _semantic)


def __getattr__(name):
    """``tle.gpu.range``: FlagTree's name for Triton's own ``tl.range``
    (``tle.range`` is TLE's, with pipeline groups: docs/pipeline-groups.md).
    Looked up at each use rather than bound once, because Triton's
    interpreter swaps ``tl.range`` for a host loop while a kernel runs."""
    if name == "range":
        import triton.language as tl
        return tl.range
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
