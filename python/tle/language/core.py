"""TLE primitives usable inside ``@triton.jit`` kernels (FlagTree's API names)."""

from __future__ import annotations

from triton.language import core as tlc

from .. import _state
from . import _markers
from ._markers import TLEUsageError, builtin, describe, dims, unwrap

# Element types tle.exclusive_cumsum scans (after tl.cumsum's promotion rules).
_CUMSUM_DTYPES = ("int32", "int64", "uint32", "uint64", "fp16", "bf16", "fp32", "fp64")


def _require_enabled(name: str, _semantic) -> None:
    from . import _interpret
    if _interpret.active(_semantic):
        return  # Triton's interpreter runs it on the host (docs/interpreter.md)
    backend = getattr(_semantic.builder.options, "backend_name", "cuda")
    if backend != "cuda":
        raise TLEUsageError(f"{name} is only supported on the cuda backend, not '{backend}'")
    if not _state.is_enabled():
        raise TLEUsageError(
            f"{name} needs TLE's compiler stages: call tle.enable() before compiling, "
            "or compile with tle.compile(...)")


def _target_capability(_semantic) -> int | None:
    """The CUDA compute capability the kernel is compiled for (80 for
    ``sm_80``, 90 for ``sm_90a``), from Triton's options; None when unknown."""
    arch = getattr(getattr(getattr(_semantic, "builder", None), "options", None), "arch", None)
    if isinstance(arch, int):
        return arch
    if isinstance(arch, str):
        digits = arch.removeprefix("sm_").removeprefix("sm").rstrip("a")
        if digits.isdigit():
            return int(digits)
    return None


def _require_capability(feature: str, minimum: int, _semantic, hint: str = "") -> None:
    """A TLEUsageError, at the user's line, when the kernel's target is an
    NVIDIA GPU older than ``sm_<minimum>`` (docs/targets.md). ``feature``
    names what needs it, ``hint`` says what to do instead."""
    capability = _target_capability(_semantic)
    if capability is not None and capability < minimum:
        raise TLEUsageError(f"{feature} needs sm_{minimum} or newer; this kernel is compiled for sm_{capability}"
                            + (f" ({hint})" if hint else "") + " (docs/targets.md)")


def _constexpr_value(value, what: str, kinds):
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, tlc.tensor):
        raise TLEUsageError(f"{what} must be a compile-time constant (tl.constexpr), got {describe(value)}")
    if not isinstance(value, kinds) or (kinds is int and isinstance(value, bool)):
        raise TLEUsageError(f"{what} must be {kinds.__name__ if isinstance(kinds, type) else kinds}, "
                            f"got {describe(value)}")
    return value


def _to_tensor(value, what: str, _semantic) -> tlc.tensor:
    """``value`` (a tensor or a number) as a tensor; anything else is a
    TLEUsageError naming ``what``, not Triton's TypeError."""
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, tlc.tensor):
        return value
    if not isinstance(value, (bool, int, float)):
        raise TLEUsageError(f"{what} must be a tensor or a number, got {describe(value)}")
    return _semantic.to_tensor(value)


def _broadcast(value: tlc.tensor, shape, what: str, _semantic) -> tlc.tensor:
    """``value`` (a scalar or a tensor) broadcast to ``shape``, or a
    TLEUsageError naming ``what`` when its shape does not broadcast."""
    if not value.type.is_block():
        return _semantic.splat(value, list(shape))
    try:
        return _semantic.broadcast_impl_shape(value, list(shape))
    except ValueError:
        raise TLEUsageError(f"{what} of shape {dims(value.shape)} does not broadcast to {dims(shape)}") from None


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


