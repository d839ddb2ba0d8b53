"""TLE-Raw (docs/raw.md) on the CPU: the FlagTree wiki's vector add and two more
kernels compile to PTX with the raw function's body inlined; misuse is reported
at the user's line."""

import re
from typing import Annotated

import pytest
import triton
import triton.language as tl
from mlir import ir
from mlir.dialects import arith, gpu
from triton.compiler.errors import CompilationError

import raw_kernels as K
import tle

TARGET = "sm_90"
ADD_SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "output_ptr": "*fp32", "n_elements": "i32"}


def _code(text):
    """IR without location lines/attributes."""
    return "\n".join(re.sub(r"loc\(.*", "", line) for line in text.splitlines() if not line.startswith("#loc"))


def _message(info):
    """The error text (Triton quotes the exception with repr())."""
    return str(info.value).replace("\\'", "'").replace('\\"', '"')


def _ptx_body(ptx):
    """PTX without its debug sections."""
    return ptx.split(".section\t.debug", 1)[0]


def test_wiki_vector_add_compiles_with_the_body_inlined():
    k = tle.compile(K.add_kernel, signature=ADD_SIG, constexprs={"BLOCK_SIZE": 1024}, target=TARGET, num_warps=32)
    ttir = k.asm["ttir"]
    assert "tle.dsl_region" in ttir and "vector_add_tile" in ttir  # the marker
    ttgir = _code(k.asm["ttgir"])
    assert not re.search(r"= tle\.|^\s*tle\.", ttgir, re.M)  # no tle op left: raised and lowered
    raw = k.asm["ttgir"]
    assert re.search(r"llvm\.func internal @__tle_raw_vector_add_tile\(%\w+: !llvm\.ptr<3>[^\n]*, %\w+: !llvm\.ptr<3>"
                     r"[^\n]*, %\w+: !llvm\.ptr<3>[^\n]*\) -> i32 attributes \{always_inline\}", raw)
    assert len(re.findall(r'tt\.extern_elementwise .*symbol = "__tle_raw_vector_add_tile"', ttgir)) == 1
    assert ttgir.count("gpu.barrier") >= 2
    # ctaid is the call's 0 and ntid its 1024: the body indexes the tile by %tid.x alone.
    body = ttgir[ttgir.index("llvm.func internal @__tle_raw_vector_add_tile"):]
    assert "nvvm.read.ptx.sreg.tid.x" in body and "ctaid" not in body and "ntid" not in body
    # The body keeps the raw function's Python lines (the tensor.extract of x).
    assert re.search(r'raw_kernels\.py":28:', raw)
    llir = k.asm["llir"]
    assert not re.search(r"(call|define)[^\n]*@__tle_raw", llir)  # inlined, then dropped (debug info keeps its name)
    assert "tle.smem.base" not in llir  # the buffers' bases are resolved
    ptx = _ptx_body(k.asm["ptx"])
    assert "call" not in re.sub(r"//.*", "", ptx)
    # Staging stores, barrier, the body (two shared loads, the add, one shared
    # store), barrier, the load of output.
    between = ptx.split("bar.sync")
    assert len(between) == 3
    assert len(re.findall(r"st\.shared", between[0])) == 3
    assert len(re.findall(r"ld\.shared", between[1])) == 2 and len(re.findall(r"st\.shared", between[1])) == 1
    assert re.search(r"add(\.rn)?\.f32", between[1])
    assert len(re.findall(r"ld\.shared", between[2])) == 1
    assert k.metadata.shared >= 3 * 1024 * 4  # x, y and output staged
    assert isinstance(k.asm["cubin"], bytes) and len(k.asm["cubin"]) > 0


def test_wiki_output_variable_holds_the_result():
    # tl.store(output_ptr + offsets, output, ...) after the call stores the
    # buffer the body wrote, not the zeros: the stored value is a load of
    # the output buffer after the second barrier.
    k = tle.compile(K.add_kernel, signature=ADD_SIG, constexprs={"BLOCK_SIZE": 1024}, target=TARGET, num_warps=32)
    ttgir = _code(k.asm["ttgir"])
    call = ttgir.index("tt.extern_elementwise")
    after = ttgir[call:]
    assert "gpu.barrier" in after.split("tt.store")[0]
    stored = re.search(r"tt\.store %\S+, (%\S+)", after).group(1).rstrip(",")
    loads = re.findall(r"(%\S+) = tt\.load [^\n]*!tt\.ptr<f32, 3>", after)
    assert stored in loads


