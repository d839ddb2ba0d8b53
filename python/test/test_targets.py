"""Targets (docs/targets.md): what compiles for sm_80 and older, and the
error a feature gives on a target that lacks it — at the user's line, naming
the feature, the minimum and the target; never an LLVM abort."""

import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle
import async_load_kernels as AK
import local_memory_kernels as LK
import pipe_kernels as PK
import tiles_kernels as TK
from test_cumsum import cumsum_1d


def ptx(compiled):
    return compiled.asm["ptx"]


def assert_for(compiled, arch):
    """Compiled to a cubin for sm_<arch>, with nothing of sm_90 in its PTX."""
    assert isinstance(compiled.asm["cubin"], bytes) and compiled.asm["cubin"]
    assert re.search(rf"^\.target sm_{arch}\b", ptx(compiled), re.M), ptx(compiled)[:400]
    for sm90 in ("setmaxnreg", "fence.proxy.async", "barrier.cluster", "mapa", "wgmma", "cp.async.bulk",
                 "expect_tx", "mbarrier.try_wait"):
        assert sm90 not in ptx(compiled), sm90


def error_text(kernel, signature, constexprs, target, **options):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature=signature, constexprs=constexprs, target=target, **options)
    return str(info.value)


# --- what runs on sm_80 compiles for it


@pytest.mark.parametrize("target", ["sm_80", "sm_75"])
def test_cumsum_compiles_for_older_targets(target):
    c = tle.compile(cumsum_1d, signature={"X": "*fp32", "Y": "*fp32", "T": "*fp32"},
                    constexprs={"N": 256, "REVERSE": False, "DTYPE": None}, target=target)
    assert_for(c, target[3:])


def test_local_memory_compiles_for_sm80():
    c = tle.compile(LK.histogram, signature={"X": "*i32", "OUT": "*i32", "n": "i32"},
                    constexprs={"BLOCK": 256, "BINS": 64}, target="sm_80")
    assert_for(c, 80)
    assert re.search(r"(atom|red)\.[a-z_.]*shared", ptx(c))


def test_tiles_compile_for_sm80():
    c = tle.compile(TK.extract_2d, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "IDX": 1}, target="sm_80")
    assert_for(c, 80)


def test_async_loads_compile_for_sm80_as_cp_async():
    c = tle.compile(AK.masked_copy, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "n": "i32"},
                    constexprs={"BLOCK": 1024}, target="sm_80", num_warps=4)
    assert_for(c, 80)
    assert "cp.async" in ptx(c)


@triton.jit
def ring_copy_no_regs(src, dst, n_tiles, BLOCK: tl.constexpr, STAGES: tl.constexpr, ASYNC: tl.constexpr):
    """pipe_kernels.ring_copy without worker_num_regs (no register reallocation)."""
    p = tle.pipe(STAGES, name="ring", readers="c", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(PK._ring_consumer, (p.reader("c"), dst, n_tiles, BLOCK)),
                             (PK._ring_producer, (p.writer(), src, n_tiles, BLOCK, ASYNC))],
                            worker_num_warps=[1])


@triton.jit
def ring_dot_no_regs(q, kv, out, n_tiles, M: tl.constexpr, BN: tl.constexpr, D: tl.constexpr,
                     STAGES: tl.constexpr):
    """pipe_kernels.ring_dot without worker_num_regs: on sm_80 its dots are mma.sync."""
    p = tle.pipe(STAGES, name="kv", readers="mma", k=([BN, D], tl.float16))
    tle.gpu.warp_specialize([(PK._dot_consumer, (p.reader("mma"), q, out, n_tiles, M, BN, D)),
                             (PK._dot_producer, (p.writer(), kv, n_tiles, BN, D))],
                            worker_num_warps=[4])


RING = {"src": "*fp32", "dst": "*fp32", "n_tiles": "i32"}


@pytest.mark.parametrize("is_async", [False, True])
def test_pipes_without_register_reallocation_compile_for_sm80(is_async):
    """mbarrier rings and warp specialization without setmaxnreg; no
    async-proxy fence (there is no async proxy before sm_90)."""
    c = tle.compile(ring_copy_no_regs, signature=RING, constexprs={"BLOCK": 256, "STAGES": 2, "ASYNC": is_async},
                    target="sm_80", num_warps=4)
    assert_for(c, 80)
    assert "mbarrier.init" in ptx(c) and "mbarrier.test_wait" in ptx(c)
    assert ("cp.async.mbarrier.arrive" in ptx(c)) == is_async
    # The same kernel for sm_90 keeps its fence before the commit.
    c90 = tle.compile(ring_copy_no_regs, signature=RING, constexprs={"BLOCK": 256, "STAGES": 2, "ASYNC": is_async},
                      target="sm_90", num_warps=4)
    assert "fence.proxy.async" in ptx(c90)


