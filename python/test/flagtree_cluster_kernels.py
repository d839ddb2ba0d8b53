"""Our own cluster kernels in the style of FlagTree's distributed tests
(its python/test/tle/integration/test_tle_distributed.py), with FlagTree's
import line changed to TLE's:

    import triton.experimental.tle.language as tle   # FlagTree
    import tle                                       # here

The grid-barrier kernels use a ``block`` mesh (FlagTree's barrier of every
program of the launch). The cluster kernels rely on FlagTree's program ids:
a grid of G runs G clusters of C CTAs,
a program is a CTA and ``tl.program_id(0)`` is its global index, so a
kernel's cluster is ``pid // C`` and its rank in it ``tle.shard_id``.
Compiled on the CPU by test_flagtree_compat.py, run against torch by
test_flagtree_compat_gpu.py.
"""

import triton
import triton.language as tl

import tle

CLUSTER2 = tle.device_mesh(tle.MeshConfig(block_cluster=[("cluster_x", 2)]))
CLUSTER4 = tle.device_mesh({"block_cluster": [("cluster_x", 4)]})
GRID8 = tle.device_mesh({"block": [("block_x", 8)]})


@triton.jit
def grid_counter_kernel(counter_ptr, out_ptr, mesh: tl.constexpr):
    # Every program adds 1, meets the others at a grid barrier (a block
    # mesh: every program of the launch), then reads the total.
    pid = tl.program_id(0)
    tl.atomic_add(counter_ptr, 1)
    tle.distributed_barrier(mesh)
    tl.store(out_ptr + pid, tl.load(counter_ptr, volatile=True))


@triton.jit
def grid_shift_kernel(buf_ptr, out_ptr, STEPS: tl.constexpr, BLOCK: tl.constexpr, mesh: tl.constexpr):
    # STEPS rounds over two [programs, BLOCK] buffers: round t reads the row
    # of the next program written in round t - 1 and adds 1. Each round's
    # reads need every program's writes of the round before: a grid barrier
    # between rounds. After STEPS rounds row p holds (p + STEPS) % P * BLOCK
    # + i + STEPS.
    pid = tl.program_id(0)
    n = tl.num_programs(0)
    offs = tl.arange(0, BLOCK)
    tl.store(buf_ptr + pid * BLOCK + offs, pid * BLOCK + offs)
    tle.distributed_barrier(mesh)
    for t in tl.static_range(STEPS):
        src = buf_ptr + (t % 2) * n * BLOCK
        dst = buf_ptr + ((t + 1) % 2) * n * BLOCK
        vals = tl.load(src + ((pid + 1) % n) * BLOCK + offs, volatile=True)
        tl.store(dst + pid * BLOCK + offs, vals + 1)
        tle.distributed_barrier(mesh)
    tl.store(out_ptr + pid * BLOCK + offs, tl.load(buf_ptr + (STEPS % 2) * n * BLOCK + pid * BLOCK + offs,
                                                   volatile=True))


@triton.jit
def peer_exchange_kernel(out_ptr, shard_id_ptr, mesh: tl.constexpr, BLOCK: tl.constexpr):
    # Every CTA writes pid * BLOCK + i into its buffer; after the cluster
    # barrier it reads the buffer of the CTA named by shard_id_ptr[pid].
    offs = tl.arange(0, BLOCK)
    pid = tl.program_id(0)
    smem = tle.gpu.alloc([BLOCK], dtype=tl.float32, layout=None, scope=tle.gpu.smem, nv_mma_shared_layout=False)
    tl.store(tle.gpu.local_ptr(smem, (offs, )), tl.cast(offs + pid * BLOCK, tl.float32))
    tle.distributed_barrier(mesh)
    peer = tl.load(shard_id_ptr + pid)
    vals = tl.load(tle.gpu.local_ptr(tle.remote(smem, peer, scope=mesh), (offs, )))
    tl.store(out_ptr + pid * BLOCK + offs, vals)
    tle.distributed_barrier(mesh)


