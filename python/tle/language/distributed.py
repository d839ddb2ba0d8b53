"""Device meshes and the cluster side of TLE's distributed API.

``tle.device_mesh`` names the levels of parallel hardware a kernel runs on;
``tle.shard_id(mesh, axis)`` is the calling program's coordinate along one
axis, ``tle.distributed_barrier(mesh)`` synchronizes a group of programs and
``tle.remote(...)`` reaches another shard's memory.

This module implements the thread-block-cluster level (``block_cluster``): a
kernel whose mesh has ``block_cluster`` axes is launched as clusters of their
product of CTAs. ``tl.program_id(0)`` is then the cluster's index (a program is
a cluster, as with Triton's ``num_ctas``) and ``tle.shard_id`` the CTA's
coordinates inside it. Other levels (nodes, devices) are for issue 8.
"""

from __future__ import annotations

import math

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError
from .core import _require_enabled
from .tiles import grid_view

LEVELS = ("node", "device", "block_cluster", "block")


class device_mesh:
    """A logical mesh of parallel hardware with named axes.

    ``topology`` maps a level (``"node"``, ``"device"``, ``"block_cluster"``,
    ``"block"``) to either a size (one axis named after the level) or a list of
    ``(axis_name, size)`` pairs, outermost first::

        mesh = tle.device_mesh({"block_cluster": [("cluster_x", 2)]})

    Meshes are compile-time values: create them outside the kernel and pass
    them as ``tl.constexpr`` arguments (or reference a ``tl.constexpr`` global).
    """

    def __init__(self, topology=None, **kwargs):
        topology = dict(topology or {}, **kwargs)
        if not topology:
            raise TLEUsageError("tle.device_mesh needs at least one level")
        shape, names, levels = [], [], []
        for level, spec in topology.items():
            if level not in LEVELS:
                raise TLEUsageError(f"tle.device_mesh: unknown level {level!r}; levels are {', '.join(LEVELS)}")
            if isinstance(spec, int) and not isinstance(spec, bool):
                spec = [(level, spec)]
            try:
                pairs = [(str(name), int(size)) for name, size in spec]
            except (TypeError, ValueError):
                raise TLEUsageError(f"tle.device_mesh: level {level!r} must be a size or a list of "
                                    f"(axis_name, size) pairs, got {spec!r}") from None
            for name, size in pairs:
                if size <= 0:
                    raise TLEUsageError(f"tle.device_mesh: axis {name!r} has size {size}; sizes must be > 0")
                if not name or name in names:
                    raise TLEUsageError(f"tle.device_mesh: axis names must be non-empty and unique, got {name!r}")
                shape.append(size)
                names.append(name)
                levels.append(level)
        self.shape = tuple(shape)
        self.axis_names = tuple(names)
        self.levels = tuple(levels)

    # Identity: meshes are constexprs, so they key Triton's caches by repr.
    def __repr__(self):
        axes = ", ".join(f"{lvl}:{n}={s}" for lvl, n, s in zip(self.levels, self.axis_names, self.shape))
        return f"device_mesh({axes})"

    def __eq__(self, other):
        return isinstance(other, device_mesh) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def axis_size(self, axis: str) -> int:
        return self.shape[self._axis_index(axis)]

    def level_of(self, axis: str) -> str:
        return self.levels[self._axis_index(axis)]

    def _axis_index(self, axis: str) -> int:
        if axis not in self.axis_names:
            raise TLEUsageError(f"axis {axis!r} is not an axis of {self!r}")
        return self.axis_names.index(axis)

    @property
    def cluster_axes(self) -> tuple[str, ...]:
        return tuple(n for n, lvl in zip(self.axis_names, self.levels) if lvl == "block_cluster")

    @property
    def cluster_size(self) -> int:
        return math.prod(self.axis_size(a) for a in self.cluster_axes)

    def level_size(self, level: str) -> int:
        """Product of the sizes of the axes at ``level`` (1 if none)."""
        return math.prod(s for s, lvl in zip(self.shape, self.levels) if lvl == level)

    def mlir(self) -> str:
        """The mesh as a ``#tle.device_mesh`` attribute."""
        shape = ", ".join(str(s) for s in self.shape)
        axes = ", ".join(f'"{n}"' for n in self.axis_names)
        levels = ", ".join(f'"{lvl}"' for lvl in self.levels)
        return f"#tle.device_mesh<shape = [{shape}], axes = [{axes}], levels = [{levels}]>"


