"""``tle.extract_tile`` / ``tle.insert_tile``: one tile of a register tensor.

    sub = tle.extract_tile(x, [1, 0], [2, 2])     # or x.extract_tile(index=[1, 0], shape=[2, 2])
    sub = tl.maximum(sub, 0.0)
    x = tle.insert_tile(x, sub, [1, 0])           # or x.insert_tile(sub, index=[1, 0])

``x`` is viewed as a row-major grid of tiles of ``tile_shape`` (each tile
dimension divides ``x``'s). ``index`` is the tile's number in that grid (a
constexpr int or a scalar integer tensor, i.e. a dynamic index) or its grid
coordinates (a constexpr list, linearized row-major). The ops cross Triton as
markers with tiled operands/results (docs/markers.md, "Tiles") and are
lowered through shared memory at TTGIR (``triton-tle-lower-tiles``).
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe, dims
from .core import _require_enabled


def _tensor(x, what: str) -> tlc.tensor:
    x = tlc._unwrap_if_constexpr(x)
    if not isinstance(x, tlc.tensor) or not x.type.is_block():
        kind = "a scalar" if isinstance(x, tlc.tensor) else type(x).__name__
        raise TLEUsageError(f"{what} must be a tensor of rank >= 1, got {kind}")
    return x


def _shape(x: tlc.tensor):
    return dims(x.shape)


def _const_ints(value, what: str):
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, tlc.tensor):
        raise TLEUsageError(f"{what} must be a compile-time constant list of ints, got {describe(value)}")
    if isinstance(value, tlc.tuple):
        value = list(value.values)
    if not isinstance(value, (list, tuple)):
        raise TLEUsageError(f"{what} must be a list of ints, got {describe(value)}")
    out = []
    for v in value:
        v = tlc._unwrap_if_constexpr(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise TLEUsageError(f"{what} must be a compile-time constant list of ints, got {describe(value)}")
        out.append(v)
    return out


def _grid(shape, tile, op: str, tile_what: str):
    if len(tile) != len(shape):
        raise TLEUsageError(f"{op}: {tile_what} {list(tile)} has rank {len(tile)}, but the tensor has shape "
                            f"{list(shape)} (rank {len(shape)})")
    for d, (s, t) in enumerate(zip(shape, tile)):
        if t <= 0:
            raise TLEUsageError(f"{op}: {tile_what} dimension {d} is {t}; expected > 0")
        if s % t:
            raise TLEUsageError(f"{op}: {tile_what} dimension {d} ({t}) does not divide the tensor's "
                                f"dimension {d} ({s}); shape {list(shape)}, {tile_what} {list(tile)}")
    return [s // t for s, t in zip(shape, tile)]


def _index(index, grid, op: str, _semantic):
    """(static linear index or None, dynamic scalar tensor or None)."""
    index = tlc._unwrap_if_constexpr(index)
    count = 1
    for g in grid:
        count *= g
    if isinstance(index, tlc.tensor):
        if index.type.is_block():
            raise TLEUsageError(f"{op}: a dynamic index must be a scalar integer, got a tensor of shape "
                                f"{_shape(index)}")
        if not index.dtype.is_int() or index.dtype.is_int1():
            raise TLEUsageError(f"{op}: a dynamic index must be an integer scalar, got {index.dtype}")
        return None, index
    if isinstance(index, (list, tuple, tlc.tuple)):
        coords = _const_ints(index, f"{op} index")
        if len(coords) != len(grid):
            raise TLEUsageError(f"{op}: index {coords} has {len(coords)} coordinates, but the tile grid "
                                f"{grid} has rank {len(grid)}")
        linear = 0
        for d, (c, g) in enumerate(zip(coords, grid)):
            if not 0 <= c < g:
                raise TLEUsageError(f"{op}: index {coords} is out of range for the tile grid {grid} "
                                    f"(coordinate {d} must lie in [0, {g}))")
            linear = linear * g + c
        return linear, None
    if isinstance(index, bool) or not isinstance(index, int):
        raise TLEUsageError(f"{op}: index must be an int, a list of grid coordinates or a scalar integer "
                            f"tensor, got {describe(index)}")
    if not 0 <= index < count:
        raise TLEUsageError(f"{op}: tile index {index} is out of range for the tile grid {grid} "
                            f"({count} tiles)")
    return index, None


def grid_view(shape, tile, grid):
    """The grid view's shape (a [g, t] pair per dimension with g > 1) and its grid axes."""
    view, axes = [], []
    for s, t, g in zip(shape, tile, grid):
        if g > 1:
            axes.append(len(view))
            view += [g, t]
        else:
            view.append(t)
    return view, axes


def _marker_attrs(static, tile, kind: str, position: int, dynamic_operand: int):
    attrs = {}
    if static is not None:
        attrs["static_index"] = f"{static} : i64"
    attrs["tle.marker.tile_shape"] = ("i64-array", tile)
    attrs[f"tle.marker.tiled_{kind}"] = ("i32-array", [position])
    if static is None:
        attrs["tle.marker.scalar_operands"] = ("i32-array", [dynamic_operand])
    return attrs


