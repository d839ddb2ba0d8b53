"""The one place where TLE meets Triton's compiler.

``enable()`` installs a stages hook (``triton.knobs.runtime.
add_stages_inspection_hook``, chaining any hook already there) that inserts
TLE's stages into the NVIDIA backend's ordered stage dict:

    ttir -> tle-ttir -> triton-ttgir -> ttgir -> llir -> ptx -> cubin

``ttgir`` is TLE's TTGIR stage, so ``kernel.asm["ttgir"]`` is the TTGIR the
backend lowers (as in FlagTree, whose TLE lowering runs inside Triton's
make_ttgir); Triton's own TTGIR, the stage's input, is ``triton-ttgir``.
``ttir`` stays Triton's (its first stage, which compiles the AST, must keep
the name) and ``tle-ttir`` is TLE's TTIR stage after it.

Each TLE stage prints Triton's module as text (with locations), runs a TLE
pipeline on it in-process through the nanobind module, and parses the result
back into Triton's context with ``ir.parse_mlir_module``. IR crosses only as
text: Triton's MLIR symbols are hidden, and TLE carries its own definitions of
Triton's dialects. A module that holds nothing of TLE's (``uses_tle``) skips
the stage untouched: a plain Triton kernel compiles exactly as without TLE,
whatever ops it uses, including ones outside TLE's interop set.

Kernels compiled with TLE go to their own entries of Triton's cache: the cache
key Triton computes does not see stage hooks, so while TLE is enabled the cache
manager class is wrapped to mix TLE's fingerprint (its compiler binary and
pipelines) into every key.

``TLE_DUMP_IR=<dir>`` (``tle.knobs.dump_ir_dir``, read at every compile)
writes every stage's IR of every kernel compiled while TLE is enabled, TLE's
stages included, as each stage finishes: ``<dir>/<kernel>-<hash>/<kernel>.<stage>`` (``source``, ``ttir``,
``tle-ttir``, ``triton-ttgir``, ``ttgir``, ``llir``, ``ptx``, ``cubin``, then
``json``, the metadata), ``<hash>`` being the first 16 hex digits of Triton's
compile hash (``CompiledKernel.hash``). While it is set, kernels compiled with
TLE are never taken from Triton's cache, so each compile writes its files.

The bridge imports the language layer (``tle.language``), never the reverse:
the language reads whether TLE is enabled from ``_state.py``, where the hook
is recorded.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import tempfile
import threading

import triton
from triton import knobs as triton_knobs
from triton._C.libtriton import ir

from . import _driver, _state
from ._knobs import knobs
from ._errors import MLIRError
from ._state import device_wait_limit, is_enabled
from .language import _atomics, pipeline as _pipeline

# TLE's pipelines, by stage: registered in C++ by name (lib/InitAll/Pipelines.cpp,
# which says what each runs and why), so tle-opt, the nanobind module and this
# hook run the same ones. @NUM_STAGES@ is the compile's num_stages
# (``pipeline_for``); the TTGIR pipeline takes the device waits' debug limit.
NUM_STAGES = "@NUM_STAGES@"
TTIR_PIPELINE = "builtin.module(tle-ttir{num-stages=" + NUM_STAGES + "})"
TTGIR_PIPELINE = "builtin.module(tle-ttgir)"
# The TTGIR pipeline for Iluvatar (CoreX) modules, ttg.target "iluvatar:<arch>"
# (docs/iluvatar.md). pip Triton has no Iluvatar backend, so the stages hook
# below never runs it; ``ttgir_pipeline`` / ``lower_ttgir`` expose it.
ILUVATAR_TTGIR_PIPELINE = "builtin.module(tle-ttgir-iluvatar)"
# The DSA pipeline (docs/dsa.md), on TTIR captured after the tle-ttir stage.
DSA_PIPELINE = "builtin.module(tle-dsa)"
_OPTIONS = re.compile(r"^builtin\.module\(([\w-]+)(?:\{(.*)\})?\)$")


def with_options(pipeline: str, **options) -> str:
    """``pipeline`` (one of the ``*_PIPELINE`` strings) with more options for
    its registered pipeline, e.g. ``with_options(TTGIR_PIPELINE,
    disable=["triton-tle-merge-wgmma-waits"])``: a list value is joined with
    commas; an option given twice keeps the last value. Every pipeline takes
    ``disable`` (passes to leave out; a pass it does not run is an error)."""
    found = _OPTIONS.match(pipeline)
    if found is None:
        raise ValueError(f"not one of TLE's stage pipelines: {pipeline!r}")
    name, text = found.group(1), found.group(2) or ""
    items = dict(item.split("=", 1) for item in re.split(r" (?=[\w-]+=)", text) if item)
    for key, value in options.items():
        items[key.replace("_", "-")] = ",".join(value) if isinstance(value, (list, tuple)) else str(value)
    body = " ".join(f"{k}={v}" for k, v in items.items())
    return f"builtin.module({name}{{{body}}})" if body else f"builtin.module({name})"


_TTG_TARGET = re.compile(r'ttg\.target\s*=\s*"([^"]*)"')


def ttgir_pipeline(target) -> str:
    """TLE's TTGIR pipeline for ``target``.

    ``target`` is a ``ttg.target`` string (``"cuda:90"``,
    ``"iluvatar:ivcore11"``) or an object with a ``backend`` attribute such as
    ``triton.backends.compiler.GPUTarget``. NVIDIA (``cuda``) gets
    ``TTGIR_PIPELINE``, Iluvatar ``ILUVATAR_TTGIR_PIPELINE``; any other
    target raises ``ValueError``.
    """
    backend = getattr(target, "backend", None)
    if backend is None:
        if not isinstance(target, str):
            raise TypeError(f"expected a ttg.target string or a GPUTarget, got {target!r}")
        backend = target.split(":", 1)[0]
    if backend == "cuda":
        return TTGIR_PIPELINE
    if backend == "iluvatar":
        return ILUVATAR_TTGIR_PIPELINE
    raise ValueError(f"TLE has no TTGIR pipeline for target {target!r}; "
                     "expected a 'cuda:<capability>' or 'iluvatar:<arch>' target")


def lower_ttgir(source: str, source_name: str = "<tle:ttgir>") -> str:
    """Run the TTGIR pipeline of the module's own ``ttg.target`` on TTGIR text.

    Returns the lowered module as text; raises ``tle.MLIRError`` with the
    compiler's diagnostics, ``ValueError`` when the module names no target or
    one TLE has no pipeline for.
    """
    found = _TTG_TARGET.search(source)
    if found is None:
        raise ValueError(f"{source_name}: the module has no ttg.target attribute; "
                         "TLE cannot pick a TTGIR pipeline")
    return _driver.run_pipeline(source, ttgir_pipeline(found.group(1)), source_name=source_name)


# Set in a compile's metadata by a TLE stage that ran its pipeline.
TLE_COMPILED = "tle_compiled"

# Stage name -> (the Triton stage it follows, pipeline).
STAGES = {
    "tle-ttir": ("ttir", TTIR_PIPELINE),
    "ttgir": ("ttgir", TTGIR_PIPELINE),
}

# Triton's stages that TLE's take the name of: Triton's make_ttgir is
# ``triton-ttgir``, TLE's TTGIR stage after it ``ttgir``.
RENAMED = {"ttgir": "triton-ttgir"}

_lock = threading.RLock()
_saved = {"previous_hook": None, "previous_cache": None}


def fingerprint() -> str:
    """Changes whenever TLE's compiler binary, pipelines or Python frontend
    change, or the device waits' debug limit (``TLE_DEVICE_WAIT_LIMIT``)."""
    return _fingerprint(device_wait_limit())


