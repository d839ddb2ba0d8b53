"""Sharded tensors over a thread-block cluster on the GPU, against torch:
all-gather, all-reduce, reduce-scatter, scatter, gather to a root, a 2-D
all-gather over a 2 x 2 cluster, reshards in a loop and tle.distributed_dot.

Skips without a CUDA GPU. Run on the H100 through the device tool:
    python -m pytest -q python/test/test_distributed_gpu.py
"""

import pytest
import torch

import tle
from conftest import has_gpu
import distributed_kernels as K

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


@pytest.fixture(autouse=True)
def _tle_enabled():
    with tle.enabled():
        yield


CLUSTERS = [1, 3]


@pytest.mark.parametrize("clusters", CLUSTERS)
def test_all_gather(clusters):
    n = 256
    x = torch.randn(clusters, n, device="cuda")
    out = torch.full((clusters, 4, n), -1.0, device="cuda")
    compiled = K.all_gather[(clusters,)](x, out, N=n, SRC=K.S4, DST=K.B4, MESH=K.MESH4)
    assert compiled.metadata.num_ctas == 4
    torch.testing.assert_close(out, x[:, None, :].expand(clusters, 4, n), rtol=0, atol=0)


@pytest.mark.parametrize("clusters", CLUSTERS)
def test_all_reduce(clusters):
    n = 256
    x = torch.randn(clusters, 4, n, device="cuda")
    out = torch.full((clusters, 4, n), -1.0, device="cuda")
    K.all_reduce[(clusters,)](x, out, N=n, SRC=K.P4, DST=K.B4, MESH=K.MESH4)
    # Summed in rank order, like the kernel: bitwise equal on every CTA.
    expected = ((x[:, 0] + x[:, 1]) + x[:, 2]) + x[:, 3]
    torch.testing.assert_close(out, expected[:, None, :].expand(clusters, 4, n), rtol=0, atol=0)


@pytest.mark.parametrize("clusters", CLUSTERS)
def test_reduce_scatter(clusters):
    n = 256
    x = torch.randint(-1000, 1000, (clusters, 4, n), device="cuda", dtype=torch.int32)
    out = torch.full((clusters, n), -1, device="cuda", dtype=torch.int32)
    K.reduce_scatter[(clusters,)](x, out, N=n, SRC=K.P4, DST=K.S4, MESH=K.MESH4)
    torch.testing.assert_close(out, x.sum(dim=1, dtype=torch.int32), rtol=0, atol=0)


def test_scatter():
    n, clusters = 256, 2
    x = torch.randn(clusters, n, device="cuda")
    out = torch.full((clusters, n), -1.0, device="cuda")
    K.scatter[(clusters,)](x, out, N=n, SRC=K.B4, DST=K.S4, MESH=K.MESH4)
    torch.testing.assert_close(out, x, rtol=0, atol=0)


@pytest.mark.parametrize("root", [0, 3])
def test_gather_to_root(root):
    n, clusters = 256, 2
    x = torch.randn(clusters, n, device="cuda")
    out = torch.full((clusters, 4, n), -1.0, device="cuda")
    K.gather_to_root[(clusters,)](x, out, N=n, SRC=K.S4, DST=K.B4, MESH=K.MESH4, ROOT=root)
    expected = torch.zeros_like(out)
    expected[:, root] = x
    torch.testing.assert_close(out, expected, rtol=0, atol=0)


def test_all_gather_2d_over_2x2_cluster():
    m, n, clusters = 32, 64, 2
    x = torch.randn(clusters, m, n, device="cuda")
    out = torch.full((clusters, 4, m, n), -1.0, device="cuda")
    compiled = K.all_gather_2d[(clusters,)](x, out, M=m, N=n, SRC=K.S2x2, DST=K.BB2x2, MESH=K.MESH2x2)
    assert compiled.metadata.num_ctas == 4
    torch.testing.assert_close(out, x[:, None].expand(clusters, 4, m, n), rtol=0, atol=0)


def test_all_reduce_in_a_loop():
    n, steps, clusters = 128, 5, 2
    x = torch.randint(-8, 8, (clusters, 4, n), device="cuda").float()
    out = torch.empty(clusters, 4, n, device="cuda")
    K.looped_all_reduce[(clusters,)](x, out, N=n, STEPS=steps, SRC=K.P4, DST=K.B4, MESH=K.MESH4)
    v = x.clone()
    for _ in range(steps):
        v = v.sum(dim=1, keepdim=True).expand(clusters, 4, n) + 1.0
    torch.testing.assert_close(out, v, rtol=0, atol=0)


