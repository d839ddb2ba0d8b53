"""The multi-GPU correctness suite, one process per GPU under torchrun:

    torchrun --nproc-per-node 4 python/test/dist_worker.py [case ...]

Every device-level feature against torch.distributed's NCCL collectives:
reshards (all-gather, all-reduce, reduce-scatter) over 1-D and 2-D device
meshes, distributed_dot with each sharding it accepts, device-space remote
loads, stores and atomics, device barriers, tle.shard_id over device axes,
tle.distributed.all_reduce (one-shot, two-shot, NCCL), and misuse caught
before launch. The context comes from tle.device_context.from_group (torch's
symmetric memory; TLE_SYMM_BACKEND=NVSHMEM selects that backend). Prints one
line per case; exits 1 if any case failed on any rank. Run by
test_distributed_torchrun.py; the case "timeout" (debug mode) runs alone.
"""

import os
import sys
import traceback

for _k, _v in {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}.items():
    os.environ[_k] = _v

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tle  # noqa: E402
import tle.distributed as tdist  # noqa: E402
from tle.distributed._allreduce import nvlink_connected  # noqa: E402
import dist_device_kernels as K  # noqa: E402

RANK = WORLD = 0
BACKEND = os.environ.get("TLE_SYMM_BACKEND") or None  # torch's symmetric-memory backend (None: torch's choice)
DEV = None
CASES = {}
# Cases run only when named (none at present).
OPT_IN = set()


def case(fn):
    CASES[fn.__name__[len("case_"):]] = fn
    return fn


def mesh1():
    return tle.device_mesh({"device": WORLD})


