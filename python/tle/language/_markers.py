"""Emit TLE markers from inside ``@triton.jit`` code (see docs/markers.md).

A TLE primitive cannot build a ``tle`` op with stock Triton's builder, so it
emits a marker: a non-pure ``tt.elementwise_inline_asm`` whose asm string names
the op and spells its attributes as an MLIR dictionary. Results that drop one
axis are narrowed by a *pick reduce*. ``triton-tle-raise-markers`` reads these
back into ``tle`` ops.
"""

from __future__ import annotations

import functools
from typing import Mapping, Sequence

from triton.language import core as tlc

from ._errors import TLEUsageError  # noqa: F401  (the language modules import it from here)


def builtin(name: str):
    """Triton's ``builtin`` decorator for the public primitive ``name``: called
    from plain Python (no ``_semantic``), it says which primitive needs a
    kernel (Triton's own message names no function)."""

    def decorate(fn):

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if kwargs.get("_semantic") is None:
                from . import _interpret
                if _interpret.running():
                    # Triton's interpreter passes _semantic only to its own
                    # builtins: TLE's run on the host (_interpret.py).
                    with _interpret.primitive(name):
                        return fn(*args, **{**kwargs, "_semantic": _interpret.semantic()})
                raise TLEUsageError(f"{name} can only be called inside a @triton.jit kernel (or a @triton.jit "
                                    "function it calls), not from Python")
            return fn(*args, **kwargs)

        setattr(wrapper, tlc.TRITON_BUILTIN, True)
        return wrapper

    return decorate


def traced_failure(what: str, error: Exception, fn) -> str:
    """The message for a failure met while TLE traced ``fn`` (a
    ``@triton.jit`` function: a warp_specialize partition, say) into the
    kernel: ``error`` is the CompilationError Triton raised at the call, whose
    own message shows only the caller's line. The message returned says
    ``what`` failed, then, like a Python traceback, the file, line and source
    of each statement the failure passed through (``fn``'s first, then the
    functions it called) and, last, the failure's own message."""
    import re

    from triton.compiler.errors import CompilationError
    from triton.runtime.jit import get_jit_fn_file_line

    lines, cause, current, scope = [f"{what} failed:"], error.__cause__, fn, _globals_of(fn)
    message = None
    while isinstance(cause, CompilationError):
        src = cause.src or ""
        found = re.search(r"^def\s+(\w+)", src, re.M)
        name = found.group(1) if found else "<function>"
        if getattr(current, "src", None) != cause.src:
            # A function the previous one called, found by name in its globals.
            current = _find_jit(name, scope)
        lineno = getattr(cause.node, "lineno", None) or 1
        source_lines = src.splitlines()
        text = source_lines[lineno - 1].strip() if lineno <= len(source_lines) else ""
        try:
            file_name, begin = get_jit_fn_file_line(current)
            lines.append(f'  File "{file_name}", line {begin + lineno - 1}, in {name}')
        except Exception:  # not found: the line within the function's source
            lines.append(f"  in {name}, line {lineno} of its source")
        if text:
            lines.append(f"    {text}")
        scope = _globals_of(current) or scope
        if cause.error_message is not None:
            message = cause.error_message
            break
        inner = cause.__cause__
        if not isinstance(inner, CompilationError):
            message = f"{type(inner).__name__}: {inner}" if inner is not None else None
            break
        cause, current = inner, None
    lines.append(message if message is not None else str(error))
    return "\n".join(lines)


def _globals_of(fn) -> dict:
    while fn is not None and not hasattr(fn, "__globals__"):
        fn = getattr(fn, "fn", None)
    return getattr(fn, "__globals__", {}) or {}


def _find_jit(name, scope):
    value = (scope or {}).get(name)
    return value if hasattr(value, "src") else None


def dims(shape) -> list[int]:
    """A shape (Triton's lists of constexprs included) as a list of ints."""
    return [int(tlc._unwrap_if_constexpr(d)) for d in shape]


def unwrap(value):
    """A constexpr's value. Unlike Triton's ``_unwrap_if_constexpr`` it leaves
    a ``tl.tuple`` alone (that one rebuilds it, and fails on one holding a
    string: ``x=([64], "fp32")``)."""
    return value.value if isinstance(value, tlc.constexpr) else value


def describe(value) -> str:
    """``value`` as an error message shows it: constants as Python spells them,
    runtime values by their type (``<runtime int32>``, ``<int32 tensor of
    shape [16]>``), lists and tuples entry by entry."""
    value = unwrap(value)
    if isinstance(value, tlc.tensor):
        if value.type.is_block():
            return f"<{value.dtype} tensor of shape {dims(value.shape)}>"
        return f"<runtime {value.dtype}>"
    if isinstance(value, (list, tlc.tuple)):  # a kernel's list literal is a tl.tuple
        return "[" + ", ".join(describe(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(describe(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def _format_attr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "i32":
        return f"{int(value[1])} : i32"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "i32-array":
        return "array<i32" + "".join(f", {int(v)}" if i else f": {int(v)}" for i, v in enumerate(value[1])) + ">"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "i64-array":
        return "array<i64" + "".join(f", {int(v)}" if i else f": {int(v)}" for i, v in enumerate(value[1])) + ">"
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "list":
        return "[" + ", ".join(value[1]) + "]"
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
    interpret: Mapping[str, object] | None = None,
    _semantic,
) -> list[tlc.tensor]:
    """Emit the marker for ``tle.<op>`` and return its results.

    ``operands`` are tensors of one shape. ``narrowed`` maps a result index to
    the axis its real shape drops; that result comes back pick-reduced along the
    axis (a scalar for a rank-1 marker). Under Triton's interpreter the marker
    is run on the host instead (``_interpret.run``), with ``interpret``: what
    that needs beyond the marker (a buffer's shape).
    """
    narrowed = dict(narrowed or {})
    attrs = dict(attrs)
    if narrowed:
        attrs["tle.marker.narrowed"] = ("i32-array", sorted(narrowed))
    asm = asm_string(op, attrs)
    constraints = ",".join(["=r"] * len(result_dtypes) + ["r"] * len(operands))
    # Build the op directly: Triton's inline_asm_elementwise would broadcast
    # the operands with arithmetic type checks that reject, e.g., two pointer
    # tensors of different address spaces. Markers take operands of one shape.
    shapes = {tuple(t.shape) for t in operands if t.type.is_block()}
    if len(shapes) > 1 or (shapes and any(not t.type.is_block() for t in operands)):
        raise TLEUsageError(f"internal: tle.{op} marker operands of different shapes {sorted(shapes)}")
    shape = list(next(iter(shapes))) if shapes else None
    res_tys = [tlc.block_type(dt, shape) if shape else dt for dt in result_dtypes]
    from . import _interpret
    if _interpret.active(_semantic):
        handles = _interpret.run(op, attrs, operands, res_tys, interpret)
        results = [tlc.tensor(h, ty) for h, ty in zip(handles, res_tys)]
        for index, axis in narrowed.items():
            results[index] = _interpret.pick(results[index], axis)
        return results
    builder = _semantic.builder
    call = builder.create_inline_asm(asm, constraints, [t.handle for t in operands],
                                     [ty.to_ir(builder) for ty in res_tys], False, 1)
    results = [tlc.tensor(call.get_result(i), ty) for i, ty in enumerate(res_tys)]
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
