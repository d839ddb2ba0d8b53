"""Never break a plain Triton kernel: with ``tle.enable()`` a
kernel that uses no TLE op compiles to the same PTX as without TLE, whatever
Triton 3.6 features it uses.

Two guarantees, tested separately:

* the hook passes a module without TLE markers through untouched
  (``_bridge.uses_tle``), so even an op outside TLE's interop set cannot break
  a plain kernel, while a module with markers and such an op still fails with
  the interop set's clear error;
* the interop set covers the Triton 3.6 features such kernels use (scaled
  dots, TMA gather/scatter and reductions, descriptors made in the kernel,
  ``tl.map_elementwise``, warp specialization, Blackwell tcgen05 MMAs and
  tensor memory), so that TLE's pipelines, forced onto these modules, parse
  and print them unchanged: what the hook skips is exactly a no-op.
"""
import os
import sys

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

import tle
from tle import _bridge

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "Interop"))
from check_roundtrip import canonical_names  # noqa: E402
from corpus_kernels import KERNELS, ast_source, stages  # noqa: E402

BY_NAME = {entry[0]: entry for entry in KERNELS}

# (corpus kernel, compute capability): the Triton 3.6 features of the second
# guarantee above, for sm_90 and, where the feature has a Blackwell form (or
# needs Blackwell), for sm_100.
CASES = [
    ("dot_scaled_mx", 90), ("dot_scaled_mx", 100),            # tt.dot_scaled; tc_gen5_mma_scaled
    ("dot_scaled_fp4", 90), ("dot_scaled_fp4", 100),          # ttg.fp4_to_fp; tc_gen5_mma, tmem operand
    ("dot_scaled_m_packed_sm100", 100),                       # lhs_k_pack / rhs_k_pack = false
    ("dot_scaled_tma_sm100", 100),                            # scales in tensor memory
    ("gather_scatter", 100),                                  # TMA gather4 / scatter4 need sm_100
    ("map_elementwise", 90), ("map_elementwise", 100),        # multi-block region, pack = 2
    ("desc_atomics", 90),                                     # ttng.async_tma_reduce
    ("device_tma", 90),                                       # global scratch, tensormap_create
    ("matmul_sm100", 100),                                    # tl.dot as tcgen05 MMA
    ("persistent_tma_matmul_ws_sm100", 100),                  # Triton's own ttg.warp_specialize
    ("ws_tma_wgmma", 90),                                     # Gluon ttg.warp_specialize
    ("memdesc_views", 90), ("mbarrier_forms", 90), ("wgmma_use_acc", 90),
    ("tcgen05_forms", 100),                                   # Gluon tcgen05: tokens, barriers, commit
]
IDS = [f"{name}-sm{cap}" for name, cap in CASES]


def _compile(name, cap):
    _, kernel, signature, constexprs, options = BY_NAME[name]
    return triton.compile(ast_source(kernel, signature, constexprs), target=GPUTarget("cuda", cap, 32),
                          options=options)


@pytest.mark.parametrize("name,cap", CASES, ids=IDS)
def test_plain_kernel_same_ptx_with_tle(name, cap):
    plain = _compile(name, cap)
    assert "triton-ttgir" not in plain.asm
    with tle.enabled():
        with_tle = _compile(name, cap)
    # TLE's stages were in the pipeline, not a cache hit; a Gluon kernel keeps
    # Triton's stage names (it starts at Triton's ttgir stage).
    gluon = stages(BY_NAME[name][1])[0] == "source"
    assert ("triton-ttgir" in with_tle.asm) == (not gluon), list(with_tle.asm)
    assert with_tle.asm["ptx"] == plain.asm["ptx"]


@pytest.mark.parametrize("name,cap", CASES, ids=IDS)
def test_tle_pipelines_leave_plain_modules_unchanged(name, cap):
    # Forced through TLE's pipelines (what the hook would run if the module
    # had TLE markers), every stage Triton hands TLE parses and prints back
    # unchanged: the interop set covers these ops and no TLE pass touches them.
    compiled = _compile(name, cap)
    pipelines = {"ttir": _bridge.TTIR_PIPELINE.replace(_bridge.NUM_STAGES, "3"), "ttgir": _bridge.TTGIR_PIPELINE}
    gluon = stages(BY_NAME[name][1])[0] == "source"
    for stage in ("ttgir",) if gluon else ("ttir", "ttgir"):
        text = compiled.asm[stage]
        assert not _bridge.uses_tle(text)
        out = tle.run_pipeline(text, pipelines[stage], source_name=f"{name}.{stage}", debug_info=True)
        assert canonical_names(out.rstrip("\n")) == canonical_names(text.rstrip("\n"))


