"""Device meshes and the cluster side of TLE's distributed API.

``tle.device_mesh`` names the levels of parallel hardware a kernel runs on;
``tle.shard_id(mesh, axis)`` is the calling program's coordinate along one
axis, ``tle.distributed_barrier(mesh)`` synchronizes a group of programs and
``tle.remote(...)`` reaches another shard's memory.

This module implements the thread-block-cluster level (``block_cluster``): a
kernel whose mesh has ``block_cluster`` axes is launched as clusters of their
product of CTAs: a grid of G runs G clusters. A program is a CTA, as in
FlagTree: ``tl.program_id(0)`` is its global index (its cluster is
``tl.program_id(0) // C``) and ``tle.shard_id`` its coordinates inside the
cluster. Two or three ``block_cluster`` axes (cx, cy[, cz]) launch the
cluster as FlagTree does, with that shape (``metadata.cluster_dims``): the
program ids along x, y, z are ``cluster * cx + shard_id(axis 0)``, ``... *
cy + shard_id(axis 1)``, ... (docs/local-memory.md §4). The device level (one process per GPU, peers over
NVLink) is ``device_runtime.py`` and ``tle.distributed`` (docs/distributed.md).

Sharded tensors over a mesh: ``sharding_spec.py`` (``tle.sharding``,
``tle.S`` / ``tle.B`` / ``tle.P``), ``collectives.py``
(``tle.make_sharded_tensor``, ``tle.reshard``, ``tle.distributed_dot``) and
``device_runtime.py`` (``tle.device_context``); docs/distributed.md.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import operator

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, describe, dims
from .core import _require_capability, _require_enabled

LEVELS = ("node", "device", "block_cluster", "block")


@dataclasses.dataclass(frozen=True)
class MeshConfig:
    """A mesh's levels by keyword (FlagTree's ``tle.MeshConfig``):
    ``tle.device_mesh(tle.MeshConfig(block_cluster=[("cx", 2)]))`` is
    ``tle.device_mesh({"block_cluster": [("cx", 2)]})``.

    Args:
        node, device, block_cluster, block: each None (the level is absent),
            a size (one axis named after the level) or a list of
            ``(axis_name, size)`` pairs, as in ``tle.device_mesh``'s
            topology dict.

    Returns:
        A ``MeshConfig``; ``to_dict()`` gives the topology dict of the levels
        that are set, outermost first.

    Example::

        MESH = tle.device_mesh(tle.MeshConfig(block_cluster=[("cx", 2), ("cy", 2)]))
    """

    node: object = None
    device: object = None
    block_cluster: object = None
    block: object = None

    def __post_init__(self):
        if self.to_dict():
            try:
                device_mesh(self.to_dict())
            except TLEUsageError as e:
                raise TLEUsageError(str(e).replace("tle.device_mesh", "tle.MeshConfig", 1)) from None

    def to_dict(self) -> dict:
        """The levels that are set, as ``tle.device_mesh``'s topology dict."""
        return {level: getattr(self, level) for level in LEVELS if getattr(self, level) is not None}

    def __repr__(self):
        return "MeshConfig(" + ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items()) + ")"


