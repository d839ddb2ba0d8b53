#!/usr/bin/env python3
"""GEMM+ReduceScatter, bf16, tensor-parallel LLM shapes: OUT =
reduce_scatter(A @ B) over rows, with A M x (28672 / world) and B
(28672 / world) x 8192 on every rank (an FFN down-projection), M (tokens) in
{4096, 8192, 16384}; rank r gets rows r * M / world ... of the sum:

    torchrun --standalone --nproc-per-node 4 bench/dist_gemm_rs.py --csv bench/results/dist_gemm_rs_w4.csv

Providers: ``tle`` (tle.distributed.matmul_reduce_scatter: a ring fused into
the GEMM's epilogue, one signal per tile), ``torch`` (torch.matmul /
cuBLAS, then NCCL reduce_scatter_tensor), ``symm``
(torch.ops.symm_mem.fused_matmul_reduce_scatter), ``triton`` (the same
Triton GEMM as tle's without communication, then NCCL). Beside each row: the
parts alone and the overlap limit (t_comm + t_gemm) / max(t_comm, t_gemm).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _dist_harness as H  # noqa: E402

TOKENS, HIDDEN, FFN, PROVIDERS = H.GEMM_TOKENS, H.HIDDEN, H.FFN, H.GEMM_PROVIDERS


def smoke_kernels():
    """TLE's GEMM+ReduceScatter kernel for 2, 4 and 8 GPUs (CI: PTX on the CPU)."""
    import tle
    from tle.distributed import ARGS_SIGNATURE, _gemm_kernels as k
    cfg, tiles, desc = H.gemm_smoke_config()
    sig = {"A": desc["A"], "B": desc["B"], "OUT": desc["C"], "RECV": desc["C"], "RECV_DOWN": desc["C"], "FLAGS": "*i32",
           "C": ARGS_SIGNATURE, "M": "i32", "N": "i32", "K": "i32"}
    aligned = {(i,): [["tt.divisibility", 16]] for i in (5, 7, 8, 9)}
    # TMA loads; the ring: local acquire polls of READY / FREE, the upstream partial sum read by TMA on an
    # mbarrier and handed back (READY taken back, FREE raised by thread 0), TMA stores into the downstream
    # device's slot completed before thread 0's release store of its READY.
    return [{"name": f"gemm_rs-w{w}", "kernel": k.gemm_rs_kernel, "signature": sig,
             "constexprs": dict(tiles, MESH=tle.device_mesh({"device": w}), D=w), "attrs": aligned,
             "options": {"num_warps": cfg["num_warps"], "num_stages": cfg["rs_num_stages"]}, "tle": True,
             "expect": ["wgmma.mma_async", "cp.async.bulk.tensor.2d", "ld.acquire.sys.global.b32",
                        "@p st.release.sys.global.b32", "@p st.global.b32", "mbarrier.try_wait.parity",
                        "cp.async.bulk.wait_group 0",
                        "cp.async.bulk.commit_group", "cp.async.bulk.wait_group.read"]} for w in (2, 4, 8)] + [
        # The debug mode (TLE_DEVICE_WAIT_LIMIT): the flag waits give up with a trap.
        {"name": "gemm_rs-w2-wait-limit", "kernel": k.gemm_rs_kernel, "signature": sig,
         "constexprs": dict(tiles, MESH=tle.device_mesh({"device": 2}), D=2, WAIT_LIMIT=1000), "attrs": aligned,
         "options": {"num_warps": cfg["num_warps"], "num_stages": cfg["rs_num_stages"]}, "tle": True,
         "expect": ["setp.lt.s32 p, c, 1000", "trap;"]}]