@builtin("tle.cumsum")
def cumsum(input, axis=0, reverse=False, dtype=None, _semantic=None, _generator=None):
    """Exclusive prefix sum along ``axis`` and the total of that axis.

    ``exclusive, total = tle.cumsum(x, axis=0, reverse=False, dtype=None)``:
    ``exclusive[i] = sum(x[j] for j < i)`` along ``axis`` (``j > i`` when
    ``reverse``), and ``total`` is the sum over ``axis`` (a scalar for a 1-D
    input, else a tensor without ``axis``). Like ``tl.cumsum``, bf16 inputs
    accumulate in fp32 and integers narrower than 32 bits in (u)int32 unless
    ``dtype`` says otherwise.

    Args:
        input: a tensor of rank >= 1 (not a scalar) of an integer or
            floating-point type (int8..int64, uint, fp16, bf16, fp32, fp64;
            not bool, fp8 or pointers).
        axis: the scanned axis, a compile-time int in ``[-rank, rank)``.
        reverse: a compile-time bool; scan from the end of the axis.
        dtype: the accumulation and result type (a triton dtype), or None.

    Returns:
        ``(exclusive, total)``: ``exclusive`` has ``input``'s shape;
        ``total`` drops ``axis`` (a scalar for 1-D input).

    Example::

        @triton.jit
        def bucket_offsets(counts_ptr, offsets_ptr, total_ptr, N: tl.constexpr):
            i = tl.arange(0, N)
            offsets, total = tle.cumsum(tl.load(counts_ptr + i), axis=0)
            tl.store(offsets_ptr + i, offsets)
            tl.store(total_ptr, total)
    """
    if not isinstance(input, tlc.tensor) or not input.type.is_block():
        kind = "a scalar" if isinstance(input, tlc.tensor) else type(tlc._unwrap_if_constexpr(input)).__name__
        raise TLEUsageError(f"tle.cumsum input must be a tensor of rank >= 1, got {kind}")
    rank = len(input.shape)
    axis = _constexpr_value(axis, "tle.cumsum axis", int)
    if not -rank <= axis < rank:
        raise TLEUsageError(f"tle.cumsum axis {axis} is out of range for a rank-{rank} tensor")
    axis %= rank
    reverse = _constexpr_value(reverse, "tle.cumsum reverse", bool)
    dtype = tlc._unwrap_if_constexpr(dtype)
    if dtype is not None and not isinstance(dtype, tlc.dtype):
        raise TLEUsageError(f"tle.cumsum dtype must be a triton dtype, got {describe(dtype)}")

    in_dtype = input.dtype
    if in_dtype.is_ptr() or in_dtype.is_int1() or in_dtype.is_fp8():
        raise TLEUsageError(f"tle.cumsum does not support {in_dtype} inputs; "
                            f"supported: {', '.join(_CUMSUM_DTYPES)} (and narrower ints, promoted)")
    out_dtype = _cumsum_dtype(in_dtype, dtype)
    if out_dtype.name not in _CUMSUM_DTYPES:
        raise TLEUsageError(f"tle.cumsum cannot accumulate in dtype {out_dtype}; "
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


def _given(value) -> bool:
    """Whether an optional ``tl.load`` argument was given (not None, "" or ()).
    A runtime value counts as given; it must not reach ``bool()`` or ``in``."""
    value = unwrap(value)
    if isinstance(value, tlc.tuple):
        return len(value.values) > 0
    return isinstance(value, tlc.base_value) or value not in (None, "", ())


@builtin("tle.load")
def load(pointer, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="", eviction_policy="",
         volatile=False, is_async=False, _semantic=None, _generator=None):
    """``tl.load``, optionally as an asynchronous copy (FlagTree's ``tle.load``).

    With ``is_async=False`` this is exactly ``tl.load``. With ``is_async=True``
    the values travel global -> shared memory by ``cp.async`` and are read back
    just before their first use, so the copy overlaps the work in between;
    inside a loop that Triton software-pipelines (``tl.range(...,
    num_stages=S)``, or any innermost ``for`` with the compile's
    ``num_stages``) the load is issued ``S - 1`` iterations ahead. ``mask`` and
    ``other`` mean what they mean for ``tl.load``. ``pointer`` must be a tensor
    of global-memory pointers. Loads of elements narrower than 4 bytes that
    Triton's pipeliner does not take stay synchronous (cp.async moves 4, 8 or
    16 bytes); see docs/async-load.md.

    Args:
        pointer: what ``tl.load`` takes; with ``is_async=True``, a tensor of
            pointers to global memory (address space 1; not a scalar, block
            pointer, tensor descriptor or shared-memory pointers) to
            non-bool, non-pointer elements.
        mask: None, or a boolean tensor (or scalar) broadcastable to the
            pointers' shape.
        other: None, or the value loaded where ``mask`` is false (cast to
            the element type); needs ``mask``.
        boundary_check: as for ``tl.load`` (block pointers); must be empty
            with ``is_async=True``.
        padding_option: as for ``tl.load`` (block pointers); must be empty
            with ``is_async=True``.
        cache_modifier: as for ``tl.load``; must be empty with
            ``is_async=True``.
        eviction_policy: as for ``tl.load``; must be empty with
            ``is_async=True``.
        volatile: as for ``tl.load``; must be False with ``is_async=True``.
        is_async: a compile-time bool; True needs sm_80+ (cp.async) and TLE
            enabled.

    Returns:
        A tensor of the pointers' shape and element type (what ``tl.load``
        returns).

    Example::

        @triton.jit
        def dot_rows(X, Y, OUT, n, BLOCK: tl.constexpr):
            acc = tl.zeros([BLOCK], tl.float32)
            for off in tl.range(0, n, BLOCK, num_stages=3):
                offs = off + tl.arange(0, BLOCK)
                x = tle.load(X + offs, mask=offs < n, other=0.0, is_async=True)
                y = tle.load(Y + offs, mask=offs < n, other=0.0, is_async=True)
                acc += x * y
            tl.store(OUT + tl.arange(0, BLOCK), acc)
    """
    is_async = _constexpr_value(is_async, "tle.load is_async", bool)
    if is_async:
        _require_capability("tle.load(is_async=True) (cp.async)", 80, _semantic,
                            "use is_async=False: a plain tl.load")
    if not is_async:
        return tlc.load(pointer, mask, other, boundary_check, padding_option, cache_modifier, eviction_policy,
                        volatile, _semantic=_semantic)
    pointer = tlc._unwrap_if_constexpr(pointer)
    if not isinstance(pointer, tlc.tensor):
        raise TLEUsageError(f"tle.load(is_async=True) expects a tensor of pointers, got {type(pointer).__name__}; "
                            "tensor descriptors are not supported")
    if pointer.type.is_ptr() and pointer.type.element_ty.is_block():
        raise TLEUsageError("tle.load(is_async=True) does not take block pointers (tl.make_block_ptr); "
                            "pass a tensor of pointers, or use is_async=False")
    if not pointer.type.is_block() or not pointer.dtype.is_ptr():
        what = f"a scalar {pointer.dtype}" if not pointer.type.is_block() else f"a tensor of {pointer.dtype}"
        raise TLEUsageError(f"tle.load(is_async=True) expects a tensor of pointers, got {what}")
    space = pointer.dtype.address_space
    if space != 1:
        kind = {3: "shared-memory (tle.gpu.local_ptr)", 7: "cluster shared-memory (tle.remote)"}.get(space, "non-global")
        raise TLEUsageError(f"tle.load(is_async=True) copies from global memory, but these are {kind} pointers "
                            f"(address space {space}); load them with tl.load or is_async=False")
    element = pointer.dtype.element_ty
    if element.is_int1() or element.is_ptr() or element.is_block():
        raise TLEUsageError(f"tle.load(is_async=True) does not load {element} elements (pointer is a tensor of "
                            f"{pointer.dtype})")
    if _given(boundary_check) or _given(padding_option):
        raise TLEUsageError("tle.load(is_async=True): boundary_check and padding_option are for block pointers; "
                            "use mask and other")
    for name, value in (("cache_modifier", cache_modifier), ("eviction_policy", eviction_policy)):
        if _given(value):
            raise TLEUsageError(f"tle.load(is_async=True) does not support {name}={describe(value)}")
    if tlc._unwrap_if_constexpr(volatile):
        raise TLEUsageError("tle.load(is_async=True) cannot be volatile; use is_async=False")
    mask, other = tlc._unwrap_if_constexpr(mask), tlc._unwrap_if_constexpr(other)
    if mask is None and other is not None:
        raise TLEUsageError("tle.load: `other` cannot be provided without `mask`")
    _require_enabled("tle.load(is_async=True)", _semantic)
    shape = list(pointer.shape)
    operands = [pointer]
    if mask is not None:
        mask = _to_tensor(mask, "tle.load: mask", _semantic)
        if not mask.dtype.is_int1():
            raise TLEUsageError(f"tle.load: mask must be a boolean tensor, got {mask.dtype}")
        operands.append(_broadcast(mask, shape, "tle.load: mask", _semantic))
    if other is not None:
        other = _to_tensor(other, "tle.load: other", _semantic)
        if other.dtype.is_ptr():
            raise TLEUsageError(f"tle.load: other must be a value to load where mask is false, got a pointer "
                                f"({other.dtype})")
        other = _semantic.cast(other, element)
        operands.append(_broadcast(other, shape, "tle.load: other", _semantic))
    segments = [1, 1 if mask is not None else 0, 1 if other is not None else 0]
    (value,) = _markers.emit("async_load", {"operandSegmentSizes": ("i32-array", segments)}, operands, [element],
                             _semantic=_semantic)
    return value


__all__ = ["cumsum", "load", "TLEUsageError"]
