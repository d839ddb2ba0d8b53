"""``tle.distributed.all_gather_matmul`` and ``matmul_reduce_scatter``:
tensor-parallel GEMMs with the communication overlapped tile by tile
(kernels in ``_gemm_kernels.py``)."""

from __future__ import annotations

from .. import _state
from .._bridge import enabled
from ..language._markers import TLEUsageError

# Tiles for bf16 on Hopper: 128 x 256 x 64, 8 warps, TMA loads, a persistent
# grid (one program per SM), 3 stages; the output stored by TMA in two column
# halves (SPLIT). rs_num_stages: GEMM+ReduceScatter's stages. async_store:
# AllGather+GEMM's tiles leave by asynchronous TMA stores from its own two
# staging halves (GEMM+ReduceScatter's always do).
CONFIG = dict(BM=128, BN=256, BK=64, GROUP_M=8, num_warps=8, num_stages=3, SPLIT=True, rs_num_stages=3,
              async_store=True)


def _check(t, name, dtype=None):
    if not t.is_cuda or not t.is_contiguous() or t.dim() != 2:
        raise TLEUsageError(f"{name} must be a contiguous 2-D CUDA tensor, got {tuple(t.shape)} on {t.device}")
    if dtype is not None and t.dtype != dtype:
        raise TLEUsageError(f"{name} must be {dtype}, got {t.dtype}")


def _divides(n, d, what):
    if n % d:
        raise TLEUsageError(f"{what}: {n} is not a multiple of {d}")


def _sms(device) -> int:
    """Streaming multiprocessors of ``device``: the persistent grid's size."""
    import torch
    return torch.cuda.get_device_properties(device).multi_processor_count


def _desc(t, rows: int, cols: int):
    """A TMA descriptor of the 2-D tensor ``t`` with ``rows`` x ``cols`` blocks."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor.from_tensor(t, [rows, cols])


def _gemm_descs(a, b, out, cfg):
    """The descriptors of ``_gemm_kernels``' persistent GEMMs: A, B and (when
    ``out`` is given) the output, stored in column halves with ``SPLIT``."""
    bm, bn, bk = cfg["BM"], cfg["BN"], cfg["BK"]
    descs = [_desc(a, bm, bk), _desc(b, bk, bn)]
    if out is not None:
        descs.append(_desc(out, bm, bn // 2 if cfg["SPLIT"] else bn))
    return descs


def _signal_without_sm(flags, index: int) -> None:
    """flags[index] = 1 (uint32) on the current stream without a kernel: the
    GEMM spinning on the flag may hold every SM, so a fill kernel queued
    behind it would never run. A stream memory operation
    (cuStreamWriteValue32, with a system fence before the write), or inside
    CUDA-graph capture a memset node, as torch's own fused all-gather does."""
    import torch
    from torch._C._distributed_c10d import _SymmetricMemory as SM
    if not torch.cuda.is_current_stream_capturing() and hasattr(SM, "stream_write_value32"):
        SM.stream_write_value32(flags, index, 1)
    elif hasattr(SM, "memset32"):
        SM.memset32(flags, offset=index, val=1, count=1)
    else:
        raise TLEUsageError("all_gather_matmul needs torch's _SymmetricMemory.stream_write_value32 / memset32 "
                            "(torch >= 2.7)")