fingerprint.cache_clear = lambda: _fingerprint.cache_clear()


@functools.lru_cache(maxsize=None)
def _fingerprint(wait_limit: int) -> str:
    h = hashlib.sha256()
    h.update(f"wait-limit={wait_limit}".encode())
    h.update(_driver.compiler_binary().read_bytes())
    # The Python frontend too: what a primitive emits is part of the kernel
    # (Triton's own key covers the kernel's source, not TLE's builtins).
    package = os.path.dirname(os.path.abspath(__file__))
    for root, dirs, files in sorted(os.walk(package)):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(root, f)
                h.update(os.path.relpath(path, package).encode())
                with open(path, "rb") as src:
                    h.update(src.read())
    for name, (after, pipeline) in STAGES.items():
        h.update(f"{name}:{after}:{pipeline}".encode())
    h.update(b"llir-finish")
    return h.hexdigest()


# What makes a module TLE's business: a marker (docs/markers.md: an inline asm
# whose asm string starts with "tle."), or a name of TLE's own outside string
# literals: an attribute TLE's stages set ({tle.async}, tle.shared = ...) or a
# tle op, type or attribute. Other string literals (file paths and names in
# locations, printed strings) never count, nor do SSA or symbol names.
_MARKER = re.compile(r'(?:tt\.elementwise_inline_asm |asm_string = )"tle\.')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_TLE_NAME = re.compile(r"(?<![\w$.%@^-])tle\.\w")


