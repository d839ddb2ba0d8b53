"""triton-tle-forward-buffer-mma-operands and
triton-tle-drop-redundant-async-fences in TLE's pipeline (CPU, sm_90), and
the shared-query kernel's results on the GPU (skipped without one)."""

import os
import re
import sys

import pytest

import tle
from tle import _bridge
from conftest import REPO, has_gpu

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import buffer_mma_kernels as K  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "bench"))
import sparse_mla  # noqa: E402

sys.path.pop(0)

FORWARD = "triton-tle-forward-buffer-mma-operands"
FENCES = "triton-tle-drop-redundant-async-fences"
SHAPE = {"M": 64, "N": 64, "D": 128}


@pytest.fixture(scope="module")
def shared_query():
    return tle.compile(K.shared_query_scores, signature=K.SIGNATURE, constexprs=SHAPE, target="sm_90",
                       num_warps=4)


def _dots(ttgir):
    """The A operand type of every ttng.warp_group_dot."""
    return re.findall(r"ttng\.warp_group_dot \S+, \S+, \S+ \{[^}]*\} : ([^*]+) \*", ttgir)


def test_both_warpgroups_read_the_query_buffer_in_place(shared_query):
    ttgir = shared_query.asm["ttgir"]
    buf = re.search(r"(%q_buf\w*) = ttg\.local_alloc : \(\) -> !ttg\.memdesc<64x128xf16, (#\w+),", ttgir)
    assert buf, ttgir
    enc = re.search(rf"^{buf.group(2)} = (.*)$", ttgir, re.M).group(1)
    assert enc == "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>", enc
    assert [a.startswith("!ttg.memdesc<64x128xf16") for a in _dots(ttgir)] == [True, True], _dots(ttgir)
    # Q is loaded by no partition; the parent's stores are fenced for the wgmmas.
    assert not re.search(r"ttg\.local_load %(q_buf|arg)\w* : !ttg\.memdesc<64x128xf16", ttgir), ttgir
    assert re.search(r"ttng\.fence_async_shared \{bCluster = false\}[^\n]*\n\s+gpu\.barrier[^\n]*\n\s+"
                     r"(%\S+ = )?ttg\.warp_specialize", ttgir), ttgir
    # ptx: each wgmma takes two shared-memory descriptors (no register A).
    wgmmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.\S+ \{[^}]*\}, (%rd\d+|\{)", shared_query.asm["ptx"])
    assert wgmmas and all(w.startswith("%rd") for w in wgmmas), wgmmas


def test_without_the_pass_the_query_goes_through_registers(shared_query):
    # Triton's choice: A in registers, loaded from the buffer (ldmatrix)
    # for every wgmma, and the buffer left unswizzled.
    without = tle.run_pipeline(shared_query.asm["triton-ttgir"], _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=[FORWARD]))
    assert [a.startswith("tensor<64x128xf16, #ttg.dot_op") for a in _dots(without)] == [True, True], without
    assert not re.search(r"gpu\.barrier[^\n]*\n\s+(%\S+ = )?ttg\.warp_specialize", without)


def test_ws3_fences_once_per_run_of_dots():
    entry = sparse_mla._smoke_entry("tle-ws3", sparse_mla.DEFAULT_CONFIG["tle-ws3"])
    k = tle.compile(entry["kernel"], signature=entry["signature"], constexprs=entry["constexprs"],
                    target="sm_90", attrs=entry["attrs"], **entry["options"])
    fences = len(re.findall(r"ttng\.fence_async_shared", k.asm["ttgir"]))
    without = tle.run_pipeline(k.asm["triton-ttgir"], _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=[FENCES]))
    before = len(re.findall(r"ttng\.fence_async_shared", without))
    # The scores warpgroup's six S dots and four P @ V_lo dots shared nine
    # repeats; the P @ V_hi warpgroup had none to drop.
    assert before - fences == 9, (before, fences)
    assert len(re.findall(r"fence\.proxy\.async", k.asm["ptx"])) == fences


@pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")
def test_shared_query_scores_match_torch():
    import torch
    torch.manual_seed(0)
    M, N, D = SHAPE["M"], SHAPE["N"], SHAPE["D"]
    tle.enable()
    for _ in range(3):
        q = torch.randn(M, D, device="cuda", dtype=torch.float16)
        k = torch.randn(2 * N, D, device="cuda", dtype=torch.float16)
        s = torch.full((M, 2 * N), float("nan"), device="cuda", dtype=torch.float32)
        K.shared_query_scores[(1,)](q, k, s, **SHAPE, num_warps=4)
        torch.testing.assert_close(s, q.float() @ k.float().T, atol=1e-2, rtol=1e-3)


def test_query_stored_before_the_loop_is_read_in_place():
    # No warp_specialize: the buffer is stored once before the loop, so the
    # loop's wgmmas read it (A from shared memory, NVMMA) instead of loading
    # it into registers every iteration; one fence and barrier after the store.
    k = tle.compile(K.looped_query_scores, signature=K.LOOPED_SIGNATURE, constexprs=SHAPE, target="sm_90",
                    num_warps=4)
    ttgir = k.asm["ttgir"]
    assert [a.startswith("!ttg.memdesc<64x128xf16") for a in _dots(ttgir)] == [True], _dots(ttgir)
    assert not re.search(r"ttg\.local_load %q_buf", ttgir), ttgir
    assert re.search(r"ttg\.local_store [^\n]*%q_buf[^\n]*\n\s+ttng\.fence_async_shared[^\n]*\n\s+gpu\.barrier", ttgir)
    without = tle.run_pipeline(k.asm["triton-ttgir"], _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=[FORWARD]))
    assert [a.startswith("tensor<64x128xf16, #ttg.dot_op") for a in _dots(without)] == [True], without


@pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("n_tiles", [1, 3, 16])
def test_looped_query_scores_match_torch(n_tiles):
    import torch
    torch.manual_seed(n_tiles)
    M, N, D = SHAPE["M"], SHAPE["N"], SHAPE["D"]
    tle.enable()
    for _ in range(3):
        q = torch.randn(M, D, device="cuda", dtype=torch.float16)
        k = torch.randn(n_tiles * N, D, device="cuda", dtype=torch.float16)
        s = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float32)
        K.looped_query_scores[(1,)](q, k, s, n_tiles, **SHAPE, num_warps=4)
        expect = q.float() @ k.float().view(n_tiles, N, D).sum(0).T
        torch.testing.assert_close(s, expect, atol=5e-2, rtol=1e-3)
