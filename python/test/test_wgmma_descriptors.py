"""The llir finish's wgmma descriptor fold (docs/warp-specialize.md, "wgmma
descriptors") in TLE's compile (CPU, sm_90), the intrinsic names it prints
back for Triton's LLVM, and the results on the GPU (skipped without one)."""

import os
import re
import sys

import pytest

import tle
from tle import _bridge
from conftest import has_gpu, use_driver

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wgmma_descriptor_kernels as K  # noqa: E402

SIG = {"Q": "*bf16", "K": "*bf16", "O": "*fp32", "N": "i32"}
SHAPE = {"D": 128, "BM": 64, "BN": 64}


@pytest.fixture(params=["module", "tle-opt"])
def driver(request, monkeypatch):
    use_driver(request.param, monkeypatch)


def _loop_body(ptx):
    """The PTX of the kernel's loop: from the loop's label to its back edge."""
    for m in re.finditer(r"^(\$L__BB\d+_\d+):", ptx, re.M):
        back = re.search(rf"bra(\.uni)?\s+{re.escape(m.group(1))};", ptx[m.end():])
        if back:
            return ptx[m.start():m.end() + back.end()]
    raise AssertionError("no loop in the PTX")


def test_loop_invariant_descriptors_are_computed_at_the_wgmma(driver):
    k = tle.compile(K.resident_q, signature=SIG, constexprs={**SHAPE, "ASYNC": True}, target="sm_90",
                    num_warps=4, num_stages=3)
    body = _loop_body(k.asm["ptx"])
    wgmmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.\S+ \{[^}]*\}, (\S+), (\S+),", body)
    assert len(wgmmas) == 8, wgmmas  # K = 128 in steps of 16
    # Q's descriptor (A) is computed in each wgmma's asm from one base: no
    # 64-bit value per k step is live across the loop.
    assert all(a.startswith("%tle_wd") for a, _ in wgmmas), wgmmas
    assert len(re.findall(r"\.reg \.b64 %tle_wd<\d>;", body)) >= 7, body
    assert re.search(r"(add\.s64|or\.b64) %tle_wd0, %rd\d+, 0x[0-9a-f]{16};", body), body
    assert "cubin" in k.asm


def test_without_tle_stages_nothing_is_folded():
    # The same kernel without TLE ops compiles as plain Triton, even with TLE on.
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    with tle.enabled():
        src = ASTSource(K.resident_q, signature={**SIG, **{c: "constexpr" for c in SHAPE}, "ASYNC": "constexpr"},
                        constexprs={**SHAPE, "ASYNC": False})
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 4, "num_stages": 3})
    assert "%tle_wd" not in k.asm["ptx"]
    assert _bridge.TLE_COMPILED not in k.metadata._asdict()


def test_exp2_in_a_kernel_with_a_tle_region_assembles(driver):
    # LLVM 22 reads llvm.nvvm.ex2.approx.ftz.f as ...ftz.f32; printed so,
    # Triton's LLVM would call it as an external function and ptxas refuses.
    k = tle.compile(K.exp2_buffer, signature={"X": "*fp32", "Y": "*fp32"}, constexprs={"N": 128}, target="sm_90",
                    num_warps=4)
    ptx = k.asm["ptx"]
    assert "ex2.approx.ftz.f32" in ptx and ".extern .func" not in ptx, ptx[:2000]
    assert "st.shared" in ptx and k.asm.get("cubin")


def _spill_stores(ptx: str) -> int:
    """Bytes of spill stores ptxas reports for `ptx` (sm_90a)."""
    import subprocess
    import tempfile
    from triton.backends.nvidia.compiler import get_ptxas
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        proc = subprocess.run([get_ptxas(90).path, "-arch=sm_90a", "-v", path, "-o", os.path.join(tmp, "k.cubin")],
                              capture_output=True, text=True, check=True)
    return sum(int(n) for n in re.findall(r"(\d+) bytes spill stores", proc.stdout + proc.stderr))


def test_sparse_mla_tle_pp_keeps_its_descriptors_in_registers(monkeypatch):
    # Sparse MLA's tle-pp (Q resident in shared memory for the whole loop):
    # with the fold ptxas spills nothing; without it, the hoisted descriptors
    # of Q and the slots spill 948 B (docs/sparse-mla.md, steps 6 and 7).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
    try:
        import sparse_mla
    finally:
        sys.path.pop(0)
    e = sparse_mla._smoke_entry("tle-pp", sparse_mla.DEFAULT_CONFIG["tle-pp"])

    def compile_pp():
        return tle.compile(e["kernel"], signature=e["signature"], constexprs=e["constexprs"], target="sm_90",
                           attrs=e.get("attrs"), **e.get("options", {}))

    folded = _spill_stores(compile_pp().asm["ptx"])
    from tle import _driver
    finish = _driver.finish_llir
    monkeypatch.setattr(_driver, "finish_llir",
                        lambda text, s, r, fold_wgmma_descriptors=False, **kw: finish(text, s, r, False, **kw))
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    unfolded = _spill_stores(compile_pp().asm["ptx"])
    assert folded < 200 < 500 < unfolded, (folded, unfolded)


@pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")
def test_resident_q_matches_torch():
    import torch
    torch.manual_seed(0)
    n = 1024
    q = torch.randn(64, 128, device="cuda", dtype=torch.bfloat16)
    kk = torch.randn(n, 128, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(64, 64, device="cuda", dtype=torch.float32)
    with tle.enabled():
        K.resident_q[(1,)](q, kk, out, n, ASYNC=True, num_warps=4, num_stages=3, **SHAPE)
    ref = sum(q.float() @ kk[s:s + 64].float().T for s in range(0, n, 64))
    torch.testing.assert_close(out, ref, atol=1e-2, rtol=1e-3)


@pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")
def test_exp2_buffer_matches_torch():
    import torch
    x = torch.randn(128, device="cuda")
    y = torch.empty_like(x)
    with tle.enabled():
        K.exp2_buffer[(1,)](x, y, N=128, num_warps=4)
    torch.testing.assert_close(y, torch.exp2(x), atol=1e-5, rtol=1e-5)
