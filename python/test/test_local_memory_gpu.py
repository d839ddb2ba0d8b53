"""tle.gpu buffers, local pointers and cluster pointers on the GPU, against torch.

Skips without a CUDA GPU. Run on the H100 through the device tool:
    python -m pytest -q python/test/test_local_memory_gpu.py
"""

import os
import subprocess
import sys

import pytest
import torch

import tle
from conftest import compute_sanitizer, gpu_device, has_gpu, needs_gpu_or_interpreter
import local_memory_kernels as K

# With TRITON_INTERPRET=1 the tests that need no GPU hardware run on the CPU
# (docs/interpreter.md; test_interpret.py runs them so in CI); gpu_only marks
# the others (inline-asm delays, clusters, compute-sanitizer).
pytestmark = needs_gpu_or_interpreter
gpu_only = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU (not for Triton's interpreter)")
DEV = gpu_device()


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("n,bins", [(1000, 64), (4096, 256), (100_000, 1024), (7, 32)])
def test_histogram_matches_bincount(n, bins):
    gen = torch.Generator(device=DEV).manual_seed(n + bins)
    # Values slightly outside [0, bins) must be ignored, as the mask says.
    x = torch.randint(-3, bins + 3, (n,), device=DEV, dtype=torch.int32, generator=gen)
    out = torch.full((bins,), -1, device=DEV, dtype=torch.int32)
    K.histogram[(1,)](x, out, n, BLOCK=256, BINS=bins)
    valid = x[(x >= 0) & (x < bins)].long()
    expected = torch.bincount(valid, minlength=bins).to(torch.int32)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)
    # and torch.histc agrees on the in-range values
    hist = torch.histc(valid.float(), bins=bins, min=0, max=bins - 1).to(torch.int32)
    torch.testing.assert_close(out, hist, rtol=0, atol=0)


@pytest.mark.parametrize("m,n", [(32, 64), (64, 64), (16, 128)])
def test_transpose_through_shared_memory(m, n):
    x = torch.randn(m, n, device=DEV)
    y = torch.empty(n, m, device=DEV)
    K.transpose_tile[(1,)](x, y, M=m, N=n)
    torch.testing.assert_close(y, x.t().contiguous(), rtol=0, atol=0)


def _late_writer(variant):
    m, n = 32, 64
    seed = int(torch.randint(1, 1 << 20, ()))
    y = torch.full((n, m), -1, device=DEV, dtype=torch.int32)
    K.late_writer_transpose[(1,)](y, seed, M=m, N=n, VARIANT=variant)
    rows = torch.arange(m, device=DEV, dtype=torch.int32)[:, None]
    cols = torch.arange(n, device=DEV, dtype=torch.int32)[None, :]
    return y, (rows * n + cols + seed).t()


@gpu_only
def test_late_writer_is_ordered_by_the_barrier_pass():
    """Differential control of triton-tle-insert-local-pointer-barriers: warp
    0 writes its part of a shared tile ~ms after the other warps, which then
    read it through local pointers. With TLE's pipeline the result is exact;
    without the pass (nothing else orders the pointer store and load: see
    test_local_memory.py's PTX check of the same kernel) they read what was
    there before."""
    y, expected = _late_writer(0)
    torch.testing.assert_close(y, expected, rtol=0, atol=0)
    with K.without_local_pointer_barriers():
        y, expected = _late_writer(1)
    wrong = (y != expected).sum().item()
    assert wrong > 0, "without the barrier pass every late element was still read right"
    # Only what warp 0 (a quarter of the threads) wrote can be stale.
    assert wrong <= y.numel() // 4, wrong



