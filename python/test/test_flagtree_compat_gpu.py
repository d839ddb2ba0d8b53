"""FlagTree's TLE kernels on TLE, on the GPU, against torch:
the kernels of flagtree_compat_kernels.py (in the style of FlagTree's public
tests, FlagTree's import line) launched the usual way with TLE enabled.

Skips without a CUDA GPU; the TMA tests also without sm_90. Run on the H100
through the device tool:
    python -m pytest -q python/test/test_flagtree_compat_gpu.py
With TRITON_INTERPRET=1 every test runs on the CPU in Triton's interpreter
(docs/interpreter.md): test_interpret.py runs this file so in CI.
"""

import pytest
import torch
import triton

import tle
from conftest import gpu_device, has_gpu, interpreting, needs_gpu_or_interpreter
import flagtree_compat_kernels as K

pytestmark = needs_gpu_or_interpreter
DEV = gpu_device()


def _hopper() -> bool:
    """TMA descriptors: sm_90 (the interpreter runs them on the host)."""
    return interpreting() or (has_gpu() and torch.cuda.get_device_capability()[0] >= 9)


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


@pytest.mark.parametrize("rows,cols,BR,BC", [(512, 512, 64, 64), (256, 256, 32, 32), (2048, 512, 128, 32),
                                           (512, 2048, 32, 128), (100, 300, 32, 64)])
def test_staged_axpby(rows, cols, BR, BC):
    torch.manual_seed(rows + cols)
    # Inputs padded to whole blocks (tle.copy copies whole blocks); the
    # output store is masked.
    R, C = triton.cdiv(rows, BR) * BR, triton.cdiv(cols, BC) * BC
    x = torch.randn(R, C, device=DEV)
    y = torch.randn(R, C, device=DEV)
    out = torch.zeros(rows, cols, device=DEV)
    K.staged_axpby_kernel[(triton.cdiv(rows, BR),)](x, y, out, rows, cols, x.stride(0), y.stride(0), out.stride(0),
                                                    1.5, -0.25, BR, BC)
    torch.testing.assert_close(out, (1.5 * x - 0.25 * y)[:rows, :cols], atol=1e-5, rtol=1e-5)


