"""Kernels using sharded tensors, tle.reshard and tle.distributed_dot over a
thread-block cluster (distributed shared memory).

Shared by the CPU tests (compile to PTX, inspect) and the GPU tests (run,
compare with torch). A grid of G runs G clusters of 4 CTAs; a program is a
CTA (``tl.program_id(0)`` is its global index, as in FlagTree), so every
kernel takes its cluster as ``tl.program_id(0) // 4`` and offsets its inputs
and outputs by it: a grid of several clusters checks that clusters do not
mix. A 2 x 2 cluster is launched as FlagTree launches one, (2, 2, 1): a
grid of G has program ids x in [0, 2 G) and y in {0, 1}, so those kernels
take their cluster as ``tl.program_id(0) // 2``.
"""

import triton
import triton.language as tl

import tle

MESH4 = tle.device_mesh({"block_cluster": [("cx", 4)]})
MESH2x2 = tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 2)]})
MESH2 = tle.device_mesh({"block_cluster": [("cx", 2)]})


def split(mesh, *dims, partial=()):
    return tle.sharding(mesh, split=list(dims), partial=list(partial))


@triton.jit
def all_gather(X, OUT, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    """X (per cluster, N elements) split over the cluster; every CTA gathers
    the whole vector and writes it to OUT[cluster, rank, :]."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    x = tle.make_sharded_tensor(X + cluster * N, SRC, [N])
    full = tle.reshard(x, DST)
    tl.store(OUT + (cluster * 4 + rank) * N + tl.arange(0, N), full)


@triton.jit
def all_reduce(X, OUT, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    """X[cluster, r, :] is CTA r's partial sum; every CTA all-reduces and
    writes OUT[cluster, rank, :] = sum over r."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    x = tle.make_sharded_tensor(X + cluster * 4 * N, SRC, [N])
    total = tle.reshard(x, DST)
    tl.store(OUT + (cluster * 4 + rank) * N + tl.arange(0, N), total)


@triton.jit
def reduce_scatter(X, OUT, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    """Partial sums X[cluster, r, :]; CTA r ends with block r of the sum and
    writes it to OUT[cluster, r * N / 4 :]."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    x = tle.make_sharded_tensor(X + cluster * 4 * N, SRC, [N])
    block = tle.reshard(x, DST)
    offs = rank * (N // 4) + tl.arange(0, N // 4)
    tl.store(OUT + cluster * N + offs, block)


@triton.jit
def gather_to_root(X, OUT, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr,
                   ROOT: tl.constexpr):
    """S -> B to CTA ROOT only: OUT[cluster, rank, :] is X for ROOT, zeros elsewhere."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    x = tle.make_sharded_tensor(X + cluster * N, SRC, [N])
    full = tle.reshard(x, DST, root=ROOT)
    tl.store(OUT + (cluster * 4 + rank) * N + tl.arange(0, N), full)


@triton.jit
def scatter(X, OUT, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    """B -> S: every CTA holds all of X and keeps its block (no communication)."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    x = tle.make_sharded_tensor(X + cluster * N, SRC, [N])
    block = tle.reshard(x, DST)
    tl.store(OUT + cluster * N + rank * (N // 4) + tl.arange(0, N // 4), block)


@triton.jit
def all_gather_2d(X, OUT, M: tl.constexpr, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr,
                  MESH: tl.constexpr):
    """An M x N tile split over a 2 x 2 cluster (rows over cx, columns over
    cy), gathered whole on every CTA: OUT[cluster, cta] = X[cluster]."""
    cluster = tl.program_id(0) // 2  # a (2, 2, 1) cluster launch: x in [0, 2 G), y in {0, 1}
    cta = tle.shard_id(MESH, "cx") * 2 + tle.shard_id(MESH, "cy")
    x = tle.make_sharded_tensor(X + cluster * M * N, SRC, [M, N])
    full = tle.reshard(x, DST)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(OUT + (cluster * 4 + cta) * M * N + offs, full)


@triton.jit
def looped_all_reduce(X, OUT, N: tl.constexpr, STEPS: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr,
                      MESH: tl.constexpr):
    """STEPS all-reduces of a running value in a loop (the shared buffer is
    reused every iteration): v <- allreduce(v) + 1, from X[cluster, r, :]."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    v = tl.load(X + (cluster * 4 + rank) * N + tl.arange(0, N))
    for _ in range(STEPS):
        s = tle.reshard(tle.make_sharded_tensor(v, SRC, [N]), DST)
        v = s + 1.0
    tl.store(OUT + (cluster * 4 + rank) * N + tl.arange(0, N), v)


@triton.jit
def dot_k_split(A, B, C, OUT, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, A_S: tl.constexpr,
                B_S: tl.constexpr, MESH: tl.constexpr, ADD_C: tl.constexpr):
    """A (M x K) split along K, B (K x N) split along K over the cluster:
    partial products, all-reduced; every CTA writes OUT[cluster, rank] =
    A @ B (+ C)."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    a = tle.make_sharded_tensor(A + cluster * M * K, A_S, [M, K])
    b = tle.make_sharded_tensor(B + cluster * K * N, B_S, [K, N])
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    if ADD_C:
        c = tl.load(C + cluster * M * N + offs)
        out = tle.distributed_dot(a, b, c)
    else:
        out = tle.distributed_dot(a, b)
    tl.store(OUT + (cluster * 4 + rank) * M * N + offs, out)


@triton.jit
def dot_rows(A, B, OUT, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, A_S: tl.constexpr,
             B_S: tl.constexpr, MESH: tl.constexpr):
    """A split along M, B split along N over the same cluster axis: B is
    all-gathered, each CTA computes its M / 4 rows of A @ B and writes them
    to OUT[cluster, rows]."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    a = tle.make_sharded_tensor(A + cluster * M * K, A_S, [M, K])
    b = tle.make_sharded_tensor(B + cluster * K * N, B_S, [K, N])
    out = tle.distributed_dot(a, b)
    rows = rank * (M // 4) + tl.arange(0, M // 4)
    tl.store(OUT + cluster * M * N + rows[:, None] * N + tl.arange(0, N)[None, :], out)


@triton.jit
def dot_k_split_scatter(A, B, OUT, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, A_S: tl.constexpr,
                        B_S: tl.constexpr, OUT_S: tl.constexpr, MESH: tl.constexpr):
    """K split, result reduce-scattered along M (out_sharding): CTA r writes
    rows [r * M / 4, (r + 1) * M / 4) of A @ B."""
    cluster = tl.program_id(0) // 4  # a program is a CTA, 4 per cluster
    rank = tle.shard_id(MESH, "cx")
    a = tle.make_sharded_tensor(A + cluster * M * K, A_S, [M, K])
    b = tle.make_sharded_tensor(B + cluster * K * N, B_S, [K, N])
    out = tle.distributed_dot(a, b, out_sharding=OUT_S)
    rows = rank * (M // 4) + tl.arange(0, M // 4)
    tl.store(OUT + cluster * M * N + rows[:, None] * N + tl.arange(0, N)[None, :], out)


# Layouts used by the tests (constexpr arguments).
S4 = split(MESH4, tle.S("cx"))
B4 = split(MESH4, tle.B)
P4 = split(MESH4, tle.B, partial=[tle.P("cx")])
S2x2 = split(MESH2x2, tle.S("cx"), tle.S("cy"))
BB2x2 = split(MESH2x2, tle.B, tle.B)
A_K = split(MESH4, tle.B, tle.S("cx"))
B_K = split(MESH4, tle.S("cx"), tle.B)
A_M = split(MESH4, tle.S("cx"), tle.B)
B_N = split(MESH4, tle.B, tle.S("cx"))
OUT_M = split(MESH4, tle.S("cx"), tle.B)


# Sub-mesh barriers (FlagTree's mesh slicing): a 2 x 2 cluster whose rows
# meet separately.
MESH2x2_CFG = tle.device_mesh(tle.MeshConfig(block_cluster=[("cx", 2), ("cy", 2)]))
ROW0 = MESH2x2_CFG[0, :]
ROW1 = MESH2x2_CFG[1, :]
COL0 = MESH2x2_CFG[:, 0]
COL1 = MESH2x2_CFG[:, 1]


@triton.jit
def submesh_exchange(OUT, ITERS: tl.constexpr, DELAY: tl.constexpr, MESH: tl.constexpr, ROW0: tl.constexpr,
                     ROW1: tl.constexpr, ROW_ONLY: tl.constexpr):
    """Each iteration, CTA (x, y) writes 100 * i + its rank into its shared
    word (the y == 1 CTA after a spin of DELAY ns), its row meets at a
    sub-mesh barrier, it reads its row partner's word into
    OUT[cluster, i, rank], and the row meets again before the next write.
    Both rows call both row barriers (a CTA goes through the other row's at
    once); with ROW_ONLY, only row 0 runs the loop at all and row 1 returns
    straight away. The control passes the columns (MESH[:, 0], MESH[:, 1])
    as ROW0 / ROW1: each CTA then meets the other CTA of its column, not its
    partner, and reads race the late writer (TLE's barrier pass takes a
    sub-mesh barrier as the user's ordering and adds none)."""
    cluster = tl.program_id(0) // 2  # a (2, 2, 1) cluster launch: x in [0, 2 G), y in {0, 1}
    x = tle.shard_id(MESH, "cx")
    y = tle.shard_id(MESH, "cy")
    rank = x * 2 + y
    word = tle.gpu.alloc([1], dtype=tl.int32)
    mine = tle.gpu.local_ptr(word, (0, ))
    peer = tle.gpu.local_ptr(tle.remote(word, x * 2 + (1 - y), scope=MESH), (0, ))
    if ROW_ONLY:
        active = x == 0
    else:
        active = x >= 0
    if active:
        for i in range(ITERS):
            if y == 1:
                start = tl.extra.cuda.globaltimer()
                while tl.extra.cuda.globaltimer() - start < DELAY:
                    pass
            tl.store(mine, 100 * i + rank)
            tle.distributed_barrier(ROW0)
            tle.distributed_barrier(ROW1)
            tl.store(OUT + (cluster * ITERS + i) * 4 + rank, tl.load(peer))
            tle.distributed_barrier(ROW0)
            tle.distributed_barrier(ROW1)
    if not ROW_ONLY:
        # No CTA leaves while its partner may still read its word.
        tle.distributed_barrier(MESH)


# Clusters launched in two or three dimensions (FlagTree's cluster_dims): a
# 2 x 2 mesh is a (2, 2, 1) cluster, (1, 2) a (1, 2, 1) one, (2, 1, 2) a
# (2, 1, 2) one.
MESH1x2 = tle.device_mesh({"block_cluster": [("cm", 1), ("cn", 2)]})
MESH2x1x2 = tle.device_mesh({"block_cluster": [("a", 2), ("b", 1), ("c", 2)]})
CLUSTER_ID_FIELDS = 12


@triton.jit
def cluster_ids(OUT, MESH: tl.constexpr, A0: tl.constexpr, A1: tl.constexpr, A2: tl.constexpr):
    """Row (z, y, x) of OUT, for the program with program ids (x, y, z): those
    ids, tl.num_programs along x, y, z, its shard ids along the mesh axes A0,
    A1, A2 (A2 "" for a 2-axis mesh: 0), and the program ids of its
    cluster's rank-0 CTA, written by that CTA into its shared memory and read
    through tle.remote: the CTAs a program's ids put in one cluster share one."""
    px = tl.program_id(0)
    py = tl.program_id(1)
    pz = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    s0 = tle.shard_id(MESH, A0)
    s1 = tle.shard_id(MESH, A1)
    if A2 != "":
        s2 = tle.shard_id(MESH, A2)
    else:
        s2 = 0
    ids = tle.gpu.alloc([4], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(ids, (0, )), px)
    tl.store(tle.gpu.local_ptr(ids, (1, )), py)
    tl.store(tle.gpu.local_ptr(ids, (2, )), pz)
    tle.distributed_barrier(MESH)
    root = tle.remote(ids, 0, scope=MESH)
    r0 = tl.load(tle.gpu.local_ptr(root, (0, )))
    r1 = tl.load(tle.gpu.local_ptr(root, (1, )))
    r2 = tl.load(tle.gpu.local_ptr(root, (2, )))
    tle.distributed_barrier(MESH)  # rank 0 stays until every CTA has read its ids
    row = OUT + ((pz * ny + py) * nx + px) * 12
    fields = (px, py, pz, nx, ny, nz, s0, s1, s2, r0, r1, r2)
    for i in tl.static_range(12):
        tl.store(row + i, fields[i])
