"""``tle.range`` and ``tle.pipeline_group``: user-staged software pipelines.

.. code-block:: python

    for yoff in tle.range(0, ynumel, YBLOCK, num_stages=2,
                          pipe_stages=[0, 1, 1], pipe_orders=[0, 1, 2],
                          executors=[0, 0, 0]):
        with tle.pipeline_group(0):
            q = tl.load(...)
            k = tl.load(...)
        with tle.pipeline_group(1):
            kt = tl.trans(k)
        with tle.pipeline_group(2):
            acc += tl.dot(q, kt)

Group ``i`` runs in software-pipeline stage ``pipe_stages[i]`` of the loop's
``num_stages`` and is ordered within its stage by ``pipe_orders[i]``.
``executors`` names the hardware executor of each group; on NVIDIA all groups
share one (equal entries). docs/pipeline-groups.md has the whole design.

How it reaches the compiler: Triton 3.6's code generator accepts only its own
``tl.range`` class as a loop iterator (``visit_For`` checks identity), so
while TLE is enabled a wrapper around ``CodeGenerator.visit_For`` (installed
by ``tle.enable()``, removed by ``tle.disable()``, with one around
``CodeGenerator._find_carries`` that forgets the groups of Triton's dry run
of the loop body) compiles a ``tle.range``
loop as the ``tl.range`` loop with the same standard arguments and keeps the
TLE arguments for the loop's ``tle.pipeline_group`` blocks, which emit
``tle.pipeline_group_begin`` / ``tle.pipeline_group_end`` markers
(docs/markers.md). Every other loop goes to Triton's ``visit_For`` untouched.
"""

from __future__ import annotations

import ast
import builtins

import triton.language as tl
from triton.compiler import code_generator
from triton.language import core as tlc

from . import _interpret, _markers
from ._markers import TLEUsageError, describe
from .core import _require_enabled

# tle.range's own keyword arguments; the others are tl.range's.
TLE_KEYWORDS = ("pipe_stages", "pipe_orders", "executors")
_STACK_ATTR = "_tle_pipeline_loops"
_original_visit_for = None
_original_find_carries = None


def _int_list(value, what: str, allow_ranges: bool = False) -> list:
    value = tlc._unwrap_if_constexpr(value)
    if value is None:
        return None
    if isinstance(value, tlc.tuple):
        value = list(value.values)
    if not isinstance(value, (list, tuple)):
        raise TLEUsageError(f"tle.range: {what} must be a list of constexpr ints, got {describe(value)}")
    out = []
    for entry in value:
        entry = tlc._unwrap_if_constexpr(entry)
        if allow_ranges and isinstance(entry, builtins.range):
            out.append(entry)
        elif isinstance(entry, int) and not isinstance(entry, bool):
            out.append(entry)
        else:
            kinds = "constexpr ints or range(...) objects" if allow_ranges else "constexpr ints"
            raise TLEUsageError(f"tle.range: {what} entries must be {kinds}, got {describe(entry)}")
    return out


