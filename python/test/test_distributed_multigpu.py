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
import triton
import triton.language as tl

import tle
from conftest import has_gpu, ptx_count
from test_distributed import DEVICE_SIG, assert_lowered, compile_kernel, device_all_gather

D = 2
DEV2 = tle.device_mesh({"device": D})


def _two_peer_gpus() -> bool:
    if not has_gpu() or torch.cuda.device_count() < D:
        return False
    return all(torch.cuda.can_device_access_peer(a, b) for a in range(D) for b in range(D) if a != b)


two_gpus = pytest.mark.skipif(not _two_peer_gpus(), reason="needs two peer-capable CUDA GPUs")


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


_peer_access = []


def _enable_peer_access():
    """Once per process: every GPU may read every other's memory."""
    if _peer_access:
        return
    lib = _cudart()
    for a in range(D):
        torch.cuda.set_device(a)
        torch.cuda.synchronize()
        for b in range(D):
            if a != b:
                err = lib.cudaDeviceEnablePeerAccess(b, 0)
                assert err in (0, 704), f"cudaDeviceEnablePeerAccess({a} -> {b}) failed: {err}"  # 704: already on
                lib.cudaGetLastError()  # 704 is also left as the runtime's last error, which torch would report
    torch.cuda.set_device(0)
    _peer_access.append(True)


def _heaps(programs, block, devices=None):
    """Per rank: (workspace, flags, peer_offsets) inside one allocation on
    `devices[rank]` (default: rank r on GPU r)."""
    devices = devices or [f"cuda:{d}" for d in range(D)]
    n_ws, n_flags = programs * block, programs * 2 * D
    heaps = [torch.zeros(n_ws + n_flags, dtype=torch.float32, device=devices[d]) for d in range(D)]
    out = []
    for d in range(D):
        offsets = torch.tensor([heaps[q].data_ptr() - heaps[d].data_ptr() for q in range(D)], dtype=torch.int64,
                               device=devices[d])
        out.append((heaps[d][:n_ws], heaps[d][n_ws:].view(torch.int32), offsets))
    return heaps, out


