"""GPU: bench/topk.py's register-tile top-k (tle_tile_topk, 128 < N <= 1024,
and single_tile_topk, N <= 128).

The row stays in registers while a radix select finds the K-th largest key
(8-bit digits, a shared-memory histogram per round, stopping as soon as the
threshold bin is taken whole). The cases that matter are the ties: a bin
taken whole whose floor value occurs fewer times than the keys still needed
(the other keys of the bin are above the floor), keys equal to the exact
threshold after the last round, and constant rows. Compared with torch.topk's
values; the indices must point at those values and be distinct. CI compiles
the kernel to PTX (test_bench_smoke.py).
"""

import os
import sys

import pytest

from conftest import has_gpu

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")

BENCH_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")


def _topk():
    sys.path.insert(0, BENCH_DIR)
    try:
        import topk
        import topk_selector
    finally:
        sys.path.remove(BENCH_DIR)
    return topk, topk_selector


def _run(x, k):
    import torch
    import tle
    topk, _ = _topk()
    m, n = x.shape
    assert n <= topk.TILE_TOPK_MAX_N
    inp = dict(x=x, k=k, idx=torch.empty(m, k, device=x.device, dtype=torch.int32),
               vals=torch.empty(m, k, device=x.device, dtype=torch.float32))
    with tle.enabled():
        vals, idx = topk.tle_provider(inp)()
    torch.cuda.synchronize()
    ref = torch.topk(x, k, dim=1).values
    assert torch.equal(vals, ref), (vals, ref)
    assert bool(((idx >= 0) & (idx < n)).all())
    assert torch.equal(torch.gather(x, 1, idx.long()), vals)
    assert all(len(set(r)) == k for r in idx.tolist()), "an index is taken twice"


@pytest.mark.parametrize("n,k", [(1024, 32), (333, 16), (512, 64)])
def test_bin_taken_whole_with_fewer_floor_ties_than_needed(n, k):
    # The K largest are ties at 0.5 and larger values of the same top byte
    # (1.5: fp32 0.5 .. 2.0 share the key's top 8 bits), the rest below: the
    # first round takes that bin whole, its floor is 0.5 exactly, and fewer
    # keys equal it than the K the bin holds.
    import torch
    x = torch.full((3, n), -1.0, device="cuda")
    ties = k * 5 // 8
    for r in range(3):
        pos = torch.randperm(n, device="cuda")[:k]
        x[r, pos[:ties]] = 0.5
        x[r, pos[ties:]] = 1.5 + r
    _run(x, k)


@pytest.mark.parametrize("n,k", [(1024, 32), (700, 8)])
def test_exact_threshold_ties_and_constant_rows(n, k):
    import torch
    g = torch.Generator(device="cuda").manual_seed(5)
    x = torch.randn(4, n, device="cuda", generator=g)
    x[0] = 3.0                                   # constant row: the first K by index
    x[1, :] = torch.randn(n, device="cuda", generator=g).round()  # few distinct values
    x[2, ::2] = -0.0                             # -0.0 and +0.0 are one key
    x[2, 1::2] = 0.0
    _run(x, k)


@pytest.mark.parametrize("seed", range(6))
def test_mixed_rows_match_torch(seed):
    import torch
    _, topk_selector = _topk()
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = topk_selector.make_scores(64, 1024, "cuda", g, "mixed")
    _run(x, 32)


@pytest.mark.parametrize("n,k", [(128, 8), (100, 16), (37, 32), (16, 16)])
def test_short_rows_one_tile_network(n, k):
    """N <= REGISTER_TOPK_MAX_N: one network over the row (single_tile_topk);
    masked lanes of a partial tile, K = N, ties and +-0 included."""
    import torch
    g = torch.Generator(device="cuda").manual_seed(11)
    x = torch.randn(6, n, device="cuda", generator=g)
    x[1] = 2.0
    x[2] = torch.randn(n, device="cuda", generator=g).round()
    x[3, ::2] = -0.0
    x[3, 1::2] = 0.0
    x[4] = -torch.rand(n, device="cuda", generator=g)
    _run(x, k)