class range:  # noqa: A001 - FlagTree's name
    """``tl.range`` plus pipeline groups (docs/pipeline-groups.md).

    ``tle.range(start, end, step, num_stages, pipe_stages=[...],
    pipe_orders=[...], executors=[...], **tl_range_kwargs)``; without
    ``pipe_stages`` it is exactly ``tl.range``. Used only as the iterator of
    a ``for`` loop in a ``@triton.jit`` function, with TLE enabled.

    Args:
        arg1: ``end`` when it is the only positional bound, else ``start``
            (as for ``tl.range``).
        arg2: ``end`` when given.
        step: the step (default 1), as for ``tl.range``.
        num_stages: Triton's software-pipelining depth; with
            ``pipe_stages``, required: a compile-time int >= 1.
        pipe_stages: None, or a non-empty compile-time list with the stage
            (in ``[0, num_stages)``) of each pipeline group; the loop body
            must then hold one ``with tle.pipeline_group(i):`` block per
            entry.
        pipe_orders: None (``[0, 1, ...]``), or one int >= 0 per group: its
            order within its stage. Needs ``pipe_stages``.
        executors: None (all 0), or one int (or ``range(...)``) per group;
            on NVIDIA all entries must be equal. Needs ``pipe_stages``.

    Other keyword arguments (``loop_unroll_factor``, ``flatten``, ...) go to
    ``tl.range`` unchanged.

    Example::

        @triton.jit
        def scaled_sum(X, Y, OUT, n, BLOCK: tl.constexpr):
            acc = tl.zeros([BLOCK], tl.float32)
            for off in tle.range(0, n, BLOCK, num_stages=2, pipe_stages=[0, 1]):
                with tle.pipeline_group(0):
                    x = tl.load(X + off + tl.arange(0, BLOCK))
                    y = tl.load(Y + off + tl.arange(0, BLOCK))
                with tle.pipeline_group(1):
                    acc += x * y
            tl.store(OUT + tl.arange(0, BLOCK), acc)
    """

    def __init__(self, arg1, arg2=None, step=None, num_stages=None, pipe_stages=None, pipe_orders=None,
                 executors=None, **tl_range_kwargs):
        self._bounds = (arg1, arg2, step)
        self.num_stages = tlc._unwrap_if_constexpr(num_stages)
        self.pipe_stages = _int_list(pipe_stages, "pipe_stages")
        self.pipe_orders = _int_list(pipe_orders, "pipe_orders")
        self.executors = _int_list(executors, "executors", allow_ranges=True)
        self._check()

    def _check(self):
        stages, orders, executors = self.pipe_stages, self.pipe_orders, self.executors
        if stages is None:
            if orders is not None or executors is not None:
                raise TLEUsageError("tle.range: pipe_orders / executors need pipe_stages")
            return
        if not stages:
            raise TLEUsageError("tle.range: pipe_stages is empty; give one stage per pipeline group")
        if not isinstance(self.num_stages, int) or isinstance(self.num_stages, bool) or self.num_stages < 1:
            raise TLEUsageError("tle.range with pipe_stages needs num_stages, a constexpr int >= 1, "
                                f"got {describe(self.num_stages)}")
        if orders is None:
            orders = self.pipe_orders = list(builtins.range(len(stages)))
        if executors is None:
            executors = self.executors = [0] * len(stages)
        if not (len(stages) == len(orders) == len(executors)):
            raise TLEUsageError(f"tle.range: pipe_stages ({len(stages)} entries), pipe_orders ({len(orders)}) "
                                f"and executors ({len(executors)}) must have one entry per pipeline group")
        for i, s in enumerate(stages):
            if not 0 <= s < self.num_stages:
                raise TLEUsageError(f"tle.range: pipe_stages[{i}] = {s} must be in [0, num_stages = "
                                    f"{self.num_stages})")
        for i, o in enumerate(orders):
            if o < 0:
                raise TLEUsageError(f"tle.range: pipe_orders[{i}] = {o} must be >= 0")
        if any(e != executors[0] for e in executors):
            raise TLEUsageError(
                f"tle.range: executors={executors} puts pipeline groups on different executors; on NVIDIA "
                "TLE runs every group of a loop on one executor (give equal entries, e.g. "
                f"[0] * {len(stages)}); for producer/consumer warp groups use tle.gpu.warp_specialize")

    def __iter__(self):
        if _interpret.running():
            return _host_range(*self._bounds)  # Triton's interpreter (docs/interpreter.md)
        raise RuntimeError("tle.range can only be used in @triton.jit'd functions")

    def __next__(self):
        raise RuntimeError("tle.range can only be used in @triton.jit'd functions")


def _host_range(arg1, arg2=None, step=None):
    """The loop's iterations on the host, as Triton's interpreter runs tl.range;
    stages and groups only order a GPU's work, so they change nothing here."""
    start, end = (0, arg1) if arg2 is None else (arg1, arg2)
    return iter(builtins.range(start, end, 1 if step is None else step))


