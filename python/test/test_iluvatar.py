"""The Iluvatar TTGIR pipeline, picked by target (docs/iluvatar.md).

pip Triton has no Iluvatar backend, so these tests run TLE's pipeline on
hand-written TTGIR text through this checkout's tle-opt (``$TLE_OPT`` or
build/bin/tle-opt) and check the IR it produces and the errors it reports.
"""
import os
import re

import pytest

import tle

from conftest import tle_opt_path

from tle import MLIRError
from tle import _bridge

MODULE_ATTRS = ('{{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
                'ttg.target = "{target}", "ttg.threads-per-warp" = 32 : i32}}')

KERNEL = """#blocked = #ttg.blocked<{{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}}>
#shared = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}}>
#smem = #ttg.shared_memory
module attributes {attrs} {{
  tt.func public @k(%xp: tensor<64x32x!tt.ptr<f32>, #blocked>, %yp: tensor<64x32x!tt.ptr<f32>, #blocked>, %i: i32) {{
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf32, {layout}, #smem, mutable>
    tle.copy %xp, %buf shape [64, 32] : tensor<64x32x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<64x32xf32, {layout}, #smem, mutable>
    %all = tle.local_pointers %buf : !ttg.memdesc<64x32xf32, {layout}, #smem, mutable> -> tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %v = tt.load %all : tensor<64x32x!tt.ptr<f32, 3>, #blocked>
    %one = tle.local_pointers %buf[%i, %i] : !ttg.memdesc<64x32xf32, {layout}, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
    %c = arith.constant 1.0 : f32
    tt.store %one, %c : !tt.ptr<f32, 3>
    %s = tt.load %one : !tt.ptr<f32, 3>
{tiles}
    tle.copy %buf, %yp shape [64, 32] : !ttg.memdesc<64x32xf32, {layout}, #smem, mutable> -> tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.store %yp, {stored} : tensor<64x32x!tt.ptr<f32>, #blocked>
    tt.return
  }}
}}
"""

TILES = """    %t = tle.extract_tile %v[%i] tile [16, 32] : tensor<64x32xf32, #blocked>, i32 -> tensor<16x32xf32, #blocked>
    %ss = tt.splat %s : f32 -> tensor<16x32xf32, #blocked>
    %t2 = arith.addf %t, %ss : tensor<16x32xf32, #blocked>
    %w = tle.insert_tile %t2 into %v[1] : tensor<16x32xf32, #blocked> into tensor<64x32xf32, #blocked>"""

NVMMA = "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 32}>"


def kernel(target: str, layout: str = "#shared", tiles: bool = True) -> str:
    return KERNEL.format(attrs=MODULE_ATTRS.format(target=target), layout=layout,
                         tiles=TILES if tiles else "", stored="%w" if tiles else "%v")


@pytest.fixture(autouse=True)
def _use_built_tle_opt(monkeypatch):
    """The pass lives in this checkout's build; run the pipeline there."""
    tool = tle_opt_path()
    if not os.path.exists(tool):
        pytest.fail(f"no tle-opt at {tool}: build it (ninja -C build tle-opt) or set TLE_OPT")
    monkeypatch.setenv("TLE_OPT", tool)


def test_pipeline_by_target():
    from triton.backends.compiler import GPUTarget
    assert _bridge.ttgir_pipeline("cuda:90") == _bridge.TTGIR_PIPELINE
    assert _bridge.ttgir_pipeline(GPUTarget("cuda", 90, 32)) == _bridge.TTGIR_PIPELINE
    iluvatar = _bridge.ttgir_pipeline("iluvatar:ivcore11")
    assert iluvatar == _bridge.ILUVATAR_TTGIR_PIPELINE == "builtin.module(tle-ttgir-iluvatar)"
    # Which passes each runs (the registered pipelines refuse to disable a pass they do not run):
    # Iluvatar's lowering, not NVIDIA's, and the other way round.
    empty = "module {\n}\n"
    tle.run_pipeline(empty.replace("module {", 'module attributes {ttg.target = "iluvatar:ivcore11"} {'),
                     _bridge.with_options(iluvatar, disable=["triton-tle-lower-to-iluvatar"]))
    with pytest.raises(tle.MLIRError, match="not one of its passes"):
        tle.run_pipeline(empty, _bridge.with_options(iluvatar, disable=["triton-tle-lower-local-memory"]))
    with pytest.raises(tle.MLIRError, match="not one of its passes"):
        tle.run_pipeline(empty, _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=["triton-tle-lower-to-iluvatar"]))
    with pytest.raises(ValueError, match="no TTGIR pipeline for target 'hip:gfx942'"):
        _bridge.ttgir_pipeline("hip:gfx942")