@builtin("tle.extract_tile")
def extract_tile(x, index, tile_shape, _semantic=None, _generator=None):
    """Tile ``index`` of ``x`` viewed as a row-major grid of ``tile_shape`` tiles.

    Also a tensor method: ``x.extract_tile(index, shape)``.

    Args:
        x: a tensor of rank >= 1.
        index: which tile: a compile-time int (the row-major linear index
            into the tile grid), a list of compile-time grid coordinates (one
            per dimension), or a runtime integer scalar (a linear index the
            kernel keeps in ``[0, number of tiles)``).
        tile_shape: a compile-time list of ints, one per dimension of ``x``,
            each > 0 and dividing ``x``'s dimension.

    Returns:
        A tensor of shape ``tile_shape`` and ``x``'s dtype (``x`` itself when
        the grid has one tile).

    Example::

        @triton.jit
        def second_quarter(X, Y):
            x = tl.load(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :])
            t = tle.extract_tile(x, [0, 1], [32, 32])   # x[0:32, 32:64]
            tl.store(Y + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], t)
    """
    op = "tle.extract_tile"
    x = _tensor(x, f"{op}: x")
    shape = _shape(x)
    tile = _const_ints(tile_shape, f"{op} tile_shape")
    grid = _grid(shape, tile, op, "tile_shape")
    static, dynamic = _index(index, grid, op, _semantic)
    _require_enabled(op, _semantic)
    if all(g == 1 for g in grid):
        return x
    operands = [x]
    if dynamic is not None:
        operands.append(_semantic.splat(dynamic, shape))
    attrs = {"tile_shape": ("i64-array", tile)}
    attrs.update(_marker_attrs(static, tile, "results", 0, 1))
    (tiled,) = _markers.emit("extract_tile", attrs, operands, [x.dtype], _semantic=_semantic)
    view, axes = grid_view(shape, tile, grid)
    value = _semantic.reshape(tiled, view, can_reorder=False)
    for axis in reversed(axes):
        value = _markers._pick_reduce(value, axis, _semantic)
    return value


@builtin("tle.insert_tile")
def insert_tile(x, tile, index, _semantic=None, _generator=None):
    """``x`` with tile ``index`` of its row-major grid of ``tile.shape`` tiles replaced by ``tile``.

    Also a tensor method: ``x.insert_tile(tile, index)``.

    Args:
        x: a tensor of rank >= 1.
        tile: a tensor of ``x``'s rank and dtype (cast it first), each
            dimension dividing ``x``'s.
        index: which tile: a compile-time int (the row-major linear index
            into the tile grid), a list of compile-time grid coordinates (one
            per dimension), or a runtime integer scalar (a linear index the
            kernel keeps in ``[0, number of tiles)``).

    Returns:
        A new tensor of ``x``'s shape and dtype (``tile`` itself when the
        grid has one tile); ``x`` is not modified.

    Example::

        @triton.jit
        def zero_block(X, Y, i):
            offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
            x = tl.load(X + offs)
            y = tle.insert_tile(x, tl.zeros([16, 64], x.dtype), i)   # rows 16*i .. 16*i+15
            tl.store(Y + offs, y)
    """
    op = "tle.insert_tile"
    x = _tensor(x, f"{op}: x")
    tile = _tensor(tile, f"{op}: tile")
    shape, tshape = _shape(x), _shape(tile)
    grid = _grid(shape, tshape, op, "tile shape")
    if tile.dtype != x.dtype:
        raise TLEUsageError(f"{op}: the tile's dtype {tile.dtype} must equal the tensor's {x.dtype} "
                            f"(cast it with .to({x.dtype}))")
    static, dynamic = _index(index, grid, op, _semantic)
    _require_enabled(op, _semantic)
    if all(g == 1 for g in grid):
        return tile
    view, axes = grid_view(shape, tshape, grid)
    # The tile repeated over the grid: expand_dims at the grid axes, broadcast, reshape.
    value = tile
    for axis in axes:
        value = _semantic.expand_dims(value, axis)
    value = _semantic.broadcast_impl_shape(value, view)
    value = _semantic.reshape(value, shape, can_reorder=False)
    operands = [x, value]
    if dynamic is not None:
        operands.append(_semantic.splat(dynamic, shape))
    attrs = _marker_attrs(static, tshape, "operands", 1, 2)
    (result,) = _markers.emit("insert_tile", attrs, operands, [x.dtype], _semantic=_semantic)
    return result


# The tensor-method form of FlagTree's docs: x.extract_tile(index=[0, 0], shape=[2, 2]),
# x.insert_tile(y, index=[0, 0]).
@tlc.builtin
def _tensor_extract_tile(self, index, shape, _semantic=None, _generator=None):
    return extract_tile(self, index, shape, _semantic=_semantic, _generator=_generator)


@tlc.builtin
def _tensor_insert_tile(self, tile, index, _semantic=None, _generator=None):
    return insert_tile(self, tile, index, _semantic=_semantic, _generator=_generator)


def _install_tensor_methods() -> None:
    for name, fn in (("extract_tile", _tensor_extract_tile), ("insert_tile", _tensor_insert_tile)):
        if not hasattr(tlc.tensor, name):
            setattr(tlc.tensor, name, fn)


_install_tensor_methods()

__all__ = ["extract_tile", "insert_tile"]
