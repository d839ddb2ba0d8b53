"""Device-level (multi-GPU) kernels for the torch.distributed tests: each
takes a host context's ``ctx.args()`` as ``C`` and builds the in-kernel
context with ``tle.device_context(MESH, C)``.

Shared by the CPU tests (compile to PTX for world sizes 2, 4 and 8,
test_distributed_torchrun.py) and the GPU worker (dist_worker.py, one process
per GPU under torchrun).
"""

import triton
import triton.language as tl

import tle


@triton.jit
def reshard_1d(X, OUT, C, BLOCK: tl.constexpr, OUT_BLOCK: tl.constexpr, N: tl.constexpr, SRC: tl.constexpr,
               DST: tl.constexpr, MESH: tl.constexpr):
    """Program p reshards X[p] (this device's block of a length-N tensor laid
    out as SRC) to DST and writes OUT[p]."""
    ctx = tle.device_context(MESH, C)
    p = tl.program_id(0)
    x = tle.make_sharded_tensor(tl.load(X + p * BLOCK + tl.arange(0, BLOCK)), SRC, [N], context=ctx)
    y = tle.reshard(x, DST, context=ctx)
    tl.store(OUT + p * OUT_BLOCK + tl.arange(0, OUT_BLOCK), y)


@triton.jit
def reshard_2d(X, OUT, C, B0: tl.constexpr, B1: tl.constexpr, O0: tl.constexpr, O1: tl.constexpr, M: tl.constexpr,
               N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, MESH: tl.constexpr):
    """X: this device's B0 x B1 block of an M x N tensor laid out as SRC;
    OUT: its O0 x O1 block laid out as DST."""
    ctx = tle.device_context(MESH, C)
    src = tl.arange(0, B0)[:, None] * B1 + tl.arange(0, B1)[None, :]
    x = tle.make_sharded_tensor(tl.load(X + src), SRC, [M, N], context=ctx)
    y = tle.reshard(x, DST, context=ctx)
    tl.store(OUT + tl.arange(0, O0)[:, None] * O1 + tl.arange(0, O1)[None, :], y)


@triton.jit
def dot_blocks(A, B, OUT, C, AM: tl.constexpr, AK: tl.constexpr, BK: tl.constexpr, BN: tl.constexpr,
               OM: tl.constexpr, ON: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               A_S: tl.constexpr, B_S: tl.constexpr, OUT_S: tl.constexpr, MESH: tl.constexpr):
    """tle.distributed_dot of this device's blocks A (AM x AK) and B (BK x BN)
    of an M x K and a K x N matrix; OUT: the OM x ON block of the result
    laid out as OUT_S (None: the natural layout without partial sums)."""
    ctx = tle.device_context(MESH, C)
    a = tle.make_sharded_tensor(tl.load(A + tl.arange(0, AM)[:, None] * AK + tl.arange(0, AK)[None, :]), A_S, [M, K],
                                context=ctx)
    b = tle.make_sharded_tensor(tl.load(B + tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :]), B_S, [K, N],
                                context=ctx)
    out = tle.distributed_dot(a, b, out_sharding=OUT_S, context=ctx)
    tl.store(OUT + tl.arange(0, OM)[:, None] * ON + tl.arange(0, ON)[None, :], out)


@triton.jit
def remote_ring(BUF, OUT, COUNT, C, N: tl.constexpr, D: tl.constexpr, MESH: tl.constexpr):
    """Device-space remote stores, loads and atomics.

    BUF (symmetric, 2 * N): each device stores its X (= rank * 1000 + i) into
    the *next* device's BUF[0:N] (remote store), adds 1 to device 0's COUNT
    (symmetric, remote atomic at system scope), meets every peer
    (tle.distributed_barrier), then loads the *previous* device's BUF[0:N]
    (remote load: what the one before it stored there) into OUT[0:N] and its
    own BUF[0:N] into OUT[N:2N]; after a second barrier, device 0's COUNT is
    read into OUT[2N]."""
    ctx = tle.device_context(MESH, C)
    rank = ctx.rank
    offs = tl.arange(0, N)
    x = rank * 1000 + offs
    nxt = (rank + 1) % D
    prv = (rank + D - 1) % D
    tl.store(tle.remote(BUF + offs, nxt, MESH, context=ctx), x)
    tl.atomic_add(tle.remote(COUNT, 0, MESH, context=ctx), 1, sem="relaxed", scope="sys")
    tle.distributed_barrier(MESH, context=ctx)
    tl.store(OUT + offs, tl.load(tle.remote(BUF + offs, prv, MESH, context=ctx)))
    tl.store(OUT + N + offs, tl.load(BUF + offs))
    tle.distributed_barrier(MESH, context=ctx)
    tl.store(OUT + 2 * N, tl.load(tle.remote(COUNT, 0, MESH, context=ctx)))


