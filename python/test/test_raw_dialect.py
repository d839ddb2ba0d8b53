"""TLE-Raw in FlagTree's form (docs/raw.md): ``@tle.raw.dialect`` functions with
``Input`` / ``InOut`` parameters, called with ``tle.raw.call(fn, inouts,
inputs)``, compile to PTX on the CPU (the five tutorial patterns of
raw_dialect_kernels.py, each operand kind); misuse is reported at the user's
line."""

import re
from typing import Literal

import pytest
import triton
import triton.language as tl
from mlir import ir
from mlir.dialects import arith, gpu, llvm, nvvm
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.compiler.errors import CompilationError

import raw_dialect_kernels as K
import tle
from tle.raw import InOut, Input

TARGET = "sm_90"


def _strip_locs(line):
    """``line`` without its ``loc(...)`` attributes (nested parentheses included)."""
    out, i = [], 0
    while (j := line.find(" loc(", i)) >= 0:
        out.append(line[i:j])
        depth, k = 0, j + 4
        while k < len(line):
            depth += {"(": 1, ")": -1}.get(line[k], 0)
            k += 1
            if depth == 0:
                break
        i = k
    return "".join(out) + line[i:]


def _code(text):
    """IR without location attributes and #loc lines."""
    return "\n".join(_strip_locs(line) for line in text.splitlines() if not line.startswith("#loc"))


def _ptx(k):
    """PTX without debug sections and comments."""
    return re.sub(r"//.*", "", k.asm["ptx"].split(".section\t.debug", 1)[0])


def _message(info):
    return str(info.value).replace("\\'", "'").replace('\\"', '"')


def _body(ttgir, name):
    """The lowered function of a call of ``name`` in the ttgir stage."""
    start = ttgir.index(f"llvm.func internal @__tle_raw_{name}")
    return ttgir[start:ttgir.index("\n  }", start)]


def test_flagtree_names():
    import tle.raw as tle_raw
    from tle.raw.mlir import vassert, vprintf
    assert tle_raw.call is tle.call and tle.raw.dialect and tle.raw.Input and tle.raw.InOut
    assert vprintf is tle.raw.vprintf and vassert is tle.raw.vassert
    assert repr(Input["memref<?xf32, 3>"]) == "Input['memref<?xf32, 3>']"
    assert InOut[Literal["memref<?x?xf16, 3>"]] == InOut["memref<?x?xf16, 3>"]
    with pytest.raises(tle.TLEUsageError, match="takes an MLIR type string"):
        Input[3]
    with pytest.raises(tle.TLEUsageError, match="unknown TLE-Raw language 'cuda'"):
        tle.raw.dialect(name="cuda")
    with pytest.raises(tle.TLEUsageError, match=r"can only be called through tle\.raw\.call\(axpy, \[inouts"):
        K.axpy(1, 2)


# --- the five patterns, to PTX ----------------------------------------------


def test_elementwise_over_global_pointers():
    """Pointers and scalars go straight to the body: no staging, no barrier
    needed for buffers; the body reads the hardware's ctaid/ntid/nctaid."""
    k = tle.compile(K.axpy_kernel, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "n": "i32", "alpha": "fp32"},
                    constexprs={"BLOCK": 1024}, target=TARGET, num_warps=4)
    ttir = k.asm["ttir"]
    assert "tle.dsl_region" in ttir and "hardware_ids" in ttir
    ttgir = _code(k.asm["ttgir"])
    assert not re.search(r"= tle\.|^\s*tle\.", ttgir, re.M)
    assert re.search(r"llvm\.func internal @__tle_raw_axpy\(%\w+: !llvm\.ptr<1>, %\w+: !llvm\.ptr<1>, "
                     r"%\w+: !llvm\.ptr<1>, %\w+: i32, %\w+: f32\) -> i32 attributes \{always_inline\}", ttgir)
    body = _body(ttgir, "axpy")
    for reg in ("tid.x", "ntid.x", "ctaid.x", "nctaid.x"):  # the hardware's, not virtualized
        assert f"nvvm.read.ptx.sreg.{reg}" in body
    assert re.search(r'tt\.extern_elementwise %OUT, %X, %Y, %n, %alpha .*symbol = "__tle_raw_axpy"', ttgir)
    ptx = _ptx(k)
    assert "call" not in ptx and "tle.smem.base" not in k.asm["llir"]
    assert re.search(r"mov\.u32\s+%r\d+, %nctaid\.x", ptx) and re.search(r"mov\.u32\s+%r\d+, %ctaid\.x", ptx)
    assert len(re.findall(r"ld\.global(\.\w+)*\.[bf]32", ptx)) == 2 and re.search(r"st\.global(\.\w+)*\.[bf]32", ptx)
    assert re.search(r"fma\.rn\.f32|mul(\.rn)?\.f32", ptx)
    assert "ld.shared" not in ptx and "st.shared" not in ptx


