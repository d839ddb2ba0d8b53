"""TLE-Raw in FlagTree's form (docs/raw.md) on the GPU against torch: the five
tutorial patterns of raw_dialect_kernels.py (elementwise over global
pointers, a shared-memory softmax, a tiled matmul accumulating into an
InOut, a device print, a top-k over a shared-memory histogram).

Skips without a CUDA GPU. From the repo root:
    . scripts/device-env.sh && python3 -m pytest -q python/test/test_raw_dialect_gpu.py
"""

import pytest
import torch
import triton

# The kernels are written with MLIR's Python bindings (xtc-mlir, as in CI); a
# machine without them skips this file.
pytest.importorskip("mlir.ir", reason="needs MLIR's Python bindings (the mlir package)")
import raw_dialect_kernels as K
import tle
from conftest import has_gpu

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("n,grid", [(2048, 2), (1000, 1), (98432 + 517, 7)])
def test_axpy_over_global_pointers(n, grid):
    gen = torch.Generator().manual_seed(n)
    x = torch.randn(n, generator=gen).cuda()
    y = torch.randn(n, generator=gen).cuda()
    out = torch.full((n + 64,), -7.0, device="cuda")  # past n must stay untouched
    K.axpy_kernel[(grid,)](x, y, out, n, 0.5, BLOCK=1024, num_warps=4)
    torch.testing.assert_close(out[:n], 0.5 * x + y)
    assert torch.all(out[n:] == -7.0)


@pytest.mark.parametrize("rows,cols,block", [(8, 4, 4), (37, 781, 1024), (5, 256, 256)])
def test_softmax_rows_in_shared_memory(rows, cols, block):
    gen = torch.Generator().manual_seed(cols)
    x = torch.randn(rows, cols, generator=gen).cuda()
    y = torch.empty_like(x)
    K.softmax_kernel[(min(rows, 4),)](x, y, rows, cols, BLOCK=block, num_warps=4)
    torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (100, 72, 40)])
def test_matmul_accumulates_into_inout(m, n, k):
    gen = torch.Generator().manual_seed(m * n + k)
    a = (torch.rand(m, k, generator=gen) - 0.5).half().cuda()
    b = (torch.rand(k, n, generator=gen) - 0.5).half().cuda()
    c = torch.empty(m, n, device="cuda")
    grid = (triton.cdiv(m, 32), triton.cdiv(n, 32))
    K.matmul_kernel[grid](a, b, c, m, n, k, BM=32, BN=32, BK=16, num_warps=4)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-4, atol=1e-4)


def test_device_print(capfd):
    K.hello_kernel[(3,)](num_warps=4)
    torch.cuda.synchronize()
    out = capfd.readouterr().out
    lines = sorted(line for line in out.splitlines() if line.startswith("hello from program"))
    assert lines == [f"hello from program {p} of 3, 128 threads, x=1.500000" for p in range(3)], out


@pytest.mark.parametrize("rows,n,k", [(4, 1024, 100), (3, 512, 1), (2, 512, 512)])
def test_topk_over_shared_histogram(rows, n, k):
    gen = torch.Generator().manual_seed(n + k)
    x = torch.randint(0, 256, (rows, n), generator=gen, dtype=torch.int32).cuda()
    out = torch.full((rows, k), -1, dtype=torch.int32, device="cuda")
    hist = torch.empty(rows, K.NBINS, dtype=torch.int32, device="cuda")
    K.topk_kernel[(rows,)](x, out, hist, k, N=n, num_warps=8)
    for r in range(rows):
        torch.testing.assert_close(hist[r], torch.bincount(x[r], minlength=K.NBINS).int())
        idx = out[r].long()
        assert torch.all(idx >= 0) and len(set(idx.tolist())) == k  # k distinct indices
        picked = torch.sort(x[r][idx], descending=True).values
        torch.testing.assert_close(picked, torch.topk(x[r], k).values)