@triton.jit
def barrier_rounds(BUF, OUT, C, ROUNDS: tl.constexpr, D: tl.constexpr, MESH: tl.constexpr):
    """ROUNDS of: write round r into the next device's BUF slot, barrier,
    read own slot (must be the previous device's round r), barrier.
    OUT[r] = what arrived in round r. Program p uses BUF[p]."""
    ctx = tle.device_context(MESH, C)
    p = tl.program_id(0)
    rank = ctx.rank
    nxt = (rank + 1) % D
    for r in range(ROUNDS):
        tl.store(tle.remote(BUF + p, nxt, MESH, context=ctx), r * 100 + rank)
        tle.distributed_barrier(MESH, context=ctx)
        tl.store(OUT + p * ROUNDS + r, tl.load(BUF + p))
        tle.distributed_barrier(MESH, context=ctx)


@triton.jit
def shard_ids(OUT, C, MESH: tl.constexpr, AX0: tl.constexpr, AX1: tl.constexpr):
    """OUT = this device's coordinates along AX0 and AX1 (tle.shard_id)."""
    ctx = tle.device_context(MESH, C)
    tl.store(OUT, tle.shard_id(MESH, AX0, context=ctx))
    tl.store(OUT + 1, tle.shard_id(MESH, AX1, context=ctx))


@triton.jit
def lonely_barrier(C, MESH: tl.constexpr):
    """A barrier only rank 0 launches (the debug-mode test: it must time out)."""
    ctx = tle.device_context(MESH, C)
    tle.distributed_barrier(MESH, context=ctx)


# --- FlagTree's device path on a registered buffer (tle.create_dist_tensor, tle.signal, tle.signal_wait)


@triton.jit
def ft_all_gather_push(local, ag, dist_ctx: tl.constexpr, mesh: tl.constexpr, ELEM_PER_RANK: tl.constexpr,
                       BLOCK: tl.constexpr):
    """FlagTree's intra-node all-gather, its push kernel: program (peer, b)
    stores block b of this rank's ``local`` into rows rank * ELEM_PER_RANK
    of ``peer``'s ``ag`` (its own copy for peer == rank)."""
    peer = tl.program_id(0)
    rank = tle.shard_id(mesh, "device", device_dptr=dist_ctx)
    base = rank * ELEM_PER_RANK
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < ELEM_PER_RANK
    vals = tl.load(local + offs, mask=mask, other=0.0)
    if peer != rank:
        dst = tle.remote(dist_ctx, shard_id=peer, space="device", dtype=ag.dtype.element_ty, offset=base)
        tl.store(dst + offs, vals, mask=mask)
    else:
        tl.store(ag + base + offs, vals, mask=mask)


@triton.jit
def ft_all_gather_signal(dist_ctx: tl.constexpr, mesh: tl.constexpr, SLOT: tl.constexpr):
    """Program ``peer`` adds one to slot SLOT of every other rank."""
    peer = tl.program_id(0)
    if peer != tle.shard_id(mesh, "device", device_dptr=dist_ctx):
        tle.signal(dist_ctx, peer, slot_id=SLOT, op="inc", space="intra_node", group_kind="block", context_id=0)


