"""tle.cumsum on the CPU: kernels compile to PTX through TLE's stages; misuse is
reported at the user's line; the hook chains and the cache keeps TLE apart."""

import re

import pytest
import triton
import triton.language as tl
from triton import knobs
from triton.compiler.errors import CompilationError

import tle

TARGET = "sm_90"


@triton.jit
def cumsum_1d(X, Y, T, N: tl.constexpr, REVERSE: tl.constexpr, DTYPE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    e, t = tle.cumsum(x, axis=0, reverse=REVERSE, dtype=DTYPE)
    tl.store(Y + offs, e)
    tl.store(T, t)


@triton.jit
def cumsum_2d(X, Y, T, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    e, t = tle.cumsum(x, axis=AXIS, reverse=REVERSE)
    tl.store(Y + offs, e)
    if AXIS == 0:
        tl.store(T + tl.arange(0, N), t)
    else:
        tl.store(T + tl.arange(0, M), t)


@triton.jit
def cumsum_defaults(X, Y, T, N: tl.constexpr, REVERSE: tl.constexpr = True):
    offs = tl.arange(0, N)
    e, t = tle.cumsum(tl.load(X + offs), axis=0, reverse=REVERSE)
    tl.store(Y + offs, e)
    tl.store(T, t)


@triton.jit
def cumsum_optional_total(X, Y, N: tl.constexpr, T=None):
    offs = tl.arange(0, N)
    e, t = tle.cumsum(tl.load(X + offs), axis=0)
    tl.store(Y + offs, e)
    if T is not None:
        tl.store(T, t)


ACC = {"i32": "i32", "i64": "i64", "fp32": "fp32", "bf16": "fp32"}


def compile_1d(dtype, n=256, reverse=False, acc_dtype=None):
    out = ACC[dtype] if acc_dtype is None else acc_dtype
    return tle.compile(cumsum_1d, signature={"X": f"*{dtype}", "Y": f"*{out}", "T": f"*{out}"},
                       constexprs={"N": n, "REVERSE": reverse, "DTYPE": None}, target=TARGET)


def assert_lowered(compiled):
    assert tle.stages(compiled) == ["ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin"]
    assert "tle.exclusive_cumsum" in compiled.asm["ttir"]  # the marker
    assert "tle." not in _code(compiled.asm["ttgir"])  # every marker raised and lowered
    assert '"tt.scan"' in compiled.asm["ttgir"]
    assert "tle" not in compiled.asm["ptx"]
    assert ".entry" in compiled.asm["ptx"]
    assert isinstance(compiled.asm["cubin"], bytes) and len(compiled.asm["cubin"]) > 0


def _code(text):
    """IR without location lines/attributes (file names may contain 'tle')."""
    return "\n".join(re.sub(r"loc\(.*", "", line) for line in text.splitlines() if not line.startswith("#loc"))


@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "bf16"])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_1d_compiles_to_ptx(dtype, reverse):
    compiled = compile_1d(dtype, reverse=reverse)
    assert_lowered(compiled)
    # The TTIR stage checks markers and leaves them for the TTGIR stage.
    assert "tle.exclusive_cumsum" in compiled.asm["tle-ttir"]


@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "bf16"])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_2d_compiles_to_ptx(dtype, axis, reverse):
    out = ACC[dtype]
    compiled = tle.compile(cumsum_2d, signature={"X": f"*{dtype}", "Y": f"*{out}", "T": f"*{out}"},
                           constexprs={"M": 32, "N": 64, "AXIS": axis, "REVERSE": reverse}, target=TARGET)
    assert_lowered(compiled)


def test_float_cumsum_uses_pair_scan_and_exact_total():
    ttgir = _code(compile_1d("fp32").asm["ttgir"])
    # Two-operand scan for floats (exact exclusive values), index-select total with -0.0 fill.
    assert re.search(r'"tt.scan"\(%\w+, %\w+\)', ttgir)
    assert "-0.000000e+00" in ttgir


def test_int_cumsum_uses_subtract():
    ttgir = _code(compile_1d("i32").asm["ttgir"])
    assert "arith.subi" in ttgir


def test_compile_uses_constexpr_defaults():
    """A constexpr parameter with a default may be left out, as at a launch."""
    sig = {"X": "*i32", "Y": "*i32", "T": "*i32"}
    default = tle.compile(cumsum_defaults, signature=sig, constexprs={"N": 128}, target=TARGET)
    given = tle.compile(cumsum_defaults, signature=sig, constexprs={"N": 128, "REVERSE": True}, target=TARGET)
    other = tle.compile(cumsum_defaults, signature=sig, constexprs={"N": 128, "REVERSE": False}, target=TARGET)
    assert "reverse = true" in default.asm["ttir"]
    assert _code(default.asm["ttgir"]) == _code(given.asm["ttgir"])
    assert _code(default.asm["ttgir"]) != _code(other.asm["ttgir"])
    with pytest.raises(TypeError, match="no signature entry for argument.*N"):
        tle.compile(cumsum_defaults, signature=sig, target=TARGET)


def test_compile_leaves_none_defaults_to_none():
    """A parameter whose default is None may be left out, as at a launch
    (Triton passes None as a constant); given a pointer, it is one."""
    sig = {"X": "*i32", "Y": "*i32"}
    without = tle.compile(cumsum_optional_total, signature=sig, constexprs={"N": 128}, target=TARGET)
    with_total = tle.compile(cumsum_optional_total, signature={**sig, "T": "*i32"}, constexprs={"N": 128},
                             target=TARGET)
    assert _code(without.asm["ttir"]).count("tt.store") == 1
    assert _code(with_total.asm["ttir"]).count("tt.store") == 2