def test_2d_threads_scalar_loop_and_column_major_layout():
    k = tle.compile(K.row_cumsum_kernel, signature={"X": "*fp32", "Y": "*fp32", "alpha": "fp32"},
                    constexprs={"R": K.ROWS, "C": K.COLS}, target=TARGET, num_warps=4)
    ttgir = _code(k.asm["ttgir"])
    assert re.search(r"llvm\.func internal @__tle_raw_scaled_row_cumsum\(%\w+: !llvm\.ptr<3>[^\n]*, %\w+: f32"
                     r"[^\n]*, %\w+: !llvm\.ptr<3>", k.asm["ttgir"])
    assert re.search(r'tt\.extern_elementwise %\S+, %alpha, %\S+ \{[^}]*symbol = "__tle_raw_scaled_row_cumsum"',
                     ttgir)
    body = ttgir[ttgir.index("llvm.func internal @__tle_raw_scaled_row_cumsum"):]
    assert "llvm.cond_br" in body  # the scf.for
    assert "llvm.urem" in body and "llvm.udiv" in body  # tid.x = tid % 8, tid.y = tid / 8
    ptx = _ptx_body(k.asm["ptx"])
    assert "ld.shared" in ptx and "st.shared" in ptx and re.search(r"mul(\.rn)?\.f32", ptx)


def test_call_returns_outputs_and_takes_expressions():
    k = tle.compile(K.reverse_kernel, signature={"X": "*i32", "Y": "*i32"}, target=TARGET, num_warps=4)
    ttgir = _code(k.asm["ttgir"])
    assert "__tle_raw_reverse_128" in ttgir
    # Only the written argument (dst) is loaded back: one load from shared memory.
    call = ttgir.index("tt.extern_elementwise")
    assert len(re.findall(r"tt\.load [^\n]*!tt\.ptr<i32, 3>", ttgir[call:])) == 1


def test_two_calls_of_one_function_get_two_symbols():
    @triton.jit
    def twice(X, Y):
        offs = tl.arange(0, 128)
        y = tle.call(K.reverse_128, args=[tl.load(X + offs), tl.zeros([128], dtype=tl.int32)])
        z = tle.call(K.reverse_128, args=[y, tl.zeros([128], dtype=tl.int32)])
        tl.store(Y + offs, z)

    k = tle.compile(twice, signature={"X": "*i32", "Y": "*i32"}, target=TARGET, num_warps=4)
    ttgir = _code(k.asm["ttgir"])
    assert "llvm.func internal @__tle_raw_reverse_128(" in ttgir
    assert "llvm.func internal @__tle_raw_reverse_128_1(" in ttgir


# --- misuse ----------------------------------------------------------------


def test_unknown_language():
    with pytest.raises(tle.TLEUsageError, match="unknown TLE-Raw language 'cuda'; supported: 'mlir'"):
        tle.raw.language(name="cuda")


def test_bad_constraint():
    with pytest.raises(tle.TLEUsageError, match="threads_dim must be 1, 2 or 3, got 4"):
        tle.hardware_constraint(threads_dim=4)
    with pytest.raises(tle.TLEUsageError, match="sync_scope 'cluster' is not supported"):
        tle.hardware_constraint(sync_scope="cluster")


def test_calling_a_raw_function_directly():
    with pytest.raises(tle.TLEUsageError, match="can only be called through tle.call"):
        K.vector_add_tile(1, 2, 3)


