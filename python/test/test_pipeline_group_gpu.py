"""tle.range + tle.pipeline_group on the GPU, against torch
(docs/pipeline-groups.md).

Skips without a CUDA GPU. Run on the H100 through the device tool:
    python -m pytest -q python/test/test_pipeline_group_gpu.py
"""

import pytest
import torch

import tle
from conftest import has_gpu
import pipeline_group_kernels as K

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("load_trans", [False, True])
@pytest.mark.parametrize("n,yb,d", [(64 * 37, 64, 32), (64, 64, 64), (128 * 9, 128, 64)])
def test_fft_reference_loop(load_trans, n, yb, d):
    q = torch.randn(n, d, device="cuda")
    k = torch.randn(n, d, device="cuda")
    out = torch.empty(yb, yb, device="cuda")
    compiled = K.qk_loop[(1,)](q, k, out, n, YB=yb, D=d, LOAD_TRANS=load_trans, ONE_CORE=True, num_warps=4)
    ref = sum(q[y:y + yb] @ k[y:y + yb].T for y in range(0, n, yb))
    # tl.dot on fp32 runs as tf32 by default.
    torch.testing.assert_close(out, ref, rtol=2e-2, atol=2e-2 * (n // yb) ** 0.5)
    assert "cp.async" in compiled.asm["ptx"]


@pytest.mark.parametrize("stages,ns", [((0, 2), 3), ((0, 1), 2), ((0, 0), 3), ((1, 2), 3)])
@pytest.mark.parametrize("n,b", [(10_000, 256), (256, 256), (77, 128)])
def test_load_compute_store_loop(stages, ns, n, b):
    x = torch.randn(n, device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    K.scale_loop[(1,)](x, out, n, B=b, NS=ns, LOAD_STAGE=stages[0], USE_STAGE=stages[1])
    torch.testing.assert_close(out, 2 * x + 1, rtol=0, atol=0)


@pytest.mark.parametrize("orders", [(0, 1, 2), (0, 2, 1)])
def test_two_sums_in_either_order(orders):
    n, b = 256 * 40, 256
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty(2 * b, device="cuda")
    K.two_sums[(1,)](x, y, out, n, B=b, ORDERS=orders)
    torch.testing.assert_close(out[:b], torch.exp(x).view(-1, b).sum(0), rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(out[b:], torch.sqrt(torch.abs(y)).view(-1, b).sum(0), rtol=1e-5, atol=1e-4)
