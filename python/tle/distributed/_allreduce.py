"""``tle.distributed.all_reduce``: LL128 one-shot or two-shot, one-shot,
two-shot or NCCL, by size."""

from __future__ import annotations

import math

from .._bridge import enabled
from ..language._markers import TLEUsageError

_SM_PROGRAMS = 132
# The low-latency one-shot's symmetric area (2 launch parities x world slots
# of 8-byte words, each carrying 4 bytes of data): 1 MiB of data on 2 GPUs,
# 512 KiB on 4, 256 KiB on 8.
_LL_BYTES = 8 << 20
# The LL one-shot up to here (and as far as its area holds): on 2 GPUs it
# leads the one-shot at 256 KiB (5.1 against 6.2 us, 2 x H200); on 4 it
# sends every word three times and the one-shot leads from 256 KiB (13.6
# against 12.1 us, 4 x H200; 7.6 against 9.8 us at 64 KiB).
_LL_MAX_BYTES = 256 << 10
_LL_MAX_BYTES_MORE = 64 << 10  # on more than 2 GPUs
_MiB = 1 << 20
# The LL128 kernels (128-byte lines of 120 data bytes, a check word and a flag): the
# one-shot up to 1 MiB, the two-shot up to 4 MiB; their shared area holds
# 2 launch parities x 2 phases x world slots of the larger of 1 MiB and
# 4 MiB / world (in lines, and a block's rounding).
_LL128_DATA = 30  # data words of a 32-word LL128 line (_allreduce_kernels.LL128_DATA)
_LL128_ONE_MAX = 1 << 20
_LL128_TWO_MAX = 4 << 20
# The LL128 kernels' one-warp programs per multiprocessor (``ll128_programs``).
_LL128_PER_SM = 6


