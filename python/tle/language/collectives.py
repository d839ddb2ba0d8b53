"""Sharded tensors and the collectives between their layouts:
``tle.make_sharded_tensor``, ``tle.reshard`` and ``tle.distributed_dot``
(docs/distributed.md).

Over ``block_cluster`` mesh axes the compiler's collectives go through
distributed shared memory; over ``device`` axes through symmetric memory,
described by a ``tle.device_context`` (``device_runtime.py``).
"""

from __future__ import annotations

import math

from triton.language import core as tlc

from .. import _state
from . import _device_sync, _markers
from ._markers import TLEUsageError, builtin, describe, dims
from .core import _require_capability, _require_enabled
from .device_runtime import device_context
from .mesh import _mesh, cluster_barrier, cluster_shard_id
from .sharding_spec import B, S, _sharding, sharding
from .tiles import grid_view


class sharded_tensor(tlc.tensor):
    """A tensor holding this shard's block of a sharded tensor.

    It is an ordinary tensor of the local block's shape (use it in any
    ``tl`` operation; results are plain tensors) that also knows its
    ``sharding`` and the logical ``global_shape``, which ``tle.reshard`` and
    ``tle.distributed_dot`` read. Kernels get one from
    ``tle.make_sharded_tensor``, ``tle.reshard`` or ``tle.distributed_dot``
    rather than by constructing it.

    Args:
        value: the local block, a tensor.
        layout: its ``tle.sharding`` (stored as ``.sharding``).
        global_shape: the logical tensor's shape, a sequence of ints.

    Example::

        @triton.jit
        def k(X, OUT, ROWS: tl.constexpr):
            x = tle.make_sharded_tensor(X, ROWS, [64, 32])  # a tle.sharded_tensor
            # x.sharding is ROWS, x.global_shape is (64, 32), x.shape the block's
            tl.store(OUT + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :], x * 2)
    """

    def __init__(self, value: tlc.tensor, layout: sharding, global_shape):
        super().__init__(value.handle, value.type)
        self.sharding = layout
        self.global_shape = tuple(global_shape)

    def __repr__(self):
        return f"sharded_tensor({list(self.global_shape)}, {self.sharding!r}, local {self.shape})"


def _level_of_axes(mesh, axes, what):
    levels = {mesh.level_of(a) for a in axes}
    bad = levels - {"block_cluster", "device"}
    if bad:
        axis = next(a for a in axes if mesh.level_of(a) in bad)
        raise TLEUsageError(f"{what}: mesh axis {axis!r} is at level {mesh.level_of(axis)!r}; TLE lowers "
                            "block_cluster axes (distributed shared memory) and device axes (symmetric memory)")
    return levels


def _coord(mesh, axis, context, what, _semantic):
    """This shard's coordinate along ``axis`` (an i32 scalar)."""
    level = mesh.level_of(axis)
    if level == "block_cluster":
        (coord,) = _markers.emit("shard_id", {"mesh": mesh.mlir(), "axis": f'"{axis}"'}, [], [tlc.int32],
                                 _semantic=_semantic)
        return coord
    if level == "device":
        if context is None:
            raise TLEUsageError(f"{what}: mesh axis {axis!r} is a device axis; pass context=tle.device_context(...)")
        inner = math.prod(s for a, s, lvl in zip(mesh.axis_names, mesh.shape, mesh.levels)
                          if lvl == "device" and mesh.axis_names.index(a) > mesh.axis_names.index(axis))
        c = context.rank
        if inner != 1:
            c = _semantic.floordiv(c, _semantic.to_tensor(inner))
        return _semantic.mod(c, _semantic.to_tensor(mesh.axis_size(axis)))
    raise TLEUsageError(f"{what}: mesh axis {axis!r} is at level {level!r}, which TLE does not lower")


def _linear(coords_sizes, _semantic):
    linear = None
    for c, size in coords_sizes:
        linear = c if linear is None else _semantic.add(_semantic.mul(linear, _semantic.to_tensor(size), True), c,
                                                          True)
    return linear


