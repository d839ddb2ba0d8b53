"""tle.pipe + tle.gpu.warp_specialize on the GPU, against torch.

Skips without a CUDA GPU. Run on the H100 through the device tool:
    python -m pytest -q python/test/test_pipe_gpu.py
"""

import os
import shutil
import subprocess
import sys

import pytest
import torch

import tle
from conftest import compute_sanitizer, has_gpu
import pipe_kernels as K

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("fill", ["registers", "async"])
@pytest.mark.parametrize("stages", [1, 2, 3, 4])
@pytest.mark.parametrize("producer_warps", [1, 2, 4])
@pytest.mark.parametrize("n_tiles,programs", [(1, 1), (7, 3), (64, 132)])
def test_ring_copy(stages, producer_warps, n_tiles, programs, fill):
    """fill="async": tle.gpu.copy(is_async=True) fills the slots by cp.async."""
    block = 256
    src = torch.randn(programs * n_tiles * block, device="cuda")
    dst = torch.full_like(src, float("nan"))
    K.ring_copy[(programs,)](src, dst, n_tiles, BLOCK=block, STAGES=stages, PRODUCER_WARPS=producer_warps,
                             ASYNC=fill == "async", num_warps=4)
    torch.testing.assert_close(dst, src * 2 + 1, rtol=0, atol=0)


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("n_tiles", [1, 5, 100])
def test_fan_out_two_readers(stages, n_tiles):
    block = 128
    src = torch.randn(n_tiles * block, device="cuda")
    a = torch.full_like(src, float("nan"))
    b = torch.full_like(src, float("nan"))
    K.fan_out[(1,)](src, a, b, n_tiles, BLOCK=block, STAGES=stages, num_warps=4)
    torch.testing.assert_close(a, src * 2, rtol=0, atol=0)
    torch.testing.assert_close(b, src * 3, rtol=0, atol=0)


