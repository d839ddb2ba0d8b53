#!/usr/bin/env python3
"""AllGather+GEMM, bf16, tensor-parallel LLM shapes: C = all_gather(A) @ B
with A M x 8192 split by rows over the ranks and B 8192 x (28672 / world) on
every rank (an FFN up-projection), M (tokens) in {4096, 8192, 16384}:

    torchrun --standalone --nproc-per-node 4 bench/dist_ag_gemm.py --csv bench/results/dist_ag_gemm_w4.csv

Providers: ``tle`` (tle.distributed.all_gather_matmul: the shards land by
copy engine with a flag each, TLE's GEMM takes tiles as their shard lands),
``torch`` (NCCL all_gather_into_tensor, then torch.matmul / cuBLAS, in
sequence), ``symm`` (torch.ops.symm_mem.fused_all_gather_matmul), ``triton``
(NCCL all-gather, then the same Triton GEMM as tle's without communication).
Beside each row: the parts alone (NCCL all-gather, cuBLAS GEMM, TLE's GEMM)
and the overlap limit (t_comm + t_gemm) / max(t_comm, t_gemm): the most
any overlap can gain over the two in sequence.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _dist_harness as H  # noqa: E402

TOKENS, HIDDEN, FFN, PROVIDERS = H.GEMM_TOKENS, H.HIDDEN, H.FFN, H.GEMM_PROVIDERS


def smoke_kernels():
    """TLE's AllGather+GEMM kernel for 2, 4 and 8 GPUs and the GEMM alone (CI: PTX on the CPU)."""
    import tle
    from tle.distributed import ARGS_SIGNATURE, _gemm_kernels as k
    cfg, tiles, desc = H.gemm_smoke_config()
    opts = {"num_warps": cfg["num_warps"], "num_stages": cfg["num_stages"]}
    sig = {"AG": desc["A"], "B": desc["B"], "OUT": desc["C"], "READY": "*u32", "C": ARGS_SIGNATURE, "M_SHARD": "i32",
           "N": "i32", "K": "i32"}
    # TMA loads and stores, the flag's acquire spin, wgmma.
    expect = ["wgmma.mma_async", "cp.async.bulk.tensor.2d", "ld.acquire.sys.global.b32"]
    out = [{"name": f"ag_gemm-w{w}", "kernel": k.ag_gemm_kernel, "signature": sig,
            "constexprs": dict(tiles, MESH=tle.device_mesh({"device": w}), D=w, ASYNC_STORE=cfg["async_store"]),
            "attrs": {(3,): [["tt.divisibility", 16]]}, "options": opts, "tle": True,
            # async_store: the tiles leave by asynchronous TMA stores from the kernel's buffers, waited a tile later.
            "expect": expect + (["cp.async.bulk.commit_group", "cp.async.bulk.wait_group.read"]
                                if cfg["async_store"] else [])} for w in (2, 4, 8)]
    # The other epilogue: Triton's synchronous descriptor stores.
    out.append({"name": "ag_gemm-w2-sync-store", "kernel": k.ag_gemm_kernel, "signature": sig,
                "constexprs": dict(tiles, MESH=tle.device_mesh({"device": 2}), D=2, ASYNC_STORE=not cfg["async_store"]),
                "attrs": {(3,): [["tt.divisibility", 16]]}, "options": opts, "tle": True, "expect": expect})
    out.append({"name": "gemm", "kernel": k.gemm_kernel,
                "signature": {"A": desc["A"], "B": desc["B"], "OUT": desc["C"], "M": "i32", "N": "i32", "K": "i32"},
                "constexprs": tiles, "options": opts, "tle": False,
                "expect": ["wgmma.mma_async", "cp.async.bulk.tensor.2d"]})
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    p = H.parser("dist_ag_gemm", __doc__)
    p.add_argument("--tokens", default=",".join(map(str, TOKENS)))
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
    k, n = HIDDEN, FFN // world
    mesh = tle.device_mesh({"device": world})
    max_shard = max(tokens) // world
    ctx = tle.device_context.from_group(mesh, arena_bytes=td.AllGatherMatmul.arena_bytes(world, max_shard, k, dtype))
    op = td.AllGatherMatmul(ctx, max_shard, k, dtype)
    group_name = H.symm_group_name()
    gen = torch.Generator(device="cuda")
    rows, meta = [], H.metadata("dist_ag_gemm", world, args.seed, argv)
    for m in tokens:
        gen.manual_seed(args.seed * 1000003 + rank * 7919 + m)
        a = (torch.randn(m // world, k, generator=gen, device="cuda") / 16).to(dtype)
        gen.manual_seed(args.seed * 1000003 + rank * 31 + m + 1)  # each rank's own columns of the weight
        b = (torch.randn(k, n, generator=gen, device="cuda") / 16).to(dtype)
        full = torch.empty(m, k, dtype=dtype, device="cuda")
        dist.all_gather_into_tensor(full, a)
        want = full @ b
        out = torch.empty(m, n, dtype=dtype, device="cuda")
        gathered = torch.empty_like(full)

        def nccl_cublas():
            dist.all_gather_into_tensor(gathered, a)
            return torch.matmul(gathered, b, out=out)

        def nccl_triton():
            dist.all_gather_into_tensor(gathered, a)
            return td.matmul(gathered, b, out=out)

        def symm():
            return torch.ops.symm_mem.fused_all_gather_matmul(a, [b], gather_dim=0, group_name=group_name)[1][0]

        all_fns = {"tle": lambda: op(a, b, out=out), "torch": nccl_cublas, "symm": symm, "triton": nccl_triton}
        fns = {p_: all_fns[p_] for p_ in providers}
        H.check_gemm(fns, want, out, rank)
        if args.check:
            continue
        parts = {"comm": lambda: dist.all_gather_into_tensor(gathered, a),
                 "gemm_cublas": lambda: torch.matmul(full, b, out=out),
                 "gemm_tle": lambda: td.matmul(full, b, out=out)}
        rows += H.gemm_rows(world, m, n, k, fns, parts, args, rank, "all-gather")
    if rank == 0 and not args.check:
        title = (f"{world} x {meta['device']}, bf16, K {k}, N {n} per rank "
                 "(times in ms, slowest rank, CUDA graphs):")
        md = H.gemm_table(rows, tokens, title, "NCCL + cuBLAS", "all-gather")
        H.write(rows, H.GEMM_COLS, meta, args.csv, md)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
