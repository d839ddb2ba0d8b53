"""FlagTree's runtime communicator handles (``tle.create_comm_tensor``; FlagCX's
``DevComm`` / ``DevMem`` pointers there) on ``torch.distributed``'s symmetric
memory (docs/distributed.md, "FlagTree's create_comm_tensor").

A handle is an int (an ordinary ``int64`` kernel argument): the address of a
small table in this rank's device memory that ``tle.create_comm_tensor``
wrote. The kernel reads the table at run time:

* communicator (``dev_comm``): ``[COMM_MAGIC, rank, world, programs,
  signals, offsets[world]]``: ``signals`` this rank's ``programs * world``
  int32 barrier counters (symmetric, zero at rest), ``offsets[q]`` the byte
  distance from them to rank ``q``'s.
* memory (``dev_mem``): ``[MEM_MAGIC, rank, world, numel, buffer[world]]``:
  every rank's address of the registered tensor.

``tle.distributed_barrier(comm_ptr=dev_comm, space="device")``,
``tle.my_pe(dev_comm)`` and ``tle.remote(dev_mem, shard_id=r,
space="device", dtype=T, offset=o)`` read them; a handle of the other kind
(or none) is a device-side assertion naming the call.
"""

from __future__ import annotations

import triton
import triton.language as tl
from triton.language import core as tlc

from . import _device_sync
from ._markers import TLEUsageError, builtin, describe

COMM_MAGIC = 0x314D4D4F43454C54  # "TLECOMM1", little-endian
MEM_MAGIC = 0x31304D454D454C54  # "TLEMEM01"
COMM_HEADER = 5  # magic, rank, world, programs, signals
MEM_HEADER = 4  # magic, rank, world, numel
MAX_WORLD = 64  # lanes of the barrier: ranks of one communicator at most


@triton.jit
def _comm_rank(comm, MAGIC: tl.constexpr):
    table = comm.to(tl.pointer_type(tl.int64))
    ok = tl.load(table) == MAGIC
    return tl.where(ok, tl.load(table + 1), -1).to(tl.int32)


@triton.jit
def _comm_barrier(comm, MAGIC: tl.constexpr, HEADER: tl.constexpr, LANES: tl.constexpr, LIMIT: tl.constexpr):
    """0: done; 1: a wait ran out of LIMIT polls; 2: not a communicator
    handle; 3: more programs than the communicator has counters for."""
    table = comm.to(tl.pointer_type(tl.int64))
    status = tl.where(tl.load(table) == MAGIC, 0, 2)
    if status == 0:
        programs = tl.load(table + 3)
        status = tl.where(_device_sync.program_linear_id().to(tl.int64) < programs, 0, 3)
        if status == 0:
            signals = tl.load(table + 4).to(tl.pointer_type(tl.int32))
            rank = tl.load(table + 1).to(tl.int32)
            world = tl.load(table + 2).to(tl.int32)
            status = _device_sync.device_barrier(signals, table + HEADER, rank, world, LANES, LIMIT)
    return status


def _handle(value, what: str, arg: str) -> tlc.tensor:
    """``value`` as an int64 scalar: a handle ``tle.create_comm_tensor`` returned."""
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, tlc.tensor) and not value.type.is_block() and value.dtype in (tlc.int64, tlc.uint64):
        return value
    raise TLEUsageError(f"{what}: {arg} must be a handle tle.create_comm_tensor returned (an int passed as a kernel "
                        f"argument, int64 in the kernel), got {describe(value)}")


def _assert(ok, message: str, _semantic) -> None:
    _semantic.builder.create_assert(ok.handle, message)


def barrier(comm_ptr, space, group_kind, order, barrier_kind, _semantic, _generator) -> None:
    """tle.distributed_barrier(comm_ptr=...): program ``pid`` of every rank
    of the communicator meets program ``pid`` of the others."""
    from .. import _state
    what = "tle.distributed_barrier(comm_ptr=...)"
    space, group_kind, order, barrier_kind = (tlc._unwrap_if_constexpr(v)
                                              for v in (space, group_kind, order, barrier_kind))
    if space != "device":
        raise TLEUsageError(f"{what}: space must be 'device' (the ranks of one host), got {space!r}")
    if group_kind not in ("block", None):
        raise TLEUsageError(f"{what}: group_kind {group_kind!r} is not supported; TLE's device barrier is one per "
                            "program (group_kind='block')")
    if order not in ("acqrel", "acq_rel", None):
        raise TLEUsageError(f"{what}: order {order!r} is not supported; the barrier releases this program's writes "
                            "and acquires the peers' (order='acqrel')")
    if barrier_kind not in ("sync", None):
        raise TLEUsageError(f"{what}: barrier_kind {barrier_kind!r} is not supported; TLE's device barrier is a "
                            "whole barrier (barrier_kind='sync')")
    comm = _handle(comm_ptr, what, "comm_ptr")
    limit = _state.device_wait_limit()
    status = _generator.call_JitFunction(_comm_barrier, [comm, COMM_MAGIC, COMM_HEADER, MAX_WORLD, limit], {})
    _assert(_semantic.not_equal(status, _semantic.to_tensor(2)),
            f"{what}: comm_ptr is not a communicator handle from tle.create_comm_tensor (pass its first result)",
            _semantic)
    _assert(_semantic.not_equal(status, _semantic.to_tensor(3)),
            f"{what}: the grid has more programs than the communicator's barrier counters "
            "(tle.create_comm_tensor(..., max_programs=))", _semantic)
    if limit:
        _assert(_semantic.not_equal(status, _semantic.to_tensor(1)),
                f"TLE device wait timed out: {what} waited {limit} polls for a peer (a peer that did not launch "
                "this kernel, or launched another one)", _semantic)


