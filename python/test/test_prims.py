"""The wgmma, buffer and barrier primitives on the CPU (docs/barriers.md): the kernels of
prims_kernels.py compile to PTX for sm_90 through TLE's stages with the
instructions each primitive stands for, and misuse is an error at the
user's line.

* ``tle.gpu.wgmma`` with a register ``a``: ``wgmma.mma_async`` taking ``a``
  from registers (``{%r..}`` operands, no descriptor), after a
  ``ttg.convert_layout`` to ``#ttg.dot_op<{opIdx = 0, parent = #mma}>``;
  with fp8 operands: ``wgmma...e4m3.e4m3``, b laid out K-major;
* ``buf.slot(i)``: ``ttg.memdesc_index`` of one allocation, as a TMA copy
  destination, a wgmma operand and a local_load source;
* ``tle.gpu.barrier_try_wait``: one ``mbarrier.try_wait.parity`` and a
  ``selp`` per test, no wait loop;
* ``tle.gpu.set_layout``: the user's ``#ttg.blocked`` on the elementwise ops;
* all of them in ``tle.gpu.warp_specialize`` partitions (``setmaxnreg``)
  and slots / layouts in a ``tle.range`` with pipeline groups.

The GPU runs are test_prims_gpu.py.
"""

import importlib.util
import re

import pytest
import triton

import tle
import prims_kernels as K
from conftest import assert_finished, code, ptx_count

TARGET = "sm_90"


def compile_kernel(name, target=TARGET, **constexprs):
    return tle.compile(getattr(K, name), signature=K.SIGNATURES[name], constexprs=constexprs, target=target)


def test_public_names():
    import tle.gpu as gpu
    for name in ("barrier_try_wait", "set_layout", "BlockEncoding", "MmaEncoding", "DotOperandEncoding",
                 "SlicedEncoding"):
        assert name in gpu.__all__ and getattr(gpu, name).__doc__, name
    assert gpu.buffered_tensor.slot.__doc__


def _module(tmp_path, name, source):
    """The module of ``source`` (kernels that must fail to compile: Triton
    reads a kernel's source from its file), written to ``name``.py and
    imported."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --- wgmma with a register a ------------------------------------------------------------------------------


@pytest.mark.parametrize("K_", [32, 64, 128])
def test_register_a_wgmma(K_):
    """K < N, K = N, K > N: the marker carries the narrower of a and acc as
    a tile; the wgmma reads a from registers."""
    c = compile_kernel("register_a_kernel", M=64, N=64, K=K_)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle." not in ttgir.replace("tle.shared", "")
    assert re.search(r"ttng\.warp_group_dot %\S+, %\S+, %\S+ \{isAsync = true\} : tensor<64x"
                     + str(K_) + r"xbf16, #ttg\.dot_op<\{opIdx = 0, parent = #mma, kWidth = 2\}>>", ttgir)
    lines = [l for l in c.asm["ptx"].splitlines() if "wgmma.mma_async" in l]
    assert len(lines) == K_ // 16
    # a in registers: a brace list of 4 registers where a descriptor would be.
    assert all(re.search(r"\.bf16\.bf16 \{[^}]+\}, \{%r\d+,%r\d+,%r\d+,%r\d+\}, %rd\d+", l) for l in lines)


def test_attention_block_keeps_p_in_registers():
    c = compile_kernel("attention_pv_kernel", M=64, N=64, D=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    dots = [l for l in ttgir.splitlines() if "ttng.warp_group_dot " in l]
    assert "memdesc_trans" in ttgir  # q @ k^T reads k transposed in place
    assert "dot_op<{opIdx = 0" in dots[-1] and "%v_buf" in dots[-1]
    assert all("dot_op" not in d for d in dots[:-1])


@pytest.mark.parametrize("a_mode", [0, 1, 2])
def test_wgmma_transpose_flags(a_mode):
    """FlagTree's trans_b / trans_a: a buffer is read in place through its
    transposed view (a memdesc_trans of the operand, as memdesc_wgmma_view),
    a register a is transposed in registers."""
    c = compile_kernel("transposed_operands_kernel", M=64, N=64, K=64, A_MODE=a_mode)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttg.memdesc_trans") == (2 if a_mode == 1 else 1)
    assert ptx_count(c, r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16") == 4


def test_wgmma_transpose_flags_reject_bad_values(tmp_path):
    mod = _module(tmp_path, "transpose_errors", """
import triton, triton.language as tl, tle

@triton.jit
def fp8_trans_b(X):
    a = tle.gpu.alloc([64, 64], dtype=tl.float8e4nv)
    b = tle.gpu.alloc([64, 64], dtype=tl.float8e4nv)
    tl.store(X + tl.arange(0, 64), tl.sum(tle.gpu.wgmma(a, b, trans_b=True, is_async=False), axis=1))

