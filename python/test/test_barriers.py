"""Explicit barriers on the CPU: the kernels of
barrier_kernels.py compile to PTX for sm_90 through TLE's stages, with the
instructions each primitive stands for, and misuse is an error at the
user's line.

* ``tle.gpu.alloc_barriers`` / ``barrier_arrive`` / ``barrier_wait`` on
  mbarriers: ``mbarrier.init``, ``mbarrier.arrive``, ``mbarrier.try_wait.parity``;
* ``barrier_arrive(..., expect_tx=)`` and ``copy(desc, buf, ..., barrier=)``:
  ``mbarrier.arrive.expect_tx``, ``cp.async.bulk.tensor`` completing on the
  user's barrier (no wait of its own);
* ``tle.gpu.named_barrier``: ``bar.sync`` / ``bar.arrive`` with the id and
  thread count;
* ``copy(ptrs, buf, shape, barrier=)``: ``cp.async`` and
  ``cp.async.mbarrier.arrive``;
* ``copy(buf, desc, ..., is_async=True)`` / ``tma_store_wait``: a TMA store
  of the buffer in place, ``cp.async.bulk.wait_group.read``;
* ``wgmma`` / ``wgmma_wait`` / ``wgmma_shared_operand_fence``:
  ``wgmma.mma_async``, ``wgmma.wait_group``, ``fence.proxy.async``;
* with ``tle.gpu.warp_specialize`` (``setmaxnreg``).

The GPU runs are test_barriers_gpu.py.
"""

import re

import pytest
import triton
import triton.language as tl

import tle
import barrier_kernels as K
from conftest import assert_finished, code, ptx_count

TARGET = "sm_90"


def compile_kernel(name, target=TARGET, **constexprs):
    return tle.compile(getattr(K, name), signature=K.SIGNATURES[name], constexprs=constexprs, target=target)


def test_public_names():
    import tle.gpu as gpu
    for name in ("alloc_barriers", "alloc_barrier", "barrier_arrive", "barrier_wait", "named_barrier", "mbarrier",
                 "barrier_array"):
        assert name in gpu.__all__ and hasattr(gpu, name), name
    # FlagTree's initial states, documented with alloc_barriers.
    assert gpu.READY != gpu.PENDING
    for fn in (gpu.alloc_barriers, gpu.alloc_barrier, gpu.barrier_arrive, gpu.barrier_wait, gpu.named_barrier):
        assert fn.__doc__


def test_self_arrive_compiles_to_mbarrier_instructions():
    c = compile_kernel("self_arrive_kernel", N=128)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.barrier" not in ttgir
    assert "ttg.local_alloc : () -> !ttg.memdesc<2x1xi64" in ttgir
    assert ttgir.count("ttng.init_barrier") == 2
    assert ttgir.count("ttng.arrive_barrier") == 1
    assert ttgir.count("ttng.wait_barrier") == 1
    assert ptx_count(c, r"mbarrier\.init\.shared(::cta)?\.b64") == 2
    assert ptx_count(c, r"mbarrier\.arrive\.shared(::cta)?\.b64") == 1
    assert ptx_count(c, r"mbarrier\.try_wait\.parity\.shared(::cta)?\.b64") == 1


def test_self_arrive_on_sm80():
    """mbarriers without transaction counts exist from sm_80."""
    c = compile_kernel("self_arrive_kernel", target="sm_80", N=128)
    assert_finished(c)
    assert ptx_count(c, r"mbarrier\.init") == 2
    assert ptx_count(c, r"mbarrier\.try_wait\.parity|mbarrier\.test_wait\.parity") >= 1


def test_ready_barriers_wait_on_the_flipped_parity():
    """An empty barrier allocated READY: the producer's wait at use i waits
    on parity (i & 1) ^ 1, the consumer's full wait on i & 1."""
    c = compile_kernel("mbarrier_handoff_kernel", BLOCK=256, PRODUCER_WARPS=4)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttng.wait_barrier") == 2
    assert "arith.xori" in ttgir
    assert_finished(c)


