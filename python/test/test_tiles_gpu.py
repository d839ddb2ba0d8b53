"""tle.extract_tile / tle.insert_tile on the GPU against torch slicing.

Skips without a CUDA GPU. From the repo root:
    . scripts/device-env.sh && python3 -m pytest -q python/test/test_tiles_gpu.py
"""

import pytest
import torch

import tle
import tiles_kernels as K
from conftest import has_gpu

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")

TORCH = {"fp32": torch.float32, "fp16": torch.float16, "i32": torch.int32}


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


def rand(shape, dtype, gen):
    if dtype == "i32":
        return torch.randint(-1000, 1000, shape, generator=gen, dtype=torch.int32).cuda()
    return (torch.rand(shape, generator=gen) * 2 - 1).to(TORCH[dtype]).cuda()


def tile_of(x, index, tile):
    """Tile number ``index`` (row-major over the tile grid) of ``x``, as a view."""
    grid = [s // t for s, t in zip(x.shape, tile)]
    coords = []
    for g in reversed(grid):
        coords.append(index % g)
        index //= g
    coords.reverse()
    return x[tuple(slice(c * t, (c + 1) * t) for c, t in zip(coords, tile))]


def some_indices(tiles):
    """First, middle and last tile: each constant index is its own compile."""
    return sorted({0, tiles // 2, tiles - 1})


SHAPES_2D = [(32, 64, 16, 32), (64, 64, 64, 16), (16, 128, 8, 32), (128, 32, 32, 32)]


@pytest.mark.parametrize("dtype", ["fp32", "fp16", "i32"])
@pytest.mark.parametrize("m,n,tm,tn", SHAPES_2D)
def test_extract_2d_static_and_dynamic(dtype, m, n, tm, tn):
    gen = torch.Generator().manual_seed(m * n + tm)
    x = rand((m, n), dtype, gen)
    tiles = (m // tm) * (n // tn)
    for idx in range(tiles):
        y = torch.zeros((tm, tn), dtype=TORCH[dtype], device="cuda")
        if idx in some_indices(tiles):
            K.extract_2d[(1,)](x, y, M=m, N=n, TM=tm, TN=tn, IDX=idx)
            torch.testing.assert_close(y, tile_of(x, idx, (tm, tn)), rtol=0, atol=0)
            y.zero_()
        K.extract_2d_dynamic[(1,)](x, y, idx, M=m, N=n, TM=tm, TN=tn)
        torch.testing.assert_close(y, tile_of(x, idx, (tm, tn)), rtol=0, atol=0)


@pytest.mark.parametrize("idx", [(1, 1), (3, 0), 15])
def test_extract_of_a_large_loaded_tensor(idx):
    """FlagTree's static extract_tile test: a [128, 128] tile of a [512, 512]
    fp32 load, which only the tile's load replaces."""
    x = torch.arange(512 * 512, device="cuda", dtype=torch.float32).reshape(512, 512)
    y = torch.zeros((128, 128), device="cuda", dtype=torch.float32)
    K.extract_2d[(1,)](x, y, M=512, N=512, TM=128, TN=128, IDX=idx)
    linear = idx[0] * 4 + idx[1] if isinstance(idx, tuple) else idx
    torch.testing.assert_close(y, tile_of(x, linear, (128, 128)), rtol=0, atol=0)


@pytest.mark.parametrize("n,t", [(256, 64), (128, 16), (1024, 256)])
@pytest.mark.parametrize("dynamic", [False, True])
def test_extract_1d(n, t, dynamic):
    gen = torch.Generator().manual_seed(n + t)
    x = rand((n,), "fp32", gen)
    for idx in (range(n // t) if dynamic else some_indices(n // t)):
        y = torch.empty((t,), dtype=torch.float32, device="cuda")
        K.extract_1d[(1,)](x, y, idx, N=n, T=t, DYNAMIC=dynamic, IDX=idx)
        torch.testing.assert_close(y, x[idx * t:(idx + 1) * t], rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["fp32", "fp16", "i32"])
@pytest.mark.parametrize("m,n,tm,tn", SHAPES_2D)
@pytest.mark.parametrize("dynamic", [False, True])
def test_insert_2d(dtype, m, n, tm, tn, dynamic):
    gen = torch.Generator().manual_seed(m + n * tn)
    x = rand((m, n), dtype, gen)
    tile = rand((tm, tn), dtype, gen)
    tiles = (m // tm) * (n // tn)
    for idx in (range(tiles) if dynamic else some_indices(tiles)):
        y = torch.empty_like(x)
        K.insert_2d[(1,)](x, tile, y, idx, M=m, N=n, TM=tm, TN=tn, DYNAMIC=dynamic, IDX=idx)
        want = x.clone()
        tile_of(want, idx, (tm, tn)).copy_(tile)
        torch.testing.assert_close(y, want, rtol=0, atol=0)


@pytest.mark.parametrize("idx", [(1, 1), (0, 3), 14])
def test_insert_into_a_large_loaded_tensor(idx):
    """FlagTree's static insert_tile test: a [128, 128] tile into a [512, 512]
    fp32 load that is then stored; the two disjoint stores replace it."""
    x = torch.arange(512 * 512, device="cuda", dtype=torch.float32).reshape(512, 512)
    tile = 100000 + torch.arange(128 * 128, device="cuda", dtype=torch.float32).reshape(128, 128)
    y = torch.full_like(x, -1.0)
    K.insert_2d[(1,)](x, tile, y, 0, M=512, N=512, TM=128, TN=128, DYNAMIC=False, IDX=idx)
    want = x.clone()
    tile_of(want, idx[0] * 4 + idx[1] if isinstance(idx, tuple) else idx, (128, 128)).copy_(tile)
    torch.testing.assert_close(y, want, rtol=0, atol=0)


def test_insert_stored_and_summed():
    """The inserted tensor also feeds a sum: built in shared memory."""
    gen = torch.Generator().manual_seed(3)
    x = rand((32, 64), "fp32", gen)
    tile = rand((16, 32), "fp32", gen)
    y = torch.empty_like(x)
    s = torch.empty(1, device="cuda", dtype=torch.float32)
    K.insert_2d_and_sum[(1,)](x, tile, y, s, M=32, N=64, TM=16, TN=32, IDX=2)
    want = x.clone()
    want[16:, :32] = tile
    torch.testing.assert_close(y, want, rtol=0, atol=0)
    torch.testing.assert_close(s, want.sum().reshape(1), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("dynamic", [False, True])
def test_insert_1d(dynamic):
    gen = torch.Generator().manual_seed(7)
    x = rand((128,), "i32", gen)
    tile = rand((32,), "i32", gen)
    for idx in range(4):
        y = torch.empty_like(x)
        K.insert_1d[(1,)](x, tile, y, idx, N=128, TN=32, DYNAMIC=dynamic, IDX=idx)
        want = x.clone()
        want[idx * 32:(idx + 1) * 32] = tile
        torch.testing.assert_close(y, want, rtol=0, atol=0)


def test_dynamic_index_outside_the_grid():
    """Documented: extract gives tile 0, insert changes nothing."""
    gen = torch.Generator().manual_seed(3)
    x = rand((32, 64), "fp32", gen)
    y = torch.empty((16, 32), dtype=torch.float32, device="cuda")
    K.extract_2d_dynamic[(1,)](x, y, 9, M=32, N=64, TM=16, TN=32)
    torch.testing.assert_close(y, x[:16, :32], rtol=0, atol=0)
    tile = rand((16, 32), "fp32", gen)
    out = torch.empty_like(x)
    K.insert_2d[(1,)](x, tile, out, 9, M=32, N=64, TM=16, TN=32, DYNAMIC=True, IDX=0)
    torch.testing.assert_close(out, x, rtol=0, atol=0)


@pytest.mark.parametrize("m,n,tm,tn", [(4, 4, 2, 2), (64, 64, 16, 32)])
def test_relu_on_a_sub_tile(m, n, tm, tn):
    """The seeds' example, tensor-method form: ReLU on tile (1, 0) only."""
    gen = torch.Generator().manual_seed(11)
    x = rand((m, n), "fp32", gen)
    y = torch.empty_like(x)
    K.relu_sub_tile[(1,)](x, y, M=m, N=n, TM=tm, TN=tn, R=1, C=0)
    want = x.clone()
    want[tm:2 * tm, :tn] = torch.relu(want[tm:2 * tm, :tn])
    torch.testing.assert_close(y, want, rtol=0, atol=0)


def test_swap_tiles_dynamic():
    gen = torch.Generator().manual_seed(5)
    m, n, tm, tn = 64, 64, 32, 16
    x = rand((m, n), "fp32", gen)
    for a, b in [(0, 7), (3, 4), (2, 2), (6, 1)]:
        y = torch.empty_like(x)
        K.swap_tiles_dynamic[(1,)](x, y, a, b, M=m, N=n, TM=tm, TN=tn)
        want = x.clone()
        ta, tb = tile_of(x, a, (tm, tn)).clone(), tile_of(x, b, (tm, tn)).clone()
        tile_of(want, a, (tm, tn)).copy_(tb)
        tile_of(want, b, (tm, tn)).copy_(ta)
        torch.testing.assert_close(y, want, rtol=0, atol=0)


@pytest.mark.parametrize("idx", [0, 1])
def test_tiles_around_a_dot(idx):
    gen = torch.Generator().manual_seed(13 + idx)
    m, k, n = 64, 32, 64
    a = rand((2 * m, k), "fp16", gen)
    b = rand((k, n), "fp16", gen)
    c = torch.empty((2 * m, n), dtype=torch.float32, device="cuda")
    K.dot_of_tiles[(1,)](a, b, c, idx, M=m, K=k, N=n)
    want = torch.zeros_like(c)
    want[idx * m:(idx + 1) * m] = a[idx * m:(idx + 1) * m].float() @ b.float()
    torch.testing.assert_close(c, want, rtol=1e-3, atol=1e-3)


def test_dynamic_tiles_in_a_loop():
    gen = torch.Generator().manual_seed(17)
    m, n, tm, tn = 32, 64, 16, 32
    x = rand((m, n), "fp32", gen)
    y = torch.empty_like(x)
    K.loop_tiles[(1,)](x, y, M=m, N=n, TM=tm, TN=tn, TILES=4)
    want = x.clone()
    for i in range(4):
        tile_of(want, i, (tm, tn)).mul_(i + 1)
    torch.testing.assert_close(y, want, rtol=0, atol=0)