# -- the hook's passthrough ---------------------------------------------------

# An op no Triton has printed: outside TLE's interop set for certain.
UNKNOWN_OP = "    tt.future_op %x : tensor<8xf32>\n"
MARKER = ('    %m = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, reverse = false}" '
          '{constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<8xf32> -> tensor<8xf32>\n')


def _module(*body):
    return ('#loc = loc("/home/user/tle/tle_kernels.py":1:0)\n'
            "module {\n  tt.func public @k(%x: tensor<8xf32> loc(\"tle.x\"(#loc))) {\n"
            + "".join(body) + "    tt.return\n  }\n}\n")


class _Module:
    """Stands in for a Triton module: run_stage only prints it (``str()``)
    unless it has TLE markers; Triton's parser would reject the unknown op."""

    def __init__(self, text):
        self.text = text

    def str(self):
        return self.text


def test_uses_tle():
    assert _bridge.uses_tle(_module(MARKER))
    assert _bridge.uses_tle(_module("    %l = tt.load %p {tle.async} : tensor<8x!tt.ptr<f32>>\n"))
    assert _bridge.uses_tle("module attributes {tle.shared = 16 : i32} {\n}\n")
    assert _bridge.uses_tle(_module("    %b = tle.local_pointers %x : tensor<8xf32>\n"))
    # 'tle' in file paths, location names, SSA names or other strings is not TLE's.
    assert not _bridge.uses_tle(_module(UNKNOWN_OP))
    assert not _bridge.uses_tle(_module('    tt.print "tle.x: " {hex = false, isSigned = array<i32: 0>} : %x : '
                                        'tensor<8xf32>\n'))
    assert not _bridge.uses_tle(_module("    %tle.x = arith.addf %x, %x : tensor<8xf32>\n"))
    assert not _bridge.uses_tle(_module('    %a = tt.elementwise_inline_asm "mov.b32 $0, $1; // tle.x" '
                                        '{constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : '
                                        'tensor<8xf32> -> tensor<8xf32>\n'))
    corpus = os.path.join(HERE, "..", "..", "test", "Interop", "corpus")
    for file in os.listdir(corpus):
        with open(os.path.join(corpus, file)) as f:
            assert not _bridge.uses_tle(f.read()), file


@pytest.mark.parametrize("name", ["tle-ttir", "ttgir"])
def test_plain_module_with_unknown_op_passes_through(name):
    module = _Module(_module(UNKNOWN_OP))
    _, pipeline = _bridge.STAGES[name]
    assert _bridge.run_stage(name, pipeline, module, {"num_stages": 3}) is module


@pytest.mark.parametrize("name", ["tle-ttir", "ttgir"])
def test_tle_module_with_unknown_op_is_a_clear_error(name):
    _, pipeline = _bridge.STAGES[name]
    with pytest.raises(tle.MLIRError) as info:
        _bridge.run_stage(name, pipeline, _Module(_module(MARKER, UNKNOWN_OP)), {"num_stages": 3})
    assert f"TLE stage '{name}' failed" in str(info.value)
    assert "'tt.future_op' is not in TLE's interop set for Triton 3.6.0" in str(info.value)


# -- a TLE kernel using the newly covered features ------------------------------

@triton.jit
def _halve(x):
    if x > 0:
        return x * 0.5
    else:
        return -x


@triton.jit
def cumsum_of_map(X, Y, T, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.map_elementwise(_halve, tl.load(X + offs))
    e, t = tle.cumsum(x, axis=0)
    tl.store(Y + offs, e)
    tl.store(T, t)


def test_tle_kernel_with_map_elementwise_compiles():
    # A module with TLE markers goes through TLE's pipelines, map_elementwise
    # and its multi-block region included.
    compiled = tle.compile(cumsum_of_map, signature={"X": "*fp32", "Y": "*fp32", "T": "*fp32"},
                           constexprs={"N": 128}, target="sm_90")
    assert '"tt.map_elementwise"' in compiled.asm["ttgir"]
    assert "tle.exclusive_cumsum" in compiled.asm["triton-ttgir"]
    assert "tle.exclusive_cumsum" not in compiled.asm["ttgir"]
    assert ".entry cumsum_of_map" in compiled.asm["ptx"]
