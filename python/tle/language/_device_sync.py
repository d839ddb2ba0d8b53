"""Device-level (multi-GPU) synchronization, as ``@triton.jit`` helpers the
primitives call (``tle.distributed_barrier(mesh, context=ctx)``) and fused
kernels use directly (``tle.distributed``'s all-reduce and GEMM kernels).

Signals are *consumed*: a sender waits until the receiver's slot is 0 and
sets it to 1 (``atom.cas.release.sys``), the receiver waits until it is 1
and sets it back to 0 (``atom.cas.acquire.sys``). No epoch is involved, so a
kernel using them may be launched any number of times, also from a CUDA
graph, and a slot is ready for the next launch when the receiver is done.

``LIMIT`` (a constexpr) bounds a wait in polls: 0 waits for ever; otherwise a
wait that runs out returns 1 (timed out) and the caller reports it
(docs/distributed.md, "Debug mode"). Scalar atomics run on one thread of the
program; ``tl.debug_barrier()`` before a send makes every thread's earlier
writes part of what the release publishes, and after a receive lets every
thread read what the acquire made visible.
"""

import triton
import triton.language as tl


@triton.jit
def program_linear_id():
    """This program's id over the whole grid, x fastest (as tle.reshard's device slots)."""
    return tl.program_id(0) + tl.num_programs(0) * (tl.program_id(1) + tl.num_programs(1) * tl.program_id(2))


@triton.jit
def num_programs_total():
    return tl.num_programs(0) * tl.num_programs(1) * tl.num_programs(2)


@triton.jit
def peer_pointer(ptr, peer_offsets, peer):
    """``ptr`` (into this device's symmetric heap) moved onto device ``peer``'s heap."""
    off = tl.load(peer_offsets + peer)
    raw = ptr.to(tl.pointer_type(tl.int8), bitcast=True) + off
    return raw.to(ptr.dtype, bitcast=True)


@triton.jit
def _cas_spin(ptr, cmp, val, SEM: tl.constexpr, LIMIT: tl.constexpr):
    """Spin until ``atomic_cas(ptr, cmp, val)`` succeeds; 1 when it gave up
    after ``LIMIT`` polls (``LIMIT`` > 0), else 0."""
    old = tl.atomic_cas(ptr, cmp, val, sem=SEM, scope="sys")
    if LIMIT > 0:
        polls = 1
        while (old != cmp) & (polls < LIMIT):
            old = tl.atomic_cas(ptr, cmp, val, sem=SEM, scope="sys")
            polls += 1
    else:
        while old != cmp:
            old = tl.atomic_cas(ptr, cmp, val, sem=SEM, scope="sys")
    return (old != cmp).to(tl.int32)


@triton.jit
def send_signal(slot, LIMIT: tl.constexpr = 0):
    """Set ``slot`` (a peer's or this device's int32 flag) from 0 to 1 with
    release semantics at system scope, once the receiver consumed the last
    signal. Returns 1 when it timed out (see the module doc)."""
    tl.debug_barrier()
    return _cas_spin(slot, 0, 1, "release", LIMIT)


@triton.jit
def wait_signal(slot, LIMIT: tl.constexpr = 0):
    """Wait until this device's flag ``slot`` is 1, consume it (back to 0),
    acquire at system scope. Returns 1 when it timed out."""
    timed_out = _cas_spin(slot, 1, 0, "acquire", LIMIT)
    tl.debug_barrier()
    return timed_out


@triton.jit
def device_barrier(signals, peer_offsets, rank, D: tl.constexpr, LIMIT: tl.constexpr):
    """Program ``pid`` of every device of the mesh meets the program ``pid``
    of every other device. ``signals`` (symmetric int32, ``P * D``): entry
    ``pid * D + src`` is set by device ``src`` and consumed here. Returns 1
    when a wait timed out."""
    pid = program_linear_id()
    row = signals + pid * D
    timed_out = rank * 0
    for q in tl.static_range(D):
        if q != rank:
            timed_out |= send_signal(peer_pointer(row + rank, peer_offsets, q), LIMIT)
    for q in tl.static_range(D):
        if q != rank:
            timed_out |= wait_signal(row + q, LIMIT)
    return timed_out
