"""TLE-Raw (docs/raw.md) on the GPU against torch: the FlagTree wiki's vector
add (full blocks, a masked tail, one partial block) and the 2-D / scalar /
loop and returned-output kernels of raw_kernels.py.

Skips without a CUDA GPU. From the repo root:
    . scripts/device-env.sh && python3 -m pytest -q python/test/test_raw_gpu.py
"""

import pytest
import torch
import triton

# The kernels are written with MLIR's Python bindings (xtc-mlir, as in CI); a
# machine without them skips this file.
pytest.importorskip("mlir.ir", reason="needs MLIR's Python bindings (the mlir package)")
import raw_kernels as K
import tle
from conftest import has_gpu

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("n", [1024, 1000, 98432, 98432 + 517])
def test_wiki_vector_add(n):
    gen = torch.Generator().manual_seed(n)
    x = torch.rand(n, generator=gen).cuda()
    y = torch.rand(n, generator=gen).cuda()
    out = torch.full((n + 64,), -7.0, device="cuda")  # past n must stay untouched
    grid = (triton.cdiv(n, 1024),)
    K.add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024, num_warps=32)
    torch.testing.assert_close(out[:n], x + y, rtol=0, atol=0)
    assert torch.all(out[n:] == -7.0)


def test_row_cumsum_2d_threads_scalar_loop():
    programs = 5
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(programs * K.ROWS, K.COLS, generator=gen).cuda()
    y = torch.empty_like(x)
    K.row_cumsum_kernel[(programs,)](x, y, 0.5, R=K.ROWS, C=K.COLS, num_warps=4)
    torch.testing.assert_close(y, 0.5 * torch.cumsum(x, dim=1), rtol=1e-5, atol=1e-5)


def test_reverse_returns_the_output():
    x = torch.arange(128, dtype=torch.int32, device="cuda") * 3
    y = torch.empty_like(x)
    K.reverse_kernel[(1,)](x, y, num_warps=4)
    torch.testing.assert_close(y, torch.flip(x + 1, dims=[0]))
