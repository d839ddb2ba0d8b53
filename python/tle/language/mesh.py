"""Device meshes and the cluster side of TLE's distributed API.

``tle.device_mesh`` names the levels of parallel hardware a kernel runs on;
``tle.shard_id(mesh, axis)`` is the calling program's coordinate along one
axis, ``tle.distributed_barrier(mesh)`` synchronizes a group of programs and
``tle.remote(...)`` reaches another shard's memory.

This module implements the thread-block-cluster level (``block_cluster``): a
kernel whose mesh has ``block_cluster`` axes is launched as clusters of their
product of CTAs. ``tl.program_id(0)`` is then the cluster's index (a program is
a cluster, as with Triton's ``num_ctas``) and ``tle.shard_id`` the CTA's
coordinates inside it. The device level (one process per GPU, peers over
NVLink) is ``device_runtime.py`` and ``tle.distributed`` (docs/distributed.md).

Sharded tensors over a mesh: ``sharding_spec.py`` (``tle.sharding``,
``tle.S`` / ``tle.B`` / ``tle.P``), ``collectives.py``
(``tle.make_sharded_tensor``, ``tle.reshard``, ``tle.distributed_dot``) and
``device_runtime.py`` (``tle.device_context``); docs/distributed.md.
"""

from __future__ import annotations

import math
import operator

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, describe, dims
from .core import _require_capability, _require_enabled

LEVELS = ("node", "device", "block_cluster", "block")


class device_mesh:
    """A logical mesh of parallel hardware with named axes.

    ``topology`` maps a level (``"node"``, ``"device"``, ``"block_cluster"``,
    ``"block"``) to either a size (one axis named after the level) or a list of
    ``(axis_name, size)`` pairs, outermost first::

        mesh = tle.device_mesh({"block_cluster": [("cluster_x", 2)]})

    Meshes are compile-time values: create them outside the kernel and pass
    them as ``tl.constexpr`` arguments (or reference a ``tl.constexpr`` global).
    ``block_cluster`` axes make the kernel a cluster kernel of their product
    of CTAs (``tl.program_id(0)`` is then the cluster's index); ``device``
    axes are GPUs (docs/distributed.md). Two meshes are equal when their
    levels, axis names and sizes are.

    Args:
        topology: a dict from level to a positive int (one axis named after
            the level) or a list of ``(axis_name, size)`` pairs; axis names
            are non-empty, unique strings and sizes ints > 0. Keyword
            arguments (``block_cluster=2``) add levels the same way. At least
            one level is required.

    Returns:
        A ``device_mesh`` with ``shape``, ``axis_names``, ``levels``,
        ``size``, ``axis_size(axis)`` and ``level_size(level)``.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cluster_x", 2)]})

        @triton.jit
        def ranks(OUT, MESH: tl.constexpr):
            rank = tle.shard_id(MESH, "cluster_x")
            tl.store(OUT + tl.program_id(0) * 2 + rank, rank)

        ranks[(4,)](out, MESH=MESH)   # 4 clusters of 2 CTAs
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
                pairs = [(name, size) for name, size in spec]
            except (TypeError, ValueError):
                raise TLEUsageError(f"tle.device_mesh: level {level!r} must be a size or a list of "
                                    f"(axis_name, size) pairs, got {spec!r}") from None
            for name, size in pairs:
                if not isinstance(name, str):
                    raise TLEUsageError(f"tle.device_mesh: axis names are strings, got {name!r} at level {level!r}")
                # ints and int-likes (numpy); not floats, strings or bools
                if isinstance(size, bool) or not hasattr(type(size), "__index__"):
                    raise TLEUsageError(f"tle.device_mesh: axis {name!r} has size {size!r}; sizes are ints")
                size = operator.index(size)
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


def _mesh(mesh, what: str, arg: str = "mesh") -> device_mesh:
    """``mesh``, checked to be a mesh; ``arg`` is the parameter's name in ``what``."""
    mesh = tlc._unwrap_if_constexpr(mesh)
    if not isinstance(mesh, device_mesh):
        raise TLEUsageError(f"{what} {arg} must be a tle.device_mesh (as a tl.constexpr), got {describe(mesh)}")
    return mesh


def cluster_mesh(mesh, what: str, arg: str = "mesh") -> device_mesh:
    """``mesh``, checked to describe a thread-block cluster of more than one CTA."""
    mesh = _mesh(mesh, what, arg)
    if mesh.cluster_size <= 1:
        raise TLEUsageError(f"{what} needs a thread-block cluster: {arg} {mesh!r} has no block_cluster axis of "
                            "size > 1 (e.g. tle.device_mesh({'block_cluster': [('cluster_x', 2)]}))")
    return mesh


def cluster_shard_id(mesh: device_mesh, axis: str, _semantic) -> tlc.tensor:
    """The CTA's coordinate along the ``block_cluster`` axis ``axis`` (marker ``tle.shard_id``)."""
    _require_enabled("tle.shard_id", _semantic)
    _require_capability("tle.shard_id on a block_cluster axis (thread-block clusters)", 90, _semantic)
    (result,) = _markers.emit("shard_id", {"mesh": mesh.mlir(), "axis": f'"{axis}"'}, [], [tlc.int32],
                              _semantic=_semantic)
    return result


def cluster_barrier(mesh, _semantic) -> None:
    """``tle.distributed_barrier cluster`` (marker)."""
    cluster_mesh(mesh, "tle.distributed_barrier")
    _require_enabled("tle.distributed_barrier", _semantic)
    _require_capability("tle.distributed_barrier (a thread-block cluster barrier)", 90, _semantic)
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
        for d, (c, axis) in enumerate(zip(coords, axes)):
            if isinstance(c, int) and not isinstance(c, bool) and not 0 <= c < mesh.axis_size(axis):
                raise TLEUsageError(f"tle.remote shard_id coordinate {d} is {c}, outside [0, {mesh.axis_size(axis)}) "
                                    f"(axis {axis!r} of {mesh!r})")
    else:
        coords = [shard]
        if isinstance(shard, int) and not isinstance(shard, bool) and not 0 <= shard < mesh.cluster_size:
            raise TLEUsageError(f"tle.remote shard_id {shard} is outside [0, {mesh.cluster_size}): the CTA ranks of "
                                f"{mesh!r}'s cluster")
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
            raise TLEUsageError(f"{what} must be a scalar, got a tensor of shape {dims(value.shape)}")
        if not value.dtype.is_int():
            raise TLEUsageError(f"{what} must be an integer, got {value.dtype}")
        return _semantic.cast(value, tlc.int32) if value.dtype != tlc.int32 else value
    raise TLEUsageError(f"{what} must be an integer, got {describe(value)}")
