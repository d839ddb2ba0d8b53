"""FlagTree's host calls for its device-path communication
(``tle.get_mem_pool``, ``tle.create_dist_tensor``, ``tle.create_comm_tensor``,
``tle.cleanup_communicator``;
FlagCX there) on ``torch.distributed``'s symmetric memory (docs/distributed.md,
"FlagTree's create_dist_tensor, signal and signal_wait"). One process per GPU
under ``torchrun``; no runtime of TLE's own."""

from __future__ import annotations

from ..language._markers import TLEUsageError
from ..language.signals import DistributedRtContext
from ._context import keep_multicast_off

# What a context keeps alive (the symmetric handles and signal slots), and
# whether TLE started the process group (cleanup_communicator ends it then).
_live: list = []
_started_group = [False]


def _torch():
    import torch
    import torch.distributed as dist
    return torch, dist


def _ensure_group():
    """torch and torch.distributed, the default group initialized. Starting
    it (under torchrun) also binds this process to GPU ``LOCAL_RANK``, as
    FlagCX does: FlagTree's scripts may ask for the pool before they call
    ``torch.cuda.set_device``."""
    import os
    torch, dist = _torch()
    keep_multicast_off()
    if not dist.is_available():
        raise TLEUsageError("tle.get_mem_pool / tle.create_dist_tensor need torch.distributed")
    if not dist.is_initialized():
        if "RANK" not in os.environ or "WORLD_SIZE" not in os.environ:
            raise TLEUsageError("tle.get_mem_pool / tle.create_dist_tensor: torch.distributed is not initialized "
                                "and no launcher set RANK / WORLD_SIZE; run one process per GPU under torchrun "
                                "(or call dist.init_process_group first)")
        if "LOCAL_RANK" in os.environ:
            torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
        dist.init_process_group("nccl", device_id=torch.device("cuda", torch.cuda.current_device()))
        _started_group[0] = True
    return torch, dist


def get_mem_pool():
    """The memory pool symmetric buffers come from (FlagTree's
    ``tle.get_mem_pool``): torch's symmetric-memory pool for this process's
    current CUDA device. Allocate the buffers a kernel reaches on peers with
    ``torch.cuda.use_mem_pool(pool)`` on every rank in the same order, then
    register them with ``tle.create_dist_tensor``. Initializes
    ``torch.distributed`` (NCCL, from torchrun's environment) when nothing
    did, and keeps NVLink multicast off.

    Returns:
        A ``torch.cuda.MemPool``.

    Example::

        torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
        with torch.cuda.use_mem_pool(tle.get_mem_pool()):
            buf = torch.empty((M, N), dtype=torch.float16, device="cuda")
        ctx = tle.create_dist_tensor(buf)
    """
    torch, _ = _ensure_group()
    import torch.distributed._symmetric_memory as symm_mem
    if not hasattr(symm_mem, "get_mem_pool"):
        raise TLEUsageError(f"tle.get_mem_pool needs torch's symmetric-memory pool "
                            f"(torch.distributed._symmetric_memory.get_mem_pool; torch {torch.__version__} has none)")
    return symm_mem.get_mem_pool(torch.device("cuda", torch.cuda.current_device()))


def create_dist_tensor(tensor, group=None, num_signal_slots: int = 64, max_programs: int = 4096) -> DistributedRtContext:
    """Register ``tensor`` with every rank of ``group`` (FlagTree's
    ``tle.create_dist_tensor``; a collective: every rank calls it for its
    own buffer of the same size, in the same order). ``tensor`` must be
    symmetric memory: allocated under ``torch.cuda.use_mem_pool(
    tle.get_mem_pool())`` or by ``torch.distributed._symmetric_memory.empty``.
    The context also holds ``num_signal_slots`` uint32 signal slots per rank
    (``tle.signal`` / ``tle.signal_wait``), zero when it returns on every
    rank.

    Args:
        tensor: a contiguous CUDA tensor in symmetric memory.
        group: a process group, or None for the default (world) group.
        num_signal_slots: the signal slots per rank (> 0).
        max_programs: the most programs of one launch that meet at
            ``tle.distributed_barrier(device_dptr=ctx, space="device")``
            (one int32 counter per program and rank); a launch with more
            is a device-side assertion.

    Returns:
        A ``DistributedRtContext``: pass it to kernels as a ``tl.constexpr``
        argument (``tle.remote(ctx, shard_id=r, space="device", dtype=T,
        offset=o)``, ``tle.signal``, ``tle.signal_wait``,
        ``tle.shard_id(mesh, "device", device_dptr=ctx)``).

    Example::

        ctx = tle.create_dist_tensor(buf)
        kernel[grid](buf, ctx, MESH)
    """
    torch, dist = _ensure_group()
    import torch.distributed._symmetric_memory as symm_mem
    if not isinstance(tensor, torch.Tensor) or not tensor.is_cuda or not tensor.is_contiguous():
        raise TLEUsageError("tle.create_dist_tensor: tensor must be a contiguous CUDA tensor in symmetric memory")
    if isinstance(num_signal_slots, bool) or not isinstance(num_signal_slots, int) or num_signal_slots <= 0:
        raise TLEUsageError(f"tle.create_dist_tensor: num_signal_slots must be an int > 0, got {num_signal_slots!r}")
    if isinstance(max_programs, bool) or not isinstance(max_programs, int) or max_programs <= 0:
        raise TLEUsageError(f"tle.create_dist_tensor: max_programs must be an int > 0, got {max_programs!r}")
    group = group if group is not None else dist.group.WORLD
    try:
        handle = symm_mem.rendezvous(tensor, group)
    except Exception as e:  # torch: the tensor is no symmetric allocation
        raise TLEUsageError(f"tle.create_dist_tensor: the tensor is not symmetric memory ({e}); allocate it under "
                            "torch.cuda.use_mem_pool(tle.get_mem_pool()) or with symm_mem.empty on every rank") from None
    rank, world = dist.get_rank(group), dist.get_world_size(group)
    base = handle.buffer_ptrs[rank]
    offset = tensor.data_ptr() - base
    signals = symm_mem.empty(num_signal_slots, dtype=torch.int32, device=tensor.device)
    signals.zero_()
    signal_handle = symm_mem.rendezvous(signals, group)
    signal_offset = signals.data_ptr() - signal_handle.buffer_ptrs[rank]
    counters = symm_mem.empty(max_programs * world, dtype=torch.int32, device=tensor.device)
    counters.zero_()
    counter_handle = symm_mem.rendezvous(counters, group)
    counter_offset = counters.data_ptr() - counter_handle.buffer_ptrs[rank]
    torch.cuda.synchronize()
    dist.barrier(group)  # every rank's slots and counters are zero before any peer signals
    _live.append((handle, signals, signal_handle, counters, counter_handle))
    return DistributedRtContext(rank=rank, world_size=world,
                                buffer_ptrs=tuple(int(p) + offset for p in handle.buffer_ptrs),
                                dtype=str(tensor.dtype).replace("torch.", ""), numel=tensor.numel(),
                                signal_ptrs=tuple(int(p) + signal_offset for p in signal_handle.buffer_ptrs),
                                num_slots=num_signal_slots,
                                barrier_ptrs=tuple(int(p) + counter_offset for p in counter_handle.buffer_ptrs),
                                max_programs=max_programs)


