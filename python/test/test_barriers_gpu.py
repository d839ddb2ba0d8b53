"""Explicit barriers on the GPU, against torch: the kernels
of barrier_kernels.py launched the usual way with TLE enabled.

Skips without a CUDA GPU; the TMA and expect_tx tests also without sm_90.
Run on the H100 through the device tool:
    python -m pytest -q python/test/test_barriers_gpu.py
With TRITON_INTERPRET=1 the tests without warp_specialize run on the CPU in
Triton's interpreter (docs/interpreter.md; test_interpret.py runs this file
so in CI); gpu_only marks the others (partitions run concurrently).
"""

import pytest
import torch

import tle
from conftest import gpu_device, has_gpu, interpreting, needs_gpu_or_interpreter
import barrier_kernels as K

pytestmark = needs_gpu_or_interpreter
gpu_only = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU (warp_specialize: not for the interpreter)")
DEV = gpu_device()


def _hopper() -> bool:
    """TMA, expect_tx, wgmma: sm_90 (the interpreter runs them on the host)."""
    return interpreting() or (has_gpu() and torch.cuda.get_device_capability()[0] >= 9)


needs_hopper = pytest.mark.skipif(not _hopper(), reason="needs sm_90 (TMA, setmaxnreg)")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


def test_self_arrive():
    src = torch.randn(128, device=DEV)
    dst = torch.empty_like(src)
    K.self_arrive_kernel[(4,)](src, dst, N=128)
    torch.testing.assert_close(dst, src + 1, atol=0, rtol=0)


@gpu_only
@needs_hopper
@pytest.mark.parametrize("producer_warps", [1, 4])
@pytest.mark.parametrize("n_tiles", [1, 2, 7, 64])
def test_mbarrier_handoff_in_warp_specialize(producer_warps, n_tiles):
    """One buffer handed between a producer partition and the default
    partition through full / empty mbarriers, n_tiles times: every tile
    arrives whole and in order (a wrong phase would hang or mix tiles)."""
    torch.manual_seed(n_tiles)
    block = 256
    src = torch.randn(n_tiles * block, device=DEV)
    dst = torch.full_like(src, float("nan"))
    K.mbarrier_handoff_kernel[(3,)](src, dst, n_tiles, BLOCK=block, PRODUCER_WARPS=producer_warps)
    if not interpreting():
        torch.cuda.synchronize()
    i = torch.arange(n_tiles, device=DEV, dtype=torch.float32).repeat_interleave(block)
    torch.testing.assert_close(dst, src * 2 + i, atol=0, rtol=0)


@gpu_only
@needs_hopper
def test_named_barrier_in_warp_specialize():
    src = torch.randn(256, device=DEV)
    dst = torch.full_like(src, float("nan"))
    for _ in range(20):  # a missing barrier shows up as a race, not every time
        K.named_barrier_kernel[(8,)](src, dst, BLOCK=256)
        torch.testing.assert_close(dst, src * 3, atol=0, rtol=0)


@gpu_only
@needs_hopper
def test_named_use_of_an_mbarrier_array():
    src = torch.randn(256, device=DEV)
    dst = torch.full((3, 256), float("nan"), device=DEV)
    for _ in range(20):  # a missing hand-off shows up as a race, not every time
        K.named_array_kernel[(8,)](src, dst, BLOCK=256, ROUNDS=3)
        torch.testing.assert_close(dst, torch.stack([src, src * 2, src * 3]), atol=0, rtol=0)