class AllGatherMatmul:
    """``C = all_gather(A_shard, dim 0) @ B`` over ``ctx``'s group, for shards
    of up to ``max_m_shard`` x ``k`` (bf16 / fp16). Symmetric memory: the
    gathered A (``arena_bytes``). Every rank makes the same ones.

    Calling it, ``op(a_shard, b, out=None)``, takes ``a_shard`` (``m_shard``
    x ``k``, ``m_shard <= max_m_shard`` and a multiple of ``BM``) and ``b``
    (``k`` x ``n``, ``n`` a multiple of ``BN``, ``k`` of ``BK``), both
    contiguous 2-D CUDA tensors of ``dtype``, and returns the ``world *
    m_shard`` x ``n`` product (into ``out`` when given). The peers' shards
    are pulled on a side stream while the GEMM runs on the tiles already
    present.

    Args:
        ctx: a ``tle.distributed.SymmetricContext`` with at least
            ``AllGatherMatmul.arena_bytes(world, max_m_shard, k, dtype)``
            bytes of arena left.
        max_m_shard: the most rows of A per rank (an int).
        k: the inner dimension (an int, a multiple of ``BK``).
        dtype: ``torch.bfloat16`` or ``torch.float16``; A, B and the result
            have it.
        config: None, or a dict overriding the tiling ``BM`` (128), ``BN``
            (256), ``BK`` (64), ``GROUP_M`` (8), ``SPLIT`` (True: the
            output stored in two column halves), ``num_warps`` (8),
            ``num_stages`` (3) and ``rs_num_stages`` (3, GEMM+ReduceScatter).

    Example::

        world = dist.get_world_size()
        ctx = tle.device_context.from_group(
            MESH, arena_bytes=tle.distributed.AllGatherMatmul.arena_bytes(world, 1024, 4096, torch.bfloat16))
        op = tle.distributed.AllGatherMatmul(ctx, 1024, 4096, torch.bfloat16)
        a = torch.randn(1024, 4096, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(4096, 2048, device="cuda", dtype=torch.bfloat16)
        c = op(a, b)   # (world * 1024) x 2048
    """

    def __init__(self, ctx, max_m_shard: int, k: int, dtype, config=None):
        import torch
        self.ctx, self.k, self.dtype = ctx, int(k), dtype
        self.max_m_shard = int(max_m_shard)
        self.config = dict(CONFIG, **(config or {}))
        self.gathered = ctx.empty(ctx.world_size * self.max_m_shard, self.k, dtype=dtype)
        self.ready = torch.zeros(ctx.world_size, dtype=torch.uint32, device=ctx.heap.device)
        # READY's value at the launch: this device's own shard is in place.
        self.ready_init = torch.zeros_like(self.ready)
        self.ready_init[ctx.rank] = 1
        self.sms = _sms(ctx.heap.device)
        self.stream = torch.cuda.Stream(device=ctx.heap.device)
        self.args = ctx.args()

    @staticmethod
    def arena_bytes(world, max_m_shard, k, dtype) -> int:
        return world * max_m_shard * k * dtype.itemsize + 256

    def __call__(self, a_shard, b, out=None):
        import torch
        from . import _gemm_kernels as kern
        ctx, cfg = self.ctx, self.config
        _check(a_shard, "all_gather_matmul A_shard", self.dtype)
        _check(b, "all_gather_matmul B", self.dtype)
        m_shard, k = a_shard.shape
        n = b.shape[1]
        if k != self.k or b.shape[0] != k or m_shard > self.max_m_shard:
            raise TLEUsageError(f"all_gather_matmul: A_shard {tuple(a_shard.shape)} and B {tuple(b.shape)} do not "
                                f"fit this AllGatherMatmul (max {self.max_m_shard} x {self.k})")
        _divides(m_shard, cfg["BM"], "all_gather_matmul rows per shard")
        _divides(n, cfg["BN"], "all_gather_matmul N")
        _divides(k, cfg["BK"], "all_gather_matmul K")
        d, rank = ctx.world_size, ctx.rank
        gathered = self.gathered[:d * m_shard] if m_shard == self.max_m_shard else \
            self.gathered.view(-1)[:d * m_shard * k].view(d * m_shard, k)
        out = torch.empty(d * m_shard, n, dtype=self.dtype, device=a_shard.device) if out is None else out
        main = torch.cuda.current_stream()
        ctx.barrier()  # every peer is done reading the last call's shards
        gathered[rank * m_shard:(rank + 1) * m_shard].copy_(a_shard)
        self.ready.copy_(self.ready_init)
        ctx.barrier()  # every shard is in its owner's buffer
        self.stream.wait_stream(main)
        with torch.cuda.stream(self.stream):
            for s in range(1, d):  # pull the shards in the order the GEMM takes them
                src = (rank + s) % d
                rows = slice(src * m_shard, (src + 1) * m_shard)
                gathered[rows].copy_(ctx.peer(gathered, src)[rows])
                _signal_without_sm(self.ready, src)
        tiles = d * (m_shard // cfg["BM"]) * (n // cfg["BN"])
        with enabled():
            kern.ag_gemm_kernel[(min(tiles, self.sms),)](
                *_gemm_descs(gathered, b, out, cfg), self.ready, self.args, m_shard, n, k, MESH=ctx.mesh, D=d,
                BM=cfg["BM"], BN=cfg["BN"], BK=cfg["BK"], GROUP_M=cfg["GROUP_M"], NUM_SMS=self.sms,
                SPLIT=cfg["SPLIT"], WAIT_LIMIT=_state.device_wait_limit(), ASYNC_STORE=cfg["async_store"],
                num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
        main.wait_stream(self.stream)
        return out


class MatmulReduceScatter:
    """``OUT = reduce_scatter(A @ B, dim 0)`` over ``ctx``'s group: A is
    ``m`` x ``k_local``, B ``k_local`` x ``n`` on every rank; rank r gets rows
    ``r * m / D ...`` of the sum. Symmetric memory: the ring's receive slots
    (D - 1 chunks of m / D x n) and two flags per tile of each.

    Calling it, ``op(a, b, out=None)``, takes ``a`` (``m`` x ``k``) and ``b``
    (``k`` x ``n``, ``k`` a multiple of ``BK``), contiguous 2-D CUDA tensors
    of ``dtype``, and returns this rank's ``m / D`` x ``n`` rows of the
    summed product (into ``out`` when given). Making one is collective (it
    ends with ``ctx.barrier()``).

    Args:
        ctx: a ``tle.distributed.SymmetricContext`` with at least
            ``MatmulReduceScatter.arena_bytes(world, m, n, dtype, config)``
            bytes of arena left.
        m: rows of A and of the full product; a multiple of ``D * BM``.
        n: columns of B and of the result; a multiple of ``BN``.
        dtype: ``torch.bfloat16`` or ``torch.float16``; A, B and the result
            have it.
        config: None, or a dict overriding the tiling ``BM`` (128), ``BN``
            (256), ``BK`` (64), ``GROUP_M`` (8), ``SPLIT`` (True: the
            output stored in two column halves), ``num_warps`` (8),
            ``num_stages`` (3) and ``rs_num_stages`` (3, GEMM+ReduceScatter).

    Example::

        world = dist.get_world_size()
        m, n = 4096, 2048
        ctx = tle.device_context.from_group(
            MESH, arena_bytes=tle.distributed.MatmulReduceScatter.arena_bytes(world, m, n, torch.bfloat16))
        op = tle.distributed.MatmulReduceScatter(ctx, m, n, torch.bfloat16)
        a = torch.randn(m, 1024, device="cuda", dtype=torch.bfloat16)   # this rank's K slice
        b = torch.randn(1024, n, device="cuda", dtype=torch.bfloat16)
        out = op(a, b)   # (m / world) x n
    """

    def __init__(self, ctx, m: int, n: int, dtype, config=None):
        self.ctx, self.m, self.n, self.dtype = ctx, int(m), int(n), dtype
        self.config = dict(CONFIG, **(config or {}))
        d = ctx.world_size
        cfg = self.config
        _divides(self.m, d * cfg["BM"], "matmul_reduce_scatter M (rows per rank must be a multiple of BM)")
        _divides(self.n, cfg["BN"], "matmul_reduce_scatter N")
        import torch
        self.recv = ctx.empty(max(d - 1, 1), self.m // d, self.n, dtype=dtype)
        self.per_chunk = (self.m // d // cfg["BM"]) * (self.n // cfg["BN"])
        # Per receive slot a READY flag (0 at rest, on the receiver) and a FREE flag (1 at rest, on the sender).
        slots = max(d - 1, 1) * self.per_chunk
        self.flags = ctx.empty(2 * slots, dtype=torch.int32)
        self.flags[:slots].zero_()
        self.flags[slots:].fill_(1)
        self.sms = _sms(ctx.heap.device)
        # The downstream device's receive slots, as one 2-D tensor, for the TMA stores into them.
        down = ctx.peer(self.recv, (ctx.rank + d - 1) % d).view(-1, self.n)
        self.recv_down = _desc(down, cfg["BM"], cfg["BN"] // 2 if cfg["SPLIT"] else cfg["BN"])
        # This device's receive slots, read by TMA into the kernel's staging buffers.
        self.recv_desc = _desc(self.recv.view(-1, self.n), cfg["BM"], cfg["BN"] // 2 if cfg["SPLIT"] else cfg["BN"])
        torch.cuda.synchronize()
        ctx.barrier()
        self.args = ctx.args()

    @staticmethod
    def arena_bytes(world, m, n, dtype, config=None) -> int:
        cfg = dict(CONFIG, **(config or {}))
        per_chunk = (m // world // cfg["BM"]) * (n // cfg["BN"])
        return (world - 1) * (m // world) * n * dtype.itemsize + 2 * (world - 1) * per_chunk * 4 + 1024

    def __call__(self, a, b, out=None, comm=True, prof=None):
        """``comm=False`` and ``comm="sends"`` are the benchmark's ablations
        (the result is not the reduce-scatter): the same kernel and tile
        order without the ring, and with the ring's sends alone (no flag
        waits, nothing received). ``prof``: None, or a CUDA int64 tensor of
        ``sms * 64 * 8`` words for the benchmark's profile (``--profile``:
        %globaltimer marks at 7 points of each program's tiles)."""
        import torch
        from . import _gemm_kernels as kern
        ctx, cfg = self.ctx, self.config
        _check(a, "matmul_reduce_scatter A", self.dtype)
        _check(b, "matmul_reduce_scatter B", self.dtype)
        m, k = a.shape
        if (m, b.shape[1]) != (self.m, self.n) or b.shape[0] != k:
            raise TLEUsageError(f"matmul_reduce_scatter: A {tuple(a.shape)} @ B {tuple(b.shape)} is not the "
                                f"{self.m} x {self.n} product this MatmulReduceScatter was made for")
        _divides(k, cfg["BK"], "matmul_reduce_scatter K")
        d = ctx.world_size
        out = torch.empty(m // d, self.n, dtype=self.dtype, device=a.device) if out is None else out
        bm, bn = cfg["BM"], cfg["BN"] // 2 if cfg["SPLIT"] else cfg["BN"]
        with enabled():
            kern.gemm_rs_kernel[(min(d * self.per_chunk, self.sms),)](
                *_gemm_descs(a, b, None, cfg), _desc(out, bm, bn), self.recv_desc, self.recv_down, self.flags, self.args,
                m, self.n, k, MESH=ctx.mesh, D=d, BM=cfg["BM"], BN=cfg["BN"], BK=cfg["BK"], GROUP_M=cfg["GROUP_M"],
                NUM_SMS=self.sms, SPLIT=cfg["SPLIT"], COMM={True: 2, "sends": 1, False: 0}[comm], WAIT_LIMIT=_state.device_wait_limit(),
                PROF=prof, num_warps=cfg["num_warps"], num_stages=cfg["rs_num_stages"])
        return out


def matmul(a, b, out=None, config=None):
    """The GEMM of the fused kernels alone, no communication (for the
    benchmarks' "GEMM part").

    Args:
        a: a row-major (contiguous) 2-D CUDA tensor, ``m`` x ``k``, ``m`` a
            multiple of ``BM`` and ``k`` of ``BK``.
        b: a row-major 2-D CUDA tensor, ``k`` x ``n``, ``n`` a multiple of
            ``BN``, of ``a``'s dtype.
        out: None (a new ``m`` x ``n`` tensor of ``a``'s dtype), or a
            contiguous ``m`` x ``n`` CUDA tensor for the result.
        config: None, or a dict overriding the tiling ``BM`` (128), ``BN``
            (256), ``BK`` (64), ``GROUP_M`` (8), ``SPLIT`` (True: the
            output stored in two column halves), ``num_warps`` (8),
            ``num_stages`` (3) and ``rs_num_stages`` (3, GEMM+ReduceScatter).

    Returns:
        ``a @ b`` (accumulated in fp32, stored in ``out``'s dtype).

    Example::

        a = torch.randn(1024, 512, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(512, 2048, device="cuda", dtype=torch.bfloat16)
        c = tle.distributed.matmul(a, b)
    """
    import torch
    from . import _gemm_kernels as kern
    cfg = dict(CONFIG, **(config or {}))
    m, k = a.shape
    n = b.shape[1]
    for v, step, what in ((m, cfg["BM"], "M"), (n, cfg["BN"], "N"), (k, cfg["BK"], "K")):
        _divides(v, step, f"matmul {what}")
    out = torch.empty(m, n, dtype=a.dtype, device=a.device) if out is None else out
    sms = _sms(a.device)
    kern.gemm_kernel[(min((m // cfg["BM"]) * (n // cfg["BN"]), sms),)](
        *_gemm_descs(a, b, out, cfg), m, n, k, BM=cfg["BM"], BN=cfg["BN"], BK=cfg["BK"], GROUP_M=cfg["GROUP_M"],
        NUM_SMS=sms, SPLIT=cfg["SPLIT"], num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
    return out


_cache = {}


def all_gather_matmul(a_shard, b, ctx, out=None):
    """``all_gather(a_shard, dim 0) @ b`` over ``ctx``'s group (see
    ``AllGatherMatmul``; one is made on first use and kept, and a larger
    one when a later ``a_shard`` has more rows).

    Args:
        a_shard: this rank's rows of A, a contiguous 2-D CUDA tensor
            (bf16 / fp16), ``m_shard`` x ``k`` (``m_shard`` a multiple of 128,
            ``k`` of 64); the same shape on every rank.
        b: a contiguous ``k`` x ``n`` CUDA tensor of ``a_shard``'s dtype
            (``n`` a multiple of 256), the same on every rank.
        ctx: a ``tle.distributed.SymmetricContext`` with room in its arena
            for the gathered A (``AllGatherMatmul.arena_bytes``).
        out: None, or a contiguous ``world * m_shard`` x ``n`` tensor of
            ``a_shard``'s dtype for the result.

    Returns:
        The ``world * m_shard`` x ``n`` product (``out`` when given).

    Example::

        world = dist.get_world_size()
        ctx = tle.device_context.from_group(
            MESH, arena_bytes=tle.distributed.AllGatherMatmul.arena_bytes(world, 1024, 4096, torch.bfloat16))
        a = torch.randn(1024, 4096, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(4096, 2048, device="cuda", dtype=torch.bfloat16)
        c = tle.distributed.all_gather_matmul(a, b, ctx)   # (world * 1024) x 2048
    """
    key = ("ag", id(ctx), a_shard.dtype, a_shard.shape[1])
    op = _cache.get(key)
    if op is None or op.max_m_shard < a_shard.shape[0]:
        op = _cache[key] = AllGatherMatmul(ctx, a_shard.shape[0], a_shard.shape[1], a_shard.dtype)
    return op(a_shard, b, out=out)


def matmul_reduce_scatter(a, b, ctx, out=None):
    """``reduce_scatter(a @ b, dim 0)`` over ``ctx``'s group (see
    ``MatmulReduceScatter``; one per shape and dtype is made on first use,
    collectively, and kept).

    Args:
        a: this rank's ``m`` x ``k`` operand (typically its K slice), a
            contiguous 2-D CUDA tensor (bf16 / fp16); ``m`` a multiple of
            ``world * 128``, ``k`` of 64; the same shape on every rank.
        b: a contiguous ``k`` x ``n`` CUDA tensor of ``a``'s dtype (``n`` a
            multiple of 256).
        ctx: a ``tle.distributed.SymmetricContext`` with room in its arena
            (``MatmulReduceScatter.arena_bytes``).
        out: None, or a contiguous ``m / world`` x ``n`` tensor of ``a``'s
            dtype for the result.

    Returns:
        This rank's ``m / world`` x ``n`` rows of the product summed over the
        group (``out`` when given).

    Example::

        world = dist.get_world_size()
        ctx = tle.device_context.from_group(
            MESH, arena_bytes=tle.distributed.MatmulReduceScatter.arena_bytes(world, 4096, 2048, torch.bfloat16))
        a = torch.randn(4096, 1024, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(1024, 2048, device="cuda", dtype=torch.bfloat16)
        out = tle.distributed.matmul_reduce_scatter(a, b, ctx)   # (4096 / world) x 2048
    """
    key = ("rs", id(ctx), a.dtype, a.shape[0], b.shape[1])
    op = _cache.get(key)
    if op is None:
        op = _cache[key] = MatmulReduceScatter(ctx, a.shape[0], b.shape[1], a.dtype)
    return op(a, b, out=out)
