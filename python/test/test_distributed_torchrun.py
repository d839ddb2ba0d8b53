"""Multi-GPU TLE on torch.distributed (docs/distributed.md, "Running on
torch.distributed").

CPU: every device-level kernel of the torchrun suite (dist_device_kernels.py)
and the fused all-reduce kernels compile to PTX for world sizes 2, 4 and 8
with the instructions each needs; the host context's checks that need no GPU.
GPU: dist_worker.py under ``torchrun --nproc-per-node N`` for N = 2 and 4
(skips without N GPUs), against NCCL's collectives; the debug mode's bounded
wait; the NVSHMEM backend where torch's initializes.
"""

import os
import re
import subprocess
import sys

import pytest
import triton.language as tl  # noqa: F401

import tle
import dist_device_kernels as K
from conftest import REPO, has_gpu

WORLDS = (2, 4, 8)
CTX_SIG = tle.distributed.ARGS_SIGNATURE  # ctx.args(): rank, workspace, flags, offsets, epoch, signals
HERE = os.path.dirname(os.path.abspath(__file__))
RELEASE_ADD = r"(atom|red)\.global\.sys\.release\.add\.[us]32"
ACQUIRE_ADD = r"atom\.global\.sys\.acquire\.add\.[us]32"


def ptx(c):
    return c.asm["ptx"].split(".entry")[1]


def count(c, pattern):
    return len(re.findall(pattern, ptx(c)))


def build(kernel, signature, **constexprs):
    return tle.compile(kernel, signature=signature, constexprs=constexprs, target="sm_90")


def mesh(world):
    return tle.device_mesh({"device": world})


@pytest.mark.parametrize("world", WORLDS)
def test_reshard_kernels_compile_for_every_world_size(world):
    m = mesh(world)
    n = 128 * world
    sig = {"X": "*fp32", "OUT": "*fp32", "C": CTX_SIG}
    gather = build(K.reshard_1d, sig, BLOCK=128, OUT_BLOCK=n, N=n, SRC=tle.sharding(m, split=["device"]),
                   DST=tle.sharding(m, split=[tle.B]), MESH=m)
    reduce = build(K.reshard_1d, sig, BLOCK=n, OUT_BLOCK=n, N=n, SRC=tle.sharding(m, split=[tle.B], partial=["device"]),
                   DST=tle.sharding(m, split=[tle.B]), MESH=m)
    scatter = build(K.reshard_1d, sig, BLOCK=n, OUT_BLOCK=128, N=n,
                    SRC=tle.sharding(m, split=[tle.B], partial=["device"]), DST=tle.sharding(m, split=["device"]),
                    MESH=m)
    for c in (gather, reduce, scatter):
        # Two flag barriers (arrive, depart), each a release store to every device, acquires of every flag.
        assert count(c, r"st\.relaxed\.sys\.global\.b32") == 2 * world
        assert count(c, r"fence\.acq_rel\.sys") >= 2 * world
        assert count(c, r"ld\.acquire\.sys\.global\.b32") >= 2
    # One predicated peer load per device; the all-reduce adds world - 1 times (at least).
    assert count(gather, r"@%p\d+ ld\.global") >= world
    assert count(reduce, r"add\.f32|add\.rn\.f32") >= world - 1
    assert count(scatter, r"add\.f32|add\.rn\.f32") >= world - 1


@pytest.mark.parametrize("world", WORLDS)
def test_remote_and_barrier_kernels_compile(world):
    m = mesh(world)
    ring = build(K.remote_ring, {"BUF": "*i32", "OUT": "*i32", "COUNT": "*i32", "C": CTX_SIG}, N=256, D=world, MESH=m)
    # Device barriers: a release add to every peer's entry (all peers at once), acquiring polls of
    # this device's entries and the relaxed take-back; the system-scope remote atomic add of the kernel.
    assert count(ring, RELEASE_ADD) >= 2
    assert count(ring, ACQUIRE_ADD) >= 2
    assert count(ring, r"(atom|red)\.global\.sys\.relaxed\.add\.[us]32") >= 1
    assert count(ring, r"cas\.b32") == 0
    rounds = build(K.barrier_rounds, {"BUF": "*i32", "OUT": "*i32", "C": CTX_SIG}, ROUNDS=4, D=world, MESH=m)
    assert count(rounds, RELEASE_ADD) >= 2 and count(rounds, ACQUIRE_ADD) >= 2
    assert "tle.remote_pointers" not in rounds.asm["ttgir"]


