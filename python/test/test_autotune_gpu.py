"""@triton.autotune over a TLE kernel on the GPU: launched with TLE enabled, the
autotuner benchmarks every config (each compiled through TLE's stages), keeps
the best one and the results match torch; tle.compile compiles a picked config
for the current GPU.

Skips without a CUDA GPU. On the H100 through the device tool:
    python -m pytest -q python/test/test_autotune_gpu.py
"""

import pytest
import torch
import triton
import triton.language as tl

import tle
from conftest import has_gpu

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")

CONFIGS = [
    triton.Config({"BLOCK": 128}, num_warps=4),
    triton.Config({"BLOCK": 256}, num_warps=8),
    triton.Config({"BLOCK": 512}, num_warps=4),
]


@triton.jit
def block_scan(X, Y, T, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    e, t = tle.cumsum(tl.load(X + offs, mask=offs < N, other=0), axis=0)
    tl.store(Y + offs, e, mask=offs < N)
    tl.store(T + pid, t)


def _expected(x, block):
    blocks = torch.nn.functional.pad(x, (0, (-x.numel()) % block)).view(-1, block)
    inclusive = blocks.cumsum(1)
    return (inclusive - blocks).reshape(-1)[:x.numel()], inclusive[:, -1]


@pytest.mark.parametrize("n", [1000, 4096])
def test_autotuned_tle_kernel_launches_and_matches_torch(n):
    tuned = triton.autotune(configs=CONFIGS, key=["N"])(block_scan)
    x = torch.randint(-100, 100, (n, ), dtype=torch.int32, device="cuda")
    y = torch.empty_like(x)
    totals = torch.empty(triton.cdiv(n, 128), dtype=torch.int32, device="cuda")
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]), )
    with tle.enabled():
        tuned[grid](x, y, totals, n)
    torch.cuda.synchronize()
    best = tuned.best_config
    assert best in CONFIGS
    exclusive, total = _expected(x.to(torch.int64), best.kwargs["BLOCK"])
    torch.testing.assert_close(y.to(torch.int64), exclusive)
    torch.testing.assert_close(totals[:total.numel()].to(torch.int64), total)
    # Every config was compiled through TLE's stages.
    kernels = list(block_scan.device_caches[torch.cuda.current_device()][0].values())
    assert len(kernels) >= len(CONFIGS)
    assert all("triton-ttgir" in k.asm for k in kernels)


def test_tle_compile_picks_a_config_for_this_gpu():
    tuned = triton.autotune(configs=CONFIGS, key=["N"])(block_scan)
    compiled = tle.compile(tuned, signature={"X": "*i32", "Y": "*i32", "T": "*i32", "N": "i32"}, config=1)
    assert compiled.metadata.num_warps == 8 and "triton-ttgir" in compiled.asm