def test_softmax_row_in_shared_memory():
    k = tle.compile(K.softmax_kernel, signature={"X": "*fp32", "Y": "*fp32", "n_rows": "i32", "n_cols": "i32"},
                    constexprs={"BLOCK": 256}, target=TARGET, num_warps=4)
    ttgir = _code(k.asm["ttgir"])
    # Three memref<?xf32, 3> parameters taken as 256-element buffers (bare pointers).
    assert re.search(r"llvm\.func internal @__tle_raw_row_softmax\(%\w+: !llvm\.ptr<3>, %\w+: !llvm\.ptr<3>, "
                     r"%\w+: !llvm\.ptr<3>\) -> i32", ttgir)
    body = _body(ttgir, "row_softmax")
    assert "memref" not in body and "256" in body  # memref.dim folded to the buffer's size
    assert "nvvm.barrier0" in body and re.search(r"llvm\.intr\.(maximum|maxnum)", body)
    # math.exp is expanded into arithmetic (NVPTX has no libm to call).
    assert "llvm.intr.exp" not in body and "llvm.intr.floor" in body
    ptx = _ptx(k)
    assert "call" not in ptx
    assert re.search(r"max(\.NaN)?\.f32", ptx) and "cvt.rmi.f32.f32" in ptx and "div.rn.f32" in ptx
    assert ptx.count("bar.sync") >= 6
    assert len(re.findall(r"ld\.shared", ptx)) >= 4 and len(re.findall(r"st\.shared", ptx)) >= 4
    assert k.metadata.shared >= 3 * 256 * 4  # y, x and scratch staged


def test_matmul_accumulates_into_inout():
    k = tle.compile(K.matmul_kernel, signature={"A": "*fp16", "B": "*fp16", "C": "*fp32", "M": "i32", "N": "i32",
                                                 "K": "i32"},
                    constexprs={"BM": 32, "BN": 32, "BK": 16}, target=TARGET, num_warps=4)
    ttgir = _code(k.asm["ttgir"])
    call = ttgir.index("tt.extern_elementwise")
    loop = ttgir.rindex("scf.for", 0, call)
    assert "scf.yield" in ttgir[call:]  # the call is inside the K loop
    # acc staged (fp32 32x32), a and b (fp16 32x16, 16x32); acc read back after the call.
    before, after = ttgir[loop:call], ttgir[call:]
    assert before.count("tt.store") >= 3 and "gpu.barrier" in before
    assert re.search(r"tt\.load [^\n]*tensor<32x32x!tt\.ptr<f32, 3>", after)
    body = _body(ttgir, "mma_tile")
    assert "llvm.fpext" in body and "llvm.fmul" in body and "llvm.fadd" in body
    ptx = _ptx(k)
    assert "call" not in ptx and re.search(r"cvt\.f32\.f16", ptx)
    assert k.metadata.shared >= 32 * 32 * 4 + 2 * 32 * 16 * 2


