"""``tle.device_context``: the runtime context of device-level (multi-GPU)
reshards: a symmetric workspace, flags, the peers' heap offsets, this device's
rank and an epoch (docs/distributed.md, "Devices").
"""

from __future__ import annotations

from triton.language import core as tlc

from ._markers import TLEUsageError, builtin, describe, unwrap
from .mesh import _mesh, _scalar_i32, device_mesh


class device_context_type(tlc.base_type):
    NAMES = ("workspace", "flags", "peer_offsets", "rank", "epoch", "signals")

    def __init__(self, mesh: device_mesh, types):
        self.mesh = mesh
        self.types = tuple(types)

    def __eq__(self, other):
        return isinstance(other, device_context_type) and self.mesh == other.mesh and self.types == other.types

    def __repr__(self):
        return f"device_context<{self.mesh!r}>"

    def mangle(self) -> str:
        return "DC" + "_".join(t.mangle() for t in self.types)

    def _flatten_ir_types(self, builder, out) -> None:
        for t in self.types:
            out.append(t.to_ir(builder))

    def _unflatten_ir(self, handles, cursor):
        values = [tlc.tensor(handles[cursor + i], t) for i, t in enumerate(self.types)]
        return device_context(self, values), cursor + len(self.types)


class device_context(tlc.base_value):
    """What a reshard over ``device`` mesh axes needs at run time
    (``tle.device_context(mesh, rank, workspace, flags, peer_offsets, epoch)``);
    the contract is docs/distributed.md, "Devices"."""

    def __init__(self, type: device_context_type, values):
        self.type = type
        self.values = list(values)

    @property
    def mesh(self):
        return self.type.mesh

    def __getattr__(self, name):
        if name in device_context_type.NAMES:
            i = device_context_type.NAMES.index(name)
            return self.values[i] if i < len(self.values) else None
        raise AttributeError(name)

    @property
    def reshard_values(self):
        """The operands a device reshard takes (workspace, flags, peer_offsets, rank, epoch)."""
        return self.values[:5]

    def _flatten_ir(self, handles) -> None:
        handles.extend(v.handle for v in self.values)


@builtin("tle.device_context")
def make_device_context(mesh, rank, workspace=None, flags=None, peer_offsets=None, epoch=None, _semantic=None,
                        _generator=None):
    """``tle.device_context(mesh, rank, workspace, flags, peer_offsets, epoch)``,
    or ``tle.device_context(mesh, C)`` with ``C`` the tuple a host context's
    ``args()`` gives a kernel: ``(rank, workspace, flags, peer_offsets, epoch,
    signals)`` (``tle.device_context.from_group``, docs/distributed.md). Only
    the second form has the signal slots ``tle.distributed_barrier`` needs.

    ``rank``: this device's rank over the mesh's ``device`` axes (row-major);
    ``workspace``: pointer into a symmetric buffer of the reshard's element
    type; ``flags``: pointer to a symmetric int32 array, zeroed once;
    ``peer_offsets``: pointer to one int64 per device, the byte offset from
    this device's symmetric heap to that device's as mapped here (0 for
    itself); ``epoch``: an int32 > 0 that grows with every reshard using the
    same flags.

    Args:
        mesh: a ``tle.device_mesh`` (compile-time) with a ``device`` axis of
            size > 1.
        rank: an integer scalar, this device's rank; or the 6-tuple ``C``
            (then pass no other argument).
        workspace: a pointer to global memory (a kernel argument).
        flags: a pointer to int32 in global memory.
        peer_offsets: a pointer to int64 in global memory.
        epoch: an integer scalar.

    Returns:
        A device context to pass as ``context=`` to ``tle.reshard``,
        ``tle.distributed_dot``, ``tle.make_sharded_tensor``,
        ``tle.shard_id``, ``tle.remote`` and ``tle.distributed_barrier``.

    Example::

        @triton.jit
        def all_gather(X, OUT, C, BLOCK: tl.constexpr, N: tl.constexpr, MESH: tl.constexpr,
                       SRC: tl.constexpr, DST: tl.constexpr):
            ctx = tle.device_context(MESH, C)   # C = host_ctx.args()
            x = tle.make_sharded_tensor(tl.load(X + tl.arange(0, BLOCK)), SRC, [N], context=ctx)
            tl.store(OUT + tl.arange(0, N), tle.reshard(x, DST, context=ctx))
    """
    mesh = _mesh(mesh, "tle.device_context")
    packed = unwrap(rank)
    if isinstance(packed, (tlc.tuple, tuple)):
        if any(v is not None for v in (workspace, flags, peer_offsets, epoch)):
            raise TLEUsageError("tle.device_context(mesh, C): with the context tuple C, pass nothing else")
        values = list(packed.values if isinstance(packed, tlc.tuple) else packed)
        if len(values) != 6:
            raise TLEUsageError("tle.device_context(mesh, C): C must be the 6-tuple (rank, workspace, flags, "
                                f"peer_offsets, epoch, signals) of a host context's args(), got {len(values)} values")
        rank, workspace, flags, peer_offsets, epoch, signals = values
    else:
        signals = None
    if any(v is None for v in (workspace, flags, peer_offsets, epoch)):
        raise TLEUsageError("tle.device_context takes (mesh, rank, workspace, flags, peer_offsets, epoch) or "
                            "(mesh, C) with C a host context's args() tuple")
    if mesh.level_size("device") <= 1:
        raise TLEUsageError(f"tle.device_context mesh: {mesh!r} has no device axis of size > 1")

    def ptr(value, name, element=None):
        value = tlc._unwrap_if_constexpr(value)
        if (not isinstance(value, tlc.tensor) or value.type.is_block() or not value.dtype.is_ptr()
                or value.dtype.address_space != 1):
            raise TLEUsageError(f"tle.device_context: {name} must be a pointer to global memory (a kernel "
                                f"argument), got {describe(value)}")
        if element is not None and value.dtype.element_ty != element:
            raise TLEUsageError(f"tle.device_context: {name} must point to {element}, got "
                                f"{value.dtype.element_ty}")
        return value

    values = [ptr(workspace, "workspace"), ptr(flags, "flags", tlc.int32),
              ptr(peer_offsets, "peer_offsets", tlc.int64),
              _scalar_i32(rank, "tle.device_context rank", _semantic),
              _scalar_i32(epoch, "tle.device_context epoch", _semantic)]
    if signals is not None:
        values.append(ptr(signals, "signals", tlc.int32))
    return device_context(device_context_type(mesh, [v.type for v in values]), values)