def uses_tle(source: str) -> bool:
    """Whether a module's text (as Triton prints it) holds anything for TLE's
    stages: a TLE marker or a TLE op, type or attribute. A module without is a
    plain Triton kernel, which TLE's stages pass through untouched."""
    if _MARKER.search(source):
        return True
    return _TLE_NAME.search(_STRING.sub('""', source)) is not None


def pipeline_for(pipeline: str, metadata=None) -> str:
    """``pipeline`` with its placeholders filled: the compile's num_stages,
    the device waits' poll limit."""
    pipeline = pipeline.replace(NUM_STAGES, str(int((metadata or {}).get("num_stages", 3))))
    limit = device_wait_limit()
    found = _OPTIONS.match(pipeline)
    if limit and found and found.group(1) == "tle-ttgir":  # the TTGIR pipeline: debug mode (docs/distributed.md)
        pipeline = with_options(pipeline, wait_limit=limit)
    return pipeline


def run_stage(name: str, pipeline: str, module, metadata=None):
    """Run one TLE pipeline on a Triton module; return a new Triton module.

    A module that does not ``uses_tle`` is returned as it is: TLE's pipelines
    have nothing to do on it, and an op outside TLE's interop set (a newer
    Triton feature, say) must not break a kernel that uses no TLE op. A module
    with TLE markers goes through the pipeline, where such an op is an error
    naming it (``'tt.x' is not in TLE's interop set for Triton 3.6.0``)."""
    source = module.str() if hasattr(module, "str") else str(module)
    if not uses_tle(source):
        return module
    if metadata is not None:
        metadata[TLE_COMPILED] = True  # the llir stage folds wgmma descriptors of TLE kernels only
    pipeline = pipeline_for(pipeline, metadata)
    source_name = f"<tle:{name}>"
    try:
        text = _driver.run_pipeline(source, pipeline, source_name=source_name, debug_info=True)
    except MLIRError as e:
        # The diagnostics; a failure that has none (tle-opt did not start, say) keeps its message.
        detail = "\n".join(e.diagnostics) or str(e)
        raise MLIRError(f"TLE stage '{name}' failed:\n" + detail) from None
    fd, path = tempfile.mkstemp(suffix=".mlir", prefix="tle-")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            parsed = ir.parse_mlir_module(path, module.context)
        except RuntimeError as e:
            # Triton printed its diagnostic (file:line:col) on standard error;
            # keep the file it names.
            kept = path[:-len(".mlir")] + "-rejected.mlir"
            os.replace(path, kept)
            open(path, "w").close()  # for the unlink below
            raise MLIRError(f"TLE stage '{name}' produced IR that Triton {triton.__version__} does not accept "
                            f"({e}; its diagnostic, printed above, names a line of {kept}, which is kept). "
                            "This is a TLE bug: please report it with that file.") from None
        parsed.context = module.context  # Triton's stages read it, as after its own parse()
        if metadata is not None:
            dims = _CLUSTER_DIMS.search(text)
            if dims:  # the cluster's launch shape (finish_llir; Triton's module API reads no arrays)
                metadata["cluster_dims"] = tuple(int(d) for d in dims.groups())
        if name == "ttgir" and _WGMMA_MARKER.search(source):
            propagate_wgmma_layouts(parsed)
        return parsed
    finally:
        os.unlink(path)