@triton.jit
def int_flag(X):
    a = tle.gpu.alloc([64, 64], dtype=tl.float16)
    b = tle.gpu.alloc([64, 64], dtype=tl.float16)
    tl.store(X + tl.arange(0, 64), tl.sum(tle.gpu.wgmma(a, b, trans_b=1, is_async=False), axis=1))
""")
    for name, match in (("fp8_trans_b", "trans_b=True needs a 16-bit b"),
                        ("int_flag", "trans_b must be a compile-time bool, got")):
        with pytest.raises(triton.CompilationError, match=match):
            tle.compile(getattr(mod, name), signature={"X": "*fp32"}, target=TARGET)

@pytest.mark.parametrize("b_nk", [True, False])
def test_fp8_wgmma(b_nk):
    c = compile_kernel("fp8_kernel", M=64, N=64, K=64, B_NK=b_nk)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "transposed = true, elementBitWidth = 8" in ttgir  # b K-major
    assert "maxNumImpreciseAcc = 32" in ttgir
    assert ptx_count(c, r"wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3") >= 2


# --- slots ------------------------------------------------------------------------------------------------


def test_slot_ring_matmul():
    c = compile_kernel("slot_ring_matmul_kernel", BM=64, BN=64, BK=64, STAGES=3)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #shared") == 2
    assert re.search(r"ttg\.memdesc_index %a_bufs\[%\S+\] : !ttg\.memdesc<3x64x64xf16, #shared, #smem, mutable> "
                     r"-> !ttg\.memdesc<64x64xf16, #shared, #smem, mutable>", ttgir)
    assert "ttng.async_tma_copy_global_to_local" in ttgir
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d") >= 2
    assert ptx_count(c, r"wgmma\.mma_async") >= 4


def test_slot_load_store():
    c = compile_kernel("slot_load_kernel", R=32, C=64, STAGES=2)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "ttg.async_copy_global_to_local" in ttgir
    assert ttgir.count("ttg.memdesc_index %bufs") >= 4
    assert ptx_count(c, r"cp\.async\.mbarrier\.arrive") >= 1


def _slot_error(body, match):
    src = f"""
import triton, triton.language as tl, tle
@triton.jit
def k(X):
{body}
"""
    ns = {}
    exec(compile(src, "<slot>", "exec"), ns)
    with pytest.raises(Exception, match=match):
        tle.compile(ns["k"], signature={"X": "*fp32"}, target=TARGET)


def test_slot_errors(tmp_path):
    mod = _module(tmp_path, "slot_errors", """
import triton, triton.language as tl, tle

@triton.jit
def out_of_range(X):
    b = tle.gpu.alloc([2, 16, 16], dtype=tl.float32)
    tl.store(X + tl.arange(0, 16), tl.sum(tle.gpu.local_load(b.slot(2)), axis=1))

@triton.jit
def rank_one(X):
    b = tle.gpu.alloc([16], dtype=tl.float32)
    tl.store(X + tl.arange(0, 16), tle.gpu.local_load(b.slot(0)))

@triton.jit
def tensor_index(X):
    b = tle.gpu.alloc([2, 16, 16], dtype=tl.float32)
    tl.store(X + tl.arange(0, 16), tl.sum(tle.gpu.local_load(b.slot(tl.arange(0, 2))), axis=1))
""")
    for name, match in (("out_of_range", "slot index 2 is out of range for 2 slots"),
                        ("rank_one", "has no slots"),
                        ("tensor_index", "index must be an integer scalar")):
        with pytest.raises(triton.CompilationError, match=match):
            tle.compile(getattr(mod, name), signature={"X": "*fp32"}, target=TARGET)


# --- barrier_try_wait -----------------------------------------------------------------------------------


def test_try_wait():
    c = compile_kernel("try_wait_kernel")
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count('"tle.barrier_try_wait.begin;"') == 5
    llir = c.asm["llir"]
    assert "tle.barrier_try_wait" not in llir and "waitLoop" not in llir
    assert ptx_count(c, r"mbarrier\.try_wait\.parity\.shared(::cta)?\.b64") == 5
    assert ptx_count(c, r"selp\.u32") >= 5
    # The parity of each test, in program order, as barrier_wait's: phase
    # 0 of the PENDING barrier (offset 0) is parity 0 (incomplete until
    # both arrivals); the READY barrier (offset 16) flips it, so its phase
    # 0 is parity 1 (complete at once) and its phase 1 parity 0.
    tests = re.findall(r'mbarrier\.try_wait\.parity[^"]*", "=r,r,r"\(ptr addrspace\(3\) '
                       r'(@global_smem|getelementptr \(i8, ptr addrspace\(3\) @global_smem, i32 (\d+)\)), i32 (\d)\)',
                       llir)
    assert [(int(off or 0), int(parity)) for _, off, parity in tests] == [(0, 0), (16, 1), (16, 0), (0, 0), (0, 0)]
    # The early answer is stored before the second arrival (the hardware's
    # try-wait may otherwise still be suspended when it comes).
    ptx = c.asm["ptx"]
    first_store = ptx.index("st.global.b32")
    arrives = [m.start() for m in re.finditer(r"mbarrier\.arrive", ptx)]
    assert len(arrives) == 2 and arrives[0] < ptx.index("mbarrier.try_wait") < first_store < arrives[1]


def test_try_wait_errors(tmp_path):
    mod = _module(tmp_path, "try_wait_errors", """
