"""The one place where TLE meets Triton's compiler.

``enable()`` installs a stages hook (``triton.knobs.runtime.
add_stages_inspection_hook``, chaining any hook already there) that inserts
TLE's stages into the NVIDIA backend's ordered stage dict:

    ttir -> tle-ttir -> ttgir -> tle-ttgir -> llir -> ptx -> cubin

Each TLE stage prints Triton's module as text (with locations), runs a TLE
pipeline on it in-process through the nanobind module, and parses the result
back into Triton's context with ``ir.parse_mlir_module``. IR crosses only as
text: Triton's MLIR symbols are hidden, and TLE carries its own definitions of
Triton's dialects.

Kernels compiled with TLE go to their own entries of Triton's cache: the cache
key Triton computes does not see stage hooks, so while TLE is enabled the cache
manager class is wrapped to mix TLE's fingerprint (its compiler binary and
pipelines) into every key.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import tempfile
import threading

from triton import knobs
from triton._C.libtriton import ir

from . import _driver
from ._errors import MLIRError

# TLE's pipelines, by stage. The TTIR stage checks every marker (building and
# verifying its tle op) so that misuse is reported before Triton's TTGIR
# conversion; the TTGIR stage raises markers, runs TLE's passes and lowers
# everything back to Triton ops.
TTIR_PIPELINE = "builtin.module(triton-tle-raise-markers{verify-only=true})"
TTGIR_PIPELINE = ("builtin.module(triton-tle-raise-markers,"
                  "triton-tle-optimize-exclusive-cumsum-layouts,"
                  "triton-tle-lower-exclusive-cumsum,"
                  "tle-assert-lowered)")

# Stage name -> (the Triton stage it follows, pipeline).
STAGES = {
    "tle-ttir": ("ttir", TTIR_PIPELINE),
    "tle-ttgir": ("ttgir", TTGIR_PIPELINE),
}

_lock = threading.RLock()
_state = {"previous_hook": None, "previous_cache": None}


@functools.lru_cache(maxsize=None)
def fingerprint() -> str:
    """Changes whenever TLE's compiler binary or pipelines change."""
    h = hashlib.sha256()
    h.update(_driver.compiler_binary().read_bytes())
    for name, (after, pipeline) in STAGES.items():
        h.update(f"{name}:{after}:{pipeline}".encode())
    return h.hexdigest()


def run_stage(name: str, pipeline: str, module, metadata=None):
    """Run one TLE pipeline on a Triton module; return a new Triton module."""
    source = module.str() if hasattr(module, "str") else str(module)
    source_name = f"<tle:{name}>"
    try:
        text = _driver.run_pipeline(source, pipeline, source_name=source_name, debug_info=True)
    except MLIRError as e:
        raise MLIRError(f"TLE stage '{name}' failed:\n" + "\n".join(e.diagnostics)) from None
    fd, path = tempfile.mkstemp(suffix=".mlir", prefix="tle-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        parsed = ir.parse_mlir_module(path, module.context)
        parsed.context = module.context  # Triton's stages read it, as after its own parse()
        return parsed
    finally:
        os.unlink(path)


def _insert_stages(stages: dict) -> None:
    items = list(stages.items())
    stages.clear()
    for key, fn in items:
        stages[key] = fn
        for name, (after, pipeline) in STAGES.items():
            if key == after:
                stages[name] = functools.partial(run_stage, name, pipeline)


def _hook(backend, stages, options, language, capability):
    previous = _state["previous_hook"]
    if previous is not None:
        previous(backend, stages, options, language, capability)
    if getattr(getattr(backend, "target", None), "backend", None) == "cuda":
        _insert_stages(stages)


def _wrap_cache_manager(base):
    base = base or _default_cache_manager()

    class TLECacheManager(base):
        def __init__(self, key, *args, **kwargs):
            mixed = hashlib.sha256(f"{key}-tle-{fingerprint()}".encode()).hexdigest()
            super().__init__(mixed, *args, **kwargs)

    TLECacheManager.__name__ = f"TLE{base.__name__}"
    TLECacheManager.__qualname__ = TLECacheManager.__name__
    return TLECacheManager


def _default_cache_manager():
    from triton.runtime.cache import FileCacheManager
    return FileCacheManager


def is_enabled() -> bool:
    return knobs.runtime.add_stages_inspection_hook is _hook


def enable() -> None:
    """Route every Triton compile for NVIDIA through TLE's stages.

    Idempotent; pairs with ``disable()``. A hook installed before is chained:
    it runs first, then TLE inserts its stages.
    """
    with _lock:
        if is_enabled():
            return
        _state["previous_hook"] = knobs.runtime.add_stages_inspection_hook
        _state["previous_cache"] = knobs.cache.manager_class
        knobs.runtime.add_stages_inspection_hook = _hook
        knobs.cache.manager_class = _wrap_cache_manager(_state["previous_cache"])


def disable() -> None:
    """Undo ``enable()`` (restoring the hook and cache manager it replaced)."""
    with _lock:
        if not is_enabled():
            return
        knobs.runtime.add_stages_inspection_hook = _state["previous_hook"]
        knobs.cache.manager_class = _state["previous_cache"]
        _state["previous_hook"] = _state["previous_cache"] = None


@contextlib.contextmanager
def enabled():
    """``with tle.enabled(): ...`` compiles through TLE inside the block only."""
    with _lock:
        was = is_enabled()
        if not was:
            enable()
    try:
        yield
    finally:
        with _lock:
            if not was:
                disable()