def test_iluvatar_kernel_lowers():
    out = _bridge.lower_ttgir(kernel("iluvatar:ivcore11"))
    # No tle op is left; buffers are Triton's, pointers and tiles iluvatar_tle's.
    assert not re.search(r"(?<![_\w])tle\.(alloc|local_pointers|copy|local_load|local_store|extract_tile|insert_tile)",
                         out), out
    assert len(re.findall(r"= ttg\.local_alloc : \(\) -> !ttg\.memdesc<64x32xf32", out)) == 1, out
    # full view load -> whole-buffer load; scalar pointer and the two copies' full views
    assert "ttg.local_load" in out, out
    assert re.search(r"iluvatar_tle\.local_pointers %\S+\[%\S+, %\S+\] : .* -> !tt\.ptr<f32, 3>", out), out
    assert len(re.findall(r"iluvatar_tle\.local_pointers %\S+ : ", out)) == 2, out
    assert re.search(r"iluvatar_tle\.extract_tile %\S+\[%\S+\] : tensor<64x32xf32, #\w+>, i32 -> tensor<16x32xf32", out), out
    assert re.search(r"iluvatar_tle\.insert_tile %\S+ into %\S+\[1\] : tensor<16x32xf32", out), out
    # a barrier separates the store through %one from the load through it
    body = out[out.index("tt.func"):]
    store = re.search(r"tt\.store (%\S+), %\S+ : !tt\.ptr<f32, 3>", body)
    assert store, body
    after = body[store.end():]
    assert after.index("gpu.barrier") < after.index(f"tt.load {store.group(1)}"), body


def test_nvidia_kernel_takes_nvidia_pipeline():
    # (without tiles: their NVIDIA lowering is not part of this pipeline yet)
    out = _bridge.lower_ttgir(kernel("cuda:90", tiles=False))
    assert "iluvatar_tle" not in out
    assert "tle.smem.base" in out  # the pointer buffer went to TLE's own region


def test_nvidia_lowering_refuses_iluvatar():
    with pytest.raises(MLIRError, match="triton-tle-lower-local-memory lowers TLE for NVIDIA targets; "
                       "this module targets 'iluvatar:ivcore11'"):
        from tle import _driver
        _driver.run_pipeline(kernel("iluvatar:ivcore11"), _bridge.TTGIR_PIPELINE)


def test_iluvatar_lowering_refuses_nvidia():
    with pytest.raises(MLIRError, match="lowers TLE for Iluvatar targets only .* this module targets 'cuda:90'"):
        from tle import _driver
        _driver.run_pipeline(kernel("cuda:90"), _bridge.ILUVATAR_TTGIR_PIPELINE)


def test_nv_mma_layout_rejected():
    with pytest.raises(MLIRError, match=re.escape("iluvatar TLE alloc does not support nv_mma_shared_layout=True")):
        _bridge.lower_ttgir(kernel("iluvatar:ivcore11", layout=NVMMA))


def test_tmem_rejected():
    text = ('#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>\n'
            f'module attributes {MODULE_ATTRS.format(target="iluvatar:ivcore11")} {{\n'
            '  tt.func @k() {\n'
            '    %b = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>\n'
            '    tt.return\n  }\n}\n')
    with pytest.raises(MLIRError, match="iluvatar TLE alloc does not support tmem storage"):
        _bridge.lower_ttgir(text)


def test_module_without_target():
    with pytest.raises(ValueError, match="no ttg.target"):
        _bridge.lower_ttgir("module {\n}\n")