def _global_shape(shape, what):
    shape = tlc._unwrap_if_constexpr(shape)
    if isinstance(shape, tlc.tuple):
        shape = list(shape.values)
    if isinstance(shape, int):
        shape = [shape]
    try:
        dims = [tlc._unwrap_if_constexpr(d) for d in shape]
    except TypeError:
        raise TLEUsageError(f"{what}: shape must be a list of compile-time ints, got {describe(shape)}") from None
    if not dims or any(isinstance(d, bool) or not isinstance(d, int) or d <= 0 for d in dims):
        raise TLEUsageError(f"{what}: shape must be a non-empty list of positive compile-time ints, got "
                            f"{describe(dims)}")
    return dims


def _context(context, mesh, what):
    context = tlc._unwrap_if_constexpr(context)
    if context is None:
        return None
    if not isinstance(context, device_context):
        raise TLEUsageError(f"{what}: context must come from tle.device_context(...), got {describe(context)}")
    if context.mesh != mesh:
        raise TLEUsageError(f"{what}: the device context is for {context.mesh!r}, the sharding for {mesh!r}")
    return context


def _annotate(value, layout, shape, _semantic):
    attrs = {"sharding": layout.mlir(len(shape)), "shape": ("i64-array", shape)}
    (result,) = _markers.emit("make_sharded_tensor", attrs, [value], [value.dtype], _semantic=_semantic)
    return sharded_tensor(result, layout, shape)


@builtin("tle.make_sharded_tensor")
def make_sharded_tensor(x, sharding, shape, context=None, _semantic=None, _generator=None):
    """This shard's block of a tensor of (global) ``shape`` laid out as ``sharding``.

    ``x`` is either a pointer to the whole row-major tensor in global memory
    (each shard loads its block; with partial axes, ``x`` holds one tensor
    per coordinate of those axes, as leading dimensions in the order of ``partial``), or a
    tensor that already is this shard's block (it is annotated). Returns a
    ``sharded_tensor``. ``context`` (``tle.device_context``) is needed to
    locate blocks split over device axes.

    Args:
        x: a scalar pointer to global memory (the whole tensor, row-major;
            each shard loads its block), or a tensor of exactly the local
            block's shape (annotated as this shard's block).
        sharding: a ``tle.sharding`` (compile-time) over ``block_cluster``
            (sm_90+) and/or ``device`` axes; every local block dimension must
            be a power of two and every split dimension divisible by its
            shard count.
        shape: the global shape, a non-empty list of positive compile-time
            ints.
        context: None, or a ``tle.device_context`` for the sharding's mesh;
            required when ``x`` is a pointer and a dimension (or a partial
            axis) is split over a ``device`` axis.

    Returns:
        A ``tle.sharded_tensor``: this shard's block, carrying ``sharding``
        and ``shape``.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 4)]})
        ROWS = tle.sharding(MESH, split=[tle.S("cx"), tle.B])

        @triton.jit
        def double(X, OUT, ROWS: tl.constexpr):
            x = tle.make_sharded_tensor(X, ROWS, [64, 32])  # this CTA's 16 x 32 block
            y = tle.make_sharded_tensor(x * 2, ROWS, [64, 32])
    """
    what = "tle.make_sharded_tensor"
    layout = _sharding(sharding, what, "sharding")
    shape = _global_shape(shape, what)
    local = layout.local_shape(shape, what)
    axes = [a for d in layout.dims(len(shape), what) for a in d] + list(layout.partial)
    _level_of_axes(layout.mesh, axes, what + " sharding")
    for d, n in enumerate(local):
        if n & (n - 1):
            raise TLEUsageError(f"{what}: the local block {local} is a tensor shape, so every dimension must be a "
                                f"power of two (dimension {d} is {n})")
    context = _context(context, layout.mesh, what)
    _require_enabled(what, _semantic)
    if "block_cluster" in {layout.mesh.level_of(a) for a in axes}:
        _require_capability(f"{what} over block_cluster axes (thread-block clusters)", 90, _semantic)
    x = tlc._unwrap_if_constexpr(x)
    if isinstance(x, tlc.tensor) and x.type.is_block() and not x.dtype.is_ptr():
        block = dims(x.shape)
        if block != local:
            raise TLEUsageError(f"{what} x: the block has shape {block}, but each shard of {shape} laid out "
                                f"as {layout!r} holds {local}")
        return _annotate(x, layout, shape, _semantic)
    if not isinstance(x, tlc.tensor) or x.type.is_block() or not x.dtype.is_ptr():
        raise TLEUsageError(f"{what}: x must be a pointer to the global tensor or this shard's block (a tensor), "
                            f"got {describe(x)}")
    if x.dtype.address_space != 1:
        raise TLEUsageError(f"{what}: x must point to global memory")
    # Element offsets of this shard's block in the row-major global tensor.
    offs = None
    stride = 1
    rank = len(shape)
    for d in reversed(range(rank)):
        idx = _semantic.arange(0, local[d])
        dim_axes = layout.dims(rank)[d]
        if dim_axes:
            shard = _linear([(_coord(layout.mesh, a, context, what, _semantic), layout.mesh.axis_size(a))
                             for a in dim_axes], _semantic)
            idx = _semantic.add(idx, _semantic.mul(shard, _semantic.to_tensor(local[d]), True), True)
        idx = _semantic.mul(idx, _semantic.to_tensor(stride), True) if stride != 1 else idx
        for _ in range(d):
            idx = _semantic.expand_dims(idx, 0)
        for k in range(d + 1, rank):
            idx = _semantic.expand_dims(idx, k)
        offs = idx if offs is None else _semantic.add(*_semantic.broadcast_impl_value(offs, idx), True)
        stride *= shape[d]
    for axis in reversed(layout.partial):
        c = _coord(layout.mesh, axis, context, what, _semantic)
        offs = _semantic.add(offs, _semantic.mul(c, _semantic.to_tensor(stride), True), True)
        stride *= layout.mesh.axis_size(axis)
    offs = _semantic.broadcast_impl_shape(offs, local)
    value = _semantic.load(_semantic.add(x, offs, True), None, None, (), "", "", "", False)
    return _annotate(value, layout, shape, _semantic)