@builtin("tle.my_pe")
def my_pe(comm_ptr, _semantic=None, _generator=None):
    """This rank in the communicator ``comm_ptr`` (FlagTree's ``tle.my_pe``).

    Args:
        comm_ptr: the communicator handle ``tle.create_comm_tensor`` returned
            (its first result), passed as a kernel argument.

    Returns:
        An int32 scalar in ``[0, world size)``.

    Example::

        @triton.jit
        def whoami(OUT, comm):
            tl.store(OUT, tle.my_pe(comm))

        dev_comm, dev_mem = tle.create_comm_tensor(buf)
        whoami[(1,)](out, dev_comm)
    """
    what = "tle.my_pe"
    comm = _handle(comm_ptr, what, "comm_ptr")
    rank = _generator.call_JitFunction(_comm_rank, [comm, COMM_MAGIC], {})
    _assert(_semantic.greater_equal(rank, _semantic.to_tensor(0)),
            f"{what}: comm_ptr is not a communicator handle from tle.create_comm_tensor (pass its first result)",
            _semantic)
    return rank


@triton.jit
def _buffer_address(mem, peer, MAGIC: tl.constexpr, HEADER: tl.constexpr):
    """Rank ``peer``'s address of the registered tensor; 0 for a bad handle or rank."""
    table = mem.to(tl.pointer_type(tl.int64))
    world = tl.load(table + 2).to(tl.int32)
    ok = (tl.load(table) == MAGIC) & (peer >= 0) & (peer < world)
    return tl.where(ok, tl.load(table + HEADER + tl.where(ok, peer, 0)), 0)


def remote(mem_ptr, shard_id, dtype, offset, _semantic, _generator) -> tlc.tensor:
    """tle.remote(dev_mem, shard_id=r, space="device", dtype=T, offset=o):
    a pointer of element type ``T`` to element ``o`` of rank ``r``'s
    registered tensor."""
    what = "tle.remote with a tle.create_comm_tensor memory handle"
    mem = _handle(mem_ptr, what, "its first argument")
    shard_id = tlc._unwrap_if_constexpr(shard_id)
    if isinstance(shard_id, bool) or not isinstance(shard_id, (int, tlc.tensor)) or (
            isinstance(shard_id, tlc.tensor) and (shard_id.type.is_block() or not shard_id.dtype.is_int())):
        raise TLEUsageError(f"{what}: shard_id= must be a rank (an int or an integer scalar), got "
                            f"{describe(shard_id)}")
    peer = _semantic.to_tensor(shard_id) if isinstance(shard_id, int) else _semantic.cast(shard_id, tlc.int32)
    element = tlc._unwrap_if_constexpr(dtype)
    if not isinstance(element, tlc.dtype) or element.is_ptr() or element.is_block():
        raise TLEUsageError(f"{what}: dtype= must be a Triton element type (the pointer's), got {describe(element)}")
    address = _generator.call_JitFunction(_buffer_address, [mem, peer, MEM_MAGIC, MEM_HEADER], {})
    _assert(_semantic.not_equal(address, _semantic.to_tensor(0).to(tlc.int64, _semantic=_semantic)),
            f"{what}: not a memory handle from tle.create_comm_tensor (its second result), or shard_id is not a "
            "rank of it", _semantic)
    base = _semantic.cast(address, tlc.pointer_type(element))
    offset = tlc._unwrap_if_constexpr(offset)
    if offset is None:
        return base
    if isinstance(offset, bool) or not isinstance(offset, (int, tlc.tensor)) or (
            isinstance(offset, tlc.tensor) and (offset.type.is_block() or not offset.dtype.is_int())):
        raise TLEUsageError(f"{what}: offset= must be an element offset (an int or an integer scalar), got "
                            f"{describe(offset)}")
    offset = _semantic.to_tensor(offset) if isinstance(offset, int) else offset
    return _semantic.add(base, _semantic.cast(offset, tlc.int64), True)