def test_device_print_without_operands():
    k = tle.compile(K.hello_kernel, signature={}, target=TARGET, num_warps=4)
    ttgir = k.asm["ttgir"]
    assert re.search(r'llvm\.mlir\.global internal constant @__tle_raw_hello_format_0\("hello from program %d of %d, '
                     r'%d threads, x=%f\\0A\\00"\)', ttgir)
    assert re.search(r"llvm\.func @vprintf\(!llvm\.ptr, !llvm\.ptr\) -> i32", ttgir)
    body = _body(_code(ttgir), "hello")
    # Four arguments packed as (i32, i32, i32, f64): the f32 constant promoted.
    assert re.search(r"llvm\.alloca .* x !llvm\.struct<\(i32, i32, i32, f64\)>", body)
    assert "1.500000e+00 : f64" in body and "llvm.call @vprintf" in body
    ptx = _ptx(k)
    assert re.search(r"call\.uni \(retval0\),\s*vprintf", ptx)
    assert ".extern .func  (.param .b32 func_retval0) vprintf" in ptx or re.search(r"\.extern \.func[^\n]*vprintf", ptx)
    assert "hello from program" not in ptx or True  # the string is a .global byte array
    assert re.search(r"\.global \.align \d+ \.b8 __tle_raw_hello_format_0\[\d+\]", ptx)


def test_topk_over_shared_histograms():
    k = tle.compile(K.topk_kernel, signature={"X": "*i32", "OUT": "*i32", "HIST": "*i32", "k": "i32"},
                    constexprs={"N": 1024}, target=TARGET, num_warps=8)
    ttgir = _code(k.asm["ttgir"])
    assert re.search(r"llvm\.func internal @__tle_raw_histogram_topk\(%\w+: !llvm\.ptr<3>, %\w+: !llvm\.ptr<3>, "
                     r"%\w+: !llvm\.ptr<3>, %\w+: !llvm\.ptr<1>, %\w+: i32\)", ttgir)
    body = _body(ttgir, "histogram_topk")
    assert "llvm.atomicrmw add" in body
    ptx = _ptx(k)
    assert "call" not in ptx
    assert re.search(r"atom\.shared(\.\w+)*\.add(\.\w+)*", ptx)
    assert re.search(r"st\.global(\.\w+)*\.b32|st\.global(\.\w+)*\.u32", ptx)
    assert k.metadata.shared >= (256 + 4 + 1024) * 4


def test_static_memref_sizes_and_ast_source():
    """A memref spelled with static sizes; the plain triton.compile path with
    TLE enabled gives the same lowering."""
    src = ASTSource(K.topk_kernel, signature={"X": "*i32", "OUT": "*i32", "HIST": "*i32", "k": "i32"},
                    constexprs={"N": 512})
    with tle.enabled():
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "__tle_raw_histogram_topk" in k.asm["ttgir"]
    assert "atom.shared" in _ptx(k)


def test_two_forms_in_one_kernel():
    """The wiki form and FlagTree's form share the op and its lowering."""
    import raw_kernels as W

    @triton.jit
    def both(X, Y, OUT, n):
        offs = tl.arange(0, 1024)
        x = tl.load(X + offs)
        y = tl.load(Y + offs)
        out = tl.zeros_like(x)
        tle.call(W.vector_add_tile, args=[x, y, out])
        tl.store(OUT + offs, out)
        tle.raw.call(K.axpy, [], [OUT, X, Y, n, 2.0])

    k = tle.compile(both, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "n": "i32"}, target=TARGET,
                    num_warps=32)
    ttgir = k.asm["ttgir"]
    assert "@__tle_raw_vector_add_tile" in ttgir and "@__tle_raw_axpy" in ttgir
    assert "call" not in _ptx(k)


@tle.raw.dialect(name="mlir")
def flagtree_spellings(out: Input[Literal["!llvm.ptr<1>"]], n: Input[Literal["i32"]]):  # noqa: F821
    """FlagTree's newer spellings: Literal annotations, nvvm.barrier with
    keywords and no result type, vassert."""
    i32 = ir.IntegerType.get_signless(32)
    ntid = nvvm.read_ptx_sreg_ntid_x(i32)
    tle.raw.vassert(arith.cmpi(arith.CmpIPredicate.eq, ntid, arith.constant(i32, 128)), "expected 128 threads\n")
    nvvm.barrier(barrier_id=arith.constant(i32, 1), number_of_threads=arith.constant(i32, 128))
    ptr = ir.Type.parse("!llvm.ptr<1>")
    tid = nvvm.read_ptx_sreg_tid_x(i32)
    llvm.store(arith.addi(tid, n), llvm.getelementptr(ptr, out, [tid], [-2147483648], i32, 0))