def create_comm_tensor(tensor, group=None, max_programs: int = 4096) -> tuple[int, int]:
    """Register ``tensor`` with every rank of ``group`` and return FlagTree's
    runtime handles ``(dev_comm, dev_mem)`` (its older ``tle.create_comm_tensor``;
    a collective, as ``tle.create_dist_tensor``). Each handle is an int, the
    address of a table in this rank's device memory, passed to kernels as an
    ordinary argument (not a constexpr): ``dev_comm`` for
    ``tle.distributed_barrier(comm_ptr=dev_comm, space="device")`` and
    ``tle.my_pe(dev_comm)``, ``dev_mem`` for ``tle.remote(dev_mem,
    shard_id=r, space="device", dtype=T, offset=o)``. One kernel compile
    serves every rank (the addresses are read at run time).

    Args:
        tensor: a contiguous CUDA tensor in symmetric memory (allocated under
            ``torch.cuda.use_mem_pool(tle.get_mem_pool())``).
        group: a process group, or None for the default (world) group; at
            most 64 ranks.
        max_programs: the most programs of one launch that meet at the
            communicator's barrier (each program id has one counter per
            rank); a launch with more is a device-side assertion.

    Returns:
        ``(dev_comm, dev_mem)``, two ints.

    Example::

        with torch.cuda.use_mem_pool(tle.get_mem_pool()):
            x = torch.randn((N, N), device="cuda")
        dev_comm, dev_mem = tle.create_comm_tensor(x)
        kernel[(grid,)](dev_comm, dev_mem, out)
    """
    from ..language import comm_handles as H
    torch, _ = _ensure_group()
    if isinstance(max_programs, bool) or not isinstance(max_programs, int) or max_programs <= 0:
        raise TLEUsageError(f"tle.create_comm_tensor: max_programs must be an int > 0, got {max_programs!r}")
    ctx = create_dist_tensor(tensor, group, num_signal_slots=1, max_programs=max_programs)
    if ctx.world_size > H.MAX_WORLD:
        raise TLEUsageError(f"tle.create_comm_tensor: {ctx.world_size} ranks; a communicator has at most "
                            f"{H.MAX_WORLD}")
    mine = ctx.barrier_ptrs[ctx.rank]
    offsets = [p - mine for p in ctx.barrier_ptrs]  # bytes from mine to rank q's
    comm = torch.tensor([H.COMM_MAGIC, ctx.rank, ctx.world_size, max_programs, mine] + offsets,
                        dtype=torch.int64, device=tensor.device)
    mem = torch.tensor([H.MEM_MAGIC, ctx.rank, ctx.world_size, tensor.numel()] + list(ctx.buffer_ptrs),
                       dtype=torch.int64, device=tensor.device)
    torch.cuda.synchronize()  # the tables are written before a kernel reads them
    _live.append((comm, mem))
    return comm.data_ptr(), mem.data_ptr()


def cleanup_communicator() -> None:
    """Release what ``tle.create_dist_tensor`` registered (FlagTree's
    ``tle.cleanup_communicator``): after a barrier of every rank, the
    contexts' handles and signal slots go, and a process group that
    ``tle.get_mem_pool`` / ``tle.create_dist_tensor`` started is destroyed.
    Kernels compiled with those contexts must not run again.

    Returns:
        None.

    Example::

        ctx = tle.create_dist_tensor(buf)
        kernel[grid](buf, ctx, MESH)
        torch.cuda.synchronize()
        tle.cleanup_communicator()
    """
    torch, dist = _torch()
    if dist.is_available() and dist.is_initialized():
        torch.cuda.synchronize()
        dist.barrier()
    _live.clear()
    if _started_group[0] and dist.is_initialized():
        dist.destroy_process_group()
        _started_group[0] = False
