"""Probe: the LL128 all-reduce grid, side by side with the one before
20107a0 (264 programs of up to 4 warps and blocks of up to 1024 words),
every algorithm at each size, three rounds, slowest rank, CUDA graphs:

    torchrun --standalone --nproc-per-node 4 bench/_probe_ll128.py
    SIZES=256,1024 torchrun --standalone --nproc-per-node 2 bench/_probe_ll128.py

(bench/README.md, "The LL128 grid"). Not a benchmark table: it prints one
line per size, fastest first.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _dist_harness as H  # noqa: E402
rank, world = H.init()
import torch, torch.distributed as dist
import tle
from tle.distributed import _allreduce as A
sizes = [int(s) * 1024 for s in os.environ.get("SIZES", "4,16,64,256,512,1024,2048,4096").split(",")]
maxn = max(sizes) // 2
mesh = tle.device_mesh({"device": world})
ctx = tle.device_context.from_group(mesh, arena_bytes=3 * (A.AllReduce.arena_bytes(maxn, torch.bfloat16, world) + 4096))
new = A.AllReduce(ctx, maxn, torch.bfloat16, ll128=True)
old = A.AllReduce(ctx, maxn, torch.bfloat16, ll128=True)
old.ll128_programs = min(264, ctx.max_programs)
dflt = A.AllReduce(ctx, maxn, torch.bfloat16)
NEW = A._ll128_launch
def OLD(words, world, two_shot, programs):
    lines = -(-words // 30)
    block = max(128, A._ll_block(lines * 32 // (world if two_shot else 1), programs))
    return block, max(1, min(4, block // 128))
class Args: rounds = 3; iters = 20; reps = 5
for nbytes in sizes:
    n = nbytes // 2
    x = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    want = x.float().clone(); dist.all_reduce(want)
    out = torch.empty_like(x)
    fns = {}
    def mk(op, m, launch):
        def fn():
            A._ll128_launch = launch
            try:
                return op(x, out=out, method=m)
            finally:
                A._ll128_launch = NEW
        return fn
    fns["default:" + dflt.method(x)] = lambda: dflt(x, out=out)
    for m in ("one_shot_ll128", "two_shot_ll128"):
        if (m == "one_shot_ll128" and nbytes > (1 << 20)):
            continue
        fns[m + "/old"] = mk(old, m, OLD)
        fns[m + "/new"] = mk(new, m, NEW)
        if nbytes >= (1 << 20):
            fns[m + "/new512x4"] = mk(new, m, lambda *a: (512, 4))
    if dflt._ll_fits(nbytes):
        fns["one_shot_ll"] = lambda: dflt(x, out=out, method="one_shot_ll")
    fns["one_shot"] = lambda: dflt(x, out=out, method="one_shot")
    fns["nccl"] = lambda: dist.all_reduce(out)
    for name, fn in fns.items():
        if name == "nccl":
            continue
        out.zero_(); fn(); torch.cuda.synchronize()
        err = (out.float() - want).abs().max().item()
        if err > 2e-2 * max(1.0, want.abs().max().item()):
            raise SystemExit(f"BAD {nbytes} {name} err {err}")
    times, _ = H.time_providers(fns, Args)
    if rank == 0:
        print(f"== w{world} {nbytes >> 10} KiB: " + ", ".join(f"{k} {v*1000:.2f}" for k, v in sorted(times.items(), key=lambda kv: kv[1])), flush=True)
dist.barrier(); dist.destroy_process_group()