@pytest.mark.parametrize("fill", ["registers", "async"])
@pytest.mark.parametrize("stages", [1, 2])
@pytest.mark.parametrize("n_tiles", [0, 1, 9])
def test_close_ends_the_stream(stages, n_tiles, fill):
    """fill="async": the close of a cp.async-filled pipe must arrive as its
    commits do (the ready barrier counts the writer's threads)."""
    block = 128
    src = torch.randn(max(n_tiles, 1) * block, device="cuda")
    dst = torch.full((block,), float("nan"), device="cuda")
    count = torch.full((1,), -1, device="cuda", dtype=torch.int32)
    K.stream_sum[(1,)](src, dst, count, n_tiles, n_tiles + 3, BLOCK=block, STAGES=stages, ASYNC=fill == "async",
                       num_warps=4)
    assert count.item() == n_tiles
    expect = src[:n_tiles * block].view(n_tiles, block).sum(0) if n_tiles else torch.zeros(block, device="cuda")
    torch.testing.assert_close(dst, expect, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m,n", [(32, 64), (64, 128)])
def test_one_shot_tile(m, n):
    src = torch.randn(m, n, device="cuda")
    dst = torch.full_like(src, float("nan"))
    K.one_shot_tile[(1,)](src, dst, M=m, N=n, num_warps=4)
    torch.testing.assert_close(dst, src + src.sum(1, keepdim=True), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("m,n", [(32, 64), (64, 128)])
def test_one_shot_writer_before_warp_specialize(m, n):
    src = torch.randn(m, n, device="cuda")
    dst = torch.full_like(src, float("nan"))
    dst2 = torch.full_like(src, float("nan"))
    for _ in range(3):
        K.one_shot_before[(132,)](src, dst, dst2, M=m, N=n, num_warps=4)
        torch.testing.assert_close(dst, src + src.sum(1, keepdim=True), rtol=1e-5, atol=1e-4)
        torch.testing.assert_close(dst2, 2 * src)


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles,programs", [(1, 1), (9, 132)])
def test_local_pointers_into_slots(stages, n_tiles, programs):
    """FlagTree's local_ptr(slot.field, ...): a masked store over a whole
    tile keeps what its mask leaves out; a scatter through indexed pointers
    lands where its indices say; each round's slot is its own."""
    block, keep = 128, 48
    src = torch.randn(n_tiles * block, device="cuda")
    for _ in range(programs // 66 + 1):  # several launches: slots reused
        dst_k = torch.full_like(src, float("nan"))
        dst_g = torch.full_like(src, float("nan"))
        K.slot_pointers[(programs,)](src, dst_k, dst_g, n_tiles, BLOCK=block, STAGES=stages, KEEP=keep, num_warps=4)
        tiles = src.view(n_tiles, block)
        expect_k = torch.where(torch.arange(block, device="cuda") < keep, tiles, -tiles)
        torch.testing.assert_close(dst_k.view(n_tiles, block), expect_k, rtol=0, atol=0)
        torch.testing.assert_close(dst_g.view(n_tiles, block), 10 * tiles.flip(1), rtol=0, atol=0)


@pytest.mark.parametrize("m,n", [(32, 64), (64, 128)])
def test_one_shot_pipe_read_where_written(m, n):
    src = torch.randn(m, n, device="cuda")
    for _ in range(3):
        dst = torch.full_like(src, float("nan"))
        dst2 = torch.full_like(src, float("nan"))
        K.one_shot_self[(132,)](src, dst, dst2, M=m, N=n, num_warps=4)
        torch.testing.assert_close(dst, 2 * src, rtol=0, atol=0)
        torch.testing.assert_close(dst2, src + 1, rtol=0, atol=0)


@pytest.mark.parametrize("programs", [1, 3])
def test_tma_q_handoff(programs):
    """One-shot slots filled and stored out by synchronous TMA copies in
    place, read in place by wgmma (FlagTree's sparse-MLA Q): out[:, :D] and
    out[:, D:] hold q_l @ k and q_r @ k in their left halves, q in their
    right halves."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    m, d = 64, 64
    q = (torch.randn(programs * m, 2 * d, device="cuda") / 4).half()
    k = (torch.randn(d, d, device="cuda") / 4).half()
    out = torch.full_like(q, float("nan"))
    K.tma_q_handoff[(programs,)](TensorDescriptor.from_tensor(q, [m, d]), k, TensorDescriptor.from_tensor(out, [m, d]),
                                 M=m, D=d, num_warps=4)
    for half in (slice(0, d), slice(d, 2 * d)):
        prod = (q[:, half].float() @ k.float()).half()
        expect = torch.cat([prod[:, :d // 2], q[:, half][:, d // 2:]], dim=1)
        torch.testing.assert_close(out[:, half], expect, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("n_tiles", [1, 2, 7])
def test_guarded_p(n_tiles):
    """A plain buffer a capacity-1 pipe guards, read in place by wgmma (FlagTree's
    sparse-MLA P tile): each tile arrives before it is read and is not
    overwritten while the wgmma reads it."""
    m, kk, d = 64, 64, 64
    x = (torch.randn(n_tiles * m, kk, device="cuda") / 4).half()
    v = (torch.randn(kk, d, device="cuda") / 4).half()
    out = torch.full((m, d), float("nan"), device="cuda")
    K.guarded_p[(1,)](x, v, out, n_tiles, M=m, K=kk, D=d, num_warps=4)
    expect = torch.zeros(m, d, device="cuda")
    for i in range(n_tiles):
        expect = expect * (i + 1) + x[i * m:(i + 1) * m].float() @ v.float()
    torch.testing.assert_close(out, expect, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("n_tiles", [1, 2, 5])
def test_kv_halves(n_tiles):
    """One buffer guarded by two pipes, a column half each, written and read
    through rectangular local pointers and read in place by wgmma (FlagTree's
    FlashMLA prefill KV): every tile's halves arrive before they are read,
    are not overwritten while a wgmma reads them, and a row the masked store
    skips keeps the last tile's row (the read-modify-write)."""
    m, bn, d = 64, 64, 64
    gen = torch.Generator(device="cuda").manual_seed(n_tiles)
    q = (torch.randn(m, 2 * d, device="cuda", generator=gen) / 4).half()
    kv = (torch.randn(4 * bn, 2 * d, device="cuda", generator=gen) / 4).half()
    idx = torch.randint(0, 4 * bn, (n_tiles, bn), device="cuda", generator=gen, dtype=torch.int32)
    idx[1:, ::3] = -1  # tile 0 writes every row; later tiles skip every third
    out = torch.full((m, 2 * d), float("nan"), device="cuda")
    K.kv_halves[(1,)](q, kv, idx, out, n_tiles, M=m, BN=bn, D=d, num_warps=4)
    expect = torch.zeros(m, 2 * d, device="cuda")
    k = torch.zeros(bn, 2 * d, device="cuda", dtype=torch.half)
    for i in range(n_tiles):
        keep = idx[i] < 0
        k = torch.where(keep[:, None], k, kv[idx[i].clamp(min=0).long()])
        s = (q.float() @ k.float().T).half()
        expect += s.float() @ k.float()
    torch.testing.assert_close(out, expect, rtol=2e-2, atol=2e-2)


def _check_ring_dot(kernel, stages, n_tiles, **extra):
    m, bn, d = 64, 32, 64
    q = (torch.randn(m, d, device="cuda") / 4).half()
    kv = (torch.randn(n_tiles * bn, d, device="cuda") / 4).half()
    out = torch.full((m, d), float("nan"), device="cuda")
    kernel[(1,)](q, kv, out, n_tiles, M=m, BN=bn, D=d, STAGES=stages, num_warps=4, **extra)
    expect = torch.zeros(m, d, device="cuda")
    for k in kv.view(n_tiles, bn, d):
        s = (q.float() @ k.float().T).half()
        expect += s.float() @ k.float()
    torch.testing.assert_close(out, expect, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles", [1, 2, 17])
def test_ring_dot_wgmma_reads_slots(stages, n_tiles):
    _check_ring_dot(K.ring_dot, stages, n_tiles)


def _gather_rows(n_rows, count, gen):
    """count row indices into a table of n_rows, a few of them outside it
    (TMA reads those as zeros)."""
    idx = torch.randint(0, n_rows, (count,), generator=gen, dtype=torch.int32)
    out = torch.randint(0, count, (max(1, count // 16),), generator=gen)
    idx[out] = torch.tensor([-1, n_rows, n_rows + 5, -7], dtype=torch.int32).repeat(len(out))[:len(out)]
    return idx.cuda()


def _gathered(table, idx, col, w):
    """table[idx, col:col + w] with rows outside the table read as zeros."""
    inside = (idx >= 0) & (idx < table.shape[0])
    rows = table[idx.clamp(0, table.shape[0] - 1).long(), col:col + w]
    return torch.where(inside[:, None], rows, torch.zeros_like(rows))


@pytest.mark.parametrize("dtype,w,col", [(torch.float16, 64, 0), (torch.bfloat16, 64, 64),
                                         (torch.float32, 32, 96), (torch.float16, 128, 0)])
@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("producer_warps", [1, 4])
@pytest.mark.parametrize("n_tiles,bn", [(1, 8), (7, 64), (40, 32)])
def test_ring_gather_tma_fills(dtype, w, col, stages, producer_warps, n_tiles, bn):
    """tle.gpu.copy from a tensor descriptor: TMA row gathers (sm_90: one-row
    tile copies) into the slots, committed with expect_tx; rows outside the
    table read as zeros; 128 fp16 columns are two 64-column TMA boxes."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    gen = torch.Generator().manual_seed(n_tiles * 131 + w + col + stages)
    table = torch.randn(1000, 128, generator=gen).to(dtype).cuda()
    idx = _gather_rows(table.shape[0], n_tiles * bn, gen)
    out = torch.full((n_tiles * bn, w), float("nan"), dtype=dtype, device="cuda")
    desc = TensorDescriptor(table, list(table.shape), list(table.stride()), [1, w])
    K.ring_gather[(1,)](desc, idx, out, n_tiles, BN=bn, W=w, STAGES=stages, COL=col,
                        PRODUCER_WARPS=producer_warps, num_warps=4)
    torch.testing.assert_close(out, _gathered(table, idx, col, w), rtol=0, atol=0)


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles", [1, 2, 17])
def test_ring_gather_dot_wgmma_reads_tma_filled_slots(stages, n_tiles):
    """Gathered slots read in place by the consumer's wgmmas (as K^T and V):
    the TMA's swizzle by destination address is the layout wgmma reads."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    m, bn, d = 64, 32, 64
    gen = torch.Generator().manual_seed(n_tiles + 10 * stages)
    q = (torch.randn(m, d, generator=gen) / 4).half().cuda()
    table = (torch.randn(500, d, generator=gen) / 4).half().cuda()
    idx = _gather_rows(table.shape[0], n_tiles * bn, gen)
    out = torch.full((m, d), float("nan"), device="cuda")
    desc = TensorDescriptor(table, list(table.shape), list(table.stride()), [1, d])
    K.ring_gather_dot[(1,)](q, desc, idx, out, n_tiles, M=m, BN=bn, D=d, STAGES=stages, num_warps=4)
    kv = _gathered(table, idx, 0, d)
    expect = torch.zeros(m, d, device="cuda")
    for k in kv.view(n_tiles, bn, d):
        s = (q.float() @ k.float().T).half()
        expect += s.float() @ k.float()
    torch.testing.assert_close(out, expect, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles", [1, 2, 17, 64])
def test_ring_dot_wgmma_reads_async_filled_slots(stages, n_tiles):
    """Slots filled by cp.async (tle.gpu.copy(is_async=True)), published by
    cp.async.mbarrier.arrive, read in place by the consumer's wgmmas."""
    _check_ring_dot(K.ring_dot, stages, n_tiles, ASYNC=True)


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles", [0, 1, 9, 64])
def test_default_partition_returns_reduction(stages, n_tiles):
    """The default partition sums what it consumed and returns (tile sum, its total, count);
    the epilogue after warp_specialize stores them."""
    block = 256
    src = torch.randn(max(n_tiles, 1) * block, device="cuda")
    dst = torch.full((block,), float("nan"), device="cuda")
    total = torch.full((1,), float("nan"), device="cuda")
    count = torch.full((1,), -1, device="cuda", dtype=torch.int32)
    K.ring_sum[(1,)](src, dst, total, count, n_tiles, BLOCK=block, STAGES=stages, num_warps=4)
    expect = src[:n_tiles * block].view(n_tiles, block).sum(0) if n_tiles else torch.zeros(block, device="cuda")
    assert count.item() == n_tiles
    torch.testing.assert_close(dst, expect, rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(total, expect.sum().view(1), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles", [1, 2, 17])
def test_ring_dot_result_epilogue_after(stages, n_tiles):
    """ring_dot with the accumulator returned and stored after warp_specialize: the store's
    layout conversion reuses the slots' shared memory once every partition is done."""
    _check_ring_dot(K.ring_dot_result, stages, n_tiles)



@pytest.mark.skipif(compute_sanitizer() is None, reason="needs compute-sanitizer")
def test_synccheck_clean_on_every_pipe_protocol(tmp_path):
    """synccheck_pipes.py under compute-sanitizer's synccheck: the pipe
    kernels (register and cp.async fills, 1-4 producer warps, two readers, a
    closed pipe, a one-shot pipe, wgmma reading async-filled slots) report no
    invalid use of their barriers, and every result is right."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "synccheck_pipes.py")
    env = dict(os.environ, TRITON_CACHE_DIR=str(tmp_path))
    run = subprocess.run([compute_sanitizer(), "--tool", "synccheck", "--error-exitcode", "9", sys.executable, script],
                         env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 0 and "ERROR SUMMARY: 0 errors" in out and "all pipe kernels ran" in out, out


@pytest.mark.skipif(compute_sanitizer() is None or shutil.which("nvcc") is None,
                    reason="needs compute-sanitizer and nvcc")
def test_racecheck_follows_only_per_thread_mbarrier_arrives(tmp_path):
    """Why racecheck is no check of tle.pipe (it reports hazards on every pipe
    kernel, the simplest register ring included, whose results are exact):
    it orders shared-memory accesses through an mbarrier only for the threads
    that arrive themselves. racecheck_mbarrier.cu: every writer arriving, 0
    hazards; writers meeting at bar.sync before one thread arrives (a pipe
    commit; ordered by the PTX memory model), the same hazard as no
    synchronization at all. If this starts failing, racecheck has learnt the
    second form, and the pipe kernels should get a racecheck test."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "racecheck_mbarrier.cu")
    exe = str(tmp_path / "racecheck_mbarrier")
    subprocess.run(["nvcc", "-arch=sm_90", "-O2", "-o", exe, src], check=True, capture_output=True, timeout=300)
    out = {}
    for mode in (0, 1, 2):
        run = subprocess.run([compute_sanitizer(), "--tool", "racecheck", exe, str(mode)],
                             capture_output=True, text=True, timeout=120)
        out[mode] = run.stdout + run.stderr
        assert f"mode {mode}: right" in out[mode], out[mode]
    assert "RACECHECK SUMMARY: 0 hazards" in out[0], out[0]
    for mode in (1, 2):
        assert "Race reported between Read access" in out[mode], out[mode]


@pytest.mark.parametrize("gather", [False, True])
@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize("n_tiles,split,programs", [(1, 0, 1), (7, 4, 3), (50, 17, 132)])
def test_cursor_ring(stages, n_tiles, split, programs, gather):
    """FlagTree's cursors: both endpoints carry (stage, phase); the producer
    recomputes its cursor from the iteration at `split` mid-stream; each tile
    comes back through slot i % stages; the reader's wait after the last tile
    sees the close. gather: the slots are filled by TMA row gathers."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    r, block = (8, 128) if gather else (1, 128)
    src = torch.randn(programs * n_tiles * r, block, device="cuda")
    dst = torch.full_like(src, float("nan"))
    stage_out = torch.full((programs,), -1, dtype=torch.int32, device="cuda")
    arg = TensorDescriptor.from_tensor(src, [1, block]) if gather else src
    K.cursor_ring[(programs,)](arg, dst, stage_out, n_tiles, split, R=r, BLOCK=block, STAGES=stages, GATHER=gather,
                               num_warps=4)
    tile_stage = (torch.arange(programs * n_tiles, device="cuda") % n_tiles % stages).float()
    want = src * 2 + tile_stage.repeat_interleave(r)[:, None]
    torch.testing.assert_close(dst, want, rtol=0, atol=0)
    assert stage_out.tolist() == [100 + n_tiles % stages] * programs


@pytest.mark.parametrize("stages", [1, 2])
@pytest.mark.parametrize("n_tiles", [1, 9])
def test_readers_of_field_subsets(stages, n_tiles):
    """FlagTree's pipe.reader(name, fields=...): reader "a" sees k, "b" sees v."""
    block = 128
    src = torch.randn(n_tiles * block, device="cuda")
    k = torch.full_like(src, float("nan"))
    v = torch.full_like(src, float("nan"))
    K.field_subsets[(1,)](src, k, v, n_tiles, BLOCK=block, STAGES=stages, num_warps=4)
    torch.testing.assert_close(k, src, rtol=0, atol=0)
    torch.testing.assert_close(v, src * 10, rtol=0, atol=0)