@triton.jit
def k_flagtree_spellings(OUT, n):
    tle.raw.call(flagtree_spellings, [OUT, n])  # one list, in parameter order


def test_flagtree_spellings_one_list_vassert_named_barrier():
    k = tle.compile(k_flagtree_spellings, signature={"OUT": "*i32", "n": "i32"}, target=TARGET, num_warps=4)
    ptx = _ptx(k)
    assert re.search(r"bar\.sync\s+1, 128;|barrier\.sync(\.aligned)?\s+1, 128;", ptx), ptx
    assert "trap;" in ptx and "vprintf" in ptx  # vassert: print, then trap
    assert re.search(r'__tle_raw_flagtree_spellings_format_0\[\d+\] = \{101, 120, 112', ptx)  # "exp..."


def test_older_target():
    """Nothing in the form needs more than Triton's oldest targets."""
    k = tle.compile(K.topk_kernel, signature={"X": "*i32", "OUT": "*i32", "HIST": "*i32", "k": "i32"},
                    constexprs={"N": 256}, target="sm_80", num_warps=4)
    ptx = _ptx(k)
    assert ".target sm_80" in ptx and "atom.shared" in ptx


# --- misuse, at the user's line ----------------------------------------------


@tle.raw.dialect(name="mlir")
def bad_type(x: Input["memref<?xf32"]):  # noqa: F722
    pass


@tle.raw.dialect(name="mlir")
def global_memref(x: Input["memref<?xf32, 1>"]):  # noqa: F722
    pass


@tle.raw.dialect(name="mlir")
def scale(y: InOut["memref<?xf32, 3>"], x: Input["memref<?xf32, 3>"], k: Input["f32"]):  # noqa: F722, F821
    pass


@tle.raw.dialect(name="mlir")
def matrix(y: InOut["memref<?x?xf32, 3>"]):  # noqa: F722
    pass


@tle.raw.dialect(name="mlir")
def sized(y: InOut["memref<64xf32, 3>"]):  # noqa: F722
    pass


@tle.raw.dialect(name="mlir")
def takes_ptr(p: Input["!llvm.ptr<1>"]):  # noqa: F722
    pass


@tle.raw.dialect(name="mlir")
def inout_scalar(k: InOut["i32"]):  # noqa: F821
    pass


@tle.raw.dialect(name="mlir")
def not_annotated(x):
    pass


@tle.raw.dialect(name="mlir")
def does_not_verify(y: InOut["memref<?xf32, 3>"]):  # noqa: F722
    i32 = ir.IntegerType.get_signless(32)
    i64 = ir.IntegerType.get_signless(64)
    arith.addi(arith.constant(i32, 1), arith.constant(i64, 2))


@tle.raw.dialect(name="mlir")
def unsupported(y: InOut["memref<?xf32, 3>"]):  # noqa: F722
    gpu.barrier()


@triton.jit
def k_bad_type(X):
    tle.raw.call(bad_type, [], [tl.load(X + tl.arange(0, 128))])


@triton.jit
def k_global_memref(X):
    tle.raw.call(global_memref, [], [tl.load(X + tl.arange(0, 128))])