@triton.jit(do_not_specialize=["target"])
def ft_all_gather_wait(dist_ctx: tl.constexpr, target, SLOT: tl.constexpr):
    """Wait until slot SLOT of this rank reached ``target``."""
    tle.signal_wait(dist_ctx, slot_id=SLOT, wait_kind="signal", target=target, group_kind="block", context_id=0)


@triton.jit
def ft_ring_add(x, dist_ctx: tl.constexpr, mesh: tl.constexpr, W: tl.constexpr, N: tl.constexpr, ROUND: tl.constexpr):
    """One ring step: this rank adds its x into the next rank's buffer
    (``tle.remote`` with a runtime rank, atomics over NVLink), signals it by
    ``op="add"`` of the round number, and waits until its own slot reached
    1 + 2 + ... + ROUND (every earlier round's signal from the previous
    rank) before reading its buffer."""
    rank = tle.shard_id(mesh, "device", device_dptr=dist_ctx)
    nxt = (rank + 1) % W
    offs = tl.arange(0, N)
    dst = tle.remote(dist_ctx, shard_id=nxt, space="device", dtype=tl.float32)
    tl.atomic_add(dst + offs, tl.load(x + offs), sem="relaxed", scope="sys")
    tle.signal(dist_ctx, nxt, slot_id=1, value=ROUND, op="add")
    tle.signal_wait(dist_ctx, slot_id=1, target=ROUND * (ROUND + 1) // 2)


@triton.jit
def ft_comm_exchange(dev_comm, dev_mem, out, N: tl.constexpr, ROUNDS: tl.constexpr):
    # FlagTree's runtime handles (tle.create_comm_tensor): every round each
    # program writes its block of the registered buffer, meets the same
    # program of every rank at the communicator's barrier, reads the next
    # rank's block, and meets again before the buffer is written anew.
    pid = tl.program_id(0)
    rank = tle.my_pe(dev_comm)
    offs = tl.arange(0, N)
    mine = tle.remote(dev_mem, shard_id=rank, space="device", dtype=tl.float32, offset=pid * N)
    for r in tl.static_range(ROUNDS):
        tl.store(mine + offs, (rank * 1000 + pid * 10 + r).to(tl.float32) + offs * 0.0)
        tle.distributed_barrier(comm_ptr=dev_comm, space="device", group_kind="block", order="acqrel",
                                barrier_kind="sync")
        peer = (rank + 1) % tle_world(dev_comm)
        theirs = tle.remote(dev_mem, shard_id=peer, space="device", dtype=tl.float32, offset=pid * N)
        tl.store(out + (r * tl.num_programs(0) + pid) * N + offs, tl.load(theirs + offs, volatile=True))
        tle.distributed_barrier(comm_ptr=dev_comm, space="device")


@triton.jit
def tle_world(dev_comm):
    # The communicator table's world size (word 2; comm_handles.py).
    return tl.load(dev_comm.to(tl.pointer_type(tl.int64)) + 2).to(tl.int32)


@triton.jit
def ft_ctx_barrier_exchange(out, dist_ctx: tl.constexpr, mesh: tl.constexpr, N: tl.constexpr, ROUNDS: tl.constexpr):
    # FlagTree's newer barrier: tle.distributed_barrier(device_dptr=ctx,
    # space="device") between rounds that write this rank's block of the
    # registered buffer and read the next rank's.
    pid = tl.program_id(0)
    rank = tle.shard_id(mesh, "device", device_dptr=dist_ctx)
    offs = tl.arange(0, N)
    mine = tle.remote(dist_ctx, shard_id=rank, space="device", dtype=tl.float32, offset=pid * N)
    for r in tl.static_range(ROUNDS):
        tl.store(mine + offs, (rank * 1000 + pid * 10 + r).to(tl.float32) + offs * 0.0)
        tle.distributed_barrier(device_dptr=dist_ctx, space="device")
        peer = (rank + 1) % mesh.shape[0]
        theirs = tle.remote(dist_ctx, shard_id=peer, space="device", dtype=tl.float32, offset=pid * N)
        tl.store(out + (r * tl.num_programs(0) + pid) * N + offs, tl.load(theirs + offs, volatile=True))
        tle.distributed_barrier(device_dptr=dist_ctx, space="device")
