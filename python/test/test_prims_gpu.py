"""The wgmma, buffer and barrier primitives on the GPU, against torch: the kernels of
prims_kernels.py (register-a and fp8 wgmma, buffer slots, barrier_try_wait,
set_layout, and all of them in warp_specialize partitions) launched the
usual way with TLE enabled.

Skips without a CUDA GPU of sm_90 or newer. Run on the H100:
    python -m pytest -q python/test/test_prims_gpu.py
"""

import pytest
import torch

import tle
from conftest import has_gpu
import prims_kernels as K


def _hopper() -> bool:
    return has_gpu() and torch.cuda.get_device_capability()[0] >= 9


pytestmark = pytest.mark.skipif(not _hopper(), reason="needs an sm_90 GPU (wgmma, TMA, try_wait)")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("K_", [32, 64, 128])
@pytest.mark.parametrize("N", [64, 128])
def test_register_a_wgmma(K_, N):
    torch.manual_seed(K_ + N)
    p = torch.randn(64, K_, device="cuda")
    v = torch.randn(K_, N, device="cuda", dtype=torch.bfloat16)
    o = torch.full((64, N), float("nan"), device="cuda")
    K.register_a_kernel[(1,)](p, v, o, M=64, N=N, K=K_)
    ref = (p * 2).to(torch.bfloat16).float() @ v.float()
    torch.testing.assert_close(o, ref, atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("N", [64, 128])
def test_attention_block(N):
    torch.manual_seed(N)
    q = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    k = torch.randn(N, 64, device="cuda", dtype=torch.float16)
    v = torch.randn(N, 64, device="cuda", dtype=torch.float16)
    o = torch.full((64, 64), float("nan"), device="cuda")
    K.attention_pv_kernel[(1,)](q, k, v, o, M=64, N=N, D=64)
    s = q.float() @ k.float().T
    p = torch.exp(s - s.max(dim=1, keepdim=True).values)
    ref = (p.half().float() @ v.float()) / p.sum(dim=1, keepdim=True)
    torch.testing.assert_close(o, ref, atol=2e-2, rtol=2e-2)


@pytest.mark.parametrize("a_mode", [0, 1, 2])
def test_wgmma_transpose_flags(a_mode):
    torch.manual_seed(a_mode)
    a = torch.randn(64, 64, device="cuda", dtype=torch.float16)   # M x K
    b = torch.randn(64, 64, device="cuda", dtype=torch.float16)   # K x N
    c = torch.full((64, 64), float("nan"), device="cuda")
    a_arg = a if a_mode == 0 else a.T.contiguous()
    K.transposed_operands_kernel[(1,)](a_arg, b.T.contiguous(), c, M=64, N=64, K=64, A_MODE=a_mode)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("b_nk", [True, False])
def test_fp8_wgmma(b_nk):
    torch.manual_seed(1)
    a = (torch.randn(64, 64, device="cuda") / 2).to(torch.float8_e4m3fn)
    b = (torch.randn(64, 64, device="cuda") / 2).to(torch.float8_e4m3fn)   # K x N
    c = torch.full((64, 64), float("nan"), device="cuda")
    b_arg = b.T.contiguous() if b_nk else b
    K.fp8_kernel[(1,)](a, b_arg, c, M=64, N=64, K=64, B_NK=b_nk)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize("stages", [2, 3])
@pytest.mark.parametrize("K_", [64, 192, 512])
def test_slot_ring_matmul(stages, K_):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(K_ + stages)
    M = N = 128
    a = torch.randn(M, K_, device="cuda", dtype=torch.float16)
    b = torch.randn(K_, N, device="cuda", dtype=torch.float16)
    c = torch.full((M, N), float("nan"), device="cuda")
    a_desc = TensorDescriptor.from_tensor(a, block_shape=[64, 64])
    b_desc = TensorDescriptor.from_tensor(b, block_shape=[64, 64])
    K.slot_ring_matmul_kernel[(M // 64, N // 64)](a_desc, b_desc, c, K_, c.stride(0), BM=64, BN=64, BK=64,
                                                  STAGES=stages)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=5e-2, rtol=2e-2)


@pytest.mark.parametrize("n_tiles", [1, 3, 8])
def test_slot_load_store(n_tiles):
    src = torch.randn(n_tiles * 32 * 64, device="cuda")
    dst = torch.full_like(src, float("nan"))
    K.slot_load_kernel[(1,)](src, dst, n_tiles, R=32, C=64, STAGES=2)
    torch.testing.assert_close(dst, src + 1, atol=0, rtol=0)


def test_try_wait():
    """[before the phase completes, after, READY phase 0, READY phase 1],
    20 launches: the early answer must not see the later arrival."""
    for _ in range(20):
        flags = torch.full((4,), -1, device="cuda", dtype=torch.int32)
        K.try_wait_kernel[(1,)](flags)
        assert flags.tolist() == [0, 1, 1, 0]


def test_set_layout():
    x = torch.randn(64, 64, device="cuda")
    y = torch.full_like(x, float("nan"))
    K.set_layout_kernel[(1,)](x, y, N=64)
    torch.testing.assert_close(y, x * 2 + 1, atol=0, rtol=0)


@pytest.mark.parametrize("n_tiles", [1, 2, 5, 16])
def test_warp_specialize_with_every_primitive(n_tiles):
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(n_tiles)
    x = torch.randn(n_tiles * 64, 64, device="cuda", dtype=torch.float16)
    w = torch.randn(64, 64, device="cuda", dtype=torch.float16)
    out = torch.full((n_tiles * 64, 64), float("nan"), device="cuda")
    x_desc = TensorDescriptor.from_tensor(x, block_shape=[64, 64])
    K.ws_prims_kernel[(1,)](x_desc, w, out, n_tiles, BM=64, BK=64, BN=64, STAGES=2)
    torch.testing.assert_close(out, (x.float() * 2).half().float() @ w.float(), atol=5e-2, rtol=2e-2)


def test_set_layout_in_partitions():
    x = torch.randn(64, 64, device="cuda")
    y = torch.full_like(x, float("nan"))
    z = torch.full_like(x, float("nan"))
    K.ws_set_layout_kernel[(1,)](x, y, z, N=64)
    torch.testing.assert_close(y, x + 3, atol=0, rtol=0)
    torch.testing.assert_close(z, x - 3, atol=0, rtol=0)


@pytest.mark.parametrize("n_tiles", [1, 4])
def test_slots_and_layouts_in_pipeline_groups(n_tiles):
    src = torch.randn(n_tiles * 32 * 64, device="cuda")
    dst = torch.full_like(src, float("nan"))
    K.ranged_slot_kernel[(1,)](src, dst, n_tiles, R=32, C=64)
    torch.testing.assert_close(dst, src * 2, atol=0, rtol=0)