@triton.jit
def k_dtype(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(scale, [x.to(tl.float16)], [x, 1.0])


@triton.jit
def k_rank(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(matrix, [x], [])


@triton.jit
def k_static_size(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(sized, [x], [])


@triton.jit
def k_ptr_gets_tensor(X):
    tle.raw.call(takes_ptr, [], [X + tl.arange(0, 128)])


@triton.jit
def k_scalar_gets_int(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(scale, [x], [x, tl.program_id(0)])


@triton.jit
def k_few_inouts(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(scale, [], [x, x, 1.0])


@triton.jit
def k_many_inputs(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(scale, [x], [x, 1.0, 2.0])


@triton.jit
def k_inout_scalar(X):
    tle.raw.call(inout_scalar, [tl.program_id(0)], [])


@triton.jit
def k_not_annotated(X):
    tle.raw.call(not_annotated, [], [X])


@triton.jit
def k_does_not_verify(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(does_not_verify, [x], [])


@triton.jit
def k_unsupported(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(unsupported, [x], [])


@triton.jit
def k_keywords(X):
    x = tl.load(X + tl.arange(0, 128))
    tle.raw.call(scale, [x], [x, 1.0], layout={})


@triton.jit
def k_no_lists(X):
    tle.raw.call(scale)


@pytest.mark.parametrize("kernel,message,line", [
    (k_bad_type, "argument 0 ('x') of TLE-Raw function 'bad_type': cannot parse its annotation "
     "Input['memref<?xf32'] as an MLIR type", "tle.raw.call(bad_type"),
    (k_global_memref, "annotation Input['memref<?xf32, 1>'] must be a memref in shared memory, address space 3",
     "tle.raw.call(global_memref"),
    (k_dtype, "argument 0 ('y') of TLE-Raw function 'scale' is annotated InOut['memref<?xf32, 3>'] but the call "
     "passes a fp16 tensor of shape [128]", "tle.raw.call(scale, [x.to(tl.float16)]"),
    (k_rank, "argument 0 ('y') of TLE-Raw function 'matrix' is annotated InOut['memref<?x?xf32, 3>'] but the call "
     "passes a fp32 tensor of shape [128]", "tle.raw.call(matrix"),
    (k_static_size, "is annotated InOut['memref<64xf32, 3>'] but the call passes a fp32 tensor of shape [128]",
     "tle.raw.call(sized"),
    (k_ptr_gets_tensor, "argument 0 ('p') of TLE-Raw function 'takes_ptr' is annotated Input['!llvm.ptr<1>'] but "
     "the call passes", "tle.raw.call(takes_ptr"),
    (k_scalar_gets_int, "argument 2 ('k') of TLE-Raw function 'scale' is annotated Input['f32'] but the call passes "
     "a int32", "tle.raw.call(scale, [x], [x, tl.program_id(0)])"),
    (k_few_inouts, "tle.raw.call: 'scale' has 1 InOut parameter(s) (y), but the call passes 0 inout(s)",
     "tle.raw.call(scale, [], [x, x, 1.0])"),
    (k_many_inputs, "tle.raw.call: 'scale' has 2 Input parameter(s) (x, k), but the call passes 3 input(s)",
     "tle.raw.call(scale, [x], [x, 1.0, 2.0])"),
    (k_inout_scalar, "InOut['i32'] is not a memref; only a memref", "tle.raw.call(inout_scalar"),
    (k_not_annotated, "parameter 'x' of @tle.raw.dialect function 'not_annotated' needs an annotation "
     "tle.raw.Input[\"<mlir type>\"] or tle.raw.InOut[\"<mlir type>\"]", "tle.raw.call(not_annotated"),
    (k_does_not_verify, "TLE-Raw function 'does_not_verify' does not verify: 'arith.addi' op requires the same type "
     "for all operands and results", "tle.raw.call(does_not_verify"),
    (k_unsupported, "op 'gpu.barrier' is not supported in TLE-Raw function 'unsupported'",
     "tle.raw.call(unsupported"),
    (k_keywords, "takes positional lists: tle.raw.call(fn, [inouts...], [inputs...])", "tle.raw.call(scale"),
    (k_no_lists, "tle.raw.call of @tle.raw.dialect function 'scale' takes (fn, [inouts...], [inputs...]) or "
     "(fn, [args...])", "tle.raw.call(scale)"),
])
def test_misuse_points_at_user_line(kernel, message, line):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature={"X": "*fp32"}, target=TARGET, num_warps=4)
    msg = _message(info)
    assert message in msg, msg
    assert line in msg, msg


def test_unverifiable_body_names_the_body_line():
    import inspect
    with pytest.raises(CompilationError) as info:
        tle.compile(k_does_not_verify, signature={"X": "*fp32"}, target=TARGET, num_warps=4)
    src, start = inspect.getsourcelines(does_not_verify.fn)
    line = start + next(i for i, text in enumerate(src) if "arith.addi(" in text)
    assert f"test_raw_dialect.py\":{line}:" in _message(info)