def test_stage_failure_without_diagnostics_keeps_its_message(monkeypatch):
    """A TLE_OPT that fails without printing diagnostics (here: exits 1 in
    silence) still says what happened."""
    monkeypatch.setenv("TLE_OPT", "/bin/false")
    with pytest.raises(tle.MLIRError, match=r"TLE stage 'tle-ttir' failed:\ntle-opt exited with 1"):
        compile_1d("i32")


def test_dump_writes_every_stage(tmp_path):
    compiled = tle.compile(cumsum_1d, signature={"X": "*i32", "Y": "*i32", "T": "*i32"},
                           constexprs={"N": 128, "REVERSE": False, "DTYPE": None}, target=TARGET, dump=tmp_path / "d")
    names = sorted(p.name for p in (tmp_path / "d").iterdir())
    assert names == sorted(f"cumsum_1d.{s}" for s in ["ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin"])
    assert (tmp_path / "d" / "cumsum_1d.ttgir").read_text() == compiled.asm["ttgir"]


def test_compile_leaves_tle_disabled_and_enable_routes_jit_compiles():
    assert not tle.is_enabled()
    compile_1d("i32")
    assert not tle.is_enabled()
    with tle.enabled():
        assert tle.is_enabled()
    assert not tle.is_enabled()


# --- misuse: errors at the user's line -----------------------------------------------------

@triton.jit
def bad_axis(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    e, t = tle.cumsum(x, axis=1)
    tl.store(X, t)


@triton.jit
def bad_scalar(X):
    x = tl.load(X)
    e, t = tle.cumsum(x)
    tl.store(X, t)


@triton.jit
def bad_dtype(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)) > 0
    e, t = tle.cumsum(x)
    tl.store(X, t)


@triton.jit
def bad_fp8(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)).to(tl.float8e4nv)
    e, t = tle.cumsum(x)
    tl.store(X, t.to(tl.float32))


@triton.jit
def bad_runtime_axis(X, A, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    e, t = tle.cumsum(x, axis=A)
    tl.store(X, t)


def _compile_error(kernel, signature, constexprs):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature=signature, constexprs=constexprs, target=TARGET)
    return str(info.value)


def test_error_axis_out_of_range_points_at_user_line():
    msg = _compile_error(bad_axis, {"X": "*i32"}, {"N": 64})
    assert "tle.cumsum axis 1 is out of range for a rank-1 tensor" in msg
    assert "e, t = tle.cumsum(x, axis=1)" in msg  # the user's line is quoted


def test_error_scalar_input():
    msg = _compile_error(bad_scalar, {"X": "*i32"}, {})
    assert "tle.cumsum input must be a tensor of rank >= 1, got a scalar" in msg
    assert "e, t = tle.cumsum(x)" in msg


def test_error_bool_input():
    msg = _compile_error(bad_dtype, {"X": "*i32"}, {"N": 64})
    assert "tle.cumsum does not support int1 inputs" in msg


def test_error_fp8_input():
    msg = _compile_error(bad_fp8, {"X": "*fp32"}, {"N": 64})
    assert "does not support fp8e4nv inputs" in msg


def test_error_axis_must_be_constexpr():
    msg = _compile_error(bad_runtime_axis, {"X": "*i32", "A": "i32"}, {"N": 64})
    assert "tle.cumsum axis must be a compile-time constant" in msg


def test_error_without_tle_enabled():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(cumsum_1d, signature={"X": "*i32", "Y": "*i32", "T": "*i32", "N": "constexpr",
                                         "REVERSE": "constexpr", "DTYPE": "constexpr"},
                    constexprs={"N": 64, "REVERSE": False, "DTYPE": None})
    with pytest.raises(CompilationError) as info:
        triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "tle.cumsum needs TLE's compiler stages: call tle.enable()" in str(info.value)


# --- the hook and the cache -------------------------------------------------------------------

def test_hook_chains_a_previous_hook_and_restores_it():
    calls = []

    def previous(backend, stages, options, language, capability):
        calls.append(list(stages))

    knobs.runtime.add_stages_inspection_hook = previous
    try:
        compiled = compile_1d("i32", n=64)
        assert calls and calls[0][:2] == ["ttir", "ttgir"]  # ran first, before TLE inserted its stages
        assert "triton-ttgir" in compiled.asm
        assert knobs.runtime.add_stages_inspection_hook is previous
    finally:
        knobs.runtime.add_stages_inspection_hook = None


@triton.jit
def plain_add(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Y + offs, tl.load(X + offs) + 1)


def test_cache_keeps_tle_compiles_apart():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(plain_add, signature={"X": "*fp32", "Y": "*fp32", "N": "constexpr"}, constexprs={"N": 128})
    plain = triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "triton-ttgir" not in plain.asm
    with_tle = tle.compile(plain_add, signature={"X": "*fp32", "Y": "*fp32"}, constexprs={"N": 128}, target=TARGET)
    assert "triton-ttgir" in with_tle.asm  # not the plain kernel from the cache
    again = triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "triton-ttgir" not in again.asm
    # A kernel without TLE ops is unchanged by TLE: same PTX.
    assert with_tle.asm["ptx"] == plain.asm["ptx"]
