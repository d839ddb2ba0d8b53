"""Emit TLE markers from inside ``@triton.jit`` code (see docs/markers.md).

A TLE primitive cannot build a ``tle`` op with stock Triton's builder, so it
emits a marker: a non-pure ``tt.elementwise_inline_asm`` whose asm string names
the op and spells its attributes as an MLIR dictionary. Results that drop one
axis are narrowed by a *pick reduce*. ``triton-tle-raise-markers`` reads these
back into ``tle`` ops.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from triton.language import core as tlc


class TLEUsageError(ValueError):
    """Bad arguments to a TLE primitive; Triton reports it at the user's line."""


def _format_attr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "i32":
        return f"{int(value[1])} : i32"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "i32-array":
        return "array<i32" + "".join(f", {int(v)}" if i else f": {int(v)}" for i, v in enumerate(value[1])) + ">"
    if isinstance(value, str):
        return value  # already MLIR attribute syntax
    raise TypeError(f"cannot spell {value!r} as an MLIR attribute")


def asm_string(op: str, attrs: Mapping[str, object]) -> str:
    """``tle.<op> {k = v, ...}`` with keys in the given order."""
    if not attrs:
        return f"tle.{op}"
    body = ", ".join(f"{k} = {_format_attr(v)}" for k, v in attrs.items())
    return f"tle.{op} {{{body}}}"


def emit(
    op: str,
    attrs: Mapping[str, object],
    operands: Sequence[tlc.tensor],
    result_dtypes: Sequence[tlc.dtype],
    *,
    narrowed: Mapping[int, int] | None = None,
    _semantic,
) -> list[tlc.tensor]:
    """Emit the marker for ``tle.<op>`` and return its results.

    ``operands`` are tensors of one shape. ``narrowed`` maps a result index to
    the axis its real shape drops; that result comes back pick-reduced along the
    axis (a scalar for a rank-1 marker).
    """
    narrowed = dict(narrowed or {})
    attrs = dict(attrs)
    if narrowed:
        attrs["tle.marker.narrowed"] = ("i32-array", sorted(narrowed))
    asm = asm_string(op, attrs)
    constraints = ",".join(["=r"] * len(result_dtypes) + ["r"] * len(operands))
    dtypes = list(result_dtypes)
    results = tlc.inline_asm_elementwise(
        asm,
        constraints,
        list(operands),
        dtype=dtypes if len(dtypes) > 1 else dtypes[0],
        is_pure=False,
        pack=1,
        _semantic=_semantic,
    )
    if len(dtypes) == 1:
        results = [results]
    else:
        results = list(results)
    for index, axis in narrowed.items():
        results[index] = _pick_reduce(results[index], axis, _semantic)
    return results


def _pick_reduce(value: tlc.tensor, axis: int, _semantic) -> tlc.tensor:
    """``tt.reduce`` along ``axis`` whose body returns its first argument."""
    builder = _semantic.builder
    ir_type = value.type.scalar.to_ir(builder)

    def make_combine(reduce_op):
        saved_ip, saved_loc = builder.get_insertion_point(), builder.get_loc()
        block = builder.create_block_with_parent(reduce_op.get_region(0), [ir_type, ir_type])
        builder.set_insertion_point_to_start(block)
        builder.create_reduce_ret(block.arg(0))
        builder.restore_insertion_point(saved_ip)
        builder.set_loc(saved_loc)

    (result,) = _semantic.reduction((value,), axis, make_combine)
    return result