import triton, triton.language as tl, tle

@triton.jit
def named(X):
    tl.store(X, tle.gpu.barrier_try_wait(tle.gpu.named_barrier(5, 128)).to(tl.int32))

@triton.jit
def array(X):
    bars = tle.gpu.alloc_barriers(2)
    tl.store(X, tle.gpu.barrier_try_wait(bars).to(tl.int32))

@triton.jit
def plain(X):
    bar = tle.gpu.alloc_barrier()
    tl.store(X, tle.gpu.barrier_try_wait(bar, 0).to(tl.int32))
""")
    for name, match in (("named", "a named barrier has no phase to test"),
                        ("array", "takes one barrier: index the 2 barriers")):
        with pytest.raises(triton.CompilationError, match=match):
            tle.compile(getattr(mod, name), signature={"X": "*i32"}, target=TARGET)
    with pytest.raises(triton.CompilationError, match="needs sm_90"):
        tle.compile(mod.plain, signature={"X": "*i32"}, target="sm_80")


# --- set_layout -------------------------------------------------------------------------------------------


def test_set_layout():
    c = compile_kernel("set_layout_kernel", N=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    rows = re.search(r"^(#\w+) = #ttg\.blocked<\{sizePerThread = \[1, 4\], threadsPerWarp = \[4, 8\], "
                     r"warpsPerCTA = \[4, 1\], order = \[1, 0\]\}>", ttgir, re.M)
    assert rows, ttgir
    alias = rows.group(1)
    assert re.search(r"arith\.mulf .* : tensor<64x64xf32, " + alias + ">", ttgir)
    assert re.search(r"arith\.addf .* : tensor<64x64xf32, " + alias + ">", ttgir)


def test_layout_objects():
    from tle.gpu import BlockEncoding, DotOperandEncoding, MmaEncoding, SlicedEncoding
    mma = MmaEncoding(3, [4, 1], [16, 64, 16])
    assert mma.to_mlir() == ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                             "instrShape = [16, 64, 16]}>")
    dot = DotOperandEncoding(0, mma, 2)
    assert dot.to_mlir().startswith("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<") and dot.rank == 2
    blocked = BlockEncoding([1, 4], [4, 8], [4, 1], [1, 0])
    assert SlicedEncoding(1, blocked).to_mlir() == f"#ttg.slice<{{dim = 1, parent = {blocked.to_mlir()}}}>"
    assert blocked == BlockEncoding([1, 4], [4, 8], [4, 1], [1, 0])
    for bad, match in ((lambda: BlockEncoding([1, 4], [4, 8], [4, 1], [0, 0]), "permutation"),
                       (lambda: BlockEncoding([1, 4], [4, 8], [4], [1, 0]), "must have 2 entries"),
                       (lambda: MmaEncoding(1, [4, 1], [16, 8]), "version must be 2"),
                       (lambda: DotOperandEncoding(2, mma, 2), "operand_index must be 0 or 1"),
                       (lambda: SlicedEncoding(2, blocked), "dim must be a dimension"),
                       (lambda: BlockEncoding([1, 4], [4, 8], [4, 1], [1, 0], cga_layout=[[1]]), "cga_layout")):
        with pytest.raises(tle.gpu.TLEUsageError, match=match):
            bad()


def test_set_layout_errors(tmp_path):
    mod = _module(tmp_path, "layout_errors", """
import triton, triton.language as tl, tle
L1 = tl.constexpr(tle.gpu.BlockEncoding([4], [32], [4], [0]))
L8 = tl.constexpr(tle.gpu.BlockEncoding([1, 4], [4, 8], [8, 1], [1, 0]))

@triton.jit
def rank(X):
    offs = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    tl.store(X + offs, tle.gpu.set_layout(tl.load(X + offs), L1))

@triton.jit
def warps(X):
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(X + offs, tle.gpu.set_layout(tl.load(X + offs), L8) + 1.0)

@triton.jit
def not_a_layout(X):
    offs = tl.arange(0, 16)
    tl.store(X + offs, tle.gpu.set_layout(tl.load(X + offs), 3))
