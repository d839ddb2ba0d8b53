"""The multi-GPU benchmarks' driver (bench/dist_*.py), launched with torchrun:

    torchrun --standalone --nproc-per-node 4 bench/dist_allreduce.py --csv bench/results/dist_allreduce_w4.csv

The conventions of bench/_harness.py, for one process per GPU:

1. fresh random inputs per shape (``--seed``; every rank its own shard);
2. every provider runs once and is checked against a reference made with
   NCCL and torch (a failed check aborts the run on every rank; nothing is
   timed);
3. the providers are timed side by side in the same processes, in
   ``--rounds`` rounds in which they take turns: each time is a CUDA graph of
   ``--iters`` calls replayed ``--reps`` times after a ``dist.barrier``,
   timed with CUDA events; a provider's time on a rank is the median over
   its replays and rounds, and the row reports the slowest rank's (the
   collective is done when the last rank is). Graphs take the CPU's launch
   cost out of the small sizes for every provider alike; a provider that
   cannot be captured is timed with an eager loop (noted in the CSV).

Rank 0 prints the table and writes the CSV, the run's metadata beside it
(``<name>.json``: device, world size, versions, TLE commit, seed, command)
and a markdown table (``<name>.md``) that bench/make_report.py includes in
bench/README.md. NVLink multicast stays off (the three variables are set
before torch.distributed starts).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import shlex
import statistics
import sys
import time

for _k, _v in {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}.items():
    os.environ[_k] = _v

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))


def parser(name: str, doc: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"bench/{name}.py", description=doc)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=20, help="calls per CUDA graph")
    p.add_argument("--reps", type=int, default=5, help="graph replays per round")
    p.add_argument("--csv", default=None, help="write the results here (rank 0)")
    p.add_argument("--providers", default=None, help="comma-separated subset of providers")
    p.add_argument("--check", action="store_true", help="check the providers only, no timing")
    return p


def init():
    import torch
    import torch.distributed as dist
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    return rank, dist.get_world_size()


def _graph_time(fn, iters, reps):
    import torch
    import torch.distributed as dist
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(iters):
            fn()
    out = []
    for _ in range(reps):
        dist.barrier()
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / iters)
    del g
    return out


def _eager_time(fn, iters, reps):
    import torch
    import torch.distributed as dist
    for _ in range(2):
        fn()
    out = []
    for _ in range(reps):
        dist.barrier()
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(iters):
            fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / iters)
    return out


def time_providers(fns: dict, args, eager=()):
    """Each provider's time (ms, the slowest rank's median) and how it was timed."""
    import torch
    import torch.distributed as dist
    order = list(fns)
    samples = {p: [] for p in order}
    how = {p: "graph" for p in order}
    for r in range(max(1, args.rounds)):
        for p in order[r % len(order):] + order[:r % len(order)]:
            if how[p] == "graph" and p not in eager:
                try:
                    samples[p] += _graph_time(fns[p], args.iters, args.reps)
                    continue
                except Exception as e:  # not capturable: eager loop
                    how[p] = f"eager ({type(e).__name__})"
                    torch.cuda.synchronize()
            else:
                how[p] = how[p] if how[p] != "graph" else "eager"
            samples[p] += _eager_time(fns[p], args.iters, args.reps)
    mine = torch.tensor([statistics.median(samples[p]) for p in order], dtype=torch.float64, device="cuda")
    dist.all_reduce(mine, op=dist.ReduceOp.MAX)
    return dict(zip(order, mine.tolist())), how


def check_all(results: dict, rank: int):
    """Every rank's verdicts: raise on every rank if any provider failed anywhere."""
    import torch
    import torch.distributed as dist
    names = sorted(results)
    bad = torch.tensor([0 if results[n] is None else 1 for n in names], device="cuda")
    dist.all_reduce(bad, op=dist.ReduceOp.MAX)
    failed = [n for n, b in zip(names, bad.tolist()) if b]
    if failed:
        mine = {n: results[n] for n in names if results[n]}
        raise SystemExit(f"rank {rank}: check failed for {failed}: {mine}")


def metadata(name, world, seed, argv):
    import torch
    import triton
    commit = None
    try:
        import subprocess
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip() or None
    except OSError:
        pass
    return {
        "benchmark": name,
        "device": torch.cuda.get_device_name(),
        "world_size": world,
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "triton": triton.__version__,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "nccl": ".".join(map(str, torch.cuda.nccl.version())),
        "python": platform.python_version(),
        "tle_commit": os.environ.get("TLE_COMMIT") or commit,
        "seed": seed,
        "multicast": "off (NCCL_NVLS_ENABLE=0, TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1)",
        "command": shlex.join(["torchrun", "--standalone", f"--nproc-per-node={world}", f"bench/{name}.py", *argv]),
    }


def write(rows, cols, meta, csv_path, md_lines):
    """Rank 0: the CSV, its metadata and the markdown table."""
    print("\n".join(f"# {k}: {v}" for k, v in meta.items()))
    print("\n".join(md_lines))
    if not csv_path:
        return
    os.makedirs(os.path.dirname(os.path.abspath(csv_path)), exist_ok=True)
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for row in rows:
            w.writerow({c: row.get(c, "") for c in cols})
    base = os.path.splitext(csv_path)[0]
    with open(base + ".json", "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    with open(base + ".md", "w") as f:
        f.write("\n".join(md_lines) + "\n")


def fmt(x, spec=".3f"):
    return "n/a" if x is None else format(x, spec)
