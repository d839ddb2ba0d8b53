"""Tensor maps in global memory on the GPU: tables of maps encoded on the
host (``tle.encode_tensor_map``), one per owner, each program copying
through its own by TMA (FlagTree's block-cyclic descriptor tables), against
torch. Skips without a CUDA GPU of sm_90."""

import pytest
import torch

import tle
from conftest import has_gpu
import tensor_map_kernels as K

pytestmark = pytest.mark.skipif(not (has_gpu() and torch.cuda.get_device_capability()[0] >= 9),
                                reason="needs a CUDA GPU with TMA (sm_90)")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


def _block_cyclic_table(source, owners, block):
    """One map per owner over rows owner, owner + owners, ... of ``source``
    (a row stride of ``owners`` rows; the last owner's rows may be fewer)."""
    rows, cols = source.shape
    maps = []
    for owner in range(owners):
        local_rows = len(range(owner, rows, owners))
        maps.append(tle.encode_tensor_map(source.data_ptr() + owner * cols * source.element_size(), block,
                                          shape=[local_rows, cols], strides=[owners * cols, 1],
                                          dtype=source.dtype))
    return tle.tensor_map_table(maps)


def test_block_cyclic_owners_with_ragged_rows():
    source = torch.arange(17 * 32, device="cuda", dtype=torch.float32).reshape(17, 32)
    table = _block_cyclic_table(source, 2, [8, 32])
    out = torch.full((2, 8, 32), float("nan"), device="cuda")
    K.owner_tiles_kernel[(2,)](table, out, ROWS=8, COLS=32)
    torch.testing.assert_close(out, torch.stack((source[0:16:2], source[1:17:2])), atol=0, rtol=0)


@pytest.mark.parametrize("row0,evict", [(0, ""), (4, ""), (4, "evict_first")])
def test_on_a_barrier_past_the_end_reads_zeros(row0, evict):
    """16 x 64 fp32 (256-byte rows: the block goes in two 128-byte boxes)
    from row ``row0`` of owners holding 20 and 19 rows."""
    source = torch.randn(39, 64, device="cuda")
    table = _block_cyclic_table(source, 2, [16, 64])
    out = torch.full((2, 16, 64), float("nan"), device="cuda")
    K.owner_tiles_on_barrier_kernel[(2,)](table, out, ROWS=16, COLS=64, ROW0=row0, EVICT=evict)
    want = torch.zeros(2, 16, 64, device="cuda")
    for owner in range(2):
        mine = source[owner::2][row0:row0 + 16]
        want[owner, :len(mine)] = mine
    torch.testing.assert_close(out, want, atol=0, rtol=0)


def test_store_through_each_owners_map():
    dst = torch.zeros(3, 8, 32, device="cuda")
    maps = [tle.encode_tensor_map(dst[i], [8, 32]) for i in range(3)]
    src = torch.randn(3, 8, 32, device="cuda")
    K.owner_store_kernel[(3,)](tle.tensor_map_table(maps), src, ROWS=8, COLS=32)
    torch.testing.assert_close(dst, src, atol=0, rtol=0)


def test_local_ptr_shape():
    """local_ptr(tile, (rows, cols), shape=(R, C)) with rows [R, 1] and cols
    [1, C]: element (i, j) points at tile[i, j]."""
    out = torch.full((8, 32), float("nan"), device="cuda")
    K.local_ptr_shape_kernel[(1,)](out, R=8, C=32, CASE=0)
    torch.testing.assert_close(out, torch.arange(256, device="cuda", dtype=torch.float32).view(8, 32), atol=0, rtol=0)


def test_maps_in_a_loop():
    """One map per loop iteration over four tensors: the sum of their blocks."""
    parts = torch.randn(4, 16, 32, device="cuda")
    table = tle.tensor_map_table([tle.encode_tensor_map(parts[i], [16, 32]) for i in range(4)])
    out = torch.zeros(16, 32, device="cuda")
    K.maps_in_a_loop_kernel[(1,)](table, out, N=4, ROWS=16, COLS=32)
    torch.testing.assert_close(out, parts.sum(0), atol=1e-5, rtol=1e-5)


def test_maps_in_a_warp_specialized_producer():
    """Tile i of a tensor through map i, loaded by a producer partition."""
    n_tiles = 7
    a = torch.randn(n_tiles * 64, 64, device="cuda").to(torch.float16)
    table = tle.tensor_map_table([tle.encode_tensor_map(a[i * 64:(i + 1) * 64], [64, 64]) for i in range(n_tiles)])
    out = torch.full((n_tiles * 64, 64), float("nan"), device="cuda")
    K.maps_ws_ring_kernel[(1,)](table, out, n_tiles, BM=64, BK=64)
    torch.testing.assert_close(out, a.float() + 1.0, atol=0, rtol=0)