""")
    with pytest.raises(triton.CompilationError, match="lays out rank-1 tensors"):
        tle.compile(mod.rank, signature={"X": "*fp32"}, target=TARGET)
    with pytest.raises(triton.CompilationError, match="layout must be a tle.gpu.BlockEncoding"):
        tle.compile(mod.not_a_layout, signature={"X": "*fp32"}, target=TARGET)
    with pytest.raises(Exception, match="spreads over 8 warps, but its thread group has 4"):
        tle.compile(mod.warps, signature={"X": "*fp32"}, target=TARGET)


def test_register_a_errors(tmp_path):
    mod = _module(tmp_path, "register_a_errors", """
import triton, triton.language as tl, tle

@triton.jit
def f32_a(X):
    v = tle.gpu.alloc([16, 64], dtype=tl.float16)
    a = tl.zeros([64, 16], tl.float32)
    acc = tle.gpu.wgmma_wait(0, tle.gpu.wgmma(a, v))
    tl.store(X + tl.arange(0, 64), tl.sum(acc, axis=1))

@triton.jit
def fp8_register_a(X):
    v = tle.gpu.alloc([32, 64], dtype=tl.float8e4nv)
    a = tl.zeros([64, 32], tl.float8e4nv)
    acc = tle.gpu.wgmma_wait(0, tle.gpu.wgmma(a, v))
    tl.store(X + tl.arange(0, 64), tl.sum(acc, axis=1))

@triton.jit
def imprecise_16(X):
    a = tle.gpu.alloc([64, 16], dtype=tl.float16)
    v = tle.gpu.alloc([16, 64], dtype=tl.float16)
    acc = tle.gpu.wgmma_wait(0, tle.gpu.wgmma(a, v, max_num_imprecise_acc=64))
    tl.store(X + tl.arange(0, 64), tl.sum(acc, axis=1))
""")
    for name, match in (("f32_a", "a in registers must hold fp16 or bf16"),
                        ("fp8_register_a", "an 8-bit a must be a shared-memory buffer"),
                        ("imprecise_16", "max_num_imprecise_acc is for fp8 operands only")):
        with pytest.raises(triton.CompilationError, match=match):
            tle.compile(getattr(mod, name), signature={"X": "*fp32"}, target=TARGET)


# --- composition ------------------------------------------------------------------------------------------


def test_warp_specialize_with_every_primitive():
    """A 1-warp TMA producer (setmaxnreg 40) fills slots of one buffer; the
    default partition tests them with try_wait, pins the slot's load to its
    own layout and runs a register-a wgmma."""
    c = compile_kernel("ws_prims_kernel", BM=64, BK=64, BN=64, STAGES=2)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "ttg.warp_specialize" in ttgir and "requestedRegisters = array<i32: 40>" in ttgir
    assert "ttg.memdesc_index %bufs" in ttgir or re.search(r"ttg\.memdesc_index %arg\d+\[", ttgir)
    assert "dot_op<{opIdx = 0" in ttgir
    assert ptx_count(c, r"setmaxnreg") >= 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d") >= 1
    assert ptx_count(c, r"wgmma\.mma_async") >= 4
    assert ptx_count(c, r"selp\.u32") >= 2  # the two try_waits of the consumer
    assert "tle.barrier_try_wait" not in c.asm["llir"]


def test_set_layout_in_partitions():
    """The default partition's layout has 4 warps, the 1-warp worker's 1:
    each is checked against its own thread group and kept by the
    warp-specialize lowering."""
    c = compile_kernel("ws_set_layout_kernel", N=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]" in ttgir
    assert "sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1]" in ttgir
    assert ptx_count(c, r"setmaxnreg") >= 1


@pytest.mark.parametrize("n_tiles", [1, 2])
def test_pipeline_groups_of_a_constant_trip_count(n_tiles):
    """The JIT specialises an int argument equal to 1 as a constant; the
    one-trip tle.range loop is then folded by Triton's canonicalizer, and
    its groups (nothing left to pipeline) are dropped, not reported as
    misplaced. A trip count of 2 keeps its loop and its groups."""
    sig = dict(K.SIGNATURES["ranged_slot_kernel"], n_tiles="constexpr")
    c = tle.compile(K.ranged_slot_kernel, signature=sig, constexprs={"n_tiles": n_tiles, "R": 32, "C": 64},
                    target=TARGET)
    assert_finished(c)
    ttir = code(c, "tle-ttir")
    assert "pipeline_group" not in ttir
    assert ("scf.for" in ttir) == (n_tiles > 1)
    assert ("tt.num_stages = 2" in ttir) == (n_tiles > 1)
    assert ptx_count(c, r"st\.global") >= 1


def test_slots_and_layouts_in_pipeline_groups():
    c = compile_kernel("ranged_slot_kernel", R=32, C=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "ttg.memdesc_index" in ttgir
    assert "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]" in ttgir