def test_stream_with_close_compiles_for_sm80():
    fn, sig = PK.SIGNATURES["stream_sum"]
    c = tle.compile(fn, signature=sig, constexprs={"BLOCK": 128, "STAGES": 2}, target="sm_80", num_warps=4)
    assert_for(c, 80)


def test_pipe_dot_compiles_for_sm80_with_mma_sync():
    c = tle.compile(ring_dot_no_regs, signature={"q": "*fp16", "kv": "*fp16", "out": "*fp32", "n_tiles": "i32"},
                    constexprs={"M": 64, "BN": 32, "D": 64, "STAGES": 2}, target="sm_80", num_warps=4)
    assert_for(c, 80)
    assert "mma.sync" in ptx(c)


# --- a feature the target lacks: a Python error at the user's line


def _names(text, feature, minimum, target):
    assert feature in text, text
    assert f"needs sm_{minimum} or newer" in text and f"compiled for sm_{target}" in text, text


@pytest.mark.parametrize("target", ["sm_80", "sm_75"])
def test_worker_num_regs_needs_sm90(target):
    fn, sig = PK.SIGNATURES["ring_copy"]
    text = error_text(fn, sig, {"BLOCK": 256, "STAGES": 2, "PRODUCER_WARPS": 1}, target)
    if target == "sm_75":
        _names(text, "tle.pipe (mbarrier rings)", 80, 75)  # the pipe comes first
    else:
        _names(text, "worker_num_regs (register reallocation, setmaxnreg)", 90, 80)
        assert "tle.gpu.warp_specialize(" in text and "leave worker_num_regs out" in text


def test_pipe_needs_sm80():
    text = error_text(ring_copy_no_regs, RING, {"BLOCK": 256, "STAGES": 2, "ASYNC": False}, "sm_75")
    _names(text, "tle.pipe", 80, 75)
    assert 'p = tle.pipe(STAGES, name="ring"' in text


@pytest.mark.parametrize("kernel", ["cluster_exchange", "cluster_histogram"])
def test_cluster_kernels_need_sm90(kernel):
    sig = {"OUT": "*i32"} if kernel == "cluster_exchange" else {"X": "*i32", "OUT": "*i32", "n": "i32"}
    constexprs = {"N": 128} if kernel == "cluster_exchange" else {"BLOCK": 256, "BINS": 64}
    text = error_text(getattr(LK, kernel), sig, {**constexprs, "MESH": LK.CLUSTER2}, "sm_80")
    _names(text, "thread-block cluster", 90, 80)
    assert "rank = tle.shard_id(MESH" in text  # the first cluster op, at its line


@triton.jit
def barrier_only(OUT, MESH: tl.constexpr):
    tle.distributed_barrier(MESH)
    tl.store(OUT, 1)


@triton.jit
def remote_only(OUT, N: tl.constexpr, MESH: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.int32)
    peer = tle.remote(buf, 0, scope=MESH)
    tl.store(OUT + tl.arange(0, N), tl.load(tle.gpu.local_ptr(peer, (tl.arange(0, N),))))


def test_distributed_barrier_and_remote_need_sm90():
    text = error_text(barrier_only, {"OUT": "*i32"}, {"MESH": LK.CLUSTER2}, "sm_80")
    _names(text, "tle.distributed_barrier", 90, 80)
    text = error_text(remote_only, {"OUT": "*i32"}, {"N": 64, "MESH": LK.CLUSTER2}, "sm_80")
    _names(text, "tle.remote", 90, 80)
    assert "peer = tle.remote(buf, 0, scope=MESH)" in text


@triton.jit
def ring_gather_no_regs(table, idx, out, n_tiles, BN: tl.constexpr, W: tl.constexpr, STAGES: tl.constexpr):
    p = tle.pipe(STAGES, name="rows", readers="c", x=([BN, W], table.dtype))
    tle.gpu.warp_specialize([(PK._gather_consumer, (p.reader("c"), out, n_tiles, BN, W)),
                             (PK._gather_producer, (p.writer(), table, idx, n_tiles, BN, W, 0))],
                            worker_num_warps=[1])


def test_tma_fill_needs_sm90():
    sig = {"table": "tensordesc<fp16[1,64]>", "idx": "*i32", "out": "*fp16", "n_tiles": "i32"}
    text = error_text(ring_gather_no_regs, sig, {"BN": 64, "W": 64, "STAGES": 2}, "sm_80")
    _names(text, "tle.gpu.copy from a tensor descriptor (TMA)", 90, 80)
    # Raised inside the producer partition: its line is in the message.
    assert "partition 1 (_gather_producer)" in text and "tle.gpu.copy(table, slot[\"x\"]" in text
