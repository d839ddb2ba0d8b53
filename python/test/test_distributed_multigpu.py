"""Device-level reshards on two GPUs of one host (docs/distributed.md, section 5).

One process drives both GPUs: each holds a "symmetric heap" (a workspace and
the flags in one allocation), peer access is enabled both ways, and
peer_offsets[q] is the distance from this GPU's heap to GPU q's in the shared
virtual address space. The same kernel is launched on both GPUs, which then
synchronize through system-scope flags. Skips without two peer-capable GPUs.

    python -m pytest -q python/test/test_distributed_multigpu.py
"""

import pytest
import torch

import tle
from conftest import has_gpu
from test_distributed import device_all_gather

D = 2
DEV2 = tle.device_mesh({"device": D})


def _two_peer_gpus() -> bool:
    if not has_gpu() or torch.cuda.device_count() < D:
        return False
    return all(torch.cuda.can_device_access_peer(a, b) for a in range(D) for b in range(D) if a != b)


pytestmark = pytest.mark.skipif(not _two_peer_gpus(), reason="needs two peer-capable CUDA GPUs")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


def _cudart():
    """The CUDA runtime torch loaded (its soname follows torch's CUDA version)."""
    import ctypes
    import glob
    import os
    names = ["libcudart.so.13", "libcudart.so.12", "libcudart.so"]
    for base in (os.path.dirname(torch.__file__), os.path.join(os.path.dirname(torch.__file__), "..", "nvidia")):
        names += glob.glob(os.path.join(base, "**", "libcudart.so*"), recursive=True)
    for name in names:
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    pytest.fail("no CUDA runtime library found to enable peer access")


def _enable_peer_access():
    lib = _cudart()
    for a in range(D):
        torch.cuda.set_device(a)
        torch.cuda.synchronize()
        for b in range(D):
            if a != b:
                err = lib.cudaDeviceEnablePeerAccess(b, 0)
                assert err in (0, 704), f"cudaDeviceEnablePeerAccess({a} -> {b}) failed: {err}"  # 704: already on
    torch.cuda.set_device(0)


def _heaps(programs, block):
    """Per GPU: (workspace, flags, peer_offsets) inside one allocation."""
    n_ws, n_flags = programs * block, programs * 2 * D
    heaps = [torch.zeros(n_ws + n_flags, dtype=torch.float32, device=f"cuda:{d}") for d in range(D)]
    out = []
    for d in range(D):
        offsets = torch.tensor([heaps[q].data_ptr() - heaps[d].data_ptr() for q in range(D)], dtype=torch.int64,
                               device=f"cuda:{d}")
        out.append((heaps[d][:n_ws], heaps[d][n_ws:].view(torch.int32), offsets))
    return heaps, out


def _launch_everywhere(programs, xs, outs, parts, src, dst, n):
    for d in range(D):
        ws, flags, offsets = parts[d]
        with torch.cuda.device(d):
            device_all_gather[(programs,)](xs[d], outs[d], ws, flags, offsets, d, 1, N=n, SRC=src, DST=dst,
                                           MESH=DEV2)
    for d in range(D):
        torch.cuda.synchronize(d)


@pytest.mark.parametrize("programs", [1, 4])
def test_all_gather_over_two_gpus(programs):
    _enable_peer_access()
    n = 256
    full = torch.randn(n, device="cuda:0")
    xs = [full[d * n // D:(d + 1) * n // D].to(f"cuda:{d}") for d in range(D)]
    outs = [torch.full((n,), float("nan"), device=f"cuda:{d}") for d in range(D)]
    heaps, parts = _heaps(programs, n // D)
    _launch_everywhere(programs, xs, outs, parts, tle.sharding(DEV2, split=["device"]),
                       tle.sharding(DEV2, split=[tle.B]), n)
    for d in range(D):
        torch.testing.assert_close(outs[d].cpu(), full.cpu(), rtol=0, atol=0)


@pytest.mark.parametrize("programs", [1, 4])
def test_all_reduce_over_two_gpus(programs):
    _enable_peer_access()
    n = 128
    xs = [torch.randn(n, device=f"cuda:{d}") for d in range(D)]
    outs = [torch.full((n,), float("nan"), device=f"cuda:{d}") for d in range(D)]
    heaps, parts = _heaps(programs, n)
    _launch_everywhere(programs, xs, outs, parts, tle.sharding(DEV2, split=[tle.B], partial=["device"]),
                       tle.sharding(DEV2, split=[tle.B]), n)
    expect = xs[0].cpu() + xs[1].cpu()
    for d in range(D):
        torch.testing.assert_close(outs[d].cpu(), expect, rtol=1e-6, atol=1e-6)
    # Fixed rank order: both GPUs hold bitwise the same sums.
    assert torch.equal(outs[0].cpu(), outs[1].cpu())