@triton.jit
def self_roundtrip_kernel(x_ptr, out_ptr, numel, BLOCK: tl.constexpr):
    # No mesh, no cluster: tle.remote without scope to rank 0 is the CTA's
    # own buffer (FlagTree's scope-less form).
    offs = tl.arange(0, BLOCK)
    mask = offs < numel
    smem = tle.gpu.alloc([BLOCK], dtype=tl.float32, layout=None, scope=tle.gpu.smem, nv_mma_shared_layout=False)
    tl.store(tle.gpu.local_ptr(smem, (offs, )), tl.load(x_ptr + offs, mask=mask, other=0.0) * 2)
    tle.distributed_barrier()
    vals = tl.load(tle.gpu.local_ptr(tle.remote(smem, 0), (offs, )))
    tl.store(out_ptr + offs, vals, mask=mask)


@triton.jit
def scopeless_peer_kernel(out_ptr, mesh: tl.constexpr, BLOCK: tl.constexpr):
    # The cluster comes from the mesh of shard_id and the barrier; the
    # remote view names no scope: it is that cluster's rank 1 - rank.
    offs = tl.arange(0, BLOCK)
    pid = tl.program_id(0)
    rank = tle.shard_id(mesh, "cluster_x")
    smem = tle.gpu.alloc([BLOCK], dtype=tl.int32, layout=None, scope=tle.gpu.smem, nv_mma_shared_layout=False)
    tl.store(tle.gpu.local_ptr(smem, (offs, )), offs + pid * BLOCK)
    tle.distributed_barrier(mesh)
    vals = tl.load(tle.gpu.local_ptr(tle.remote(smem, 1 - rank), (offs, )))
    tl.store(out_ptr + pid * BLOCK + offs, vals)
    tle.distributed_barrier(mesh)