def profile(op, a, b, out, m, rank, world):
    """Per tile, the mean time between the kernel's %globaltimer marks (the
    main loop; the last tile's READY raise; the wait for this tile's
    upstream partial; reading it by TMA, handing the slot back and adding
    it; the FREE wait; issuing the stores), for the ring and its two
    ablations."""
    import torch
    import torch.distributed as dist
    names = ["main loop", "publish", "READY wait", "recv+FREE raise+add", "FREE wait", "store issue"]
    for comm in (True, "sends", False):
        prof = torch.zeros(op.sms * 64 * 8, dtype=torch.int64, device="cuda")
        for _ in range(3):
            prof.zero_()
            dist.barrier()
            op(a, b, out=out, comm=comm, prof=prof)
            torch.cuda.synchronize()
        p = prof.view(op.sms, 64, 8).cpu()
        used = p[:, :, 0] > 0
        t = p[:, :, :7].double()
        d = t[:, :, 1:] - t[:, :, :-1]
        # Marks 2..5 are only taken on some paths: a skipped mark reads 0 (its span is folded into the next one).
        spans = []
        for j in range(6):
            ok = used & (p[:, :, j] > 0) & (p[:, :, j + 1] > 0)
            spans.append(float(d[:, :, j][ok].mean()) / 1e3 if ok.any() else 0.0)
        total = float((p[:, :, 6] - p[:, :, 0]).double()[used].sum()) / op.sms / 1e3
        epilogue = float((p[:, :, 6] - p[:, :, 1]).double()[used].mean()) / 1e3
        span = float((p[:, :, 6].max() - p[:, :, 0][used].min())) / 1e3
        if rank == 0:
            print(f"PROFILE M={m} w{world} comm={comm}: kernel {span:.1f} us, per SM busy {total:.1f} us, "
                  f"tiles {int(used.sum())}; per tile us: epilogue {epilogue:.2f}, " +
                  ", ".join(f"{nm} {v:.2f}" for nm, v in zip(names, spans)), flush=True)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = H.parser("dist_gemm_rs", __doc__)
    p.add_argument("--tokens", default=",".join(map(str, TOKENS)))
    p.add_argument("--profile", action="store_true",
                   help="print where the fused kernel's time goes, per tile (%%globaltimer marks), nothing timed")
    args = p.parse_args(argv)
    rank, world = H.init()
    H.apply_config(args)
    import torch
    import torch.distributed as dist
    import tle
    import tle.distributed as td
    providers = args.providers.split(",") if args.providers else list(PROVIDERS)
    tokens = [int(t) for t in args.tokens.split(",")]
    dtype = torch.bfloat16
    k, n = FFN // world, HIDDEN
    mesh = tle.device_mesh({"device": world})
    arena = sum(td.MatmulReduceScatter.arena_bytes(world, m, n, dtype) + 4096 for m in tokens)
    ctx = tle.device_context.from_group(mesh, arena_bytes=arena)
    ops = {m: td.MatmulReduceScatter(ctx, m, n, dtype) for m in tokens}
    group_name = H.symm_group_name()
    gen = torch.Generator(device="cuda")
    rows, meta = [], H.metadata("dist_gemm_rs", world, args.seed, argv)
    for m in tokens:
        gen.manual_seed(args.seed * 1000003 + rank * 7919 + m)
        a = (torch.randn(m, k, generator=gen, device="cuda") / 16).to(dtype)
        b = (torch.randn(k, n, generator=gen, device="cuda") / 16).to(dtype)
        part = a @ b
        want = torch.empty(m // world, n, dtype=torch.float32, device="cuda")
        dist.reduce_scatter_tensor(want, part.float())
        out = torch.empty(m // world, n, dtype=dtype, device="cuda")
        prod = torch.empty(m, n, dtype=dtype, device="cuda")
        op = ops[m]

        def cublas_nccl():
            torch.matmul(a, b, out=prod)
            dist.reduce_scatter_tensor(out, prod)
            return out

        def triton_nccl():
            td.matmul(a, b, out=prod)
            dist.reduce_scatter_tensor(out, prod)
            return out

        def symm():
            return torch.ops.symm_mem.fused_matmul_reduce_scatter(a, b, "sum", scatter_dim=0, group_name=group_name)

        all_fns = {"tle": lambda: op(a, b, out=out), "torch": cublas_nccl, "symm": symm, "triton": triton_nccl}
        fns = {p_: all_fns[p_] for p_ in providers}
        H.check_gemm(fns, want, out, rank)
        if args.profile:
            profile(op, a, b, out, m, rank, world)
            continue
        if args.check:
            continue
        parts = {"comm": lambda: dist.reduce_scatter_tensor(out, prod),
                 "gemm_cublas": lambda: torch.matmul(a, b, out=prod),
                 "gemm_tle": lambda: td.matmul(a, b, out=prod),
                 "tle_no_ring": lambda: op(a, b, out=out, comm=False),
                 "tle_sends": lambda: op(a, b, out=out, comm="sends")}
        rows += H.gemm_rows(world, m, n, k, fns, parts, args, rank, "reduce-scatter",
                            extra_parts=[("tle_no_ring", "tle kernel without the ring"),
                                         ("tle_sends", "with its sends alone")])
    if rank == 0 and not args.check and not args.profile:
        title = (f"{world} x {meta['device']}, bf16, K {k} per rank, N {n} "
                 "(times in ms, slowest rank, CUDA graphs):")
        md = H.gemm_table(rows, tokens, title, "cuBLAS + NCCL", "reduce-scatter")
        H.write(rows, H.GEMM_COLS, meta, args.csv, md)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
