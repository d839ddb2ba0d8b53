"""TLE primitives usable inside ``@triton.jit`` kernels (FlagTree's API names)."""

from __future__ import annotations

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError

# Element types tle.exclusive_cumsum scans (after tl.cumsum's promotion rules).
_CUMSUM_DTYPES = ("int32", "int64", "uint32", "uint64", "fp16", "bf16", "fp32", "fp64")


def _require_enabled(name: str, _semantic) -> None:
    from .. import _bridge

    backend = getattr(_semantic.builder.options, "backend_name", "cuda")
    if backend != "cuda":
        raise TLEUsageError(f"{name} is only supported on the cuda backend, not '{backend}'")
    if not _bridge.is_enabled():
        raise TLEUsageError(
            f"{name} needs TLE's compiler stages: call tle.enable() before compiling, "
            "or compile with tle.compile(...)")


def _constexpr_value(value, what: str, kinds):
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, tlc.tensor):
        raise TLEUsageError(f"{what} must be a compile-time constant (tl.constexpr), got a tensor")
    if not isinstance(value, kinds) or (kinds is int and isinstance(value, bool)):
        raise TLEUsageError(f"{what} must be {kinds.__name__ if isinstance(kinds, type) else kinds}, "
                            f"got {value!r}")
    return value


def _cumsum_dtype(in_dtype: tlc.dtype, dtype) -> tlc.dtype:
    """tl.cumsum's rule: bf16 accumulates in fp32, narrow ints in (u)int32."""
    if dtype is not None:
        return dtype
    if in_dtype.is_bf16():
        return tlc.float32
    if in_dtype.is_int_signed() and in_dtype.int_bitwidth < 32:
        return tlc.int32
    if in_dtype.is_int_unsigned() and in_dtype.int_bitwidth < 32:
        return tlc.uint32
    return in_dtype


@tlc.builtin
def cumsum(input, axis=0, reverse=False, dtype=None, _semantic=None, _generator=None):
    """Exclusive prefix sum along ``axis`` and the total of that axis.

    ``exclusive, total = tle.cumsum(x, axis=0, reverse=False, dtype=None)``:
    ``exclusive[i] = sum(x[j] for j < i)`` along ``axis`` (``j > i`` when
    ``reverse``), and ``total`` is the sum over ``axis`` (a scalar for a 1-D
    input, else a tensor without ``axis``). Like ``tl.cumsum``, bf16 inputs
    accumulate in fp32 and integers narrower than 32 bits in (u)int32 unless
    ``dtype`` says otherwise.
    """
    if not isinstance(input, tlc.tensor) or not input.type.is_block():
        kind = "a scalar" if isinstance(input, tlc.tensor) else type(tlc._unwrap_if_constexpr(input)).__name__
        raise TLEUsageError(f"tle.cumsum expects a tensor of rank >= 1, got {kind}")
    rank = len(input.shape)
    axis = _constexpr_value(axis, "tle.cumsum axis", int)
    if not -rank <= axis < rank:
        raise TLEUsageError(f"tle.cumsum axis {axis} is out of range for a rank-{rank} tensor")
    axis %= rank
    reverse = _constexpr_value(reverse, "tle.cumsum reverse", bool)
    dtype = tlc._unwrap_if_constexpr(dtype)
    if dtype is not None and not isinstance(dtype, tlc.dtype):
        raise TLEUsageError(f"tle.cumsum dtype must be a triton dtype, got {dtype!r}")

    in_dtype = input.dtype
    if in_dtype.is_ptr() or in_dtype.is_int1() or in_dtype.is_fp8():
        raise TLEUsageError(f"tle.cumsum does not support {in_dtype} inputs; "
                            f"supported: {', '.join(_CUMSUM_DTYPES)} (and narrower ints, promoted)")
    out_dtype = _cumsum_dtype(in_dtype, dtype)
    if out_dtype.name not in _CUMSUM_DTYPES:
        raise TLEUsageError(f"tle.cumsum cannot accumulate in {out_dtype}; "
                            f"supported: {', '.join(_CUMSUM_DTYPES)}")
    _require_enabled("tle.cumsum", _semantic)
    if out_dtype != in_dtype:
        input = _semantic.cast(input, out_dtype)

    exclusive, total = _markers.emit(
        "exclusive_cumsum",
        {"axis": ("i32", axis), "reverse": reverse},
        [input],
        [out_dtype, out_dtype],
        narrowed={1: axis},
        _semantic=_semantic,
    )
    return exclusive, total


__all__ = ["cumsum", "TLEUsageError"]