def _mesh(mesh, what: str) -> device_mesh:
    mesh = tlc._unwrap_if_constexpr(mesh)
    if not isinstance(mesh, device_mesh):
        raise TLEUsageError(f"{what} expects a tle.device_mesh (as a tl.constexpr), got {type(mesh).__name__}")
    return mesh


def cluster_mesh(mesh, what: str) -> device_mesh:
    """``mesh``, checked to describe a thread-block cluster of more than one CTA."""
    mesh = _mesh(mesh, what)
    if mesh.cluster_size <= 1:
        raise TLEUsageError(f"{what} needs a thread-block cluster: {mesh!r} has no block_cluster axis of "
                            "size > 1 (e.g. tle.device_mesh({'block_cluster': [('cluster_x', 2)]}))")
    return mesh


@tlc.builtin
def shard_id(mesh, axis, _semantic=None, _generator=None):
    """The calling program's coordinate along mesh axis ``axis`` (an int32 scalar)."""
    mesh = _mesh(mesh, "tle.shard_id")
    axis = tlc._unwrap_if_constexpr(axis)
    if not isinstance(axis, str):
        raise TLEUsageError(f"tle.shard_id axis must be an axis name (str), got {axis!r}")
    level = mesh.level_of(axis)
    if level != "block_cluster":
        raise TLEUsageError(f"tle.shard_id on the {level!r} axis {axis!r} is not supported yet; "
                            "TLE implements the block_cluster level")
    _require_enabled("tle.shard_id", _semantic)
    (result,) = _markers.emit("shard_id", {"mesh": mesh.mlir(), "axis": f'"{axis}"'}, [], [tlc.int32],
                              _semantic=_semantic)
    return result


@tlc.builtin
def distributed_barrier(mesh, _semantic=None, _generator=None):
    """Wait until every program of ``mesh``'s thread-block cluster arrives."""
    cluster_mesh(mesh, "tle.distributed_barrier")
    _require_enabled("tle.distributed_barrier", _semantic)
    _markers.emit("distributed_barrier", {"group": "#tle.distributed_group<cluster>",
                                          "tle.marker.no_results": True}, [], [tlc.int32], _semantic=_semantic)


def linear_shard(shard, mesh: device_mesh, _semantic) -> tlc.tensor:
    """A cluster shard id (an int, an i32 scalar, or one coordinate per cluster
    axis) as the CTA's rank in the cluster, an int32 scalar."""
    shard = tlc._unwrap_if_constexpr(shard)
    axes = mesh.cluster_axes
    if isinstance(shard, (tuple, list, tlc.tuple)):
        coords = [tlc._unwrap_if_constexpr(c) for c in shard]
        if len(coords) != len(axes):
            raise TLEUsageError(f"tle.remote shard_id has {len(coords)} coordinates but {mesh!r} has "
                                f"{len(axes)} block_cluster axes")
    else:
        coords = [shard]
    # Row-major over the cluster axes: ((c0 * s1) + c1) * s2 + c2 ...
    rank = _scalar_i32(coords[0], "tle.remote shard_id", _semantic)
    for coord, axis in zip(coords[1:], axes[1:]):
        c = _scalar_i32(coord, "tle.remote shard_id", _semantic)
        rank = _semantic.add(_semantic.mul(rank, _semantic.to_tensor(mesh.axis_size(axis)), True), c, True)
    return rank


def _scalar_i32(value, what, _semantic) -> tlc.tensor:
    # Triton passes an integer argument equal to 1 as a constexpr.
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, bool):
        raise TLEUsageError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        return _semantic.to_tensor(value)
    if isinstance(value, tlc.tensor):
        if value.type.is_block():
            raise TLEUsageError(f"{what} must be a scalar, got a tensor of shape {value.shape}")
        if not value.dtype.is_int():
            raise TLEUsageError(f"{what} must be an integer, got {value.dtype}")
        return _semantic.cast(value, tlc.int32) if value.dtype != tlc.int32 else value
    raise TLEUsageError(f"{what} must be an integer, got {type(value).__name__}")