# triton-tle-lower-local-memory's ``tle.cluster_dims`` module attribute in a module's text.
_CLUSTER_DIMS = re.compile(r"tle\.cluster_dims = array<i32: (\d+), (\d+), (\d+)>")

# A ``tle.gpu.wgmma`` marker in a module's text (Triton's print of the marker op).
_WGMMA_MARKER = re.compile(r'"tle\.wgmma[ "]')


def propagate_wgmma_layouts(module) -> None:
    """Run Triton's ``tritongpu-remove-layout-conversions`` on a module that
    ``triton-tle-lower-wgmma`` lowered.

    That pass gives a ``tle.gpu.wgmma`` accumulator the wgmma register layout
    and converts it back to the layout Triton chose for the marker wherever
    another op uses it (the softmax on S, ``acc * alpha``): Triton's layout
    propagation ran before the wgmma existed, so everything downstream of the
    marker, and any loop-carried accumulator rescaled between wgmmas, stayed
    in a blocked layout. Each such convert goes through shared memory (bench/attention.py's
    `tle-fa3` at D = 128: 56 converts and 262232 B of shared memory, over
    the H100's 232448). Propagating once more after TLE's stage moves those
    ops into the wgmma layout (2 converts left, the epilogue stores';
    213080 B). A stopgap: triton-tle-lower-wgmma could retype the
    elementwise users itself."""
    from triton._C.libtriton import passes
    pm = ir.pass_manager(module.context)
    passes.ttgpuir.add_remove_layout_conversions(pm)
    pm.run(module, "tle-ttgir:remove-layout-conversions")


def tma_gather_row_bytes(metadata) -> list[int]:
    """The row width in bytes of each tensor descriptor of a TLE kernel for
    sm_90, where TMA gathers become one-row copies at the llir finish
    (docs/warp-specialize.md, "Slot fills by TMA"); [] for other kernels and
    targets (sm_100 has the gather4 Triton emits)."""
    target = metadata.get("target")
    arch = getattr(target, "arch", None)
    if not metadata.get(TLE_COMPILED) or getattr(target, "backend", None) != "cuda" or not isinstance(arch, int) \
            or arch >= 100:
        return []
    return [int(m["block_size"][-1]) * int(m["elem_size"]) for m in metadata.get("tensordesc_meta") or []]


