"""TLE-Raw: per-thread MLIR, written with the MLIR Python bindings, called from kernels.

    @tle.raw.language(name="mlir")
    @tle.hardware_constraint(threads_dim=1, sync_scope="block")
    def vector_add_tile(x: Annotated[ir.RankedTensorType, "tensor<1024xf32>"], ...):
        tidx = nvvm.ThreadIdXOp(ir.IntegerType.get_signless(32)).res
        ...
        tensor.insert(result, output, [idx])

    # inside a @triton.jit kernel:
    tle.call(vector_add_tile, args=[x, y, output], hardware={"threads": (BLOCK_SIZE,)},
             layout={x: {"space": "shared", "order": [0]}, ...})

Every thread of the program runs the function's body once, as one thread of a
thread block of shape ``hardware["threads"]``; tensor arguments are staged in
shared memory and the body reads them with ``tensor.extract`` and writes them
in place with ``tensor.insert``. Arguments the body writes come back: the
kernel variable passed for one holds the new value after the call, and
``tle.call`` returns them. The whole contract is docs/raw.md.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import math
import typing

from triton.language import core as tlc
from triton.runtime.jit import JITCallable

from . import _markers
from ._markers import TLEUsageError, describe
from .buffers import alloc_buffer, memdesc_type
from .core import _require_enabled
from ._gpu_semantic import _local_load, _local_store

# The public names of tle.raw.
__all__ = ["InOut", "Input", "RawFunction", "call", "dialect", "hardware_constraint", "language", "vassert", "vprintf"]

LANGUAGES = ("mlir",)
SYNC_SCOPES = ("block",)
HARDWARE_KEYS = ("threads",)
LAYOUT_KEYS = ("space", "order")
SPACES = ("shared",)
THREADS_PER_WARP = 32

# What a body may hold; the same list as lib/Dialect/TLE/IR/Raw.cpp, whose
# verifier is the authority (this one reports at the user's line, early).
WHOLE_DIALECTS = ("arith", "math", "index")
ALLOWED_OPS = frozenset(
    ["scf.for", "scf.if", "scf.while", "scf.condition", "scf.yield",
     "tensor.extract", "tensor.insert", "tensor.dim",
     "nvvm.read.ptx.sreg.laneid", "nvvm.read.ptx.sreg.warpsize", "nvvm.barrier0", "nvvm.shfl.sync"]
    + [f"nvvm.read.ptx.sreg.{r}.{a}" for r in ("tid", "ntid", "ctaid", "nctaid") for a in "xyz"])

# What a @tle.raw.dialect body may hold (FlagTree's form): every op of these
# dialects and gpu.printf (tle.raw.vprintf); lib/Dialect/TLE/IR/Raw.cpp again.
DIALECT_FORM_DIALECTS = ("arith", "math", "index", "scf", "memref", "llvm", "nvvm")
DIALECT_FORM_OPS = frozenset(["gpu.printf"])
SHARED_ADDRESS_SPACE = 3

# Triton dtype -> the MLIR element type the annotation must spell.
_MLIR_TYPES = {
    "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
    "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64",
}
# MLIR scalar type -> Triton dtype, for constant scalar arguments.
_TRITON_SCALARS = {"i1": tlc.int1, "i8": tlc.int8, "i16": tlc.int16, "i32": tlc.int32, "i64": tlc.int64,
                   "f16": tlc.float16, "bf16": tlc.bfloat16, "f32": tlc.float32, "f64": tlc.float64}


def _bindings():
    try:
        from mlir import ir
    except ImportError as e:
        raise TLEUsageError("TLE-Raw needs the MLIR Python bindings (pip install "
                            f"xtc-mlir-python-bindings==22.1.8.4): {e}") from None
    return ir


class HardwareConstraint:
    """What ``@tle.hardware_constraint`` records: checked by ``tle.call``."""

    def __init__(self, threads_dim: int, sync_scope: str):
        self.threads_dim = threads_dim
        self.sync_scope = sync_scope

    def __repr__(self):
        return f"hardware_constraint(threads_dim={self.threads_dim}, sync_scope={self.sync_scope!r})"


def hardware_constraint(threads_dim: int = 1, sync_scope: str = "block"):
    """Declare the thread-block shape a raw function expects.

    ``threads_dim``: how many dimensions ``tle.call(..., hardware={"threads":
    (...)})`` gives (1 to 3). ``sync_scope``: the scope the body's barriers
    synchronize; only ``"block"`` (the whole program) exists. Without the
    decorator, ``tle.call`` accepts any 1 to 3 dimensions. It may go above or
    below ``@tle.raw.language``.

    Args:
        threads_dim: 1, 2 or 3.
        sync_scope: ``"block"``.

    Returns:
        A decorator that records the constraint on the function (or
        ``RawFunction``) and returns it.

    Example::

        @tle.raw.language(name="mlir")
        @tle.hardware_constraint(threads_dim=1, sync_scope="block")
        def vector_add_tile(x: Annotated[ir.RankedTensorType, "tensor<1024xf32>"],
                            y: Annotated[ir.RankedTensorType, "tensor<1024xf32>"],
                            output: Annotated[ir.RankedTensorType, "tensor<1024xf32>"]):
            i32 = ir.IntegerType.get_signless(32)
            tid = nvvm.ThreadIdXOp(i32).res
            idx = arith.index_cast(ir.IndexType.get(), tid)
            tensor.insert(arith.addf(tensor.extract(x, [idx]), tensor.extract(y, [idx])), output, [idx])
    """
    if isinstance(threads_dim, bool) or not isinstance(threads_dim, int) or not 1 <= threads_dim <= 3:
        raise TLEUsageError(f"tle.hardware_constraint: threads_dim must be 1, 2 or 3, got {threads_dim!r}")
    if sync_scope not in SYNC_SCOPES:
        raise TLEUsageError(f"tle.hardware_constraint: sync_scope {sync_scope!r} is not supported; "
                            f"supported: {', '.join(map(repr, SYNC_SCOPES))}")
    constraint = HardwareConstraint(threads_dim, sync_scope)

    def decorate(fn):
        if isinstance(fn, RawFunction):
            fn.constraint = constraint
        elif callable(fn):
            fn.__tle_hardware_constraint__ = constraint
        else:
            raise TLEUsageError(f"tle.hardware_constraint decorates a function, got {fn!r}")
        return fn

    return decorate


def language(name: str = "mlir"):
    """Mark a function whose body builds MLIR with the bindings (``name="mlir"``).

    Each parameter is annotated ``Annotated[ir.RankedTensorType,
    "tensor<...>"]`` or, for a scalar, e.g. ``Annotated[ir.IntegerType,
    "i32"]`` / ``Annotated[ir.F32Type, "f32"]``; the body may use only the
    ops docs/raw.md lists (``arith``, ``math``, ``index``, ``scf``,
    ``tensor.extract`` / ``insert`` / ``dim`` and a few ``nvvm`` ops).

    Args:
        name: the language, ``"mlir"`` (the only one).

    Returns:
        A decorator turning a plain Python function into a
        ``tle.raw.RawFunction``, callable only through ``tle.call``.

    Example::

        @tle.raw.language(name="mlir")
        @tle.hardware_constraint(threads_dim=1, sync_scope="block")
        def vector_add_tile(x: Annotated[ir.RankedTensorType, "tensor<1024xf32>"],
                            y: Annotated[ir.RankedTensorType, "tensor<1024xf32>"],
                            output: Annotated[ir.RankedTensorType, "tensor<1024xf32>"]):
            i32 = ir.IntegerType.get_signless(32)
            tid = nvvm.ThreadIdXOp(i32).res
            idx = arith.index_cast(ir.IndexType.get(), tid)
            tensor.insert(arith.addf(tensor.extract(x, [idx]), tensor.extract(y, [idx])), output, [idx])
    """
    if name not in LANGUAGES:
        raise TLEUsageError(f"tle.raw.language name: unknown TLE-Raw language {name!r}; supported: "
                            f"{', '.join(map(repr, LANGUAGES))}")

    def decorate(fn):
        if isinstance(fn, RawFunction) or not inspect.isfunction(fn):
            raise TLEUsageError(f"tle.raw.language decorates a plain Python function, got {fn!r}")
        return RawFunction(fn, name, getattr(fn, "__tle_hardware_constraint__", None))

    return decorate


class _Param:

    def __init__(self, name, kind, spelling):
        self.name = name
        # @tle.raw.language: the annotation's class (ir.RankedTensorType, ...);
        # @tle.raw.dialect: "Input" or "InOut".
        self.kind = kind
        self.spelling = spelling  # "tensor<1024xf32>"


class RawFunction(JITCallable):
    """A ``@tle.raw.language`` or ``@tle.raw.dialect`` function: only ``tle.call`` (``tle.raw.call``) may call it.

    A ``JITCallable`` so that kernels may name it (Triton's code generator
    admits JITCallable globals) and so that its source is part of the cache
    key of every kernel that references it (``cache_key`` below: the
    function's source, annotations, language and hardware constraint; helpers
    it calls are not followed).

    Made by ``@tle.raw.language`` or ``@tle.raw.dialect``, not by hand;
    calling it directly is an error that points to ``tle.call`` /
    ``tle.raw.call``.

    Args:
        fn: the plain Python function whose body builds the MLIR.
        language: ``"mlir"``.
        constraint: the ``@tle.hardware_constraint`` record, or None.
        form: ``"language"`` (``@tle.raw.language``, the wiki form) or
            ``"dialect"`` (``@tle.raw.dialect``, FlagTree's shipped form).

    Example::

        f = tle.raw.language(name="mlir")(body)   # a RawFunction
        f.language, f.constraint, f.form          # "mlir", None, "language"
    """

    def __init__(self, fn, language: str, constraint: HardwareConstraint | None, form: str = "language"):
        super().__init__(fn)
        self.language = language
        self.constraint = constraint
        self.form = form  # "language" (@tle.raw.language) or "dialect" (@tle.raw.dialect)

    @property
    def cache_key(self) -> str:
        h = hashlib.sha256()
        h.update(self._src.encode())
        h.update(repr((self.language, self.constraint, self.form, self.fn.__annotations__)).encode())
        return h.hexdigest()

    def __call__(self, *args, **kwargs):
        how = (f"tle.raw.call({self.__name__}, [inouts...], [inputs...])" if self.form == "dialect" else
               f"tle.call({self.__name__}, args=[...], ...)")
        raise TLEUsageError(f"TLE-Raw function '{self.__name__}' can only be called through {how} inside a kernel")

    def __repr__(self):
        return f"<TLE-Raw {self.language} function {self.__name__}>"

    def params(self) -> list[_Param]:
        if self.form == "dialect":
            return _dialect_params(self)
        ir = _bindings()
        try:
            hints = typing.get_type_hints(self.fn, include_extras=True)
        except Exception as e:
            raise TLEUsageError(f"cannot read the annotations of TLE-Raw function '{self.__name__}': {e}") from None
        params = []
        for name, p in inspect.signature(self.fn).parameters.items():
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                raise TLEUsageError(f"TLE-Raw function '{self.__name__}': parameter '{name}' must be a plain "
                                    "positional parameter")
            hint = hints.get(name)
            meta = getattr(hint, "__metadata__", None)
            kind = getattr(hint, "__origin__", None)
            if not meta or not isinstance(meta[0], str) or not isinstance(kind, type):
                raise TLEUsageError(
                    f"parameter '{name}' of TLE-Raw function '{self.__name__}' needs an annotation "
                    f"Annotated[ir.RankedTensorType, \"tensor<...>\"] (or Annotated[ir.IntegerType, \"i32\"], "
                    f"Annotated[ir.F32Type, \"f32\"] for a scalar), got {hint!r}")
            params.append(_Param(name, kind, meta[0]))
        del ir
        return params

    def _where(self, error: BaseException) -> str:
        """`` at FILE:LINE (`source`)``: the last line of the body's file the
        error's traceback passed through (the user's line), or ""."""
        import traceback
        code = getattr(self.fn, "__code__", None)
        frames = [f for f in traceback.extract_tb(error.__traceback__)
                  if code is not None and f.filename == code.co_filename]
        if not frames:
            return ""
        frame = frames[-1]
        return f" at {frame.filename}:{frame.lineno}" + (f" (`{frame.line.strip()}`)" if frame.line else "")

    def build(self, params: list[_Param]) -> tuple[str, list[bool]]:
        """The function as MLIR text (a module holding one func.func) and,
        per parameter, whether the body writes it."""
        ir = _bindings()
        from mlir.dialects import func

        _exclude_from_tracebacks()
        with ir.Context(), ir.loc_tracebacks(max_depth=1):
            with ir.Location.unknown():
                module = ir.Module.create()
                types = [ir.Type.parse(p.spelling) for p in params]
                with ir.InsertionPoint(module.body):
                    fop = func.FuncOp(self.__name__, (types, []))
                    entry = fop.add_entry_block()
            # Ops take their Python line (loc_tracebacks); helpers that
            # need an ambient location (scf.ForOp's block) get an unknown one.
            with ir.InsertionPoint(entry), ir.Location.unknown(), _flagtree_bindings():
                try:
                    self.fn(*entry.arguments)
                except TLEUsageError:
                    raise
                except Exception as e:
                    raise TLEUsageError(f"building TLE-Raw function '{self.__name__}' failed{self._where(e)}: "
                                        f"{type(e).__name__}: {e}") from e
                func.ReturnOp([])
            try:
                module.operation.verify()
            except ir.MLIRError as e:
                raise TLEUsageError(f"TLE-Raw function '{self.__name__}' does not verify: "
                                    f"{_diagnostics(e)}") from None
            written = [False] * len(params)
            whole, allowed = ((DIALECT_FORM_DIALECTS, DIALECT_FORM_OPS) if self.form == "dialect" else
                              (WHOLE_DIALECTS, ALLOWED_OPS))
            for op in _walk(entry):
                name = op.name
                dialect = name.split(".", 1)[0]
                if name != "func.return" and dialect not in whole and name not in allowed:
                    raise TLEUsageError(f"op '{name}' is not supported in TLE-Raw function '{self.__name__}' "
                                        f"(at {op.location}); docs/raw.md lists the supported ops")
                if name == "tensor.insert":
                    root = _root_argument(ir, op.operands[1])
                    if root is not None:
                        written[root] = True
            # The generic form for @tle.raw.dialect bodies: some custom
            # parsers of the 22.1 bindings cannot read back what their printers
            # wrote with debug info (`nvvm.barrier id = %a number_of_threads = %b
            # loc(#loc7)`: "undefined symbol alias id").
            text = module.operation.get_asm(enable_debug_info=True,
                                            print_generic_op_form=self.form == "dialect")
        return text, written


def _exclude_from_tracebacks():
    """Ops built by this file's helpers (``vprintf``, ``vassert``, the
    ``nvvm.barrier`` shim) take the location of the user's line that called
    them, not of this file (the bindings skip their own files the same way)."""
    from mlir._mlir_libs import _mlir

    exclude = getattr(getattr(_mlir, "globals", None), "register_traceback_file_exclusion", None)
    if exclude is not None:
        exclude(__file__)


class _flagtree_bindings:
    """While a body is built: the calls FlagTree's tutorials make that the
    22.1 bindings spell differently. ``nvvm.barrier(barrier_id=...,
    number_of_threads=...)``: the 22.1 builder requires the optional result
    type ``res`` first; here it defaults to None (no result). Restored
    afterwards."""

    def __enter__(self):
        from mlir.dialects import nvvm

        self._saved = nvvm.barrier
        original = nvvm.barrier

        def barrier(res=None, **kwargs):
            return original(res, **kwargs)

        barrier.__doc__ = original.__doc__
        nvvm.barrier = barrier
        return self

    def __exit__(self, *exc):
        from mlir.dialects import nvvm

        nvvm.barrier = self._saved
        return False


def _diagnostics(error) -> str:
    """An MLIRError's diagnostics, each with its location (the body's Python line)."""
    notes = getattr(error, "error_diagnostics", None) or []
    if not notes:
        return str(error)
    return "; ".join(f"{d.message} (at {d.location})" for d in notes)


def _walk(block):
    for op in block.operations:
        yield op
        for region in op.regions:
            for nested in region.blocks:
                yield from _walk(nested)


def _root_argument(ir, value):
    """The function argument a tensor.insert chain is rooted at, or None."""
    while isinstance(value, ir.OpResult):
        owner = value.owner
        if owner.name != "tensor.insert":
            return None
        value = owner.operands[1]
    return value.arg_number if isinstance(value, ir.BlockArgument) else None


def _mlir_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode())
    return '"' + "".join(out) + '"'


def _py(value):
    """A compile-time value as plain Python (tuples of constexprs as lists)."""
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, (tlc.tuple, tuple, list)):
        return [_py(v) for v in value]
    return value


def call(fn, args, hardware=None, layout=None):
    """``tle.call(fn, args, hardware=None, layout=None)`` / ``tle.raw.call(fn, inouts, inputs)``: run a TLE-Raw function.

    Only valid inside a kernel compiled with TLE enabled (the code generator
    handles the call itself, see ``_install``); called directly it explains that.
    The form is ``fn``'s (docs/raw.md):

    - ``@tle.raw.language`` (the wiki form), ``tle.call(fn, args,
      hardware=None, layout=None)``: every thread of the program runs
      ``fn``'s body once, as one thread of a thread block of shape
      ``hardware["threads"]``. Tensor arguments are staged in shared
      memory; a tensor argument the body writes (with ``tensor.insert``) is
      an output: the kernel variable passed for it holds the new contents
      after the call.
    - ``@tle.raw.dialect`` (FlagTree's shipped form), ``tle.raw.call(fn,
      [inouts...], [inputs...])`` (or ``tle.raw.call(fn, [args...])`` in
      parameter order): ``inouts`` go to the ``InOut`` parameters, ``inputs``
      to the ``Input`` ones, in order. Memref arguments are staged in shared
      memory, pointers and scalars passed as they are; the body runs once
      per thread with the hardware's thread ids.

    Args:
        fn: a ``tle.raw.RawFunction`` (``@tle.raw.language`` or ``@tle.raw.dialect``).
        args: wiki form: a list or tuple with one value per parameter of
            ``fn``: a tensor of the annotated shape and element type, or a
            scalar of the annotated type (a Python int or float constant
            becomes one). Shipped form: the ``inouts`` list (tensors for the
            ``InOut`` memref parameters).
        hardware: wiki form: None (``threads = (num_warps * 32,)``), or
            ``{"threads": (sizes...)}``: 1 to 3 positive compile-time ints
            whose product is ``num_warps * 32``, as many as the function's
            ``threads_dim``. Shipped form: the ``inputs`` list (tensors for
            memrefs, scalar pointers for ``!llvm.ptr``, scalars).
        layout: wiki form only: None, or a dict keyed by argument variables
            (tensor arguments only) with values ``{"space": "shared",
            "order": [...]}``; ``order`` is the staging buffer's dimension
            order, fastest first.

    Returns:
        Wiki form: the outputs. Shipped form: the ``InOut`` tensors after the
        body. None for none, one tensor, or a tuple for several.

    Example::

        @triton.jit
        def add_kernel(x_ptr, y_ptr, output_ptr, BLOCK_SIZE: tl.constexpr):
            offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
            x = tl.load(x_ptr + offsets)
            y = tl.load(y_ptr + offsets)
            output = tl.zeros_like(x)
            tle.call(vector_add_tile, args=[x, y, output], hardware={"threads": (BLOCK_SIZE,)},
                     layout={x: {"space": "shared", "order": [0]}})
            tl.store(output_ptr + offsets, output)

        @triton.jit
        def softmax_kernel(X, Y, N: tl.constexpr):
            x = tl.load(X + tl.program_id(0) * N + tl.arange(0, N))
            y = tle.raw.call(row_softmax, [tl.zeros_like(x)], [x, tl.zeros_like(x)])
            tl.store(Y + tl.program_id(0) * N + tl.arange(0, N), y)
    """
    raise TLEUsageError("tle.call is only valid inside a @triton.jit kernel compiled with TLE's stages: "
                        "call tle.enable() before compiling, or compile with tle.compile(...)")


# Triton's dependency scan skips builtins; the code generator hands the call
# to _codegen_call before it would treat it as one.
call.__triton_builtin__ = True


class _Pairs:
    """A dict literal of a kernel, evaluated: (key, value) pairs; keys may be tensors."""

    def __init__(self, pairs):
        self.pairs = pairs


def _evaluate(generator, node):
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise TLEUsageError("tle.call: '**' is not supported in a hardware/layout dict")
        return _Pairs([(generator.visit(k), _evaluate(generator, v)) for k, v in zip(node.keys, node.values)])
    value = tlc._unwrap_if_constexpr(generator.visit(node))
    if isinstance(value, dict):
        return _Pairs(list(value.items()))
    return value


def _codegen_call(generator, node: ast.Call):
    """Triton's code generator calls this for ``tle.call(...)`` with the AST
    (``CodeGenerator.statically_implemented_functions``): dict literals are
    evaluated here, and variables passed for written arguments are rebound."""
    # FlagTree's form, tle.raw.call(fn, inouts, inputs), by fn's decorator.
    fn_node = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "fn"), None)
    if fn_node is not None:
        fn = tlc._unwrap_if_constexpr(generator.visit(fn_node))
        if isinstance(fn, RawFunction) and fn.form == "dialect":
            return _codegen_dialect_call(generator, node, fn)
    names = ("fn", "args", "hardware", "layout")
    if len(node.args) > len(names):
        raise TLEUsageError(f"tle.call takes at most {len(names)} arguments (fn, args, hardware, layout)")
    bound = dict(zip(names, node.args))
    for kw in node.keywords:
        if kw.arg is None:
            raise TLEUsageError("tle.call does not take **kwargs")
        if kw.arg not in names:
            raise TLEUsageError(f"tle.call got an unknown keyword argument '{kw.arg}'")
        if kw.arg in bound:
            raise TLEUsageError(f"tle.call got '{kw.arg}' twice")
        bound[kw.arg] = kw.value
    if "fn" not in bound or "args" not in bound:
        raise TLEUsageError("tle.call needs the raw function and its args: tle.call(fn, args=[...])")
    fn = tlc._unwrap_if_constexpr(generator.visit(bound["fn"]))
    if not isinstance(fn, RawFunction):
        raise TLEUsageError(f"tle.call expects a @tle.raw.language function as fn, got {describe(fn)}")
    arg_node = bound["args"]
    if isinstance(arg_node, (ast.List, ast.Tuple)):
        arg_nodes = list(arg_node.elts)
        values = [generator.visit(n) for n in arg_nodes]
    else:
        arg_nodes = None
        values = tlc._unwrap_if_constexpr(generator.visit(arg_node))
        if not isinstance(values, (tlc.tuple, tuple, list)):
            raise TLEUsageError(f"tle.call args must be a list or tuple, got {describe(values)}")
        values = list(values)
    hardware = _evaluate(generator, bound["hardware"]) if "hardware" in bound else None
    layout = _evaluate(generator, bound["layout"]) if "layout" in bound else None
    new_values, positions = _emit(fn, values, hardware, layout, generator.semantic)
    outputs = []
    for index, value in zip(positions, new_values):
        outputs.append(value)
        if arg_nodes is not None and isinstance(arg_nodes[index], ast.Name):
            generator.set_value(arg_nodes[index].id, value)
    if not outputs:
        return None
    return outputs[0] if len(outputs) == 1 else tlc.tuple(outputs)


def _threads(fn: RawFunction, hardware, num_warps: int) -> list[int]:
    program = num_warps * THREADS_PER_WARP
    threads = None
    if hardware is not None:
        if not isinstance(hardware, _Pairs):
            raise TLEUsageError(f"tle.call hardware must be a dict, got {describe(hardware)}")
        for key, value in hardware.pairs:
            key = _py(key)
            if key not in HARDWARE_KEYS:
                raise TLEUsageError(f"tle.call: unknown hardware key {key!r}; known: "
                                    f"{', '.join(map(repr, HARDWARE_KEYS))}")
            threads = _py(value)
            if isinstance(threads, int):
                threads = [threads]
            if (not isinstance(threads, list) or not threads
                    or not all(isinstance(t, int) and not isinstance(t, bool) and t > 0 for t in threads)):
                raise TLEUsageError(f"tle.call: hardware 'threads' must be a tuple of positive compile-time "
                                    f"integers, got {describe(threads)}")
    want_dims = fn.constraint.threads_dim if fn.constraint else None
    if threads is None:
        if want_dims not in (None, 1):
            raise TLEUsageError(f"TLE-Raw function '{fn.__name__}' has threads_dim={want_dims}: tle.call needs "
                                f"hardware={{'threads': (...)}} with {want_dims} sizes")
        threads = [program]
    if want_dims is not None and len(threads) != want_dims:
        raise TLEUsageError(f"TLE-Raw function '{fn.__name__}' has threads_dim={want_dims}, but tle.call gives "
                            f"hardware threads {tuple(threads)} ({len(threads)} dimension(s))")
    if len(threads) > 3:
        raise TLEUsageError(f"tle.call: hardware threads {tuple(threads)} has more than 3 dimensions")
    if math.prod(threads) != program:
        raise TLEUsageError(f"tle.call runs '{fn.__name__}' on every thread of the program: hardware threads "
                            f"{tuple(threads)} ({math.prod(threads)} threads) must equal num_warps x "
                            f"{THREADS_PER_WARP} = {num_warps} x {THREADS_PER_WARP} = {program}")
    return threads


def _orders(fn: RawFunction, values, layout) -> list[list[int]]:
    orders = [list(reversed(range(len(v.shape)))) if _is_block(v) else [] for v in values]
    if layout is None:
        return orders
    if not isinstance(layout, _Pairs):
        raise TLEUsageError(f"tle.call layout must be a dict keyed by the args, got {describe(layout)}")
    for key, spec in layout.pairs:
        positions = [i for i, v in enumerate(values) if v is key]
        if not positions:
            raise TLEUsageError(f"tle.call: layout key {describe(key)} is not one of the args passed to "
                                f"'{fn.__name__}' (keys are the argument variables themselves)")
        if not isinstance(spec, _Pairs):
            raise TLEUsageError(f"tle.call: the layout of an argument must be a dict like "
                                f"{{'space': 'shared', 'order': [0]}}, got {describe(spec)}")
        for position in positions:
            if not _is_block(values[position]):
                raise TLEUsageError(f"tle.call: argument {position} of '{fn.__name__}' is a scalar; "
                                    "only tensor arguments have a layout")
            rank = len(values[position].shape)
            for name, value in spec.pairs:
                name, value = _py(name), _py(value)
                if name not in LAYOUT_KEYS:
                    raise TLEUsageError(f"tle.call: unknown layout key {name!r}; known: "
                                        f"{', '.join(map(repr, LAYOUT_KEYS))}")
                if name == "space" and value not in SPACES:
                    raise TLEUsageError(f"tle.call: layout space {value!r} is not supported; supported: "
                                        f"{', '.join(map(repr, SPACES))} (arguments are staged in shared memory)")
                if name == "order":
                    if not isinstance(value, list) or sorted(value) != list(range(rank)):
                        raise TLEUsageError(f"tle.call: layout order {value!r} of argument {position} is not a "
                                            f"permutation of its {rank} dimension(s)")
                    orders[position] = value
    return orders


def _is_block(value) -> bool:
    return isinstance(value, tlc.tensor) and value.type.is_block()


def _check_args(fn: RawFunction, params: list[_Param], values, _semantic) -> list:
    """Checks every argument against its annotation; returns the arguments as
    tensors (constant scalars made tensors of the annotated type)."""
    ir = _bindings()
    if len(values) != len(params):
        raise TLEUsageError(f"tle.call args: TLE-Raw function '{fn.__name__}' takes {len(params)} argument(s), "
                            f"tle.call passes {len(values)}")
    out = []
    with ir.Context():
        for index, (p, value) in enumerate(zip(params, values)):
            where = f"argument {index} ('{p.name}') of TLE-Raw function '{fn.__name__}'"
            try:
                parsed = ir.Type.parse(p.spelling)
            except Exception:
                raise TLEUsageError(f"{where}: cannot parse its annotation {p.spelling!r} as an MLIR type") from None
            if not isinstance(parsed, p.kind):
                raise TLEUsageError(f"{where}: annotation {p.spelling!r} is not a {p.kind.__name__}")
            value = tlc._unwrap_if_constexpr(value)
            if isinstance(parsed, ir.RankedTensorType):
                tensor_type = parsed
                if not _is_block(value):
                    raise TLEUsageError(f"{where} is annotated {p.spelling} but tle.call passes {describe(value)}, "
                                        "not a tensor")
                got = _MLIR_TYPES.get(value.dtype.name)
                shape = [int(tlc._unwrap_if_constexpr(d)) for d in value.shape]
                spelled = f"tensor<{'x'.join(str(d) for d in shape)}x{got or value.dtype}>"
                if (list(tensor_type.shape) != shape or got is None
                        or str(tensor_type.element_type) != got):
                    raise TLEUsageError(f"{where} is annotated {p.spelling} but tle.call passes a "
                                        f"{spelled} ({value.dtype} tensor of shape {shape})")
                out.append(value)
                continue
            spelled = str(parsed)
            dtype = _TRITON_SCALARS.get(spelled)
            if dtype is None:
                raise TLEUsageError(f"{where}: annotation {p.spelling!r} is neither a ranked tensor nor an "
                                    f"integer or float scalar ({', '.join(_TRITON_SCALARS)})")
            if isinstance(value, tlc.tensor):
                if value.type.is_block() or _MLIR_TYPES.get(value.dtype.name) != spelled:
                    raise TLEUsageError(f"{where} is annotated {spelled} but tle.call passes a {value.type}")
                out.append(value)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                if isinstance(value, float) and not spelled.startswith(("f", "bf")):
                    raise TLEUsageError(f"{where} is annotated {spelled} but tle.call passes {describe(value)}")
                out.append(_semantic.scalar_constant(value, dtype))
            else:
                raise TLEUsageError(f"{where} is annotated {spelled} but tle.call passes {describe(value)}")
    return out


def _emit(fn: RawFunction, values, hardware, layout, _semantic):
    """The ``tle.dsl_region`` marker (docs/markers.md, "Regions"). Returns the
    new values of the written tensor arguments and their positions in args."""
    _require_enabled("tle.call", _semantic)
    params = fn.params()
    values = _check_args(fn, params, list(values), _semantic)
    shapes = {tuple(int(tlc._unwrap_if_constexpr(d)) for d in v.shape) for v in values if _is_block(v)}
    if not shapes:
        raise TLEUsageError(f"tle.call of '{fn.__name__}' passes no tensor argument")
    if len(shapes) > 1:
        raise TLEUsageError(f"tle.call of '{fn.__name__}': the tensor arguments must have one shape, got "
                            f"{sorted(list(s) for s in shapes)}")
    threads = _threads(fn, hardware, _semantic.builder.options.num_warps)
    orders = _orders(fn, values, layout)
    text, written = fn.build(params)

    shape = list(next(iter(shapes)))
    operands, scalars = [], []
    for index, value in enumerate(values):
        if _is_block(value):
            operands.append(value)
        else:
            scalars.append(index)
            operands.append(_semantic.splat(value, shape))
    attrs = {
        "language": _mlir_string(fn.language),
        "name": _mlir_string(fn.__name__),
        "threads": ("i64-array", threads),
        "sync_scope": _mlir_string(fn.constraint.sync_scope if fn.constraint else "block"),
        "orders": ("list", [_markers._format_attr(("i64-array", o)) for o in orders]),
        "tle.marker.region": _mlir_string(text),
    }
    if scalars:
        attrs["tle.marker.scalar_operands"] = ("i32-array", scalars)
    tensor_positions = [i for i, v in enumerate(values) if _is_block(v)]
    results = _markers.emit("dsl_region", attrs, operands, [values[i].dtype for i in tensor_positions],
                            _semantic=_semantic)
    new_values = [r for r, i in zip(results, tensor_positions) if written[i]]
    return new_values, [i for i in tensor_positions if written[i]]


# --- FlagTree's form: @tle.raw.dialect, Input / InOut, tle.raw.call(fn, inouts, inputs) ---


class _Role:
    """What ``Input["..."]`` / ``InOut["..."]`` stand for in an annotation."""

    def __init__(self, role: str, spelling: str):
        self.role = role  # "Input" or "InOut"
        self.spelling = spelling

    def __repr__(self):
        return f"{self.role}[{self.spelling!r}]"

    def __eq__(self, other):
        return isinstance(other, _Role) and (self.role, self.spelling) == (other.role, other.spelling)

    def __hash__(self):
        return hash((self.role, self.spelling))


def _spelling(role: str, desc) -> str:
    """The type string of ``Input[desc]``: a str, or ``Literal["..."]``."""
    args = typing.get_args(desc)
    if args and typing.get_origin(desc) is typing.Literal:
        desc = args[0]
    elif type(desc).__name__ == "_LiteralGenericAlias" and getattr(desc, "__args__", None):
        desc = desc.__args__[0]  # typing_extensions.Literal
    if not isinstance(desc, str):
        raise TLEUsageError(f"tle.raw.{role}[...] takes an MLIR type string such as \"memref<?xf32, 3>\", "
                            f"\"!llvm.ptr<1>\" or \"i32\", got {desc!r}")
    return desc


class Input:
    """``Input["<mlir type>"]``: a parameter of a ``@tle.raw.dialect`` function the body only reads.

    The type string is parsed as an MLIR type when the function is called:

    - ``memref<?xf32, 3>``, ``memref<?x?xf16, 3>`` (any rank; each size ``?``
      or the tensor's): a kernel tensor of that rank and element type, placed
      in shared memory (address space 3) for the call;
    - ``!llvm.ptr<1>``: a scalar global pointer (any element type);
    - ``i1`` ... ``i64``, ``f16``, ``bf16``, ``f32``, ``f64``: a scalar of that
      type (a Python int or float constant becomes one).

    Args:
        desc: the MLIR type string, or ``typing.Literal["..."]`` of it.

    Returns:
        The annotation (an object the decorator reads; not a type).

    Example::

        @tle.raw.dialect(name="mlir")
        def scale(out: tle.raw.InOut["memref<?xf32, 3>"], x: tle.raw.Input["memref<?xf32, 3>"],
                  k: tle.raw.Input["f32"]):
            ...
    """

    def __class_getitem__(cls, desc) -> _Role:
        return _Role("Input", _spelling("Input", desc))


class InOut:
    """``InOut["memref<...>"]``: a shared-memory parameter of a ``@tle.raw.dialect`` function the body may write.

    Like ``Input``, but only for a ``memref<..., 3>``: ``tle.raw.call``
    returns the buffer's contents after the body, one tensor per ``InOut``
    (in the order of ``inouts``).

    Args:
        desc: a memref type string in address space 3 (``"memref<?x?xf32, 3>"``),
            or ``typing.Literal["..."]`` of it.

    Returns:
        The annotation (an object the decorator reads; not a type).

    Example::

        @tle.raw.dialect(name="mlir")
        def bump(acc: tle.raw.InOut["memref<?x?xf32, 3>"]):
            ...

        acc = tle.raw.call(bump, [acc], [])   # inside a kernel
    """

    def __class_getitem__(cls, desc) -> _Role:
        return _Role("InOut", _spelling("InOut", desc))


def dialect(name: str = "mlir"):
    """Mark a function whose body builds MLIR with the bindings, FlagTree's form (``name="mlir"``).

    Each parameter is annotated ``tle.raw.Input["<type>"]`` or
    ``tle.raw.InOut["<type>"]`` (shared-memory memrefs, ``!llvm.ptr<1>``
    global pointers, integer and float scalars). The body runs once per
    thread with the hardware's thread-id registers (``ctaid.x`` is the
    program id, ``ntid.x`` the program's ``num_warps * 32`` threads) and
    may use every op of ``arith``, ``math``, ``index``, ``scf``, ``memref``,
    ``llvm`` and ``nvvm``, and ``tle.raw.vprintf`` / ``tle.raw.vassert``.
    Call it in a kernel with ``tle.raw.call(fn, [inouts...], [inputs...])``.

    Args:
        name: the language, ``"mlir"`` (the only one).

    Returns:
        A decorator turning a plain Python function into a
        ``tle.raw.RawFunction``, callable only through ``tle.raw.call``.

    Example::

        @tle.raw.dialect(name="mlir")
        def add_one(y: tle.raw.InOut["memref<?xf32, 3>"], x: tle.raw.Input["memref<?xf32, 3>"]):
            i32, index = ir.IntegerType.get_signless(32), ir.IndexType.get()
            tid = arith.index_cast(index, nvvm.read_ptx_sreg_tid_x(i32))
            n = memref.dim(x, arith.constant(index, 0))
            step = arith.index_cast(index, nvvm.read_ptx_sreg_ntid_x(i32))
            for i in scf.for_(tid, n, step):
                one = arith.constant(ir.F32Type.get(), 1.0)
                memref.store(arith.addf(memref.load(x, [i]), one), y, [i])
                scf.yield_([])
    """
    if name not in LANGUAGES:
        raise TLEUsageError(f"tle.raw.dialect name: unknown TLE-Raw language {name!r}; supported: "
                            f"{', '.join(map(repr, LANGUAGES))}")

    def decorate(fn):
        if isinstance(fn, RawFunction) or not inspect.isfunction(fn):
            raise TLEUsageError(f"tle.raw.dialect decorates a plain Python function, got {fn!r}")
        return RawFunction(fn, name, None, form="dialect")

    return decorate


def _dialect_params(fn: RawFunction) -> list[_Param]:
    params = []
    for name, p in inspect.signature(fn.fn).parameters.items():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise TLEUsageError(f"TLE-Raw function '{fn.__name__}': parameter '{name}' must be a plain "
                                "positional parameter")
        hint = fn.fn.__annotations__.get(name)
        if isinstance(hint, str):  # from __future__ import annotations
            try:
                hint = eval(hint, fn.fn.__globals__)  # noqa: S307 (the user's own annotation)
            except Exception as e:
                raise TLEUsageError(f"cannot read the annotation of parameter '{name}' of TLE-Raw function "
                                    f"'{fn.__name__}': {type(e).__name__}: {e}") from None
        if not isinstance(hint, _Role):
            raise TLEUsageError(f"parameter '{name}' of @tle.raw.dialect function '{fn.__name__}' needs an "
                                f"annotation tle.raw.Input[\"<mlir type>\"] or tle.raw.InOut[\"<mlir type>\"], "
                                f"got {hint!r}")
        param = _Param(name, hint.role, hint.spelling)
        param.role_spelling = repr(hint)  # Input['memref<?xf32, 3>'], for errors
        params.append(param)
    return params


def _list_values(generator, node, what):
    if isinstance(node, (ast.List, ast.Tuple)):
        return [generator.visit(n) for n in node.elts]
    values = tlc._unwrap_if_constexpr(generator.visit(node))
    if not isinstance(values, (tlc.tuple, tuple, list)):
        raise TLEUsageError(f"tle.raw.call {what} must be a list or tuple, got {describe(values)}")
    return list(values)


def _codegen_dialect_call(generator, node: ast.Call, fn: RawFunction):
    """``tle.raw.call(fn, [inouts...], [inputs...])`` (or ``(fn, [args...])``
    in parameter order) of a ``@tle.raw.dialect`` function."""
    if node.keywords:
        raise TLEUsageError(f"tle.raw.call of @tle.raw.dialect function '{fn.__name__}' takes positional lists: "
                            "tle.raw.call(fn, [inouts...], [inputs...])")
    params = fn.params()
    inout_params = [p for p in params if p.kind == "InOut"]
    input_params = [p for p in params if p.kind == "Input"]
    if len(node.args) == 3:
        inouts = _list_values(generator, node.args[1], "inouts")
        inputs = _list_values(generator, node.args[2], "inputs")
        for what, given, wanted in (("inout", inouts, inout_params), ("input", inputs, input_params)):
            if len(given) != len(wanted):
                role = "InOut" if what == "inout" else "Input"
                raise TLEUsageError(
                    f"tle.raw.call: '{fn.__name__}' has {len(wanted)} {role} parameter(s) "
                    f"({', '.join(p.name for p in wanted) or 'none'}), but the call passes {len(given)} "
                    f"{what}(s)")
        by_param = dict(zip((p.name for p in inout_params), inouts))
        by_param.update(zip((p.name for p in input_params), inputs))
        values = [by_param[p.name] for p in params]
    elif len(node.args) == 2:
        values = _list_values(generator, node.args[1], "args")
        if len(values) != len(params):
            raise TLEUsageError(f"tle.raw.call: '{fn.__name__}' takes {len(params)} argument(s), the call passes "
                                f"{len(values)}")
    else:
        raise TLEUsageError(f"tle.raw.call of @tle.raw.dialect function '{fn.__name__}' takes "
                            "(fn, [inouts...], [inputs...]) or (fn, [args...])")
    outputs = _emit_dialect(fn, params, values, generator.semantic)
    if not outputs:
        return None
    return outputs[0] if len(outputs) == 1 else tlc.tuple(outputs)


def _check_dialect_arg(ir, where, p: _Param, value, _semantic):
    """``("memref", tensor)`` / ``("ptr", pointer)`` / ``("scalar", value)``
    for one argument checked against its annotation."""
    try:
        parsed = ir.Type.parse(p.spelling)
    except Exception:
        raise TLEUsageError(f"{where}: cannot parse its annotation {p.role_spelling} as an MLIR type") from None
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(parsed, ir.MemRefType):
        space = parsed.memory_space
        if space is None or str(space) != f"{SHARED_ADDRESS_SPACE} : i64":
            raise TLEUsageError(f"{where}: annotation {p.role_spelling} must be a memref in shared memory, address "
                                f"space {SHARED_ADDRESS_SPACE} (e.g. \"memref<?xf32, 3>\")")
        layout = parsed.layout
        if not (isinstance(layout, ir.AffineMapAttr) and layout.value == ir.AffineMap.get_identity(parsed.rank)):
            raise TLEUsageError(f"{where}: annotation {p.role_spelling} must have the identity layout (the buffer "
                                "is row-major)")
        if not _is_block(value):
            raise TLEUsageError(f"{where} is annotated {p.role_spelling} but the call passes {describe(value)}, "
                                "not a tensor")
        shape = [int(tlc._unwrap_if_constexpr(d)) for d in value.shape]
        got = _MLIR_TYPES.get(value.dtype.name)
        sizes = list(parsed.shape)
        dynamic = ir.ShapedType.get_dynamic_size()
        if (len(sizes) != len(shape) or got is None or str(parsed.element_type) != got
                or any(want != dynamic and want != have for want, have in zip(sizes, shape))):
            raise TLEUsageError(f"{where} is annotated {p.role_spelling} but the call passes a {value.dtype} tensor "
                                f"of shape {shape}")
        return "memref", value
    if p.kind == "InOut":
        raise TLEUsageError(f"{where}: {p.role_spelling} is not a memref; only a memref (a tensor the body may "
                            "write in shared memory) can be InOut")
    spelled = str(parsed)
    if spelled.startswith("!llvm.ptr"):
        space = 0 if spelled == "!llvm.ptr" else int(spelled[len("!llvm.ptr<"):-1])
        if (not isinstance(value, tlc.tensor) or value.type.is_block() or not value.dtype.is_ptr()
                or value.dtype.address_space != space):
            raise TLEUsageError(f"{where} is annotated {p.role_spelling} but the call passes {describe(value)}; it "
                                f"takes a scalar pointer in address space {space}")
        return "ptr", value
    dtype = _TRITON_SCALARS.get(spelled)
    if dtype is None:
        raise TLEUsageError(f"{where}: annotation {p.role_spelling} is neither a memref<..., 3>, an !llvm.ptr nor "
                            f"an integer or float scalar ({', '.join(_TRITON_SCALARS)})")
    if isinstance(value, tlc.tensor):
        if value.type.is_block() or _MLIR_TYPES.get(value.dtype.name) != spelled:
            raise TLEUsageError(f"{where} is annotated {p.role_spelling} but the call passes a {value.type}")
        return "scalar", value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and not spelled.startswith(("f", "bf")):
            raise TLEUsageError(f"{where} is annotated {p.role_spelling} but the call passes {describe(value)}")
        return "scalar", _semantic.scalar_constant(value, dtype)
    raise TLEUsageError(f"{where} is annotated {p.role_spelling} but the call passes {describe(value)}")


def _emit_dialect(fn: RawFunction, params: list[_Param], values, _semantic) -> list:
    """Stages the memref arguments in shared-memory buffers, emits the
    ``tle.dsl_region`` marker (``hardware_ids``) on the buffers, pointers and
    scalars, and reads the InOut buffers back; returns their tensors."""
    _require_enabled("tle.raw.call", _semantic)
    ir = _bindings()
    checked = []
    with ir.Context():
        for index, (p, value) in enumerate(zip(params, values)):
            where = f"argument {index} ('{p.name}') of TLE-Raw function '{fn.__name__}'"
            checked.append(_check_dialect_arg(ir, where, p, value, _semantic))
    num_warps = _semantic.builder.options.num_warps
    text, _ = fn.build(params)

    operands, buffers = [], {}
    for index, (kind, value) in enumerate(checked):
        if kind == "memref":
            shape = [int(tlc._unwrap_if_constexpr(d)) for d in value.shape]
            buf = alloc_buffer(shape, value.dtype, memdesc_type(shape, value.dtype), _semantic)
            _local_store(buf, value, "tle.raw.call", _semantic)
            buffers[index] = buf
            operands.append(buf._handle_tensor())
        else:
            operands.append(value)
    attrs = {
        "language": _mlir_string(fn.language),
        "name": _mlir_string(fn.__name__),
        "threads": ("i64-array", [num_warps * THREADS_PER_WARP]),
        "sync_scope": _mlir_string("block"),
        "hardware_ids": "unit",
        "tle.marker.region": _mlir_string(text),
        "tle.marker.no_results": True,
    }
    _markers.emit("dsl_region", attrs, operands, [tlc.int32], _semantic=_semantic)
    return [_local_load(buffers[i], _semantic) for i, p in enumerate(params) if p.kind == "InOut"]


def _as_value(ir, value, what):
    if isinstance(value, ir.Value):
        return value
    results = getattr(value, "results", None)
    if results is not None and len(results) == 1:
        return results[0]
    raise TLEUsageError(f"{what}: expected an MLIR value built in the body, got {value!r}")


def vprintf(format: str, *args):
    """Print from every thread that runs it, CUDA's ``vprintf`` (inside a TLE-Raw body).

    Builds ``gpu.printf``; TLE lowers it to a call of ``vprintf`` with the
    format as a constant string and the arguments promoted as C varargs
    (floats to double, integers narrower than 32 bits to 32, ``index`` to
    64). The output appears when the kernel finishes (``torch.cuda.synchronize()``).

    Args:
        format: a printf format string, e.g. ``"tid %d\\n"``.
        *args: MLIR values of the body (integers, floats, ``index``).

    Returns:
        None.

    Example::

        @tle.raw.dialect(name="mlir")
        def hello():
            i32 = ir.IntegerType.get_signless(32)
            tle.raw.vprintf("hello from block %d, thread %d\\n",
                            nvvm.read_ptx_sreg_ctaid_x(i32), nvvm.read_ptx_sreg_tid_x(i32))
    """
    ir = _bindings()
    from mlir.dialects import gpu

    if not isinstance(format, str):
        raise TLEUsageError(f"tle.raw.vprintf: format must be a str, got {format!r}")
    gpu.PrintfOp(format, [_as_value(ir, a, "tle.raw.vprintf") for a in args])


def vassert(condition, message: str):
    """Trap the kernel where ``condition`` (an ``i1`` of the body) is false, printing ``message`` first.

    Builds ``scf.if`` on the negated condition holding ``gpu.printf`` of the
    message and ``llvm.intr.trap`` (PTX ``trap``): the launch fails with an
    error after the message is printed.

    Args:
        condition: an ``i1`` MLIR value of the body.
        message: the text to print (a printf format without arguments).

    Returns:
        None.

    Example::

        @tle.raw.dialect(name="mlir")
        def needs_1024_threads():
            i32 = ir.IntegerType.get_signless(32)
            ntid = nvvm.read_ptx_sreg_ntid_x(i32)
            ok = arith.cmpi(arith.CmpIPredicate.eq, ntid, arith.constant(i32, 1024))
            tle.raw.vassert(ok, "expected 1024 threads\\n")
    """
    ir = _bindings()
    from mlir.dialects import arith, gpu, llvm, scf

    condition = _as_value(ir, condition, "tle.raw.vassert")
    if str(condition.type) != "i1":
        raise TLEUsageError(f"tle.raw.vassert: condition must be an i1, got {condition.type}")
    if not isinstance(message, str):
        raise TLEUsageError(f"tle.raw.vassert: message must be a str, got {message!r}")
    failed = arith.xori(condition, arith.constant(ir.IntegerType.get_signless(1), 1))
    branch = scf.IfOp(failed)
    with ir.InsertionPoint(branch.then_block):
        gpu.PrintfOp(message, [])
        llvm.intr_trap()
        scf.YieldOp([])


def _install() -> None:
    """Let Triton's code generator hand ``tle.call(...)`` to ``_codegen_call``:
    it needs the call's AST (dict literals, which Triton's code generator does
    not evaluate, and the names of the written arguments, which it rebinds).
    The entry is keyed by ``call`` itself, so no other call is affected; without
    TLE's stages the call is refused there (``_require_enabled``)."""
    from triton.compiler.code_generator import CodeGenerator

    CodeGenerator.statically_implemented_functions[call] = _codegen_call


_install()
