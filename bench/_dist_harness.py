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
    p.add_argument("--config", default=None,
                   help='JSON overriding the fused GEMMs\' tiling (tle.distributed._gemm.CONFIG), e.g. \'{"num_stages": 4}\'')
    return p


def apply_config(args) -> None:
    """``--config``: merge it into ``tle.distributed._gemm.CONFIG`` (read when an op is made)."""
    if args.config:
        import json
        from tle.distributed import _gemm
        _gemm.CONFIG.update(json.loads(args.config))


def init():
    import torch
    import torch.distributed as dist
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", rank)))
    return rank, dist.get_world_size()


def _replays(run, iters, reps):
    """Per call, ms: ``run()`` (``iters`` calls) ``reps`` times, each after a
    ``dist.barrier`` (so every rank starts together), timed with events."""
    import torch
    import torch.distributed as dist
    out = []
    for _ in range(reps):
        dist.barrier()
        torch.cuda.synchronize()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        run()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / iters)
    return out


def _graph_time(fn, iters, reps):
    """``iters`` calls of ``fn`` captured in one CUDA graph (after two warm-up
    calls on a side stream, as capture requires), replayed."""
    import torch
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
    try:
        return _replays(g.replay, iters, reps)
    finally:
        del g


def _eager_time(fn, iters, reps):
    for _ in range(2):
        fn()

    def run():
        for _ in range(iters):
            fn()

    return _replays(run, iters, reps)


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
    if rank == 0:
        print(f"checked, ok: {', '.join(names)}", flush=True)


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


# --- the fused-GEMM benchmarks (dist_ag_gemm.py, dist_gemm_rs.py) -------------------------------------------------

GEMM_COLS = ["world", "M", "N", "K", "provider", "ms", "note", "vs_torch", "vs_symm", "tflops", "t_comm_ms",
             "t_gemm_cublas_ms", "t_gemm_tle_ms", "overlap_limit"]
# The tensor-parallel shapes: M tokens, hidden 8192, FFN 28672 split over the ranks.
GEMM_TOKENS = (4096, 8192, 16384)
HIDDEN, FFN = 8192, 28672
GEMM_PROVIDERS = ("tle", "torch", "symm", "triton")


def gemm_smoke_config():
    """For the benchmarks' ``smoke_kernels``: TLE's fused-GEMM config
    (``_gemm.CONFIG``), the tiles as constexprs (NUM_SMS: an H100's 132),
    and the TMA descriptor types of A, B and the output (C: BM x BN, or
    BM x BN / 2 with SPLIT)."""
    from tle.distributed import _gemm
    cfg = _gemm.CONFIG
    bm, bn, bk = cfg["BM"], cfg["BN"], cfg["BK"]
    tiles = dict({key: cfg[key] for key in ("BM", "BN", "BK", "GROUP_M", "SPLIT")}, NUM_SMS=132)
    desc = {"A": f"tensordesc<bf16[{bm},{bk}]>", "B": f"tensordesc<bf16[{bk},{bn}]>",
            "C": f"tensordesc<bf16[{bm},{bn // 2 if cfg['SPLIT'] else bn}]>"}
    return cfg, tiles, desc


def check_gemm(fns, want, out, rank):
    """Run every provider once on this shape's inputs and compare with ``want``."""
    import torch
    verdicts = {}
    for prov, fn in fns.items():
        out.zero_()
        got = fn()
        torch.cuda.synchronize()
        err = (got.float() - want.float()).abs().max().item()
        verdicts[prov] = None if err <= 5e-2 + 2e-2 * want.float().abs().max().item() else f"max |err| {err:.3g}"
    check_all(verdicts, rank)


def gemm_rows(world, m, n, k, fns, parts, args, rank, comm_label, extra_parts=()):
    """Time the providers and the parts alone (``comm``, ``gemm_cublas``,
    ``gemm_tle`` and any ``extra_parts``); the CSV rows of one shape."""
    times, how = time_providers(fns, args)
    alone, _ = time_providers(parts, args)
    flops = 2.0 * m * n * k
    limit = (alone["comm"] + alone["gemm_cublas"]) / max(alone["comm"], alone["gemm_cublas"])
    rows = []
    for prov, t in times.items():
        rows.append({"world": world, "M": m, "N": n, "K": k, "provider": prov, "ms": t, "note": how[prov],
                     "vs_torch": times.get("torch", 0) / t, "vs_symm": times.get("symm", 0) / t,
                     "tflops": flops / t / 1e9, "t_comm_ms": alone["comm"], "t_gemm_cublas_ms": alone["gemm_cublas"],
                     "t_gemm_tle_ms": alone["gemm_tle"], "overlap_limit": limit})
    if rank == 0:
        extra = "".join(f", {label} {alone[key]:.3f} ms" for key, label in extra_parts)
        print(f"M={m}: " + ", ".join(f"{p} {t:.3f} ms" for p, t in times.items()) +
              f" | alone: {comm_label} {alone['comm']:.3f}, cuBLAS {alone['gemm_cublas']:.3f}, "
              f"TLE GEMM {alone['gemm_tle']:.3f} ms{extra}; overlap limit {limit:.2f}x", flush=True)
    return rows


def gemm_table(rows, tokens, title, baseline, comm_label):
    """The markdown table of a fused-GEMM benchmark (one row per M)."""
    md = [title + "\n",
          f"| M | tle | {baseline} | symm fused | Triton GEMM + NCCL | **tle vs {baseline}** | tle vs symm | "
          f"overlap limit | tle TFLOP/s/GPU | {comm_label} alone | cuBLAS alone | TLE GEMM alone (vs cuBLAS) |",
          "|" + "---:|" * 12]
    for m in tokens:
        r = {x["provider"]: x for x in rows if x["M"] == m}
        t = r["tle"]
        md.append(f"| {m} | {fmt(t['ms'])} | {fmt(r.get('torch', {}).get('ms'))} | "
                  f"{fmt(r.get('symm', {}).get('ms'))} | {fmt(r.get('triton', {}).get('ms'))} | "
                  f"**{fmt(t['vs_torch'], '.2f')}×** | {fmt(t['vs_symm'], '.2f')}× | "
                  f"{fmt(t['overlap_limit'], '.2f')}× | {fmt(t['tflops'], '.0f')} | "
                  f"{fmt(t['t_comm_ms'])} | {fmt(t['t_gemm_cublas_ms'])} | {fmt(t['t_gemm_tle_ms'])} "
                  f"({fmt(t['t_gemm_cublas_ms'] / t['t_gemm_tle_ms'], '.2f')}×) |")
    return md


def symm_group_name():
    """The world group's name for torch's symmetric-memory ops (enabled for
    them on torch versions that still ask for it)."""
    import torch.distributed as dist
    import torch.distributed._symmetric_memory as symm_mem
    name = dist.group.WORLD.group_name
    if hasattr(symm_mem, "enable_symm_mem_for_group"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            symm_mem.enable_symm_mem_for_group(name)
    return name
