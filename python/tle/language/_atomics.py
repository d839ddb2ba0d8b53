"""``tl.atomic_*`` on TLE's shared-memory and cluster pointers.

Triton's ``tt.atomic_rmw`` / ``tt.atomic_cas`` only accept global pointers
(their verifier requires address space 1), so an atomic through a pointer from
``tle.gpu.local_ptr`` (address space 3) or ``tle.remote`` (7) cannot be a Triton
op. While TLE is enabled, Triton's semantic object routes exactly those atomics
to the ``tle.atomic_rmw`` / ``tle.atomic_cas`` markers (docs/local-memory.md);
every other atomic goes to Triton's own implementation untouched.
"""

from __future__ import annotations

import functools

from triton.language import core as tlc
from triton.language.semantic import TritonSemantic

from . import _interpret, _markers

TLE_ADDRESS_SPACES = (3, 7)
_SEMS = ("relaxed", "acquire", "release", "acq_rel")
_SCOPES = ("cta", "gpu", "sys")
_RMW = ("add", "max", "min", "and", "or", "xor", "xchg")

_originals: dict[str, object] = {}


def is_tle_pointer(ptr) -> bool:
    return (isinstance(ptr, tlc.tensor) and ptr.type.scalar.is_ptr()
            and ptr.type.scalar.address_space in TLE_ADDRESS_SPACES)


def _sem_scope(sem, scope):
    sem = sem or "acq_rel"
    scope = scope or "gpu"
    if sem not in _SEMS:
        raise ValueError(f"Memory semantic {sem} not supported")
    if scope not in _SCOPES:
        raise ValueError(f"Memory scope {scope} not supported")
    return sem, scope


def _rmw_kind(op: str, dtype: tlc.dtype) -> str:
    if op == "add":
        return "fadd" if dtype.is_floating() else "add"
    if op in ("max", "min") and dtype.is_int_unsigned():
        return "u" + op
    return op


def _atomic_rmw(self: TritonSemantic, op: str, ptr, val, mask, sem, scope):
    ptr, val, mask = self.atom_red_typechecking_impl(ptr, val, mask, op)
    if op in ("max", "min") and val.dtype.is_floating() and val.dtype not in (tlc.float32, tlc.float64):
        raise TypeError(f"atomic_{op} not supported for dtype {val.dtype}")
    sem, scope = _sem_scope(sem, scope)
    kind = _rmw_kind(op, val.dtype)
    (result,) = _markers.emit("atomic_rmw", {"kind": kind_attr(kind), "sem": sem_attr(sem), "scope": scope_attr(scope)},
                              [ptr, val, mask], [val.dtype], _semantic=self)
    return result


def _atomic_cas(self: TritonSemantic, ptr, cmp, val, sem, scope):
    element_ty = ptr.type.scalar.element_ty
    if element_ty.primitive_bitwidth not in (16, 32, 64):
        raise ValueError("atomic_cas only supports elements with width {16, 32, 64}")
    sem, scope = _sem_scope(sem, scope)
    cmp = self.cast(cmp, element_ty)
    val = self.cast(val, element_ty)
    if ptr.type.is_block():
        cmp = self.broadcast_impl_shape(cmp, ptr.type.get_block_shapes())
        val = self.broadcast_impl_shape(val, ptr.type.get_block_shapes())
    (result,) = _markers.emit("atomic_cas", {"sem": sem_attr(sem), "scope": scope_attr(scope)},
                              [ptr, cmp, val], [element_ty], _semantic=self)
    return result


# Attribute spellings of the tle.atomic_* ops (lib/Dialect/TLE/IR).
def kind_attr(kind: str) -> str:
    return f"#tle.atomic_kind<{kind}>"


def sem_attr(sem: str) -> str:
    return f"#tle.mem_semantic<{sem}>"


def scope_attr(scope: str) -> str:
    return f"#tle.mem_scope<{scope}>"


def _wrap_rmw(op: str):
    original = getattr(TritonSemantic, f"atomic_{op}")

    @functools.wraps(original)
    def atomic(self, ptr, val, mask, sem, scope):
        # Under Triton's interpreter a TLE pointer is a host address, which
        # Triton's own atomics update (docs/interpreter.md).
        if is_tle_pointer(ptr) and not _interpret.active(self):
            return _atomic_rmw(self, op, ptr, val, mask, sem, scope)
        return original(self, ptr, val, mask, sem, scope)

    atomic.__tle_original__ = original
    return atomic


def _wrap_cas():
    original = TritonSemantic.atomic_cas

    @functools.wraps(original)
    def atomic_cas(self, ptr, cmp, val, sem, scope):
        if is_tle_pointer(ptr) and not _interpret.active(self):
            return _atomic_cas(self, ptr, cmp, val, sem, scope)
        return original(self, ptr, cmp, val, sem, scope)

    atomic_cas.__tle_original__ = original
    return atomic_cas


def install() -> None:
    """Route atomics on TLE pointers to TLE markers (idempotent)."""
    if _originals:
        return
    for op in _RMW:
        name = f"atomic_{op}"
        _originals[name] = TritonSemantic.__dict__[name]
        setattr(TritonSemantic, name, _wrap_rmw(op))
    _originals["atomic_cas"] = TritonSemantic.__dict__["atomic_cas"]
    TritonSemantic.atomic_cas = _wrap_cas()


def uninstall() -> None:
    for name, original in _originals.items():
        setattr(TritonSemantic, name, original)
    _originals.clear()