@pytest.mark.parametrize("add_c", [False, True])
def test_distributed_dot_k_split(add_c):
    m, n, k, clusters = 64, 64, 256, 2
    a = torch.randn(clusters, m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(clusters, k, n, device="cuda", dtype=torch.float16)
    c = torch.randn(clusters, m, n, device="cuda")
    out = torch.full((clusters, 4, m, n), -1.0, device="cuda")
    K.dot_k_split[(clusters,)](a, b, c, out, M=m, N=n, K=k, A_S=K.A_K, B_S=K.B_K, MESH=K.MESH4, ADD_C=add_c)
    expected = a.float() @ b.float() + (c if add_c else 0)
    for rank in range(4):
        torch.testing.assert_close(out[:, rank], expected, rtol=1e-2, atol=1e-2)
    # All-reduced in one order: every CTA holds bitwise the same result.
    assert torch.equal(out[:, 0], out[:, 3])


def test_distributed_dot_rows_gathers_b():
    m, n, k, clusters = 64, 64, 64, 2
    a = torch.randn(clusters, m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(clusters, k, n, device="cuda", dtype=torch.float16)
    out = torch.full((clusters, m, n), -1.0, device="cuda")
    K.dot_rows[(clusters,)](a, b, out, M=m, N=n, K=k, A_S=K.A_M, B_S=K.B_N, MESH=K.MESH4)
    torch.testing.assert_close(out, a.float() @ b.float(), rtol=1e-2, atol=1e-2)


def test_distributed_dot_reduce_scatter_output():
    m, n, k, clusters = 64, 64, 256, 1
    a = torch.randn(clusters, m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(clusters, k, n, device="cuda", dtype=torch.float16)
    out = torch.full((clusters, m, n), -1.0, device="cuda")
    K.dot_k_split_scatter[(clusters,)](a, b, out, M=m, N=n, K=k, A_S=K.A_K, B_S=K.B_K, OUT_S=K.OUT_M,
                                       MESH=K.MESH4)
    torch.testing.assert_close(out, a.float() @ b.float(), rtol=1e-2, atol=1e-2)


def _submesh_expected(clusters, iters, rows):
    """OUT[cluster, i, rank] = 100 * i + the rank of its row partner, for the
    CTAs of `rows` (the others' entries stay -1)."""
    out = torch.full((clusters, iters, 4), -1, dtype=torch.int32)
    for x in rows:
        for y in range(2):
            for i in range(iters):
                out[:, i, x * 2 + y] = 100 * i + x * 2 + (1 - y)
    return out.cuda()


@pytest.mark.parametrize("row_only", [False, True])
def test_submesh_barrier_orders_each_row(row_only):
    """tle.distributed_barrier(MESH[x, :]): the row partner's late write
    (20 us) is seen at every iteration (the phase flips); with row_only the
    other row never calls a barrier and returns, and row 0 still finishes."""
    clusters, iters = 3, 6
    out = torch.full((clusters, iters, 4), -1, dtype=torch.int32, device="cuda")
    compiled = K.submesh_exchange[(clusters,)](out, ITERS=iters, DELAY=20000, MESH=K.MESH2x2_CFG, ROW0=K.ROW0,
                                                ROW1=K.ROW1, ROW_ONLY=row_only)
    torch.cuda.synchronize()
    assert compiled.metadata.num_ctas == 4 and compiled.metadata.cluster_dims == [2, 2, 1]
    torch.testing.assert_close(out, _submesh_expected(clusters, iters, [0] if row_only else [0, 1]), rtol=0, atol=0)


def test_submesh_barrier_over_the_wrong_group_races():
    """The control: with the column barriers in place of the row ones, a CTA
    meets the other CTA of its column, not its partner, and the y == 0 CTAs
    read their partner's word before its late write lands; so the test above
    can fail, and a sub-mesh barrier holds only its own sub-mesh."""
    clusters, iters = 3, 6
    out = torch.full((clusters, iters, 4), -1, dtype=torch.int32, device="cuda")
    K.submesh_exchange[(clusters,)](out, ITERS=iters, DELAY=20000, MESH=K.MESH2x2_CFG, ROW0=K.COL0, ROW1=K.COL1,
                                    ROW_ONLY=False)
    torch.cuda.synchronize()
    expected = _submesh_expected(clusters, iters, [0, 1])
    # The y == 0 CTAs (ranks 0 and 2) read a word their partner has not yet written.
    assert (out[:, :, 0::2] != expected[:, :, 0::2]).any()


@pytest.mark.parametrize("mesh, axes, dims, grid", [
    (K.MESH2x2, ("cx", "cy", ""), (2, 2, 1), (3, 1, 1)),
    (K.MESH2x2, ("cx", "cy", ""), (2, 2, 1), (2, 3, 1)),
    (K.MESH1x2, ("cm", "cn", ""), (1, 2, 1), (3, 2, 1)),
    (K.MESH2x1x2, ("a", "b", "c"), (2, 1, 2), (2, 2, 3)),
])
def test_cluster_launch_in_the_mesh_shape(mesh, axes, dims, grid):
    """A grid of (gx, gy, gz) clusters of shape (cx, cy, cz): program ids cover
    [0, g * c) along each dimension once, num_programs is g * c, the shard id
    along axis d is program id d mod c_d, and the CTAs whose ids say they
    share a cluster read the ids of one rank-0 CTA through distributed shared
    memory, the one at (x - x mod cx, y - y mod cy, z - z mod cz)."""
    n = [g * c for g, c in zip(grid, dims)]
    out = torch.full((n[2], n[1], n[0], K.CLUSTER_ID_FIELDS), -1, dtype=torch.int32, device="cuda")
    compiled = K.cluster_ids[grid](out, MESH=mesh, A0=axes[0], A1=axes[1], A2=axes[2])
    torch.cuda.synchronize()
    assert tuple(compiled.metadata.cluster_dims) == dims
    z, y, x = torch.meshgrid(*[torch.arange(v, device="cuda", dtype=torch.int32) for v in (n[2], n[1], n[0])],
                             indexing="ij")
    ids = torch.stack([x, y, z], dim=-1)
    c = torch.tensor(dims, device="cuda", dtype=torch.int32)
    expected = torch.cat([ids, torch.tensor(n, device="cuda", dtype=torch.int32).expand_as(ids),
                          ids % c if axes[2] else torch.cat([ids[..., :2] % c[:2], torch.zeros_like(ids[..., :1])], -1),
                          ids - ids % c], dim=-1)
    torch.testing.assert_close(out, expected, rtol=0, atol=0)