# --- sharding: S / B / P, tle.sharding ------------------------------------------


class S:
    """``tle.S(axis, ...)``: split a tensor dimension into equal blocks over the
    listed mesh axes (outermost first)."""

    def __init__(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        if not axes or not all(isinstance(a, str) and a for a in axes):
            raise TLEUsageError(f"tle.S takes one or more mesh axis names, got {axes!r}")
        self.axes = tuple(axes)

    def __repr__(self):
        return "S(" + ", ".join(repr(a) for a in self.axes) + ")"

    def __eq__(self, other):
        return isinstance(other, S) and self.axes == other.axes

    def __hash__(self):
        return hash(("S", self.axes))


class _Broadcast:
    """``tle.B``: the dimension is not split (every shard holds all of it)."""

    def __repr__(self):
        return "B"

    def __call__(self):
        return self


B = _Broadcast()


class P:
    """``tle.P(axis, ...)``: every shard along these mesh axes holds a partial
    sum; the tensor is the sum over them."""

    def __init__(self, *axes):
        if len(axes) == 1 and isinstance(axes[0], (list, tuple)):
            axes = tuple(axes[0])
        if not axes or not all(isinstance(a, str) and a for a in axes):
            raise TLEUsageError(f"tle.P takes one or more mesh axis names, got {axes!r}")
        self.axes = tuple(axes)

    def __repr__(self):
        return "P(" + ", ".join(repr(a) for a in self.axes) + ")"


def _split_entry(entry, where):
    entry = tlc._unwrap_if_constexpr(entry)
    if entry is None or entry is B or entry == "B":
        return ()
    if isinstance(entry, S):
        return entry.axes
    if isinstance(entry, str):
        return (entry,)
    if isinstance(entry, (list, tuple)) and all(isinstance(a, str) for a in entry):
        return tuple(entry)
    if isinstance(entry, P):
        raise TLEUsageError(f"{where}: tle.P goes in partial=, not in split=")
    raise TLEUsageError(f"{where}: split entries are tle.S(axis, ...), tle.B, an axis name or a list of axis "
                        f"names; got {entry!r}")


class sharding:
    """How a tensor is laid out over a ``tle.device_mesh``.

    ``split`` has one entry per tensor dimension: ``tle.S("x")`` (or ``"x"``,
    or ``["x", "y"]`` for several axes, outermost first) splits the dimension
    into equal blocks over those mesh axes, ``tle.B`` leaves it whole. An
    empty ``split`` broadcasts every dimension (a tensor of any rank).
    ``partial`` lists mesh axes (names or ``tle.P(...)``) over which each shard
    holds a partial sum. Mesh axes used nowhere replicate the tensor.

        mesh = tle.device_mesh({"block_cluster": [("cx", 4)]})
        rows = tle.sharding(mesh, split=[tle.S("cx"), tle.B])
        psum = tle.sharding(mesh, split=[tle.B, tle.B], partial=[tle.P("cx")])

    Like meshes, shardings are compile-time values (``tl.constexpr``).
    """

    def __init__(self, mesh, split=(), partial=()):
        mesh = tlc._unwrap_if_constexpr(mesh)
        if not isinstance(mesh, device_mesh):
            raise TLEUsageError(f"tle.sharding expects a tle.device_mesh, got {type(mesh).__name__}")
        split = tlc._unwrap_if_constexpr(split)
        partial = tlc._unwrap_if_constexpr(partial)
        split = list(split.values if isinstance(split, tlc.tuple) else (split or ()))
        partial = list(partial.values if isinstance(partial, tlc.tuple) else (partial or ()))
        self.mesh = mesh
        self.split = tuple(_split_entry(e, "tle.sharding") for e in split)
        axes = []
        for p in partial:
            p = tlc._unwrap_if_constexpr(p)
            if isinstance(p, P):
                axes += p.axes
            elif isinstance(p, str):
                axes.append(p)
            else:
                raise TLEUsageError(f"tle.sharding: partial entries are axis names or tle.P(axis), got {p!r}")
        self.partial = tuple(axes)
        seen = set()
        for axis in [a for dim in self.split for a in dim] + list(self.partial):
            if axis not in mesh.axis_names:
                raise TLEUsageError(f"tle.sharding: {axis!r} is not an axis of {mesh!r} "
                                    f"(axes: {', '.join(mesh.axis_names)})")
            if axis in seen:
                raise TLEUsageError(f"tle.sharding: mesh axis {axis!r} is used more than once")
            seen.add(axis)

    def __repr__(self):
        split = ", ".join("B" if not d else "S(" + ", ".join(map(repr, d)) + ")" for d in self.split)
        part = f", partial=P({', '.join(map(repr, self.partial))})" if self.partial else ""
        return f"sharding({self.mesh!r}, split=[{split}]{part})"

    def __eq__(self, other):
        return isinstance(other, sharding) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    # -- per tensor rank ----------------------------------------------------------

    def dims(self, rank: int, what: str = "tle.sharding"):
        """The split, one tuple of axes per dimension of a rank-``rank`` tensor."""
        if not self.split:
            return ((),) * rank
        if len(self.split) != rank:
            raise TLEUsageError(f"{what}: the sharding splits {len(self.split)} dimensions "
                                f"({self!r}) but the tensor has rank {rank}")
        return self.split

    def shards(self, axes) -> int:
        return math.prod(self.mesh.axis_size(a) for a in axes)

    def local_shape(self, shape, what: str = "tle.sharding"):
        out = []
        for d, (size, axes) in enumerate(zip(shape, self.dims(len(shape), what))):
            n = self.shards(axes)
            if size % n:
                raise TLEUsageError(f"{what}: dimension {d} (size {size}) is not divisible by its {n} shards "
                                    f"(mesh axes {', '.join(axes)})")
            out.append(size // n)
        return out

    def split_dim(self, axis, rank):
        for d, axes in enumerate(self.dims(rank)):
            if axis in axes:
                return d
        return None

    def mlir(self, rank: int) -> str:
        dims = ", ".join("B" if not axes else "S<" + ", ".join(f'"{a}"' for a in axes) + ">"
                         for axes in self.dims(rank))
        part = ", partial = [" + ", ".join(f'"{a}"' for a in self.partial) + "]" if self.partial else ""
        return f"#tle.sharding<mesh = {self.mesh.mlir()}, split = [{dims}]{part}>"


def _sharding(value, what) -> sharding:
    value = tlc._unwrap_if_constexpr(value)
    if not isinstance(value, sharding):
        raise TLEUsageError(f"{what} expects a tle.sharding (as a tl.constexpr), got {type(value).__name__}")
    return value


# --- the runtime context of device-level (multi-GPU) reshards ---------------------


class device_context_type(tlc.base_type):
    NAMES = ("workspace", "flags", "peer_offsets", "rank", "epoch")

    def __init__(self, mesh: device_mesh, types):
        self.mesh = mesh
        self.types = tuple(types)

    def __eq__(self, other):
        return isinstance(other, device_context_type) and self.mesh == other.mesh and self.types == other.types

    def __repr__(self):
        return f"device_context<{self.mesh!r}>"

    def mangle(self) -> str:
        return "DC" + "_".join(t.mangle() for t in self.types)

    def _flatten_ir_types(self, builder, out) -> None:
        for t in self.types:
            out.append(t.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        values = [tlc.tensor(handles[cursor + i], t) for i, t in enumerate(self.types)]
        return device_context(self, values), cursor + len(self.types)


class device_context(tlc.base_value):
    """What a reshard over ``device`` mesh axes needs at run time
    (``tle.device_context(mesh, rank, workspace, flags, peer_offsets, epoch)``);
    the contract is docs/distributed.md, "Devices"."""

    def __init__(self, type: device_context_type, values):
        self.type = type
        self.values = list(values)

    @property
    def mesh(self):
        return self.type.mesh

    def __getattr__(self, name):
        if name in device_context_type.NAMES:
            return self.values[device_context_type.NAMES.index(name)]
        raise AttributeError(name)

    def _flatten_ir(self, handles) -> None:
        handles.extend(v.handle for v in self.values)


@tlc.builtin
def make_device_context(mesh, rank, workspace, flags, peer_offsets, epoch, _semantic=None, _generator=None):
    """``tle.device_context(mesh, rank, workspace, flags, peer_offsets, epoch)``.

    ``rank``: this device's rank over the mesh's ``device`` axes (row-major);
    ``workspace``: pointer into a symmetric buffer of the reshard's element
    type; ``flags``: pointer to a symmetric int32 array, zeroed once;
    ``peer_offsets``: pointer to one int64 per device, the byte offset from
    this device's symmetric heap to that device's as mapped here (0 for
    itself); ``epoch``: an int32 > 0 that grows with every reshard using the
    same flags.
    """
    mesh = _mesh(mesh, "tle.device_context")
    if mesh.level_size("device") <= 1:
        raise TLEUsageError(f"tle.device_context: {mesh!r} has no device axis of size > 1")

    def ptr(value, name, element=None):
        value = tlc._unwrap_if_constexpr(value)
        if (not isinstance(value, tlc.tensor) or value.type.is_block() or not value.dtype.is_ptr()
                or value.dtype.address_space != 1):
            raise TLEUsageError(f"tle.device_context: {name} must be a pointer to global memory (a kernel "
                                f"argument), got {value!r}")
        if element is not None and value.dtype.element_ty != element:
            raise TLEUsageError(f"tle.device_context: {name} must point to {element}, got "
                                f"{value.dtype.element_ty}")
        return value

    values = [ptr(workspace, "workspace"), ptr(flags, "flags", tlc.int32),
              ptr(peer_offsets, "peer_offsets", tlc.int64),
              _scalar_i32(rank, "tle.device_context rank", _semantic),
              _scalar_i32(epoch, "tle.device_context epoch", _semantic)]
    return device_context(device_context_type(mesh, [v.type for v in values]), values)


# --- sharded tensors ---------------------------------------------------------------


class sharded_tensor(tlc.tensor):
    """A tensor holding this shard's block of a sharded tensor.

    It is an ordinary tensor of the local block's shape (use it in any
    ``tl`` operation; results are plain tensors) that also knows its
    ``sharding`` and the logical ``global_shape``, which ``tle.reshard`` and
    ``tle.distributed_dot`` read.
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
        raise TLEUsageError(f"{what}: shape must be a list of compile-time ints, got {shape!r}") from None
    if not dims or any(isinstance(d, bool) or not isinstance(d, int) or d <= 0 for d in dims):
        raise TLEUsageError(f"{what}: shape must be a non-empty list of positive compile-time ints, got {dims!r}")
    return dims


def _context(context, mesh, what):
    context = tlc._unwrap_if_constexpr(context)
    if context is None:
        return None
    if not isinstance(context, device_context):
        raise TLEUsageError(f"{what}: context must come from tle.device_context(...), got {type(context).__name__}")
    if context.mesh != mesh:
        raise TLEUsageError(f"{what}: the device context is for {context.mesh!r}, the sharding for {mesh!r}")
    return context


def _annotate(value, layout, shape, _semantic):
    attrs = {"sharding": layout.mlir(len(shape)), "shape": ("i64-array", shape)}
    (result,) = _markers.emit("make_sharded_tensor", attrs, [value], [value.dtype], _semantic=_semantic)
    return sharded_tensor(result, layout, shape)


@tlc.builtin
def make_sharded_tensor(x, sharding, shape, context=None, _semantic=None, _generator=None):
    """This shard's block of a tensor of (global) ``shape`` laid out as ``sharding``.

    ``x`` is either a pointer to the whole row-major tensor in global memory
    (each shard loads its block; with partial axes, ``x`` holds one tensor
    per coordinate of those axes, as leading dimensions in the order of ``partial``), or a
    tensor that already is this shard's block (it is annotated). Returns a
    ``sharded_tensor``. ``context`` (``tle.device_context``) is needed to
    locate blocks split over device axes.
    """
    what = "tle.make_sharded_tensor"
    layout = _sharding(sharding, what)
    shape = _global_shape(shape, what)
    local = layout.local_shape(shape, what)
    axes = [a for d in layout.dims(len(shape), what) for a in d] + list(layout.partial)
    _level_of_axes(layout.mesh, axes, what)
    for d, n in enumerate(local):
        if n & (n - 1):
            raise TLEUsageError(f"{what}: the local block {local} is a tensor shape, so every dimension must be a "
                                f"power of two (dimension {d} is {n})")
    context = _context(context, layout.mesh, what)
    _require_enabled(what, _semantic)
    x = tlc._unwrap_if_constexpr(x)
    if isinstance(x, tlc.tensor) and x.type.is_block() and not x.dtype.is_ptr():
        block = [int(tlc._unwrap_if_constexpr(s)) for s in x.shape]
        if block != local:
            raise TLEUsageError(f"{what}: the block has shape {block}, but each shard of {shape} laid out "
                                f"as {layout!r} holds {local}")
        return _annotate(x, layout, shape, _semantic)
    if not isinstance(x, tlc.tensor) or x.type.is_block() or not x.dtype.is_ptr():
        raise TLEUsageError(f"{what}: x must be a pointer to the global tensor or this shard's block (a tensor), "
                            f"got {x!r}")
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
        raise TLEUsageError(f"{what} expects a sharded tensor (from tle.make_sharded_tensor, tle.reshard or "
                            f"tle.distributed_dot), got {'a plain tensor' if isinstance(x, tlc.tensor) else x!r}; "
                            "annotate a block with tle.make_sharded_tensor(block, sharding, global_shape)")
    return x


def _reshard(x: sharded_tensor, target: sharding, root, context, what, _semantic) -> sharded_tensor:
    source = x.sharding
    mesh = source.mesh
    shape = list(x.global_shape)
    rank = len(shape)
    if target.mesh != mesh:
        raise TLEUsageError(f"{what}: the target sharding is over {target.mesh!r}, the tensor over {mesh!r}")
    src_local = source.local_shape(shape, what)
    tgt_local = target.local_shape(shape, what + " (target)")
    for d, n in enumerate(tgt_local):
        if n & (n - 1):
            raise TLEUsageError(f"{what}: the target block {tgt_local} must have power-of-two dimensions "
                                f"(dimension {d} is {n})")
    for axis in target.partial:
        if axis not in source.partial:
            raise TLEUsageError(f"{what}: incompatible reshard from {source!r} to {target!r}: a reshard cannot "
                                f"create partial sums over {axis!r} (the source is not partial over it)")
    changed = [a for a in mesh.axis_names
               if source.split_dim(a, rank) != target.split_dim(a, rank)
               or (a in source.partial) != (a in target.partial)]
    levels = _level_of_axes(mesh, changed, what)
    if len(levels) > 1:
        raise TLEUsageError(f"{what}: the reshard from {source!r} to {target!r} changes block_cluster and device "
                            "axes at once; reshard one level at a time")
    root = tlc._unwrap_if_constexpr(root)
    if root is not None:
        if isinstance(root, bool) or not isinstance(root, int):
            raise TLEUsageError(f"{what}: root must be a compile-time int (a CTA rank in the cluster), got {root!r}")
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
    attrs = {"source": source.mlir(rank), "target": target.mlir(rank), "shape": ("i64-array", shape)}
    if root is not None:
        attrs["root"] = f"{root} : i64"
    device = context is not None and "device" in levels
    grow = all(t >= s for s, t in zip(src_local, tgt_local))
    shrink = all(t <= s for s, t in zip(src_local, tgt_local))
    if not (grow or shrink):
        raise TLEUsageError(f"{what}: the reshard from {source!r} to {target!r} moves a split to another "
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
        scalars = context.values
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


@tlc.builtin
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
    """
    what = "tle.reshard"
    x = _sharded(x, what)
    target = _sharding(spec, what)
    return _reshard(x, target, root, context, what, _semantic)


@tlc.builtin
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
    """
    what = "tle.distributed_dot"
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
    target = _sharding(out_sharding, what + " out_sharding") if out_sharding is not None else \
        sharding(mesh, split=[S(*am) if am else B, S(*bn) if bn else B])
    result = _reshard(result, target, None, context, what, _semantic)
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