def finish_llir(make_llir, src, metadata):
    """Triton's ``llir`` stage, then TLE's llir finish (docs/local-memory.md §5).

    The TTGIR module says what TLE's lowering left for LLVM IR: ``tle.shared``
    (bytes of TLE's own shared-memory region) and ``tle.cluster_size`` (CTAs
    per cluster). They are read before Triton's ``make_llir`` consumes the
    module. The finish resolves TLE's shared-memory bases, turns global
    accesses through shared / cluster pointers into ``.shared`` /
    ``.shared::cluster`` ones and returns the kernel's shared-memory size,
    which the launcher reserves; the cluster size becomes the launch's
    ``num_ctas`` (clusters of that many CTAs) and ``cluster_dims``
    (FlagTree's metadata name) is the mesh's cluster shape
    (``tle.cluster_dims``: ``(2, 2, 1)`` for two block_cluster axes of 2),
    whose program ids the kernel sees (docs/local-memory.md §4). A module with a grid
    barrier (``tle.grid_barrier``) gets ``launch_cooperative_grid``: Triton's
    launcher then launches it cooperatively (every CTA resident, or a launch
    error), which the barrier needs.
    """
    tle_shared = src.get_int_attr("tle.shared") or 0
    cluster = src.get_int_attr("tle.cluster_size")
    if src.get_int_attr("tle.grid_barrier"):
        metadata["launch_cooperative_grid"] = True
    llir = make_llir(src, metadata)
    # Kernels that went through TLE's stages get their hoisted wgmma
    # descriptors computed at the wgmma (docs/warp-specialize.md, "wgmma
    # descriptors"); a plain Triton kernel compiles as without TLE.
    fold = bool(metadata.get(TLE_COMPILED)) and "wgmma.mma_async" in llir
    row_bytes = tma_gather_row_bytes(metadata) if "tile::gather4" in llir else []
    if cluster is not None and cluster > 1:
        if metadata.get("num_ctas", 1) != 1:
            raise MLIRError("a TLE cluster kernel takes its cluster size from its tle.device_mesh "
                            f"({cluster} CTAs); do not also pass num_ctas={metadata['num_ctas']}")
        metadata["num_ctas"] = cluster
    # FlagTree's metadata name for the launch's cluster shape: the mesh's
    # (tle.cluster_dims, read at the ttgir stage), whose program ids the
    # kernel sees; Triton 3.6 launches the num_ctas CTAs of a cluster along
    # x (a list once Triton has stored the metadata as JSON).
    num_ctas = int(metadata.get("num_ctas", 1) or 1)
    dims = tuple(metadata.get("cluster_dims") or ())
    if len(dims) != 3 or dims[0] * dims[1] * dims[2] != num_ctas:
        dims = (num_ctas, 1, 1)
    metadata["cluster_dims"] = dims
    # tle.gpu.barrier_try_wait's markers (docs/barriers.md, "Lowerings").
    try_wait = "tle.barrier_try_wait.end;" in llir
    # L2 cache hints on TMA loads (docs/barriers.md, "Tensor maps in global memory").
    hints = "tle.tma_cache_hint." in llir
    # Grid barriers (docs/distributed.md, "Grid barriers").
    grid = "tle.grid_barrier;" in llir
    if tle_shared or "tle.smem.base" in llir or "addrspace(7)" in llir or fold or row_bytes or try_wait or hints \
            or grid:
        try:
            llir, shared = _driver.finish_llir(llir, metadata.get("shared") or 0, tle_shared,
                                               fold_wgmma_descriptors=fold, tma_gather_row_bytes=row_bytes)
        except _driver.LLIRError as e:
            raise MLIRError(f"TLE stage 'llir' (finish) failed: {e}") from None
        metadata["shared"] = shared
    return llir


# TLE_DUMP_IR=<dir>: every stage's IR of every kernel compiled with TLE (module docstring).
DUMP_ENV = "TLE_DUMP_IR"


def dump_root() -> str | None:
    """The folder ``tle.knobs.dump_ir_dir`` (``TLE_DUMP_IR``) names, or None
    when stages are not dumped."""
    return knobs.dump_ir_dir or None


def write_stage(folder, name: str, stage: str, ir):
    """Write one stage's IR (a Triton module, text or binary) to ``folder/<name>.<stage>``."""
    path = os.path.join(folder, f"{name}.{stage}")
    if isinstance(ir, bytes):
        with open(path, "wb") as f:
            f.write(ir)
    else:
        with open(path, "w") as f:
            f.write(ir if isinstance(ir, str) else str(ir))
    return path


def _entry_name(module) -> str:
    try:
        return module.get_entry_func_name() or "kernel"
    except Exception:  # a module without a public function
        return "kernel"


def _dumping(root: str, stage: str, fn, first: bool, last: bool, compile_state: dict):
    """``fn`` (a stage), also writing its output under ``root`` (see ``DUMP_ENV``).
    ``compile_state`` is shared by the stages of one compile: the kernel's name,
    read from the first stage's module (later stages may consume their input)."""

    def run(src, metadata):
        if "name" not in compile_state:
            compile_state["name"] = metadata.get("name") or _entry_name(src)
        name = compile_state["name"]
        # The first stage rewrites its input module in place (Triton's ttir
        # passes canonicalize it): the source is its text before the stage.
        source = (src if isinstance(src, (str, bytes)) else str(src)) if first else None
        out = fn(src, metadata)
        folder = os.path.join(root, f"{name[:150]}-{metadata['hash'][:16]}")
        os.makedirs(folder, exist_ok=True)
        if first:
            write_stage(folder, name, "source", source)
        write_stage(folder, name, stage, out)
        if last:
            write_stage(folder, name, "json", json.dumps(metadata, default=vars))
        return out

    return run