class pipeline:  # noqa: N801 - FlagTree's name
    """``tle.gpu.pipeline(start, end, step, num_stages=None, loop_unroll_factor=None)``:
    FlagTree's staged loop, which is ``tl.range`` with the same arguments.

    ``num_stages`` asks Triton's software pipeliner for that many stages
    (its ``tt.num_stages``): the loop's global ``tl.load`` s are issued that
    many iterations ahead into multi-buffered shared memory. ``tle.gpu.copy``
    into a buffer and loads through ``tle.gpu.local_ptr`` pointers are not
    pipelined (a loop that loads through local pointers is compiled with one
    stage: docs/local-memory.md, section 3a). For stages chosen by hand use
    ``tle.range(..., pipe_stages=[...])`` (docs/pipeline-groups.md); for
    producer/consumer warps, ``tle.pipe`` + ``tle.gpu.warp_specialize``.
    """

    KEYWORDS = ("num_stages", "loop_unroll_factor")

    def __init__(self, arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None):
        if not _interpret.running():
            raise RuntimeError("tle.gpu.pipeline can only be used as the iterator of a for loop in a @triton.jit'd "
                               "function")
        self._bounds = (arg1, arg2, step)

    def __iter__(self):
        return _host_range(*self._bounds)  # only reached under Triton's interpreter


class _Loop:
    """A loop being compiled: its tle.range (None for any other loop)."""

    def __init__(self, spec):
        self.spec = spec
        self.used = []
        self.open = None
        self.node = None  # the ast.For compiled for it
        self.iv = None  # the loop variable's value at the top of the body


def _loops(semantic) -> list:
    stack = getattr(semantic, _STACK_ATTR, None)
    if stack is None:
        stack = []
        setattr(semantic, _STACK_ATTR, stack)
    return stack


class pipeline_group:
    """``with tle.pipeline_group(i):`` puts the block's ops in group ``i`` of
    the enclosing ``tle.range`` loop (docs/pipeline-groups.md).

    Group ``i`` runs in software-pipeline stage ``pipe_stages[i]`` and is
    ordered within it by ``pipe_orders[i]``. Groups cannot nest, and each is
    one contiguous ``with`` block, used once per loop body.

    Args:
        index: the group, a compile-time int in ``[0, len(pipe_stages))``.

    Returns:
        A context manager; use it only in a ``with`` statement directly in
        the body of a ``for ... in tle.range(..., pipe_stages=[...])`` loop.

    Example::

        for k in tle.range(0, K, BK, num_stages=3, pipe_stages=[0, 2]):
            with tle.pipeline_group(0):
                a = tl.load(A + k + offs)
            with tle.pipeline_group(1):
                acc += a
    """

    def __init__(self, index, _semantic=None):
        if _semantic is None and _interpret.running():
            _semantic = _interpret.semantic()
        if _semantic is None:
            raise RuntimeError("tle.pipeline_group can only be used in @triton.jit'd functions")
        self.index = tlc._unwrap_if_constexpr(index)
        self.semantic = _semantic

    def __enter__(self):
        _require_enabled("tle.pipeline_group", self.semantic)
        i = self.index
        if not isinstance(i, int) or isinstance(i, bool):
            raise TLEUsageError(f"tle.pipeline_group: the group index must be a constexpr int, got {describe(i)}")
        if _interpret.active(self.semantic):
            return self  # the interpreter runs the body in program order
        loops = _loops(self.semantic)
        loop = loops[-1] if loops else None
        if loop is None or loop.spec is None or loop.spec.pipe_stages is None:
            raise TLEUsageError("tle.pipeline_group must be directly inside a "
                                "`for ... in tle.range(..., pipe_stages=[...])` loop")
        if loop.open is not None:
            raise TLEUsageError(f"tle.pipeline_group({i}) is nested in tle.pipeline_group({loop.open}); "
                                "pipeline groups cannot be nested")
        spec = loop.spec
        if not 0 <= i < len(spec.pipe_stages):
            raise TLEUsageError(f"tle.pipeline_group({i}): the loop has {len(spec.pipe_stages)} pipeline "
                                f"group(s) (one per pipe_stages entry), indices 0..{len(spec.pipe_stages) - 1}")
        if i in loop.used:
            raise TLEUsageError(f"tle.pipeline_group({i}) is used twice in this loop; a group is one "
                                "contiguous `with` block")
        loop.open = i
        # The induction variable binds the group to its loop: if Triton folds
        # the loop (a one-trip loop), the operand is no loop's induction
        # variable any more and triton-tle-bind-pipeline-groups drops the group.
        iv = [loop.iv] if isinstance(loop.iv, tlc.tensor) and not loop.iv.type.is_block() else []
        _markers.emit("pipeline_group_begin", {
            "group": ("i32", i),
            "stage": ("i32", spec.pipe_stages[i]),
            "order": ("i32", spec.pipe_orders[i]),
            "num_groups": ("i32", len(spec.pipe_stages)),
            "num_stages": ("i32", spec.num_stages),
            "tle.marker.no_results": True,
        }, iv, [tlc.int32], _semantic=self.semantic)
        return None

    def __exit__(self, *exc):
        if _interpret.active(self.semantic):
            return False
        loop = _loops(self.semantic)[-1]
        _markers.emit("pipeline_group_end", {"group": ("i32", self.index), "tle.marker.no_results": True}, [],
                      [tlc.int32], _semantic=self.semantic)
        loop.used.append(self.index)
        loop.open = None
        return False