def mesh2():
    """A 2-D device mesh: 2 x (WORLD / 2), or WORLD x 1."""
    a = 2 if WORLD % 2 == 0 and WORLD > 2 else WORLD
    return tle.device_mesh({"device": [("a", a), ("b", WORLD // a)]})


_contexts = {}


def context(mesh, numel=1 << 16, dtype=torch.float32, arena=1 << 20):
    key = (repr(mesh), str(dtype))
    if key not in _contexts:
        _contexts[key] = tle.device_context.from_group(mesh, workspace_numel=numel, dtype=dtype, arena_bytes=arena,
                                                       backend=BACKEND)
    return _contexts[key]


def gathered(x):
    out = torch.empty(WORLD * x.numel(), dtype=x.dtype, device=DEV)
    dist.all_gather_into_tensor(out, x.contiguous().view(-1))
    return out


def same_random(*shape, dtype=torch.float32, seed=0):
    g = torch.Generator(device="cpu").manual_seed(seed)
    if dtype in (torch.int32, torch.int64):
        return torch.randint(-1000, 1000, shape, generator=g, dtype=dtype).to(DEV)
    return torch.randn(*shape, generator=g).to(dtype).to(DEV)


def mine_random(*shape, dtype=torch.float32, seed=0):
    return same_random(*shape, dtype=dtype, seed=seed * 1000 + RANK + 1)


def close(got, want, what, dtype=torch.float32):
    tol = {torch.float32: 1e-5, torch.bfloat16: 2e-2, torch.float16: 1e-2}.get(dtype, 0)
    if tol == 0:
        assert torch.equal(got, want), f"{what}: differs (max |diff| {(got - want).abs().max().item()})"
    else:
        torch.testing.assert_close(got.float(), want.float(), rtol=tol, atol=tol,
                                   msg=lambda m: f"{what}: {m}")


def launch_1d(ctx, programs, x, out_block, n, src, dst):
    out = torch.full((programs * out_block,), -7, dtype=x.dtype, device=DEV) if not x.dtype.is_floating_point else \
        torch.full((programs * out_block,), float("nan"), dtype=x.dtype, device=DEV)
    with tle.enabled():
        ctx.launch(K.reshard_1d, (programs,), x, out, ctx.args(), BLOCK=x.numel() // programs, OUT_BLOCK=out_block, N=n,
                   SRC=src, DST=dst, MESH=ctx.mesh)
    torch.cuda.synchronize()
    return out


@case
def case_all_gather_1d():
    for dtype in (torch.float32, torch.int32):
        mesh = mesh1()
        ctx = context(mesh, dtype=dtype)
        for programs in (1, 4):
            block = 256
            x = mine_random(programs, block, dtype=dtype)
            out = launch_1d(ctx, programs, x.view(-1), block * WORLD, block * WORLD,
                            tle.sharding(mesh, split=["device"]), tle.sharding(mesh, split=[tle.B]))
            for p in range(programs):
                want = gathered(x[p])
                close(out[p * block * WORLD:(p + 1) * block * WORLD], want, f"all-gather {dtype} program {p}",
                      torch.int32)


@case
def case_all_reduce_1d():
    for dtype in (torch.float32, torch.bfloat16):
        mesh = mesh1()
        ctx = context(mesh, dtype=dtype)
        for programs in (1, 3):
            n = 512
            x = mine_random(programs, n, dtype=dtype, seed=programs)
            out = launch_1d(ctx, programs, x.view(-1), n, n, tle.sharding(mesh, split=[tle.B], partial=["device"]),
                            tle.sharding(mesh, split=[tle.B]))
            want = x.float().clone()
            dist.all_reduce(want)
            close(out.view(programs, n), want.to(dtype), f"all-reduce {dtype}", dtype)
            # Every rank holds bitwise the same sums (fixed order).
            all_out = gathered(out)
            assert torch.equal(all_out.view(WORLD, -1)[0], all_out.view(WORLD, -1)[RANK]), "ranks disagree"


@case
def case_reduce_scatter_1d():
    for dtype in (torch.float32, torch.bfloat16):
        mesh = mesh1()
        ctx = context(mesh, dtype=dtype)
        n = 256 * WORLD
        x = mine_random(n, dtype=dtype, seed=5)
        out = launch_1d(ctx, 1, x, n // WORLD, n, tle.sharding(mesh, split=[tle.B], partial=["device"]),
                        tle.sharding(mesh, split=["device"]))
        want = torch.empty(n // WORLD, dtype=torch.float32, device=DEV)
        dist.reduce_scatter_tensor(want, x.float())
        close(out, want.to(dtype), f"reduce-scatter {dtype}", dtype)


@case
def case_epochs_reuse_flags():
    mesh = mesh1()
    ctx = context(mesh)
    for i in range(5):
        x = mine_random(2, 128, seed=10 + i)
        out = launch_1d(ctx, 2, x.view(-1), 128, 128, tle.sharding(mesh, split=[tle.B], partial=["device"]),
                        tle.sharding(mesh, split=[tle.B]))
        want = x.clone()
        dist.all_reduce(want)
        close(out.view(2, 128), want, f"all-reduce, launch {i} (epoch {ctx.epoch})")


@case
def case_2d_mesh():
    mesh = mesh2()
    (a, na), (b, nb) = zip(mesh.axis_names, mesh.shape)
    ctx = context(mesh)
    m, n = 32 * na, 32 * nb
    full = same_random(m, n, seed=21)
    coords = ctx.coords()
    bi, bj = coords["a"], coords["b"]
    block = full[bi * 32:(bi + 1) * 32, bj * 32:(bj + 1) * 32].contiguous()
    cases = [
        ("gather both axes", tle.sharding(mesh, split=["a", "b"]), tle.sharding(mesh, split=[tle.B, tle.B]), full),
        ("gather axis a", tle.sharding(mesh, split=["a", "b"]), tle.sharding(mesh, split=[tle.B, "b"]),
         full[:, bj * 32:(bj + 1) * 32]),
    ]
    for what, src, dst, want in cases:
        out = torch.full(tuple(want.shape), float("nan"), device=DEV)
        with tle.enabled():
            ctx.launch(K.reshard_2d, (1,), block, out, ctx.args(), B0=32, B1=32, O0=want.shape[0], O1=want.shape[1],
                       M=m, N=n, SRC=src, DST=dst, MESH=mesh)
        torch.cuda.synchronize()
        close(out, want.contiguous(), f"2-D mesh {mesh!r}: {what}", torch.int32)
    # Partial sums over axis "b" only: all-reduce over b's sub-group (NCCL on ctx.axis_group("b")).
    part = mine_random(32, 32, seed=22)
    out = torch.full((32, 32), float("nan"), device=DEV)
    with tle.enabled():
        ctx.launch(K.reshard_2d, (1,), part, out, ctx.args(), B0=32, B1=32, O0=32, O1=32, M=32, N=32,
                   SRC=tle.sharding(mesh, split=[tle.B, tle.B], partial=["b"]),
                   DST=tle.sharding(mesh, split=[tle.B, tle.B]), MESH=mesh)
    torch.cuda.synchronize()
    want = part.clone()
    dist.all_reduce(want, group=ctx.axis_group("b"))
    close(out, want, f"2-D mesh {mesh!r}: all-reduce over axis b")
    ids = torch.full((2,), -1, dtype=torch.int32, device=DEV)
    with tle.enabled():
        K.shard_ids[(1,)](ids, ctx.args(), MESH=mesh, AX0="a", AX1="b")
    torch.cuda.synchronize()
    assert ids.tolist() == [bi, bj], f"tle.shard_id over device axes: {ids.tolist()} != {[bi, bj]}"


@case
def case_distributed_dot():
    mesh = mesh1()
    ctx = context(mesh, dtype=torch.float32)
    M = N = 32 * WORLD
    K_ = 32 * WORLD
    A = same_random(M, K_, seed=31).half()
    B = same_random(K_, N, seed=32).half()
    want = (A.float() @ B.float())
    blk = 32
    r = RANK
    S, B_ = (lambda *d: tle.sharding(mesh, split=list(d))), tle.B
    variants = [
        # name, A layout, B layout, A block, B block, out sharding, expected block
        ("K split -> all-reduce", S(B_, "device"), S("device", B_), A[:, r * blk:(r + 1) * blk],
         B[r * blk:(r + 1) * blk, :], None, want),
        ("K split -> reduce-scatter", S(B_, "device"), S("device", B_), A[:, r * blk:(r + 1) * blk],
         B[r * blk:(r + 1) * blk, :], S("device", B_), want[r * blk:(r + 1) * blk, :]),
        ("M and N split -> gather B", S("device", B_), S(B_, "device"), A[r * blk:(r + 1) * blk, :],
         B[:, r * blk:(r + 1) * blk], None, want[r * blk:(r + 1) * blk, :]),
        ("K split in A only -> gather A's K", S(B_, "device"), S(B_, B_), A[:, r * blk:(r + 1) * blk], B, None, want),
    ]
    for name, a_s, b_s, a, b, out_s, exp in variants:
        a, b = a.contiguous(), b.contiguous()
        out = torch.full(tuple(exp.shape), float("nan"), device=DEV)
        with tle.enabled():
            ctx.launch(K.dot_blocks, (1,), a, b, out, ctx.args(), AM=a.shape[0], AK=a.shape[1], BK=b.shape[0],
                       BN=b.shape[1], OM=exp.shape[0], ON=exp.shape[1], M=M, N=N, K=K_, A_S=a_s, B_S=b_s, OUT_S=out_s,
                       MESH=mesh)
        torch.cuda.synchronize()
        torch.testing.assert_close(out, exp.contiguous(), rtol=1e-2, atol=1e-2, msg=f"distributed_dot: {name}")


@case
def case_remote_load_store_atomic():
    mesh = mesh1()
    ctx = context(mesh)
    n = 256
    buf = ctx.empty(2 * n, dtype=torch.int32)
    count = ctx.empty(1, dtype=torch.int32)
    buf.zero_()
    count.zero_()
    torch.cuda.synchronize()
    dist.barrier()
    out = torch.full((2 * n + 1,), -1, dtype=torch.int32, device=DEV)
    with tle.enabled():
        ctx.launch(K.remote_ring, (1,), buf, out, count, ctx.args(), N=n, D=WORLD, MESH=mesh, symmetric=(0, 2))
    torch.cuda.synchronize()
    prev, prev2 = (RANK - 1) % WORLD, (RANK - 2) % WORLD
    idx = torch.arange(n, dtype=torch.int32, device=DEV)
    # My buffer holds what the previous device stored; the previous device's holds what the one before it stored.
    assert torch.equal(out[n:2 * n], prev * 1000 + idx), "remote store: own buffer"
    assert torch.equal(out[:n], prev2 * 1000 + idx), "remote load: the previous device's buffer"
    assert out[2 * n].item() == WORLD, f"remote atomics: device 0's count is {out[2 * n].item()}, not {WORLD}"
    # The host view of a peer's copy agrees.
    assert torch.equal(ctx.peer(buf, (RANK + 1) % WORLD)[:n], RANK * 1000 + idx), "ctx.peer view"


@case
def case_barrier_rounds():
    mesh = mesh1()
    ctx = context(mesh)
    programs, rounds = 8, 20
    buf = ctx.empty(programs, dtype=torch.int32)
    out = torch.full((programs * rounds,), -1, dtype=torch.int32, device=DEV)
    for launch in range(3):
        with tle.enabled():
            ctx.launch(K.barrier_rounds, (programs,), buf, out, ctx.args(), ROUNDS=rounds, D=WORLD, MESH=mesh)
        torch.cuda.synchronize()
        want = torch.arange(rounds, device=DEV, dtype=torch.int32) * 100 + (RANK - 1) % WORLD
        assert torch.equal(out.view(programs, rounds), want.expand(programs, rounds)), f"barrier rounds, launch {launch}"


@case
def case_all_reduce_api():
    mesh = mesh1()
    numel = 1 << 20
    ctx = tle.device_context.from_group(mesh, arena_bytes=2 * tdist.AllReduce.arena_bytes(numel, torch.bfloat16) + 4096,
                                        backend=BACKEND)
    default = tdist.AllReduce(ctx, numel, torch.bfloat16)
    # The LL128 kernels are the default on NVLink-connected GPUs (AllReduce's ll128).
    assert default.use_ll128 == (WORLD > 1 and nvlink_connected(DEV)), default.use_ll128
    if default.use_ll128:
        assert default.method(torch.empty(1024, dtype=torch.bfloat16, device=DEV)) == "one_shot_ll128"
    # The other algorithms' size rule, with the LL128 kernels left to method=.
    ar = tdist.AllReduce(ctx, numel, torch.bfloat16, ll128=False)
    methods = ("one_shot_ll", "one_shot", "two_shot", "nccl")

    def takes(method, n):
        if method == "two_shot":
            return not (n % (1024 * WORLD) or WORLD & (WORLD - 1))
        return method != "one_shot_ll" or ar._ll_fits(2 * n)

    # 999: odd (no low-latency or two-shot path)
    _check_sizes(ar, (999, 1000, 2048, 65536, numel // 2, numel), methods, takes)
    # In place (out=x), as NCCL's all-reduce: every method.
    for method in methods:
        n = 65536
        if not takes(method, n):
            continue
        x = mine_random(n, dtype=torch.bfloat16, seed=90)
        want = x.float()
        dist.all_reduce(want)
        got = ar(x, out=x, method=method)
        torch.cuda.synchronize()
        assert got.data_ptr() == x.data_ptr()
        close(x, want.to(torch.bfloat16), f"all_reduce {method} in place", torch.bfloat16)
    # The low-latency one-shot: sizes up and down (a word of an older, larger launch must not pass for this one's),
    # each dtype, and the same bits on every rank (the sum in rank order everywhere).
    for dtype in (torch.bfloat16, torch.float16, torch.float32):
        ll = ar if dtype == torch.bfloat16 else tdist.AllReduce(
            tle.device_context.from_group(mesh, arena_bytes=tdist.AllReduce.arena_bytes(1 << 16, dtype) + 4096,
                                          backend=BACKEND), 1 << 16, dtype, ll128=False)
        for it, n in enumerate((1 << 16, 6, 40000, 2, 1 << 16, 1 << 10, 30000, 1 << 16)):
            x = mine_random(n, dtype=dtype, seed=300 + it)
            # The size rule: the LL one-shot up to ll_max_bytes (256 KiB on 2 GPUs, 64 KiB on more).
            chosen = ll.method(x)
            assert (chosen == "one_shot_ll") == (x.numel() * x.element_size() <= ll.ll_max_bytes), \
                (n, dtype, chosen, ll.ll_max_bytes)
            got = ll(x, method="one_shot_ll")
            want = x.float()
            dist.all_reduce(want)
            torch.cuda.synchronize()
            close(got, want.to(dtype), f"all_reduce one_shot_ll {dtype} n={n} it={it}", dtype)
            every = [torch.empty_like(got) for _ in range(WORLD)]
            dist.all_gather(every, got)
            assert all(torch.equal(e.view(torch.uint8), got.view(torch.uint8)) for e in every), \
                f"one_shot_ll {dtype} n={n}: ranks got different bits"
    try:
        ar(mine_random(1 << 20, dtype=torch.bfloat16, seed=8), method="one_shot_ll128")
        raise AssertionError("one_shot_ll128 took 2 MiB")
    except tle.TLEUsageError as e:
        assert "LL128 one-shot takes" in str(e), e
    odd = mine_random(3, dtype=torch.bfloat16, seed=7)  # 6 bytes: not whole 32-bit words
    assert ar.method(odd) == "one_shot"
    try:
        ar(odd, method="one_shot_ll")
        raise AssertionError("one_shot_ll took 6 bytes")
    except tle.TLEUsageError as e:
        assert "32-bit words" in str(e), e
    # In a CUDA graph: no host epoch, replays stay correct.
    _graph_replays(ar, ("one_shot", "one_shot_ll"))


def _check_sizes(ar, sizes, methods, takes):
    """Each method on each size it takes (``takes(method, n)``), three calls
    (the staging halves alternate), against NCCL; NCCL's own path must leave
    x as it was."""
    for n in sizes:
        for method in methods:
            if not takes(method, n):
                continue
            for it in range(3):
                x = mine_random(n, dtype=torch.bfloat16, seed=40 + it)
                got = ar(x, method=method)
                if method == "nccl" and it == 0:
                    assert torch.equal(x, mine_random(n, dtype=torch.bfloat16, seed=40)), "NCCL's path changed x"
                want = x.float()
                dist.all_reduce(want)
                torch.cuda.synchronize()
                close(got, want.to(torch.bfloat16), f"all_reduce {method} n={n} it={it}", torch.bfloat16)


def _graph_replays(ar, methods):
    for method in methods:
        x = mine_random(4096, dtype=torch.bfloat16, seed=50)
        static_out = torch.empty_like(x)
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            ar(x, out=static_out, method=method)
        torch.cuda.current_stream().wait_stream(s)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            ar(x, out=static_out, method=method)
        for it in range(4):
            x.copy_(mine_random(4096, dtype=torch.bfloat16, seed=60 + it))
            dist.barrier()
            g.replay()
            torch.cuda.synchronize()
            want = x.float()
            dist.all_reduce(want)
            close(static_out, want.to(torch.bfloat16), f"all_reduce {method} in a CUDA graph, replay {it}",
                  torch.bfloat16)


@case
def case_all_reduce_ll128():
    """The LL128 kernels (AllReduce(ll128=True); the default on
    NVLink-connected GPUs): every size they take, back-to-back launches of
    both with sizes up and down and no synchronization between them, CUDA
    graph replays; every rank gets the same bits. Before lines carried a
    check word, a 2 x H200 machine failed this case in 9 of 10 runs (a
    line's flag seen beside the data of the launch two before); with it,
    5 of 5 runs passed on 2 x H200 and 3 of 3 on 4."""
    mesh = mesh1()
    numel = 1 << 20
    ctx = tle.device_context.from_group(mesh, arena_bytes=tdist.AllReduce.arena_bytes(numel, torch.bfloat16) + 4096,
                                        backend=BACKEND)
    ar = tdist.AllReduce(ctx, numel, torch.bfloat16, ll128=True)
    _check_sizes(ar, (1000, 2048, 65536, numel // 2), ("one_shot_ll128", "two_shot_ll128"),
                 lambda method, n: ar._ll128_fits(2 * n, method == "two_shot_ll128"))
    # The LL128 kernels share their area and launch counter: one-shot and two-shot launches back to back, sizes up
    # and down (a line of an older, larger launch must not pass for this one's), no synchronization between them;
    # every rank gets the same bits.
    pushed = [("one_shot_ll128", 1 << 16), ("one_shot_ll128", 6), ("one_shot_ll128", 40000), ("one_shot_ll128", 2),
              ("one_shot_ll128", 1 << 19), ("one_shot_ll128", 1 << 10), ("one_shot_ll128", 30000),
              ("two_shot_ll128", 1 << 20), ("two_shot_ll128", 6), ("one_shot_ll128", 1 << 18),
              ("two_shot_ll128", 77778), ("two_shot_ll128", 1 << 16), ("one_shot_ll128", 1 << 16),
              ("two_shot_ll128", 1000)]
    pushed = pushed * 4  # four rounds: a torn line (a flag seen beside older data) is a matter of timing
    xs = [mine_random(n, dtype=torch.bfloat16, seed=500 + i) for i, (_, n) in enumerate(pushed)]
    gots = []
    for (method, n), x in zip(pushed, xs):
        gots.append(ar(x, method=method))
    torch.cuda.synchronize()
    for (method, n), x, got in zip(pushed, xs, gots):
        want = x.float()
        dist.all_reduce(want)
        close(got, want.to(torch.bfloat16), f"all_reduce {method} n={n} back to back", torch.bfloat16)
        every = [torch.empty_like(got) for _ in range(WORLD)]
        dist.all_gather(every, got)
        assert all(torch.equal(e.view(torch.uint8), got.view(torch.uint8)) for e in every), \
            f"{method} n={n}: ranks got different bits"
    _graph_replays(ar, ("one_shot_ll128", "two_shot_ll128"))


@case
def case_all_gather_matmul():
    # The second shape has more tiles than the GPU has SMs: each persistent program takes several, across shards.
    for m_shard, k, n in ((256, 512, 512), (1024, 512, 4096)):
        mesh = mesh1()
        ctx = tle.device_context.from_group(
            mesh, arena_bytes=tdist.AllGatherMatmul.arena_bytes(WORLD, m_shard, k, torch.bfloat16),
            backend=BACKEND)
        op = tdist.AllGatherMatmul(ctx, m_shard, k, torch.bfloat16)
        for it in range(3):
            a = mine_random(m_shard, k, dtype=torch.bfloat16, seed=70 + it) / 8
            b = mine_random(k, n, dtype=torch.bfloat16, seed=80 + it) / 8
            got = op(a, b)
            full = torch.empty(WORLD * m_shard, k, dtype=torch.bfloat16, device=DEV)
            dist.all_gather_into_tensor(full, a)
            want = full.float() @ b.float()
            torch.cuda.synchronize()
            torch.testing.assert_close(got.float(), want, rtol=2e-2, atol=2e-2,
                                       msg=f"all_gather_matmul {m_shard}x{k}x{n}, call {it}")


@case
def case_matmul_reduce_scatter():
    for rows, k, n in ((256, 512, 512), (1024, 512, 4096)):  # the second: more tiles than SMs
        mesh = mesh1()
        m = rows * WORLD
        ctx = tle.device_context.from_group(
            mesh, arena_bytes=tdist.MatmulReduceScatter.arena_bytes(WORLD, m, n, torch.bfloat16),
            backend=BACKEND)
        op = tdist.MatmulReduceScatter(ctx, m, n, torch.bfloat16)
        for it in range(3):
            a = mine_random(m, k, dtype=torch.bfloat16, seed=90 + it) / 8
            b = mine_random(k, n, dtype=torch.bfloat16, seed=95 + it) / 8
            got = op(a, b)
            part = (a.float() @ b.float())
            want = torch.empty(m // WORLD, n, dtype=torch.float32, device=DEV)
            dist.reduce_scatter_tensor(want, part)
            torch.cuda.synchronize()
            torch.testing.assert_close(got.float(), want, rtol=3e-2, atol=3e-2,
                                       msg=f"matmul_reduce_scatter {m}x{k}x{n}, call {it}")
        # Back to back, no host synchronization between calls: each call's senders wait for the last call's
        # receivers to free the slots (a race there hung the benchmark but not the three synchronized calls
        # above). Two inputs in turn, so a slot read before its tile arrived (a flag left up at rest) gives the
        # other input's sum, not a right one.
        pairs = [(mine_random(m, k, dtype=torch.bfloat16, seed=99 + j) / 8,
                  mine_random(k, n, dtype=torch.bfloat16, seed=80 + j) / 8) for j in range(2)]
        wants = []
        for a, b in pairs:
            wants.append(torch.empty(m // WORLD, n, dtype=torch.float32, device=DEV))
            dist.reduce_scatter_tensor(wants[-1], a.float() @ b.float())
        torch.cuda.synchronize()
        outs = [op(*pairs[i % 2]) for i in range(32)]
        torch.cuda.synchronize()
        for i, got in enumerate(outs):
            torch.testing.assert_close(got.float(), wants[i % 2], rtol=3e-2, atol=3e-2,
                                       msg=f"matmul_reduce_scatter {m}x{k}x{n}, back-to-back call {i}")


@case
def case_bad_use():
    from tle import TLEUsageError
    mesh = mesh1()
    wrong = tle.device_mesh({"device": WORLD * 2})
    try:
        tle.device_context.from_group(wrong)
        raise AssertionError("a mesh of the wrong size was accepted")
    except TLEUsageError as e:
        assert "process group has" in str(e), str(e)
    ctx = context(mesh)
    plain = torch.zeros(16, dtype=torch.int32, device=DEV)
    try:
        ctx.launch(K.remote_ring, (1,), plain, plain, plain, ctx.args(), N=16, D=WORLD, MESH=mesh, symmetric=(0,))
        raise AssertionError("a non-symmetric buffer was accepted")
    except TLEUsageError as e:
        assert "not symmetric memory" in str(e), str(e)
    try:
        ctx.args(epoch=1)
        raise AssertionError("a reused epoch was accepted")
    except TLEUsageError as e:
        assert "already used" in str(e), str(e)
    checked = tle.device_context.from_group(mesh, workspace_numel=1024, check=True,
                                            backend=BACKEND)
    x = torch.zeros(256, device=DEV)
    out = torch.zeros(256 * WORLD, device=DEV)
    kernel_rounds = 1 if RANK == 0 else 2  # rank 0 launches another specialization
    try:
        with tle.enabled():
            checked.launch(K.barrier_rounds, (1,), x, out, checked.args(),
                           ROUNDS=kernel_rounds, D=WORLD, MESH=mesh)
        raise AssertionError("ranks launching different kernels were not caught")
    except TLEUsageError as e:
        assert "ranks do not launch the same kernel" in str(e), str(e)


def case_timeout():
    """Debug mode (TLE_DEVICE_WAIT_LIMIT): only rank 0 launches a device
    barrier; its wait must end in a device assertion, not a hang."""
    mesh = mesh1()
    ctx = context(mesh)
    if RANK == 0:
        try:
            with tle.enabled():
                K.lonely_barrier[(1,)](ctx.args(), MESH=mesh)
            torch.cuda.synchronize()
        except Exception as e:  # the device assertion surfaces as a CUDA error
            print(f"rank 0: timed out as it should: {type(e).__name__}: {str(e)[:200]}", flush=True)
            os._exit(0)
        print("rank 0: the lonely barrier returned", flush=True)
        os._exit(1)
    os._exit(0)


@case
def case_flagtree_device_path():
    """FlagTree's intra-node all-gather (tle.create_dist_tensor, a push
    kernel through tle.remote(ctx, ...), tle.signal, tle.signal_wait) on a
    buffer from tle.get_mem_pool(), against NCCL's all_gather_into_tensor;
    then ring steps whose signals add the round number."""
    m_per_rank, n = 64, 1000
    local = torch.randn((m_per_rank, n), dtype=torch.float16, device=DEV)
    with torch.cuda.use_mem_pool(tle.get_mem_pool()):
        ag = torch.empty((WORLD * m_per_rank, n), dtype=torch.float16, device=DEV)
    ag.fill_(-1)
    ctx = tle.create_dist_tensor(ag)
    golden = torch.empty_like(ag)
    dist.all_gather_into_tensor(golden, local)
    mesh = tle.device_mesh(tle.MeshConfig(device=WORLD))
    elems, block = m_per_rank * n, 1024
    torch.cuda.synchronize()
    dist.barrier()
    with tle.enabled():
        K.ft_all_gather_push[(WORLD, (elems + block - 1) // block)](local, ag, ctx, mesh, ELEM_PER_RANK=elems,
                                                                      BLOCK=block, num_warps=4)
        K.ft_all_gather_signal[(WORLD, )](ctx, mesh, SLOT=0, num_warps=4)
        K.ft_all_gather_wait[(1, )](ctx, WORLD - 1, SLOT=0, num_warps=1)
    torch.cuda.synchronize()
    close(ag, golden, "FlagTree all-gather", torch.int32)
    # Ring steps on a float32 buffer of its own context: round r adds x into
    # the next rank's buffer and signals r.
    n = 256
    with torch.cuda.use_mem_pool(tle.get_mem_pool()):
        acc = torch.zeros(n, dtype=torch.float32, device=DEV)
    ring = tle.create_dist_tensor(acc)
    x = torch.full((n, ), float(RANK + 1), device=DEV)
    with tle.enabled():
        for r in (1, 2, 3):
            K.ft_ring_add[(1, )](x, ring, mesh, W=WORLD, N=n, ROUND=r, num_warps=4)
    torch.cuda.synchronize()
    prev = (RANK - 1) % WORLD
    close(acc, torch.full_like(acc, 3.0 * (prev + 1)), "FlagTree ring signals", torch.float32)
    dist.barrier()


@case
def case_flagtree_comm_handles():
    """FlagTree's older runtime handles: tle.create_comm_tensor's (dev_comm,
    dev_mem) ints as kernel arguments, tle.my_pe, tle.remote(dev_mem, ...)
    and tle.distributed_barrier(comm_ptr=dev_comm, space="device") between
    rounds that rewrite the buffer; one compile serves every rank."""
    n, programs, rounds = 256, 8, 3
    with torch.cuda.use_mem_pool(tle.get_mem_pool()):
        buf = torch.zeros(programs * n, dtype=torch.float32, device=DEV)
    dev_comm, dev_mem = tle.create_comm_tensor(buf, max_programs=programs)
    out = torch.full((rounds, programs, n), -1.0, device=DEV)
    with tle.enabled():
        K.ft_comm_exchange[(programs, )](dev_comm, dev_mem, out, N=n, ROUNDS=rounds, num_warps=4)
    torch.cuda.synchronize()
    peer = (RANK + 1) % WORLD
    expected = torch.tensor([[peer * 1000 + p * 10 + r for p in range(programs)] for r in range(rounds)],
                            dtype=torch.float32, device=DEV)[:, :, None].expand(rounds, programs, n)
    close(out, expected, "FlagTree comm handles", torch.float32)
    # The barrier counters are back at zero: a second launch meets again.
    with tle.enabled():
        K.ft_comm_exchange[(programs, )](dev_comm, dev_mem, out, N=n, ROUNDS=rounds, num_warps=4)
    torch.cuda.synchronize()
    close(out, expected, "FlagTree comm handles, second launch", torch.float32)
    # FlagTree's newer form: the barrier on a tle.create_dist_tensor context.
    with torch.cuda.use_mem_pool(tle.get_mem_pool()):
        buf2 = torch.zeros(programs * n, dtype=torch.float32, device=DEV)
    ctx = tle.create_dist_tensor(buf2, max_programs=programs)
    mesh = tle.device_mesh(tle.MeshConfig(device=WORLD))
    out.fill_(-1.0)
    with tle.enabled():
        for _ in range(2):
            K.ft_ctx_barrier_exchange[(programs, )](out, ctx, mesh, N=n, ROUNDS=rounds, num_warps=4)
    torch.cuda.synchronize()
    close(out, expected, "FlagTree context barrier", torch.float32)
    dist.barrier()


def main():
    global RANK, WORLD, DEV
    dist.init_process_group("nccl")
    RANK, WORLD = dist.get_rank(), dist.get_world_size()
    DEV = torch.device("cuda", int(os.environ.get("LOCAL_RANK", RANK)))
    torch.cuda.set_device(DEV)
    names = sys.argv[1:] or [name for name in CASES if name not in OPT_IN]
    if names == ["timeout"]:
        case_timeout()
    failed = []
    for name in names:
        try:
            CASES[name]()
            ok = True
        except Exception:
            ok = False
            print(f"[rank {RANK}] {name} FAILED:\n{traceback.format_exc()}", flush=True)
        flags = torch.tensor([0 if ok else 1], device=DEV)
        dist.all_reduce(flags)
        if RANK == 0:
            print(f"{'PASS' if flags.item() == 0 else 'FAIL'} {name} (world {WORLD}, "
                  f"backend {BACKEND or 'CUDA'})", flush=True)
        if flags.item():
            failed.append(name)
    dist.barrier()
    dist.destroy_process_group()
    if RANK == 0:
        print(f"{len(names) - len(failed)} passed, {len(failed)} failed" + (f": {failed}" if failed else ""),
              flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