def _ll128_slot(max_bytes: int, world: int) -> int:
    """The LL128 area's words per slot for inputs of up to ``max_bytes``."""
    one = -(-min(max_bytes, _LL128_ONE_MAX) // (4 * _LL128_DATA)) * 32
    two = -(-(-(-min(max_bytes, _LL128_TWO_MAX) // (4 * _LL128_DATA))) // world) * 32 + 2048
    return max(one, two)


def ll128_thresholds(world: int) -> tuple[int, int]:
    """(LL128 one-shot up to, LL128 two-shot up to) in bytes, from
    bench/dist_allreduce.py on H100s (bench/README.md): on 2 GPUs the
    one-shot leads to 1 MiB (7.2 against the two-shot's 7.7 us) and the
    two-shot at 4 MiB (17.8 against 21.0 us for the plain one-shot); on 4 the
    one-shot sends every byte three times, so the two-shot leads from 256 KiB
    (9.1 against 10.6 us) and at 4 MiB (36.4 against NCCL's 61.7 us)."""
    if world <= 2:
        return _LL128_ONE_MAX, _LL128_TWO_MAX
    return 64 << 10, _LL128_TWO_MAX


def nvlink_connected(device) -> bool:
    """Whether ``device`` (a CUDA device) has an active NVLink, asked of the
    driver's NVML (libnvidia-ml, part of the driver) through ctypes; False
    when NVML cannot say. The LL128 kernels need it: they rely on NVLink
    delivering a warp's 128-byte write whole, which PCIe does not promise
    (NCCL enables its LL128 protocol on NVLink only, for the same reason)."""
    import ctypes
    import torch
    try:
        nvml = ctypes.CDLL("libnvidia-ml.so.1")
        if nvml.nvmlInit_v2() != 0:
            return False
        props = torch.cuda.get_device_properties(device)
        bus = f"{props.pci_domain_id:08x}:{props.pci_bus_id:02x}:{props.pci_device_id:02x}.0".encode()
        handle = ctypes.c_void_p()
        if nvml.nvmlDeviceGetHandleByPciBusId_v2(ctypes.c_char_p(bus), ctypes.byref(handle)) != 0:
            return False
        state = ctypes.c_int()
        for link in range(18):  # NVML_NVLINK_MAX_LINKS on Hopper
            if nvml.nvmlDeviceGetNvLinkState(handle, link, ctypes.byref(state)) == 0 and state.value == 1:
                return True
        return False
    except Exception:  # no driver library, an older one without these entry points, no CUDA device
        return False


def thresholds(world: int) -> tuple[int, int]:
    """(one-shot up to, two-shot up to) in bytes; above both: NCCL. From
    bench/dist_allreduce.py on H100s (bench/README.md): on 2 GPUs two-shot
    moves no less than one-shot, and one-shot leads NCCL up to 16 MiB and
    is within 4% of it at 64 MiB (ahead of NCCL with its copy into ``out``:
    254.7 against 279.6 us on H200s); on 4
    (H200s) the one-shot reads three peers' copies and two-shot is ahead from
    1 MiB (15.6 against 18.3 us), NCCL from 16 MiB."""
    if world <= 2:
        return 64 * _MiB, 0
    return _MiB // 2, 4 * _MiB


def _ll_block(words: int, programs: int) -> int:
    """The low-latency one-shot's words per program and step: enough blocks
    to give every program of the grid one (more SMs pushing at once), from
    128 to 1024 words, and no more than the data."""
    per = -(-words // programs)
    block = max(128, min(1024, 1 << (per - 1).bit_length()))
    return min(block, max(16, 1 << (words - 1).bit_length()))


def _ll128_launch(words: int, world: int, two_shot: bool, programs: int) -> tuple[int, int]:
    """The LL128 kernels' (BLOCK, num_warps) for ``words`` 32-bit words on a
    grid of ``programs`` (``ll128_programs``): the block is each program's
    share of the lines (each owner's share for the two-shot) rounded up to
    a power of two from 128 to 512 words (``_ll_block``), with one warp up
    to 256 words and 4 at 512. A thread then holds 4 consecutive words (8
    at 256 words and one warp: two such groups, 128 words apart), so a line
    is written by 8 lanes' 16-byte stores of one warp instruction and
    polled by 16-byte volatile loads, as the protocol needs. With fewer
    words per thread a line went out as 32 4-byte stores, and a receiver on
    2 x H200 once saw a line's flag beside older data.

    From ``bench/_probe_ll128.py`` on 4 x H200 (two-shot, slowest rank, CUDA
    graphs): 10.8-10.9 us at 1 MiB and 9.4 at 512 KiB against 12.5 and
    11.4 with the earlier 264 programs of up to 4 warps and 1024 words;
    at 4 MiB the 512-word blocks of 4 warps lead one warp of 256 (26.2
    against 28.3 us; 17.0 against 18.5 on 2 GPUs)."""
    lines = -(-words // _LL128_DATA)
    block = min(512, max(128, _ll_block(lines * 32 // (world if two_shot else 1), programs)))
    return block, 1 if block <= 256 else 4


def ll128_programs(sms: int, max_programs: int) -> int:
    """The LL128 kernels' grid on a device of ``sms`` multiprocessors:
    ``_LL128_PER_SM`` one-warp programs each (more lines in flight at once
    than fewer, wider programs), at most ``max_programs`` (the context's
    per-program counters). Always the same for one ``AllReduce``: every
    program counts every launch."""
    return min(_LL128_PER_SM * sms, max_programs)


class AllReduce:
    """A sum all-reduce over ``ctx``'s group for tensors of up to
    ``max_numel`` elements of ``dtype`` (bf16, fp16 or fp32), with its
    symmetric staging memory (4 * max_numel elements, 8 MiB for the
    low-latency one-shot and the LL128 area, from ``ctx.empty``: make the
    context with enough
    ``arena_bytes``; ``AllReduce.arena_bytes`` says how many). Every rank
    makes the same ones, in the same order.

    Calling it, ``ar(x, out=None, method=None)``, sums ``x`` (a contiguous
    CUDA tensor of ``dtype`` with at most ``max_numel`` elements) over the
    group; ``ar.method(x)`` says which algorithm ``x`` gets. With
    the LL128 kernels (``ll128``, below: by default on NVLink-connected
    GPUs): the LL128 one-shot
    (``"one_shot_ll128"``: each device pushes its data to every other in
    128-byte lines of 120 data bytes, a check word and a flag, no barrier,
    no fence) up to
    1 MiB on 2 GPUs and 64 KiB on more, then the LL128 two-shot
    (``"two_shot_ll128"``: the same lines to each block's owner, which sums
    them and pushes the sum to every device) up to 4 MiB
    (``ll128_thresholds``). Otherwise, and above: the low-latency
    one-shot (``"one_shot_ll"``: each device pushes its words to every
    other with a flag in each word, no barrier) up to ``ll_max_bytes`` and
    as far as its 8 MiB area holds (``2 * world * 2 * nbytes``; ``nbytes`` a
    multiple of 4), the one-shot (``"one_shot"``: a barrier, then every
    device reads every peer's copy) up to ``one_shot_max_bytes``, two-shot
    up to ``two_shot_max_bytes`` (only for a power-of-two group and a
    multiple of ``1024 * world`` elements), else NCCL's
    ``dist.all_reduce``.

    Args:
        ctx: a ``tle.distributed.SymmetricContext`` (from
            ``tle.device_context.from_group``) with at least
            ``AllReduce.arena_bytes(max_numel, dtype)`` bytes of arena left.
        max_numel: the largest number of elements to reduce (an int).
        dtype: ``torch.bfloat16``, ``torch.float16`` or ``torch.float32``.
        one_shot_max_bytes: the largest ``x`` in bytes for the one-shot
            kernel, or None (by the group's size: 64 MiB on up to 2 GPUs,
            else 512 KiB).
        two_shot_max_bytes: the largest ``x`` in bytes for the two-shot
            kernel, or None (0 on up to 2 GPUs, else 4 MiB).
        ll_max_bytes: the largest ``x`` in bytes for the low-latency
            one-shot, or None (256 KiB on up to 2 GPUs, 64 KiB on more); 0
            turns it off.
        ll_block: the low-latency one-shot's 32-bit words per program and
            step (a power of two, 16 to 4096), or None: chosen by size
            (``_ll_block``).
        ll128: True to let ``method`` pick the LL128 kernels (the device
            needs an active NVLink, ``nvlink_connected``), False to leave
            them to ``method=``, None (the default): on NVLink-connected
            GPUs, where they lead up to 4 MiB (4 x H200: 2.09-2.59x NCCL
            up to 256 KiB against 1.62-2.17x without them; 2 x H200, with
            6 one-warp programs a multiprocessor: 5.0 against the LL
            one-shot's 5.7 us at 256 KiB, 10.5 against the one-shot's 12.4
            at 2 MiB, level with the LL one-shot below 64 KiB). Each line carries a check word
            besides its flag, and a receiver takes a line only when both
            match: a line seen half written (as on a 2 x H200 machine, in 9
            of 10 runs of ``dist_worker.py all_reduce_ll128`` before the
            check word) is polled again; with it that check passed 5 of 5
            runs on 2 x H200 and 3 of 3 on 4. Their symmetric area is
            ``arena_bytes``' share for them (2 x 2 x world x 16/15 of up to
            4 MiB / world, or 1 MiB).

    Example::

        n = 1 << 20
        ctx = tle.device_context.from_group(MESH, arena_bytes=tle.distributed.AllReduce.arena_bytes(n, torch.bfloat16))
        ar = tle.distributed.AllReduce(ctx, n, torch.bfloat16)
        x = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        y = ar(x)              # a new tensor
        ar(x, out=x)           # in place
    """

    def __init__(self, ctx, max_numel: int, dtype, one_shot_max_bytes=None, two_shot_max_bytes=None,
                 ll_max_bytes=None, ll_block=None, ll128=None):
        import torch
        if ll_block is not None and (ll_block < 16 or ll_block > 4096 or ll_block & (ll_block - 1)):
            raise TLEUsageError(f"AllReduce: ll_block must be a power of two from 16 to 4096 words, got {ll_block}")
        if dtype not in (torch.bfloat16, torch.float16, torch.float32):
            raise TLEUsageError(f"AllReduce: dtype {dtype} is not bf16, fp16 or fp32")
        self.ctx = ctx
        self.dtype = dtype
        self.max_numel = int(max_numel)
        self.stage = ctx.empty(4 * self.max_numel, dtype=dtype)
        self.ll = ctx.empty(_LL_BYTES // 8, dtype=torch.int64)
        self.ll.zero_()
        d = ctx.world_size
        self.ll128_slot = _ll128_slot(self.max_numel * dtype.itemsize, d)
        self.ll128 = ctx.empty(2 * 2 * d * self.ll128_slot, dtype=torch.int32)
        self.ll128_programs = ll128_programs(torch.cuda.get_device_properties(ctx.heap.device).multi_processor_count,
                                             ctx.max_programs)
        self.ll128.zero_()
        # Launch counters per program: one-shot, two-shot, low-latency one-shot, the LL128 kernels (one for both).
        self.counters = torch.zeros(4 * ctx.max_programs, dtype=torch.int32, device=ctx.heap.device)
        one, two = thresholds(ctx.world_size)
        self.one_shot_max_bytes = one if one_shot_max_bytes is None else one_shot_max_bytes
        self.two_shot_max_bytes = two if two_shot_max_bytes is None else two_shot_max_bytes
        if ll_max_bytes is None:
            ll_max_bytes = _LL_MAX_BYTES if d <= 2 else _LL_MAX_BYTES_MORE
        self.ll_max_bytes = ll_max_bytes
        self.ll_block = ll_block
        if ll128 is None:  # by default on NVLink-connected GPUs, where they lead from 256 KiB
            ll128 = d > 1 and nvlink_connected(ctx.heap.device)
        self.use_ll128 = bool(ll128)
        if self.use_ll128 and not nvlink_connected(ctx.heap.device):
            raise TLEUsageError("AllReduce(ll128=True): the LL128 kernels need an NVLink-connected device "
                                "(the driver's NVML reports no active NVLink)")
        torch.cuda.synchronize()
        ctx.barrier()  # every peer's LL area is zero before anyone pushes into it
        self.args = ctx.args()

    @staticmethod
    def arena_bytes(max_numel: int, dtype, world: int = 8) -> int:
        """Symmetric bytes an ``AllReduce`` takes from its context, for up to
        ``world`` devices."""
        ll128 = 2 * 2 * world * _ll128_slot(int(max_numel) * dtype.itemsize, world) * 4
        return 4 * int(max_numel) * dtype.itemsize + _LL_BYTES + ll128 + 1024

    def method(self, x) -> str:
        """Which algorithm ``x`` gets: "one_shot_ll128", "two_shot_ll128",
        "one_shot_ll", "one_shot", "two_shot" or "nccl"."""
        nbytes = x.numel() * x.element_size()
        if self.use_ll128:
            one, two = ll128_thresholds(self.ctx.world_size)
            if nbytes <= one and self._ll128_fits(nbytes):
                return "one_shot_ll128"
            if nbytes <= two and self._ll128_fits(nbytes, True):
                return "two_shot_ll128"
        if nbytes <= self.ll_max_bytes and self._ll_fits(nbytes):
            return "one_shot_ll"
        if nbytes <= self.one_shot_max_bytes:
            return "one_shot"
        block = self._two_shot_block()
        if nbytes <= self.two_shot_max_bytes and block and x.numel() % block == 0:
            return "two_shot"
        return "nccl"

    def _nccl(self, x, out):
        """NCCL's all-reduce of ``x`` into ``out``: in place when ``out`` is
        ``x``, else after a copy into ``out`` (torch's all-reduce is in
        place only; a reduce-scatter + in-place all-gather instead, the same
        traffic without the copy, measured 0.74x of the all-reduce at 64 MiB
        on 2 x H100 against 0.90x for the copy)."""
        import torch.distributed as dist
        if out.data_ptr() != x.data_ptr():
            out.copy_(x)
        dist.all_reduce(out, group=self.ctx.group)
        return out

    def _ll_fits(self, nbytes: int) -> bool:
        """Whether ``nbytes`` of input fit the LL area (2 parities x world
        slots of 8 bytes per 4 bytes of data) in whole 32-bit words."""
        return nbytes % 4 == 0 and 4 * self.ctx.world_size * nbytes <= _LL_BYTES

    def _ll128_max(self, two_shot: bool) -> int:
        """The most bytes the LL128 one-shot (two-shot) takes."""
        return min(self.max_numel * self.dtype.itemsize, _LL128_TWO_MAX if two_shot else _LL128_ONE_MAX)

    def _ll128_fits(self, nbytes: int, two_shot: bool = False) -> bool:
        """Whether ``nbytes`` of input go to the LL128 one-shot (two-shot):
        whole 32-bit words, within its size (the area holds it, whatever
        the block: ``_ll128_slot``)."""
        return nbytes % 4 == 0 and nbytes <= self._ll128_max(two_shot)

    def _two_shot_block(self):
        d = self.ctx.world_size
        if d & (d - 1):
            return 0  # slices of a block must be power-of-two tensors
        return 1024 * d

    def __call__(self, x, out=None, method=None):
        """The sum of ``x`` over the group, into ``out`` (a new tensor by
        default; ``out=x`` reduces in place, which saves NCCL's path a copy)."""
        import torch
        if x.dtype != self.dtype or not x.is_cuda or not x.is_contiguous():
            raise TLEUsageError(f"all_reduce: x must be a contiguous CUDA tensor of {self.dtype}, got "
                                f"{x.dtype} on {x.device}")
        if x.numel() > self.max_numel:
            raise TLEUsageError(f"all_reduce: {x.numel()} elements exceed this AllReduce's max_numel "
                                f"{self.max_numel}")
        out = torch.empty_like(x) if out is None else out
        method = method or self.method(x)
        n = x.numel()
        if method == "nccl":
            return self._nccl(x, out)
        from . import _allreduce_kernels as k
        d = self.ctx.world_size
        mp = self.ctx.max_programs
        if method == "one_shot_ll":
            nbytes = n * x.element_size()
            if not self._ll_fits(nbytes):
                raise TLEUsageError(f"all_reduce: the low-latency one-shot takes a whole number of 32-bit words up to "
                                    f"{_LL_BYTES // (4 * d)} bytes on {d} devices, got {nbytes} bytes")
            words = nbytes // 4
            # Always the same grid: every program counts every launch, so one launch's flag is the same in
            # every program (a word left by another program of an older launch cannot carry it). The block
            # may change from call to call: it only decides which program pushes and sums which words.
            programs = min(2 * _SM_PROGRAMS, mp)
            block = self.ll_block or _ll_block(words, programs)
            kind = {torch.float32: 0, torch.bfloat16: 1, torch.float16: 2}[self.dtype]
            with enabled():
                k.one_shot_ll_all_reduce_kernel[(programs,)](
                    x.view(torch.int32), out.view(torch.int32), self.ll, self.counters[2 * mp:], self.args, words,
                    MESH=self.ctx.mesh, D=d, BLOCK=block, KIND=kind, num_warps=4)
            return out
        if method in ("one_shot_ll128", "two_shot_ll128"):
            two = method == "two_shot_ll128"
            nbytes = n * x.element_size()
            if not self._ll128_fits(nbytes, two):
                raise TLEUsageError(f"all_reduce: the LL128 {'two' if two else 'one'}-shot takes a whole number of "
                                    f"32-bit words up to {self._ll128_max(two)} bytes, got {nbytes} bytes")
            words = nbytes // 4
            programs = self.ll128_programs
            block, warps = _ll128_launch(words, d, two, programs)
            kind = {torch.float32: 0, torch.bfloat16: 1, torch.float16: 2}[self.dtype]
            kernel = k.two_shot_ll128_all_reduce_kernel if two else k.one_shot_ll128_all_reduce_kernel
            with enabled():
                kernel[(programs,)](
                    x.view(torch.int32), out.view(torch.int32), self.ll128, self.counters[3 * mp:], self.args, words,
                    self.ll128_slot, MESH=self.ctx.mesh, D=d, BLOCK=block, KIND=kind, num_warps=warps)
            return out
        if method == "one_shot":
            block = 2048 if n >= 2048 else max(16, 1 << (n - 1).bit_length())
            programs = min(math.ceil(n / block), 2 * _SM_PROGRAMS, self.ctx.max_programs)
            kernel, counters = k.one_shot_all_reduce_kernel, self.counters[:mp]
        elif method == "two_shot":
            block = self._two_shot_block()
            if not block or n % block:
                raise TLEUsageError(f"all_reduce: two-shot needs a power-of-two world size and a multiple of "
                                    f"{block or 1024} elements, got {n} on {d} devices")
            programs = min(n // block, 2 * _SM_PROGRAMS, self.ctx.max_programs)
            kernel, counters = k.two_shot_all_reduce_kernel, self.counters[mp:2 * mp]
        else:
            raise TLEUsageError(f"all_reduce: method must be 'one_shot_ll128', 'two_shot_ll128', 'one_shot_ll', 'one_shot', "
                                f"'two_shot' or 'nccl', got {method!r}")
        with enabled():
            kernel[(programs,)](x, out, self.stage, counters, self.args, n, MESH=self.ctx.mesh, D=d, BLOCK=block,
                                num_warps=8 if block >= 4096 else 4)
        return out


_cache = {}


def all_reduce(x, ctx, out=None, method=None):
    """Sum ``x`` over ``ctx``'s group; every rank gets the sum (a new tensor,
    or ``out``). The algorithm follows the size: over NVLink the LL128
    one-shot and two-shot (data pushed in 128-byte lines that carry their
    own flag: no barrier, no fence), else the low-latency one-shot (each
    device pushes its words, a flag in each, to every other); then the
    one-shot (every device reads every peer's copy after a barrier), two-shot
    (reduce-scatter then all-gather: half the traffic) or NCCL
    (``dist.all_reduce``) for the largest. An ``AllReduce`` for ``x``'s dtype is made on first use and
    kept with the context (its staging memory comes from ``ctx.empty``).

    Args:
        x: a CUDA tensor on this rank (the same shape and dtype on every rank).
        ctx: the context from ``tle.device_context.from_group``, with
            ``arena_bytes`` room for the staging buffers.
        out: a tensor of ``x``'s shape and dtype for the result, or None.
        method: ``"one_shot_ll128"``, ``"two_shot_ll128"``,
            ``"one_shot_ll"``, ``"one_shot"``, ``"two_shot"``, ``"nccl"`` or
            None (chosen by size, see ``AllReduce``).

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