@gpu_only
@pytest.mark.skipif(compute_sanitizer() is None, reason="needs compute-sanitizer")
def test_racecheck_sees_the_race_the_barrier_pass_removes(tmp_path):
    """racecheck_local_memory.py under compute-sanitizer's racecheck: with
    TLE's pipeline 0 hazards, including disjoint_stores_transpose, whose two
    stores the pass leaves unsynchronized (their index sets are disjoint);
    without triton-tle-insert-local-pointer-barriers it reports the late
    writer's store/load race at the kernel's lines, and the disjoint-store
    kernel's store/read race (the control that shows racecheck sees TLE's
    shared-memory accesses)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "racecheck_local_memory.py")
    outputs = {}
    for mode in ("", "--no-barriers"):
        env = dict(os.environ, TRITON_CACHE_DIR=str(tmp_path / (mode or "barriers")))
        run = subprocess.run([compute_sanitizer(), "--tool", "racecheck", "--error-exitcode", "9", sys.executable,
                              script] + ([mode] if mode else []),
                             env=env, capture_output=True, text=True, timeout=300)
        outputs[mode] = (run.returncode, run.stdout + run.stderr)
    rc, out = outputs[""]
    assert rc == 0 and "RACECHECK SUMMARY: 0 hazards" in out and "all local-memory kernels ran" in out, out
    # The disjoint stores ran without a barrier between them (one bar.sync, before
    # the transposed read), right and race-free; so did the ping-pong's read of
    # one slot and write of the other.
    assert "disjoint stores: bar.sync in its PTX: 1 read right: True" in out, out
    assert "pingpong: right: True" in out, out
    rc, out = outputs["--no-barriers"]
    assert rc == 9, out
    assert "disjoint_stores_transpose+" in out, out
    assert "pingpong_rotate+" in out, out
    line = next(i for i, text in enumerate(open(K.__file__), 1) if "tl.store(tle.gpu.local_ptr(tile, (rows, cols)), t)" in text)
    assert "Race reported between Write access at late_writer_transpose+" in out, out
    assert f"local_memory_kernels.py:{line}" in out, out


@pytest.mark.parametrize("steps", [0, 1, 2, 7, 64])
def test_pingpong_rotate(steps):
    """Two slots, one barrier a step (the read of slot i % 2 and the write of
    slot (i + 1) % 2 unsynchronized): the rotation comes out right."""
    n = 128
    x = torch.randint(-1000, 1000, (n,), device=DEV, dtype=torch.int32)
    y = torch.empty_like(x)
    K.pingpong_rotate[(1,)](x, y, steps, N=n)
    torch.testing.assert_close(y, torch.roll(x, -steps) + steps, rtol=0, atol=0)


@pytest.mark.parametrize("n_rows", [0, 17, 64])
def test_masked_dot_rows(n_rows):
    """A row-masked store of a dot result (a read-modify-write in the MMA
    layout): the rows the mask leaves out keep the -1 stored before."""
    a = torch.randn(64, 32, device=DEV, dtype=torch.float16)
    b = torch.randn(32, 64, device=DEV, dtype=torch.float16)
    y = torch.empty(64, 64, device=DEV, dtype=torch.float32)
    K.masked_dot_rows[(1,)](a, b, y, n_rows, M=64, N=64, K=32)
    want = torch.full_like(y, -1.0)
    want[:n_rows] = a[:n_rows].float() @ b.float()
    torch.testing.assert_close(y, want, rtol=1e-3, atol=1e-3)


@gpu_only
@pytest.mark.parametrize("valid", [0, 5, 64])
def test_gathered_rows_dot_after_nan_shared_memory(valid):
    """Shared memory left full of NaNs by an earlier kernel (fill_shared on
    every SM), then gathered_rows_dot with `valid` of 64 ids valid: the rows
    its masked store leaves out read as zeros (triton-tle-zero-partial-
    buffers), so the invalid columns come out -inf, never NaN."""
    torch.manual_seed(valid)
    q = torch.randn(64, 64, device=DEV, dtype=torch.float16)
    kv = torch.randn(256, 64, device=DEV, dtype=torch.float16)
    ids = torch.randint(0, 256, (64,), device=DEV, dtype=torch.int32)
    ids[valid:] = -1
    ids = ids[torch.randperm(64, device=DEV)]
    y = torch.empty(64, 64, device=DEV, dtype=torch.float32)
    sms = torch.cuda.get_device_properties(DEV).multi_processor_count
    K.fill_shared[(sms * 4,)](-1, num_warps=4)
    K.gathered_rows_dot[(1,)](q, kv, ids, y, M=64, N=64, D=64, num_warps=4)
    ok = ids >= 0
    s = q.float() @ kv[ids.clamp(min=0).long()].float().T
    want = torch.where(ok[None, :], s, float("-inf")).expand(64, 64)
    assert not torch.isnan(y).any(), y
    torch.testing.assert_close(y, want, rtol=2e-3, atol=2e-3)


def test_whole_buffer_stage_roundtrip():
    x = torch.randn(64, 64, device=DEV, dtype=torch.float16)
    y = torch.empty_like(x)
    K.stage_roundtrip[(1,)](x, y, M=64, N=64)
    torch.testing.assert_close(y, x * 2, rtol=0, atol=0)


def test_buffer_methods_roundtrip():
    x = torch.randn(64, 64, device=DEV, dtype=torch.float16)
    y = torch.empty_like(x)
    K.stage_roundtrip_methods[(1,)](x, y, M=64, N=64)
    torch.testing.assert_close(y, (x + 1 + 1) * 2, rtol=0, atol=0)


def test_reshaped_view_reads_and_writes_the_buffer_row_major():
    r, c, g = 32, 512, 4
    x = torch.randn(r, c, device=DEV).to(torch.float16)
    y, z = torch.empty_like(x), torch.empty_like(x)
    K.reshaped_view_gather[(1,)](x, y, z, R=r, C=c, G=g)
    torch.testing.assert_close(y, x, rtol=0, atol=0)
    expected = x * 2
    expected.view(r * g, c // g)[1, 2] = -1.0
    torch.testing.assert_close(z, expected, rtol=0, atol=0)


@pytest.mark.parametrize("n", [1000, 8192, 33])
def test_segment_max_and_scalar_slot(n):
    segs = 32
    x = torch.randint(-10**6, 10**6, (n,), device=DEV, dtype=torch.int32)
    out = torch.empty(segs + 1, device=DEV, dtype=torch.int32)
    K.segment_max[(1,)](x, out, n, BLOCK=256, SEGS=segs)
    padded = torch.full((((n + segs - 1) // segs) * segs,), -2**31, device=DEV, dtype=torch.int32)
    padded[:n] = x
    expected = padded.view(-1, segs).max(dim=0).values
    torch.testing.assert_close(out[:segs], expected, rtol=0, atol=0)
    assert out[segs].item() == n


def test_atomic_cas_one_winner_per_slot():
    slots = 64
    out = torch.empty(slots + 1, device=DEV, dtype=torch.int32)
    K.claim_slots[(1,)](out, SLOTS=slots)
    winners = out[:slots].cpu()
    assert out[slots].item() == slots  # exactly one success per slot
    for s in range(slots):  # the winner of slot s is one of the ids mapping to it
        assert (int(winners[s]) - 1) % slots == s


def test_used_atomic_results_reach_every_replica():
    """16 counters over 128 threads, three rounds: every thread stores the
    old value it got, so a replica that missed the owner's would write 0
    over the owner's r; the scalar add and CAS results likewise."""
    n, rounds = 16, 3
    out = torch.full((rounds + 1, n), -1, device=DEV, dtype=torch.int32)
    K.ticket_rounds[(1,)](out, N=n, ROUNDS=rounds, num_warps=4)
    expected = torch.arange(rounds, device=DEV, dtype=torch.int32)[:, None].expand(rounds, n)
    torch.testing.assert_close(out[:rounds], expected, rtol=0, atol=0)
    assert out[rounds, 0].item() == 0 and out[rounds, 1].item() == 2


