"""FlagTree's TLE kernels on TLE (issue 32, item 2), on the GPU, against torch:
the kernels of flagtree_compat_kernels.py (FlagTree's public tests but for
the import line) launched the usual way with TLE enabled.

Skips without a CUDA GPU; the TMA tests also without sm_90. Run on the H100
through the device tool:
    python -m pytest -q python/test/test_flagtree_compat_gpu.py
"""

import pytest
import torch
import triton

import tle
from conftest import has_gpu
import flagtree_compat_kernels as K

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


def _hopper() -> bool:
    return has_gpu() and torch.cuda.get_device_capability()[0] >= 9


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


def _elementwise(kernel, a, b, c, XBLOCK, YBLOCK):
    xnumel, ynumel = a.shape
    kernel[(triton.cdiv(xnumel, XBLOCK),)](a, b, c, xnumel, ynumel, *a.stride(), *b.stride(), *c.stride(), XBLOCK,
                                           YBLOCK)


@pytest.mark.parametrize("xnumel,ynumel,XBLOCK,YBLOCK", [(512, 512, 64, 64), (256, 256, 32, 32),
                                                         (2048, 512, 128, 32), (512, 2048, 32, 128),
                                                         (128, 1024, 32, 128)])
def test_pipeline_add(xnumel, ynumel, XBLOCK, YBLOCK):
    torch.manual_seed(xnumel + ynumel)
    a = torch.randn(xnumel, ynumel, device="cuda")
    b = torch.randn(xnumel, ynumel, device="cuda")
    c = torch.empty_like(a)
    _elementwise(K.pipeline_add_kernel, a, b, c, XBLOCK, YBLOCK)
    torch.testing.assert_close(c, a + b, atol=1e-5, rtol=1e-5)


def test_local_store_add():
    torch.manual_seed(42)
    a = torch.randn(512, 512, device="cuda")
    b = torch.randn(512, 512, device="cuda")
    c = torch.empty_like(a)
    _elementwise(K.local_store_add_kernel, a, b, c, 64, 64)
    torch.testing.assert_close(c, a + b, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("stages", [2, 3])
def test_pipeline_without_buffers(stages):
    n, block = 10_000, 256
    a = torch.randn(n, device="cuda")
    b = torch.randn(n, device="cuda")
    c = torch.empty(block, device="cuda")
    K.pipeline_global_add_kernel[(1,)](a, b, c, n, BLOCK=block, STAGES=stages)
    pad = torch.zeros(triton.cdiv(n, block) * block, device="cuda")
    pad[:n] = a * b
    torch.testing.assert_close(c, pad.view(-1, block).sum(0), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_gemm_with_copies_in_the_k_loop(dtype):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    M = N = K_ = 256
    blk = 64
    a = torch.randn(M, K_, device="cuda", dtype=dtype)
    b = torch.randn(K_, N, device="cuda", dtype=dtype)
    c = torch.empty(M, N, device="cuda", dtype=torch.float32)
    import triton.language as tl
    K.gemm_kernel[(M // blk, N // blk)](a, b, c, M, N, K_, *a.stride(), *b.stride(), *c.stride(), BLOCK_M=blk,
                                          BLOCK_N=blk, BLOCK_K=blk,
                                          DTYPE=tl.float32 if dtype == torch.float32 else tl.float16)
    expected = a.float() @ b.float()
    tol = 1e-3 if dtype == torch.float32 else 2e-2
    torch.testing.assert_close(c, expected, atol=tol, rtol=tol)


def test_offsets_reverse():
    x = torch.randn(128, device="cuda")
    out = torch.empty_like(x)
    K.offsets_reverse_kernel[(1,)](x, out, BLOCK=128)
    torch.testing.assert_close(out, x.flip(0), atol=0, rtol=0)


def test_offsets_transpose():
    x = torch.arange(16 * 8, device="cuda", dtype=torch.int32).view(16, 8)
    out = torch.empty(16 * 8, device="cuda", dtype=torch.int32)
    K.offsets_transpose_kernel[(1,)](x, out, ROWS=16, COLS=8)
    torch.testing.assert_close(out, x.t().flatten(), atol=0, rtol=0)


def test_offsets_masked_gather():
    x = torch.randn(8, 32, device="cuda")
    n = 100
    idx = torch.randint(0, 8 * 32, (128,), device="cuda", dtype=torch.int32)
    out = torch.full((128,), 7.0, device="cuda")
    K.offsets_masked_gather_kernel[(1,)](x, idx, out, n, ROWS=8, COLS=32, BLOCK=128)
    expected = torch.full((128,), 7.0, device="cuda")
    expected[:n] = x.flatten()[idx[:n].long()]
    torch.testing.assert_close(out, expected, atol=0, rtol=0)


@pytest.mark.skipif(not _hopper(), reason="TMA needs sm_90")
@pytest.mark.parametrize("xnumel,ynumel,XBLOCK,YBLOCK", [(512, 512, 32, 64), (256, 256, 16, 128),
                                                         (256, 256, 64, 32), (512, 512, 64, 64)])
def test_tma_copy_add(xnumel, ynumel, XBLOCK, YBLOCK):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(xnumel + XBLOCK)
    a = torch.randn(xnumel, ynumel, device="cuda")
    b = torch.randn(xnumel, ynumel, device="cuda")
    c = torch.empty_like(a)
    descs = [TensorDescriptor.from_tensor(t, block_shape=[XBLOCK, YBLOCK]) for t in (a, b, c)]
    K.tma_copy_add_kernel[(triton.cdiv(xnumel, XBLOCK),)](*descs, ynumel, XBLOCK, YBLOCK)
    torch.testing.assert_close(c, a + b, atol=1e-5, rtol=1e-5)


@pytest.mark.skipif(not _hopper(), reason="TMA needs sm_90")
def test_tma_copy_add_non_divisible():
    """Out-of-bounds elements of the last blocks are read as zeros and not
    written back."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    a = torch.randn(500, 320, device="cuda")
    b = torch.randn(500, 320, device="cuda")
    c = torch.empty_like(a)
    descs = [TensorDescriptor.from_tensor(t, block_shape=[32, 64]) for t in (a, b, c)]
    K.tma_copy_add_kernel[(triton.cdiv(500, 32),)](*descs, 320, 32, 64)
    torch.testing.assert_close(c, a + b, atol=1e-5, rtol=1e-5)


@pytest.mark.skipif(not _hopper(), reason="TMA needs sm_90")
def test_tma_roundtrip():
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.randn(256, 192, device="cuda", dtype=torch.float16)
    y = torch.zeros_like(x)
    xd = TensorDescriptor.from_tensor(x, block_shape=[64, 64])
    yd = TensorDescriptor.from_tensor(y, block_shape=[64, 64])
    K.tma_roundtrip_kernel[(4, 3)](xd, yd, BM=64, BN=64)
    torch.testing.assert_close(y, x * 2, atol=0, rtol=0)
