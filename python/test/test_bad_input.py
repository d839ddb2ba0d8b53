"""Frontend bad input: wrong calls to every public ``tle.*`` function.

Each row of the tables below is a tiny kernel written as source text, with the
bad ``tle.`` call marked ``# <-``. The kernel is written to a file and
imported (Triton reads a kernel's source from its file), compiled for sm_90 on
the CPU, and the row asserts

* the error class: Triton's ``CompilationError`` wrapping TLE's
  ``TLEUsageError`` (not an assertion, an AttributeError from inside TLE or
  Triton, an MLIR diagnostic, or no error at all),
* that the message matches the row's pattern, names the public function and
  the offending argument, and shows values as the user wrote them (no
  ``<... object at 0x...>``, no ``constexpr[...]``),
* that the reported source line is the marked line of the user's kernel
  (``CompilationError.node.lineno`` in ``CompilationError.src``).

Further tables: the same primitives called correctly while TLE is disabled,
called from plain Python (outside a kernel), and the Python-level objects
(meshes, shardings, TLE-Raw decorators) built with bad arguments.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
import textwrap
from dataclasses import dataclass

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.compiler.errors import CompilationError

import tle

TARGET = "sm_90"
MARK = "# <-"

# Names every generated kernel module sees (meshes and shardings are
# constexpr globals, as in python/test/local_memory_kernels.py).
PRELUDE = '''
from typing import Annotated

import triton
import triton.language as tl
from mlir import ir

import tle

MESH2 = tl.constexpr(tle.device_mesh({"block_cluster": [("cx", 2)]}))
MESH4 = tl.constexpr(tle.device_mesh({"block_cluster": [("cx", 4)]}))
BLOCK_AND_CLUSTER = tl.constexpr(tle.device_mesh({"block_cluster": [("cx", 2)], "block": [("bx", 2)]}))
MESH2x2 = tl.constexpr(tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 2)]}))
ONE_CTA = tl.constexpr(tle.device_mesh({"block_cluster": [("cx", 1)]}))
DEVICES = tl.constexpr(tle.device_mesh({"device": [("dx", 2)]}))
BLOCKS = tl.constexpr(tle.device_mesh({"block": [("bx", 2)]}))
ROWS4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.S("cx")]))
WHOLE4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.B]))
PSUM4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.B], partial=[tle.P("cx")]))
WHOLE2 = tl.constexpr(tle.sharding(MESH2.value, split=[tle.B]))
M_ROWS4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.S("cx"), tle.B]))
M_COLS4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.B, tle.S("cx")]))
M_WHOLE4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.B, tle.B]))
M_PSUM4 = tl.constexpr(tle.sharding(MESH4.value, split=[tle.B, tle.B], partial=[tle.P("cx")]))
M_WHOLE2 = tl.constexpr(tle.sharding(MESH2.value, split=[tle.B, tle.B]))
D_ROWS = tl.constexpr(tle.sharding(DEVICES.value, split=[tle.S("dx")]))
D_WHOLE = tl.constexpr(tle.sharding(DEVICES.value, split=[tle.B]))
B_ROWS = tl.constexpr(tle.sharding(BLOCKS.value, split=[tle.S("bx")]))
FTCTX = tl.constexpr(tle.DistributedRtContext(rank=0, world_size=2, buffer_ptrs=(1 << 40, 2 << 40), dtype="float32",
                                              numel=1024, signal_ptrs=(3 << 40, 4 << 40), num_slots=4))


@tle.raw.language(name="mlir")
def raw_f32_128(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    pass


@tle.raw.language(name="mlir")
@tle.hardware_constraint(threads_dim=2, sync_scope="block")
def raw_2d(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    pass


@triton.jit
def _nothing(x):
    pass
'''


@dataclass
class Bad:
    """A kernel whose line marked ``# <-`` is a bad call of ``fn``.

    ``arg``: the argument the message must name (a word of it, or a phrase);
    ``match``: a regular expression the message must match; ``body``: the
    kernel's body; ``sig``: its parameters and their types, ``"X:*i32, n:i32"``.
    """
    id: str
    fn: str
    arg: str
    match: str
    body: str
    sig: str = "X:*i32"


def signature(sig: str) -> dict:
    # Split at the commas before a "name:" (a type may hold commas: tensordesc<fp32[8,64]>).
    return dict((p.split(":")[0].strip(), p.split(":", 1)[1].strip()) for p in re.split(r",(?=\s*\w+\s*:)", sig)
                if p.strip())


def kernel_source(body: str, sig: str) -> str:
    return (PRELUDE + "\n\n@triton.jit\ndef kernel(" + ", ".join(signature(sig)) + "):\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n")


_modules = itertools.count()


def load_kernel(tmp_path, source: str):
    """The ``kernel`` of ``source``, written to a file and imported."""
    path = tmp_path / f"bad_input_{next(_modules)}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel


def marked(call: str, *before: str) -> str:
    """A kernel body: the ``before`` lines, then ``call``, marked as the bad line."""
    return "\n".join([*before, f"{call}  {MARK}"])


def reported_line(error: CompilationError) -> str:
    return error.src.split("\n")[error.node.lineno - 1]


def tle_cause(error: CompilationError):
    """What TLE raised: Triton wraps a builtin's error ``from e`` and an error
    while visiting a statement (``with``, ``for``) ``from None``."""
    return error.__cause__ or error.__context__


def assert_names(message: str, fn: str, arg: str) -> None:
    """The message names the function and the argument, and speaks of values
    as the user wrote them (no Python object reprs, no ``constexpr[...]``)."""
    assert fn in message, f"the message does not name {fn}: {message}"
    assert not re.search(r"object at 0x|constexpr\[", message), f"Python internals in the message: {message}"
    assert re.search(rf"(?<![\w.]){re.escape(arg)}s?(?!\w)", message), \
        f"the message does not name the argument {arg!r}: {message}"


def check_reported_at_the_mark(error: CompilationError) -> tle.TLEUsageError:
    """The TLEUsageError behind ``error``, checked to be reported at the marked line."""
    assert MARK in reported_line(error), f"reported at {reported_line(error)!r}, not at the bad call:\n{error}"
    cause = tle_cause(error)
    assert isinstance(cause, tle.TLEUsageError), f"TLE raised {type(cause).__name__}: {cause}"
    return cause


def check_bad(tmp_path, row: Bad) -> None:
    assert row.body.count(MARK) == 1, "mark exactly one line"
    kernel = load_kernel(tmp_path, kernel_source(row.body, row.sig))
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature=signature(row.sig), target=TARGET)
    message = str(check_reported_at_the_mark(info.value))
    assert re.search(row.match, message), f"{row.match!r} not in: {message}"
    assert_names(message, row.fn, row.arg)


LOAD64 = "x = tl.load(X + tl.arange(0, 64))"

# --- tle.cumsum ---------------------------------------------------------------------------------

CUMSUM = [
    Bad("axis-out-of-range", "tle.cumsum", "axis", r"axis 1 is out of range for a rank-1 tensor",
        marked("e, t = tle.cumsum(x, axis=1)", LOAD64)),
    Bad("negative-axis-out-of-range", "tle.cumsum", "axis", r"axis -2 is out of range for a rank-1 tensor",
        marked("e, t = tle.cumsum(x, axis=-2)", LOAD64)),
    Bad("2d-axis-out-of-range", "tle.cumsum", "axis", r"axis 2 is out of range for a rank-2 tensor", """
        x = tl.load(X + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :])
        e, t = tle.cumsum(x, axis=2)  # <-
        """),
    Bad("runtime-axis", "tle.cumsum", "axis", r"axis must be a compile-time constant",
        marked("e, t = tle.cumsum(x, axis=a)", LOAD64), sig="X:*i32, a:i32"),
    Bad("float-axis", "tle.cumsum", "axis", r"axis must be int, got 0.5",
        marked("e, t = tle.cumsum(x, axis=0.5)", LOAD64)),
    Bad("bool-axis", "tle.cumsum", "axis", r"axis must be int, got True",
        marked("e, t = tle.cumsum(x, axis=True)", LOAD64)),
    Bad("string-axis", "tle.cumsum", "axis", r"axis must be int, got '0'",
        marked('e, t = tle.cumsum(x, axis="0")', LOAD64)),
    Bad("runtime-reverse", "tle.cumsum", "reverse", r"reverse must be a compile-time constant",
        marked("e, t = tle.cumsum(x, reverse=r)", LOAD64), sig="X:*i32, r:i1"),
    Bad("int-reverse", "tle.cumsum", "reverse", r"reverse must be bool, got 2",
        marked("e, t = tle.cumsum(x, reverse=2)", LOAD64)),
    Bad("string-dtype", "tle.cumsum", "dtype", r"dtype must be a triton dtype, got 'int32'",
        marked('e, t = tle.cumsum(x, dtype="int32")', LOAD64)),
    Bad("narrow-dtype", "tle.cumsum", "dtype", r"cannot accumulate in dtype int8; supported: int32",
        marked("e, t = tle.cumsum(x, dtype=tl.int8)", LOAD64)),
    Bad("scalar-input", "tle.cumsum", "input", r"tensor of rank >= 1, got a scalar", """
        x = tl.load(X)
        e, t = tle.cumsum(x)  # <-
        """),
    Bad("constant-input", "tle.cumsum", "input", r"tensor of rank >= 1, got int", marked("e, t = tle.cumsum(3)")),
    Bad("bool-input", "tle.cumsum", "input", r"does not support int1 inputs",
        marked("e, t = tle.cumsum(x > 0)", LOAD64)),
    Bad("fp8-input", "tle.cumsum", "input", r"does not support fp8e4nv inputs",
        marked("e, t = tle.cumsum(x.to(tl.float8e4nv))", LOAD64), sig="X:*fp32"),
    Bad("pointer-input", "tle.cumsum", "input", r"does not support pointer<int32> inputs",
        marked("e, t = tle.cumsum(X + tl.arange(0, 64))")),
    Bad("runtime-dtype", "tle.cumsum", "dtype", r"dtype must be a triton dtype, got <runtime int32>",
        marked("e, t = tle.cumsum(x, dtype=n)", LOAD64), sig="X:*i32, n:i32"),
]


# --- tle.load(is_async=True) --------------------------------------------------------------------

PTRS = "X + tl.arange(0, 64)"

LOAD = [
    Bad("runtime-is-async", "tle.load", "is_async", r"is_async must be a compile-time constant",
        marked(f"x = tle.load({PTRS}, is_async=a)"), sig="X:*fp32, a:i1"),
    Bad("int-is-async", "tle.load", "is_async", r"is_async must be bool, got 1",
        marked(f"x = tle.load({PTRS}, is_async=1)"), sig="X:*fp32"),
    Bad("scalar-pointer", "tle.load", "pointer", r"expects a tensor of pointers, got a scalar",
        marked("x = tle.load(X, is_async=True)"), sig="X:*fp32"),
    Bad("tensor-of-values", "tle.load", "pointer", r"expects a tensor of pointers, got a tensor of int32",
        marked("x = tle.load(tl.arange(0, 64), is_async=True)"), sig="X:*fp32"),
    Bad("constant-pointer", "tle.load", "pointer", r"expects a tensor of pointers, got int",
        marked("x = tle.load(3, is_async=True)"), sig="X:*fp32"),
    Bad("block-pointer", "tle.load", "pointer", r"does not take block pointers", """
        p = tl.make_block_ptr(X, shape=[64], strides=[1], offsets=[0], block_shape=[64], order=[0])
        x = tle.load(p, is_async=True)  # <-
        """, sig="X:*fp32"),
    Bad("shared-pointers", "tle.load", "pointer", r"copies from global memory, but these are shared-memory", """
        buf = tle.gpu.alloc([64], dtype=tl.float32)
        x = tle.load(tle.gpu.local_ptr(buf), is_async=True)  # <-
        """, sig="X:*fp32"),
    Bad("bool-elements", "tle.load", "pointer", r"does not load int1 elements \(pointer is a tensor of "
        r"pointer<int1>\)", marked(f"x = tle.load({PTRS}, is_async=True)"), sig="X:*i1"),
    Bad("boundary-check", "tle.load", "boundary_check", r"boundary_check and padding_option are for block pointers",
        marked(f"x = tle.load({PTRS}, boundary_check=(0,), is_async=True)"), sig="X:*fp32"),
    Bad("padding-option", "tle.load", "padding_option", r"boundary_check and padding_option are for block pointers",
        marked(f'x = tle.load({PTRS}, padding_option="zero", is_async=True)'), sig="X:*fp32"),
    Bad("cache-modifier", "tle.load", "cache_modifier", r"does not support cache_modifier='.cg'",
        marked(f'x = tle.load({PTRS}, cache_modifier=".cg", is_async=True)'), sig="X:*fp32"),
    Bad("eviction-policy", "tle.load", "eviction_policy", r"does not support eviction_policy='evict_last'",
        marked(f'x = tle.load({PTRS}, eviction_policy="evict_last", is_async=True)'), sig="X:*fp32"),
    Bad("volatile", "tle.load", "volatile", r"cannot be volatile",
        marked(f"x = tle.load({PTRS}, volatile=True, is_async=True)"), sig="X:*fp32"),
    Bad("other-without-mask", "tle.load", "other", r"`other` cannot be provided without `mask`",
        marked(f"x = tle.load({PTRS}, other=0.0, is_async=True)"), sig="X:*fp32"),
    Bad("float-mask", "tle.load", "mask", r"mask must be a boolean tensor, got fp32",
        marked(f"x = tle.load({PTRS}, mask=tl.arange(0, 64).to(tl.float32), is_async=True)"), sig="X:*fp32"),
    Bad("mask-shape", "tle.load", "mask", r"mask of shape \[32\] does not broadcast to \[64\]",
        marked(f"x = tle.load({PTRS}, mask=tl.arange(0, 32) < 5, is_async=True)"), sig="X:*fp32"),
    Bad("other-shape", "tle.load", "other", r"other of shape \[32\] does not broadcast to \[64\]",
        marked(f"x = tle.load({PTRS}, mask=tl.arange(0, 64) < 5, other=tl.zeros([32], tl.float32), is_async=True)"),
        sig="X:*fp32"),
    Bad("string-other", "tle.load", "other", r"other must be a tensor or a number, got 'zero'",
        marked(f'x = tle.load({PTRS}, mask=tl.arange(0, 64) < 5, other="zero", is_async=True)'), sig="X:*fp32"),
    Bad("pointer-other", "tle.load", "other", r"other must be a value to load where mask is false, got a pointer",
        marked(f"x = tle.load({PTRS}, mask=tl.arange(0, 64) < 3, other=X, is_async=True)"), sig="X:*fp32"),
    Bad("runtime-cache-modifier", "tle.load", "cache_modifier", r"does not support cache_modifier=<runtime int32>",
        marked(f"x = tle.load({PTRS}, cache_modifier=n, is_async=True)"), sig="X:*fp32, n:i32"),
    Bad("runtime-boundary-check", "tle.load", "boundary_check", r"boundary_check and padding_option are for block "
        r"pointers", marked(f"x = tle.load({PTRS}, boundary_check=n, is_async=True)"), sig="X:*fp32, n:i32"),
]

# --- tle.extract_tile / tle.insert_tile ---------------------------------------------------------

LOAD8x8 = "x = tl.load(X + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :])"

EXTRACT_TILE = [
    Bad("tile-shape-rank", "tle.extract_tile", "tile_shape", r"tile_shape \[8, 8\] has rank 2, but the tensor has "
        r"shape \[64\]", marked("t = tle.extract_tile(x, 0, [8, 8])", LOAD64)),
    Bad("tile-shape-divides", "tle.extract_tile", "tile_shape", r"tile_shape dimension 0 \(24\) does not divide",
        marked("t = tle.extract_tile(x, 0, [24])", LOAD64)),
    Bad("zero-tile-shape", "tle.extract_tile", "tile_shape", r"tile_shape dimension 0 is 0; expected > 0",
        marked("t = tle.extract_tile(x, 0, [0])", LOAD64)),
    Bad("negative-tile-shape", "tle.extract_tile", "tile_shape", r"tile_shape dimension 0 is -16; expected > 0",
        marked("t = tle.extract_tile(x, 0, [-16])", LOAD64)),
    Bad("int-tile-shape", "tle.extract_tile", "tile_shape", r"tile_shape must be a list of ints, got 16",
        marked("t = tle.extract_tile(x, 0, 16)", LOAD64)),
    Bad("runtime-tile-shape", "tle.extract_tile", "tile_shape", r"tile_shape must be a compile-time constant list",
        marked("t = tle.extract_tile(x, 0, [n])", LOAD64), sig="X:*i32, n:i32"),
    Bad("tensor-tile-shape", "tle.extract_tile", "tile_shape", r"tile_shape must be a compile-time constant list of "
        r"ints, got <int32 tensor of shape \[2\]>", marked("t = tle.extract_tile(x, 0, tl.arange(0, 2))", LOAD64)),
    Bad("index-out-of-range", "tle.extract_tile", "index", r"tile index 4 is out of range for the tile grid \[4\]",
        marked("t = tle.extract_tile(x, 4, [16])", LOAD64)),
    Bad("negative-index", "tle.extract_tile", "index", r"tile index -1 is out of range",
        marked("t = tle.extract_tile(x, -1, [16])", LOAD64)),
    Bad("coordinates-out-of-range", "tle.extract_tile", "index", r"index \[2, 0\] is out of range for the tile grid "
        r"\[2, 2\]", marked("t = tle.extract_tile(x, [2, 0], [4, 4])", LOAD8x8)),
    Bad("coordinate-count", "tle.extract_tile", "index", r"index \[1\] has 1 coordinates, but the tile grid \[2, 2\] "
        r"has rank 2", marked("t = tle.extract_tile(x, [1], [4, 4])", LOAD8x8)),
    Bad("runtime-coordinate", "tle.extract_tile", "index", r"index must be a compile-time constant list of ints, got "
        r"\[<runtime int32>, 0\]", marked("t = tle.extract_tile(x, [i, 0], [4, 4])", LOAD8x8), sig="X:*i32, i:i32"),
    Bad("float-index", "tle.extract_tile", "index", r"index must be an int, a list of grid coordinates or a scalar "
        r"integer tensor, got 1.5", marked("t = tle.extract_tile(x, 1.5, [16])", LOAD64)),
    Bad("bool-index", "tle.extract_tile", "index", r"index must be an int, .*got True",
        marked("t = tle.extract_tile(x, True, [16])", LOAD64)),
    Bad("runtime-float-index", "tle.extract_tile", "index", r"dynamic index must be an integer scalar, got fp32",
        marked("t = tle.extract_tile(x, f, [16])", LOAD64), sig="X:*i32, f:fp32"),
    Bad("tensor-index", "tle.extract_tile", "index", r"dynamic index must be a scalar integer, got a tensor of shape "
        r"\[16\]", marked("t = tle.extract_tile(x, tl.arange(0, 16), [16])", LOAD64)),
    Bad("scalar-x", "tle.extract_tile", "x", r"x must be a tensor of rank >= 1, got a scalar",
        marked("t = tle.extract_tile(tl.load(X), 0, [1])")),
    Bad("constant-x", "tle.extract_tile", "x", r"x must be a tensor of rank >= 1, got int",
        marked("t = tle.extract_tile(3, 0, [1])")),
    Bad("method-form-index", "tle.extract_tile", "index", r"tile index 8 is out of range",
        marked("t = x.extract_tile(index=8, shape=[16])", LOAD64)),
]

INSERT_TILE = [
    Bad("tile-dtype", "tle.insert_tile", "tile", r"the tile's dtype fp16 must equal the tensor's int32",
        marked("y = tle.insert_tile(x, tl.zeros([16], dtype=tl.float16), 1)", LOAD64)),
    Bad("tile-rank", "tle.insert_tile", "tile", r"tile shape \[8, 2\] has rank 2, but the tensor has shape \[64\]",
        marked("y = tle.insert_tile(x, tl.zeros([8, 2], dtype=tl.int32), 1)", LOAD64)),
    Bad("tile-divides", "tle.insert_tile", "tile", r"tile shape dimension 0 \(16\) does not divide the tensor's "
        r"dimension 0 \(8\)", marked("y = tle.insert_tile(x, tl.zeros([16, 4], dtype=tl.int32), 0)", LOAD8x8)),
    Bad("index-out-of-range", "tle.insert_tile", "index", r"tile index 4 is out of range",
        marked("y = tle.insert_tile(x, tl.zeros([16], dtype=tl.int32), 4)", LOAD64)),
    Bad("tensor-index", "tle.insert_tile", "index", r"dynamic index must be a scalar integer",
        marked("y = tle.insert_tile(x, tl.zeros([16], dtype=tl.int32), tl.arange(0, 4))", LOAD64)),
    Bad("scalar-tile", "tle.insert_tile", "tile", r"tile must be a tensor of rank >= 1, got int",
        marked("y = tle.insert_tile(x, 1, 0)", LOAD64)),
    Bad("scalar-x", "tle.insert_tile", "x", r"x must be a tensor of rank >= 1, got a scalar",
        marked("y = tle.insert_tile(tl.load(X), tl.zeros([16], dtype=tl.int32), 0)")),
    Bad("method-form-tile", "tle.insert_tile", "tile", r"tile's dtype fp32 must equal the tensor's int32",
        marked("y = x.insert_tile(tl.zeros([16], dtype=tl.float32), index=0)", LOAD64)),
]

# --- tle.gpu: buffers and pointers --------------------------------------------------------------

ALLOC64 = "buf = tle.gpu.alloc([64], dtype=tl.int32)"

ALLOC = [
    Bad("runtime-shape", "tle.gpu.alloc", "shape", r"shape must be a non-empty list of positive compile-time ints",
        marked("buf = tle.gpu.alloc([n], dtype=tl.int32)"), sig="X:*i32, n:i32"),
    Bad("zero-shape", "tle.gpu.alloc", "shape", r"got \[0\]", marked("buf = tle.gpu.alloc([0], dtype=tl.int32)")),
    Bad("negative-shape", "tle.gpu.alloc", "shape", r"got \[64, -4\]",
        marked("buf = tle.gpu.alloc([64, -4], dtype=tl.int32)")),
    Bad("empty-shape", "tle.gpu.alloc", "shape", r"got \[\]", marked("buf = tle.gpu.alloc([], dtype=tl.int32)")),
    Bad("float-shape", "tle.gpu.alloc", "shape", r"got \[1.5\]", marked("buf = tle.gpu.alloc([1.5], dtype=tl.int32)")),
    Bad("tensor-shape", "tle.gpu.alloc", "shape", r"shape must be a list of compile-time ints, got <int32 tensor of "
        r"shape \[4\]>", marked("buf = tle.gpu.alloc(tl.arange(0, 4), dtype=tl.int32)")),
    Bad("string-dtype", "tle.gpu.alloc", "dtype", r"dtype must be a scalar triton dtype, got 'int32'",
        marked('buf = tle.gpu.alloc([64], dtype="int32")')),
    Bad("unsupported-dtype", "tle.gpu.alloc", "dtype", r"dtype: TLE buffers cannot hold fp8e4b15",
        marked("buf = tle.gpu.alloc([64], dtype=tl.float8e4b15)")),
    Bad("tmem-scope", "tle.gpu.alloc", "scope", r"scope=tmem is Blackwell \(sm_100\+\) tensor memory",
        marked("buf = tle.gpu.alloc([64], dtype=tl.int32, scope=tle.gpu.tmem)")),
    Bad("string-scope", "tle.gpu.alloc", "scope", r"scope must be tle.gpu.smem, got 'global'",
        marked('buf = tle.gpu.alloc([64], dtype=tl.int32, scope="global")')),
    Bad("int-scope", "tle.gpu.alloc", "scope", r"scope must be tle.gpu.smem, got 3",
        marked("buf = tle.gpu.alloc([64], dtype=tl.int32, scope=3)")),
    Bad("layout", "tle.gpu.alloc", "layout", r"layout= must be None or a tle.gpu shared layout "
        r"\(swizzled_shared_layout, nv_mma_shared_layout\), got 'row_major'",
        marked('buf = tle.gpu.alloc([64], dtype=tl.int32, layout="row_major")')),
    Bad("layout-swizzled", "tle.gpu.alloc", "layout", r"layout=swizzled_shared_layout\(vec=8, perPhase=1, "
        r"maxPhase=8, order=\[0\]\) is not supported: TLE lays buffers out itself",
        marked("buf = tle.gpu.alloc([64], dtype=tl.int32, layout=tle.gpu.swizzled_shared_layout(8, 1, 8, [0]))")),
    Bad("layout-column-major", "tle.gpu.alloc", "layout", r"order=\[0, 1\]\) is not supported",
        marked("buf = tle.gpu.alloc([8, 8], dtype=tl.int32, layout=tle.gpu.swizzled_shared_layout(1, 1, 1, [0, 1]))")),
    Bad("layout-nvmma-shape", "tle.gpu.alloc", "layout", r"is for shape \[32\], the buffer is \[64\]",
        marked("buf = tle.gpu.alloc([64], dtype=tl.int32, layout=tle.gpu.nv_mma_shared_layout.make_default([32], "
               "tl.int32))")),
    Bad("layout-tmem", "tle.gpu.alloc", "layout", r"tensor_memory_layout \(Blackwell tensor memory\) is not "
        r"supported", marked("buf = tle.gpu.alloc([64], dtype=tl.int32, "
                             "layout=tle.gpu.tensor_memory_layout.make_default([64]))")),
    Bad("nv-mma-shared-layout", "tle.gpu.alloc", "nv_mma_shared_layout", r"nv_mma_shared_layout must be a "
        r"compile-time bool, got 'yes'", marked("buf = tle.gpu.alloc([64], dtype=tl.int32, nv_mma_shared_layout='yes')")),
    Bad("init-value-shape", "tle.gpu.alloc", "init_value", r"init_value: value of shape \[32\] does not match the "
        r"buffer's \[64\]", marked("buf = tle.gpu.alloc([64], dtype=tl.int32, init_value=tl.zeros([32], tl.int32))")),
    Bad("init-value-non-power-of-two", "tle.gpu.alloc", "init_value", r"the buffer shape \[48\] is used as a tensor "
        r"shape", marked("buf = tle.gpu.alloc([48], dtype=tl.int32, init_value=0)")),
    Bad("string-init-value", "tle.gpu.alloc", "init_value", r"init_value: value must be a tensor or a number, got "
        r"'zero'", marked('buf = tle.gpu.alloc([64], dtype=tl.int32, init_value="zero")')),
    Bad("runtime-scope", "tle.gpu.alloc", "scope", r"scope must be tle.gpu.smem, got <runtime int32>",
        marked("buf = tle.gpu.alloc([64], dtype=tl.int32, scope=n)"), sig="X:*i32, n:i32"),
]

LOCAL_PTR = [
    Bad("not-a-buffer", "tle.gpu.local_ptr", "buffer", r"expects a buffer from tle.gpu.alloc, got <runtime "
        r"pointer<int32>>", marked("p = tle.gpu.local_ptr(X, (0,))")),
    Bad("float-index", "tle.gpu.local_ptr", "index", r"index 0 must have an integer type, got fp32",
        marked("p = tle.gpu.local_ptr(buf, (tl.arange(0, 64).to(tl.float32),))", ALLOC64)),
    Bad("bool-tensor-index", "tle.gpu.local_ptr", "index", r"index 0 must have an integer type, got int1",
        marked("p = tle.gpu.local_ptr(buf, (tl.arange(0, 64) > 3,))", ALLOC64)),
    Bad("index-count", "tle.gpu.local_ptr", "indices", r"got 2 indices for a rank-1 buffer",
        marked("p = tle.gpu.local_ptr(buf, (0, 0))", ALLOC64)),
    Bad("mixed-indices", "tle.gpu.local_ptr", "indices", r"cannot mix scalar and tensor indices", """
        buf = tle.gpu.alloc([16, 16], dtype=tl.int32)
        p = tle.gpu.local_ptr(buf, (tl.arange(0, 16), 3))  # <-
        """),
    Bad("bool-index", "tle.gpu.local_ptr", "index", r"index 0 must be an integer, got True",
        marked("p = tle.gpu.local_ptr(buf, (True,))", ALLOC64)),
    Bad("string-index", "tle.gpu.local_ptr", "index", r"index 0 must be an integer scalar or tensor, got 'a'",
        marked('p = tle.gpu.local_ptr(buf, ("a",))', ALLOC64)),
    Bad("float-indices", "tle.gpu.local_ptr", "indices", r"indices must be a tuple with one index per buffer "
        r"dimension, got 1.5", marked("p = tle.gpu.local_ptr(buf, 1.5)", ALLOC64)),
    Bad("full-view-non-power-of-two", "tle.gpu.local_ptr", "indices", r"the buffer shape \[48\] is used as a tensor "
        r"shape", """
        buf = tle.gpu.alloc([48], dtype=tl.int32)
        p = tle.gpu.local_ptr(buf)  # <-
        """),
    Bad("index-shapes", "tle.gpu.local_ptr", "indices", r"indices of shapes \[\[16\], \[32\]\] do not broadcast to one "
        r"shape", """
        buf = tle.gpu.alloc([16, 32], dtype=tl.int32)
        p = tle.gpu.local_ptr(buf, (tl.arange(0, 16), tl.arange(0, 32)))  # <-
        """),
    Bad("constant-index-out-of-range", "tle.gpu.local_ptr", "index", r"index 0 is 64, outside \[0, 64\)",
        marked("p = tle.gpu.local_ptr(buf, (64,))", ALLOC64)),
    Bad("negative-constant-index", "tle.gpu.local_ptr", "index", r"index 1 is -1, outside \[0, 8\)", """
        buf = tle.gpu.alloc([4, 8], dtype=tl.int32)
        p = tle.gpu.local_ptr(buf, (0, -1))  # <-
        """),
]

LOCAL_PTR_OFFSETS = [
    Bad("indices-and-offsets", "tle.gpu.local_ptr", "offsets", r"takes indices= \(one index per dimension\) or "
        r"offsets= \(flat element offsets\), not both",
        marked("p = tle.gpu.local_ptr(buf, (tl.arange(0, 64),), offsets=tl.arange(0, 64))", ALLOC64)),
    Bad("float-offsets", "tle.gpu.local_ptr", "offsets", r"offsets= must have an integer type, got fp32",
        marked("p = tle.gpu.local_ptr(buf, offsets=tl.arange(0, 64).to(tl.float32))", ALLOC64)),
    Bad("bool-offsets", "tle.gpu.local_ptr", "offsets", r"offsets= must have an integer type, got int1",
        marked("p = tle.gpu.local_ptr(buf, offsets=tl.arange(0, 64) > 3)", ALLOC64)),
    Bad("tuple-offsets", "tle.gpu.local_ptr", "offsets", r"offsets= takes one tensor of flat \(row-major\) element "
        r"offsets, got .*; for one index per dimension use indices=", """
        buf = tle.gpu.alloc([8, 8], dtype=tl.int32)
        p = tle.gpu.local_ptr(buf, offsets=(tl.arange(0, 8), tl.arange(0, 8)))  # <-
        """),
    Bad("scalar-offsets", "tle.gpu.local_ptr", "offsets", r"offsets= must be a tensor of flat \(row-major\) element "
        r"offsets, got 3; for a single element use indices=",
        marked("p = tle.gpu.local_ptr(buf, offsets=3)", ALLOC64)),
    Bad("runtime-scalar-offsets", "tle.gpu.local_ptr", "offsets", r"offsets= must be a tensor .*got <runtime int32>",
        marked("p = tle.gpu.local_ptr(buf, offsets=n)", ALLOC64), sig="X:*i32, n:i32"),
]

LOCAL_LOAD = [
    Bad("not-a-buffer", "tle.gpu.local_load", "buffer", r"expects a buffer from tle.gpu.alloc, got <runtime "
        r"pointer<int32>>", marked("x = tle.gpu.local_load(X)")),
    Bad("constant", "tle.gpu.local_load", "buffer", r"expects a buffer from tle.gpu.alloc, got 3",
        marked("x = tle.gpu.local_load(3)")),
    Bad("remote-view", "tle.gpu.local_load", "buffer", r"a remote buffer view is read through tle.gpu.local_ptr",
        marked("x = tle.gpu.local_load(tle.remote(buf, 1, scope=MESH2))", ALLOC64)),
    Bad("non-power-of-two", "tle.gpu.local_load", "buffer", r"the buffer shape \[48\] is used as a tensor shape", """
        buf = tle.gpu.alloc([48], dtype=tl.int32)
        x = tle.gpu.local_load(buf)  # <-
        """),
]

LOCAL_STORE = [
    Bad("not-a-buffer", "tle.gpu.local_store", "buffer", r"expects a buffer from tle.gpu.alloc, got <runtime "
        r"pointer<int32>>", marked("tle.gpu.local_store(X, tl.zeros([64], tl.int32))")),
    Bad("value-shape", "tle.gpu.local_store", "value", r"value of shape \[32\] does not match the buffer's \[64\]",
        marked("tle.gpu.local_store(buf, tl.zeros([32], tl.int32))", ALLOC64)),
    Bad("remote-view", "tle.gpu.local_store", "buffer", r"a remote buffer view is written through tle.gpu.local_ptr",
        marked("tle.gpu.local_store(tle.remote(buf, 1, scope=MESH2), tl.zeros([64], tl.int32))", ALLOC64)),
    Bad("non-power-of-two", "tle.gpu.local_store", "buffer", r"the buffer shape \[48\] is used as a tensor shape",
        """
        buf = tle.gpu.alloc([48], dtype=tl.int32)
        tle.gpu.local_store(buf, 0)  # <-
        """),
    Bad("string-value", "tle.gpu.local_store", "value", r"local_store: value must be a tensor or a number, got "
        r"'zero'", marked('tle.gpu.local_store(buf, "zero")', ALLOC64)),
    Bad("pointer-value", "tle.gpu.local_store", "value", r"value holds pointers \(pointer<int32>\); a buffer of int32 "
        r"cannot store them", marked("tle.gpu.local_store(buf, X + tl.arange(0, 64))", ALLOC64)),
]

# FlagTree's buffer methods: the messages name the method.
BUFFER_METHODS = [
    Bad("element-count", "tle.gpu.buffered_tensor.reshape", "shape",
        r"reshape: shape \[4, 8\] has 32 elements but the buffer \[64\] has 64",
        marked("v = buf.reshape([4, 8])", ALLOC64)),
    Bad("runtime-shape", "tle.gpu.buffered_tensor.reshape", "shape",
        r"reshape takes a shape: a list of positive compile-time ints, got \[<runtime int32>\]",
        marked("v = buf.reshape([n])", ALLOC64), sig="X:*i32, n:i32"),
    Bad("view-not-a-buffer", "tle.gpu.wgmma", "a",
        r"wgmma a must be a shared-memory buffer \(tle.gpu.alloc\), got buffer_view<\[8, 8\]",
        marked("s = tle.gpu.wgmma(buf.reshape([8, 8]), buf.reshape([8, 8]))", ALLOC64)),
    Bad("view-index-count", "tle.gpu.local_ptr", "index",
        r"local_ptr of a reshaped view takes one index per dimension of its shape \[8, 8\]",
        marked("p = tle.gpu.local_ptr(buf.reshape([8, 8]), (tl.arange(0, 8),))", ALLOC64)),
    Bad("value-shape", "tle.gpu.buffered_tensor.store", "value",
        r"buffered_tensor.store: value of shape \[32\] does not match the buffer's \[64\]",
        marked("buf.store(tl.zeros([32], tl.int32))", ALLOC64)),
    Bad("remote-view", "tle.gpu.buffered_tensor.load", "buffer",
        r"buffered_tensor.load: a remote buffer view is read through tle.gpu.local_ptr",
        marked("x = tle.remote(buf, 1, scope=MESH2).load()", ALLOC64)),
    Bad("non-power-of-two", "tle.gpu.buffered_tensor.load", "buffer",
        r"buffered_tensor.load: the buffer shape \[48\] is used as a tensor shape", """
        buf = tle.gpu.alloc([48], dtype=tl.int32)
        x = buf.load()  # <-
        """),
]

COPY = [
    Bad("two-buffers", "tle.gpu.copy", "src", r"exactly one of src and dst must be a buffer",
        marked("tle.gpu.copy(buf, buf, [64])", ALLOC64)),
    Bad("no-buffer", "tle.gpu.copy", "dst", r"exactly one of src and dst must be a buffer",
        marked(f"tle.gpu.copy({PTRS}, {PTRS}, [64])")),
    Bad("shape-mismatch", "tle.gpu.copy", "shape", r"requires shape to exactly match both operands: shape \[32\], the "
        r"pointer tensor's \[32\], the buffer's \[64\]", marked("tle.gpu.copy(X + tl.arange(0, 32), buf, [32])", ALLOC64)),
    Bad("element-type", "tle.gpu.copy", "src", r"src points to fp32 but the buffer \(dst\) holds int32",
        marked(f"tle.gpu.copy({PTRS}, buf, [64])", ALLOC64), sig="X:*fp32"),
    Bad("shared-pointers", "tle.gpu.copy", "dst", r"address space 3", f"""
        {ALLOC64}
        other = tle.gpu.alloc([64], dtype=tl.int32)
        tle.gpu.copy(buf, tle.gpu.local_ptr(other), [64])  # <-
        """),
    Bad("scalar-pointer", "tle.gpu.copy", "src", r"src must be a tensor of global pointers \(dst is the buffer\), "
        r"got <runtime pointer<int32>>", marked("tle.gpu.copy(X, buf, [64])", ALLOC64)),
    Bad("offsets", "tle.gpu.copy", "offsets", r"offsets= is for a tensor-descriptor source or destination",
        marked(f"tle.gpu.copy({PTRS}, buf, [64], offsets=[0])", ALLOC64)),
    Bad("barrier", "tle.gpu.copy", "barrier", r"tle.gpu.copy barrier= expects a barrier \(tle.gpu.alloc_barriers"
        r"\(...\)\[i\], .*got 1",
        marked(f"tle.gpu.copy({PTRS}, buf, [64], barrier=1)", ALLOC64)),
    Bad("runtime-shape", "tle.gpu.copy", "shape", r"shape must be a non-empty list of positive compile-time ints",
        marked(f"tle.gpu.copy({PTRS}, buf, [n])", ALLOC64), sig="X:*i32, n:i32"),
    Bad("remote-view", "tle.gpu.copy", "dst", r"remote buffer view",
        marked(f"tle.gpu.copy({PTRS}, tle.remote(buf, 1, scope=MESH2), [64])", ALLOC64)),
]

DESC_SIG = "X:*fp32, D:tensordesc<fp32[8,64]>, n:i32"
ALLOC_8x64 = "buf = tle.gpu.alloc([8, 64], dtype=tl.float32)"

COPY_DESCRIPTOR = [
    Bad("load-shape", "tle.gpu.copy", "shape", r"from a tensor descriptor: shape \[8, 32\] must equal the "
        r"descriptor's block shape \[8, 64\] and the buffer's shape \[8, 32\]", """
        buf = tle.gpu.alloc([8, 32], dtype=tl.float32)
        tle.gpu.copy(D, buf, [8, 32], [0, 0])  # <-
        """, sig=DESC_SIG),
    Bad("store-dtype", "tle.gpu.copy", "buffer", r"to a tensor descriptor: the descriptor holds fp32 but the buffer "
        r"holds int32", """
        buf = tle.gpu.alloc([8, 64], dtype=tl.int32)
        tle.gpu.copy(buf, D, [8, 64], [0, 0])  # <-
        """, sig=DESC_SIG),
    Bad("no-offsets", "tle.gpu.copy", "offsets", r"needs offsets=\[...\], one scalar coordinate per dimension of "
        r"the descriptor \(2\), got offsets=None",
        marked("tle.gpu.copy(D, buf, [8, 64])", ALLOC_8x64), sig=DESC_SIG),
    Bad("offsets-count", "tle.gpu.copy", "offsets", r"one scalar coordinate per dimension of the descriptor \(2\)",
        marked("tle.gpu.copy(buf, D, [8, 64], [0])", ALLOC_8x64), sig=DESC_SIG),
    Bad("float-offset", "tle.gpu.copy", "offsets", r"offsets\[1\] must be an integer scalar, got 0.5",
        marked("tle.gpu.copy(D, buf, [8, 64], [n, 0.5])", ALLOC_8x64), sig=DESC_SIG),
    Bad("store-async", "tle.gpu.copy", "is_async", r"to a tensor descriptor: is_async must be a compile-time bool, "
        r"got 2",
        marked("tle.gpu.copy(buf, D, [8, 64], [0, 0], is_async=2)", ALLOC_8x64), sig=DESC_SIG),
    Bad("descriptor-barrier", "tle.gpu.copy", "barrier", r"from a tensor descriptor barrier= expects a barrier.*got 1",
        marked("tle.gpu.copy(D, buf, [8, 64], [0, 0], barrier=1)", ALLOC_8x64), sig=DESC_SIG),
    Bad("pointer-side", "tle.gpu.copy", "dst", r"from a tensor descriptor copies into a buffer: dst must be a "
        r"tle.gpu.alloc buffer", marked("tle.gpu.copy(D, X + tl.arange(0, 64), [8, 64], [0, 0])"), sig=DESC_SIG),
]

MEMORY_SPACE = [
    Bad("unknown-space", "tle.gpu.memory_space", "space", r"space must be 'shared_memory', got 'global'",
        marked('y = tle.gpu.memory_space(x, "global")', LOAD64)),
    Bad("runtime-space", "tle.gpu.memory_space", "space", r"space must be \'shared_memory\', got <runtime int32>",
        marked("y = tle.gpu.memory_space(x, s)", LOAD64), sig="X:*i32, s:i32"),
    Bad("scalar-input", "tle.gpu.memory_space", "input", r"input must be a tensor, got <runtime int32>",
        marked('y = tle.gpu.memory_space(tl.load(X), "shared_memory")')),
    Bad("constant-input", "tle.gpu.memory_space", "input", r"input must be a tensor, got 3",
        marked('y = tle.gpu.memory_space(3, "shared_memory")')),
    Bad("pointer-input", "tle.gpu.memory_space", "input", r"input holds pointers \(pointer<int32>\), which TLE buffers "
        r"cannot hold", marked(f'y = tle.gpu.memory_space({PTRS}, "shared_memory")')),
    Bad("tmem-space", "tle.gpu.memory_space", "space", r"space must be 'shared_memory', got tle.gpu.tmem",
        marked("y = tle.gpu.memory_space(x, tle.gpu.tmem)", LOAD64)),
]

REMOTE = [
    Bad("signal-not-a-context", "tle.signal", "device_dptr", r"tle.signal: device_dptr must be the context "
        r"tle.create_dist_tensor returned", marked("tle.signal(X, 0, slot_id=0)")),
    Bad("signal-peer-out-of-range", "tle.signal", "peer", r"tle.signal: peer=2 is not a rank of the context's 2 ranks",
        marked("tle.signal(FTCTX, 2, slot_id=0)")),
    Bad("signal-slot-out-of-range", "tle.signal", "slot_id", r"slot_id must be a compile-time int in \[0, 4\)",
        marked("tle.signal(FTCTX, 1, slot_id=4)")),
    Bad("signal-inc-with-value", "tle.signal", "value", r"op='inc' adds 1; value= must be omitted",
        marked("tle.signal(FTCTX, 1, slot_id=0, value=3)")),
    Bad("signal-warp-group", "tle.signal", "group_kind", r"group_kind must be one of 'block', 'thread'",
        marked("tle.signal(FTCTX, 1, slot_id=0, group_kind='warp')")),
    Bad("signal-inter-node", "tle.signal", "space", r"space must be 'intra_node' or 'world'",
        marked("tle.signal(FTCTX, 1, slot_id=0, space='inter_node')")),
    Bad("wait-shadow", "tle.signal_wait", "wait_kind", r"wait_kind must be 'signal'",
        marked("tle.signal_wait(FTCTX, slot_id=0, wait_kind='shadow')")),
    Bad("wait-no-target", "tle.signal_wait", "target", r"target must be an integer",
        marked("tle.signal_wait(FTCTX, slot_id=0)")),
    Bad("wait-release-order", "tle.signal_wait", "order", r"order must be 'acquire' or 'relaxed'",
        marked("tle.signal_wait(FTCTX, slot_id=0, target=1, order='release')")),
    Bad("wait-context-index", "tle.signal_wait", "context_idx", r"context_idx=1: torch.distributed's symmetric "
        r"memory has one context", marked("tle.signal_wait(FTCTX, slot_id=0, target=1, context_idx=1)")),
    Bad("my-pe-pointer", "tle.my_pe", "comm_ptr", r"tle.my_pe: comm_ptr must be a handle tle.create_comm_tensor "
        r"returned", marked("r = tle.my_pe(X)")),
    Bad("my-pe-int32", "tle.my_pe", "comm_ptr", r"got <runtime int32>", marked("r = tle.my_pe(n)"),
        sig="X:*i32, n:i32"),
    Bad("barrier-handle-node-space", "tle.distributed_barrier", "space", r"space must be 'device'",
        marked("tle.distributed_barrier(comm_ptr=h, space='node')"), sig="X:*i32, h:i64"),
    Bad("barrier-context-warp", "tle.distributed_barrier", "group_kind", r"takes space= only",
        marked("tle.distributed_barrier(device_dptr=FTCTX, space='device', group_kind='warp')")),
    Bad("remote-handle-no-dtype", "tle.remote", "dtype", r"dtype= must be a Triton element type",
        marked("p = tle.remote(h, shard_id=1, space='device')"), sig="X:*i32, h:i64"),
    Bad("remote-context-no-dtype", "tle.remote", "dtype", r"needs dtype=",
        marked("p = tle.remote(FTCTX, shard_id=1, space='device')")),
    Bad("remote-context-node-space", "tle.remote", "space", r"reaches a peer's buffer in space 'device'",
        marked("p = tle.remote(FTCTX, shard_id=1, space='node', dtype=tl.float32)")),
    Bad("scope-not-a-mesh", "tle.remote", "scope", r"scope must be a tle.device_mesh \(as a tl.constexpr\), got 3",
        marked("peer = tle.remote(buf, 1, scope=3)", ALLOC64)),
    Bad("no-cluster", "tle.remote", "scope", r"needs a thread-block cluster",
        marked("peer = tle.remote(buf, 1, scope=DEVICES)", ALLOC64)),
    Bad("one-cta-cluster", "tle.remote", "scope", r"needs a thread-block cluster",
        marked("peer = tle.remote(buf, 0, scope=ONE_CTA)", ALLOC64)),
    Bad("tensor-shard-id", "tle.remote", "shard_id", r"shard_id must be a scalar, got a tensor of shape \[2\]",
        marked("peer = tle.remote(buf, tl.arange(0, 2), scope=MESH2)", ALLOC64)),
    Bad("float-shard-id", "tle.remote", "shard_id", r"shard_id must be an integer, got 0.5",
        marked("peer = tle.remote(buf, 0.5, scope=MESH2)", ALLOC64)),
    Bad("runtime-float-shard-id", "tle.remote", "shard_id", r"shard_id must be an integer, got fp32",
        marked("peer = tle.remote(buf, f, scope=MESH2)", ALLOC64), sig="X:*i32, f:fp32"),
    Bad("coordinate-count", "tle.remote", "shard_id", r"shard_id has 2 coordinates but .* has 1 block_cluster axes",
        marked("peer = tle.remote(buf, (0, 1), scope=MESH2)", ALLOC64)),
    Bad("shard-id-out-of-range", "tle.remote", "shard_id", r"shard_id 2 is outside \[0, 2\)",
        marked("peer = tle.remote(buf, 2, scope=MESH2)", ALLOC64)),
    Bad("coordinate-out-of-range", "tle.remote", "shard_id", r"coordinate 1 is 2, outside \[0, 2\)",
        marked("peer = tle.remote(buf, (0, 2), scope=MESH2x2)", ALLOC64)),
    Bad("global-pointer", "tle.remote", "buffer_or_ptr", r"got pointers in address space 1",
        marked(f"peer = tle.remote({PTRS}, 1, scope=MESH2)")),
    Bad("remote-of-remote", "tle.remote", "buffer_or_ptr", r"tle.remote of a remote buffer view",
        marked("peer = tle.remote(tle.remote(buf, 1, scope=MESH2), 0, scope=MESH2)", ALLOC64)),
    Bad("runtime-scope", "tle.remote", "scope", r"scope must be a tle.device_mesh \(as a tl.constexpr\), got "
        r"<runtime int32>", marked("peer = tle.remote(buf, 0, scope=n)", ALLOC64), sig="X:*i32, n:i32"),
]

# --- meshes -------------------------------------------------------------------------------------

SHARD_ID = [
    Bad("mesh-not-a-mesh", "tle.shard_id", "mesh", r"mesh must be a tle.device_mesh \(as a tl.constexpr\), got 3",
        marked('r = tle.shard_id(3, "cx")')),
    Bad("runtime-mesh", "tle.shard_id", "mesh", r"got <runtime pointer<int32>>", marked('r = tle.shard_id(X, "cx")')),
    Bad("unknown-axis", "tle.shard_id", "axis", r"'cy' is not an axis of", marked('r = tle.shard_id(MESH2, "cy")')),
    Bad("int-axis-out-of-range", "tle.shard_id", "axis", r"axis index 2 is out of range for",
        marked("r = tle.shard_id(MESH2, 2)")),
    Bad("block-axis-with-cluster", "tle.shard_id", "axis", r"a mesh with block_cluster axes too is not supported",
        marked('r = tle.shard_id(BLOCK_AND_CLUSTER, "bx")')),
    Bad("device-axis-without-context", "tle.shard_id", "context",
        r"mesh axis 'dx' is a device axis; pass context=tle.device_context",
        marked('r = tle.shard_id(DEVICES, "dx")')),
    Bad("runtime-axis", "tle.shard_id", "axis", r"axis must be an axis name \(str\) or its index \(int\), got <runtime int32>",
        marked("r = tle.shard_id(MESH2, n)"), sig="X:*i32, n:i32"),
]

DISTRIBUTED_BARRIER = [
    Bad("mesh-not-a-mesh", "tle.distributed_barrier", "mesh", r"mesh must be a tle.device_mesh \(as a "
        r"tl.constexpr\), got 3", marked("tle.distributed_barrier(3)")),
    Bad("runtime-mesh", "tle.distributed_barrier", "mesh", r"got <runtime pointer<int32>>",
        marked("tle.distributed_barrier(X)")),
    Bad("no-cluster", "tle.distributed_barrier", "mesh", r"needs a thread-block cluster",
        marked("tle.distributed_barrier(DEVICES)")),
    Bad("one-cta-cluster", "tle.distributed_barrier", "mesh", r"needs a thread-block cluster",
        marked("tle.distributed_barrier(ONE_CTA)")),
]

# --- tle.pipe and its endpoints; tle.gpu.warp_specialize ----------------------------------------

PIPE = [
    Bad("runtime-capacity", "tle.pipe", "capacity", r"capacity must be a positive compile-time int, got <runtime "
        r"int32>", marked("p = tle.pipe(n, x=([64], tl.float32))"), sig="X:*i32, n:i32"),
    Bad("zero-capacity", "tle.pipe", "capacity", r"capacity must be a positive compile-time int, got 0",
        marked("p = tle.pipe(0, x=([64], tl.float32))")),
    Bad("float-capacity", "tle.pipe", "capacity", r"capacity must be a positive compile-time int, got 2.5",
        marked("p = tle.pipe(2.5, x=([64], tl.float32))")),
    Bad("scope", "tle.pipe", "scope", r"scope must be \"cta\" \(the only scope supported\), got 'cluster'",
        marked('p = tle.pipe(2, scope="cluster", x=([64], tl.float32))')),
    Bad("name-not-an-identifier", "tle.pipe", "name", r"name must be an identifier string, got 'my pipe'",
        marked('p = tle.pipe(2, name="my pipe", x=([64], tl.float32))')),
    Bad("int-name", "tle.pipe", "name", r"name must be an identifier string, got 3",
        marked("p = tle.pipe(2, name=3, x=([64], tl.float32))")),
    Bad("duplicate-readers", "tle.pipe", "reader", r"reader names must be unique, got \['a', 'a'\]",
        marked('p = tle.pipe(2, readers="a, a", x=([64], tl.float32))')),
    Bad("empty-reader-name", "tle.pipe", "reader", r"reader name must be an identifier string, got ''",
        marked('p = tle.pipe(2, readers="", x=([64], tl.float32))')),
    Bad("int-readers", "tle.pipe", "readers", r"readers must be reader names .*got 3",
        marked("p = tle.pipe(2, readers=3, x=([64], tl.float32))")),
    Bad("runtime-one-shot", "tle.pipe", "one_shot", r"one_shot must be a compile-time bool, got <runtime int1>",
        marked("p = tle.pipe(2, one_shot=b, x=([64], tl.float32))"), sig="X:*i32, b:i1"),
    Bad("rank-1-field-buffer", "tle.pipe", "field", r"field 'x': a field buffer has rank >= 2",
        marked("p = tle.pipe(2, x=tle.gpu.alloc([2], tl.float32))")),
    Bad("stage-count", "tle.pipe", "field", r"stage count mismatch: the buffer's dim 0 is 2 but the pipe has "
        r"capacity 3", marked("p = tle.pipe(3, x=tle.gpu.alloc([2, 64], tl.float32))")),
    Bad("field-dtype", "tle.pipe", "field", r"field 'x': dtype must be a scalar triton dtype, got 'fp32'",
        marked('p = tle.pipe(2, x=([64], "fp32"))')),
    Bad("unsupported-field-dtype", "tle.pipe", "field", r"field \'x\' dtype: TLE buffers cannot hold fp8e4b15",
        marked("p = tle.pipe(2, x=([64], tl.float8e4b15))")),
    Bad("runtime-field-shape", "tle.pipe", "field", r"field 'x' shape must be a non-empty list of positive "
        r"compile-time ints", marked("p = tle.pipe(2, x=([n], tl.float32))"), sig="X:*i32, n:i32"),
    Bad("field-not-a-buffer", "tle.pipe", "field", r"field 'x' expects a buffer from tle.gpu.alloc, got <runtime "
        r"pointer<int32>>", marked("p = tle.pipe(2, x=X)")),
    Bad("remote-field", "tle.pipe", "field", r"field 'x': a remote buffer view cannot be a pipe field", """
        buf = tle.gpu.alloc([2, 64], tl.float32)
        p = tle.pipe(2, x=tle.remote(buf, 1, scope=MESH2))  # <-
        """),
    Bad("runtime-name", "tle.pipe", "name", r"name must be an identifier string, got <runtime int32>",
        marked("p = tle.pipe(2, name=n, x=([64], tl.float32))"), sig="X:*i32, n:i32"),
    Bad("runtime-readers", "tle.pipe", "readers", r"readers must be reader names .*got <runtime int32>",
        marked("p = tle.pipe(2, readers=n, x=([64], tl.float32))"), sig="X:*i32, n:i32"),
]

PIPE_ENDPOINTS = [
    Bad("unknown-reader", "reader", "name", r"pipe 'p' has no reader 's' \(readers: \['r'\]\)", """
        p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
        r = p.reader("s")  # <-
        """),
    Bad("ambiguous-reader", "reader", "name", r"pipe 'p' has readers \['a', 'b'\]; name the one you want", """
        p = tle.pipe(2, name="p", readers="a, b", x=([64], tl.float32))
        r = p.reader()  # <-
        """),
    Bad("pipe-passed-to-a-function", "tle.pipe", "pipe", r"tle.pipe: pass a pipe\'s endpoints \(pipe.writer\(\), "
        r"pipe.reader\(name\)\) to functions, not the pipe itself", """
        p = tle.pipe(2, name="p", x=([64], tl.float32))
        _nothing(p)  # <-
        """),
    Bad("close-one-shot", "close", "one_shot", r"pipe 'p' is one_shot: its stream ends by itself", """
        p = tle.pipe(2, name="p", one_shot=True, x=([64], tl.float32))
        p.writer().close()  # <-
        """),
    Bad("commit-non-slot", "commit", "slot", r"expects a slot from this endpoint's acquire\(\) \(or the cursor / "
        r"iteration it took the slot at\), got 1.5", """
        p = tle.pipe(2, name="p", x=([64], tl.float32))
        p.writer().commit(1.5)  # <-
        """),
    Bad("release-writer-slot", "release", "slot", r"the slot was handed out by the writer of pipe<p", """
        p = tle.pipe(2, name="p", x=([64], tl.float32))
        slot = p.writer().acquire()
        p.reader().release(slot)  # <-
        """),
    Bad("commit-reader-slot", "commit", "slot", r"the slot was handed out by the reader 'reader' of pipe<p", """
        p = tle.pipe(2, name="p", x=([64], tl.float32))
        slot, closed = p.reader().wait()
        p.writer().commit(slot)  # <-
        """),
    Bad("unknown-field", "field", "field", r"pipe 'p' has no field 'y' \(fields: \['x'\]\)", """
        p = tle.pipe(2, name="p", x=([64], tl.float32))
        slot = p.writer().acquire()
        v = slot["y"]  # <-
        """),
    Bad("field-method-unknown", "field", "field", r"pipe 'p' has no field 0", """
        p = tle.pipe(2, name="p", x=([64], tl.float32))
        slot = p.writer().acquire()
        v = slot.field(0)  # <-
        """),
    Bad("runtime-reader-name", "reader", "name", r"pipe 'p' has no reader <runtime int32>",
        marked("r = p.reader(n)", 'p = tle.pipe(2, name="p", x=([64], tl.float32))'), sig="X:*i32, n:i32"),
    Bad("runtime-field-name", "field", "field", r"pipe 'p' has no field <runtime int32>",
        marked("v = slot[n]", 'p = tle.pipe(2, name="p", x=([64], tl.float32))', "slot = p.writer().acquire()"),
        sig="X:*i32, n:i32"),
]

WS_PAIRS = "[(_nothing, (X,)), (_nothing, (X,))]"

WARP_SPECIALIZE = [
    Bad("not-a-list", "tle.gpu.warp_specialize", "function", r"expects a list of \(function, args\) pairs",
        marked("tle.gpu.warp_specialize(_nothing, worker_num_warps=[1])")),
    Bad("one-partition", "tle.gpu.warp_specialize", "function", r"the default partition then at least one worker",
        marked("tle.gpu.warp_specialize([(_nothing, (X,))], worker_num_warps=[])")),
    Bad("entry-not-a-pair", "tle.gpu.warp_specialize", "entry", r"entry 1 must be a \(function, args\) pair",
        marked("tle.gpu.warp_specialize([(_nothing, (X,)), _nothing], worker_num_warps=[1])")),
    Bad("not-a-jit-function", "tle.gpu.warp_specialize", "entry", r"entry 1: 3 is not a @triton.jit function",
        marked("tle.gpu.warp_specialize([(_nothing, (X,)), (3, (X,))], worker_num_warps=[1])")),
    Bad("args-not-a-tuple", "tle.gpu.warp_specialize", "entry", r"entry 1: the arguments must be a tuple",
        marked("tle.gpu.warp_specialize([(_nothing, (X,)), (_nothing, X)], worker_num_warps=[1])")),
    Bad("warps-count", "tle.gpu.warp_specialize", "worker_num_warps", r"got 1 worker partitions but 2 "
        r"worker_num_warps", marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[1, 2])")),
    Bad("warps-not-a-power-of-two", "tle.gpu.warp_specialize", "num_warps", r"worker 0: num_warps must be a power of "
        r"two, got 3", marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[3])")),
    Bad("warps-not-a-list", "tle.gpu.warp_specialize", "worker_num_warps", r"worker_num_warps must be a list of ints",
        marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=4)")),
    Bad("regs-range", "tle.gpu.warp_specialize", "num_regs", r"worker 0: num_regs must be a multiple of 8 in "
        r"\[24, 256\], got 16",
        marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[1], worker_num_regs=[16])")),
    Bad("regs-multiple", "tle.gpu.warp_specialize", "num_regs", r"got 41",
        marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[1], worker_num_regs=[41])")),
    Bad("regs-count", "tle.gpu.warp_specialize", "worker_num_regs", r"got 1 workers but 2 worker_num_regs",
        marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[1], worker_num_regs=[40, 40])")),
    Bad("runtime-regs", "tle.gpu.warp_specialize", "worker_num_regs", r"worker_num_regs must be a list of ints",
        marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[1], worker_num_regs=n)"), sig="X:*i32, n:i32"),
]

# --- tle.range / tle.pipeline_group -------------------------------------------------------------


LOOP_SIG = "X:*fp32, n:i32"


def staged_loop(range_args: str, groups=(0, 1)) -> str:
    """A loop over ``tle.range(0, n, 1, <range_args>)`` (the marked line)
    whose body has one ``tle.pipeline_group`` block per entry of ``groups``."""
    body = "".join(f"    with tle.pipeline_group({g}):\n        acc += tl.load(X + i)\n" for g in groups)
    return f"acc = 0.0\nfor i in tle.range(0, n, 1, {range_args}):  # <-\n{body}tl.store(X, acc)\n"


RANGE = [
    Bad("int-pipe-stages", "tle.range", "pipe_stages", r"pipe_stages must be a list of constexpr ints, got 2",
        staged_loop("num_stages=2, pipe_stages=2"), sig=LOOP_SIG),
    Bad("float-pipe-stage", "tle.range", "pipe_stages", r"pipe_stages entries must be constexpr ints, got 1.5",
        staged_loop("num_stages=2, pipe_stages=[0, 1.5]"), sig=LOOP_SIG),
    Bad("runtime-pipe-stage", "tle.range", "pipe_stages", r"pipe_stages entries must be constexpr ints, got <runtime "
        r"int32>",
        staged_loop("num_stages=2, pipe_stages=[0, s]"), sig="X:*fp32, n:i32, s:i32"),
    Bad("orders-without-stages", "tle.range", "pipe_orders", r"pipe_orders / executors need pipe_stages",
        staged_loop("num_stages=2, pipe_orders=[0, 1]"), sig=LOOP_SIG),
    Bad("empty-pipe-stages", "tle.range", "pipe_stages", r"pipe_stages is empty",
        staged_loop("num_stages=2, pipe_stages=[]"), sig=LOOP_SIG),
    Bad("no-num-stages", "tle.range", "num_stages", r"with pipe_stages needs num_stages, a constexpr int >= 1, "
        r"got None",
        staged_loop("pipe_stages=[0, 1]"), sig=LOOP_SIG),
    Bad("runtime-num-stages", "tle.range", "num_stages", r"needs num_stages, a constexpr int >= 1, got <runtime int32>",
        staged_loop("num_stages=n, pipe_stages=[0, 1]"), sig=LOOP_SIG),
    Bad("stage-too-large", "tle.range", "pipe_stages", r"pipe_stages\[1\] = 2 must be in \[0, num_stages = 2\)",
        staged_loop("num_stages=2, pipe_stages=[0, 2]"), sig=LOOP_SIG),
    Bad("negative-order", "tle.range", "pipe_orders", r"pipe_orders\[0\] = -1 must be >= 0",
        staged_loop("num_stages=2, pipe_stages=[0, 1], pipe_orders=[-1, 0]"), sig=LOOP_SIG),
    Bad("executors", "tle.range", "executors", r"executors=\[0, 1\] puts pipeline groups on different executors",
        staged_loop("num_stages=2, pipe_stages=[0, 1], executors=[0, 1]"), sig=LOOP_SIG),
    Bad("lengths", "tle.range", "pipe_orders", r"pipe_stages \(2 entries\), pipe_orders \(3\) and executors \(2\)",
        staged_loop("num_stages=2, pipe_stages=[0, 1], pipe_orders=[0, 1, 2]"), sig=LOOP_SIG),
    Bad("runtime-executor-range", "tle.range", "range", r"range\(...\) in a TLE argument needs constexpr ints, got "
        r"\[0, <runtime int32>\]",
        staged_loop("num_stages=2, pipe_stages=[0, 1], executors=[0, range(0, n)]"), sig=LOOP_SIG),
    Bad("missing-group", "tle.range", "pipe_stages", r"has no `with tle.pipeline_group\(i\):` block for group\(s\) "
        r"\[1\]", staged_loop("num_stages=2, pipe_stages=[0, 1]", groups=(0,)), sig=LOOP_SIG),
]


def grouped_loop(body: str) -> str:
    return ("acc = 0.0\nfor i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1]):\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\ntl.store(X, acc)\n")


PIPELINE = [
    Bad("pipe-stages", "tle.gpu.pipeline", "pipe_stages", r"unexpected keyword argument 'pipe_stages'.*pipeline "
        r"groups are tle.range's", """
        acc = 0.0
        for i in tle.gpu.pipeline(0, n, 1, num_stages=2, pipe_stages=[0]):  # <-
            acc += tl.load(X + i)
        tl.store(X, acc)
        """, sig=LOOP_SIG),
    Bad("unknown-keyword", "tle.gpu.pipeline", "stages", r"unexpected keyword argument 'stages'", """
        acc = 0.0
        for i in tle.gpu.pipeline(0, n, 1, stages=2):  # <-
            acc += tl.load(X + i)
        tl.store(X, acc)
        """, sig=LOOP_SIG),
    Bad("twice", "tle.gpu.pipeline", "num_stages", r"got num_stages both by position and by keyword", """
        acc = 0.0
        for i in tle.gpu.pipeline(0, n, 1, 2, num_stages=3):  # <-
            acc += tl.load(X + i)
        tl.store(X, acc)
        """, sig=LOOP_SIG),
    Bad("group-inside", "tle.pipeline_group", "pipe_stages", r"must be directly inside a `for \.\.\. in "
        r"tle.range\(\.\.\., pipe_stages=\[\.\.\.\]\)` loop", """
        acc = 0.0
        for i in tle.gpu.pipeline(0, n, 1, num_stages=2):
            with tle.pipeline_group(0):  # <-
                acc += tl.load(X + i)
        tl.store(X, acc)
        """, sig=LOOP_SIG),
]

PIPELINE_GROUP = [
    Bad("runtime-index", "tle.pipeline_group", "index", r"group index must be a constexpr int, got <runtime int32>",
        grouped_loop("""
        with tle.pipeline_group(n):  # <-
            acc += tl.load(X + i)
        """), sig=LOOP_SIG),
    Bad("float-index", "tle.pipeline_group", "index", r"group index must be a constexpr int, got 0.5", grouped_loop("""
        with tle.pipeline_group(0.5):  # <-
            acc += tl.load(X + i)
        """), sig=LOOP_SIG),
    Bad("index-out-of-range", "tle.pipeline_group", "indices", r"tle.pipeline_group\(2\): the loop has 2 pipeline "
        r"group\(s\) \(one per pipe_stages entry\)", grouped_loop("""
        with tle.pipeline_group(2):  # <-
            acc += tl.load(X + i)
        """), sig=LOOP_SIG),
    Bad("negative-index", "tle.pipeline_group", "indices", r"tle.pipeline_group\(-1\): the loop has 2",
        grouped_loop("""
        with tle.pipeline_group(-1):  # <-
            acc += tl.load(X + i)
        """), sig=LOOP_SIG),
    Bad("nested", "tle.pipeline_group", "tle.pipeline_group", r"tle.pipeline_group\(1\) is nested in "
        r"tle.pipeline_group\(0\)", grouped_loop("""
        with tle.pipeline_group(0):
            with tle.pipeline_group(1):  # <-
                acc += tl.load(X + i)
        """), sig=LOOP_SIG),
    Bad("twice", "tle.pipeline_group", "tle.pipeline_group", r"tle.pipeline_group\(0\) is used twice in this loop",
        grouped_loop("""
        with tle.pipeline_group(0):
            acc += tl.load(X + i)
        with tle.pipeline_group(0):  # <-
            acc += tl.load(X + i)
        """), sig=LOOP_SIG),
    Bad("outside-a-loop", "tle.pipeline_group", "pipe_stages", r"must be directly inside a `for ... in "
        r"tle.range\(..., pipe_stages=\[...\]\)` loop", """
        with tle.pipeline_group(0):  # <-
            tl.store(X, 1.0)
        """, sig=LOOP_SIG),
    Bad("in-a-plain-loop", "tle.pipeline_group", "pipe_stages", r"must be directly inside", """
        for i in range(0, n):
            with tle.pipeline_group(0):  # <-
                tl.store(X + i, 1.0)
        """, sig=LOOP_SIG),
    Bad("in-a-loop-without-stages", "tle.pipeline_group", "pipe_stages", r"must be directly inside", """
        for i in tle.range(0, n, 1, num_stages=2):
            with tle.pipeline_group(0):  # <-
                tl.store(X + i, 1.0)
        """, sig=LOOP_SIG),
    Bad("string-index", "tle.pipeline_group", "index", r"group index must be a constexpr int, got '0'", grouped_loop("""
        with tle.pipeline_group("0"):  # <-
            acc += tl.load(X + i)
        """), sig=LOOP_SIG),
]

# --- tle.call (TLE-Raw) -------------------------------------------------------------------------

LOAD128 = "x = tl.load(X + tl.arange(0, 128))"

CALL = [
    Bad("fn-not-raw", "tle.call", "fn", r"expects a @tle.raw.language function as fn, got JITFunction",
        marked("tle.call(_nothing, args=[x])", LOAD128), sig="X:*fp32"),
    Bad("args-not-a-list", "tle.call", "args", r"args must be a list or tuple, got <fp32 tensor of shape \[128\]>",
        marked("tle.call(raw_f32_128, args=x)", LOAD128), sig="X:*fp32"),
    Bad("missing-args", "tle.call", "args", r"needs the raw function and its args",
        marked("tle.call(raw_f32_128)"), sig="X:*fp32"),
    Bad("unknown-keyword", "tle.call", "threads", r"got an unknown keyword argument 'threads'",
        marked("tle.call(raw_f32_128, args=[x], threads=(128,))", LOAD128), sig="X:*fp32"),
    Bad("args-twice", "tle.call", "args", r"got 'args' twice",
        marked("tle.call(raw_f32_128, [x], args=[x])", LOAD128), sig="X:*fp32"),
    Bad("argument-count", "tle.call", "args", r"takes 1 argument\(s\), tle.call passes 2",
        marked("tle.call(raw_f32_128, args=[x, x])", LOAD128), sig="X:*fp32"),
    Bad("argument-shape", "tle.call", "argument 0", r"is annotated tensor<128xf32> but tle.call passes a "
        r"tensor<64xf32>", """
        x = tl.load(X + tl.arange(0, 64))
        tle.call(raw_f32_128, args=[x])  # <-
        """, sig="X:*fp32"),
    Bad("argument-dtype", "tle.call", "argument 0", r"passes a tensor<128xi32>",
        marked("tle.call(raw_f32_128, args=[x])", LOAD128), sig="X:*i32"),
    Bad("argument-scalar", "tle.call", "argument 0", r"is annotated tensor<128xf32> but tle.call passes 1.0, not a "
        r"tensor", marked("tle.call(raw_f32_128, args=[1.0])"), sig="X:*fp32"),
    Bad("hardware-not-a-dict", "tle.call", "hardware", r"hardware must be a dict, got 3",
        marked("tle.call(raw_f32_128, args=[x], hardware=3)", LOAD128), sig="X:*fp32"),
    Bad("hardware-key", "tle.call", "hardware", r"unknown hardware key 'blocks'",
        marked('tle.call(raw_f32_128, args=[x], hardware={"blocks": (128,)})', LOAD128), sig="X:*fp32"),
    Bad("threads-not-positive", "tle.call", "hardware", r"hardware 'threads' must be a tuple of positive "
        r"compile-time integers, got \[0\]",
        marked('tle.call(raw_f32_128, args=[x], hardware={"threads": (0,)})', LOAD128), sig="X:*fp32"),
    Bad("threads-count", "tle.call", "hardware", r"hardware threads \(64,\) \(64 threads\) must equal num_warps x 32",
        marked('tle.call(raw_f32_128, args=[x], hardware={"threads": (64,)})', LOAD128), sig="X:*fp32"),
    Bad("threads-dim", "tle.call", "hardware", r"has threads_dim=2, but tle.call gives hardware threads \(128,\)",
        marked('tle.call(raw_2d, args=[x], hardware={"threads": (128,)})', LOAD128), sig="X:*fp32"),
    Bad("layout-not-a-dict", "tle.call", "layout", r"layout must be a dict keyed by the args, got 3",
        marked("tle.call(raw_f32_128, args=[x], layout=3)", LOAD128), sig="X:*fp32"),
    Bad("layout-key-not-an-arg", "tle.call", "layout", r"layout key <fp32 tensor of shape \[128\]> is not one of the "
        r"args", f"""
        {LOAD128}
        y = x + 1
        tle.call(raw_f32_128, args=[x], layout={{y: {{"space": "shared"}}}})  # <-
        """, sig="X:*fp32"),
    Bad("layout-order", "tle.call", "layout", r"layout order \[1\] of argument 0 is not a permutation",
        marked('tle.call(raw_f32_128, args=[x], layout={x: {"order": [1]}})', LOAD128), sig="X:*fp32"),
    Bad("layout-space", "tle.call", "layout", r"layout space 'global' is not supported",
        marked('tle.call(raw_f32_128, args=[x], layout={x: {"space": "global"}})', LOAD128), sig="X:*fp32"),
    Bad("runtime-fn", "tle.call", "fn", r"expects a @tle.raw.language function as fn, got <runtime int32>",
        marked("tle.call(n, args=[x])", LOAD128), sig="X:*fp32, n:i32"),
    Bad("runtime-threads", "tle.call", "hardware", r"hardware 'threads' must be a tuple of positive compile-time "
        r"integers, got \[<runtime int32>\]", marked('tle.call(raw_f32_128, args=[x], hardware={"threads": (n,)})',
                                                    LOAD128), sig="X:*fp32, n:i32"),
]

# --- sharded tensors: tle.make_sharded_tensor, tle.reshard, tle.distributed_dot, tle.device_context

SHARD = "x = tle.make_sharded_tensor(X, ROWS4, [64])"
A_ROWS = "a = tle.make_sharded_tensor(A, M_ROWS4, [64, 32])"
B_WHOLE = "b = tle.make_sharded_tensor(B, M_WHOLE4, [32, 16])"

MAKE_SHARDED_TENSOR = [
    Bad("sharding-not-a-sharding", "tle.make_sharded_tensor", "sharding", r"sharding must be a tle.sharding \(as a "
        r"tl.constexpr\), got device_mesh\(block_cluster:cx=4\)",
        marked("x = tle.make_sharded_tensor(X, MESH4, [64])")),
    Bad("runtime-shape", "tle.make_sharded_tensor", "shape", r"shape must be a non-empty list of positive "
        r"compile-time ints", marked("x = tle.make_sharded_tensor(X, ROWS4, [n])"), sig="X:*i32, n:i32"),
    Bad("zero-shape", "tle.make_sharded_tensor", "shape", r"got \[0\]",
        marked("x = tle.make_sharded_tensor(X, ROWS4, [0])")),
    Bad("not-divisible", "tle.make_sharded_tensor", "shape", r"dimension 0 \(size 6\) is not divisible by its 4 shards",
        marked("x = tle.make_sharded_tensor(X, ROWS4, [6])")),
    Bad("block-not-a-power-of-two", "tle.make_sharded_tensor", "shape", r"the local block \[12\] is a tensor shape",
        marked("x = tle.make_sharded_tensor(X, ROWS4, [48])")),
    Bad("rank-mismatch", "tle.make_sharded_tensor", "sharding", r"the sharding splits 1 dimensions .* but the tensor "
        r"has rank 2", marked("x = tle.make_sharded_tensor(X, ROWS4, [64, 64])")),
    Bad("constant-x", "tle.make_sharded_tensor", "x", r"x must be a pointer to the global tensor or this shard's "
        r"block \(a tensor\), got 3", marked("x = tle.make_sharded_tensor(3, ROWS4, [64])")),
    Bad("shared-pointer-x", "tle.make_sharded_tensor", "x", r"x must point to global memory", """
        buf = tle.gpu.alloc([64], dtype=tl.int32)
        x = tle.make_sharded_tensor(tle.gpu.local_ptr(buf, (0,)), ROWS4, [64])  # <-
        """),
    Bad("block-shape", "tle.make_sharded_tensor", "x", r"the block has shape \[64\], but each shard of \[64\]",
        marked("s = tle.make_sharded_tensor(x, ROWS4, [64])", LOAD64)),
    Bad("device-axis-without-context", "tle.make_sharded_tensor", "context", r"mesh axis 'dx' is a device axis; pass "
        r"context=tle.device_context", marked("x = tle.make_sharded_tensor(X, D_ROWS, [64])")),
    Bad("context-not-a-context", "tle.make_sharded_tensor", "context", r"context must come from "
        r"tle.device_context\(...\), got 3", marked("x = tle.make_sharded_tensor(X, ROWS4, [64], context=3)")),
    Bad("block-level-axis", "tle.make_sharded_tensor", "sharding", r"mesh axis 'bx' is at level 'block'",
        marked("x = tle.make_sharded_tensor(X, B_ROWS, [64])")),
    Bad("runtime-sharding", "tle.make_sharded_tensor", "sharding", r"sharding must be a tle.sharding \(as a "
        r"tl.constexpr\), got <runtime int32>", marked("x = tle.make_sharded_tensor(X, n, [64])"), sig="X:*i32, n:i32"),
]

RESHARD = [
    Bad("plain-tensor", "tle.reshard", "x", r"x expects a sharded tensor .*got a plain tensor;",
        marked("y = tle.reshard(x, WHOLE4)", LOAD64)),
    Bad("spec-not-a-sharding", "tle.reshard", "spec", r"spec must be a tle.sharding .*got device_mesh",
        marked("y = tle.reshard(x, MESH4)", SHARD)),
    Bad("root-out-of-range", "tle.reshard", "root", r"root 4 is not a CTA rank of .*cluster of 4 CTAs",
        marked("y = tle.reshard(x, WHOLE4, root=4)", SHARD)),
    Bad("runtime-root", "tle.reshard", "root", r"root must be a compile-time int \(a CTA rank in the cluster\), got "
        r"<runtime int32>", marked("y = tle.reshard(x, WHOLE4, root=r)", SHARD), sig="X:*i32, r:i32"),
    Bad("float-root", "tle.reshard", "root", r"root must be a compile-time int .*got 0.5",
        marked("y = tle.reshard(x, WHOLE4, root=0.5)", SHARD)),
    Bad("creates-partial-sums", "tle.reshard", "spec", r"a reshard cannot create partial sums over 'cx'",
        marked("y = tle.reshard(x, PSUM4)", SHARD)),
    Bad("other-mesh", "tle.reshard", "spec", r"sharding is over device_mesh\(block_cluster:cx=2\)",
        marked("y = tle.reshard(x, WHOLE2)", SHARD)),
    Bad("all-to-all", "tle.reshard", "spec", r"moves a split to another dimension", """
        x = tle.make_sharded_tensor(X, M_ROWS4, [16, 16])
        y = tle.reshard(x, M_COLS4)  # <-
        """),
    Bad("root-with-partial-target", "tle.reshard", "root", r"a reshard to a root .* cannot leave partial axes", """
        x = tle.make_sharded_tensor(X, PSUM4, [16])
        y = tle.reshard(x, PSUM4, root=0)  # <-
        """),
    Bad("device-axes-without-context", "tle.reshard", "context", r"changes device axes; pass "
        r"context=tle.device_context", """
        x = tle.make_sharded_tensor(tl.load(X + tl.arange(0, 32)), D_ROWS, [64])
        y = tle.reshard(x, D_WHOLE)  # <-
        """),
    Bad("context-not-a-context", "tle.reshard", "context", r"context must come from tle.device_context",
        marked("y = tle.reshard(x, WHOLE4, context=3)", SHARD)),
    Bad("runtime-spec", "tle.reshard", "spec", r"spec must be a tle.sharding .*got <runtime int32>",
        marked("y = tle.reshard(x, n)", SHARD), sig="X:*i32, n:i32"),
]

DISTRIBUTED_DOT = [
    Bad("plain-a", "tle.distributed_dot", "tle.distributed_dot a", r"expects a sharded tensor", f"""
        a = tl.load(A + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
        {B_WHOLE}
        c = tle.distributed_dot(a, b)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("plain-b", "tle.distributed_dot", "tle.distributed_dot b", r"expects a sharded tensor", f"""
        {A_ROWS}
        b = tl.load(B + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
        c = tle.distributed_dot(a, b)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("1-d", "tle.distributed_dot", "a and b", r"a and b must be 2-D, got shapes \[64\] and \[32, 16\]", f"""
        a = tle.make_sharded_tensor(A, ROWS4, [64])
        {B_WHOLE}
        c = tle.distributed_dot(a, b)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("k-mismatch", "tle.distributed_dot", "a", r"a is 64x32 and b is 16x16; the K dimensions differ", f"""
        {A_ROWS}
        b = tle.make_sharded_tensor(B, M_WHOLE4, [16, 16])
        c = tle.distributed_dot(a, b)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("partial-input", "tle.distributed_dot", "a and b", r"a and b cannot be partial sums", f"""
        a = tle.make_sharded_tensor(A, M_PSUM4, [16, 32])
        {B_WHOLE}
        c = tle.distributed_dot(a, b)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("other-meshes", "tle.distributed_dot", "a and b", r"a and b are sharded over different meshes", f"""
        {A_ROWS}
        b = tle.make_sharded_tensor(B, M_WHOLE2, [32, 16])
        c = tle.distributed_dot(a, b)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("c-shape", "tle.distributed_dot", "c", r"c must be this shard's \[16, 16\] block of the result", f"""
        {A_ROWS}
        {B_WHOLE}
        c = tle.distributed_dot(a, b, c=tl.zeros([64, 16], tl.float32))  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("c-layout", "tle.distributed_dot", "c", r"c is laid out as", f"""
        {A_ROWS}
        {B_WHOLE}
        acc = tle.make_sharded_tensor(tl.zeros([64, 16], tl.float32), M_WHOLE4, [64, 16])
        c = tle.distributed_dot(a, b, c=acc)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("out-sharding-not-a-sharding", "tle.distributed_dot", "out_sharding", r"out_sharding must be a tle.sharding "
        r".*got device_mesh", f"""
        {A_ROWS}
        {B_WHOLE}
        c = tle.distributed_dot(a, b, out_sharding=MESH4)  # <-
        """, sig="A:*fp16, B:*fp16"),
    Bad("c-with-partial-output", "tle.distributed_dot", "out_sharding", r"out_sharding cannot be partial with c", """
        a = tle.make_sharded_tensor(A, M_COLS4, [16, 64])
        b = tle.make_sharded_tensor(B, M_ROWS4, [64, 16])
        c = tle.distributed_dot(a, b, c=tl.zeros([16, 16], tl.float32), out_sharding=M_PSUM4)  # <-
        """, sig="A:*fp16, B:*fp16"),
]

DEVICE_SIG = "X:*fp32, F:*i32, O:*i64, rank:i32, epoch:i32"

DEVICE_CONTEXT = [
    Bad("mesh-not-a-mesh", "tle.device_context", "mesh", r"mesh must be a tle.device_mesh .*got 3",
        marked("ctx = tle.device_context(3, rank, X, F, O, epoch)"), sig=DEVICE_SIG),
    Bad("no-device-axis", "tle.device_context", "mesh", r"has no device axis of size > 1",
        marked("ctx = tle.device_context(MESH2, rank, X, F, O, epoch)"), sig=DEVICE_SIG),
    Bad("workspace-not-a-pointer", "tle.device_context", "workspace", r"workspace must be a pointer to global memory",
        marked("ctx = tle.device_context(DEVICES, rank, 3, F, O, epoch)"), sig=DEVICE_SIG),
    Bad("flags-dtype", "tle.device_context", "flags", r"flags must point to int32, got fp32",
        marked("ctx = tle.device_context(DEVICES, rank, X, X, O, epoch)"), sig=DEVICE_SIG),
    Bad("peer-offsets-dtype", "tle.device_context", "peer_offsets", r"peer_offsets must point to int64, got int32",
        marked("ctx = tle.device_context(DEVICES, rank, X, F, F, epoch)"), sig=DEVICE_SIG),
    Bad("tensor-rank", "tle.device_context", "rank", r"rank must be a scalar, got a tensor",
        marked("ctx = tle.device_context(DEVICES, tl.arange(0, 2), X, F, O, epoch)"), sig=DEVICE_SIG),
    Bad("float-epoch", "tle.device_context", "epoch", r"epoch must be an integer, got 1.5",
        marked("ctx = tle.device_context(DEVICES, rank, X, F, O, 1.5)"), sig=DEVICE_SIG),
    Bad("runtime-mesh", "tle.device_context", "mesh", r"mesh must be a tle.device_mesh .*got <runtime int32>",
        marked("ctx = tle.device_context(rank, rank, X, F, O, epoch)"), sig=DEVICE_SIG),
]

# --- tle.dsa ------------------------------------------------------------------------------------

UB = "a = tle.dsa.alloc([64], dtype=tl.float32)"
DSA_SIG = "X:*fp32"

DSA_ALLOC = [
    Bad("runtime-shape", "tle.dsa.alloc", "shape", r"shape must be a non-empty list of positive compile-time ints",
        marked("a = tle.dsa.alloc([n], dtype=tl.float32)"), sig="X:*fp32, n:i32"),
    Bad("string-dtype", "tle.dsa.alloc", "dtype", r"dtype must be a scalar triton dtype, got 'fp32'",
        marked('a = tle.dsa.alloc([64], dtype="fp32")'), sig=DSA_SIG),
    Bad("unsupported-dtype", "tle.dsa.alloc", "dtype", r"dtype: TLE buffers cannot hold fp8e4b15",
        marked("a = tle.dsa.alloc([64], dtype=tl.float8e4b15)"), sig=DSA_SIG),
    Bad("unknown-space", "tle.dsa.alloc", "mem_addr_space", r"mem_addr_space must be one of tle.dsa.ascend.UB, L1, "
        r"L0A, L0B, L0C, got 'XX'",
        marked('a = tle.dsa.alloc([64], dtype=tl.float32, mem_addr_space="XX")'), sig=DSA_SIG),
    Bad("int-space", "tle.dsa.alloc", "mem_addr_space", r"mem_addr_space must be one of .*got 3",
        marked("a = tle.dsa.alloc([64], dtype=tl.float32, mem_addr_space=3)"), sig=DSA_SIG),
    Bad("runtime-space", "tle.dsa.alloc", "mem_addr_space", r"mem_addr_space must be one of .*got <runtime int32>",
        marked("a = tle.dsa.alloc([64], dtype=tl.float32, mem_addr_space=n)"), sig="X:*fp32, n:i32"),
]

DSA_COPY = [
    Bad("no-buffer", "tle.dsa.copy", "src", r"needs a buffer on at least one side \(src or dst\)",
        marked(f"tle.dsa.copy({PTRS}, {PTRS})"), sig=DSA_SIG),
    Bad("pointer-dtype", "tle.dsa.copy", "src", r"src points to int32 but the buffer holds fp32",
        marked(f"tle.dsa.copy({PTRS}, a)", UB)),
    Bad("pointer-shape", "tle.dsa.copy", "dst", r"\[32\] does not match the buffer's \[64\]",
        marked("tle.dsa.copy(a, X + tl.arange(0, 32))", UB), sig=DSA_SIG),
    Bad("no-data-path", "tle.dsa.copy", "dst", r"no data path from UB to L1", f"""
        {UB}
        l1 = tle.dsa.alloc([64], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.L1)
        tle.dsa.copy(a, l1)  # <-
        """, sig=DSA_SIG),
    Bad("buffers-differ", "tle.dsa.copy", "dst", r"src .* and dst .* differ in shape or dtype", f"""
        {UB}
        b = tle.dsa.alloc([32], dtype=tl.float32)
        tle.dsa.copy(a, b)  # <-
        """, sig=DSA_SIG),
    Bad("tail-too-large", "tle.dsa.copy", "shape", r"shape: size 80 of dimension 0 is larger than the buffer\'s 64",
        marked(f"tle.dsa.copy({PTRS}, a, [80])", UB), sig=DSA_SIG),
    Bad("negative-tail", "tle.dsa.copy", "shape", r"shape: size -1 of dimension 0 is negative \(tail sizes must lie in "
        r"\[0, 64\]\)", marked(f"tle.dsa.copy({PTRS}, a, [-1])", UB), sig=DSA_SIG),
    Bad("tail-count", "tle.dsa.copy", "shape", r"shape has 2 sizes for a rank-1 buffer",
        marked(f"tle.dsa.copy({PTRS}, a, [32, 32])", UB), sig=DSA_SIG),
    Bad("float-tail", "tle.dsa.copy", "shape", r"must be an integer, got 1.5",
        marked(f"tle.dsa.copy({PTRS}, a, [1.5])", UB), sig=DSA_SIG),
    Bad("tensor-tail", "tle.dsa.copy", "shape", r"shape: size 0 must be an integer scalar, got <int32 tensor of shape "
        r"\[2\]>", marked(f"tle.dsa.copy({PTRS}, a, [tl.arange(0, 2)])", UB), sig=DSA_SIG),
    Bad("shared-pointers", "tle.dsa.copy", "src", r"src pointers must be global \(address space 1\), got address "
        r"space 3", f"""
        {UB}
        buf = tle.gpu.alloc([64], dtype=tl.float32)
        tle.dsa.copy(tle.gpu.local_ptr(buf), a)  # <-
        """, sig=DSA_SIG),
    Bad("constant-src", "tle.dsa.copy", "src", r"src must be a buffer or a tensor of global pointers, got 3",
        marked("tle.dsa.copy(3, a)", UB), sig=DSA_SIG),
]

DSA_TENSORS = [
    Bad("to-tensor-not-a-buffer", "tle.dsa.to_tensor", "buffer", r"expects a buffer from tle.dsa.alloc",
        marked("t = tle.dsa.to_tensor(X)"), sig=DSA_SIG),
    Bad("to-tensor-int-writable", "tle.dsa.to_tensor", "writable", r"writable must be True or False, got 1",
        marked("t = tle.dsa.to_tensor(a, writable=1)", UB), sig=DSA_SIG),
    Bad("to-tensor-runtime-writable", "tle.dsa.to_tensor", "writable", r"writable must be True or False, got <runtime "
        r"int1>", marked("t = tle.dsa.to_tensor(a, writable=w)", UB), sig="X:*fp32, w:i1"),
    Bad("to-tensor-gpu-buffer", "tle.dsa.to_tensor", "buffer", r"got buffered_tensor<\[64\], fp32, tle.gpu.smem>", """
        buf = tle.gpu.alloc([64], dtype=tl.float32)
        t = tle.dsa.to_tensor(buf)  # <-
        """, sig=DSA_SIG),
    Bad("to-buffer-of-a-buffer", "tle.dsa.to_buffer", "tensor", r"expects a tensor, got a DSA buffer",
        marked("b = tle.dsa.to_buffer(a)", UB), sig=DSA_SIG),
    Bad("to-buffer-scalar", "tle.dsa.to_buffer", "tensor", r"expects a tensor \(not a scalar\)",
        marked("b = tle.dsa.to_buffer(tl.load(X))"), sig=DSA_SIG),
    Bad("to-buffer-pointers", "tle.dsa.to_buffer", "tensor", r"cannot put pointers in a DSA buffer",
        marked(f"b = tle.dsa.to_buffer({PTRS})"), sig=DSA_SIG),
    Bad("to-buffer-space", "tle.dsa.to_buffer", "mem_addr_space", r"mem_addr_space must be one of .*got 'HBM'",
        marked(f'b = tle.dsa.to_buffer(tl.load({PTRS}), "HBM")'), sig=DSA_SIG),
]


def vector_op(call: str, extra: str = "") -> str:
    """UB buffers ``a``, ``b``, ``c`` of 64 fp32 (and the ``extra`` line), then ``call``, the bad line."""
    return "\n".join([UB, UB.replace("a =", "b ="), UB.replace("a =", "c ="), extra, f"{call}  # <-"])


DSA_VECTOR = [
    Bad("add-shape", "tle.dsa.add", "rhs", r"rhs shape \[32\] does not match lhs shape \[64\]",
        vector_op("tle.dsa.add(a, d, c)", "d = tle.dsa.alloc([32], dtype=tl.float32)"), sig=DSA_SIG),
    Bad("sub-dtype", "tle.dsa.sub", "out", r"out dtype int32 does not match lhs dtype fp32",
        vector_op("tle.dsa.sub(a, b, d)", "d = tle.dsa.alloc([64], dtype=tl.int32)"), sig=DSA_SIG),
    Bad("mul-not-ub", "tle.dsa.mul", "rhs", r"rhs is in L1, but the vector unit reads and writes only UB",
        vector_op("tle.dsa.mul(a, l1, c)", "l1 = tle.dsa.alloc([64], dtype=tl.float32, mem_addr_space='L1')"),
        sig=DSA_SIG),
    Bad("div-integers", "tle.dsa.div", "lhs", r"needs floating-point buffers, got int32",
        vector_op("tle.dsa.div(i, i, i)", "i = tle.dsa.alloc([64], dtype=tl.int32)"), sig=DSA_SIG),
    Bad("max-unsigned", "tle.dsa.max", "lhs", r"uint32 buffers are not supported",
        vector_op("tle.dsa.max(u, u, u)", "u = tle.dsa.alloc([64], dtype=tl.uint32)"), sig=DSA_SIG),
    Bad("min-not-a-buffer", "tle.dsa.min", "lhs", r"lhs expects a buffer from tle.dsa.alloc",
        vector_op("tle.dsa.min(X, b, c)"), sig=DSA_SIG),
    Bad("add-out-not-a-buffer", "tle.dsa.add", "out", r"out expects a buffer from tle.dsa.alloc .*got <fp32 tensor",
        vector_op(f"tle.dsa.add(a, b, tl.load({PTRS}))"), sig=DSA_SIG),
]

BAD = (CUMSUM + LOAD + EXTRACT_TILE + INSERT_TILE + ALLOC + LOCAL_PTR + LOCAL_PTR_OFFSETS + LOCAL_LOAD + LOCAL_STORE + BUFFER_METHODS
       + COPY + COPY_DESCRIPTOR + MEMORY_SPACE + REMOTE + SHARD_ID + DISTRIBUTED_BARRIER + PIPE + PIPE_ENDPOINTS
       + WARP_SPECIALIZE + RANGE + PIPELINE + PIPELINE_GROUP + CALL + MAKE_SHARDED_TENSOR + RESHARD + DISTRIBUTED_DOT + DEVICE_CONTEXT + DSA_ALLOC
       + DSA_COPY + DSA_TENSORS + DSA_VECTOR)


@pytest.mark.parametrize("row", BAD, ids=[f"{r.fn}:{r.id}" for r in BAD])
def test_bad_call_is_reported_at_the_users_line(tmp_path, row):
    check_bad(tmp_path, row)


# --- correct calls while TLE is disabled ------------------------------------------------------------
# Every primitive that emits a marker refuses to compile without TLE's stages
# (a plain triton.compile), at the user's line. Primitives that take a buffer
# or a sharded tensor (tle.gpu.local_ptr / local_load / local_store / copy,
# tle.remote, tle.reshard, tle.distributed_dot, tle.dsa.copy / to_tensor / the
# vector ops) are not reached: tle.gpu.alloc / tle.make_sharded_tensor /
# tle.dsa.alloc refuse first. tle.device_context emits nothing and needs no
# stages; tle.range without TLE is Triton's own "Only `range` and
# `static_range` iterators" error (python/test/test_pipeline_group.py).

@dataclass
class Good:
    """A correct call of ``fn`` (the line marked ``# <-``)."""
    fn: str
    body: str
    sig: str = "X:*i32"


DISABLED = [
    Good("tle.cumsum", marked("e, t = tle.cumsum(x)", LOAD64)),
    Good("tle.load(is_async=True)", marked(f"x = tle.load({PTRS}, is_async=True)")),
    Good("tle.extract_tile", marked("t = tle.extract_tile(x, 1, [16])", LOAD64)),
    Good("tle.insert_tile", marked("y = tle.insert_tile(x, tl.zeros([16], tl.int32), 1)", LOAD64)),
    Good("tle.gpu.alloc", marked("buf = tle.gpu.alloc([64], dtype=tl.int32)")),
    Good("tle.gpu.memory_space", marked('y = tle.gpu.memory_space(x, "shared_memory")', LOAD64)),
    Good("tle.shard_id", marked('r = tle.shard_id(MESH2, "cx")')),
    Good("tle.distributed_barrier", marked("tle.distributed_barrier(MESH2)")),
    Good("tle.pipe", marked("p = tle.pipe(2, x=([64], tl.float32))")),
    Good("tle.gpu.warp_specialize", marked(f"tle.gpu.warp_specialize({WS_PAIRS}, worker_num_warps=[1])")),
    Good("tle.pipeline_group", """
        for i in range(0, n):
            with tle.pipeline_group(0):  # <-
                tl.store(X + i, 1)
        """, sig="X:*i32, n:i32"),
    Good("tle.call", marked("tle.call(raw_f32_128, args=[x])", LOAD128), sig="X:*fp32"),
    Good("tle.make_sharded_tensor", marked(f"{SHARD}")),
    Good("tle.dsa.alloc", marked("a = tle.dsa.alloc([64], dtype=tl.float32)")),
    Good("tle.dsa.to_buffer", marked(f"b = tle.dsa.to_buffer(tl.load({PTRS}))"), sig="X:*fp32"),
]


@pytest.mark.parametrize("row", DISABLED, ids=[r.fn for r in DISABLED])
def test_correct_call_without_tle_is_reported_at_the_users_line(tmp_path, row):
    assert not tle.is_enabled()
    kernel = load_kernel(tmp_path, kernel_source(row.body, row.sig))
    with pytest.raises(CompilationError) as info:
        triton.compile(ASTSource(kernel, signature=signature(row.sig)), target=GPUTarget("cuda", 90, 32))
    cause = check_reported_at_the_mark(info.value)
    assert str(cause).startswith(f"{row.fn} needs TLE's compiler stages: call tle.enable() before compiling"), cause


# --- calls from plain Python, outside a kernel ------------------------------------------------------

OUTSIDE = [
    ("tle.cumsum", lambda: tle.cumsum([1, 2, 3])),
    ("tle.load", lambda: tle.load(None, is_async=True)),
    ("tle.extract_tile", lambda: tle.extract_tile([1, 2], 0, [1])),
    ("tle.insert_tile", lambda: tle.insert_tile([1, 2], [1], 0)),
    ("tle.gpu.alloc", lambda: tle.gpu.alloc([64], tl.int32)),
    ("tle.gpu.local_ptr", lambda: tle.gpu.local_ptr(None, (0,))),
    ("tle.gpu.local_load", lambda: tle.gpu.local_load(None)),
    ("tle.gpu.local_store", lambda: tle.gpu.local_store(None, 0)),
    ("tle.gpu.copy", lambda: tle.gpu.copy(None, None, [64])),
    ("tle.gpu.memory_space", lambda: tle.gpu.memory_space([1], "shared_memory")),
    ("tle.remote", lambda: tle.remote(None, 1, scope=None)),
    ("tle.shard_id", lambda: tle.shard_id(tle.device_mesh({"block_cluster": 2}), "block_cluster")),
    ("tle.distributed_barrier", lambda: tle.distributed_barrier(tle.device_mesh({"block_cluster": 2}))),
    ("tle.pipe", lambda: tle.pipe(2, x=([64], tl.float32))),
    ("tle.make_sharded_tensor", lambda: tle.make_sharded_tensor(None, None, [64])),
    ("tle.reshard", lambda: tle.reshard(None, None)),
    ("tle.distributed_dot", lambda: tle.distributed_dot(None, None)),
    ("tle.device_context", lambda: tle.device_context(None, 0, None, None, None, 1)),
    ("tle.call", lambda: tle.call(None, args=[])),
] + [(f"tle.dsa.{name}", lambda name=name: getattr(tle.dsa, name)(None, None, None))
     for name in ("add", "sub", "mul", "div", "max", "min")] + [
    ("tle.dsa.alloc", lambda: tle.dsa.alloc([64], tl.float32)),
    ("tle.dsa.copy", lambda: tle.dsa.copy(None, None)),
    ("tle.dsa.to_tensor", lambda: tle.dsa.to_tensor(None)),
    ("tle.dsa.to_buffer", lambda: tle.dsa.to_buffer(None)),
]


@pytest.mark.parametrize("fn,call", OUTSIDE, ids=[name for name, _ in OUTSIDE])
def test_primitive_called_from_python_names_itself(fn, call):
    with pytest.raises(tle.TLEUsageError) as info:
        call()
    assert str(info.value).startswith(f"{fn} ") and "inside a @triton.jit kernel" in str(info.value), info.value


def test_warp_specialize_called_from_python():
    # tle.gpu.warp_specialize is Triton's builtin as it is (its decorator is not TLE's builtin yet):
    # Triton's message, which names no function.
    with pytest.raises(ValueError, match=r"Did you forget to add @triton.jit"):
        tle.gpu.warp_specialize([], worker_num_warps=[])


def test_tle_range_and_pipeline_group_from_python():
    loop = tle.range(0, 4, 1, num_stages=2, pipe_stages=[0, 1])
    with pytest.raises(RuntimeError, match=r"tle.range can only be used in @triton.jit'd functions"):
        iter(loop)
    with pytest.raises(RuntimeError, match=r"tle.pipeline_group can only be used in @triton.jit'd functions"):
        tle.pipeline_group(0)


# --- compile-time objects built with bad arguments (in Python, before any kernel) -------------------

@dataclass
class PyBad:
    """``call()`` builds a compile-time object badly; ``fn``, ``arg`` and
    ``match`` as for ``Bad``."""
    id: str
    fn: str
    arg: str
    match: str
    call: object
    error: type = tle.TLEUsageError


def _raw_body(x):
    pass


CLUSTER4 = tle.device_mesh({"block_cluster": [("cx", 4)]})

PYTHON_OBJECTS = [
    PyBad("context-rank", "tle.DistributedRtContext", "rank", r"rank 2 is not in \[0, 2\)",
          lambda: tle.DistributedRtContext(rank=2, world_size=2, buffer_ptrs=(1, 2), dtype="float32", numel=4,
                                           signal_ptrs=(3, 4), num_slots=1)),
    PyBad("context-addresses", "tle.DistributedRtContext", "buffer_ptrs", r"buffer_ptrs must hold one address per rank",
          lambda: tle.DistributedRtContext(rank=0, world_size=2, buffer_ptrs=(1, ), dtype="float32", numel=4,
                                           signal_ptrs=(3, 4), num_slots=1)),
    PyBad("empty-config", "tle.MeshConfig", "level", r"needs at least one level \(this tle.MeshConfig sets none\)",
          lambda: tle.device_mesh(tle.MeshConfig())),
    PyBad("config-zero-size", "tle.MeshConfig", "axis", r"tle.MeshConfig: axis 'x' has size 0; sizes must be > 0",
          lambda: tle.MeshConfig(block_cluster=[("x", 0)])),
    PyBad("config-bad-level", "tle.MeshConfig", "level", r"tle.MeshConfig: level 'block_cluster' must be a size or a "
          r"list of", lambda: tle.MeshConfig(block_cluster="x")),
    PyBad("submesh-to-sharding", "tle.sharding", "mesh", r"tle.sharding takes a whole mesh",
          lambda: tle.sharding(tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 2)]})[0, :], split=["cy"])),
    PyBad("no-level", "tle.device_mesh", "level", r"needs at least one level", lambda: tle.device_mesh({})),
    PyBad("unknown-level", "tle.device_mesh", "level", r"unknown level 'warp'", lambda: tle.device_mesh({"warp": 2})),
    PyBad("duplicate-axis", "tle.device_mesh", "axis", r"axis names must be non-empty and unique, got 'x'",
          lambda: tle.device_mesh({"block_cluster": [("x", 2), ("x", 2)]})),
    PyBad("zero-size", "tle.device_mesh", "axis", r"axis 'x' has size 0; sizes must be > 0",
          lambda: tle.device_mesh({"block_cluster": [("x", 0)]})),
    PyBad("float-size", "tle.device_mesh", "axis", r"axis 'x' has size 2.5; sizes are ints",
          lambda: tle.device_mesh({"block_cluster": [("x", 2.5)]})),
    PyBad("string-size", "tle.device_mesh", "axis", r"axis 'x' has size '2'; sizes are ints",
          lambda: tle.device_mesh({"block_cluster": [("x", "2")]})),
    PyBad("bool-size", "tle.device_mesh", "axis", r"axis 'x' has size True; sizes are ints",
          lambda: tle.device_mesh({"block_cluster": [("x", True)]})),
    PyBad("int-axis-name", "tle.device_mesh", "axis", r"axis names are strings, got 3",
          lambda: tle.device_mesh({"block_cluster": [(3, 2)]})),
    PyBad("bad-level-spec", "tle.device_mesh", "level", r"level 'device' must be a size or a list of \(axis_name, "
          r"size\) pairs, got 'two'", lambda: tle.device_mesh({"device": "two"})),
    PyBad("mesh-not-a-mesh", "tle.sharding", "mesh", r"mesh must be a tle.device_mesh, got 3",
          lambda: tle.sharding(3, split=[tle.B])),
    PyBad("unknown-axis", "tle.sharding", "axis", r"'cy' is not an axis of",
          lambda: tle.sharding(CLUSTER4, split=["cy"])),
    PyBad("axis-twice", "tle.sharding", "axis", r"mesh axis 'cx' is used more than once",
          lambda: tle.sharding(CLUSTER4, split=[tle.S("cx")], partial=["cx"])),
    PyBad("partial-in-split", "tle.sharding", "split", r"tle.P goes in partial=, not in split=",
          lambda: tle.sharding(CLUSTER4, split=[tle.P("cx")])),
    PyBad("bad-split-entry", "tle.sharding", "split", r"split entries are tle.S\(axis, ...\), tle.B, an axis name "
          r"or a list of axis names; got 3", lambda: tle.sharding(CLUSTER4, split=[3])),
    PyBad("bad-partial-entry", "tle.sharding", "partial", r"partial entries are axis names or tle.P\(axis\), got 3",
          lambda: tle.sharding(CLUSTER4, partial=[3])),
    PyBad("empty-S", "tle.S", "axis", r"takes one or more mesh axis names, got \(\)", lambda: tle.S()),
    PyBad("int-S", "tle.S", "axis", r"got \(3,\)", lambda: tle.S(3)),
    PyBad("empty-P", "tle.P", "axis", r"takes one or more mesh axis names, got \(\)", lambda: tle.P()),
    PyBad("empty-name-P", "tle.P", "axis", r"got \(''", lambda: tle.P("")),
    PyBad("unknown-language", "tle.raw.language", "name", r"name: unknown TLE-Raw language 'cuda'",
          lambda: tle.raw.language(name="cuda")),
    PyBad("language-of-a-non-function", "tle.raw.language", "function", r"decorates a plain Python function, got 3",
          lambda: tle.raw.language(name="mlir")(3)),
    PyBad("threads-dim", "tle.hardware_constraint", "threads_dim", r"threads_dim must be 1, 2 or 3, got 4",
          lambda: tle.hardware_constraint(threads_dim=4)),
    PyBad("bool-threads-dim", "tle.hardware_constraint", "threads_dim", r"got True",
          lambda: tle.hardware_constraint(threads_dim=True)),
    PyBad("sync-scope", "tle.hardware_constraint", "sync_scope", r"sync_scope 'cluster' is not supported",
          lambda: tle.hardware_constraint(sync_scope="cluster")),
    PyBad("constraint-of-a-non-function", "tle.hardware_constraint", "function", r"decorates a function, got 3",
          lambda: tle.hardware_constraint()(3)),
    PyBad("raw-function-called", "tle.call", "tle.call", r"TLE-Raw function '_raw_body' can only be called through "
          r"tle.call", lambda: tle.raw.language()(_raw_body)(1)),
    PyBad("range-stage", "tle.range", "pipe_stages", r"pipe_stages\[1\] = 5 must be in \[0, num_stages = 2\)",
          lambda: tle.range(0, 8, 1, num_stages=2, pipe_stages=[0, 5])),
]


@pytest.mark.parametrize("row", PYTHON_OBJECTS, ids=[f"{r.fn}:{r.id}" for r in PYTHON_OBJECTS])
def test_bad_compile_time_object(row):
    with pytest.raises(row.error) as info:
        row.call()
    message = str(info.value)
    assert re.search(row.match, message), f"{row.match!r} not in: {message}"
    assert_names(message, row.fn, row.arg)


# --- coverage ---------------------------------------------------------------------------------------

# Classes whose values kernels get from TLE's functions (not constructed), and FlagTree's aliases of
# names that have rows (ShardingSpec is tle.sharding), are not rows.
PUBLIC = (["tle." + name for name in tle.language.__all__
           if name not in ("B", "TLEUsageError", "dsa", "gpu", "raw", "sharded_tensor", "ShardedTensor", "ShardingSpec",
                           "pipe_reader",
                           "pipe_slot", "pipe_value", "pipe_wait_result", "pipe_writer")]
          + [f"tle.gpu.{name}" for name in ("alloc", "local_ptr", "local_load", "local_store", "copy", "memory_space",
                                            "warp_specialize")]
          + [f"tle.dsa.{name}" for name in ("alloc", "copy", "to_tensor", "to_buffer", "add", "sub", "mul", "div",
                                            "max", "min")]
          + ["tle.raw.language"])


def test_every_public_function_has_bad_input_rows():
    covered = {row.fn for row in BAD + PYTHON_OBJECTS}
    assert [name for name in PUBLIC if name not in covered] == []