class device_mesh:
    """A logical mesh of parallel hardware with named axes.

    ``topology`` maps a level (``"node"``, ``"device"``, ``"block_cluster"``,
    ``"block"``) to either a size (one axis named after the level) or a list of
    ``(axis_name, size)`` pairs, outermost first::

        mesh = tle.device_mesh({"block_cluster": [("cluster_x", 2)]})

    Meshes are compile-time values: create them outside the kernel and pass
    them as ``tl.constexpr`` arguments (or reference a ``tl.constexpr`` global).
    ``block_cluster`` axes make the kernel a cluster kernel of their product
    of CTAs: a grid of G runs G clusters, and a program is a CTA
    (``tl.program_id(0)`` is its global index, as in FlagTree); ``device``
    axes are GPUs (docs/distributed.md). Two meshes are equal when their
    levels, axis names and sizes are.

    Indexing a mesh gives a sub-mesh, as in FlagTree: ``MESH[0, :]`` is the
    programs with coordinate 0 on the first axis (an int fixes an axis and
    drops it, a slice keeps the axis with the coordinates it selects).
    ``tle.distributed_barrier(MESH[0, :])`` synchronizes those programs only;
    ``tle.shard_id`` takes a sub-mesh and reads the coordinate on the mesh it
    was cut from (``launch_mesh``). Other primitives take whole meshes.

    Args:
        topology: a dict from level to a positive int (one axis named after
            the level) or a list of ``(axis_name, size)`` pairs, or a
            ``tle.MeshConfig``; axis names are non-empty, unique strings and
            sizes ints > 0. Keyword arguments (``block_cluster=2``) add
            levels the same way. At least one level is required.

    Returns:
        A ``device_mesh`` with ``shape``, ``axis_names``, ``levels``,
        ``size``, ``axis_size(axis)`` and ``level_size(level)``; FlagTree's
        names ``ndim``, ``dim_names``, ``physical_ids`` (each program's
        row-major id in ``launch_mesh``), ``launch_shape`` and
        ``launch_dim_names`` too.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cluster_x", 2)]})

        @triton.jit
        def ranks(OUT, MESH: tl.constexpr):
            rank = tle.shard_id(MESH, "cluster_x")
            tl.store(OUT + tl.program_id(0), rank)  # program = CTA

        ranks[(4,)](out, MESH=MESH)   # 4 clusters of 2 CTAs: out = 0, 1, 0, 1, ...
    """

    def __init__(self, topology=None, **kwargs):
        config = isinstance(topology, MeshConfig)
        if config:
            topology = topology.to_dict()
        topology = dict(topology or {}, **kwargs)
        if not topology:
            raise TLEUsageError("tle.device_mesh needs at least one level" +
                                (" (this tle.MeshConfig sets none)" if config else ""))
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
        # A sub-mesh (mesh[...]): the whole mesh it was cut from, and per axis
        # of that mesh the coordinates selected and whether the axis is kept.
        self._launch = None
        self._select = None

    # Identity: meshes are constexprs, so they key Triton's caches by repr.
    def __repr__(self):
        if self._launch is not None:
            picks = ", ".join(f"{n}={list(idx) if keep else idx[0]}"
                              for n, (idx, keep) in zip(self._launch.axis_names, self._select))
            return f"{self._launch!r}[{picks}]"
        axes = ", ".join(f"{lvl}:{n}={s}" for lvl, n, s in zip(self.levels, self.axis_names, self.shape))
        return f"device_mesh({axes})"

    # FlagTree's names.
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def dim_names(self) -> tuple[str, ...]:
        return self.axis_names

    @property
    def launch_mesh(self) -> "device_mesh":
        """The whole mesh: the mesh itself, or the one a sub-mesh was cut from."""
        return self._launch if self._launch is not None else self

    @property
    def launch_shape(self) -> tuple[int, ...]:
        return self.launch_mesh.shape

    @property
    def launch_dim_names(self) -> tuple[str, ...]:
        return self.launch_mesh.axis_names

    @property
    def is_submesh(self) -> bool:
        return self._launch is not None

    def _selection(self):
        """Per axis of ``launch_mesh``: (selected coordinates, kept)."""
        if self._select is not None:
            return self._select
        return tuple((tuple(range(size)), True) for size in self.shape)

    @property
    def physical_ids(self) -> tuple[int, ...]:
        """Row-major ids in ``launch_mesh`` of the programs of this mesh."""
        launch = self.launch_mesh
        ids = []
        for coords in itertools.product(*(idx for idx, _ in self._selection())):
            linear = 0
            for c, size in zip(coords, launch.shape):
                linear = linear * size + c
            ids.append(linear)
        return tuple(ids)

    def __getitem__(self, key) -> "device_mesh":
        """A sub-mesh: one int or slice per axis of this mesh (``...`` fills
        the rest with ``:``); an int fixes the axis and drops it."""
        key = key if isinstance(key, tuple) else (key,)
        if sum(k is Ellipsis for k in key) > 1:
            raise TLEUsageError(f"{self!r}[...]: at most one ellipsis")
        if Ellipsis in key:
            at = key.index(Ellipsis)
            key = key[:at] + (slice(None),) * (self.ndim - len(key) + 1) + key[at + 1:]
        if len(key) > self.ndim:
            raise TLEUsageError(f"{self!r} has {self.ndim} axes; got {len(key)} indices")
        key = key + (slice(None),) * (self.ndim - len(key))
        select = list(self._selection())
        kept = [i for i, (_, keep) in enumerate(select) if keep]
        for axis, k in zip(kept, key):
            idx = select[axis][0]
            if isinstance(k, bool) or not isinstance(k, (int, slice)):
                raise TLEUsageError(f"{self!r}[...]: indices are ints, slices or ..., got {k!r}")
            if isinstance(k, int):
                if not -len(idx) <= k < len(idx):
                    raise TLEUsageError(f"{self!r}[...]: index {k} is outside axis "
                                        f"{self.launch_mesh.axis_names[axis]!r} of size {len(idx)}")
                select[axis] = ((idx[k],), False)
            else:
                picked = idx[k]
                if not picked:
                    raise TLEUsageError(f"{self!r}[...]: slice {k} selects no coordinate of axis "
                                        f"{self.launch_mesh.axis_names[axis]!r}")
                select[axis] = (tuple(picked), True)
        launch = self.launch_mesh
        keep = [i for i, (_, k) in enumerate(select) if k]
        sub = device_mesh.__new__(device_mesh)
        sub.shape = tuple(len(select[i][0]) for i in keep)
        sub.axis_names = tuple(launch.axis_names[i] for i in keep)
        sub.levels = tuple(launch.levels[i] for i in keep)
        sub._launch = launch
        sub._select = tuple(select)
        return sub

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
        """The mesh as a ``#tle.device_mesh`` attribute (a whole mesh)."""
        if self._launch is not None:
            raise TLEUsageError(f"{self!r} is a sub-mesh; this needs a whole tle.device_mesh")
        shape = ", ".join(str(s) for s in self.shape)
        axes = ", ".join(f'"{n}"' for n in self.axis_names)
        levels = ", ".join(f'"{lvl}"' for lvl in self.levels)
        return f"#tle.device_mesh<shape = [{shape}], axes = [{axes}], levels = [{levels}]>"


