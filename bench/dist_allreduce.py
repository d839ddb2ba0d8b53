#!/usr/bin/env python3
"""All-reduce (sum, bf16) over the GPUs of one host, 4 KiB - 256 MiB:

    torchrun --standalone --nproc-per-node 4 bench/dist_allreduce.py --csv bench/results/dist_allreduce_w4.csv

Providers: ``tle`` (tle.distributed.all_reduce: low-latency one-shot,
one-shot, two-shot or NCCL by size; in place, ``out=x``, as NCCL's
all-reduce is), ``tle-out`` (the same out of place: NCCL's path then costs
a copy), ``tle-one-shot-ll``, ``tle-one-shot``
and ``tle-two-shot`` (each algorithm at every size it takes, out of place), ``torch`` (NCCL, dist.all_reduce), ``symm-one-shot`` and
``symm-two-shot`` (torch.ops.symm_mem.one_shot_all_reduce /
two_shot_all_reduce_, their input already in symmetric memory). TLE's
kernels copy the input into their staging memory themselves; torch's
symmetric-memory ops are given an input that already is there, which
favours them. See bench/_dist_harness.py for the timing.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _dist_harness as H  # noqa: E402

SIZES_KIB = (4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144)
PROVIDERS = ("tle", "tle-out", "tle-one-shot-ll128", "tle-two-shot-ll128", "tle-one-shot-ll", "tle-one-shot",
             "tle-two-shot", "torch", "symm-one-shot", "symm-two-shot")


def smoke_kernels():
    """The fused all-reduce kernels for 2, 4 and 8 GPUs (CI: PTX on the CPU)."""
    import tle
    from tle.distributed import ARGS_SIGNATURE, _allreduce_kernels as k
    sig = {"X": "*bf16", "Y": "*bf16", "STAGE": "*bf16", "COUNTER": "*i32", "C": ARGS_SIGNATURE, "N": "i32"}
    aligned = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 5)}  # as launched: N % 16 == 0
    out = []
    for world in (2, 4, 8):
        mesh = tle.device_mesh({"device": world})
        for name, kernel, block in (("one_shot", k.one_shot_all_reduce_kernel, 2048),
                                    ("two_shot", k.two_shot_all_reduce_kernel, 1024 * world)):
            out.append({"name": f"{name}-w{world}", "kernel": kernel, "signature": sig,
                        "constexprs": {"MESH": mesh, "D": world, "BLOCK": block}, "attrs": aligned,
                        "options": {"num_warps": 8 if block >= 4096 else 4}, "tle": True,
                        # device barrier: release adds to the peers, acquiring polls; 16-byte peer loads
                        "expect": ["atom.global.sys.release.add", "atom.global.sys.acquire.add", "ld.global.v4"]})
        # The LL128 kernels: 128-byte lines written by 8 lanes of 16-byte stores, polled volatile 16 bytes a lane.
        for name, kernel in (("one_shot_ll128", k.one_shot_ll128_all_reduce_kernel),
                             ("two_shot_ll128", k.two_shot_ll128_all_reduce_kernel)):
            out.append({"name": f"{name}-w{world}", "kernel": kernel,
                        "signature": {"X": "*i32", "Y": "*i32", "AREA": "*i32", "COUNTER": "*i32", "C": ARGS_SIGNATURE,
                                      "NW": "i32", "SLOT": "i32"},
                        "constexprs": {"MESH": mesh, "D": world, "BLOCK": 1024, "KIND": 1},
                        "attrs": {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 5, 6)},
                        "options": {"num_warps": 4}, "tle": True,
                        "expect": ["st.global.v4.b32", "ld.volatile.global.v4.b32"]})
        # The low-latency one-shot: 8-byte words (data and flag) pushed 16 bytes at a time, polled volatile.
        out.append({"name": f"one_shot_ll-w{world}", "kernel": k.one_shot_ll_all_reduce_kernel,
                    "signature": {"X": "*i32", "Y": "*i32", "LL": "*i64", "COUNTER": "*i32", "C": ARGS_SIGNATURE, "NW": "i32"},
                    "constexprs": {"MESH": mesh, "D": world, "BLOCK": 1024, "KIND": 1}, "attrs": aligned,
                    "options": {"num_warps": 4}, "tle": True,
                    "expect": ["st.global.v2.b64", "ld.volatile.global.v2.b64"]})
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = H.parser("dist_allreduce", __doc__)
    p.add_argument("--sizes-kib", default=",".join(map(str, SIZES_KIB)))
    p.add_argument("--ll-block", type=int, default=None,
                   help="the low-latency one-shot's words per program (AllReduce's ll_block; default: by size)")
    args = p.parse_args(argv)
    rank, world = H.init()
    import torch
    import torch.distributed as dist
    import torch.distributed._symmetric_memory as symm_mem
    import tle
    import tle.distributed as td
    sizes = [int(s) * 1024 for s in args.sizes_kib.split(",")]
    providers = args.providers.split(",") if args.providers else list(PROVIDERS)
    dtype = torch.bfloat16
    max_numel = max(sizes) // 2
    mesh = tle.device_mesh({"device": world})
    ctx = tle.device_context.from_group(mesh, arena_bytes=td.AllReduce.arena_bytes(max_numel, dtype, world) + 4096)
    ar = td.AllReduce(ctx, max_numel, dtype, ll_block=args.ll_block)
    group_name = H.symm_group_name()
    symm_buf = symm_mem.empty(max_numel, dtype=dtype, device="cuda")
    symm_mem.rendezvous(symm_buf, dist.group.WORLD)
    gen = torch.Generator(device="cuda")
    rows, md = [], []
    meta = H.metadata("dist_allreduce", world, args.seed, argv)
    for nbytes in sizes:
        n = nbytes // 2
        gen.manual_seed(args.seed * 1000003 + rank * 7919 + n)
        x = torch.randn(n, generator=gen, device="cuda", dtype=torch.float32).to(dtype)
        want = x.float()
        dist.all_reduce(want)
        sbuf = symm_buf[:n]
        out = torch.empty_like(x)
        nccl_buf = x.clone()
        tle_buf = x.clone()
        fns, skipped = {}, {}
        for prov in providers:
            if prov == "tle":
                fns[prov] = lambda: ar(tle_buf, out=tle_buf)
            elif prov == "tle-out":
                fns[prov] = lambda: ar(x, out=out)
            elif prov in ("tle-one-shot-ll", "tle-one-shot-ll128", "tle-one-shot", "tle-two-shot-ll128", "tle-two-shot"):
                method = prov[4:].replace("-", "_")
                if method == "two_shot" and ar._two_shot_block() and n % ar._two_shot_block():
                    skipped[prov] = "size not a multiple of the two-shot block"
                    continue
                if method.endswith("_ll128") and not ar._ll128_fits(nbytes, method == "two_shot_ll128"):
                    skipped[prov] = "larger than the LL128 area holds"
                    continue
                if method == "one_shot_ll" and not ar._ll_fits(nbytes):
                    skipped[prov] = "larger than the low-latency area holds"
                    continue
                fns[prov] = (lambda m: lambda: ar(x, out=out, method=m))(method)
            elif prov == "torch":
                fns[prov] = lambda: dist.all_reduce(nccl_buf)
            elif prov == "symm-one-shot":
                fns[prov] = lambda: torch.ops.symm_mem.one_shot_all_reduce(sbuf, "sum", group_name)
            elif prov == "symm-two-shot":
                fns[prov] = lambda: torch.ops.symm_mem.two_shot_all_reduce_(sbuf, "sum", group_name)
        # Check each provider once on fresh data.
        verdicts = {}
        for prov, fn in fns.items():
            nccl_buf.copy_(x)
            tle_buf.copy_(x)
            sbuf.copy_(x)
            torch.cuda.synchronize()
            dist.barrier()
            got = fn()
            if prov == "torch":
                got = nccl_buf
            elif prov == "symm-two-shot":
                got = sbuf
            elif prov == "tle":
                got = tle_buf
            elif prov.startswith("tle"):
                got = out
            torch.cuda.synchronize()
            err = (got.float() - want).abs().max().item()
            tol = 2e-2 * max(1.0, want.abs().max().item())
            verdicts[prov] = None if err <= tol else f"max |err| {err:.3g} > {tol:.3g}"
        H.check_all(verdicts, rank)
        if args.check:
            continue
        times, how = H.time_providers(fns, args)
        for prov in providers:
            row = {"world": world, "bytes": nbytes, "provider": prov, "ms": times.get(prov),
                   "note": skipped.get(prov) or how.get(prov, "")}
            if prov == "tle":
                row["note"] = f"{ar.method(x)}; {row['note']}"
            t = times.get(prov)
            row["vs_torch"] = times["torch"] / t if t and "torch" in times else None
            row["vs_symm"] = times["symm-one-shot"] / t if t and "symm-one-shot" in times else None
            rows.append(row)
        if rank == 0:
            print(f"{nbytes // 1024} KiB: " + ", ".join(f"{p} {times[p] * 1000:.1f} us" for p in times), flush=True)
    if rank == 0 and not args.check:
        cols = ["world", "bytes", "provider", "ms", "note", "vs_torch", "vs_symm"]
        head = ["size", *(f"{p} us" for p in providers), "tle chose", "tle vs NCCL", "tle vs symm one-shot"]
        md.append(f"{world} x {meta['device']}, bf16 sum (times in microseconds, slowest rank, CUDA graphs):\n")
        md.append("| " + " | ".join(head) + " |")
        md.append("|" + "---:|" * len(head))
        by = {(r["bytes"], r["provider"]): r for r in rows}
        for nbytes in sizes:
            cells = [f"{nbytes // 1024} KiB" if nbytes < 1 << 20 else f"{nbytes >> 20} MiB"]
            for prov in providers:
                t = by.get((nbytes, prov), {}).get("ms")
                cells.append(H.fmt(t * 1000 if t else None, ".1f"))
            tle_row = by.get((nbytes, "tle"), {})
            cells.append(tle_row.get("note", "").split(";")[0])
            cells.append(f"**{H.fmt(tle_row.get('vs_torch'), '.2f')}×**")
            cells.append(f"{H.fmt(tle_row.get('vs_symm'), '.2f')}×")
            md.append("| " + " | ".join(cells) + " |")
        H.write(rows, cols, meta, args.csv, md)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