@gpu_only
@pytest.mark.parametrize("clusters", [1, 3])
def test_remote_atomic_prefix(clusters):
    """Each CTA's old values of rank 0's totals are its prefix: one of the
    two ranks sees zeros, the other the first's counts; the totals sum."""
    n = 64
    counts = torch.randint(0, 100, (clusters * 2, n), device=DEV, dtype=torch.int32)
    out = torch.full((clusters, 3, n), -1, device=DEV, dtype=torch.int32)
    K.cluster_prefix[(clusters,)](counts, out, N=n, MESH=K.CLUSTER2, num_warps=4)
    c = counts.view(clusters, 2, n)
    torch.testing.assert_close(out[:, 2], c.sum(1).to(torch.int32), rtol=0, atol=0)
    # Per element, one rank came first (prefix 0) and the other saw its count.
    first0 = (out[:, 0] == 0) & (out[:, 1] == c[:, 0])
    first1 = (out[:, 1] == 0) & (out[:, 0] == c[:, 1])
    assert bool((first0 | first1).all())


@gpu_only
@pytest.mark.parametrize("clusters", [1, 3])
def test_cluster_exchange(clusters):
    n = 128
    out = torch.full((clusters, 2, n), -1, device=DEV, dtype=torch.int32)
    compiled = K.cluster_exchange[(clusters,)](out, N=n, MESH=K.CLUSTER2)
    assert compiled.metadata.num_ctas == 2
    i = torch.arange(n, device=DEV, dtype=torch.int32)
    for c in range(clusters):
        for rank in range(2):
            torch.testing.assert_close(out[c, rank], 1000 * (1 - rank) + i + 100000 * c, rtol=0, atol=0)


@gpu_only
def test_cluster_histogram_remote_atomics():
    n, bins = 50_000, 128
    x = torch.randint(0, bins, (n,), device=DEV, dtype=torch.int32)
    out = torch.full((bins,), -1, device=DEV, dtype=torch.int32)
    K.cluster_histogram[(1,)](x, out, n, BLOCK=256, BINS=bins, MESH=K.CLUSTER2)
    torch.testing.assert_close(out, torch.bincount(x.long(), minlength=bins).to(torch.int32), rtol=0, atol=0)
