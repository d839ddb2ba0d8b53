"""Device-level (multi-GPU) synchronization, as ``@triton.jit`` helpers the
primitives call (``tle.distributed_barrier(mesh, context=ctx)``) and fused
kernels use directly (``tle.distributed``'s all-reduce and GEMM kernels).

Signals are *counted and consumed*: a sender adds 1 to the receiver's entry
(``red.release.sys``), the receiver waits until it is >= 1 and takes 1 back
(acquire). No epoch is involved, so a kernel using them may be launched any
number of times, also from a CUDA graph, and an entry is back to 0 when the
receiver is done.

``LIMIT`` (a constexpr) bounds a wait in polls: 0 waits for ever; otherwise a
wait that runs out returns 1 (timed out) and the caller reports it
(docs/distributed.md, "Debug mode"). ``tl.debug_barrier()`` before a send
makes every thread's earlier writes part of what the release publishes, and
after a receive lets every thread read what the acquire made visible.
"""

import triton
import triton.language as tl


@triton.jit
def program_linear_id():
    """This program's id over the whole grid, x fastest (as tle.reshard's device slots)."""
    return tl.program_id(0) + tl.num_programs(0) * (tl.program_id(1) + tl.num_programs(1) * tl.program_id(2))


@triton.jit
def device_barrier(signals, peer_offsets, rank, D, DP: tl.constexpr, LIMIT: tl.constexpr):
    """Program ``pid`` of every device of the mesh meets the program ``pid``
    of every other device. ``signals`` (symmetric int32, ``P * D``, zero at
    rest): entry ``pid * D + src`` of device ``q`` counts the arrivals of
    device ``src`` that ``q`` has not consumed yet.

    One lane per device, all peers at once: every lane adds 1 to its peer's
    entry (``red.release.sys``: no round trip, and a count never loses an
    arrival, so a sender need not wait for the last one to be consumed),
    then polls this device's entries (acquire) until every peer's is >= 1
    and takes 1 from each. Returns 1 when the wait ran out of ``LIMIT``
    polls (``LIMIT`` > 0). ``DP``: D rounded up to a power of two (lanes),
    or more (``D`` may be a run-time value then)."""
    q = tl.arange(0, DP)
    offs = tl.load(peer_offsets + q, mask=q < D, other=0)
    return device_barrier_offsets(signals, offs, rank, D, DP, LIMIT)


@triton.jit
def device_barrier_offsets(signals, offs, rank, D, DP: tl.constexpr, LIMIT: tl.constexpr):
    """device_barrier with the peers' heap offsets in a ``[DP]`` int64
    tensor (lane q: bytes from ``signals`` to peer q's counters)."""
    pid = program_linear_id()
    row = signals + pid * D
    q = tl.arange(0, DP)
    peers = (q < D) & (q != rank)
    # This program's entry on every peer: row + rank moved by peer q's heap offset.
    theirs = ((row + rank).to(tl.pointer_type(tl.int8), bitcast=True) + offs).to(tl.pointer_type(tl.int32),
                                                                                 bitcast=True)
    tl.debug_barrier()  # every thread's writes before the release
    tl.atomic_add(theirs, 1, mask=peers, sem="release", scope="sys")
    mine = row + q
    seen = tl.atomic_add(mine, 0, mask=peers, sem="acquire", scope="sys")
    missing = tl.sum(tl.where(peers & (seen < 1), 1, 0))
    if LIMIT > 0:
        polls = 1
        while (missing > 0) & (polls < LIMIT):
            seen = tl.atomic_add(mine, 0, mask=peers, sem="acquire", scope="sys")
            missing = tl.sum(tl.where(peers & (seen < 1), 1, 0))
            polls += 1
    else:
        while missing > 0:
            seen = tl.atomic_add(mine, 0, mask=peers, sem="acquire", scope="sys")
            missing = tl.sum(tl.where(peers & (seen < 1), 1, 0))
    tl.atomic_add(mine, -1, mask=peers & (seen >= 1), sem="relaxed", scope="sys")
    tl.debug_barrier()  # every thread reads after the acquire
    return (missing > 0).to(tl.int32)