def _simple_callee(node) -> bool:
    """``name`` or ``a.b.c``: looking it up emits no IR."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _visit_for(self, node):
    spec = None
    it = node.iter
    callee = self.visit(it.func) if isinstance(it, ast.Call) and _simple_callee(it.func) else None
    if callee is range:
        spec, node = _tle_range_loop(self, node)
    elif callee is pipeline:
        node = _tle_pipeline_loop(node)
    loops = _loops(self.semantic)
    loops.append(_Loop(spec))
    loops[-1].node = node
    try:
        result = _original_visit_for(self, node)
        loop = loops[-1]
    finally:
        loops.pop()
    if spec is not None and spec.pipe_stages is not None and len(loop.used) != len(spec.pipe_stages):
        missing = sorted(set(builtins.range(len(spec.pipe_stages))) - set(loop.used))
        raise TLEUsageError(f"tle.range: pipe_stages has {len(spec.pipe_stages)} entries but the loop body "
                            f"has no `with tle.pipeline_group(i):` block for group(s) {missing}")
    return result


def _constant_list(self, node):
    """A TLE keyword's value. Lists are evaluated entry by entry, so that an
    entry may be a Python ``range(...)`` (``executors=[0, 0, range(1, 31)]``),
    which Triton's list-to-tuple conversion would reject."""
    if isinstance(node, ast.IfExp):
        test = tlc._unwrap_if_constexpr(self.visit(node.test))
        if not isinstance(test, (bool, int)):
            raise TLEUsageError("tle.range: a conditional TLE argument needs a constexpr condition")
        return _constant_list(self, node.body if test else node.orelse)
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_constant_entry(self, e) for e in node.elts]
    return self.visit(node)


def _constant_entry(self, node):
    if isinstance(node, ast.Call) and _simple_callee(node.func) and not node.keywords:
        fn = self.visit(node.func)
        if fn is builtins.range:
            args = [tlc._unwrap_if_constexpr(self.visit(a)) for a in node.args]
            if not all(isinstance(a, int) for a in args):
                raise TLEUsageError(f"tle.range: range(...) in a TLE argument needs constexpr ints, got "
                                    f"{describe(args)}")
            return builtins.range(*args)
    return self.visit(node)


def _find_carries(self, node, *args, **kwargs):
    """Triton visits a loop body twice: a dry run (here) to find the
    loop-carried values, whose IR it erases, then the real body. Forget the
    dry run's groups."""
    loops = _loops(self.semantic)
    if loops and loops[-1].node is node and isinstance(node.target, ast.Name):
        # The loop variable's placeholder, replaced by the induction variable
        # once the body is built: the begin markers' operand.
        loops[-1].iv = self.lscope.get(node.target.id)
    result = _original_find_carries(self, node, *args, **kwargs)
    if loops and loops[-1].node is node:
        loops[-1].used = []
    return result