@pytest.mark.parametrize("world", WORLDS)
def test_distributed_dot_and_2d_mesh_compile(world):
    m = mesh(world)
    S = lambda *d: tle.sharding(m, split=list(d))  # noqa: E731
    blk, n = 32, 32 * world
    c = build(K.dot_blocks, {"A": "*fp16", "B": "*fp16", "OUT": "*fp32", "C": CTX_SIG}, AM=n, AK=blk, BK=blk, BN=n,
              OM=blk, ON=n, M=n, N=n, K=n, A_S=S(tle.B, "device"), B_S=S("device", tle.B), OUT_S=S("device", tle.B),
              MESH=m)
    assert count(c, r"mma|wgmma") >= 1 and count(c, r"st\.relaxed\.sys\.global\.b32") == 2 * world
    a = 2 if world > 2 else world
    m2 = tle.device_mesh({"device": [("a", a), ("b", world // a)]})
    c2 = build(K.reshard_2d, {"X": "*fp32", "OUT": "*fp32", "C": CTX_SIG}, B0=32, B1=32, O0=32 * a,
               O1=32 * (world // a), M=32 * a, N=32 * (world // a), SRC=tle.sharding(m2, split=["a", "b"]),
               DST=tle.sharding(m2, split=[tle.B, tle.B]), MESH=m2)
    assert count(c2, r"st\.relaxed\.sys\.global\.b32") == 2 * world


@pytest.mark.parametrize("world", WORLDS)
def test_fused_all_reduce_kernels_compile(world):
    from tle.distributed import _allreduce_kernels as AR
    m = mesh(world)
    sig = {"X": "*bf16", "Y": "*bf16", "STAGE": "*bf16", "COUNTER": "*i32", "C": CTX_SIG, "N": "i32"}
    one = build(AR.one_shot_all_reduce_kernel, sig, MESH=m, D=world, BLOCK=2048)
    two = build(AR.two_shot_all_reduce_kernel, sig, MESH=m, D=world, BLOCK=1024 * world)
    for c, barriers in ((one, 1), (two, 2)):
        assert count(c, RELEASE_ADD) >= barriers
        assert count(c, ACQUIRE_ADD) >= barriers
        assert "tle.remote_pointers" not in c.asm["ttgir"]
        # No epoch flags: the fused kernels synchronize with consumed signals only.
        assert count(c, r"st\.relaxed\.sys") == 0
    assert count(one, r"ld\.global(\.v\d)?\.b\d+|ld\.global\.nc") >= world


@pytest.mark.parametrize("world", WORLDS)
@pytest.mark.parametrize("words", [2, 1000, 8000, 40000, 1 << 17, 1 << 19])
def test_ll128_all_reduce_kernels_push_whole_lines_without_fences(world, words):
    """The LL128 kernels, with the block and warps the host picks for each
    size (``_ll128_launch``), write each 128-byte line with one 16-byte
    store per lane (8 lanes of one warp instruction cover a line) and poll
    lines with 16-byte volatile loads only; no fence, barrier or atomic
    anywhere (the flag rides in the line)."""
    from tle.distributed import _allreduce_kernels as AR
    from tle.distributed._allreduce import _ll128_launch, ll128_programs
    m = mesh(world)
    sig = {"X": "*i32", "Y": "*i32", "AREA": "*i32", "COUNTER": "*i32", "C": CTX_SIG, "NW": "i32", "SLOT": "i32"}
    aligned = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 5, 6)}  # as launched (torch's allocations)
    built = {}
    for kernel, two in ((AR.one_shot_ll128_all_reduce_kernel, False), (AR.two_shot_ll128_all_reduce_kernel, True)):
        block, warps = _ll128_launch(words, world, two, ll128_programs(132, 4096))
        assert block >= 128 * warps and block % 32 == 0
        built[two] = (tle.compile(kernel, signature=sig, constexprs=dict(MESH=m, D=world, BLOCK=block, KIND=1),
                                  target="sm_90", attrs=aligned, num_warps=warps), block // (4 * 32 * warps))
    (one, reps1), (two, reps2) = built[False], built[True]
    assert count(one, r"st\.global\.v4\.b32") == world * reps1  # to every device, its own slot too
    assert count(two, r"st\.global\.v4\.b32") == (1 + world) * reps2  # to the owner; the sum to every device
    for c, reps in built.values():
        assert count(c, r"ld\.volatile\.global\.v4\.b32") >= world * reps
        assert count(c, r"ld\.volatile\.global(\.v2)?\.b(32|64)") == 0  # no narrower poll
        assert count(c, r"\b(membar|fence|atom|red)\.") == 0
        assert count(c, r"shfl\.sync\.bfly\.b32") >= 3 and count(c, r"\bxor\.b32") >= 3
        assert "tle.remote_pointers" not in c.asm["ttgir"]


def test_ll128_lines_are_taken_only_whole():
    """The LL128 line protocol on the CPU (Triton's interpreter, in a
    subprocess: ll128_check_interp.py): a sealed line keeps its 30 data
    words, carries the flag and a check word equal to a reference hash; a
    receiver's check rejects an older flag and the torn lines a 2 x H200
    receiver saw (the new flag and check word beside an older sector or a
    single older word), and looks only at live lines."""
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.path.join(REPO, "python"))
    done = subprocess.run([sys.executable, os.path.join(HERE, "ll128_check_interp.py")], capture_output=True,
                          text=True, timeout=300, env=env, cwd=REPO)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "ll128 check: ok" in done.stdout


def test_ll128_area_holds_every_size_it_takes():
    """The LL128 area's slot holds what the kernels write for every size
    they take, with the block the host picks: the one-shot's lines, and the
    two-shot's ceil(blocks / world) blocks per owner."""
    from tle.distributed import _allreduce_kernels as AR
    from tle.distributed._allreduce import _LL128_DATA, _LL128_ONE_MAX, _LL128_TWO_MAX, _ll128_launch, _ll128_slot, \
        ll128_programs, ll128_thresholds
    assert _LL128_DATA == AR.LL128_DATA.value  # the host's line geometry is the kernels'
    for world in (2, 3, 4, 8):
        for max_bytes in (4096, 1 << 20, 3 << 20, 64 << 20):
            slot = _ll128_slot(max_bytes, world)
            for nbytes in sorted({4, 124, 128, 4096, 65536, 1 << 20, (1 << 20) + 4, 4 << 20, 12345 * 4}):
                words = nbytes // 4
                lines = -(-words // 30)
                if nbytes <= min(max_bytes, _LL128_ONE_MAX):
                    assert lines * 32 <= slot, (world, max_bytes, nbytes)
                if nbytes <= min(max_bytes, _LL128_TWO_MAX):
                    for programs in (ll128_programs(132, 4096), ll128_programs(78, 4096), 1):
                        block, _ = _ll128_launch(words, world, True, programs)
                        nblocks = -(-lines * 32 // block)
                        assert -(-nblocks // world) * block <= slot, (world, max_bytes, nbytes, programs)
        one, two = ll128_thresholds(world)
        assert one <= _LL128_ONE_MAX and two <= _LL128_TWO_MAX and one < two


def _gemm_desc(rows, cols):
    return f"tensordesc<bf16[{rows},{cols}]>"


@pytest.mark.parametrize("world", WORLDS)
def test_gemm_reduce_scatter_kernel_raises_each_flag_from_one_thread(world):
    """GEMM+ReduceScatter, as ``MatmulReduceScatter`` launches it: the tile
    goes downstream by TMA stores (from shared memory), the slot's READY and
    FREE flags are raised by system-scope release stores issued by thread 0
    alone (a flag raised by every thread can be raised again, late, after
    its consumer took it back: the race that left READY up at rest), and the
    receiver takes READY back in that same thread before raising FREE."""
    from tle.distributed import _gemm_kernels as G
    m = mesh(world)
    sig = {"A": _gemm_desc(128, 64), "B": _gemm_desc(64, 256), "OUT": _gemm_desc(128, 128), "RECV": _gemm_desc(128, 128),
           "RECV_DOWN": _gemm_desc(128, 128), "FLAGS": "*i32", "C": CTX_SIG, "M": "i32", "N": "i32", "K": "i32"}
    c = tle.compile(G.gemm_rs_kernel, signature=sig, constexprs=dict(
        MESH=m, D=world, BM=128, BN=256, BK=64, GROUP_M=8, NUM_SMS=132, SPLIT=True, COMM=2, WAIT_LIMIT=0),
                    target="sm_90", num_warps=8, num_stages=3)
    text = ptx(c)
    raises = re.findall(r"(?:setp\.eq\.u32 (\w+), \w+, 0; (?:@\1 st\.global\.b32 \[[^\]]+\], 0; )?@\1 )?"
                        r"st\.release\.sys\.global\.b32", text)
    assert len(raises) == 3  # READY in the loop and after it, FREE in the loop
    assert all(raises), "a release store not guarded by the thread-0 predicate"
    assert text.count("mov.u32 t, %tid.x;") == 3
    # The take of READY precedes FREE's raise, in thread 0.
    assert re.search(r"@(\w+) st\.global\.b32 \[[^\]]+\], 0; @\1 st\.release\.sys", text)
    assert count(c, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") >= 2
    assert count(c, r"ld\.acquire\.sys\.global\.b32") >= 2  # READY and FREE polls
    assert "tle.remote_pointers" not in c.asm["ttgir"]


@pytest.mark.parametrize("world", WORLDS)
def test_all_gather_gemm_kernel_waits_for_each_shard(world):
    """AllGather+GEMM: each tile polls its shard's READY flag (acquire) and
    reads A and B by TMA; the kernel itself raises no flag (the copy engines
    fill the shards)."""
    from tle.distributed import _gemm_kernels as G
    m = mesh(world)
    sig = {"AG": _gemm_desc(128, 64), "B": _gemm_desc(64, 256), "OUT": _gemm_desc(128, 128), "READY": "*i32",
           "C": CTX_SIG, "M_SHARD": "i32", "N": "i32", "K": "i32"}
    c = tle.compile(G.ag_gemm_kernel, signature=sig, constexprs=dict(
        MESH=m, D=world, BM=128, BN=256, BK=64, GROUP_M=8, NUM_SMS=132, SPLIT=True, WAIT_LIMIT=0, ASYNC_STORE=True),
                    target="sm_90", num_warps=8, num_stages=4)
    assert count(c, r"ld\.acquire\.sys\.global\.b32") >= 1
    assert count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global") >= 2
    assert count(c, r"\b(st\.release|red|atom)\.") == 0


def test_nvlink_detection_is_false_without_a_driver():
    """No NVML (no GPU driver here): the LL128 kernels stay off by default."""
    from tle.distributed._allreduce import nvlink_connected
    import ctypes.util
    if ctypes.util.find_library("nvidia-ml"):
        pytest.skip("an NVIDIA driver is installed: the GPU suite covers NVLink detection")
    assert nvlink_connected(0) is False


def test_wait_limit_bounds_every_device_wait(monkeypatch):
    """Debug mode: the reshard's flag waits and the device barrier's waits
    count their polls and fail an assertion (__assertfail) instead of
    spinning for ever; without it, no assertion."""
    m = mesh(2)
    sig = {"X": "*fp32", "OUT": "*fp32", "C": CTX_SIG}
    consts = dict(BLOCK=128, OUT_BLOCK=256, N=256, SRC=tle.sharding(m, split=["device"]),
                  DST=tle.sharding(m, split=[tle.B]), MESH=m)
    plain = build(K.reshard_1d, sig, **consts)
    assert "__assertfail" not in plain.asm["ptx"]
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "1000")
    bounded = build(K.reshard_1d, sig, **consts)
    assert "__assertfail" in bounded.asm["ptx"]
    assert "TLE device wait timed out" in bounded.asm["ttgir"]
    barrier = build(K.lonely_barrier, {"C": CTX_SIG}, MESH=m)
    assert "__assertfail" in barrier.asm["ptx"]
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "soon")
    with pytest.raises(ValueError, match="TLE_DEVICE_WAIT_LIMIT"):
        build(K.lonely_barrier, {"C": CTX_SIG}, MESH=m)


def test_device_barrier_needs_the_host_contexts_signals():
    import triton

    @triton.jit
    def six_args(WS, FLAGS, OFFS, MESH: tl.constexpr):
        ctx = tle.device_context(MESH, 0, WS, FLAGS, OFFS, 1)
        tle.distributed_barrier(MESH, context=ctx)

    from triton.compiler.errors import CompilationError
    with pytest.raises(CompilationError, match="needs the signal slots"):
        build(six_args, {"WS": "*fp32", "FLAGS": "*i32", "OFFS": "*i64"}, MESH=mesh(2))


def test_remote_over_devices_checks_its_arguments():
    import triton
    from triton.compiler.errors import CompilationError

    @triton.jit
    def no_context(X, MESH: tl.constexpr):
        tl.store(tle.remote(X, 1, MESH), 1.0)

    with pytest.raises(CompilationError, match="needs context=tle.device_context"):
        build(no_context, {"X": "*fp32"}, MESH=mesh(2))

    @triton.jit
    def out_of_range(X, C, MESH: tl.constexpr):
        ctx = tle.device_context(MESH, C)
        tl.store(tle.remote(X, 5, MESH, context=ctx), 1.0)

    with pytest.raises(CompilationError, match=r"outside \[0, 2\)"):
        build(out_of_range, {"X": "*fp32", "C": CTX_SIG}, MESH=mesh(2))


def test_from_group_needs_torch_distributed():
    pytest.importorskip("torch")
    with pytest.raises(tle.TLEUsageError, match="torch.distributed initialized"):
        tle.device_context.from_group(mesh(2))
    with pytest.raises(tle.TLEUsageError, match="must be a tle.device_mesh"):
        tle.device_context.from_group("not a mesh")


def _gpus():
    if not has_gpu():
        return 0
    import torch
    return torch.cuda.device_count()


def _torchrun(world, *cases, env=None, timeout=600):
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={world}",
           os.path.join(HERE, "dist_worker.py"), *cases]
    full_env = dict(os.environ, NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1",
                    PYTHONUNBUFFERED="1", **(env or {}))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=full_env, cwd=REPO)


@pytest.mark.parametrize("world", [2, 4])
def test_torchrun_suite(world):
    if _gpus() < world:
        pytest.skip(f"needs {world} GPUs")
    done = _torchrun(world)
    print(done.stdout[-6000:])
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]
    assert re.search(r"\b\d+ passed, 0 failed", done.stdout)


@pytest.mark.parametrize("world", [2])
def test_torchrun_wait_limit_ends_a_lonely_barrier(world):
    if _gpus() < world:
        pytest.skip(f"needs {world} GPUs")
    done = _torchrun(world, "timeout", env={"TLE_DEVICE_WAIT_LIMIT": "200000"}, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "timed out as it should" in done.stdout


def test_low_latency_block_follows_the_size():
    """The low-latency one-shot gives every program of its fixed grid a
    block when there are words enough (128 to 1024 words a block), never
    more than the data; a chosen ll_block must be a power of two."""
    from tle.distributed._allreduce import AllReduce, _ll_block
    assert [_ll_block(kib * 256, 264) for kib in (1, 4, 64, 256, 512, 1024)] == [128, 128, 128, 256, 512, 1024]
    assert _ll_block(2, 264) == 16 and _ll_block(100, 264) == 128
    with pytest.raises(tle.TLEUsageError, match="power of two"):
        AllReduce.__init__(object.__new__(AllReduce), None, 1, None, ll_block=100)


def _fake_context(world, rank=0, slots=8):
    """A DistributedRtContext with made-up addresses (CPU compiles only)."""
    return tle.DistributedRtContext(rank=rank, world_size=world,
                                    buffer_ptrs=tuple(0x7f0000000000 + (r << 32) for r in range(world)),
                                    dtype="float16", numel=1 << 20,
                                    signal_ptrs=tuple(0x7e0000000000 + (r << 32) for r in range(world)),
                                    num_slots=slots,
                                    barrier_ptrs=tuple(0x7d0000000000 + (r << 33) for r in range(world)),
                                    max_programs=64)


@pytest.mark.parametrize("world", WORLDS)
def test_flagtree_device_path_kernels_compile(world):
    """FlagTree's device path (tle.create_dist_tensor's context as a
    tl.constexpr): the push kernel's peer pointers are the context's
    addresses, picked by the runtime rank; tle.signal is one release
    reduction of the program's thread 0 after a CTA barrier; tle.signal_wait
    polls with acquire loads and then syncs the CTA."""
    ctx = _fake_context(world, rank=1)
    mesh = tle.device_mesh(tle.MeshConfig(device=world))
    push = build(K.ft_all_gather_push, {"local": "*fp16", "ag": "*fp16"}, dist_ctx=ctx, mesh=mesh,
                 ELEM_PER_RANK=4096, BLOCK=1024)
    text = ptx(push)
    # Every 64-bit constant of the kernel that lies in a peer's buffer (its
    # base, or base plus this rank's rows when the offset folds in).
    constants = [int(v) for v in re.findall(r"\b(\d{13,})\b", text)]
    hit = {r for r in range(world) for v in constants if 0 <= v - ctx.buffer_ptrs[r] < 2 * ctx.numel}
    assert hit == set(range(world)) - {1}, (hit, constants)  # rank 1's own copy is a plain store
    sig = build(K.ft_all_gather_signal, {}, dist_ctx=ctx, mesh=mesh, SLOT=3)
    assert count(sig, r"red\.release\.sys\.global\.add\.u32") == 1
    assert count(sig, r"bar\.sync") >= 1
    wait = build(K.ft_all_gather_wait, {"target": "i32"}, dist_ctx=ctx, SLOT=3)
    assert count(wait, r"ld\.acquire\.sys\.global\.u32") == 1 and count(wait, r"setp\.ge\.u32") == 1
    assert count(wait, r"bar\.sync") >= 1
    ring = build(K.ft_ring_add, {"x": "*fp32"}, dist_ctx=ctx, mesh=mesh, W=world, N=256, ROUND=2)
    assert count(ring, r"atom\.global\.sys(\.relaxed)?\.add\.f32|red\.global\.sys(\.relaxed)?\.add\.f32") >= 1
    assert count(ring, r"red\.release\.sys\.global\.add\.u32") == 1


def test_flagtree_device_path_checks_its_arguments():
    """Misuse is a compile error naming the argument: a rank out of range, a
    slot past the context's, a missing dtype, an unsupported wait kind, a
    non-context first argument with space=."""
    import triton
    from triton.compiler.errors import CompilationError
    ctx = _fake_context(2, slots=4)
    mesh = tle.device_mesh(tle.MeshConfig(device=2))

    @triton.jit
    def bad_rank(P, C: tl.constexpr):
        tl.store(tle.remote(C, shard_id=2, space="device", dtype=tl.float32), 1.0)

    @triton.jit
    def bad_slot(C: tl.constexpr):
        tle.signal(C, 0, slot_id=4)

    @triton.jit
    def no_dtype(C: tl.constexpr):
        tl.store(tle.remote(C, shard_id=0, space="device"), 1.0)

    @triton.jit
    def bad_wait(C: tl.constexpr):
        tle.signal_wait(C, slot_id=0, wait_kind="shadow")

    @triton.jit
    def barrier_node(C: tl.constexpr):
        tle.distributed_barrier(device_dptr=C, space="node")

    @triton.jit
    def barrier_with_group_kind(C: tl.constexpr):
        tle.distributed_barrier(device_dptr=C, space="device", group_kind="warp")

    bare = tle.DistributedRtContext(rank=0, world_size=2, buffer_ptrs=ctx.buffer_ptrs, dtype="float16", numel=8,
                                    signal_ptrs=ctx.signal_ptrs, num_slots=4)

    @triton.jit
    def not_a_context(P, M: tl.constexpr):
        tl.store(tle.remote(P, shard_id=0, space="device", dtype=tl.float32), 1.0)

    cases = [(bad_rank, {"P": "*fp32"}, {"C": ctx}, "shard_id=2 is not a rank"),
             (bad_slot, {}, {"C": ctx}, "slot_id must be a compile-time int in [0, 4)"),
             (no_dtype, {}, {"C": ctx}, "needs dtype="),
             (bad_wait, {}, {"C": ctx}, "wait_kind must be 'signal'"),
             (not_a_context, {"P": "*fp32"}, {"M": mesh}, "go with a tle.create_dist_tensor context"),
             (barrier_node, {}, {"C": ctx}, "space must be 'device'"),
             (barrier_with_group_kind, {}, {"C": ctx}, "takes space= only"),
             (barrier_node, {}, {"C": bare}, "space must be 'device'"),
             (bad_slot, {}, {"C": bare}, "slot_id must be a compile-time int in [0, 4)")]
    with pytest.raises(CompilationError) as e:
        @triton.jit
        def no_counters(C: tl.constexpr):
            tle.distributed_barrier(device_dptr=C, space="device")
        build(no_counters, {}, C=bare)
    assert "the context has no barrier counters" in str(e.value)
    for kernel, sig, consts, message in cases:
        with pytest.raises(CompilationError) as e:
            build(kernel, sig, **consts)
        assert message in str(e.value), (kernel.fn.__name__, str(e.value)[-500:])


def test_flagtree_comm_handle_kernels_compile():
    """tle.create_comm_tensor's runtime handles: one compile for every rank
    and world size (the table is read at run time): the barrier is the
    device barrier's release additions and acquire polls, each handle's
    magic word is checked by a device assertion."""
    c = build(K.ft_comm_exchange, {"dev_comm": "i64", "dev_mem": "i64", "out": "*fp32"}, N=256, ROUNDS=2)
    assert count(c, r"atom\.global\.sys\.release\.add\.u32") == 4  # 2 barriers x 2 rounds
    assert count(c, r"atom\.global\.sys\.acquire\.add\.u32") >= 4
    assert count(c, r"atom\.global\.sys\.relaxed\.add\.u32") == 4  # each takes its arrivals back
    assert "__assertfail" in c.asm["ptx"]
    from tle.language import comm_handles as H
    assert str(H.COMM_MAGIC) in c.asm["ptx"] or hex(H.COMM_MAGIC)[2:].upper() in c.asm["ptx"].upper()


@pytest.mark.parametrize("world", WORLDS)
def test_flagtree_context_barrier_compiles(world):
    """tle.distributed_barrier(device_dptr=ctx, space="device"): the device
    barrier on the context's counters, their peers' addresses constants of
    this rank's compile."""
    ctx = _fake_context(world, rank=1)
    mesh = tle.device_mesh(tle.MeshConfig(device=world))
    c = build(K.ft_ctx_barrier_exchange, {"out": "*fp32"}, dist_ctx=ctx, mesh=mesh, N=256, ROUNDS=2)
    assert count(c, r"atom\.global\.sys\.release\.add\.u32") == 4
    assert count(c, r"atom\.global\.sys\.acquire\.add\.u32") >= 4
    # The counters of rank 1 and the distances to every other rank's.
    text = ptx(c)
    assert str(ctx.barrier_ptrs[1]) in text
    for r in range(world):
        if r != 1:
            assert str(ctx.barrier_ptrs[r] - ctx.barrier_ptrs[1]) in text, r


def test_flagtree_comm_handles_check_their_arguments():
    import triton
    from triton.compiler.errors import CompilationError

    @triton.jit
    def node_space(comm):
        tle.distributed_barrier(comm_ptr=comm, space="node")

    @triton.jit
    def arrive(comm):
        tle.distributed_barrier(comm_ptr=comm, space="device", barrier_kind="arrive")

    @triton.jit
    def warp_group(comm):
        tle.distributed_barrier(comm_ptr=comm, space="device", group_kind="warp")

    @triton.jit
    def pointer_handle(comm):
        tle.distributed_barrier(comm_ptr=comm, space="device")

    @triton.jit
    def options_without_handle(M: tl.constexpr):
        tle.distributed_barrier(M, space="device")

    @triton.jit
    def my_pe_of_pointer(comm, out):
        tl.store(out, tle.my_pe(comm))

    @triton.jit
    def remote_without_dtype(mem, out):
        tl.store(out, tl.load(tle.remote(mem, shard_id=0, space="device")))

    cases = [(node_space, {"comm": "i64"}, {}, "space must be 'device'"),
             (arrive, {"comm": "i64"}, {}, "barrier_kind 'arrive' is not supported"),
             (warp_group, {"comm": "i64"}, {}, "group_kind 'warp' is not supported"),
             (pointer_handle, {"comm": "*i64"}, {}, "comm_ptr must be a handle tle.create_comm_tensor returned"),
             (options_without_handle, {}, {"M": mesh(2)}, "go with comm_ptr="),
             (my_pe_of_pointer, {"comm": "*i32", "out": "*i32"}, {}, "tle.my_pe: comm_ptr must be a handle"),
             (remote_without_dtype, {"mem": "i64", "out": "*fp32"}, {}, "dtype= must be a Triton element type")]
    for kernel, sig, consts, message in cases:
        with pytest.raises(CompilationError) as e:
            build(kernel, sig, **consts)
        assert message in str(e.value), (kernel.fn.__name__, str(e.value)[-500:])


def test_flagtree_host_calls_need_a_launcher(monkeypatch):
    """Without torch.distributed initialized and without torchrun's
    environment, tle.get_mem_pool / tle.create_dist_tensor say how to run."""
    for name in ("RANK", "WORLD_SIZE"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(tle.TLEUsageError, match="torchrun"):
        tle.get_mem_pool()
