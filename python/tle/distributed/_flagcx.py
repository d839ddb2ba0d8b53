"""FlagTree's host calls for its device-path communication
(``tle.get_mem_pool``, ``tle.create_dist_tensor``, ``tle.cleanup_communicator``;
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


def create_dist_tensor(tensor, group=None, num_signal_slots: int = 64) -> DistributedRtContext:
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
    torch.cuda.synchronize()
    dist.barrier(group)  # every rank's slots are zero before any peer signals
    _live.append((handle, signals, signal_handle))
    return DistributedRtContext(rank=rank, world_size=world,
                                buffer_ptrs=tuple(int(p) + offset for p in handle.buffer_ptrs),
                                dtype=str(tensor.dtype).replace("torch.", ""), numel=tensor.numel(),
                                signal_ptrs=tuple(int(p) + signal_offset for p in signal_handle.buffer_ptrs),
                                num_slots=num_signal_slots)


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