@triton.jit
def program_ids_kernel(out_ptr, mesh: tl.constexpr):
    # out[pid] = (num_programs, cluster, rank) for every CTA.
    pid = tl.program_id(0)
    rank = tle.shard_id(mesh, "cluster_x")
    tl.store(out_ptr + pid * 3, tl.num_programs(0))
    tl.store(out_ptr + pid * 3 + 1, pid // 4)
    tl.store(out_ptr + pid * 3 + 2, rank)


@triton.jit
def shared_a_gemm_kernel(a_ptr, b_ptr, c_ptr, mesh: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                         K: tl.constexpr, CLUSTER_SIZE: tl.constexpr):
    # C[cluster] = A[cluster] @ B: rank 0 of each cluster stages its A tile
    # ([BM, K], fp16) in shared memory, every rank reads it from rank 0 and
    # computes its BN columns.
    pid = tl.program_id(0)
    cluster_id = pid // CLUSTER_SIZE
    rank = tle.shard_id(mesh, "cluster_x")
    rows = tl.arange(0, BM)
    ks = tl.arange(0, K)
    cols = rank * BN + tl.arange(0, BN)
    a_buf = tle.gpu.alloc([BM, K], dtype=tl.float16, layout=None, scope=tle.gpu.smem, nv_mma_shared_layout=False)
    idx_m = tl.broadcast_to(rows[:, None], (BM, K))
    idx_k = tl.broadcast_to(ks[None, :], (BM, K))
    if rank == 0:
        a = tl.load(a_ptr + cluster_id * BM * K + rows[:, None] * K + ks[None, :])
        tl.store(tle.gpu.local_ptr(a_buf, (idx_m, idx_k)), a)
    tle.distributed_barrier(mesh)
    a = tl.load(tle.gpu.local_ptr(tle.remote(a_buf, 0, scope=mesh), (idx_m, idx_k)))
    b = tl.load(b_ptr + ks[:, None] * (CLUSTER_SIZE * BN) + cols[None, :])
    acc = tl.dot(a, b)
    tl.store(c_ptr + cluster_id * BM * CLUSTER_SIZE * BN + rows[:, None] * (CLUSTER_SIZE * BN) + cols[None, :], acc)
    tle.distributed_barrier(mesh)


@triton.jit
def _cluster_tile(N, mesh: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, CLUSTER_SIZE: tl.constexpr):
    """The remote-dot kernels' tiling: this CTA's rank in its cluster, and
    the rows and columns of C it computes (a cluster owns one BM-row block
    and CLUSTER_SIZE neighbouring BN-column blocks)."""
    rank = tle.shard_id(mesh, "cluster_x")
    cluster_id = tl.program_id(0) // CLUSTER_SIZE
    groups_n = tl.cdiv(tl.cdiv(N, BN), CLUSTER_SIZE)
    rows = (cluster_id // groups_n) * BM + tl.arange(0, BM)
    cols = ((cluster_id % groups_n) * CLUSTER_SIZE + rank) * BN + tl.arange(0, BN)
    return rank, rows, cols


@triton.jit
def staged_remote_dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, mesh: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                             BK: tl.constexpr, DOT_K: tl.constexpr, SLOTS: tl.constexpr, CLUSTER_SIZE: tl.constexpr):
    # C = A @ B (fp16 in, fp32 out), row-major, whole tiles. A cluster owns
    # one BM-row block and CLUSTER_SIZE neighbouring BN-column blocks. Each
    # K step, rank 0 stages A's [BM, BK] tile in slot (step % SLOTS) of its
    # buffer; after a cluster barrier every rank multiplies DOT_K-wide
    # pieces of it (rank 0 locally, the others through tle.remote) with its
    # own B columns; a second barrier ends the step.
    rank, rows, cols = _cluster_tile(N, mesh, BM, BN, CLUSTER_SIZE)
    tile_r = tl.broadcast_to(tl.arange(0, BM)[:, None], (BM, BK))
    tile_c = tl.broadcast_to(tl.arange(0, BK)[None, :], (BM, BK))
    piece_r = tl.broadcast_to(tl.arange(0, BM)[:, None], (BM, DOT_K))
    a_buf = tle.gpu.alloc([SLOTS, BM, BK], dtype=tl.float16, layout=None, scope=tle.gpu.smem,
                          nv_mma_shared_layout=False)
    home = tle.remote(a_buf, 0, scope=mesh)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        slot = (k0 // BK) % SLOTS
        if rank == 0:
            a = tl.load(a_ptr + rows[:, None] * K + (k0 + tl.arange(0, BK))[None, :])
            tl.store(tle.gpu.local_ptr(a_buf, (tl.zeros((BM, BK), tl.int32) + slot, tile_r, tile_c)), a)
        tle.distributed_barrier(mesh)
        for ks in range(0, BK, DOT_K):
            piece_c = tl.broadcast_to((ks + tl.arange(0, DOT_K))[None, :], (BM, DOT_K))
            idx = (tl.zeros((BM, DOT_K), tl.int32) + slot, piece_r, piece_c)
            if rank == 0:
                a = tl.load(tle.gpu.local_ptr(a_buf, idx))
            else:
                a = tl.load(tle.gpu.local_ptr(home, idx))
            b = tl.load(b_ptr + (k0 + ks + tl.arange(0, DOT_K))[:, None] * N + cols[None, :])
            acc = tl.dot(a, b, acc)
        tle.distributed_barrier(mesh)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


@triton.jit
def prefetched_remote_dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, mesh: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                                 BK: tl.constexpr, DOT_K: tl.constexpr, CLUSTER_SIZE: tl.constexpr,
                                 NV_MMA: tl.constexpr, SLOTS: tl.constexpr = 2):
    # The same product in the order of FlagTree's cluster-GEMM tutorial: rank
    # 0 stages the first A tile before the loop; each K step every rank
    # multiplies slot (step % SLOTS) through tle.remote (rank 0 too), then
    # rank 0 alone (`if has_next and rank == 0`) refills slot
    # ((step + 1) % SLOTS) with the next tile, and one cluster barrier ends
    # the step. With two slots the refill is of the other slot, which TLE's
    # barrier pass proves disjoint from the step's reads (no barrier); with
    # one it overwrites the slot just read, and the cluster barrier the pass
    # adds must go before the branch, where every CTA runs.
    rank, rows, cols = _cluster_tile(N, mesh, BM, BN, CLUSTER_SIZE)
    tile_r = tl.broadcast_to(tl.arange(0, BM)[:, None], (BM, BK))
    tile_c = tl.broadcast_to(tl.arange(0, BK)[None, :], (BM, BK))
    piece_r = tl.broadcast_to(tl.arange(0, BM)[None, :], (DOT_K, BM))
    a_buf = tle.gpu.alloc([SLOTS, BM, BK], dtype=tl.float16, layout=None, scope=tle.gpu.smem,
                          nv_mma_shared_layout=NV_MMA)
    home = tle.remote(a_buf, 0, scope=mesh)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    if rank == 0:
        a = tl.load(a_ptr + rows[:, None] * K + tl.arange(0, BK)[None, :])
        tl.store(tle.gpu.local_ptr(a_buf, (tl.zeros((BM, BK), tl.int32), tile_r, tile_c)), a)
    tle.distributed_barrier(mesh)
    for k0 in range(0, K, BK):
        step = k0 // BK
        slot = step % SLOTS
        for ks in range(0, BK, DOT_K):
            piece_c = tl.broadcast_to((ks + tl.arange(0, DOT_K))[:, None], (DOT_K, BM))
            a_t = tl.load(tle.gpu.local_ptr(home, (tl.zeros((DOT_K, BM), tl.int32) + slot, piece_r, piece_c)))
            b = tl.load(b_ptr + (k0 + ks + tl.arange(0, DOT_K))[:, None] * N + cols[None, :])
            acc = tl.dot(tl.trans(a_t), b, acc)
        next_k0 = k0 + BK
        if next_k0 < K and rank == 0:
            a = tl.load(a_ptr + rows[:, None] * K + (next_k0 + tl.arange(0, BK))[None, :])
            tl.store(tle.gpu.local_ptr(a_buf, (tl.zeros((BM, BK), tl.int32) + (step + 1) % SLOTS, tile_r, tile_c)), a)
        tle.distributed_barrier(mesh)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


@triton.jit
def retarget_kernel(out_ptr, mesh: tl.constexpr, BLOCK: tl.constexpr):
    # tle.remote of pointers already remote (FlagTree's top-k selector hands
    # rank-0 pointers to a helper that applies tle.remote to them again):
    # the pointers are re-targeted. Each CTA fills its buffer with
    # 100 * (rank + 1) + i; then reads rank 0's copy through
    # remote(local_ptr(remote(buf, 1)), 0) and, through a select that
    # hides the first tle.remote, rank 1's copy.
    pid = tl.program_id(0)
    rank = tle.shard_id(mesh, "cluster_x")
    offs = tl.arange(0, BLOCK)
    buf = tle.gpu.alloc([BLOCK], dtype=tl.int32, layout=None, scope=tle.gpu.smem, nv_mma_shared_layout=False)
    tl.store(tle.gpu.local_ptr(buf, (offs, )), 100 * (rank + 1) + offs)
    tle.distributed_barrier(mesh)
    at1 = tle.gpu.local_ptr(tle.remote(buf, 1, scope=mesh), (offs, ))
    at0 = tle.remote(at1, 0, scope=mesh)
    either = tl.where(rank == 0, at1, tle.remote(tle.gpu.local_ptr(buf, (offs, )), 0, scope=mesh))
    at1_again = tle.remote(either, 1, scope=mesh)
    tl.store(out_ptr + pid * 2 * BLOCK + offs, tl.load(at0))
    tl.store(out_ptr + pid * 2 * BLOCK + BLOCK + offs, tl.load(at1_again))
    tle.distributed_barrier(mesh)


SIGNATURES = {
    "peer_exchange_kernel": {"out_ptr": "*fp32", "shard_id_ptr": "*i32"},
    "program_ids_kernel": {"out_ptr": "*i32"},
    "grid_counter_kernel": {"counter_ptr": "*i32", "out_ptr": "*i32"},
    "grid_shift_kernel": {"buf_ptr": "*i32", "out_ptr": "*i32"},
    "self_roundtrip_kernel": {"x_ptr": "*fp32", "out_ptr": "*fp32", "numel": "i32"},
    "scopeless_peer_kernel": {"out_ptr": "*i32"},
    "shared_a_gemm_kernel": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32"},
    "staged_remote_dot_kernel": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32",
                                 "K": "i32"},
    "retarget_kernel": {"out_ptr": "*i32"},
    "prefetched_remote_dot_kernel": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32",
                                     "K": "i32"},
}


@triton.jit
def block_coordinates_kernel(out_ptr, MESH: tl.constexpr, RANK: tl.constexpr):
    # FlagTree's tle.shard_id(mesh, int axis) on a mesh of block axes: the
    # row-major decomposition of the program id (axes of size 1 give 0).
    pid = tl.program_id(0)
    for axis in tl.static_range(RANK):
        tl.store(out_ptr + pid * RANK + axis, tle.shard_id(MESH, axis))
