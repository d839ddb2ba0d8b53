"""tle.dsa on CPU: frontend checks, TTIR + tle-ttir, the DSA lowering on the
captured TTIR, and the NVIDIA TTGIR stage's rejection (docs/dsa.md)."""

import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle

TARGET = "sm_90"


# --- the seeds' examples ------------------------------------------------------


@triton.jit
def local_buffer_flow(a_ptr, b_ptr, out_ptr, stride, BM: tl.constexpr, BK: tl.constexpr):
    """FlagTree's "DSA local buffer flow": GM -> UB, add, tensor view, UB -> GM."""
    pid = tl.program_id(0)
    offs = (pid * BM + tl.arange(0, BM))[:, None] * stride + tl.arange(0, BK)[None, :]
    a_ub = tle.dsa.alloc([BM, BK], dtype=tl.float16, mem_addr_space=tle.dsa.ascend.UB)
    b_ub = tle.dsa.alloc([BM, BK], dtype=tl.float16, mem_addr_space=tle.dsa.ascend.UB)
    c_ub = tle.dsa.alloc([BM, BK], dtype=tl.float16, mem_addr_space=tle.dsa.ascend.UB)
    tle.dsa.copy(a_ptr + offs, a_ub, [BM, BK])
    tle.dsa.copy(b_ptr + offs, b_ub, [BM, BK])
    tle.dsa.add(a_ub, b_ub, c_ub)
    c_val = tle.dsa.to_tensor(c_ub, writable=True)
    out_ub = tle.dsa.to_buffer(c_val, tle.dsa.ascend.UB)
    tle.dsa.copy(out_ub, out_ptr + offs, [BM, BK])