def _insert_stages(stages: dict) -> None:
    items = list(stages.items())
    # A Gluon kernel starts at Triton's ttgir stage (no ttir): Triton looks
    # its first stage up by that name, and TLE's primitives are not Gluon's,
    # so its stages keep their names and only the llir finish is added.
    gluon = "ttir" not in stages
    stages.clear()
    for key, fn in items:
        if key == "llir":
            fn = functools.partial(finish_llir, fn)
        stages[key if gluon else RENAMED.get(key, key)] = fn
        if gluon:
            continue
        for name, (after, pipeline) in STAGES.items():
            if key == after:
                stages[name] = functools.partial(run_stage, name, pipeline)
    root = dump_root()
    if root is not None:
        keys, compile_state = list(stages), {}
        for key in keys:
            stages[key] = _dumping(root, key, stages[key], key == keys[0], key == keys[-1], compile_state)


def _hook(backend, stages, options, language, capability):
    previous = _saved["previous_hook"]
    if previous is not None:
        previous(backend, stages, options, language, capability)
    if getattr(getattr(backend, "target", None), "backend", None) == "cuda":
        _insert_stages(stages)


_state.stages_hook = _hook


def _wrap_cache_manager(base):
    base = base or _default_cache_manager()

    class TLECacheManager(base):
        def __init__(self, key, *args, **kwargs):
            mixed = hashlib.sha256(f"{key}-tle-{fingerprint()}".encode()).hexdigest()
            super().__init__(mixed, *args, **kwargs)

        def get_group(self, filename):
            # A compiled kernel found in the cache would run no stage, so dump nothing.
            return None if dump_root() is not None else super().get_group(filename)

    TLECacheManager.__name__ = f"TLE{base.__name__}"
    TLECacheManager.__qualname__ = TLECacheManager.__name__
    return TLECacheManager


def _default_cache_manager():
    from triton.runtime.cache import FileCacheManager
    return FileCacheManager


def enable() -> None:
    """Route every Triton compile for NVIDIA through TLE's stages.

    Idempotent; pairs with ``disable()``. A hook installed before is chained:
    it runs first, then TLE inserts its stages. It also wraps Triton's cache
    manager (so TLE-compiled kernels are cached apart) and teaches Triton's
    frontend ``tle.range`` loops and TLE's atomics. TLE primitives that emit
    markers raise an error at compile time while TLE is disabled.

    Returns:
        None.

    Example::

        tle.enable()
        kernel[grid](x, out, N=1024)   # compiled with TLE's stages
        tle.disable()
    """
    with _lock:
        if is_enabled():
            return
        _saved["previous_hook"] = triton_knobs.runtime.add_stages_inspection_hook
        _saved["previous_cache"] = triton_knobs.cache.manager_class
        triton_knobs.runtime.add_stages_inspection_hook = _hook
        triton_knobs.cache.manager_class = _wrap_cache_manager(_saved["previous_cache"])
        _atomics.install()
        _pipeline.install()


def disable() -> None:
    """Undo ``enable()`` (restoring the hook and cache manager it replaced).

    Idempotent: a no-op while TLE is not enabled. Kernels already compiled
    and launched stay as they are.

    Returns:
        None.

    Example::

        tle.enable()
        try:
            kernel[grid](x, out, N=1024)
        finally:
            tle.disable()
    """
    with _lock:
        if not is_enabled():
            return
        triton_knobs.runtime.add_stages_inspection_hook = _saved["previous_hook"]
        triton_knobs.cache.manager_class = _saved["previous_cache"]
        _saved["previous_hook"] = _saved["previous_cache"] = None
        _atomics.uninstall()
        _pipeline.uninstall()


@contextlib.contextmanager
def enabled():
    """``with tle.enabled(): ...`` compiles through TLE inside the block only.

    If TLE was already enabled on entry it stays enabled after the block;
    otherwise ``disable()`` runs on exit, exceptions included.

    Returns:
        A context manager (yields None).

    Example::

        with tle.enabled():
            kernel[grid](x, out, N=1024)
        assert not tle.is_enabled()   # when it was not enabled before
    """
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