def _sharded(x, what) -> sharded_tensor:
    x = tlc._unwrap_if_constexpr(x)
    if not isinstance(x, sharded_tensor):
        got = "a plain tensor" if isinstance(x, tlc.tensor) else describe(x)
        raise TLEUsageError(f"{what} expects a sharded tensor (from tle.make_sharded_tensor, tle.reshard or "
                            f"tle.distributed_dot), got {got}; "
                            "annotate a block with tle.make_sharded_tensor(block, sharding, global_shape)")
    return x


def _reshard(x: sharded_tensor, target: sharding, root, context, what, _semantic, spec=None) -> sharded_tensor:
    """``x`` resharded to ``target``; ``spec`` names the argument that gave
    ``target`` (None: the caller made it up)."""
    source = x.sharding
    mesh = source.mesh
    shape = list(x.global_shape)
    rank = len(shape)
    where = f"{what} {spec}" if spec else what  # errors about the target
    if target.mesh != mesh:
        raise TLEUsageError(f"{where}: the target sharding is over {target.mesh!r}, the tensor over {mesh!r}")
    src_local = source.local_shape(shape, what)
    tgt_local = target.local_shape(shape, where + " (target)")
    for d, n in enumerate(tgt_local):
        if n & (n - 1):
            raise TLEUsageError(f"{where}: the target block {tgt_local} must have power-of-two dimensions "
                                f"(dimension {d} is {n})")
    for axis in target.partial:
        if axis not in source.partial:
            raise TLEUsageError(f"{where}: incompatible reshard from {source!r} to {target!r}: a reshard cannot "
                                f"create partial sums over {axis!r} (the source is not partial over it)")
    changed = [a for a in mesh.axis_names
               if source.split_dim(a, rank) != target.split_dim(a, rank)
               or (a in source.partial) != (a in target.partial)]
    levels = _level_of_axes(mesh, changed, where)
    if len(levels) > 1:
        raise TLEUsageError(f"{where}: the reshard from {source!r} to {target!r} changes block_cluster and device "
                            "axes at once; reshard one level at a time")
    root = tlc._unwrap_if_constexpr(root)
    if root is not None:
        if isinstance(root, bool) or not isinstance(root, int):
            raise TLEUsageError(f"{what}: root must be a compile-time int (a CTA rank in the cluster), got "
                                f"{describe(root)}")
        if not 0 <= root < mesh.cluster_size or mesh.cluster_size <= 1:
            raise TLEUsageError(f"{what}: root {root} is not a CTA rank of {mesh!r}'s cluster of "
                                f"{mesh.cluster_size} CTAs")
        if target.partial:
            raise TLEUsageError(f"{what}: a reshard to a root (gather / reduce) cannot leave partial axes")
        if "device" in levels:
            raise TLEUsageError(f"{what}: root names a CTA of the cluster; a reshard over device axes has no root")
    context = _context(context, mesh, what)
    if "device" in levels and context is None:
        raise TLEUsageError(f"{what}: the reshard from {source!r} to {target!r} changes device axes; pass "
                            "context=tle.device_context(...) (docs/distributed.md)")
    if not changed and root is None:
        return sharded_tensor(x, target, shape)
    _require_enabled(what, _semantic)
    if "block_cluster" in levels:
        _require_capability(f"{what} over block_cluster axes (distributed shared memory)", 90, _semantic)
    attrs = {"source": source.mlir(rank), "target": target.mlir(rank), "shape": ("i64-array", shape)}
    if root is not None:
        attrs["root"] = f"{root} : i64"
    device = context is not None and "device" in levels
    grow = all(t >= s for s, t in zip(src_local, tgt_local))
    shrink = all(t <= s for s, t in zip(src_local, tgt_local))
    if not (grow or shrink):
        raise TLEUsageError(f"{where}: the reshard from {source!r} to {target!r} moves a split to another "
                            "dimension (an all-to-all), which TLE does not lower in one step; reshard to "
                            "tle.B on one of the dimensions first")
    value = tlc.tensor(x.handle, x.type)
    marker_shape = tgt_local if grow else src_local
    if grow and tgt_local != src_local:
        # The block repeated over the grid of blocks (docs/markers.md, "Tiles").
        grid = [t // s for s, t in zip(src_local, tgt_local)]
        view, axes = grid_view(tgt_local, src_local, grid)
        for axis in axes:
            value = _semantic.expand_dims(value, axis)
        value = _semantic.broadcast_impl_shape(value, view)
        value = _semantic.reshape(value, tgt_local, can_reorder=False)
        attrs["tle.marker.tile_shape"] = ("i64-array", src_local)
        attrs["tle.marker.tiled_operands"] = ("i32-array", [0])
    elif not grow:
        attrs["tle.marker.tile_shape"] = ("i64-array", tgt_local)
        attrs["tle.marker.tiled_results"] = ("i32-array", [0])
    operands = [value]
    if device:
        scalars = list(context.reshard_values)
        # The workspace is raw symmetric memory: this reshard stages its own
        # element type there (a context serves reshards of several types,
        # e.g. distributed_dot's f16 gathers and f32 sums).
        if scalars[0].dtype.element_ty != x.dtype:
            scalars[0] = _semantic.bitcast(scalars[0], tlc.pointer_type(x.dtype))
        operands += [_semantic.splat(v, marker_shape) for v in scalars]
        attrs["tle.marker.scalar_operands"] = ("i32-array", list(range(1, 6)))
    attrs["operandSegmentSizes"] = ("i32-array", [1] + [1 if device else 0] * 5)
    (result,) = _markers.emit("reshard", attrs, operands, [x.dtype], _semantic=_semantic)
    if not grow:
        grid = [s // t for s, t in zip(src_local, tgt_local)]
        view, axes = grid_view(src_local, tgt_local, grid)
        result = _semantic.reshape(result, view, can_reorder=False)
        for axis in reversed(axes):
            result = _markers._pick_reduce(result, axis, _semantic)
    return sharded_tensor(result, target, shape)


@builtin("tle.reshard")
def reshard(x, spec, root=None, context=None, _semantic=None, _generator=None):
    """``x`` (a sharded tensor) laid out as ``spec`` instead: the compiler
    inserts the collective (docs/distributed.md):

    =====================  ===========================================
    per mesh axis          collective
    =====================  ===========================================
    S -> B                 all-gather
    P -> B                 all-reduce (sum)
    P -> S                 reduce-scatter
    B -> S                 scatter (a local slice, no communication)
    S / P -> B, ``root``   gather / reduce to CTA ``root`` (others: 0)
    =====================  ===========================================

    Over ``block_cluster`` axes it goes through distributed shared memory;
    over ``device`` axes it needs ``context=tle.device_context(...)``.

    Args:
        x: a ``tle.sharded_tensor`` (from ``tle.make_sharded_tensor``,
            ``tle.reshard`` or ``tle.distributed_dot``).
        spec: the target ``tle.sharding`` (compile-time), over ``x``'s mesh.
            Its blocks must have power-of-two dimensions; it cannot add
            partial axes, move a split to another dimension (an
            all-to-all), or change ``block_cluster`` and ``device`` axes in
            one reshard.
        root: None, or a compile-time int, the CTA rank in the cluster that
            receives a gather / reduce (only over ``block_cluster`` axes;
            the target cannot be partial).
        context: None, or a ``tle.device_context`` for ``x``'s mesh;
            required when the reshard changes ``device`` axes.

    Returns:
        A ``tle.sharded_tensor`` laid out as ``spec`` (``x``'s block,
        relabelled, when no mesh axis changes and ``root`` is None).

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 4)]})
        ROWS = tle.sharding(MESH, split=[tle.S("cx"), tle.B])
        FULL = tle.sharding(MESH, split=[tle.B, tle.B])

        @triton.jit
        def all_gather(X, OUT, ROWS: tl.constexpr, FULL: tl.constexpr):
            x = tle.make_sharded_tensor(X, ROWS, [64, 32])  # 16 x 32 per CTA
            y = tle.reshard(x, FULL)                         # 64 x 32 on every CTA
            tl.store(OUT + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :], y)
    """
    what = "tle.reshard"
    x = _sharded(x, what + " x")
    target = _sharding(spec, what, "spec")
    return _reshard(x, target, root, context, what, _semantic, spec="spec")


@builtin("tle.distributed_dot")
def distributed_dot(a, b, c=None, out_sharding=None, context=None, _semantic=None, _generator=None):
    """``a @ b (+ c)`` for sharded ``a`` (M x K) and ``b`` (K x N).

    The compiler inserts the collectives (docs/distributed.md):
    - K split over the same axes in ``a`` and ``b``: each shard multiplies
      its blocks (a partial sum over those axes), then the partial sums are
      all-reduced (or reduce-scattered, per ``out_sharding``);
    - a K split of only one operand, or the same axis splitting ``a``'s M and
      ``b``'s N: that operand is all-gathered first;
    - M split of ``a`` / N split of ``b``: the result keeps it.
    The result is a sharded tensor of sharding ``out_sharding`` (default: the
    natural one, with no partial axes). ``c`` is added once, after the
    reduction, and must be laid out as the result.

    Args:
        a: a 2-D ``tle.sharded_tensor`` (M x K) without partial axes.
        b: a 2-D ``tle.sharded_tensor`` (K x N) over the same mesh, without
            partial axes. Local blocks must suit ``tl.dot`` (every local
            dimension >= 16).
        c: None, or this shard's block of the result (a tensor, or a
            sharded tensor laid out as the result), added in fp32 after the
            reduction.
        out_sharding: None (the natural layout without partial axes), or a
            ``tle.sharding`` of the M x N result; not partial when ``c`` is
            given.
        context: None, or a ``tle.device_context`` for the mesh; required
            when a collective crosses ``device`` axes.

    Returns:
        A ``tle.sharded_tensor`` of global shape M x N and dtype fp32, laid
        out as ``out_sharding``.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 2)]})
        A_K = tle.sharding(MESH, split=[tle.B, tle.S("cx")])   # a's K split
        B_K = tle.sharding(MESH, split=[tle.S("cx"), tle.B])   # b's K split

        @triton.jit
        def matmul(A, B, C, A_K: tl.constexpr, B_K: tl.constexpr):
            a = tle.make_sharded_tensor(A, A_K, [32, 64])
            b = tle.make_sharded_tensor(B, B_K, [64, 32])
            c = tle.distributed_dot(a, b)   # local dots, then an all-reduce
            tl.store(C + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)
    """
    what = "tle.distributed_dot"
    out_sharding = tlc._unwrap_if_constexpr(out_sharding)
    c = tlc._unwrap_if_constexpr(c)
    a, b = _sharded(a, what + " a"), _sharded(b, what + " b")
    if len(a.global_shape) != 2 or len(b.global_shape) != 2:
        raise TLEUsageError(f"{what}: a and b must be 2-D, got shapes {list(a.global_shape)} and "
                            f"{list(b.global_shape)}")
    (m, k), (k2, n) = a.global_shape, b.global_shape
    if k != k2:
        raise TLEUsageError(f"{what}: a is {m}x{k} and b is {k2}x{n}; the K dimensions differ")
    mesh = a.sharding.mesh
    if b.sharding.mesh != mesh:
        raise TLEUsageError(f"{what}: a and b are sharded over different meshes")
    if a.sharding.partial or b.sharding.partial:
        raise TLEUsageError(f"{what}: a and b cannot be partial sums (reshard them to tle.B first)")
    (am, ak), (bk, bn) = a.sharding.dims(2), b.sharding.dims(2)
    # K: matching splits give partial sums; otherwise gather K.
    if ak != bk:
        if ak:
            a = _reshard(a, sharding(mesh, split=[S(*am) if am else B, B]), None, context, what, _semantic)
            ak = ()
        if bk:
            b = _reshard(b, sharding(mesh, split=[B, S(*bn) if bn else B]), None, context, what, _semantic)
            bk = ()
    # One axis cannot split both M and N of the result: gather b's N.
    if set(am) & set(bn):
        b = _reshard(b, sharding(mesh, split=[S(*bk) if bk else B, B]), None, context, what, _semantic)
        bn = ()
    acc = _semantic.dot(tlc.tensor(a.handle, a.type), tlc.tensor(b.handle, b.type), None, None, None, tlc.float32)
    natural = sharding(mesh, split=[S(*am) if am else B, S(*bn) if bn else B], partial=list(ak))
    result = _annotate(acc, natural, [m, n], _semantic)
    target = _sharding(out_sharding, what, "out_sharding") if out_sharding is not None else \
        sharding(mesh, split=[S(*am) if am else B, S(*bn) if bn else B])
    result = _reshard(result, target, None, context, what, _semantic,
                      spec="out_sharding" if out_sharding is not None else None)
    if c is not None:
        if target.partial:
            raise TLEUsageError(f"{what}: c is added after the reduction; out_sharding cannot be partial with c")
        c = tlc._unwrap_if_constexpr(c)
        if isinstance(c, sharded_tensor):
            if c.sharding != target or list(c.global_shape) != [m, n]:
                raise TLEUsageError(f"{what}: c is laid out as {c.sharding!r}, the result as {target!r}")
        local = target.local_shape([m, n], what)
        if not isinstance(c, tlc.tensor) or [int(tlc._unwrap_if_constexpr(s)) for s in c.shape] != local:
            raise TLEUsageError(f"{what}: c must be this shard's {local} block of the result")
        summed = _semantic.add(tlc.tensor(result.handle, result.type), _semantic.cast(c, tlc.float32), True)
        result = _annotate(summed, target, [m, n], _semantic)
    return result


# tle.shard_id and tle.distributed_barrier: the cluster level is mesh.py's;
# the device level needs a device context, so they live here.
@builtin("tle.shard_id")
def shard_id(mesh, axis, context=None, device_dptr=None, _semantic=None, _generator=None):
    """The calling program's coordinate along mesh axis ``axis`` (an int32
    scalar): its CTA's coordinate in the cluster for a ``block_cluster``
    axis; its device's coordinate for a ``device`` axis (pass
    ``context=tle.device_context(...)``, whose rank it decomposes row-major).

    Args:
        mesh: a ``tle.device_mesh`` (compile-time), or a sub-mesh of one
            (``MESH[0, :]``: the coordinate is read on ``MESH``).
        axis: one of the (whole) mesh's axes, by name (a str) or position
            (an int, negative from the end; FlagTree's form), at level
            ``block_cluster`` (sm_90+), ``device``, or ``block`` (the
            program's coordinate in the row-major decomposition of
            ``tl.program_id(0)`` over the mesh's block axes, modulo their
            product; a mesh with block axes only).
        context: None, or for a ``device`` axis (where it is required) a
            ``tle.device_context`` for ``mesh``.
        device_dptr: FlagTree's form for a ``device`` axis: the context
            ``tle.create_dist_tensor`` returned (a ``tl.constexpr``), for a
            mesh of one device axis of its world size.

    Returns:
        An int32 scalar in ``[0, mesh.axis_size(axis))``.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 2)]})

        @triton.jit
        def coords(OUT, MESH: tl.constexpr):
            x = tle.shard_id(MESH, "cx")
            y = tle.shard_id(MESH, "cy")
            # one cluster, launched as (2, 2, 1): program ids (x, y)
            tl.store(OUT + tl.program_id(0) * 2 + tl.program_id(1), x * 10 + y)
    """
    mesh = _mesh(mesh, "tle.shard_id", submesh=True).launch_mesh
    axis = tlc._unwrap_if_constexpr(axis)
    if isinstance(axis, int) and not isinstance(axis, bool):
        # FlagTree's form: the axis' position in the mesh (negative from the end).
        if not -len(mesh.axis_names) <= axis < len(mesh.axis_names):
            raise TLEUsageError(f"tle.shard_id axis index {axis} is out of range for {mesh!r} "
                                f"({len(mesh.axis_names)} axes)")
        axis = mesh.axis_names[axis]
    if not isinstance(axis, str):
        raise TLEUsageError(f"tle.shard_id axis must be an axis name (str) or its index (int), got "
                            f"{describe(axis)}")
    if axis not in mesh.axis_names:
        raise TLEUsageError(f"tle.shard_id axis {axis!r} is not an axis of {mesh!r} "
                            f"(axes: {', '.join(mesh.axis_names)})")
    level = mesh.level_of(axis)
    if tlc._unwrap_if_constexpr(device_dptr) is not None:
        from . import signals
        return signals.rank_of(device_dptr, mesh, axis, _semantic)
    if level == "device":
        context = _context(context, mesh, "tle.shard_id")
        return _coord(mesh, axis, context, "tle.shard_id", _semantic)
    if level == "block":
        return _block_shard_id(mesh, axis, _semantic)
    if level != "block_cluster":
        raise TLEUsageError(f"tle.shard_id on the {level!r} axis {axis!r} is not supported; "
                            "TLE implements the block, block_cluster and device levels")
    return cluster_shard_id(mesh, axis, _semantic)


def _block_shard_id(mesh, axis, _semantic):
    """A ``block`` axis: the program's coordinate in the row-major
    decomposition of ``tl.program_id(0)`` over the mesh's block axes (a grid
    larger than them wraps around), as in FlagTree."""
    if mesh.cluster_axes:
        raise TLEUsageError(f"tle.shard_id on the block axis {axis!r} of {mesh!r}: a mesh with block_cluster "
                            "axes too is not supported (read the cluster coordinates with tle.shard_id on them "
                            "and the program id with tl.program_id)")
    blocks = [n for n, lvl in zip(mesh.axis_names, mesh.levels) if lvl == "block"]
    after = blocks[blocks.index(axis) + 1:]
    stride = math.prod(mesh.axis_size(a) for a in after)
    pid = _semantic.program_id(0)
    size = _semantic.to_tensor(mesh.level_size("block"))
    coord = _semantic.floordiv(_semantic.mod(pid, size), _semantic.to_tensor(stride))
    return _semantic.mod(coord, _semantic.to_tensor(mesh.axis_size(axis)))


@builtin("tle.distributed_barrier")
def distributed_barrier(mesh=None, context=None, comm_ptr=None, space=None, group_kind=None, order=None,
                        barrier_kind=None, device_dptr=None, _semantic=None, _generator=None):
    """Wait until every program of ``mesh``'s thread-block cluster arrives; or,
    for a sub-mesh (``MESH[0, :]``), until every program of the sub-mesh
    arrives, programs outside it going on at once; or, with
    ``context=tle.device_context(...)`` over a mesh of devices, until the
    program with the same id has arrived on every device of the mesh
    (system-scope release/acquire: what each wrote before is visible to the
    others after; docs/distributed.md, "Device barriers"). Without a mesh,
    every CTA of the launch's cluster (a CTA barrier when the kernel is not
    a cluster kernel), as in FlagTree. Over a mesh with ``block`` axes,
    every program of the launch (a grid barrier, as CUDA's ``grid.sync()``;
    the kernel is launched cooperatively, so its grid must fit on the GPU at
    once; docs/distributed.md, "Grid barriers").

    Args:
        mesh: None, or a ``tle.device_mesh`` (compile-time): without
            ``context``, one with a thread-block cluster of more than one CTA
            (sm_90+), a sub-mesh of one that fixes some of its
            block_cluster axes (an int) and keeps the others whole (``:``),
            or one with a ``block`` axis of size > 1 (a grid barrier,
            sm_70+); with ``context``, one with a ``device`` axis of size > 1.
        context: None, or a ``tle.device_context`` for ``mesh`` built from a
            host context's ``args()`` tuple (``tle.device_context(MESH, C)``),
            whose signal slots the barrier uses.
        comm_ptr: FlagTree's form, instead of ``mesh`` and ``context``: the
            communicator handle ``tle.create_comm_tensor`` returned (an int
            kernel argument): program ``pid`` of every rank of it meets
            program ``pid`` of the others, as with a context.
        device_dptr: FlagTree's form: the context ``tle.create_dist_tensor``
            returned (a ``tl.constexpr``), with ``space="device"``: the
            same barrier on the context's counters.
        space, group_kind, order, barrier_kind: with ``comm_ptr`` only,
            FlagTree's options: ``space="device"`` (required),
            ``group_kind="block"``, ``order="acqrel"``,
            ``barrier_kind="sync"`` (the others are errors).

    Returns:
        None.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 2)]})

        @triton.jit
        def handshake(OUT, N: tl.constexpr, MESH: tl.constexpr):
            rank = tle.shard_id(MESH, "cx")
            buf = tle.gpu.alloc([N], dtype=tl.int32)
            tl.store(tle.gpu.local_ptr(buf), tl.full([N], 1, tl.int32) + rank)
            tle.distributed_barrier(MESH)   # both CTAs' buffers are written
            peer = tle.remote(buf, 1 - rank, scope=MESH)
            tl.store(OUT + rank * N + tl.arange(0, N), tl.load(tle.gpu.local_ptr(peer)))
    """
    if tlc._unwrap_if_constexpr(device_dptr) is not None:
        if any(tlc._unwrap_if_constexpr(v) is not None for v in (context, comm_ptr, group_kind, order, barrier_kind)):
            raise TLEUsageError("tle.distributed_barrier(device_dptr=...) takes space= only (no context=, comm_ptr=, "
                                "group_kind=, order= or barrier_kind=)")
        from . import signals
        signals.barrier_from_context(device_dptr, space, _semantic, _generator)
        return None
    if tlc._unwrap_if_constexpr(comm_ptr) is not None:
        if tlc._unwrap_if_constexpr(context) is not None:
            raise TLEUsageError("tle.distributed_barrier takes context= or comm_ptr=, not both")
        from . import comm_handles
        comm_handles.barrier(comm_ptr, space, group_kind, order, barrier_kind, _semantic, _generator)
        return None
    if any(tlc._unwrap_if_constexpr(v) is not None for v in (space, group_kind, order, barrier_kind)):
        raise TLEUsageError("tle.distributed_barrier: space=, group_kind=, order= and barrier_kind= go with "
                            "comm_ptr= (FlagTree's communicator handle from tle.create_comm_tensor) or device_dptr= "
                            "(its tle.create_dist_tensor context)")
    context = tlc._unwrap_if_constexpr(context)
    if context is not None:
        mesh = _mesh(mesh, "tle.distributed_barrier")
        if mesh.level_size("device") <= 1:
            raise TLEUsageError(f"tle.distributed_barrier with a context: {mesh!r} has no device axis of size > 1")
        context = _context(context, mesh, "tle.distributed_barrier")
        if context.signals is None:
            raise TLEUsageError("tle.distributed_barrier over devices needs the signal slots of a host context: "
                                "build the context as tle.device_context(MESH, C) with C = ctx.args() of "
                                "tle.device_context.from_group")
        limit = _state.device_wait_limit()
        timed_out = _generator.call_JitFunction(
            _device_sync.device_barrier,
            [context.signals, context.peer_offsets, context.rank, mesh.level_size("device"),
             1 << (mesh.level_size("device") - 1).bit_length(), limit], {})
        if limit:
            ok = _semantic.equal(timed_out, _semantic.to_tensor(0))
            _semantic.builder.create_assert(
                ok.handle, f"TLE device wait timed out: tle.distributed_barrier over {mesh!r} waited {limit} polls "
                "for a peer (a peer that did not launch this kernel, or launched another one)")
        return None
    cluster_barrier(tlc._unwrap_if_constexpr(mesh), _semantic)
