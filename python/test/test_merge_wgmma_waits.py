"""triton-tle-merge-wgmma-waits in TLE's pipeline, on bench/sparse_mla.py's
tle-ws3 kernel (CPU, sm_90).

The scores warpgroup accumulates S over six dots (the kv row split into
pieces) and runs four independent P @ V_lo dots a chunk. Triton waits for
each wgmma right after it; the pass leaves one wait per run, and ptxas keeps
the wgmmas asynchronous (no "wgmma.mma_async instructions are serialized"
warning: the benchmark's register split leaves the default partition 200
registers). The GPU suite (test_bench_gpu.py) checks tle-ws3 against torch.
"""

import os
import re
import subprocess
import sys

import pytest
import triton

import tle
from tle import _bridge
from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "bench"))
import sparse_mla  # noqa: E402

sys.path.pop(0)

PASS = "triton-tle-merge-wgmma-waits"


@pytest.fixture(scope="module")
def ws3():
    entry = sparse_mla._smoke_entry("tle-ws3", sparse_mla.DEFAULT_CONFIG["tle-ws3"])
    return tle.compile(entry["kernel"], signature=entry["signature"], constexprs=entry["constexprs"],
                       target="sm_90", attrs=entry["attrs"], **entry["options"])


def _scores_partition(ttgir):
    """The scores warpgroup: partition0 of the ttg.warp_specialize."""
    start = ttgir.index("partition0(")
    return ttgir[start:ttgir.index("partition1(", start)]


def _waits(text):
    return re.findall(r"ttng\.warp_group_dot_wait .*\{pendings = (\d+) : i32\}", text)


def test_one_wait_per_run_of_dots(ws3):
    scores = _scores_partition(ws3.asm["ttgir"])
    assert len(re.findall(r"ttng\.warp_group_dot ", scores)) == 10
    assert _waits(scores) == ["0", "0"], _waits(scores)
    # The S chain: each dot takes the previous one's result as accumulator.
    chain = re.findall(r"(%\S+) = ttng\.warp_group_dot \S+, \S+, (%[^ ,]+)", scores)
    linked = sum(1 for (_, acc), (prev, _) in zip(chain[1:], chain) if acc == prev)
    assert linked >= 5, chain
    # Without the pass: a wait after every dot.
    without = tle.run_pipeline(ws3.asm["triton-ttgir"], _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=[PASS]))
    assert _waits(_scores_partition(without)) == ["0"] * 10


def test_ptxas_keeps_the_wgmmas_asynchronous(ws3, tmp_path):
    ptxas = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")
    if not os.path.exists(ptxas):
        pytest.skip("Triton's bundled ptxas not found")
    ptx = tmp_path / "ws3.ptx"
    ptx.write_text(ws3.asm["ptx"])
    out = subprocess.run([ptxas, "-arch=sm_90a", "-v", str(ptx), "-o", str(tmp_path / "ws3.cubin")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "C7512" not in out.stdout + out.stderr, out.stdout + out.stderr
    # Three waits for the whole kernel: P @ V_hi, the S chain, the P @ V_lo run.
    assert len(re.findall(r"wgmma\.wait_group\.sync\.aligned", ws3.asm["ptx"])) == 3
