"""``tle.compile``: compile one ``@triton.jit`` kernel through Triton + TLE."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from . import _bridge, _driver
from ._errors import MLIRError

# The order in which the NVIDIA backend (with TLE's stages) produces IR.
STAGE_ORDER = ("ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin")


def _parse_target(target) -> GPUTarget:
    if isinstance(target, GPUTarget):
        return target
    if target is None:
        try:
            return triton.runtime.driver.active.get_current_target()
        except Exception as e:  # no GPU / no driver on this machine
            raise RuntimeError("tle.compile: no GPU target available here; pass target="
                               "GPUTarget('cuda', 90, 32) or target='sm_90'") from e
    if isinstance(target, str):
        m = re.fullmatch(r"(?:cuda:|sm_)(\d+)a?", target.strip())
        if m:
            return GPUTarget("cuda", int(m.group(1)), 32)
    raise ValueError(f"tle.compile: cannot understand target {target!r}; "
                     "use a GPUTarget, 'cuda:90' or 'sm_90'")


def _source(caller, kernel, signature, constexprs, attrs) -> ASTSource:
    """Triton's ASTSource for ``kernel``; constexpr arguments may be left out of
    ``signature``, constexpr parameters with a default out of ``constexprs``
    (the default is used, as at a launch), and so may parameters whose default
    is None (a launch passes None as a constant); any other missing argument
    is a TypeError naming ``caller``."""
    constexprs = dict(constexprs or {})
    signature = dict(signature or {})
    for param in getattr(kernel, "params", []):
        if param.name in constexprs or param.name in signature:
            continue
        if (param.is_constexpr and param.default is not inspect.Parameter.empty) or param.default is None:
            constexprs[param.name] = param.default
    for name in constexprs:
        signature.setdefault(name, "constexpr")
    missing = [a for a in getattr(kernel, "arg_names", []) if a not in signature]
    if missing:
        raise TypeError(f"{caller}: no signature entry for argument(s) {', '.join(missing)}")
    return ASTSource(kernel, signature=signature, constexprs=constexprs, attrs=attrs)


def _name(kernel) -> str:
    return getattr(kernel, "__name__", None) or getattr(getattr(kernel, "fn", None), "__name__", "kernel")


def _autotune_config(caller, kernel, config):
    """The ``@triton.jit`` kernel under ``kernel`` and the ``triton.Config`` to
    compile it with (None for none).

    ``kernel`` is a JIT function or a ``triton.autotune`` Autotuner;
    ``config`` a ``triton.Config``, an index into the Autotuner's configs, or
    None (an Autotuner's first config)."""
    from triton.runtime.autotuner import Autotuner, Config, Heuristics

    configs = None
    if isinstance(kernel, Autotuner):
        configs = list(kernel.configs)
        name = getattr(kernel.base_fn, "__name__", "kernel")
        kernel = kernel.fn
        if isinstance(kernel, Heuristics):
            raise TypeError(f"{caller}: '{name}' is @triton.heuristics under @triton.autotune; heuristics are "
                            "computed from a launch's arguments, so compile the JIT function under them "
                            "(kernel.fn.fn) with their values passed as constexprs")
    elif isinstance(kernel, Heuristics):
        raise TypeError(f"{caller}: @triton.heuristics kernels are computed from a launch's arguments; compile "
                        "the JIT function under it (kernel.fn) with their values passed as constexprs")
    if config is None:
        return kernel, configs[0] if configs else None
    if isinstance(config, Config):
        return kernel, config
    if isinstance(config, bool) or not isinstance(config, int):
        raise TypeError(f"{caller}: config= takes a triton.Config or the index of one of an autotuned kernel's "
                        f"configs, got {config!r}")
    if configs is None:
        raise TypeError(f"{caller}: config={config} picks one of an autotuned kernel's configs, and "
                        f"'{_name(kernel)}' is not @triton.autotune; pass a triton.Config instead")
    if not -len(configs) <= config < len(configs):
        listing = "\n".join(f"  {i}: {c}" for i, c in enumerate(configs))
        raise IndexError(f"{caller}: config={config} is out of range: '{_name(kernel)}' has {len(configs)} "
                         f"autotune config(s):\n{listing}")
    return kernel, configs[config]


def _apply_config(caller, kernel, config, constexprs, opts):
    """``constexprs`` and ``opts`` with ``config``'s meta-parameters and
    compile options added; a value also given by the caller is an error, as
    at a launch of an autotuned kernel."""
    constexprs = dict(constexprs or {})
    if config is None:
        return constexprs, opts
    params = {p.name for p in getattr(kernel, "params", [])}
    for name, value in config.kwargs.items():
        if name not in params:
            raise TypeError(f"{caller}: autotune config {{{config}}} sets '{name}', which is not a parameter of "
                            f"'{_name(kernel)}' ({', '.join(sorted(params))})")
        if name in constexprs and constexprs[name] != value:
            raise ValueError(f"{caller}: '{name}' is given both by the autotune config ({value!r}) and by "
                             f"constexprs ({constexprs[name]!r}); leave it to the config or pick another config")
        constexprs[name] = value
    for name, value in config.all_kwargs().items():
        if name in config.kwargs:
            continue
        if name in opts and opts[name] != value:
            raise ValueError(f"{caller}: '{name}' is given both by the autotune config ({value!r}) and by the "
                             f"call ({opts[name]!r}); leave it to the config or pick another config")
        opts[name] = value
    return constexprs, opts


def compile(kernel, signature=None, constexprs=None, target=None, attrs=None, options=None, dump=None,
            config=None, **option_kwargs):
    """Compile ``kernel`` with TLE's stages and return Triton's ``CompiledKernel``.

    - ``signature``: ``{arg: type}`` for the runtime arguments (``"*fp32"``,
      ``"i32"``, ...); constexpr arguments may be left out.
    - ``constexprs``: ``{arg: value}`` for the ``tl.constexpr`` arguments.
    - ``target``: a ``GPUTarget``, ``"cuda:90"``/``"sm_90"``, or None for the
      current GPU.
    - ``options`` / keyword options: Triton's compile options (``num_warps``,
      ``num_stages``, ``num_ctas``, ...).
    - ``dump``: a folder; every stage's IR is written there as
      ``<kernel>.<stage>`` (``ttir``, ``tle-ttir``, ``triton-ttgir``, ``ttgir``,
      ``llir``, ``ptx``, ``cubin``). For kernels launched the usual way with
      ``tle.enable()``, set ``TLE_DUMP_IR=<dir>`` instead (``_bridge``).
    - ``attrs``: Triton's specialization attributes (``ASTSource``'s
      ``attrs``, e.g. ``{(0,): [["tt.divisibility", 16]]}``), or None.
    - ``config``: for a ``@triton.autotune`` kernel, which of its configs to
      compile with: an index into its ``configs`` or a ``triton.Config``;
      default the first. The config's meta-parameters become constexprs and
      its ``num_warps`` / ``num_stages`` / ``num_ctas`` / ``maxnreg`` compile
      options; giving one of them a different value in ``constexprs`` or the
      options is an error, as at a launch. A plain ``@triton.jit`` kernel takes
      a ``triton.Config`` too. A config's ``pre_hook`` runs at launches only.

    The result's ``.asm`` holds every stage, TLE's included.

    Example::

        k = tle.compile(bucket_offsets, signature={"counts_ptr": "*i32", "offsets_ptr": "*i32",
                                                   "total_ptr": "*i32"},
                        constexprs={"N": 256}, target="sm_90", num_warps=4)
        print(k.asm["ttgir"])
    """
    kernel, picked = _autotune_config("tle.compile", kernel, config)
    opts = dict(options or {})
    opts.update(option_kwargs)
    constexprs, opts = _apply_config("tle.compile", kernel, picked, constexprs, opts)
    src = _source("tle.compile", kernel, signature, constexprs, attrs)
    with _bridge.enabled():
        compiled = triton.compile(src, target=_parse_target(target), options=opts)
    if dump is not None:
        write_stages(compiled, dump)
    return compiled


def stages(compiled) -> list[str]:
    """The stage names present in ``compiled.asm``, in compile order.

    Args:
        compiled: a compiled kernel (from ``tle.compile`` or
            ``triton.compile``), read through its ``asm`` dict.

    Returns:
        A list of stage names: those of ``ttir``, ``tle-ttir``, ``triton-ttgir``,
        ``ttgir``, ``llir``, ``ptx``, ``cubin`` present, in that order,
        then any others sorted by name (``source`` excluded).

    Example::

        k = tle.compile(kernel, signature={"X": "*fp32"}, constexprs={"N": 256})
        print(tle.stages(k))   # ['ttir', 'tle-ttir', 'triton-ttgir', 'ttgir', ...]
    """
    present = [s for s in STAGE_ORDER if s in compiled.asm]
    return present + sorted(k for k in compiled.asm if k not in STAGE_ORDER and k != "source")


def write_stages(compiled, folder) -> list[Path]:
    """Write each stage of ``compiled`` to ``folder/<name>.<stage>``.

    Args:
        compiled: a compiled kernel (from ``tle.compile`` or
            ``triton.compile``); ``<name>`` is its ``name``.
        folder: a path (str or ``Path``); created, with its parents, if
            missing. Existing files of the same names are overwritten.

    Returns:
        The written files' paths (``pathlib.Path``), in the order of
        ``tle.stages(compiled)``; binary stages (``cubin``) are written as
        bytes.

    Example::

        k = tle.compile(kernel, signature={"X": "*fp32"}, constexprs={"N": 256})
        for path in tle.write_stages(k, "ir_dump"):
            print(path)   # ir_dump/kernel.ttir, ir_dump/kernel.tle-ttir, ...
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(_bridge.write_stage(folder, compiled.name, stage, compiled.asm[stage]))
            for stage in stages(compiled)]


def lower_dsa(ttir: str, source_name: str = "<tle:dsa>") -> str:
    """Run the DSA pipeline (``_bridge.DSA_PIPELINE``) on TTIR text holding
    ``tle.dsa`` markers; return the lowered module (docs/dsa.md). Raises
    ``tle.MLIRError`` with the diagnostics when it fails.

    Args:
        ttir: MLIR text of a TTIR module with ``tle.dsa`` markers, as
            ``tle.dsa_compile(...)["tle-ttir"]`` returns it.
        source_name: the file name the diagnostics give for ``ttir``.

    Returns:
        The module lowered to memref / linalg / bufferization form, as MLIR
        text.

    Example::

        out = tle.dsa_compile(vadd, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32"},
                              constexprs={"M": 16, "N": 16})
        assert tle.lower_dsa(out["tle-ttir"], source_name="vadd.ttir") == out["dsa"]
    """
    return _driver.run_pipeline(ttir, _bridge.DSA_PIPELINE, source_name=source_name)


def dsa_compile(kernel, signature=None, constexprs=None, target="sm_90", attrs=None, options=None, config=None,
                **option_kwargs):
    """Compile a kernel using ``tle.dsa`` to TTIR and lower it for DSA targets.

    pip Triton has no DSA backend, so the kernel goes through Triton's NVIDIA
    frontend up to its ``ttir`` stage (``target`` only picks that frontend's
    options), then TLE's ``tle-ttir`` stage (every marker verified at the
    user's line), then ``lower_dsa``. Returns ``{"ttir", "tle-ttir", "dsa"}``
    as text. The NVIDIA TTGIR stage would reject ``tle.dsa`` ops, so this
    stops before it. ``config`` picks an autotuned kernel's config, as in
    ``tle.compile``.

    Args:
        kernel: a ``@triton.jit`` (or ``@triton.autotune``) kernel.
        signature: ``{arg: type}`` for the runtime arguments (``"*fp32"``,
            ``"i32"``, ...), as for ``tle.compile``.
        constexprs: ``{arg: value}`` for the ``tl.constexpr`` arguments.
        target: the NVIDIA target whose frontend options are used
            (``"sm_90"``, ``"cuda:90"`` or a ``GPUTarget``).
        attrs: Triton's specialization attributes, or None.
        options: Triton's compile options (a dict), or None; keyword
            options are added to them.
        config: for an autotuned kernel, an index into its ``configs`` or a
            ``triton.Config``; default the first.

    Returns:
        A dict of MLIR texts: ``"ttir"``, ``"tle-ttir"`` and ``"dsa"`` (the
        lowered module).

    Example::

        @triton.jit
        def vadd(X, Y, OUT, M: tl.constexpr, N: tl.constexpr):
            offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
            a = tle.dsa.alloc([M, N], dtype=tl.float32)
            b = tle.dsa.alloc([M, N], dtype=tl.float32)
            tle.dsa.copy(X + offs, a)
            tle.dsa.copy(Y + offs, b)
            tle.dsa.add(a, b, a)
            tle.dsa.copy(a, OUT + offs)

        out = tle.dsa_compile(vadd, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32"},
                              constexprs={"M": 16, "N": 16})
        print(out["dsa"])   # memref.alloc, memref.copy, linalg.add ...
    """
    from triton._C.libtriton import ir
    from triton.compiler.compiler import make_backend

    gpu_target = _parse_target(target)
    kernel, picked = _autotune_config("tle.dsa_compile", kernel, config)
    opts = dict(options or {})
    opts.update(option_kwargs)
    constexprs, opts = _apply_config("tle.dsa_compile", kernel, picked, constexprs, opts)
    src = _source("tle.dsa_compile", kernel, signature, constexprs, attrs)
    backend = make_backend(gpu_target)
    parsed = backend.parse_options(dict(opts, **src.parse_options()))
    stages_fns = {}
    backend.add_stages(stages_fns, parsed, src.language)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    metadata = {"target": gpu_target, **parsed.__dict__}
    with _bridge.enabled():
        module = src.make_ir(gpu_target, parsed, backend.get_codegen_implementation(parsed),
                             backend.get_module_map(), context)
        ttir = stages_fns["ttir"](module, metadata)
    out = {"ttir": ttir.str()}
    pipeline = _bridge.pipeline_for(_bridge.TTIR_PIPELINE, metadata)
    try:
        out["tle-ttir"] = _driver.run_pipeline(out["ttir"], pipeline, source_name="<tle:tle-ttir>", debug_info=True)
    except MLIRError as e:
        raise MLIRError("TLE stage 'tle-ttir' failed:\n" + "\n".join(e.diagnostics)) from None
    out["dsa"] = lower_dsa(out["tle-ttir"], source_name=f"<tle:dsa:{getattr(kernel, '__name__', 'kernel')}>")
    return out
