"""``tle.distributed.all_reduce``: one-shot, two-shot or NCCL, by size."""

from __future__ import annotations

import math

from .._bridge import enabled
from ..language._markers import TLEUsageError

_SM_PROGRAMS = 132
_MiB = 1 << 20


def thresholds(world: int) -> tuple[int, int]:
    """(one-shot up to, two-shot up to) in bytes; above both: NCCL. From
    bench/dist_allreduce.py on H100s (bench/README.md): on 2 GPUs two-shot
    moves no less than one-shot, and one-shot leads NCCL up to 16 MiB; on 4
    (H200s) the one-shot reads three peers' copies and two-shot is ahead from
    1 MiB (15.6 against 18.3 us), NCCL from 16 MiB."""
    if world <= 2:
        return 16 * _MiB, 0
    return _MiB // 2, 4 * _MiB


class AllReduce:
    """A sum all-reduce over ``ctx``'s group for tensors of up to
    ``max_numel`` elements of ``dtype`` (bf16, fp16 or fp32), with its
    symmetric staging memory (4 * max_numel elements, from ``ctx.empty``:
    make the context with enough ``arena_bytes``; ``AllReduce.arena_bytes``
    says how many). Every rank makes the same ones, in the same order.

    Calling it, ``ar(x, out=None, method=None)``, sums ``x`` (a contiguous
    CUDA tensor of ``dtype`` with at most ``max_numel`` elements) over the
    group; ``ar.method(x)`` says which algorithm ``x`` gets: one-shot up to
    ``one_shot_max_bytes``, two-shot up to ``two_shot_max_bytes`` (only for
    a power-of-two group and a multiple of ``1024 * world`` elements), else
    NCCL's ``dist.all_reduce``.

    Args:
        ctx: a ``tle.distributed.SymmetricContext`` (from
            ``tle.device_context.from_group``) with at least
            ``AllReduce.arena_bytes(max_numel, dtype)`` bytes of arena left.
        max_numel: the largest number of elements to reduce (an int).
        dtype: ``torch.bfloat16``, ``torch.float16`` or ``torch.float32``.
        one_shot_max_bytes: the largest ``x`` in bytes for the one-shot
            kernel, or None (by the group's size: 16 MiB on up to 2 GPUs,
            else 512 KiB).
        two_shot_max_bytes: the largest ``x`` in bytes for the two-shot
            kernel, or None (0 on up to 2 GPUs, else 4 MiB).

    Example::

        n = 1 << 20
        ctx = tle.device_context.from_group(MESH, arena_bytes=tle.distributed.AllReduce.arena_bytes(n, torch.bfloat16))
        ar = tle.distributed.AllReduce(ctx, n, torch.bfloat16)
        x = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        y = ar(x)              # a new tensor
        ar(x, out=x)           # in place
    """

    def __init__(self, ctx, max_numel: int, dtype, one_shot_max_bytes=None, two_shot_max_bytes=None):
        import torch
        if dtype not in (torch.bfloat16, torch.float16, torch.float32):
            raise TLEUsageError(f"AllReduce: dtype {dtype} is not bf16, fp16 or fp32")
        self.ctx = ctx
        self.dtype = dtype
        self.max_numel = int(max_numel)
        self.stage = ctx.empty(4 * self.max_numel, dtype=dtype)
        self.counters = torch.zeros(2 * ctx.max_programs, dtype=torch.int32, device=ctx.heap.device)
        one, two = thresholds(ctx.world_size)
        self.one_shot_max_bytes = one if one_shot_max_bytes is None else one_shot_max_bytes
        self.two_shot_max_bytes = two if two_shot_max_bytes is None else two_shot_max_bytes
        self.args = ctx.args()

    @staticmethod
    def arena_bytes(max_numel: int, dtype) -> int:
        return 4 * int(max_numel) * dtype.itemsize + 256

    def method(self, x) -> str:
        """Which algorithm ``x`` gets: "one_shot", "two_shot" or "nccl"."""
        nbytes = x.numel() * x.element_size()
        if nbytes <= self.one_shot_max_bytes:
            return "one_shot"
        block = self._two_shot_block()
        if nbytes <= self.two_shot_max_bytes and block and x.numel() % block == 0:
            return "two_shot"
        return "nccl"

    def _two_shot_block(self):
        d = self.ctx.world_size
        if d & (d - 1):
            return 0  # slices of a block must be power-of-two tensors
        return 1024 * d

    def __call__(self, x, out=None, method=None):
        """The sum of ``x`` over the group, into ``out`` (a new tensor by
        default; ``out=x`` reduces in place, which saves NCCL's path a copy)."""
        import torch
        import torch.distributed as dist
        if x.dtype != self.dtype or not x.is_cuda or not x.is_contiguous():
            raise TLEUsageError(f"all_reduce: x must be a contiguous CUDA tensor of {self.dtype}, got "
                                f"{x.dtype} on {x.device}")
        if x.numel() > self.max_numel:
            raise TLEUsageError(f"all_reduce: {x.numel()} elements exceed this AllReduce's max_numel "
                                f"{self.max_numel}")
        out = torch.empty_like(x) if out is None else out
        method = method or self.method(x)
        n = x.numel()
        if method == "nccl":  # in place on out (out=x: no copy)
            if out.data_ptr() != x.data_ptr():
                out.copy_(x)
            dist.all_reduce(out, group=self.ctx.group)
            return out
        from . import _allreduce_kernels as k
        d = self.ctx.world_size
        if method == "one_shot":
            block = 2048 if n >= 2048 else max(16, 1 << (n - 1).bit_length())
            programs = min(math.ceil(n / block), 2 * _SM_PROGRAMS, self.ctx.max_programs)
            kernel, counters = k.one_shot_all_reduce_kernel, self.counters[:self.ctx.max_programs]
        elif method == "two_shot":
            block = self._two_shot_block()
            if not block or n % block:
                raise TLEUsageError(f"all_reduce: two-shot needs a power-of-two world size and a multiple of "
                                    f"{block or 1024} elements, got {n} on {d} devices")
            programs = min(n // block, 2 * _SM_PROGRAMS, self.ctx.max_programs)
            kernel, counters = k.two_shot_all_reduce_kernel, self.counters[self.ctx.max_programs:]
        else:
            raise TLEUsageError(f"all_reduce: method must be 'one_shot', 'two_shot' or 'nccl', got {method!r}")
        with enabled():
            kernel[(programs,)](x, out, self.stage, counters, self.args, n, MESH=self.ctx.mesh, D=d, BLOCK=block,
                                num_warps=8 if block >= 4096 else 4)
        return out


_cache = {}


def all_reduce(x, ctx, out=None, method=None):
    """Sum ``x`` over ``ctx``'s group; every rank gets the sum (a new tensor,
    or ``out``). The algorithm follows the size: one-shot (every device reads
    every peer's copy: lowest latency), two-shot (reduce-scatter then
    all-gather: half the traffic) or NCCL (``dist.all_reduce``) for the
    largest. An ``AllReduce`` for ``x``'s dtype is made on first use and
    kept with the context (its staging memory comes from ``ctx.empty``).

    Args:
        x: a CUDA tensor on this rank (the same shape and dtype on every rank).
        ctx: the context from ``tle.device_context.from_group``, with
            ``arena_bytes`` room for the staging buffers.
        out: a tensor of ``x``'s shape and dtype for the result, or None.
        method: ``"one_shot"``, ``"two_shot"``, ``"nccl"`` or None (chosen
            by size, see ``AllReduce``).

    Returns:
        The sum over the group's ranks (``out`` when given).

    Example::

        ctx = tle.device_context.from_group(tle.device_mesh({"device": dist.get_world_size()}),
                                            arena_bytes=1 << 24)
        y = tle.distributed.all_reduce(torch.randn(1 << 16, device="cuda"), ctx)
    """
    key = (id(ctx), x.dtype)
    ar = _cache.get(key)
    if ar is None or ar.max_numel < x.numel():
        ar = _cache[key] = AllReduce(ctx, x.numel(), x.dtype)
    return ar(x, out=out, method=method)
