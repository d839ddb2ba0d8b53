"""FlagTree's device-path communication surface on a registered symmetric
buffer (docs/distributed.md, "FlagTree's create_dist_tensor, signal and
signal_wait"): ``tle.remote(ctx, shard_id=..., space="device", dtype=...,
offset=...)``, ``tle.shard_id(mesh, "device", device_dptr=ctx)``,
``tle.signal`` and ``tle.signal_wait``.

``ctx`` is a ``DistributedRtContext`` (``tle.create_dist_tensor`` on the
host, over ``torch.distributed``'s symmetric memory) passed to the kernel as
a ``tl.constexpr``, as FlagTree passes its FlagCX context: the peers'
addresses are compile-time constants of each rank's own compile.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass

from triton.language import core as tlc

from .. import _state
from ._markers import TLEUsageError, builtin, describe

_GROUP_KINDS = ("block", "thread")


@dataclass(frozen=True)
class DistributedRtContext:
    """A symmetric buffer registered with every rank of a process group
    (``tle.create_dist_tensor``): this rank, the world size, every rank's
    base address of the buffer (``buffer_ptrs``), its element type name and
    size, and every rank's base address of the context's signal slots
    (``signal_ptrs``: ``num_slots`` uint32 counters, zero at creation), and
    every rank's address of its barrier counters (``barrier_ptrs``:
    ``max_programs * world_size`` int32, zero at rest; none in a context
    built without them).
    Hashable and printed with its addresses, so that each rank's kernels are
    compiled (and cached) with its own constants.

    Args:
        rank: this process's rank in the group.
        world_size: the group's size.
        buffer_ptrs: every rank's address of the registered buffer (ints).
        dtype: the buffer's element type (torch's name).
        numel: the buffer's element count.
        signal_ptrs: every rank's address of its signal slots (ints).
        num_slots: the signal slots per rank.
        barrier_ptrs: every rank's address of its barrier counters (ints),
            or () for none (``tle.distributed_barrier(device_dptr=ctx)``
            needs them).
        max_programs: the programs of one launch the barrier counters
            serve (0 with no counters).

    Example::

        ctx = tle.create_dist_tensor(buf)   # a DistributedRtContext
        kernel[grid](buf, ctx, MESH)        # ctx: a tl.constexpr argument
    """

    rank: int
    world_size: int
    buffer_ptrs: tuple
    dtype: str
    numel: int
    signal_ptrs: tuple
    num_slots: int
    barrier_ptrs: tuple = ()
    max_programs: int = 0

    def __post_init__(self):
        for name in ("rank", "world_size", "numel", "num_slots", "max_programs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TLEUsageError(f"tle.DistributedRtContext: {name} must be an int >= 0, got {value!r}")
        if self.world_size < 1 or self.num_slots < 1:
            raise TLEUsageError("tle.DistributedRtContext: world_size and num_slots must be >= 1")
        if not 0 <= self.rank < self.world_size:
            raise TLEUsageError(f"tle.DistributedRtContext: rank {self.rank} is not in [0, {self.world_size})")
        if bool(self.barrier_ptrs) != bool(self.max_programs):
            raise TLEUsageError("tle.DistributedRtContext: barrier_ptrs and max_programs go together (both given, "
                                "or neither)")
        for name in ("buffer_ptrs", "signal_ptrs") + (("barrier_ptrs", ) if self.barrier_ptrs else ()):
            value = getattr(self, name)
            if not isinstance(value, tuple) or len(value) != self.world_size or not all(
                    isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in value):
                raise TLEUsageError(f"tle.DistributedRtContext: {name} must hold one address per rank (a tuple of "
                                    f"{self.world_size} ints >= 0), got {value!r}")

    def __repr__(self):
        peers = ", ".join(hex(p) for p in self.buffer_ptrs)
        signals = ", ".join(hex(p) for p in self.signal_ptrs)
        return (f"DistributedRtContext(rank={self.rank}, world_size={self.world_size}, dtype={self.dtype}, "
                f"numel={self.numel}, buffer_ptrs=({peers}), signal_ptrs=({signals}), num_slots={self.num_slots}, "
                f"barrier_ptrs=({', '.join(hex(p) for p in self.barrier_ptrs)}), max_programs={self.max_programs})")


def context_of(value) -> DistributedRtContext | None:
    """``value`` (maybe a ``tl.constexpr``) as a DistributedRtContext, or None."""
    value = tlc._unwrap_if_constexpr(value)
    return value if isinstance(value, DistributedRtContext) else None


def _context(value, what: str, arg: str = "device_dptr") -> DistributedRtContext:
    ctx = context_of(value)
    if ctx is None:
        raise TLEUsageError(f"{what}: {arg} must be the context tle.create_dist_tensor returned, passed to the kernel "
                            f"as a tl.constexpr argument; got {describe(tlc._unwrap_if_constexpr(value))}")
    return ctx


def _peer(value, ctx: DistributedRtContext, what: str, arg: str, _semantic) -> tlc.tensor | int:
    """A rank: an int in range (checked now) or an integer scalar tensor."""
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, bool) or not isinstance(value, (int, tlc.tensor)):
        raise TLEUsageError(f"{what}: {arg} must be a rank (an int or an integer scalar), got {describe(value)}")
    if isinstance(value, int):
        if not 0 <= value < ctx.world_size:
            raise TLEUsageError(f"{what}: {arg}={value} is not a rank of the context's {ctx.world_size} ranks")
        return value
    if value.type.is_block() or not value.dtype.is_int():
        raise TLEUsageError(f"{what}: {arg} must be an integer scalar, got {describe(value)}")
    return _semantic.cast(value, tlc.int32)


def _select_address(addresses: tuple, peer, _semantic) -> tlc.tensor:
    """``addresses[peer]`` as an int64 scalar (a chain of selects for a
    runtime rank)."""
    if isinstance(peer, int):
        return _semantic.scalar_constant(addresses[peer], tlc.int64)
    result = _semantic.scalar_constant(addresses[0], tlc.int64)
    for r in builtins.range(1, len(addresses)):
        hit = _semantic.equal(peer, _semantic.scalar_constant(r, tlc.int32))
        result = _semantic.where(hit, _semantic.scalar_constant(addresses[r], tlc.int64), result)
    return result


def _pointer(address: tlc.tensor, element, _semantic) -> tlc.tensor:
    return _semantic.cast(address, tlc.pointer_type(element))


def remote_from_context(ctx, shard_id, dtype, offset, _semantic) -> tlc.tensor:
    """``tle.remote(ctx, shard_id=r, space="device", dtype=T, offset=o)``: a
    global pointer of element type ``T`` to element ``o`` of rank ``r``'s
    registered buffer."""
    what = "tle.remote"
    ctx = _context(ctx, what, "its first argument")
    if shard_id is None:
        raise TLEUsageError(f"{what} with a tle.create_dist_tensor context needs shard_id= (the peer's rank)")
    peer = _peer(shard_id, ctx, what, "shard_id", _semantic)
    element = tlc._unwrap_if_constexpr(dtype)
    if element is None:
        raise TLEUsageError(f"{what} with a tle.create_dist_tensor context needs dtype= (the element type of the "
                            "pointer it returns, e.g. ptr.dtype.element_ty)")
    if not isinstance(element, tlc.dtype) or element.is_ptr() or element.is_block():
        raise TLEUsageError(f"{what}: dtype= must be a Triton element type, got {describe(element)}")
    base = _pointer(_select_address(ctx.buffer_ptrs, peer, _semantic), element, _semantic)
    offset = tlc._unwrap_if_constexpr(offset)
    if offset is None or (isinstance(offset, int) and offset == 0):
        return base
    if isinstance(offset, bool) or not isinstance(offset, (int, tlc.tensor)):
        raise TLEUsageError(f"{what}: offset= must be an element offset (an int or an integer scalar), got "
                            f"{describe(offset)}")
    if isinstance(offset, int):
        offset = _semantic.scalar_constant(offset, tlc.int64)
    elif offset.type.is_block() or not offset.dtype.is_int():
        raise TLEUsageError(f"{what}: offset= must be an integer scalar, got {describe(offset)}")
    else:
        offset = _semantic.cast(offset, tlc.int64)
    return _semantic.add(base, offset, True)


def rank_of(ctx, mesh, axis, _semantic) -> tlc.tensor:
    """``tle.shard_id(mesh, axis, device_dptr=ctx)``: this rank (the mesh
    must have one device axis of the context's world size)."""
    ctx = _context(ctx, "tle.shard_id")
    if mesh.level_of(axis) != "device" or mesh.level_size("device") != ctx.world_size:
        raise TLEUsageError(f"tle.shard_id with device_dptr=: axis {axis!r} of {mesh!r} must be a device axis and "
                            f"the mesh's devices the context's {ctx.world_size} ranks")
    if len(mesh.axis_names) != 1:
        raise TLEUsageError(f"tle.shard_id with device_dptr= takes a mesh of one device axis, got {mesh!r}")
    return _semantic.scalar_constant(ctx.rank, tlc.int32)


def _slot_address(ctx, peer, slot_id, what, _semantic) -> tlc.tensor:
    slot = tlc._unwrap_if_constexpr(slot_id)
    if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < ctx.num_slots:
        raise TLEUsageError(f"{what}: slot_id must be a compile-time int in [0, {ctx.num_slots}) (the context's "
                            f"signal slots, tle.create_dist_tensor(..., num_signal_slots=)), got {describe(slot)}")
    base = _select_address(ctx.signal_ptrs, peer, _semantic)
    return _semantic.add(base, _semantic.scalar_constant(4 * slot, tlc.int64), True)


def _u32(value, error: str, _semantic) -> tlc.tensor:
    """An int or an integer scalar as a uint32 scalar; else ``error``, with
    what ``value`` is."""
    value = tlc._unwrap_if_constexpr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return _semantic.scalar_constant(value, tlc.uint32)
    if isinstance(value, tlc.tensor) and not value.type.is_block() and value.dtype.is_int():
        return _semantic.cast(value, tlc.uint32)
    raise TLEUsageError(f"{error}, got {describe(value)}")


def _choice(value, table: dict, error: str):
    """``table[value]`` for one of its keys; else ``error``, with what
    ``value`` is."""
    value = tlc._unwrap_if_constexpr(value)
    if not isinstance(value, str) or value not in table:
        raise TLEUsageError(f"{error}, got {describe(value)}")
    return table[value]


def _group_kind(value, what) -> str:
    return _choice(value, {kind: kind for kind in _GROUP_KINDS},
                   f"{what}: group_kind must be one of {', '.join(map(repr, _GROUP_KINDS))} ('warp' is FlagCX's, "
                   "not implemented here)")


def _context_index(context_idx, context_id, what) -> None:
    for name, value in (("context_idx", context_idx), ("context_id", context_id)):
        value = tlc._unwrap_if_constexpr(value)
        if value not in (None, 0):
            raise TLEUsageError(f"{what}: {name}={describe(value)}: torch.distributed's symmetric memory has one "
                                "context; only 0 is supported")


@builtin("tle.signal")
def signal(device_dptr, peer, slot_id, value=None, op="inc", space="intra_node", group_kind="block", context_idx=None,
           scope="system", context_id=None, _semantic=None, _generator=None):
    """Add to signal slot ``slot_id`` of rank ``peer`` (FlagTree's
    ``tle.signal``): ``op="inc"`` adds 1, ``op="add"`` adds ``value``. A
    release: the calling threads' earlier writes (with ``group_kind="block"``,
    every thread's of the program: a CTA barrier comes first and one thread
    sends) are visible to a peer that sees the new value. No data moves and
    nothing waits.

    Args:
        device_dptr: the context ``tle.create_dist_tensor`` returned (a
            ``tl.constexpr`` kernel argument).
        peer: the target rank (an int or an integer scalar).
        slot_id: a compile-time int in ``[0, num_signal_slots)``.
        value: the amount for ``op="add"`` (an integer scalar); omitted for
            ``op="inc"``.
        op: ``"inc"`` or ``"add"``.
        space: ``"intra_node"`` or ``"world"`` (one host: the same).
        group_kind: ``"block"`` (the program sends once) or ``"thread"``
            (every thread sends).
        context_idx, context_id: 0 or None (one context).
        scope: ``"system"`` (the default; visible to every device) or
            ``"device"`` (this GPU's threads only).

    Returns:
        None.

    Example::

        tle.signal(ctx, peer, slot_id=0, op="inc")
    """
    what = "tle.signal"
    ctx = _context(device_dptr, what)
    _context_index(context_idx, context_id, what)
    _choice(space, {"intra_node": 0, "world": 0},
            f"{what}: space must be 'intra_node' or 'world' (one host; 'inter_node' needs FlagCX's network path)")
    scope = _choice(scope, {"system": "sys", "device": "gpu"}, f"{what}: scope must be 'system' or 'device'")
    kind = _group_kind(group_kind, what)
    op = tlc._unwrap_if_constexpr(op)
    value = tlc._unwrap_if_constexpr(value)
    if op == "inc":
        if value is not None:
            raise TLEUsageError(f"{what}: op='inc' adds 1; value= must be omitted")
        amount = _semantic.scalar_constant(1, tlc.uint32)
    elif op == "add":
        if value is None:
            raise TLEUsageError(f"{what}: op='add' needs value=")
        amount = _u32(value, f"{what}: value= must be an integer scalar", _semantic)
    else:
        raise TLEUsageError(f"{what}: op must be 'inc' or 'add', got {describe(op)}")
    target = _peer(peer, ctx, what, "peer", _semantic)
    address = _slot_address(ctx, target, slot_id, what, _semantic)
    if kind == "block":
        _semantic.debug_barrier()
        guard = "mov.u32 t, %tid.x; setp.eq.u32 p, t, 0; "
    else:
        guard = "setp.eq.u32 p, 0, 0; "
    tlc.inline_asm_elementwise(
        "{ .reg .pred p; .reg .b32 t; " + guard + f"@p red.release.{scope}.global.add.u32 [$1], $2; mov.b32 $0, 0; }}",
        "=r,l,r", [address, amount], dtype=tlc.int32, is_pure=False, pack=1, _semantic=_semantic)


@builtin("tle.signal_wait")
def signal_wait(device_dptr, slot_id, wait_kind="signal", target=None, group_kind="block", context_idx=None,
                order="acquire", context_id=None, _semantic=None, _generator=None):
    """Wait until this rank's signal slot ``slot_id`` holds at least
    ``target`` (FlagTree's ``tle.signal_wait`` with ``wait_kind="signal"``),
    then order this program's later reads after the writes the signals
    released (every thread polls with an acquire load; with
    ``group_kind="block"`` a CTA barrier follows). With
    ``TLE_DEVICE_WAIT_LIMIT`` set (``tle.knobs.device_wait_limit``, the
    debug mode), a wait that polls that many times traps instead of hanging.

    Args:
        device_dptr: the context ``tle.create_dist_tensor`` returned (a
            ``tl.constexpr`` kernel argument).
        slot_id: a compile-time int in ``[0, num_signal_slots)``.
        wait_kind: ``"signal"`` (``"counter"`` and ``"shadow"`` are FlagCX's
            runtime state, not implemented here).
        target: the value to reach (an int or an integer scalar; unsigned
            32-bit comparison).
        group_kind: ``"block"`` or ``"thread"``.
        context_idx, context_id: 0 or None.
        order: ``"acquire"`` or ``"relaxed"``.

    Returns:
        None.

    Example::

        tle.signal_wait(ctx, slot_id=0, wait_kind="signal", target=world_size - 1)
    """
    what = "tle.signal_wait"
    ctx = _context(device_dptr, what)
    _context_index(context_idx, context_id, what)
    _choice(wait_kind, {"signal": 0}, f"{what}: wait_kind must be 'signal' (waits for the slot to reach target); "
            "'counter' and 'shadow' are FlagCX runtime state")
    sem = _choice(order, {"acquire": "acquire", "relaxed": "relaxed"}, f"{what}: order must be 'acquire' or 'relaxed'")
    kind = _group_kind(group_kind, what)
    goal = _u32(target, f"{what}: target must be an integer (the value to reach)", _semantic)
    address = _slot_address(ctx, ctx.rank, slot_id, what, _semantic)
    limit = _state.device_wait_limit()
    count = ("mov.b32 c, 0; ", f"add.s32 c, c, 1; setp.lt.s32 q, c, {limit}; @!q trap; ") if limit else ("", "")
    tlc.inline_asm_elementwise(
        "{ .reg .pred p, q; .reg .b32 v, c; " + count[0] + f"spin: ld.{sem}.sys.global.u32 v, [$1]; "
        "setp.ge.u32 p, v, $2; @p bra done; " + count[1] + "bra spin; done: mov.b32 $0, v; }",
        "=r,l,r", [address, goal], dtype=tlc.int32, is_pure=False, pack=1, _semantic=_semantic)
    if kind == "block":
        _semantic.debug_barrier()


def barrier_from_context(device_dptr, space, _semantic, _generator) -> None:
    """``tle.distributed_barrier(device_dptr=ctx, space="device")``: program
    ``pid`` of every rank of the context meets program ``pid`` of the
    others, on the context's barrier counters (the device barrier of
    ``tle.distributed_barrier(mesh, context=...)``)."""
    from . import _device_sync
    what = "tle.distributed_barrier(device_dptr=...)"
    ctx = _context(device_dptr, what)
    space = tlc._unwrap_if_constexpr(space)
    if space not in ("device", None):
        raise TLEUsageError(f"{what}: space must be 'device' (the ranks of one host), got {space!r}")
    if not ctx.barrier_ptrs:
        raise TLEUsageError(f"{what}: the context has no barrier counters (build it with tle.create_dist_tensor)")
    lanes = 1 << (ctx.world_size - 1).bit_length()
    mine = ctx.barrier_ptrs[ctx.rank]
    q = _semantic.arange(0, lanes)
    offsets = _semantic.full([lanes], 0, tlc.int64)
    for r, p in enumerate(ctx.barrier_ptrs):
        hit = _semantic.equal(q, _semantic.scalar_constant(r, tlc.int32))
        offsets = _semantic.where(hit, _semantic.scalar_constant(p - mine, tlc.int64), offsets)
    pid = _generator.call_JitFunction(_device_sync.program_linear_id, [], {})
    _semantic.builder.create_assert(
        _semantic.less_than(pid, _semantic.to_tensor(ctx.max_programs)).handle,
        f"{what}: the grid has more programs than the context's {ctx.max_programs} barrier counters "
        "(tle.create_dist_tensor(..., max_programs=))")
    from .. import _state
    limit = _state.device_wait_limit()
    signals = _pointer(_semantic.scalar_constant(mine, tlc.int64), tlc.int32, _semantic)
    status = _generator.call_JitFunction(_device_sync.device_barrier_offsets,
                                         [signals, offsets, ctx.rank, ctx.world_size, lanes, limit], {})
    if limit:
        _semantic.builder.create_assert(
            _semantic.equal(status, _semantic.to_tensor(0)).handle,
            f"TLE device wait timed out: {what} waited {limit} polls for a peer (a peer that did not launch this "
            "kernel, or launched another one)")