def test_staged_diff():
    torch.manual_seed(42)
    x = torch.randn(512, 512, device=DEV)
    y = torch.randn(512, 512, device=DEV)
    out = torch.empty_like(x)
    K.staged_diff_kernel[(512 // 32,)](x, y, out, 512, x.stride(0), BR=32, BC=64)
    torch.testing.assert_close(out, x - y, atol=0, rtol=0)


@pytest.mark.parametrize("stages", [2, 3])
def test_pipeline_without_buffers(stages):
    n, block = 10_000, 256
    a = torch.randn(n, device=DEV)
    b = torch.randn(n, device=DEV)
    c = torch.empty(block, device=DEV)
    K.pipeline_global_add_kernel[(1,)](a, b, c, n, BLOCK=block, STAGES=stages)
    pad = torch.zeros(triton.cdiv(n, block) * block, device=DEV)
    pad[:n] = a * b
    torch.testing.assert_close(c, pad.view(-1, block).sum(0), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_copy_staged_matmul(dtype):
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.manual_seed(0)
    M, N, K_, blk = 256, 192, 320, 64
    a = torch.randn(M, K_, device=DEV, dtype=dtype)
    b = torch.randn(K_, N, device=DEV, dtype=dtype)
    c = torch.empty(M, N, device=DEV, dtype=torch.float32)
    import triton.language as tl
    K.copy_staged_matmul_kernel[(M // blk, N // blk)](a, b, c, M, N, K_, *a.stride(), *b.stride(), *c.stride(),
                                                      BM=blk, BN=blk, BK=blk,
                                                      DTYPE=tl.float32 if dtype == torch.float32 else tl.float16)
    expected = a.float() @ b.float()
    tol = 1e-3 if dtype == torch.float32 else 2e-2
    torch.testing.assert_close(c, expected, atol=tol, rtol=tol)


def test_offsets_reverse():
    x = torch.randn(128, device=DEV)
    out = torch.empty_like(x)
    K.offsets_reverse_kernel[(1,)](x, out, BLOCK=128)
    torch.testing.assert_close(out, x.flip(0), atol=0, rtol=0)


def test_offsets_transpose():
    x = torch.arange(16 * 8, device=DEV, dtype=torch.int32).view(16, 8)
    out = torch.empty(16 * 8, device=DEV, dtype=torch.int32)
    K.offsets_transpose_kernel[(1,)](x, out, ROWS=16, COLS=8)
    torch.testing.assert_close(out, x.t().flatten(), atol=0, rtol=0)


@pytest.mark.parametrize("start", [1, 32, 96])
def test_column_window(start):
    x = torch.randn(16, 128, device=DEV)
    out = torch.empty(16, 32, device=DEV)
    K.column_window_kernel[(1,)](x, out, ROWS=16, COLS=128, SLICE=32, START=start)
    torch.testing.assert_close(out, x[:, start:start + 32], atol=0, rtol=0)


def test_offsets_masked_gather():
    x = torch.randn(8, 32, device=DEV)
    n = 100
    idx = torch.randint(0, 8 * 32, (128,), device=DEV, dtype=torch.int32)
    out = torch.full((128,), 7.0, device=DEV)
    K.offsets_masked_gather_kernel[(1,)](x, idx, out, n, ROWS=8, COLS=32, BLOCK=128)
    expected = torch.full((128,), 7.0, device=DEV)
    expected[:n] = x.flatten()[idx[:n].long()]
    torch.testing.assert_close(out, expected, atol=0, rtol=0)


@pytest.mark.skipif(not _hopper(), reason="TMA needs sm_90")
@pytest.mark.parametrize("rows,cols,BR,BC,evict", [(512, 512, 32, 64, ""), (256, 256, 16, 128, ""),
                                                 (256, 256, 64, 32, "evict_last"), (500, 300, 32, 64, "evict_first")])
def test_tma_blend(rows, cols, BR, BC, evict):
    """Non-divisible shapes: out-of-bounds elements of the last blocks are
    read as zeros and not written back."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    torch.manual_seed(rows + BR)
    a = torch.randn(rows, cols, device=DEV)
    b = torch.randn(rows, cols, device=DEV)
    out = torch.full_like(a, 123.0)
    descs = [TensorDescriptor.from_tensor(t, block_shape=[BR, BC]) for t in (a, b, out)]
    K.tma_blend_kernel[(triton.cdiv(rows, BR),)](*descs, cols, BR, BC, EVICT=evict)
    torch.testing.assert_close(out, torch.maximum(a, b) - a, atol=0, rtol=0)


@pytest.mark.skipif(not _hopper(), reason="TMA needs sm_90")
def test_tma_roundtrip():
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.randn(256, 192, device=DEV, dtype=torch.float16)
    y = torch.zeros_like(x)
    xd = TensorDescriptor.from_tensor(x, block_shape=[64, 64])
    yd = TensorDescriptor.from_tensor(y, block_shape=[64, 64])
    K.tma_roundtrip_kernel[(4, 3)](xd, yd, BM=64, BN=64)
    torch.testing.assert_close(y, x * 2, atol=0, rtol=0)


@pytest.mark.parametrize("read_pointers", [0, 1, 2])
def test_two_group_async_copy(read_pointers):
    """FlagTree's two-group kernel: the first group is read after
    async_wait_group(1), the second after async_wait_group(0)."""
    block = 64
    inp = torch.arange(2 * block, device=DEV, dtype=torch.float32)
    out = torch.empty_like(inp)
    K.two_group_async_copy_kernel[(1,)](inp, out, BLOCK=block, READ_POINTERS=read_pointers, num_warps=4)
    torch.testing.assert_close(out, torch.cat((inp[:block] + 1.0, inp[block:] + 2.0)), atol=0, rtol=0)


@pytest.mark.parametrize("rows,columns", [(7, 12), (0, 12), (8, 128)])
def test_masked_async_copy_zero_fills(rows, columns):
    source = torch.arange(rows * columns, device=DEV, dtype=torch.float32).reshape(rows, columns)
    output = torch.full((12, 128), float("nan"), device=DEV)
    K.masked_async_copy_kernel[(3,)](source, output, rows, columns, 4, 128, num_warps=4)
    expected = torch.zeros_like(output)
    expected[:rows, :columns] = source
    torch.testing.assert_close(output, expected, atol=0, rtol=0)


@pytest.mark.parametrize("n_tiles", [1, 2, 37])
@pytest.mark.parametrize("read_pointers", [0, 1, 2])
def test_async_copy_ring(n_tiles, read_pointers):
    """Tile i + 1 lands in one slot while tile i is read from the other
    (slot loads, or local pointers into the whole buffer)."""
    block = 256
    inp = torch.randn(n_tiles * block, device=DEV)
    out = torch.full_like(inp, float("nan"))
    K.async_copy_ring_kernel[(1,)](inp, out, n_tiles, BLOCK=block, READ_POINTERS=read_pointers, num_warps=4)
    torch.testing.assert_close(out, inp * 3.0, atol=0, rtol=0)


def test_local_pointers_through_slots():
    """Writes through buf.slot(1), buf.slot(1).slot(1) and buf.slot(0).slot(1)
    read back through pointers into the whole buffer (and buf.slot(0))."""
    block = 64
    out = torch.full((3 * block, ), -1, dtype=torch.int32, device=DEV)
    K.slot_pointers_kernel[(1,)](out, BLOCK=block, num_warps=4)
    idx = torch.arange(block, dtype=torch.int32, device=DEV)
    torch.testing.assert_close(out, torch.cat([idx + 7, idx * 3, idx - 5]), atol=0, rtol=0)


# --- cluster kernels with FlagTree's program ids (flagtree_cluster_kernels.py) -------------------

needs_cluster_gpu = pytest.mark.skipif(
    interpreting() or not (has_gpu() and torch.cuda.get_device_capability()[0] >= 9),
    reason="thread-block clusters need an sm_90 GPU (the interpreter runs no cluster kernels)")


@needs_cluster_gpu
@pytest.mark.parametrize("clusters", [1, 2, 33])
def test_cluster_peer_exchange_by_program_id(clusters):
    """A grid of G runs G clusters of 2 CTAs, 2G programs: program pid writes
    pid * BLOCK + i and reads the buffer of the rank shard_id[pid] of its own
    cluster, so out[pid] is that peer's values (its global id pid - pid % 2 +
    shard)."""
    import flagtree_cluster_kernels as C
    block = 128
    programs = 2 * clusters
    gen = torch.Generator().manual_seed(clusters)
    shard = torch.randint(0, 2, (programs, ), generator=gen, dtype=torch.int32).to(DEV)
    out = torch.full((programs * block, ), -1.0, device=DEV)
    C.peer_exchange_kernel[(clusters, )](out, shard, mesh=C.CLUSTER2, BLOCK=block, num_warps=4)
    pid = torch.arange(programs, device=DEV)
    peer = pid - pid % 2 + shard.long()
    expected = (peer[:, None] * block + torch.arange(block, device=DEV)[None, :]).float().flatten()
    torch.testing.assert_close(out, expected, atol=0, rtol=0)


@needs_cluster_gpu
def test_cluster_program_ids_count_ctas():
    """tl.num_programs(0) is G x C and a CTA's rank is pid % C."""
    import flagtree_cluster_kernels as C
    clusters = 5
    out = torch.full((clusters * 4, 3), -1, dtype=torch.int32, device=DEV)
    C.program_ids_kernel[(clusters, )](out, mesh=C.CLUSTER4, num_warps=4)
    pid = torch.arange(clusters * 4, device=DEV, dtype=torch.int32)
    expected = torch.stack([torch.full_like(pid, clusters * 4), pid // 4, pid % 4], dim=1)
    torch.testing.assert_close(out, expected, atol=0, rtol=0)


@needs_cluster_gpu
@pytest.mark.parametrize("cluster", [2, 4])
def test_cluster_shared_a_gemm(cluster):
    """C[g] = A[g] @ B with A staged once per cluster (rank 0) and read by
    every rank through tle.remote; cluster_id = pid // CLUSTER_SIZE."""
    import flagtree_cluster_kernels as C
    groups, bm, bn, k = 6, 64, 32, 64
    torch.manual_seed(cluster)
    a = torch.randn(groups, bm, k, device=DEV, dtype=torch.float16)
    b = torch.randn(k, cluster * bn, device=DEV, dtype=torch.float16)
    c = torch.full((groups, bm, cluster * bn), float("nan"), device=DEV)
    mesh = {2: C.CLUSTER2, 4: C.CLUSTER4}[cluster]
    C.shared_a_gemm_kernel[(groups, )](a, b, c, mesh=mesh, BM=bm, BN=bn, K=k, CLUSTER_SIZE=cluster, num_warps=4)
    torch.testing.assert_close(c, torch.matmul(a.float(), b.float()), atol=1e-2, rtol=1e-2)


@needs_cluster_gpu
@pytest.mark.parametrize("bk,dot_k,k,m,n,num_warps,num_stages,slots", [
    (32, 16, 64, 64, 128, 4, 2, 2), (32, 32, 64, 64, 128, 4, 2, 2), (32, 32, 32, 64, 128, 4, 2, 2),
    (64, 64, 64, 64, 128, 4, 2, 2), (64, 32, 64, 64, 128, 4, 2, 2), (32, 32, 128, 128, 256, 8, 3, 4),
    (64, 16, 256, 128, 512, 8, 3, 2)])
def test_staged_remote_dot(bk, dot_k, k, m, n, num_warps, num_stages, slots):
    """FlagTree's remote-dot pattern: rank 0 of a 2-CTA cluster stages A's
    tile, both ranks multiply it (rank 1 through tle.remote). One dot per K
    step (bk == dot_k) with Triton's pipeliner on used to read the tile
    before it was written (96% of C wrong)."""
    import flagtree_cluster_kernels as C
    torch.manual_seed(bk + dot_k + k)
    a = torch.randn(m, k, device=DEV, dtype=torch.float16)
    b = torch.randn(k, n, device=DEV, dtype=torch.float16)
    c = torch.full((m, n), float("nan"), device=DEV)
    grid = (triton.cdiv(m, 64) * triton.cdiv(triton.cdiv(n, 64), 2), )
    C.staged_remote_dot_kernel[grid](a, b, c, m, n, k, mesh=C.CLUSTER2, BM=64, BN=64, BK=bk, DOT_K=dot_k,
                                     SLOTS=slots, CLUSTER_SIZE=2, num_warps=num_warps, num_stages=num_stages)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=2e-2, rtol=2e-2)


@needs_cluster_gpu
@pytest.mark.parametrize("slots", [1, 2])
@pytest.mark.parametrize("nv_mma", [False, True])
@pytest.mark.parametrize("m,n,k", [(64, 128, 64), (128, 512, 512), (256, 256, 1024)])
def test_prefetched_remote_dot(m, n, k, nv_mma, slots):
    """FlagTree's cluster-GEMM tutorial order: rank 0 refills an A slot
    under `if has_next and rank == 0` after the step's reads. One slot: the
    cluster barrier TLE adds for that refill goes before the branch (inside
    it, only rank 0 ran it: 48 % of C wrong). Two slots: the refill is of
    the other slot and TLE adds none (the step's end barrier orders the
    next step's reads after it)."""
    import flagtree_cluster_kernels as C
    torch.manual_seed(m + n + k)
    a = torch.randn(m, k, device=DEV, dtype=torch.float16)
    b = torch.randn(k, n, device=DEV, dtype=torch.float16)
    c = torch.full((m, n), float("nan"), device=DEV)
    grid = (triton.cdiv(m, 64) * triton.cdiv(triton.cdiv(n, 64), 2), )
    C.prefetched_remote_dot_kernel[grid](a, b, c, m, n, k, mesh=C.CLUSTER2, BM=64, BN=64, BK=64, DOT_K=16,
                                         CLUSTER_SIZE=2, NV_MMA=nv_mma, SLOTS=slots, num_warps=4, num_stages=2)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=2e-2, rtol=2e-2)


@needs_cluster_gpu
@pytest.mark.parametrize("clusters", [1, 3])
def test_remote_of_remote_pointers(clusters):
    """Re-targeted cluster pointers read the copy of the rank they name last:
    remote(remote(p, 1), 0) rank 0's, remote(select(...), 1) rank 1's."""
    import flagtree_cluster_kernels as C
    block = 128
    out = torch.full((clusters * 2, 2, block), -1, dtype=torch.int32, device=DEV)
    C.retarget_kernel[(clusters, )](out, mesh=C.CLUSTER2, BLOCK=block)
    offs = torch.arange(block, dtype=torch.int32, device=DEV)
    expected = torch.stack([100 + offs, 200 + offs]).expand(clusters * 2, 2, block)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


@needs_cluster_gpu
@pytest.mark.parametrize("programs", [1, 3, 8, "2xSM"])
def test_grid_barrier_counter(programs):
    """Every program adds 1 to a counter, meets the others at a grid barrier
    and reads the counter: all read the grid size. Repeated launches start
    from a clean barrier state (the barrier leaves its count at 0)."""
    import flagtree_cluster_kernels as C
    if programs == "2xSM":
        programs = 2 * torch.cuda.get_device_properties(0).multi_processor_count
    counter = torch.zeros(1, dtype=torch.int32, device=DEV)
    out = torch.full((programs, ), -1, dtype=torch.int32, device=DEV)
    for _ in range(16):
        counter.zero_()
        out.fill_(-1)
        C.grid_counter_kernel[(programs, )](counter, out, mesh=C.GRID8, num_warps=4)
        torch.cuda.synchronize()
        assert int(counter.item()) == programs
        assert bool(torch.all(out == programs)), out


@needs_cluster_gpu
@pytest.mark.parametrize("programs,steps", [(4, 5), (132, 3), (264, 4)])
def test_grid_barrier_orders_rounds(programs, steps):
    """Each round reads what the next program wrote in the round before:
    with a grid barrier between rounds every row is exact."""
    import flagtree_cluster_kernels as C
    block = 128
    buf = torch.full((2, programs, block), -7, dtype=torch.int32, device=DEV)
    out = torch.empty((programs, block), dtype=torch.int32, device=DEV)
    C.grid_shift_kernel[(programs, )](buf, out, STEPS=steps, BLOCK=block, mesh=C.GRID8, num_warps=4)
    p = torch.arange(programs, device=DEV)[:, None]
    i = torch.arange(block, device=DEV)[None, :]
    expected = ((p + steps) % programs) * block + i + steps
    torch.testing.assert_close(out, expected.to(torch.int32), atol=0, rtol=0)


@pytest.mark.parametrize("shape", [(2, 1), (2, 1, 2), (1, 4), (2, 3)])
def test_shard_id_of_block_axes_by_index(shape):
    """FlagTree's test_tle_shard_id_runtime: out[pid][i] is pid's row-major
    coordinate along axis i; a grid of twice the mesh wraps around."""
    import math

    import flagtree_cluster_kernels as C
    mesh = tle.device_mesh({"block": [(f"axis{i}", size) for i, size in enumerate(shape)]})
    count = 2 * math.prod(shape)
    out = torch.full((count, len(shape)), -1, device=DEV, dtype=torch.int32)
    C.block_coordinates_kernel[(count,)](out, MESH=mesh, RANK=len(shape))
    size = math.prod(shape)
    expected = torch.tensor([[pid % size // math.prod(shape[i + 1:]) % s for i, s in enumerate(shape)]
                             for pid in range(count)], dtype=torch.int32)
    torch.testing.assert_close(out.cpu(), expected, atol=0, rtol=0)


def test_rematerialize_index_keeps_values():
    out32 = torch.full((128,), -1, device=DEV, dtype=torch.int32)
    out64 = torch.full((128,), -1, device=DEV, dtype=torch.int64)
    K.rematerialize_index_kernel[(1,)](out32, out64, 5, BLOCK=128)
    offs = torch.arange(128, device=DEV)
    torch.testing.assert_close(out32, (2 * offs + 5).to(torch.int32), atol=0, rtol=0)
    torch.testing.assert_close(out64, 2 * offs, atol=0, rtol=0)


@pytest.mark.parametrize("shift,stride", [(0, 128), (8, 64), (1, 64), (0, 67)])
def test_bf16_async_copy(shift, stride):
    """Aligned runs (a cp.async) and misaligned ones (a synchronous copy)
    copy the same tile."""
    x = torch.randn(64 * stride + 16, device=DEV).to(torch.bfloat16)
    out = torch.empty(64, 64, device=DEV, dtype=torch.bfloat16)
    K.bf16_async_copy_kernel[(1,)](x, out, stride, SHIFT=shift, R=64, C=64)
    rows = torch.arange(64, device=DEV)[:, None] * stride + torch.arange(64, device=DEV)[None, :] + shift
    torch.testing.assert_close(out, x[rows], atol=0, rtol=0)