@tle.raw.language(name="mlir")
def no_annotation(x, y: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    pass


@tle.raw.language(name="mlir")
def f32_128(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    pass


@tle.raw.language(name="mlir")
def uses_gpu_dialect(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    gpu.thread_id(gpu.Dimension.x)


@tle.raw.language(name="mlir")
def raises_inside(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    arith.addf(x, 1)


@tle.raw.language(name="mlir")
@tle.hardware_constraint(threads_dim=2)
def wants_2d(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"]):
    pass


@tle.raw.language(name="mlir")
def takes_i32(x: Annotated[ir.RankedTensorType, "tensor<128xf32>"], k: Annotated[ir.IntegerType, "i32"]):
    pass


@triton.jit
def call_no_annotation(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(no_annotation, args=[x, x])


@triton.jit
def call_wrong_shape(X):
    x = tl.load(X + tl.arange(0, 64))
    tle.call(f32_128, args=[x])


@triton.jit
def call_wrong_dtype(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x])


@triton.jit
def call_wrong_count(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x, x])


@triton.jit
def call_unsupported_op(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(uses_gpu_dialect, args=[x])


@triton.jit
def call_raising_body(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(raises_inside, args=[x])


@triton.jit
def call_unknown_hardware_key(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x], hardware={"threads": (128,), "warps": 4})


@triton.jit
def call_threads_dim(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(wants_2d, args=[x], hardware={"threads": (128,)})


@triton.jit
def call_threads_count(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x], hardware={"threads": (256,)})


@triton.jit
def call_unknown_layout_key(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x], layout={x: {"space": "shared", "swizzle": 2}})


@triton.jit
def call_layout_space(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x], layout={x: {"space": "global"}})


@triton.jit
def call_layout_not_an_arg(X):
    x = tl.load(X + tl.arange(0, 128))
    y = x + 1
    tle.call(f32_128, args=[x], layout={y: {"space": "shared"}})


@triton.jit
def call_layout_order(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x], layout={x: {"order": [1, 0]}})


@triton.jit
def call_scalar_mismatch(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(takes_i32, args=[x, 1.5])


@triton.jit
def call_not_raw(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(call_not_raw, args=[x])


@triton.jit
def call_directly_in_kernel(X):
    x = tl.load(X + tl.arange(0, 128))
    f32_128(x)


@triton.jit
def call_unknown_keyword(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.call(f32_128, args=[x], threads=128)


@pytest.mark.parametrize("kernel,message,line", [
    (call_no_annotation, "parameter 'x' of TLE-Raw function 'no_annotation' needs an annotation "
     "Annotated[ir.RankedTensorType, \"tensor<...>\"]", "tle.call(no_annotation, args=[x, x])"),
    (call_wrong_shape, "argument 0 ('x') of TLE-Raw function 'f32_128' is annotated tensor<128xf32> but tle.call "
     "passes a tensor<64xf32>", "tle.call(f32_128, args=[x])"),
    (call_wrong_count, "TLE-Raw function 'f32_128' takes 1 argument(s), tle.call passes 2",
     "tle.call(f32_128, args=[x, x])"),
    (call_unsupported_op, "op 'gpu.thread_id' is not supported in TLE-Raw function 'uses_gpu_dialect'",
     "tle.call(uses_gpu_dialect, args=[x])"),
    (call_raising_body, "building TLE-Raw function 'raises_inside' failed", "tle.call(raises_inside, args=[x])"),
    (call_unknown_hardware_key, "tle.call: unknown hardware key 'warps'; known: 'threads'", "tle.call(f32_128"),
    (call_threads_dim, "TLE-Raw function 'wants_2d' has threads_dim=2, but tle.call gives hardware threads (128,)",
     "tle.call(wants_2d"),
    (call_threads_count, "hardware threads (256,) (256 threads) must equal num_warps x 32 = 4 x 32 = 128",
     "tle.call(f32_128"),
    (call_unknown_layout_key, "tle.call: unknown layout key 'swizzle'; known: 'space', 'order'", "tle.call(f32_128"),
    (call_layout_space, "tle.call: layout space 'global' is not supported; supported: 'shared'", "tle.call(f32_128"),
    (call_layout_not_an_arg, "is not one of the args passed to 'f32_128'", "tle.call(f32_128"),
    (call_layout_order, "tle.call: layout order [1, 0] of argument 0 is not a permutation of its 1 dimension(s)",
     "tle.call(f32_128"),
    (call_scalar_mismatch, "argument 1 ('k') of TLE-Raw function 'takes_i32' is annotated i32 but tle.call passes 1.5",
     "tle.call(takes_i32"),
    (call_not_raw, "tle.call expects a @tle.raw.language function", "tle.call(call_not_raw"),
    (call_directly_in_kernel, "TLE-Raw function 'f32_128' can only be called through tle.call", "f32_128(x)"),
    (call_unknown_keyword, "tle.call got an unknown keyword argument 'threads'", "tle.call(f32_128"),
])
def test_misuse_points_at_user_line(kernel, message, line):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature={"X": "*fp32"}, target=TARGET, num_warps=4)
    msg = _message(info)
    assert message in msg
    assert line in msg


def test_raising_body_names_its_line():
    """An exception inside a TLE-Raw body carries the body's own line (issue
    31), not only the tle.call."""
    import inspect
    with pytest.raises(CompilationError) as info:
        tle.compile(call_raising_body, signature={"X": "*fp32"}, target=TARGET, num_warps=4)
    msg = str(info.value)
    src, start = inspect.getsourcelines(raises_inside.fn)
    line = start + next(i for i, text in enumerate(src) if "arith.addf(x, 1)" in text)
    assert f"failed at {__file__}:{line} (`arith.addf(x, 1)`)" in msg, msg


def test_wrong_dtype():
    with pytest.raises(CompilationError) as info:
        tle.compile(call_wrong_dtype, signature={"X": "*fp16"}, target=TARGET, num_warps=4)
    assert ("argument 0 ('x') of TLE-Raw function 'f32_128' is annotated tensor<128xf32> but tle.call passes a "
            "tensor<128xf16>") in _message(info)


def test_error_without_tle_enabled():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(K.reverse_kernel, signature={"X": "*i32", "Y": "*i32"})
    with pytest.raises(CompilationError) as info:
        triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "tle.call needs TLE's compiler stages" in str(info.value)


def test_tle_call_outside_a_kernel():
    with pytest.raises(tle.TLEUsageError, match="only valid inside a @triton.jit kernel"):
        tle.call(K.reverse_128, args=[])
