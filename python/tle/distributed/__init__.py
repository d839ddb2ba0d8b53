"""Multi-GPU TLE on torch.distributed and PyTorch's symmetric memory
(docs/distributed.md, "Running on torch.distributed"): the host context
(``SymmetricContext``, made by ``tle.device_context.from_group``) and fused
collectives written with TLE (``all_reduce``, ``all_gather_matmul``,
``matmul_reduce_scatter``)."""

from ._allreduce import AllReduce, all_reduce
from ._context import ARGS_SIGNATURE, MULTICAST_OFF, SymmetricContext, keep_multicast_off
from ._gemm import AllGatherMatmul, MatmulReduceScatter, all_gather_matmul, matmul, matmul_reduce_scatter

__all__ = ["ARGS_SIGNATURE", "AllGatherMatmul", "AllReduce", "MULTICAST_OFF", "MatmulReduceScatter", "SymmetricContext", "all_gather_matmul",
           "all_reduce", "keep_multicast_off", "matmul", "matmul_reduce_scatter"]
