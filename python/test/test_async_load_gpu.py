"""tle.load(..., is_async=True) on the GPU, against torch.

Skips without a CUDA GPU. Run on the H100 through the device tool:
    python -m pytest -q python/test/test_async_load_gpu.py
With TRITON_INTERPRET=1 the results are checked on the CPU in Triton's
interpreter (docs/interpreter.md; test_interpret.py runs this file so in CI),
the PTX and the timed loop only on a GPU.
"""

import pytest
import torch
import triton

import tle
from conftest import gpu_device, has_gpu, interpreting, needs_gpu_or_interpreter
import async_load_kernels as K

pytestmark = needs_gpu_or_interpreter
gpu_only = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU (not for Triton's interpreter)")
DEV = gpu_device()


def _cp_async(compiled) -> bool:
    """Whether the kernel copies by cp.async (a launch under the interpreter compiles nothing)."""
    return interpreting() or "cp.async" in compiled.asm["ptx"]


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.int64, torch.float16])
@pytest.mark.parametrize("n,block", [(1000, 256), (4096, 1024), (33, 64), (70_001, 1024)])
def test_masked_tail_reads_other(dtype, n, block):
    grid = triton.cdiv(n, block)
    padded = grid * block
    if dtype.is_floating_point:
        x = torch.randn(n, device=DEV).to(dtype)
        y = torch.randn(padded, device=DEV).to(dtype)
    else:
        x = torch.randint(-1000, 1000, (n,), device=DEV, dtype=dtype)
        y = torch.randint(-1000, 1000, (padded,), device=DEV, dtype=dtype)
    out = torch.empty(padded, device=DEV, dtype=dtype)
    compiled = K.masked_copy[(grid,)](x, y, out, n, BLOCK=block)
    xs = torch.full((padded,), -1, device=DEV, dtype=dtype)
    xs[:n] = x
    torch.testing.assert_close(out, xs + 2 * y, rtol=0, atol=0)
    if dtype.itemsize >= 4:
        assert _cp_async(compiled)


@pytest.mark.parametrize("kernel", [K.loop_accumulate, K.loop_mixed, K.loop_plain])
@pytest.mark.parametrize("K_,bk,ns", [(10_000, 256, 3), (4096, 128, 4), (777, 64, 2), (5000, 256, 1)])
def test_loop_accumulate(kernel, K_, bk, ns):
    x = torch.randn(K_, device=DEV)
    y = torch.randn(K_, device=DEV)
    out = torch.empty(bk, device=DEV)
    compiled = kernel[(1,)](x, y, out, K_, BK=bk, NS=ns)
    chunks = triton.cdiv(K_, bk)
    a = torch.full((chunks * bk,), -1.0, device=DEV, dtype=torch.float64)
    b = torch.full((chunks * bk,), 2.0, device=DEV, dtype=torch.float64)
    a[:K_] = x.double()
    b[:K_] = y.double()
    expected = (a * b + a).view(chunks, bk).sum(0).float()
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-4)
    if kernel is not K.loop_plain:
        assert _cp_async(compiled)


@pytest.mark.parametrize("m", [32, 100, 1])
def test_2d_tile_rows(m):
    n, bm = 64, 32
    x = torch.randn(m, n, device=DEV)
    out = torch.full((m, n), 7.0, device=DEV)
    compiled = K.tile_rows[(triton.cdiv(m, bm),)](x, out, m, N=n, BM=bm)
    torch.testing.assert_close(out, x * 2 + 1, rtol=0, atol=0)
    assert _cp_async(compiled)


@pytest.mark.parametrize("asy", [True, False])
def test_matmul(asy):
    m, n, k = 256, 256, 512
    a = torch.randn(m, k, device=DEV, dtype=torch.float16)
    b = torch.randn(k, n, device=DEV, dtype=torch.float16)
    c = torch.empty(m, n, device=DEV, dtype=torch.float32)
    K.matmul[(m // 128, n // 128)](a, b, c, m, n, k, BM=128, BN=128, BK=64, ASYNC=asy)
    torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-3, atol=1e-2)


@gpu_only
def test_large_loop_matches_torch_and_reports_time():
    """Correctness at a large K; also prints both loops' times (not asserted)."""
    K_, bk = 1 << 22, 1024
    x = torch.randn(K_, device=DEV)
    y = torch.randn(K_, device=DEV)
    expected = (x.double() * y.double() + x.double()).view(-1, bk).sum(0).float()
    times = {}
    for kernel in (K.loop_accumulate, K.loop_plain):
        out = torch.empty(bk, device=DEV)
        kernel[(1,)](x, y, out, K_, BK=bk, NS=3)
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-3)
        times[kernel.__name__] = triton.testing.do_bench(lambda: kernel[(1,)](x, y, out, K_, BK=bk, NS=3))
    print(f"\nloop K={K_} BK={bk}: " + ", ".join(f"{k} {v * 1e3:.1f} us" for k, v in times.items()))
