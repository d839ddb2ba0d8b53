"""bench/sparse_mla.py's tle-split kernel keeps the layout it exists for.

tle-split hands P and the rescale factor to the P @ V dot through TLE buffers
so that Triton gives S = Q K^T warpsPerCTA [4, 2] (the keys split between the
two warpgroups) instead of [8, 1] (both warpgroups computing the same S), and
triton-tle-forward-buffer-loads lets the P @ V wgmma read P from its buffer
without Triton's extra shared copy (what makes the 64-key, 2-stage tile fit).
CPU only: compiled for sm_90 with the benchmark's default configuration; the
GPU suite (test_bench_gpu.py) checks its results against torch.
"""

import os
import re
import sys

import pytest

import tle
from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "bench"))
import sparse_mla  # noqa: E402

sys.path.pop(0)


def _compile(provider):
    entry = sparse_mla._smoke_entry(provider, sparse_mla.DEFAULT_CONFIG[provider])
    return tle.compile(entry["kernel"], signature=entry["signature"], constexprs=entry["constexprs"],
                       target="sm_90", **entry["options"])


def _dot_layouts(ttgir):
    """warpsPerCTA of the result encoding of every ttng.warp_group_dot."""
    aliases = dict(re.findall(r"^(#mma\d*) = #ttg\.nvidia_mma<\{[^}]*warpsPerCTA = \[(\d+, \d+)\]", ttgir, re.M))
    dots = re.findall(r"ttng\.warp_group_dot .*-> tensor<\d+x\d+xf32, (#mma\d*)>", ttgir)
    return [aliases[d] for d in dots]


@pytest.fixture(scope="module")
def split():
    return _compile("tle-split")


def test_scores_are_split_by_keys_between_warpgroups(split):
    layouts = _dot_layouts(split.asm["ttgir"])
    assert len(layouts) == 3, layouts  # nope and rope scores, P @ V
    assert layouts == ["4, 2"] * 3, layouts


def test_plain_triton_computes_the_scores_twice():
    # The baseline the split removes: Triton's chained-dot layout, all warps
    # along M, so with 64 heads both warpgroups compute the same S.
    assert sparse_mla.DEFAULT_CONFIG["triton"] == sparse_mla.DEFAULT_CONFIG["tle-split"]
    assert "8, 1" in _dot_layouts(_compile("triton").asm["triton-ttgir"])


def test_p_at_v_reads_p_from_its_buffer(split):
    ttgir = split.asm["ttgir"]
    buf = re.search(r"(%p_buf\w*) = ttg\.local_alloc : \(\) -> !ttg\.memdesc<64x64xbf16", ttgir)
    assert buf, "no P buffer"
    name = buf.group(1)
    # The dot-operand load reads the buffer itself, and no local_alloc copies a
    # load of it (Triton's decomposed conversion, removed by the pass).
    assert re.search(rf"ttg\.local_load {name} : [^\n]*-> tensor<64x64xbf16, #ttg\.dot_op<", ttgir)
    loads = set(re.findall(rf"(%\w+) = ttg\.local_load {name} ", ttgir))
    for value in loads:
        assert not re.search(rf"ttg\.local_alloc {value} ", ttgir), f"{value} is still copied"