def _mesh(mesh, what: str, arg: str = "mesh", submesh: bool = False) -> device_mesh:
    """``mesh``, checked to be a mesh (a whole one unless ``submesh``);
    ``arg`` is the parameter's name in ``what``."""
    mesh = tlc._unwrap_if_constexpr(mesh)
    if not isinstance(mesh, device_mesh):
        raise TLEUsageError(f"{what} {arg} must be a tle.device_mesh (as a tl.constexpr), got {describe(mesh)}")
    if mesh.is_submesh and not submesh:
        raise TLEUsageError(f"{what} takes a whole mesh; {arg} {mesh!r} is a sub-mesh (mesh[...]), which only "
                            "tle.distributed_barrier and tle.shard_id take")
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
    """``tle.distributed_barrier cluster`` (marker) over ``mesh``'s cluster,
    the launch's cluster when ``mesh`` is None, or, for a sub-mesh,
    ``tle.distributed_barrier submesh`` taken by the sub-mesh's programs."""
    if mesh is None:
        attrs = {}
    else:
        mesh = _mesh(mesh, "tle.distributed_barrier", submesh=True)
        if not mesh.is_submesh and mesh.level_size("block") > 1:
            return grid_barrier(_semantic)
        cluster_mesh(mesh.launch_mesh, "tle.distributed_barrier")
        attrs = {"mesh": mesh.launch_mesh.mlir()}
    _require_enabled("tle.distributed_barrier", _semantic)
    _require_capability("tle.distributed_barrier (a thread-block cluster barrier)", 90, _semantic)
    if mesh is not None and mesh.is_submesh and mesh.size < mesh.launch_mesh.size:
        return _submesh_barrier(mesh, _semantic)
    _markers.emit("distributed_barrier", {"group": "#tle.distributed_group<cluster>", **attrs,
                                          "tle.marker.no_results": True}, [], [tlc.int32], _semantic=_semantic)


def grid_barrier(_semantic) -> None:
    """``tle.distributed_barrier grid`` (marker): every program of the launch
    (FlagTree's barrier over a ``block`` mesh). The kernel is launched
    cooperatively, so the grid must fit on the GPU at once."""
    _require_enabled("tle.distributed_barrier", _semantic)
    _require_capability("tle.distributed_barrier over a block mesh (a grid barrier: gpu-scope acquire/release)",
                        70, _semantic)
    _markers.emit("distributed_barrier", {"group": "#tle.distributed_group<grid>", "tle.marker.no_results": True},
                  [], [tlc.int32], _semantic=_semantic)


def submesh_group(mesh: device_mesh):
    """The group of sub-mesh ``mesh``: (fixed (axis, coordinate) pairs,
    spanned axes), checked to be what a sub-mesh barrier synchronizes."""
    launch = mesh.launch_mesh
    fixed, spanned = [], []
    for name, level, size, (idx, keep) in zip(launch.axis_names, launch.levels, launch.shape, mesh._selection()):
        if level != "block_cluster":
            raise TLEUsageError(f"tle.distributed_barrier({mesh!r}): sub-mesh barriers are over block_cluster axes; "
                                f"axis {name!r} is a {level!r} axis")
        if not keep:
            fixed.append((name, idx[0]))
        elif idx == tuple(range(size)):
            spanned.append((name, size))
        else:
            raise TLEUsageError(f"tle.distributed_barrier({mesh!r}): a sub-mesh barrier spans whole axes or fixes "
                                f"them (an int); axis {name!r} selects {list(idx)} of {size}")
    if not spanned:
        raise TLEUsageError(f"tle.distributed_barrier({mesh!r}): the sub-mesh is one program; keep at least one "
                            "axis whole (a slice ':')")
    return fixed, spanned


def _submesh_barrier(mesh: device_mesh, _semantic) -> None:
    """``tle.distributed_barrier submesh`` over the sub-mesh's spanned axes,
    ``at`` its fixed coordinates: the programs there meet, the others go on."""
    fixed, spanned = submesh_group(mesh)
    launch = mesh.launch_mesh
    attrs = {"group": "#tle.distributed_group<submesh>", "rank": ("i32", len(spanned)),
             "shape": ("i64-array", [size for _, size in spanned]), "axes": ("list", [f'"{n}"' for n, _ in spanned]),
             "mesh": launch.mlir(), "at": "{" + ", ".join(f'"{n}" = {c} : i64' for n, c in fixed) + "}",
             "tle.marker.no_results": True}
    _markers.emit("distributed_barrier", attrs, [], [tlc.int32], _semantic=_semantic)


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