@pytest.mark.parametrize("producer_warps", [1, 4])
def test_handoff_through_mbarriers_in_warp_specialize(producer_warps):
    """The producer partition and the default partition hand one buffer over
    through full / empty mbarriers; register reallocation splits the
    register file (setmaxnreg)."""
    c = compile_kernel("mbarrier_handoff_kernel", BLOCK=256, PRODUCER_WARPS=producer_warps)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "ttg.warp_specialize" in ttgir
    assert ttgir.count("ttng.init_barrier") == 2
    assert ptx_count(c, r"mbarrier\.init\.shared(::cta)?\.b64") == 2
    assert ptx_count(c, r"mbarrier\.arrive\.shared(::cta)?\.b64") == 2
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 2
    assert ptx_count(c, r"setmaxnreg\.(inc|dec)\.sync\.aligned\.u32") >= 2
    # A multi-warp partition syncs its warps (its own named barrier) before
    # arriving; a 1-warp one does not need to.
    default_sync = r"(bar\.sync|barrier\.sync(\.aligned)?)\s+\d+,\s*128"
    assert ptx_count(c, default_sync) >= 1


def test_named_barriers_in_warp_specialize():
    c = compile_kernel("named_barrier_kernel", BLOCK=256)
    assert_finished(c)
    ptx = c.asm["ptx"]
    assert re.search(r"\bbar\.arrive\s+6,\s*256;", ptx)
    assert re.search(r"\bbar\.sync\s+6,\s*256;", ptx)
    assert "tle.named_barrier" not in code(c, "ttgir")


def test_named_use_of_an_mbarrier_array():
    """FlagTree's barrier_wait without phaseIdx: the array's two barriers
    become named barriers with consecutive ids above Triton's (one worker
    partition: 0 to 3), bar.sync / bar.arrive of its 256 threads; no mbarrier
    wait or arrive is left."""
    c = compile_kernel("named_array_kernel", BLOCK=256, ROUNDS=3)
    assert_finished(c)
    ptx = c.asm["ptx"]
    ids = sorted({int(i) for i in re.findall(r"\bbar\.(?:sync|arrive)\s+(\d+),\s*256;", ptx)})
    assert ids == [4, 5]
    assert "mbarrier.try_wait" not in ptx and "mbarrier.arrive" not in ptx