@needs_hopper
@pytest.mark.parametrize("M,N,K_", [(64, 64, 64), (128, 192, 256), (256, 128, 1024)])
def test_tma_barrier_matmul(M, N, K_):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(M + N + K_)
    a = torch.randn(M, K_, device=DEV, dtype=torch.float16)
    b = torch.randn(K_, N, device=DEV, dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device=DEV, dtype=torch.float32)
    a_desc = TensorDescriptor.from_tensor(a, block_shape=[64, 64])
    b_desc = TensorDescriptor.from_tensor(b, block_shape=[64, 64])
    K.tma_barrier_matmul_kernel[(M // 64, N // 64)](a_desc, b_desc, c, K_, c.stride(0), BM=64, BN=64, BK=64)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=2e-2, rtol=2e-2)


@gpu_only
@needs_hopper
@pytest.mark.parametrize("n_tiles", [1, 2, 3, 16])
def test_tma_producer_partition_ring(n_tiles):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(n_tiles)
    a = torch.randn(n_tiles * 64, 64, device=DEV, dtype=torch.float16)
    out = torch.full((n_tiles * 64, 64), float("nan"), device=DEV)
    a_desc = TensorDescriptor.from_tensor(a, block_shape=[64, 64])
    K.tma_ws_ring_kernel[(2,)](a_desc, out, n_tiles, BM=64, BK=64)
    torch.testing.assert_close(out, a.float() + 1, atol=0, rtol=0)


@gpu_only
@needs_hopper
@pytest.mark.parametrize("n_tiles", [1, 2, 5])
def test_cp_async_barrier_in_warp_specialize(n_tiles):
    torch.manual_seed(n_tiles)
    src = torch.randn(n_tiles * 32 * 64, device=DEV)
    dst = torch.full_like(src, float("nan"))
    K.cp_async_barrier_kernel[(2,)](src, dst, n_tiles, R=32, C=64)
    torch.testing.assert_close(dst, src - 1, atol=0, rtol=0)


@needs_hopper
@pytest.mark.parametrize("n_tiles", [1, 2, 3, 8])
def test_async_tma_store(n_tiles):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(n_tiles)
    x = torch.randn(n_tiles * 64, 64, device=DEV, dtype=torch.float16)
    y = torch.full_like(x, float("nan"))
    K.tma_store_async_kernel[(1,)](TensorDescriptor.from_tensor(x, block_shape=[64, 64]),
                                   TensorDescriptor.from_tensor(y, block_shape=[64, 64]), n_tiles, BM=64, BN=64)
    torch.testing.assert_close(y, x * 2, atol=0, rtol=0)


@needs_hopper
@pytest.mark.parametrize("tiles", [1, 2, 5])
@pytest.mark.parametrize("reversed_", [True, False])
def test_tma_barrier_into_pointer_buffers(tiles, reversed_):
    """FlagTree's explicit-barrier elementwise TMA test: tiles of a and b by
    TMA copies on barriers into buffers read through local pointers (in
    reverse order: pointer buffers; in order: whole-buffer accesses, the
    TMA copies landing in the buffers themselves)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(tiles)
    a = torch.randn(96, tiles * 64, device=DEV)
    b = torch.randn_like(a)
    c = torch.full_like(a, float("nan"))
    desc = [TensorDescriptor.from_tensor(t, block_shape=[32, 64]) for t in (a, b, c)]
    K.tma_barrier_pointer_buffer_kernel[(3,)](*desc, a.shape[1], XBLOCK=32, YBLOCK=64, REVERSED=reversed_)
    torch.testing.assert_close(c, a + b, atol=0, rtol=0)


@needs_hopper
def test_wgmma_on_stored_operands():
    torch.manual_seed(0)
    a = torch.randn(64, 64, device=DEV, dtype=torch.float16)
    b = torch.randn(64, 64, device=DEV, dtype=torch.float16)
    c = torch.full((64, 64), float("nan"), device=DEV)
    K.wgmma_stored_operands_kernel[(1,)](a, b, c, M=64, N=64, K=64)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=2e-2, rtol=2e-2)


@needs_hopper
@pytest.mark.parametrize("kernel", ["wgmma_tma_matmul_kernel", pytest.param("ws_wgmma_matmul_kernel", marks=gpu_only)])
@pytest.mark.parametrize("M,N,K_", [(64, 64, 64), (128, 128, 128), (128, 192, 576), (256, 64, 1024)])
def test_wgmma_tma_matmul(kernel, M, N, K_):
    """Async wgmma on TMA-loaded buffers, one wgmma in flight across the K
    loop (wgmma_tma_matmul_kernel), or FlagTree's warp-specialized
    producer / consumer schedule (ws_wgmma_matmul_kernel)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(M + N + K_)
    a = torch.randn(M, K_, device=DEV, dtype=torch.float16)
    b = torch.randn(K_, N, device=DEV, dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device=DEV, dtype=torch.float32)
    a_desc = TensorDescriptor.from_tensor(a, block_shape=[64, 64])
    b_desc = TensorDescriptor.from_tensor(b, block_shape=[64, 64])
    getattr(K, kernel)[(M // 64, N // 64)](a_desc, b_desc, c, K_, c.stride(0), BM=64, BN=64, BK=64)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=5e-2, rtol=2e-2)


@needs_hopper
@pytest.mark.parametrize("N", [64, 128])
def test_wgmma_transposed_view(N):
    torch.manual_seed(N)
    q = torch.randn(64, 64, device=DEV, dtype=torch.float16)
    k = torch.randn(N, 64, device=DEV, dtype=torch.float16)
    s = torch.full((64, N), float("nan"), device=DEV)
    K.wgmma_qkt_kernel[(1,)](q, k, s, M=64, N=N, D=64)
    torch.testing.assert_close(s, q.float() @ k.float().T, atol=2e-2, rtol=2e-2)


@pytest.mark.parametrize("alias", [True, False])
def test_alloc_alias(alias):
    torch.manual_seed(1)
    x = torch.randn(4, 64, 64, device=DEV)
    out = torch.empty(4, 64, 64, device=DEV, dtype=torch.float16)
    K.alias_kernel[(1,)](x, out, 4, R=64, C=64, ALIAS=alias)
    torch.testing.assert_close(out, (x + x.sum(2, keepdim=True)).half(), atol=1e-2, rtol=1e-3)


@needs_hopper
@pytest.mark.parametrize("stages", [1, 3])
def test_barriers_and_wgmma_in_a_tle_range_loop(stages):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(stages)
    M, N, K_ = 128, 128, 512
    a = torch.randn(M, K_, device=DEV, dtype=torch.float16)
    b = torch.randn(K_, N, device=DEV, dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device=DEV)
    K.ranged_wgmma_matmul_kernel[(M // 64, N // 64)](TensorDescriptor.from_tensor(a, block_shape=[64, 64]),
                                                     TensorDescriptor.from_tensor(b, block_shape=[64, 64]), c, K_,
                                                     c.stride(0), BM=64, BN=64, BK=64, STAGES=stages)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=5e-2, rtol=2e-2)


@gpu_only
@needs_hopper
@pytest.mark.parametrize("n_tiles", [1, 5, 32])
def test_pipe_and_mbarrier_in_one_warp_specialize(n_tiles):
    src = torch.randn(n_tiles * 256, device=DEV)
    dst = torch.full_like(src, float("nan"))
    flag = torch.zeros(1, device=DEV, dtype=torch.int32)
    K.pipe_and_mbarrier_kernel[(2,)](src, dst, flag, n_tiles, BLOCK=256)
    torch.testing.assert_close(dst, src + 1, atol=0, rtol=0)
    assert flag.item() == n_tiles
