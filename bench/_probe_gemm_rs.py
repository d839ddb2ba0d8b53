"""Probe: where GEMM+ReduceScatter's time goes. The same kernel without the
ring, with its sends alone into the downstream device, with the same sends
into its own receive slots (a descriptor of them in place of the peer's),
and the ring, beside TLE's GEMM alone, cuBLAS and torch's fused op (ms,
slowest rank, CUDA graphs):

    torchrun --standalone --nproc-per-node 4 bench/_probe_gemm_rs.py
    TOKENS=16384 torchrun --standalone --nproc-per-node 2 bench/_probe_gemm_rs.py

(bench/README.md, GEMM+ReduceScatter). The ablations' results are not the
reduce-scatter.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _dist_harness as H  # noqa: E402
rank, world = H.init()
import torch, torch.distributed as dist
import tle, tle.distributed as td
from tle.distributed import _gemm as G
class Args: rounds = 2; iters = 10; reps = 5
dtype = torch.bfloat16
k, n = H.FFN // world, H.HIDDEN
mesh = tle.device_mesh({"device": world})
toks = [int(t) for t in os.environ.get("TOKENS", "8192,16384").split(",")]
ctx = tle.device_context.from_group(mesh, arena_bytes=sum(td.MatmulReduceScatter.arena_bytes(world, m, n, dtype) + 4096 for m in toks))
for m in toks:
    op = td.MatmulReduceScatter(ctx, m, n, dtype)
    loc = td.MatmulReduceScatter.__new__(td.MatmulReduceScatter); loc.__dict__.update(op.__dict__)
    cfg = op.config
    loc.recv_down = G._desc(op.recv.view(-1, n), cfg["BM"], cfg["BN"] // 2)
    a = (torch.randn(m, k, device="cuda") / 16).to(dtype); b = (torch.randn(k, n, device="cuda") / 16).to(dtype)
    out = torch.empty(m // world, n, dtype=dtype, device="cuda"); prod = torch.empty(m, n, dtype=dtype, device="cuda")
    gname = H.symm_group_name()
    fns = {"ring": lambda: op(a, b, out=out), "no_ring": lambda: op(a, b, out=out, comm=False),
           "sends_peer": lambda: op(a, b, out=out, comm="sends"), "sends_self": lambda: loc(a, b, out=out, comm="sends"),
           "gemm": lambda: td.matmul(a, b, out=prod), "cublas": lambda: torch.matmul(a, b, out=prod),
           "symm": lambda: torch.ops.symm_mem.fused_matmul_reduce_scatter(a, b, "sum", scatter_dim=0, group_name=gname)}
    for f in fns.values():
        f()
    torch.cuda.synchronize()
    t, _ = H.time_providers(fns, Args)
    if rank == 0:
        print(f"RS M={m} w{world}: " + ", ".join(f"{p} {v:.3f}" for p, v in t.items()), flush=True)
dist.barrier(); dist.destroy_process_group()
