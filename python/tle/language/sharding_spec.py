"""How a tensor is laid out over a ``tle.device_mesh``: ``tle.sharding`` and
its entries ``tle.S`` (split), ``tle.B`` (broadcast) and ``tle.P`` (partial
sums); docs/distributed.md.

Shardings are compile-time values; the tensors laid out by them and the
collectives between layouts are ``collectives.py``.
"""

from __future__ import annotations

import math

from triton.language import core as tlc

from ._markers import TLEUsageError, describe
from .mesh import device_mesh


class S:
    """``tle.S(axis, ...)``: split a tensor dimension into equal blocks over the
    listed mesh axes (outermost first).

    Args:
        axes: one or more non-empty mesh axis names (strings), or a single
            list or tuple of them.

    Returns:
        A split entry for ``tle.sharding(mesh, split=[...])``; two are equal
        when their axes are.

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 2)]})
        ROWS = tle.sharding(MESH, split=[tle.S("cx"), tle.B])        # 2 row blocks
        BOTH = tle.sharding(MESH, split=[tle.S("cx", "cy"), tle.B])  # 4 row blocks
    """

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
    sum; the tensor is the sum over them.

    Args:
        axes: one or more non-empty mesh axis names (strings), or a single
            list or tuple of them.

    Returns:
        A partial entry for ``tle.sharding(mesh, partial=[...])`` (not for
        ``split``).

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 4)]})
        PSUM = tle.sharding(MESH, split=[tle.B, tle.B], partial=[tle.P("cx")])
    """

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
    Checked when built: every axis is an axis of ``mesh``, used at most once.
    Checked at use: ``len(split)`` equals the tensor's rank (unless empty),
    and every split dimension is divisible by its number of shards.

    Args:
        mesh: a ``tle.device_mesh``.
        split: a list (or tuple) with one entry per tensor dimension:
            ``tle.S(...)``, an axis name, a list of axis names, ``tle.B``
            (or ``"B"`` / None) for an unsplit dimension; or empty.
        partial: a list of mesh axis names or ``tle.P(...)`` entries.

    Returns:
        A ``sharding`` (compare with ``==``; ``local_shape(shape)`` gives a
        shard's block shape).

    Example::

        MESH = tle.device_mesh({"block_cluster": [("cx", 4)]})
        ROWS = tle.sharding(MESH, split=[tle.S("cx"), tle.B])
        FULL = tle.sharding(MESH, split=[tle.B, tle.B])

        @triton.jit
        def gather_rows(X, OUT, ROWS: tl.constexpr, FULL: tl.constexpr):
            x = tle.make_sharded_tensor(X, ROWS, [64, 32])  # this CTA's 16 x 32 block
            y = tle.reshard(x, FULL)                         # all-gather: 64 x 32
            offs = tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :]
            tl.store(OUT + offs, y)
    """

    def __init__(self, mesh, split=(), partial=()):
        mesh = tlc._unwrap_if_constexpr(mesh)
        if not isinstance(mesh, device_mesh):
            raise TLEUsageError(f"tle.sharding mesh must be a tle.device_mesh, got {describe(mesh)}")
        if mesh.is_submesh:
            raise TLEUsageError(f"tle.sharding takes a whole mesh; {mesh!r} is a sub-mesh (mesh[...])")
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
                raise TLEUsageError(f"{what}: shape dimension {d} (size {size}) is not divisible by its {n} shards "
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


def _sharding(value, what, arg) -> sharding:
    """``value``, checked to be a sharding; ``arg`` is the parameter's name in ``what``."""
    value = tlc._unwrap_if_constexpr(value)
    if not isinstance(value, sharding):
        raise TLEUsageError(f"{what} {arg} must be a tle.sharding (as a tl.constexpr), got {describe(value)}")
    return value