@triton.jit
def arithmetic_chain(a_ptr, b_ptr, s_ptr, out_ptr, M, N, XBLOCK: tl.constexpr, YBLOCK: tl.constexpr):
    """out = (a - b) * b / scale on the tail-aware block (seed: arithmetic chain)."""
    pid = tl.program_id(0)
    tail_m = tl.minimum(M - pid * XBLOCK, XBLOCK)
    tail_n = tl.minimum(N, YBLOCK)
    offs = (pid * XBLOCK + tl.arange(0, XBLOCK))[:, None] * N + tl.arange(0, YBLOCK)[None, :]
    a_ub = tle.dsa.alloc([XBLOCK, YBLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    b_ub = tle.dsa.alloc([XBLOCK, YBLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    scale_ub = tle.dsa.alloc([XBLOCK, YBLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    tmp_ub = tle.dsa.alloc([XBLOCK, YBLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    out_ub = tle.dsa.alloc([XBLOCK, YBLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    tle.dsa.copy(a_ptr + offs, a_ub, [tail_m, tail_n])
    tle.dsa.copy(b_ptr + offs, b_ub, [tail_m, tail_n])
    tle.dsa.copy(s_ptr + offs, scale_ub, [tail_m, tail_n])
    tle.dsa.sub(a_ub, b_ub, tmp_ub)
    tle.dsa.mul(tmp_ub, b_ub, tmp_ub)
    tle.dsa.div(tmp_ub, scale_ub, out_ub)
    tle.dsa.copy(out_ub, out_ptr + offs, [tail_m, tail_n])


@triton.jit
def clamp(x_ptr, y_ptr, lo, hi, BLOCK: tl.constexpr):
    """y = min(max(x, lo), hi) (seed: clamp via max + min)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x_ub = tle.dsa.alloc([BLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    tmp_ub = tle.dsa.alloc([BLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    y_ub = tle.dsa.alloc([BLOCK], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.UB)
    floor_ub = tle.dsa.to_buffer(tl.full([BLOCK], lo, tl.float32), tle.dsa.ascend.UB)
    ceil_ub = tle.dsa.to_buffer(tl.full([BLOCK], hi, tl.float32), tle.dsa.ascend.UB)
    tle.dsa.copy(x_ptr + offs, x_ub)
    tle.dsa.max(x_ub, floor_ub, tmp_ub)
    tle.dsa.min(tmp_ub, ceil_ub, y_ub)
    tle.dsa.copy(y_ub, y_ptr + offs)


FLOW = dict(signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "out_ptr": "*fp16", "stride": "i32"},
            constexprs={"BM": 16, "BK": 32})
CHAIN = dict(signature={"a_ptr": "*fp32", "b_ptr": "*fp32", "s_ptr": "*fp32", "out_ptr": "*fp32", "M": "i32",
                        "N": "i32"}, constexprs={"XBLOCK": 8, "YBLOCK": 64})
CLAMP = dict(signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "lo": "fp32", "hi": "fp32"}, constexprs={"BLOCK": 128})


def ops(text, name):
    return len(re.findall(rf"\b{re.escape(name)}\b", text))


def markers(text, name):
    return len(re.findall(rf'tt\.elementwise_inline_asm "tle\.{re.escape(name)}\b', text))


def test_local_buffer_flow_lowers_to_memref_linalg_bufferization():
    out = tle.dsa_compile(local_buffer_flow, **FLOW)
    ttir, checked, dsa = out["ttir"], out["tle-ttir"], out["dsa"]
    # TTIR carries one marker per call; tle-ttir only verifies (IR unchanged).
    assert markers(ttir, "dsa.alloc") == 3 and markers(ttir, "dsa.copy") == 3
    assert markers(checked, "dsa.alloc") == 3 and markers(checked, "dsa.to_buffer") == 1
    # The DSA form.
    assert not re.search(r"\btle\.dsa\.\w+ ", dsa) and "elementwise_inline_asm" not in dsa
    assert ops(dsa, "memref.alloc") == 4
    assert dsa.count("memref<16x32xf16, #tle.dsa.address_space<UB>>") >= 4
    assert ops(dsa, "linalg.add") == 1
    assert re.search(r"bufferization\.to_tensor %\S+ restrict writable : memref<16x32xf16, "
                     r"#tle.dsa.address_space<UB>> to tensor<16x32xf16>", dsa)
    assert re.search(r"bufferization\.materialize_in_destination %\S+ in writable %\S+ : "
                     r"\(tensor<16x32xf16>, memref<16x32xf16, #tle.dsa.address_space<UB>>\)", dsa)
    # Three global views, [stride, 1] strides, whole-block copies (no subviews).
    assert ops(dsa, "memref.reinterpret_cast") == 3
    assert len(re.findall(r"sizes: \[16, 32\], strides: \[%\S+, 1\]", dsa)) == 3
    assert ops(dsa, "memref.copy") == 3 and "memref.subview" not in dsa
    assert "tt.addptr" not in dsa


def test_arithmetic_chain_with_runtime_tails():
    dsa = tle.dsa_compile(arithmetic_chain, **CHAIN)["dsa"]
    assert not re.search(r"\btle\.dsa\.\w+ ", dsa)
    for op in ("linalg.sub", "linalg.mul", "linalg.div"):
        assert ops(dsa, op) == 1, op
    assert "linalg.add" not in dsa
    # Four copies, each of two tail subviews with dynamic sizes.
    assert ops(dsa, "memref.copy") == 4
    assert len(re.findall(r"memref\.subview %\S+\[0, 0\] \[%\S+, %\S+\] \[1, 1\]", dsa)) == 8
    # The chain's order is kept: sub, then mul in place, then div.
    assert dsa.index("linalg.sub") < dsa.index("linalg.mul") < dsa.index("linalg.div")
    mul = re.search(r"linalg\.mul ins\((%\S+), %\S+ : .*\) outs\((%\S+) :", dsa)
    assert mul and mul.group(1).rstrip(",") == mul.group(2)


def test_clamp_via_max_and_min():
    dsa = tle.dsa_compile(clamp, **CLAMP)["dsa"]
    assert ops(dsa, "linalg.max") == 1 and ops(dsa, "linalg.min") == 1
    assert dsa.index("linalg.max") < dsa.index("linalg.min")
    assert ops(dsa, "bufferization.materialize_in_destination") == 2
    # 1-D block pointer: x_ptr + pid * 128 + arange -> offset pid*128, stride 1.
    assert len(re.findall(r"memref\.reinterpret_cast %\S+ to offset: \[%\S+\], sizes: \[128\], strides: \[1\]",
                          dsa)) == 2


def test_nvidia_ttgir_stage_rejects_dsa():
    with pytest.raises(tle.MLIRError) as info:
        tle.compile(clamp, target=TARGET, **CLAMP)
    text = str(info.value)
    assert "'tle.dsa.alloc' is for DSA targets only" in text
    assert "'tle.dsa.max' is for DSA targets only" in text
    # At the user's lines (this file).
    assert re.search(r"test_dsa\.py:\d+:\d+: error: 'tle.dsa.min' is for DSA targets only", text)


# --- lowering errors -------------------------------------------------------------


@triton.jit
def gathered(x_ptr, idx_ptr, BLOCK: tl.constexpr):
    idx = tl.load(idx_ptr + tl.arange(0, BLOCK))
    buf = tle.dsa.alloc([BLOCK], dtype=tl.float32)
    tle.dsa.copy(x_ptr + idx, buf)


def test_unstructured_pointers_are_a_lowering_error():
    with pytest.raises(tle.MLIRError) as info:
        tle.dsa_compile(gathered, signature={"x_ptr": "*fp32", "idx_ptr": "*i32"}, constexprs={"BLOCK": 64})
    text = str(info.value)
    assert "tle.dsa.copy needs structured global pointers" in text
    assert "an offset computed by 'tt.load' is not affine" in text
    assert "test_dsa.py" in text


# --- frontend misuse ---------------------------------------------------------------


def usage_error(kernel, signature=None, constexprs=None):
    with pytest.raises(CompilationError) as info:
        tle.dsa_compile(kernel, signature=signature or {"X": "*fp32"}, constexprs=constexprs or {})
    return str(info.value)


@triton.jit
def copy_shape_mismatch(X):
    buf = tle.dsa.alloc([64], dtype=tl.float32)
    tle.dsa.copy(X + tl.arange(0, 32), buf)


@triton.jit
def copy_dtype_mismatch(X):
    buf = tle.dsa.alloc([32], dtype=tl.float16)
    tle.dsa.copy(X + tl.arange(0, 32), buf)


@triton.jit
def tail_too_large(X):
    buf = tle.dsa.alloc([32], dtype=tl.float32)
    tle.dsa.copy(X + tl.arange(0, 32), buf, [33])


@triton.jit
def tail_rank(X):
    buf = tle.dsa.alloc([32], dtype=tl.float32)
    tle.dsa.copy(X + tl.arange(0, 32), buf, [8, 8])


@triton.jit
def illegal_move(X):
    buf = tle.dsa.alloc([32], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.L0A)
    tle.dsa.copy(X + tl.arange(0, 32), buf)


@triton.jit
def binary_shape_mismatch(X):
    a = tle.dsa.alloc([32], dtype=tl.float32)
    b = tle.dsa.alloc([16], dtype=tl.float32)
    tle.dsa.add(a, a, b)


@triton.jit
def binary_dtype_mismatch(X):
    a = tle.dsa.alloc([32], dtype=tl.float32)
    b = tle.dsa.alloc([32], dtype=tl.float16)
    tle.dsa.mul(a, b, a)


@triton.jit
def binary_not_ub(X):
    a = tle.dsa.alloc([32], dtype=tl.float32)
    c = tle.dsa.alloc([32], dtype=tl.float32, mem_addr_space=tle.dsa.ascend.L0C)
    tle.dsa.sub(a, a, c)


@triton.jit
def integer_div(X):
    a = tle.dsa.alloc([32], dtype=tl.int32)
    tle.dsa.div(a, a, a)


@triton.jit
def to_buffer_scalar(X):
    b = tle.dsa.to_buffer(1.0, tle.dsa.ascend.UB)


@triton.jit
def to_buffer_of_buffer(X):
    a = tle.dsa.alloc([32], dtype=tl.float32)
    b = tle.dsa.to_buffer(a, tle.dsa.ascend.UB)


@triton.jit
def bad_space(X):
    a = tle.dsa.alloc([32], dtype=tl.float32, mem_addr_space="HBM")


@triton.jit
def to_tensor_of_pointer(X):
    t = tle.dsa.to_tensor(X + tl.arange(0, 32))


@pytest.mark.parametrize("kernel,message,line", [
    (copy_shape_mismatch, "the pointer tensor's shape [32] does not match the buffer's [64]", "tle.dsa.copy(X"),
    (copy_dtype_mismatch, "src points to fp32 but the buffer holds fp16", "tle.dsa.copy(X"),
    (tail_too_large, "tle.dsa.copy shape: size 33 of dimension 0 is larger than the buffer's 32", "[33]"),
    (tail_rank, "has 2 sizes for a rank-1 buffer", "[8, 8]"),
    (illegal_move, "no data path from GM to L0A", "tle.dsa.copy(X"),
    (binary_shape_mismatch, "out shape [16] does not match lhs shape [32]", "tle.dsa.add(a, a, b)"),
    (binary_dtype_mismatch, "rhs dtype fp16 does not match lhs dtype fp32", "tle.dsa.mul(a, b, a)"),
    (binary_not_ub, "out is in L0C, but the vector unit reads and writes only UB", "tle.dsa.sub(a, a, c)"),
    (integer_div, "needs floating-point buffers, got int32", "tle.dsa.div(a, a, a)"),
    (to_buffer_scalar, "tle.dsa.to_buffer expects a tensor (not a scalar)", "tle.dsa.to_buffer(1.0"),
    (to_buffer_of_buffer, "tle.dsa.to_buffer expects a tensor, got a DSA buffer", "tle.dsa.to_buffer(a"),
    (bad_space, "mem_addr_space must be one of tle.dsa.ascend.UB", "\"HBM\""),
    (to_tensor_of_pointer, "tle.dsa.to_tensor expects a buffer from tle.dsa.alloc", "tle.dsa.to_tensor(X"),
])
def test_misuse_is_reported_at_the_users_line(kernel, message, line):
    text = usage_error(kernel)
    assert message in text
    assert line in text


def test_runtime_tail_sizes_pass_the_frontend():
    @triton.jit
    def runtime_tail(X, n):
        buf = tle.dsa.alloc([32], dtype=tl.float32)
        tle.dsa.copy(X + tl.arange(0, 32), buf, [n])
        tle.dsa.copy(buf, X + tl.arange(0, 32), [n])

    out = tle.dsa_compile(runtime_tail, signature={"X": "*fp32", "n": "i32"})
    assert 'tle.dsa.copy {tle.marker.scalar_operands = array<i32: 1, 2>' in out["ttir"]
    assert ops(out["dsa"], "memref.subview") == 4


def test_primitives_need_tle_enabled():
    @triton.jit
    def k(X):
        tle.dsa.alloc([32], dtype=tl.float32)

    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    with pytest.raises(CompilationError, match="needs TLE's compiler stages"):
        triton.compile(ASTSource(k, signature={"X": "*fp32"}), target=GPUTarget("cuda", 90, 32))