def _tle_range_loop(self, node):
    """The loop's tle.range spec and the same loop written with tl.range."""
    it = node.iter
    tle_kwargs = {kw.arg: _constant_list(self, kw.value) for kw in it.keywords if kw.arg in TLE_KEYWORDS}
    if any(kw.arg is None for kw in it.keywords):
        raise TLEUsageError("tle.range does not take **kwargs")
    num_stages = None
    for kw in it.keywords:
        if kw.arg == "num_stages":
            num_stages = self.visit(kw.value)
    if len(it.args) > 3:
        num_stages = self.visit(it.args[3])
    spec = range(0, num_stages=num_stages, **tle_kwargs)
    # tl.range, reached through a constant so the user's names are not needed.
    func = ast.Attribute(value=ast.Constant(value=tl), attr="range", ctx=ast.Load())
    call = ast.Call(func=func, args=list(it.args),
                    keywords=[kw for kw in it.keywords if kw.arg not in TLE_KEYWORDS])
    new_iter = ast.copy_location(call, it)
    ast.copy_location(func, it)
    ast.copy_location(func.value, it)
    new_node = ast.copy_location(
        ast.For(target=node.target, iter=new_iter, body=node.body, orelse=node.orelse, type_comment=None), node)
    return spec, new_node


def _tle_pipeline_loop(node):
    """The same loop written with tl.range (tle.gpu.pipeline's arguments are
    tl.range's first five)."""
    it = node.iter
    if len(it.args) > 5:
        raise TLEUsageError(f"tle.gpu.pipeline takes at most 5 positional arguments (start, end, step, num_stages, "
                            f"loop_unroll_factor), got {len(it.args)}")
    if len(it.args) < 1:
        raise TLEUsageError("tle.gpu.pipeline needs at least one argument: tle.gpu.pipeline(end) or "
                            "tle.gpu.pipeline(start, end, step, num_stages=...)")
    positional = ("arg1", "arg2", "step", "num_stages", "loop_unroll_factor")[:len(it.args)]
    for kw in it.keywords:
        if kw.arg is None:
            raise TLEUsageError("tle.gpu.pipeline does not take **kwargs")
        if kw.arg in positional:
            raise TLEUsageError(f"tle.gpu.pipeline got {kw.arg} both by position and by keyword")
        if kw.arg not in pipeline.KEYWORDS + ("arg1", "arg2", "step"):
            extra = (" (pipeline groups are tle.range's: tle.range(..., pipe_stages=[...]))"
                     if kw.arg in TLE_KEYWORDS else "")
            raise TLEUsageError(f"tle.gpu.pipeline got an unexpected keyword argument {kw.arg!r}; it takes start, "
                                f"end, step, num_stages and loop_unroll_factor{extra}")
    func = ast.Attribute(value=ast.Constant(value=tl), attr="range", ctx=ast.Load())
    call = ast.Call(func=func, args=list(it.args), keywords=list(it.keywords))
    new_iter = ast.copy_location(call, it)
    ast.copy_location(func, it)
    ast.copy_location(func.value, it)
    return ast.copy_location(
        ast.For(target=node.target, iter=new_iter, body=node.body, orelse=node.orelse, type_comment=None), node)


def install() -> None:
    """Wrap ``CodeGenerator.visit_For`` (idempotent)."""
    global _original_visit_for, _original_find_carries
    if _original_visit_for is None:
        _original_visit_for = code_generator.CodeGenerator.visit_For
        _original_find_carries = code_generator.CodeGenerator._find_carries
        code_generator.CodeGenerator.visit_For = _visit_for
        code_generator.CodeGenerator._find_carries = _find_carries


def uninstall() -> None:
    global _original_visit_for, _original_find_carries
    if _original_visit_for is not None:
        code_generator.CodeGenerator.visit_For = _original_visit_for
        code_generator.CodeGenerator._find_carries = _original_find_carries
        _original_visit_for = _original_find_carries = None