def test_tma_load_on_a_barrier():
    """Each copy is one arrive.expect_tx of the tile's bytes (64 x 64 fp16:
    8192) on the user's barrier and one TMA load straight into the buffer;
    Triton's own scratch buffer, barrier and wait are gone: the only wait is
    the user's."""
    c = compile_kernel("tma_barrier_matmul_kernel", BM=64, BN=64, BK=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.async_tma_load" not in ttgir
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2
    assert ttgir.count("ttng.barrier_expect") == 2
    assert ttgir.count("ttng.wait_barrier") == 1
    assert ttgir.count("ttng.init_barrier") == 1  # the user's barrier only
    assert re.search(r"ttng\.barrier_expect %\S+, 8192", ttgir)
    assert ptx_count(c, r"mbarrier\.arrive\.expect_tx\.shared(::cta)?\.b64 _, \[\$?\w+\], 8192") == 2 or \
        len(re.findall(r"mbarrier\.arrive\.expect_tx[^\n]*8192", c.asm["ptx"])) == 2
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes") == 2
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 1
    assert ptx_count(c, r"wgmma\.mma_async") >= 1


def test_tma_load_on_a_barrier_into_a_pointer_buffer():
    """A buffer read through local pointers keeps its plain layout in TLE's
    own region, which Triton's TMA copy cannot target: each copy is Triton's
    synchronous TMA load (into its scratch, on its own barrier), stored into
    the buffer by the threads, then one arrival on the user's barrier; the
    user's waits stay. The buffers are read and written through shared
    pointers (ld/st.shared), the result leaves by a TMA store."""
    c = compile_kernel("tma_barrier_pointer_buffer_kernel", XBLOCK=32, YBLOCK=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.async_tma_load" not in ttgir
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2  # Triton's own, into its scratch
    assert ttgir.count("ttng.arrive_barrier") == 2  # the user's barriers, once a copy
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes") == 2
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 1
    assert ptx_count(c, r"mbarrier\.arrive\.shared(::cta)?\.b64") == 2
    assert ptx_count(c, r"^\s*ld\.shared") > 0 and ptx_count(c, r"^\s*st\.shared") > 0


def test_tma_load_on_a_barrier_into_a_buffer_read_whole_by_pointers():
    """FlagTree's spelling, pointers over every element in order
    (`local_ptr(buf, (rows, cols))` with full ranges): each access is the
    whole buffer, so the buffers stay shared-memory buffers (no TLE region)
    and the TMA copies land in them on the user's barriers: no staging
    copy of Triton's, no arrive of TLE's."""
    c = compile_kernel("tma_barrier_pointer_buffer_kernel", XBLOCK=32, YBLOCK=64, REVERSED=False)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.shared" not in ttgir and "tle.smem.base" not in ttgir
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2
    assert "ttng.arrive_barrier" not in ttgir
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes") == 2


def test_tma_producer_partition_on_barriers():
    """A 1-warp producer partition issues the TMA loads on the full barriers;
    the consumer waits on them and frees the buffers on the empty ones."""
    c = compile_kernel("tma_ws_ring_kernel", BM=64, BK=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2
    assert ttgir.count("ttng.init_barrier") == 4
    assert ttgir.count("ttng.barrier_expect") == 2
    # LLVM merges the two branches' copies (one asm, the buffer and barrier
    # addresses selected).
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes") >= 1
    assert len(re.findall(r"mbarrier\.arrive\.expect_tx[^\n]*8192", c.asm["ptx"])) >= 1
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 2  # the producer's empty wait, the consumer's full wait
    assert ptx_count(c, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40") >= 1


def test_cp_async_on_a_barrier_in_warp_specialize():
    """The producer partition's copy is a cp.async into the buffer (no
    registers), every producer thread's copies counted on the full barrier
    (cp.async.mbarrier.arrive), then the group's arrival."""
    c = compile_kernel("cp_async_barrier_kernel", R=32, C=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.async_copy_load" not in ttgir
    assert ttgir.count("ttg.async_copy_global_to_local") == 1
    assert ttgir.count("ttng.async_copy_mbarrier_arrive") == 1
    assert "noIncrement" not in ttgir
    assert ptx_count(c, r"cp\.async\.(ca|cg)\.shared\.global") >= 1
    assert ptx_count(c, r"cp\.async\.mbarrier\.arrive\.shared(::cta)?\.b64") == 1
    assert ptx_count(c, r"cp\.async\.mbarrier\.arrive\.noinc") == 0
    assert ptx_count(c, r"(?<![.\w])mbarrier\.arrive\.shared(::cta)?\.b64") == 2  # full (producer), empty (consumer)


def test_async_tma_store_reads_the_buffer_in_place():
    """Each store is a TMA store of the buffer itself (no copy of it), not
    waited for; the only store waits are the user's (pendings 1 in the loop,
    0 at the end)."""
    c = compile_kernel("tma_store_async_kernel", BM=64, BN=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.async_tma_store" not in ttgir and "tle.tma_store_wait" not in ttgir
    assert ttgir.count("ttng.async_tma_copy_local_to_global") == 2
    # Inside the loop only the user's wait (pendings 1): TritonGPU's waits
    # for its staging buffer are gone with it.
    body = ttgir.split("scf.for", 1)[1].split("\n    }\n", 1)[0]
    assert re.findall(r"ttng\.async_tma_store_wait \{pendings = (\d+) : i32\}", body) == ["1"]
    assert set(re.findall(r"ttg\.local_store %\S+, %(\w+)", body)) == {"out0", "out1"}  # the user's stores only
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") >= 1
    assert ptx_count(c, r"cp\.async\.bulk\.commit_group") >= 1
    assert ptx_count(c, r"cp\.async\.bulk\.wait_group\.read\s+1;") == 1
    assert ptx_count(c, r"cp\.async\.bulk\.wait_group\.read\s+0;") >= 1
    assert ptx_count(c, r"fence\.proxy\.async\.shared::cta") >= 1


def test_wgmma_on_stored_operands():
    c = compile_kernel("wgmma_stored_operands_kernel", M=64, N=64, K=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.wgmma" not in ttgir
    assert ttgir.count("ttng.warp_group_dot ") == 1 and "isAsync = true" in ttgir
    assert re.search(r"ttng\.warp_group_dot_wait %\S+ \{pendings = 0 : i32\}", ttgir)
    assert ptx_count(c, r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16") == 4
    assert ptx_count(c, r"wgmma\.wait_group\.sync\.aligned 0") == 1
    assert ptx_count(c, r"fence\.proxy\.async") >= 1


def test_wgmma_tma_matmul_keeps_one_wgmma_in_flight():
    """The double-buffered K loop: wgmmas issued in both branches of the
    slot's scf.if, waited with pendings 1 in the loop and 0 after it; the
    accumulator stays in the wgmma layout through the loop (no layout
    conversion inside it)."""
    c = compile_kernel("wgmma_tma_matmul_kernel", BM=64, BN=64, BK=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttng.warp_group_dot ") == 2
    assert ttgir.count("{pendings = 1 : i32}") == 1 and ttgir.count("{pendings = 0 : i32}") >= 1
    assert re.search(r"scf\.for .*-> \(tensor<64x64xf32, #mma>", ttgir)
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 6
    assert ptx_count(c, r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16") >= 4
    assert ptx_count(c, r"wgmma\.wait_group\.sync\.aligned 1") == 1
    assert ptx_count(c, r"wgmma\.wait_group\.sync\.aligned 0") >= 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes") >= 2


def test_ws_wgmma_matmul_tma_producer_and_wgmma_consumer():
    """FlagTree's GEMM schedule: a 1-warp TMA producer partition on full /
    empty mbarriers, the default partition's async wgmmas; setmaxnreg."""
    c = compile_kernel("ws_wgmma_matmul_kernel", BM=64, BN=64, BK=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "ttg.warp_specialize" in ttgir
    assert ttgir.count("ttng.warp_group_dot ") == 2
    assert ttgir.count("ttng.init_barrier") == 4
    assert ptx_count(c, r"wgmma\.mma_async") >= 4
    assert ptx_count(c, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40") >= 1
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 2
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes") >= 2


def test_wgmma_transposed_view():
    """Q @ K^T with K read in place through memdesc_wgmma_view: a
    ttg.memdesc_trans of K's buffer (transposed NVMMA layout), no copy."""
    c = compile_kernel("wgmma_qkt_kernel", M=64, N=64, D=64)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.memdesc_wgmma_view" not in ttgir
    assert re.search(r"ttg\.memdesc_trans %\S+ \{order = array<i32: 1, 0>\}", ttgir)
    assert "transposed = true" in ttgir
    assert ptx_count(c, r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16") == 4


def test_alloc_alias_shares_memory():
    """The aliasing buffer takes no shared memory of its own: the kernel
    needs at least 8 KB (the fp16 tile) less than with a buffer of its own."""
    aliased = compile_kernel("alias_kernel", R=64, C=64, ALIAS=True)
    separate = compile_kernel("alias_kernel", R=64, C=64, ALIAS=False)
    assert_finished(aliased)
    assert_finished(separate)
    ttgir = code(aliased, "ttgir")
    assert "tle.alloc_alias" not in ttgir and "ttg.memdesc_reinterpret" in ttgir
    assert "ttg.memdesc_reinterpret" not in code(separate, "ttgir")
    assert separate.metadata.shared - aliased.metadata.shared >= 64 * 64 * 2


@pytest.mark.parametrize("stages", [1, 3])
def test_barriers_and_wgmma_in_a_tle_range_loop(stages):
    """A tle.range loop with num_stages: Triton's pipeliner leaves the TMA
    copies on the user's barrier alone (the barrier is the schedule)."""
    c = compile_kernel("ranged_wgmma_matmul_kernel", BM=64, BN=64, BK=64, STAGES=stages)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2
    assert ttgir.count("ttng.init_barrier") == 1  # the user's barrier only
    assert ttgir.count("ttng.warp_group_dot ") == 1
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 1


def test_pipe_and_mbarrier_in_one_warp_specialize():
    c = compile_kernel("pipe_and_mbarrier_kernel", BLOCK=256)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert "tle.pipe" not in ttgir and "tle.barrier" not in ttgir
    # Two pipe rings of two barriers, the user's barrier.
    assert ttgir.count("ttng.init_barrier") == 5
    assert ptx_count(c, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+64") >= 1


# --- errors at the user's line --------------------------------------------------------------------------


def _compile_src(fn, sig, target=TARGET, **constexprs):
    return tle.compile(fn, signature=sig, constexprs=constexprs, target=target)


@triton.jit
def _bad_index(dst):
    bars = tle.gpu.alloc_barriers(2)
    tle.gpu.barrier_arrive(bars[2])


@triton.jit
def _both_counts(dst):
    bars = tle.gpu.alloc_barriers(2)
    tle.gpu.barrier_arrive(bars[0], arrive_count=2, count=2)


@triton.jit
def _arrive_counts(dst, FORM: tl.constexpr):
    bars = tle.gpu.alloc_barriers(2, arrive_count=3)
    if FORM == 0:
        tle.gpu.barrier_arrive(bars[0], 3)  # FlagTree's positional form: arrive_count second
    elif FORM == 1:
        tle.gpu.barrier_arrive(bars[0], arrive_count=3, phaseIdx=0)
    else:
        tle.gpu.barrier_arrive(bars[0], count=3)


@pytest.mark.parametrize("form", [0, 1, 2])
def test_barrier_arrive_count_forms(form):
    """FlagTree's ``barrier_arrive(barr, arrive_count=1, phaseIdx=None)``:
    the second positional argument is the arrive count, also by keyword;
    ``count=`` is the same. Each arrives 3 times on the barrier."""
    c = _compile_src(_arrive_counts, {"dst": "*fp32"}, FORM=form)
    assert ptx_count(c, r"mbarrier\.arrive(\.release\.cta)?\.shared::cta\.b64\s+_,\s*\[[^\]]+\],\s*3;") == 1


@triton.jit
def _unindexed(dst):
    bars = tle.gpu.alloc_barriers(2)
    tle.gpu.barrier_wait(bars, 0)


@triton.jit
def _bad_init(dst):
    bars = tle.gpu.alloc_barriers(2, init="full")


@triton.jit
def _bad_count(dst):
    bars = tle.gpu.alloc_barriers(2, arrive_count=0)


@triton.jit
def _bad_named(dst):
    tle.gpu.barrier_wait(tle.gpu.named_barrier(0, 128))


@triton.jit
def _bad_named_threads(dst):
    tle.gpu.barrier_wait(tle.gpu.named_barrier(3, 100))


@triton.jit
def _expect_tx_sm80(dst):
    bars = tle.gpu.alloc_barriers(1)
    tle.gpu.barrier_arrive(bars[0], expect_tx=128)


@triton.jit
def _store_with_barrier(desc):
    buf = tle.gpu.alloc([64, 64], dtype=tl.float16)
    bars = tle.gpu.alloc_barriers(1)
    tle.gpu.copy(buf, desc, [64, 64], [0, 0], barrier=bars[0])


@triton.jit
def _wrong_expect_bytes(desc):
    buf = tle.gpu.alloc([64, 64], dtype=tl.float16)
    bars = tle.gpu.alloc_barriers(1, expect_bytes=4096)
    tle.gpu.copy(desc, buf, [64, 64], [0, 0], barrier=bars[0])
    tle.gpu.barrier_wait(bars[0], 0)


@triton.jit
def _named_id_of_triton(dst):
    tle.gpu.warp_specialize([(_named_default, (dst,)), (_named_worker, (dst,))], worker_num_warps=[4])


@triton.jit
def _named_default(dst):
    tle.gpu.barrier_wait(tle.gpu.named_barrier(2, 256))


@triton.jit
def _named_worker(dst):
    tle.gpu.barrier_arrive(tle.gpu.named_barrier(2, 256))


@triton.jit
def _wgmma_register_b(x):
    # a may be a register tile (FA3's P @ V, test_prims.py); b may not.
    a = tle.gpu.alloc([64, 64], dtype=tl.float16)
    acc = tle.gpu.wgmma(a, tl.load(x + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]))


@triton.jit
def _wgmma_bad_shape(x):
    a = tle.gpu.alloc([32, 64], dtype=tl.float16)
    acc = tle.gpu.wgmma(a, a)


@triton.jit
def _wgmma_sm80(x):
    a = tle.gpu.alloc([64, 64], dtype=tl.float16)
    acc = tle.gpu.wgmma(a, a)


@triton.jit
def _wgmma_wait_pendings(x):
    a = tle.gpu.alloc([64, 64], dtype=tl.float16)
    acc = tle.gpu.wgmma_wait(9, tle.gpu.wgmma(a, a))


@triton.jit
def _store_wait_pendings(x):
    tle.gpu.tma_store_wait(64)


@triton.jit
def _cp_async_out_of_buffer(x):
    buf = tle.gpu.alloc([64], dtype=tl.float32)
    bars = tle.gpu.alloc_barriers(1)
    tle.gpu.copy(buf, x + tl.arange(0, 64), [64], barrier=bars[0])


@triton.jit
def _wgmma_in_a_one_warp_partition(x):
    a = tle.gpu.alloc([64, 64], dtype=tl.float16)
    tle.gpu.warp_specialize([(_mma_default, (a,)), (_mma_worker, (a, x))], worker_num_warps=[1])


@triton.jit
def _mma_default(a):
    pass


@triton.jit
def _mma_worker(a, x):
    acc = tle.gpu.wgmma(a, a, is_async=False)
    tl.store(x + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], acc)


@triton.jit
def _alias_too_big(x):
    p = tle.gpu.alloc([64, 64], dtype=tl.float16)
    o = tle.gpu.alloc([64, 64], dtype=tl.float32, alias=p)


@triton.jit
def _view_order(x):
    k = tle.gpu.alloc([64, 64], dtype=tl.float16)
    kt = tle.gpu.memdesc_wgmma_view(k, order=(0, 0))


@pytest.mark.parametrize("fn,sig,message,target", [
    (_alias_too_big, {"x": "*fp16"}, "a [64, 64] x fp32 buffer (16384 bytes) does not fit in the aliased", TARGET),
    (_view_order, {"x": "*fp16"}, "memdesc_wgmma_view order must be (1, 0) or (0, 1)", TARGET),
    (_wgmma_register_b, {"x": "*fp16"}, "wgmma b must be a shared-memory buffer", TARGET),
    (_wgmma_bad_shape, {"x": "*fp16"}, "shapes do not multiply: a [32, 64] @ b [32, 64]", TARGET),
    (_wgmma_sm80, {"x": "*fp16"}, "tle.gpu.wgmma (wgmma.mma_async) needs sm_90", "sm_80"),
    (_wgmma_wait_pendings, {"x": "*fp16"}, "wgmma_wait pendings must be a compile-time int from 0 to 7", TARGET),
    (_store_wait_pendings, {"x": "*fp16"}, "tma_store_wait pendings must be a compile-time int from 0 to 63", TARGET),
    (_cp_async_out_of_buffer, {"x": "*fp32"}, "barrier= is for a copy into a buffer", TARGET),
    (_wgmma_in_a_one_warp_partition, {"x": "*fp32"}, "a wgmma needs whole warpgroups", TARGET),
    (_bad_index, {"dst": "*fp32"}, "barrier index 2 is out of range for 2 barriers", TARGET),
    (_unindexed, {"dst": "*fp32"}, "takes one barrier: index the 2 barriers", TARGET),
    (_both_counts, {"dst": "*fp32"}, "takes arrive_count or count (the same thing), not both", TARGET),
    (_bad_init, {"dst": "*fp32"}, "init must be tle.gpu.READY or tle.gpu.PENDING", TARGET),
    (_bad_count, {"dst": "*fp32"}, "arrive_count must be a compile-time int from 1 to 1048575", TARGET),
    (_bad_named, {"dst": "*fp32"}, "named_barrier id must be a compile-time int from 1 to 15", TARGET),
    (_bad_named_threads, {"dst": "*fp32"}, "num_threads must be a compile-time multiple of 32", TARGET),
    (_expect_tx_sm80, {"dst": "*fp32"}, "expect_tx (transaction bytes) needs sm_90", "sm_80"),
    (_store_with_barrier, {"desc": "tensordesc<fp16[64,64]>"}, "an asynchronous TMA store is is_async=True", TARGET),
    (_wrong_expect_bytes, {"desc": "tensordesc<fp16[64,64]>"},
     "the copy moves 8192 bytes but its barrier was allocated with expect_bytes=4096", TARGET),
    (_named_id_of_triton, {"dst": "*fp32"}, "uses named barrier 2, which Triton's warp specialization uses", TARGET),
])
def test_errors(fn, sig, message, target):
    with pytest.raises(Exception) as info:
        _compile_src(fn, sig, target=target)
    assert message in str(info.value)