# One kernel for every rank and epoch (no specialization of the value 1):
# with both ranks on one GPU, loading a second kernel while the first one
# spins on its flags would wait for it.
@triton.jit(do_not_specialize=["rank", "epoch"])
def device_reshard_block(X, OUT, WS, FLAGS, OFFSETS, rank, epoch, BLOCK: tl.constexpr, OUT_BLOCK: tl.constexpr,
                         N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    """The multi-GPU form users write: each GPU passes its own block (annotated)."""
    ctx = tle.device_context(MESH, rank, WS, FLAGS, OFFSETS, epoch)
    x = tle.make_sharded_tensor(tl.load(X + tl.arange(0, BLOCK)), SRC, [N], context=ctx)
    y = tle.reshard(x, DST, context=ctx)
    tl.store(OUT + tl.arange(0, OUT_BLOCK), y)


def test_block_form_compiles_for_two_gpus():
    """CPU: the local-block kernel of the GPU tests (reduce-scatter form) to PTX."""
    sig = dict(DEVICE_SIG)
    c = compile_kernel(device_reshard_block, sig, BLOCK=256, OUT_BLOCK=128, N=256,
                       SRC=tle.sharding(DEV2, split=[tle.B], partial=["device"]),
                       DST=tle.sharding(DEV2, split=["device"]), MESH=DEV2)
    assert_lowered(c)
    # One flag store per GPU per barrier, and each GPU's partial read (predicated) from both.
    assert ptx_count(c, r"st\.relaxed\.sys\.global\.b32") == 2 * D
    assert ptx_count(c, r"ld\.acquire\.sys\.global\.b32") >= 2
    assert ptx_count(c, r"@%p\d+ ld\.global") >= D


def test_peer_loads_vectorize_with_aligned_arguments():
    """CPU: with 16-byte aligned pointers (what Triton specializes at a launch)
    the peer loads read 16 bytes at a time; unaligned, they stay scalar."""
    constexprs = dict(BLOCK=512, OUT_BLOCK=1024, N=1024, SRC=tle.sharding(DEV2, split=["device"]),
                      DST=tle.sharding(DEV2, split=[tle.B]), MESH=DEV2)
    aligned = {(i,): [["tt.divisibility", 16]] for i in range(5)}
    vec = tle.compile(device_reshard_block, signature=DEVICE_SIG, constexprs=constexprs, target="sm_90",
                      attrs=aligned)
    plain = tle.compile(device_reshard_block, signature=DEVICE_SIG, constexprs=constexprs, target="sm_90")
    assert ptx_count(vec, r"@%p\d+ ld\.global\.v4\.b32") >= D and ptx_count(vec, r"@%p\d+ ld\.global\.b32") == 0
    assert ptx_count(plain, r"@%p\d+ ld\.global\.v4") == 0 and ptx_count(plain, r"@%p\d+ ld\.global\.b32") >= D


def _run(kernel, programs, xs, outs, parts, epoch=1, **meta):
    """The same kernel on every GPU (one launch each, all in flight together)."""
    for d in range(D):
        ws, flags, offsets = parts[d]
        with torch.cuda.device(d):
            kernel[(programs,)](xs[d], outs[d], ws, flags, offsets, d, epoch, MESH=DEV2, **meta)
    for d in range(D):
        torch.cuda.synchronize(d)


def _nan(n, d):
    return torch.full((n,), float("nan"), device=f"cuda:{d}")


@two_gpus
@pytest.mark.parametrize("programs", [1, 4])
def test_all_gather_over_two_gpus_global_pointer(programs):
    """make_sharded_tensor from a pointer to the whole tensor (the documented
    contract): each GPU loads only its own block from it, so every other
    block of its copy is NaN here and must come from the peer."""
    _enable_peer_access()
    n = 256
    # Made on the host: a device-to-device copy by torch asks CUDA to enable
    # peer access, which _enable_peer_access did (error 704 under memcheck).
    full = torch.randn(n)
    xs = []
    for d in range(D):
        mine = _nan(n, d)
        mine[d * n // D:(d + 1) * n // D] = full[d * n // D:(d + 1) * n // D].to(f"cuda:{d}")
        xs.append(mine)
    outs = [_nan(n, d) for d in range(D)]
    heaps, parts = _heaps(programs, n // D)
    _run(device_all_gather, programs, xs, outs, parts, N=n, SRC=tle.sharding(DEV2, split=["device"]),
         DST=tle.sharding(DEV2, split=[tle.B]))
    for d in range(D):
        torch.testing.assert_close(outs[d].cpu(), full.cpu(), rtol=0, atol=0)


@two_gpus
@pytest.mark.parametrize("programs", [1, 4])
def test_all_gather_over_two_gpus(programs):
    _enable_peer_access()
    n = 256
    full = torch.randn(n)
    xs = [full[d * n // D:(d + 1) * n // D].to(f"cuda:{d}") for d in range(D)]
    outs = [_nan(n, d) for d in range(D)]
    heaps, parts = _heaps(programs, n // D)
    _run(device_reshard_block, programs, xs, outs, parts, BLOCK=n // D, OUT_BLOCK=n, N=n,
         SRC=tle.sharding(DEV2, split=["device"]), DST=tle.sharding(DEV2, split=[tle.B]))
    for d in range(D):
        torch.testing.assert_close(outs[d].cpu(), full.cpu(), rtol=0, atol=0)


@two_gpus
@pytest.mark.parametrize("programs", [1, 4])
def test_all_reduce_over_two_gpus(programs):
    _enable_peer_access()
    n = 128
    xs = [torch.randn(n, device=f"cuda:{d}") for d in range(D)]
    outs = [_nan(n, d) for d in range(D)]
    heaps, parts = _heaps(programs, n)
    _run(device_reshard_block, programs, xs, outs, parts, BLOCK=n, OUT_BLOCK=n, N=n,
         SRC=tle.sharding(DEV2, split=[tle.B], partial=["device"]), DST=tle.sharding(DEV2, split=[tle.B]))
    expect = xs[0].cpu() + xs[1].cpu()
    for d in range(D):
        torch.testing.assert_close(outs[d].cpu(), expect, rtol=1e-6, atol=1e-6)
    # Fixed rank order: both GPUs hold bitwise the same sums.
    assert torch.equal(outs[0].cpu(), outs[1].cpu())


@two_gpus
def test_reduce_scatter_over_two_gpus():
    _enable_peer_access()
    n = 256
    xs = [torch.randn(n, device=f"cuda:{d}") for d in range(D)]
    outs = [_nan(n // D, d) for d in range(D)]
    heaps, parts = _heaps(1, n)
    _run(device_reshard_block, 1, xs, outs, parts, BLOCK=n, OUT_BLOCK=n // D, N=n,
         SRC=tle.sharding(DEV2, split=[tle.B], partial=["device"]), DST=tle.sharding(DEV2, split=["device"]))
    expect = xs[0].cpu() + xs[1].cpu()
    for d in range(D):
        torch.testing.assert_close(outs[d].cpu(), expect[d * n // D:(d + 1) * n // D], rtol=1e-6, atol=1e-6)


@two_gpus
def test_epochs_reuse_the_flags():
    """Three reshards in a row on the same workspace and flags, epoch 1, 2, 3."""
    _enable_peer_access()
    n = 128
    heaps, parts = _heaps(2, n)
    for epoch in (1, 2, 3):
        xs = [torch.randn(n, device=f"cuda:{d}") for d in range(D)]
        outs = [_nan(n, d) for d in range(D)]
        _run(device_reshard_block, 2, xs, outs, parts, epoch=epoch, BLOCK=n, OUT_BLOCK=n, N=n,
             SRC=tle.sharding(DEV2, split=[tle.B], partial=["device"]), DST=tle.sharding(DEV2, split=[tle.B]))
        expect = xs[0].cpu() + xs[1].cpu()
        for d in range(D):
            torch.testing.assert_close(outs[d].cpu(), expect, rtol=1e-6, atol=1e-6, msg=f"epoch {epoch}")


def _two_ranks_on_one_gpu(case, programs):
    """Both ranks of the device protocol on one GPU (run by the test below in
    a subprocess with a time limit: a scheduling problem would hang, not
    fail)."""
    n = 1024
    block = n // D if case == "all_gather" else n
    heaps, parts = _heaps(programs, block, devices=["cuda"] * D)
    assert all(int(o) % 16 == 0 for _, _, offs in parts for o in offs.tolist())
    if case == "all_gather":
        full = torch.randn(n, device="cuda")
        xs = [full[d * block:(d + 1) * block].clone() for d in range(D)]
        expect = full
        src, dst = tle.sharding(DEV2, split=["device"]), tle.sharding(DEV2, split=[tle.B])
    else:
        xs = [torch.randn(n, device="cuda") for _ in range(D)]
        expect = xs[0] + xs[1]
        src, dst = tle.sharding(DEV2, split=[tle.B], partial=["device"]), tle.sharding(DEV2, split=[tle.B])
    outs = [_nan(n, 0) for _ in range(D)]
    kernel = device_reshard_block
    for epoch in (2, 3):
        streams = [torch.cuda.Stream() for _ in range(D)]
        torch.cuda.synchronize()
        for d in range(D):
            ws, flags, offsets = parts[d]
            with torch.cuda.stream(streams[d]):
                kernel[(programs,)](xs[d], outs[d], ws, flags, offsets, d, epoch, BLOCK=block, OUT_BLOCK=n, N=n,
                                    SRC=src, DST=dst, MESH=DEV2)
        torch.cuda.synchronize()
        for d in range(D):
            torch.testing.assert_close(outs[d], expect, rtol=1e-6, atol=1e-6, msg=f"rank {d}, epoch {epoch}")
            outs[d].fill_(float("nan"))


@pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("programs", [1, 4])
@pytest.mark.parametrize("case", ["all_gather", "all_reduce"])
def test_two_ranks_on_one_gpu(case, programs):
    """The device protocol with both ranks on one GPU: two launches in
    flight on two streams, each with its own heap, the peer offset the
    distance between the heaps. Exercises the flags, the epochs and the
    (vectorized) peer loads where no second GPU is lent."""
    import subprocess
    import sys
    try:
        done = subprocess.run([sys.executable, __file__, case, str(programs)], capture_output=True, text=True,
                              timeout=180)
    except subprocess.TimeoutExpired:
        pytest.fail("the two ranks did not finish within 180 s (both kernels must be resident at once)")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


if __name__ == "__main__":
    import sys
    with tle.enabled():
        _two_ranks_on_one_gpu(sys.argv[1], int(sys.argv[2]))
