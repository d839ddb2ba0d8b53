"""tle.pipe + tle.gpu.warp_specialize on the CPU: kernels compile to PTX
through TLE's stages as ttg.warp_specialize with mbarrier rings
(docs/warp-specialize.md), and misuse is a clear error."""

import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle
import pipe_kernels as K
from conftest import error_text, ptx_count

TARGET = "sm_90"
CONFIGS = {
    "ring_copy": dict(BLOCK=256, STAGES=2, PRODUCER_WARPS=1),
    "fan_out": dict(BLOCK=128, STAGES=3),
    "stream_sum": dict(BLOCK=128, STAGES=2),
    "one_shot_tile": dict(M=32, N=64),
    "one_shot_before": dict(M=32, N=64),
    "ring_dot": dict(M=64, BN=32, D=64, STAGES=2),
    "ring_sum": dict(BLOCK=256, STAGES=2),
    "ring_dot_result": dict(M=64, BN=32, D=64, STAGES=2),
    "ring_gather": dict(BN=64, W=64, STAGES=2),
    "ring_gather_dot": dict(M=64, BN=32, D=64, STAGES=2),
    "cursor_ring": dict(R=1, BLOCK=128, STAGES=3),
    "field_subsets": dict(BLOCK=128, STAGES=2),
    "slot_pointers": dict(BLOCK=128, STAGES=2, KEEP=48),
    "one_shot_self": dict(M=32, N=64),
    "tma_q_handoff": dict(M=64, D=64),
    "guarded_p": dict(M=64, K=64, D=64),
    "kv_halves": dict(M=64, BN=64, D=64),
}


def code(compiled, stage):
    """A stage's IR without location lines or trailing locations (block
    arguments keep their `loc(...)`: partition headers stay whole)."""
    lines = [l for l in compiled.asm[stage].splitlines() if not l.startswith("#loc")]
    return "\n".join(re.sub(r"\s*loc\(#loc\d*\)$", "", l) for l in lines)


def compile_kernel(name, aligned=False, **overrides):
    """aligned: pointers get tt.divisibility = 16, as Triton's launcher gives
    16-byte aligned tensors (what lets loads and copies vectorize)."""
    fn, sig = K.SIGNATURES[name]
    attrs = {(i,): [["tt.divisibility", 16]] for i, t in enumerate(sig.values()) if t.startswith("*")}
    target = overrides.pop("target", TARGET)
    sig = {**sig, **overrides.pop("signature", {})}
    return tle.compile(fn, signature=sig, constexprs={**CONFIGS[name], **overrides}, target=target, num_warps=4,
                       **({"attrs": attrs} if aligned else {}))


def test_ring_dot_reads_slots_in_place():
    """The consumer's wgmmas read the pipe's slots: the field is allocated in
    the NVMMA layout, the only register->shared copy left is q's, and the
    release (the empty-ring arrive) comes after the last wgmma's wait."""
    c = compile_kernel("ring_dot")
    ttgir = code(c, "ttgir")
    field = re.search(r"(%\S+) = ttg\.local_alloc : \(\) -> !ttg\.memdesc<2x32x64xf16, (#\w+), #smem, mutable>", ttgir)
    assert field, ttgir
    assert re.search(field.group(2) + r" = #ttg\.nvmma_shared<", ttgir)
    copies = re.findall(r"ttg\.local_alloc %\S+ : \(tensor<(\d+x\d+)xf16", ttgir)
    assert copies == ["64x64"], copies  # q only: k is never copied out of its slot
    consumer = ttgir[ttgir.index("ttg.warp_specialize"):ttgir.index("partition0(")]
    dots = [m.start() for m in re.finditer(r"ttng\.warp_group_dot ", consumer)]
    waits = [m.start() for m in re.finditer(r"ttng\.warp_group_dot_wait", consumer)]
    arrive = consumer.index("ttng.arrive_barrier")
    assert len(dots) == 2 and max(waits) < arrive
    assert ptx_count(c, r"wgmma\.mma_async") >= 2
    # The same TTGIR without the pass: k is loaded and copied for the wgmma.
    from tle import _bridge
    pipeline = _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=["triton-tle-forward-pipe-mma-operands"])
    without = tle.run_pipeline(c.asm["triton-ttgir"], pipeline)
    assert sorted(re.findall(r"ttg\.local_alloc %\S+ : \(tensor<(\d+x\d+)xf16", without)) == ["32x64", "64x64"]


def _partition(ttgir, name):
    """The text of one region of the ttg.warp_specialize: "default" or "partition0"."""
    start = ttgir.index("ttg.warp_specialize")
    if name == "default":
        return ttgir[start:ttgir.index("partition0(", start)]
    return ttgir[ttgir.index(name + "(", start):]


def test_async_copy_fills_slots_without_registers():
    """tle.gpu.copy(is_async=True): the producer's tile goes to the slot by
    cp.async (16 bytes a copy), no register staging; its commit arrives on
    the ready barrier as the copies land (cp.async.mbarrier.arrive.noinc, then the
    partition's barrier and the elected arrive); the consumer fences the
    async proxy after its wait, before the wgmmas read the slot."""
    c = compile_kernel("ring_dot", aligned=True, ASYNC=True)
    ttgir = code(c, "ttgir")
    producer = _partition(ttgir, "partition0")
    assert "tt.load" not in producer and "ttg.local_store" not in producer, producer
    assert len(re.findall(r"ttg\.async_copy_global_to_local", producer)) == 1, producer
    commit = re.search(r"ttng\.async_copy_mbarrier_arrive .*\n\s*gpu\.barrier\n\s*ttng\.fence_async_shared"
                       r".*\n.*ttg\.memdesc_index.*\n\s*ttng\.arrive_barrier", producer)
    assert commit, producer
    consumer = _partition(ttgir, "default")
    assert re.search(r"ttng\.wait_barrier .*\n\s*ttng\.fence_async_shared", consumer), consumer
    ptx = c.asm["ptx"]
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global \[.*\], \[.*\], 0x10") >= 1, ptx
    # Each of the producer's 128 threads arrives once its copies land (.noinc),
    # besides the elected arrive: the ready barriers expect 129 arrivals.
    assert ptx_count(c, r"^cp\.async\.mbarrier\.arrive\.noinc\.shared\.b64") == 1
    assert ptx_count(c, r"^cp\.async\.mbarrier\.arrive\.shared") == 0
    assert sorted(re.findall(r"mbarrier\.init\.shared::cta\.b64 \[%r\d+\], (\d+);", ptx)) == ["1", "1", "129", "129"], ptx
    assert ptx_count(c, r"^cp\.async\.wait_(group|all)") == 0  # the writer never waits for its copies
    # The same kernel filling through registers: no cp.async at all.
    sync = compile_kernel("ring_dot", aligned=True)
    assert ptx_count(sync, r"^cp\.async") == 0
    assert "ttg.async_copy_global_to_local" not in code(sync, "ttgir")


def test_async_copy_ring_of_scalars_tiles():
    """A 1-D fp32 tile from a one-warp producer: vector cp.async copies
    (8 bytes: the tile's base, pid * n_tiles * 256 floats, is known 8-byte
    aligned only).
    Without known alignment (no tt.divisibility) the loads cannot be vectors
    of 4 bytes or more for cp.async: the fill stays a synchronous load and
    store, still correct."""
    c = compile_kernel("ring_copy", aligned=True, ASYNC=True, STAGES=3)
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global \[.*\], \[.*\], 0x8") >= 1, c.asm["ptx"]
    assert ptx_count(c, r"^cp\.async\.mbarrier\.arrive\.noinc\.shared\.b64") == 1
    # One warp writes: 32 arrivals a slot plus the elected one (ready), the reader's one (empty).
    assert sorted(re.findall(r"mbarrier\.init\.shared::cta\.b64 \[%r\d+\], (\d+);", c.asm["ptx"])) == ["1"] * 3 + ["33"] * 3
    unaligned = compile_kernel("ring_dot", ASYNC=True)
    assert ptx_count(unaligned, r"^cp\.async") == 0
    assert "ttg.local_store" in _partition(code(unaligned, "ttgir"), "partition0")


def test_close_of_an_async_filled_pipe_arrives_like_a_commit():
    """stream_sum with cp.async fills: the ready barriers expect the one-warp
    writer's 32 .noinc arrivals plus the elected one, and the close, a commit
    without data, issues them too (two cp.async.mbarrier.arrive.noinc: the
    commit's and the close's), or the reader would wait for the closed slot
    forever."""
    c = compile_kernel("stream_sum", aligned=True, ASYNC=True)
    ptx = c.asm["ptx"]
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global") >= 1, ptx
    assert ptx_count(c, r"^cp\.async\.mbarrier\.arrive\.noinc\.shared\.b64") == 2, ptx
    assert sorted(re.findall(r"mbarrier\.init\.shared::cta\.b64 \[%r\d+\], (\d+);", ptx)) == ["1", "1", "33", "33"], ptx


def test_tma_gather_fills_slots_on_the_ready_barrier():
    """tle.gpu.copy from a tensor descriptor: one ttng.async_tma_gather
    straight into the slot on its ready barrier (TritonGPU's scratch buffer,
    barrier and wait are gone: the writer waits only for a free slot), the
    commit an arrive.expect_tx of the slot's 64 x 64 fp16 = 8192 bytes, the
    field in the descriptor's NVMMA layout; on sm_90 each gather4 became four
    one-row tile copies 128 bytes apart."""
    c = compile_kernel("ring_gather", aligned=True)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttng.async_tma_gather") == 1, ttgir
    assert re.findall(r"ttng\.barrier_expect %\S+, (\d+),", ttgir) == ["8192"], ttgir
    assert ttgir.count("ttng.wait_barrier") == 2, ttgir  # the writer's empty wait, the reader's ready wait
    assert re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<2x64x64xf16, (#\w+)", ttgir), ttgir
    field_enc = re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<2x64x64xf16, (#\w+)", ttgir).group(1)
    assert re.search(field_enc + r" = #ttg\.nvmma_shared<\{swizzlingByteWidth = 128", ttgir), ttgir
    ptx = c.asm["ptx"]
    assert "gather4" not in ptx
    copies = re.findall(r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes "
                        r"\[%r\d+(\+\d+)?\]", ptx)
    assert copies and len(copies) % 4 == 0, ptx
    assert sorted(set(copies)) == ["", "+128", "+256", "+384"], copies
    assert re.findall(r"mbarrier\.arrive\.expect_tx\.shared\.b64 _, \[%r\d+\], (\d+);", ptx) == ["8192"], ptx
    assert sorted(re.findall(r"mbarrier\.init\.shared::cta\.b64 \[%r\d+\], (\d+);", ptx)) == ["1"] * 4, ptx


def test_tma_gather_of_wider_rows_and_wgmma_readers():
    """A [1, 128] fp16 block is two 64-column TMA boxes (rows of 128 bytes);
    a field read in place by wgmma keeps the NVMMA layout both agree on."""
    c = compile_kernel("ring_gather", aligned=True, W=128, signature={"table": "tensordesc<fp16[1,128]>"})
    assert re.findall(r"mbarrier\.arrive\.expect_tx\.shared\.b64 _, \[%r\d+\], (\d+);", c.asm["ptx"]) == ["16384"]
    d = compile_kernel("ring_gather_dot", aligned=True)
    assert ptx_count(d, r"wgmma\.mma_async") > 0
    assert ptx_count(d, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile") > 0
    assert "gather4" not in d.asm["ptx"]


def test_tma_gather_stays_a_gather4_on_sm_100():
    """sm_100 has gather4: the llir finish leaves Triton's gather alone."""
    c = compile_kernel("ring_gather", aligned=True, target="cuda:100")
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.tile::gather4") > 0, c.asm["ptx"]


def test_tma_gather_rows_of_64_bytes_are_an_error_on_sm_90():
    with pytest.raises(tle.MLIRError, match="a row of the descriptor's box must be a multiple of 128 bytes, got 64"):
        compile_kernel("ring_gather", W=32, signature={"table": "tensordesc<fp16[1,32]>"})


@triton.jit
def _tma_misuse(table, idx, MODE: tl.constexpr):
    p = tle.pipe(1, name="p", readers="r", x=([64, 64], tl.float16))
    tle.gpu.warp_specialize([(_tma_misuse_reader, (p.reader("r"), )),
                             (_tma_misuse_writer, (p.writer(), table, idx, MODE))],
                            worker_num_warps=[1], worker_num_regs=[40])


@triton.jit
def _tma_misuse_reader(r):
    s, closed = r.wait()
    r.release(s)


@triton.jit
def _tma_misuse_writer(w, table, idx, MODE: tl.constexpr):
    rows = tl.load(idx + tl.arange(0, 64))
    s = w.acquire()
    if MODE == "sync":
        tle.gpu.copy(table, s["x"], [64, 64], offsets=[rows, 0])
    elif MODE == "no_offsets":
        tle.gpu.copy(table, s["x"], [64, 64], is_async=True)
    elif MODE == "shape":
        tle.gpu.copy(table, s["x"], [64, 32], offsets=[rows, 0], is_async=True)
    elif MODE == "scalar_rows":
        tle.gpu.copy(table, s["x"], [64, 64], offsets=[0, 0], is_async=True)
    elif MODE == "barrier":
        tle.gpu.copy(table, s["x"], [64, 64], offsets=[rows, 0], barrier=s, is_async=True)
    elif MODE == "pointers":
        tle.gpu.copy(idx + tl.arange(0, 64), s["x"], [64], offsets=[rows, 0])
    w.commit(s)


@pytest.mark.parametrize("mode,message", [
    ("sync", "is a TMA row gather into a pipe slot .* pass is_async=True"),
    ("no_offsets", r"needs offsets=\[rows, col\]"),
    ("shape", r"shape \[64, 32\] must be \[len\(rows\), W\] = \[64, 64\]"),
    ("scalar_rows", "offsets\\[0\\] must be a 1-D tensor of int32 row indices"),
    ("barrier", "barrier= is not supported"),
    ("pointers", "offsets= is for a tensor-descriptor source"),
])
def test_tma_gather_misuse_is_a_clear_error(mode, message):
    sig = {"table": "tensordesc<fp16[1,64]>", "idx": "*i32"}
    with pytest.raises(CompilationError) as info:
        tle.compile(_tma_misuse, signature=sig, constexprs={"MODE": mode}, target=TARGET, num_warps=4)
    texts, cause = [], info.value
    while cause is not None:
        texts.append(str(cause))
        cause = cause.__cause__ or cause.__context__
    assert any(re.search(message, t) for t in texts), texts


def test_ring_copy_lowers_to_warp_specialize_with_mbarrier_rings():
    c = compile_kernel("ring_copy", STAGES=3)
    ttgir = code(c, "ttgir")
    assert "tle." not in ttgir.replace("tle.smem", "")
    assert "scf.if" not in ttgir  # the partition markers are gone
    ws = re.search(r"ttg\.warp_specialize\((.*)\) attributes \{requestedRegisters = array<i32: 40>\}", ttgir)
    assert ws, ttgir
    assert re.search(r"partition0\(.*\) num_warps\(1\)", ttgir)
    # Two rings of 3 slots, initialized before and invalidated after.
    assert len(re.findall(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<3x1xi64", ttgir)) == 2
    assert ttgir.count("ttng.init_barrier") == 6 and ttgir.count("ttng.inval_barrier") == 6
    assert ttgir.index("ttng.init_barrier") < ttgir.index("ttg.warp_specialize")
    assert ttgir.rindex("ttng.inval_barrier") > ttgir.index("ttg.warp_return")
    # The producer waits on `empty` and arrives on `ready`, the consumer the reverse.
    assert ttgir.count("ttng.wait_barrier") == 2 and ttgir.count("ttng.arrive_barrier") == 2
    # The 1-warp producer's layouts are refit to one warp.
    producer = ttgir[ttgir.index("partition0("):]
    assert "warpsPerCTA = [1]" in ttgir
    assert re.search(r"tensor<256x!tt\.ptr<f32>, #blocked\d*>", producer)
    # Slot counters ride in the loops: phase from (count / 3) & 1, slot count % 3.
    assert "arith.remui" in ttgir and "arith.divui" in ttgir
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 2
    assert ptx_count(c, r"mbarrier\.arrive") == 2
    assert ptx_count(c, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40") >= 1


def test_power_of_two_capacity_uses_masks():
    ttgir = code(compile_kernel("ring_copy", STAGES=4), "ttgir")
    assert "arith.remui" not in ttgir and "arith.shrui" in ttgir


def test_multi_warp_partition_barrier_before_arrive():
    # A 4-warp producer must sync its warps before one thread arrives.
    ttgir = code(compile_kernel("ring_copy", PRODUCER_WARPS=4), "ttgir")
    producer = ttgir[ttgir.index("partition0("):]
    assert re.search(r"gpu\.barrier\s*\n\s*ttng\.fence_async_shared.*\n.*ttg\.memdesc_index.*\n.*ttng\.arrive_barrier",
                     producer), producer
    # A 1-warp producer needs no barrier: Triton's arrive is one elected thread after a warp sync.
    ttgir1 = code(compile_kernel("ring_copy", PRODUCER_WARPS=1), "ttgir")
    producer1 = ttgir1[ttgir1.index("partition0("):]
    assert not re.search(r"gpu\.barrier\s*\n\s*ttng\.fence_async_shared", producer1)


def test_two_readers_count_in_the_empty_barrier():
    c = compile_kernel("fan_out")
    ttgir = code(c, "ttgir")
    assert re.search(r"ttng\.init_barrier %\w+, 2 :", ttgir)  # empty: both readers release
    assert re.search(r"ttng\.init_barrier %\w+, 1 :", ttgir)  # ready: the writer commits
    assert re.search(r"partition0\(.*\) num_warps\(2\)", ttgir) and re.search(r"partition1\(.*\) num_warps\(4\)",
                                                                             ttgir)
    assert ptx_count(c, r"mbarrier\.try_wait\.parity") == 3


def test_close_uses_a_flag_per_slot():
    ttgir = code(compile_kernel("stream_sum"), "ttgir")
    assert re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<2x1xi32", ttgir)
    assert "tt.unsplat" in ttgir
    # No worker_num_regs: no requestedRegisters.
    assert "requestedRegisters" not in ttgir


def test_one_shot_has_no_empty_ring():
    ttgir = code(compile_kernel("one_shot_tile"), "ttgir")
    assert len(re.findall(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<1x1xi64", ttgir)) == 1
    assert ttgir.count("ttng.wait_barrier") == 1


def test_one_shot_writer_before_warp_specialize():
    """The kernel body fills the slot and commits (barrier, fence, one arrive)
    before the warp_specialize; each reader partition waits."""
    compiled = compile_kernel("one_shot_before")
    ttgir = code(compiled, "ttgir")
    head, ws = ttgir.split("ttg.warp_specialize(", 1)
    assert re.search(r"ttg\.local_store[^\n]*\n\s*gpu\.barrier\n\s*ttng\.fence_async_shared[^\n]*\n"
                     r"(?:.*\n)?\s*ttng\.arrive_barrier", head), head
    assert "ttng.wait_barrier" not in head
    assert ws.count("ttng.wait_barrier") == 2
    assert ptx_count(compiled, r"^@?%?\w* *mbarrier\.arrive") >= 1


def test_one_shot_pipe_read_where_written():
    """A one-shot pipe's writer never waits, so the partition that fills it
    may read it too (FlagTree's FlashMLA prefill): in the default region the
    commit's arrive comes before its own reader's wait."""
    c = compile_kernel("one_shot_self")
    ttgir = code(c, "ttgir")
    default = ttgir.split("default {", 1)[1].split("partition0(", 1)[0]
    assert default.index("ttng.arrive_barrier") < default.index("ttng.wait_barrier"), default
    assert ptx_count(c, r"mbarrier\.try_wait") >= 2


def test_tma_copies_move_slots_in_place():
    """tma_q_handoff (FlagTree's sparse-MLA Q): the slots filled and stored
    out by synchronous TMA copies take the descriptors' NVMMA layout (not
    the transposed one Triton's wgmma copies asked for), and the TMA copies
    read and write them in place: no staging buffer, no ttg.local_alloc of a
    tensor (the wgmmas read the slots) and no register round trip of the
    tiles."""
    c = compile_kernel("tma_q_handoff")
    ttgir = code(c, "ttgir")
    layouts = dict(re.findall(r"^(#\w+) = (#ttg\.nvmma_shared<[^>]*>)", ttgir, re.M))
    fields = re.findall(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<1x64x64xf16, (#\w+)", ttgir)
    assert len(fields) == 2 and all("transposed = false" in layouts[f] for f in fields), (fields, layouts)
    # Only the two fields and the barriers are allocated without a source
    # (no staging tile), and the only tiles copied from registers are k's
    # (the wgmma's B operand, loaded from global memory), one per reader.
    assert not re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<64x64xf16", ttgir), ttgir
    assert len(re.findall(r"ttg\.local_alloc %kt\S* : \(tensor<64x64xf16", ttgir)) == 2, ttgir
    assert len(re.findall(r"ttg\.local_alloc %\S+ : \(tensor<", ttgir)) == 2, ttgir
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2
    assert ttgir.count("ttng.async_tma_copy_local_to_global") == 2
    # The two fields and the two k copies (8 KiB each), and the barriers.
    assert c.metadata.shared <= 4 * 64 * 64 * 2 + 64, c.metadata.shared


def test_wgmma_reads_a_buffer_its_pipe_guards():
    """guarded_p (FlagTree's sparse-MLA P tile): p_buf, a plain buffer the
    writer stores between acquire and commit of a capacity-1 pipe and the
    reader loads between wait and release, is the reader's wgmma A operand
    itself (no register->shared copy of it), and the release (the empty
    ring's arrive) comes after the wgmma's pendings-0 wait."""
    c = compile_kernel("guarded_p")
    ttgir = code(c, "ttgir")
    dot = re.search(r"ttng\.warp_group_dot (%p_buf\w*), ", ttgir)
    assert dot, ttgir
    copies = re.findall(r"ttg\.local_alloc %\S+ : \(tensor<64x64xf16", ttgir)
    assert len(copies) == 1, copies  # v's, loaded from global memory
    reader = ttgir.split("default {", 1)[1].split("partition0(", 1)[0]
    body = reader[reader.index("scf.for"):]
    wait = body.index("ttng.warp_group_dot_wait")
    assert "ttng.arrive_barrier" not in body[:wait] and "ttng.arrive_barrier" in body[wait:], body


def test_wgmma_reads_blocks_of_a_shared_field():
    """kv_halves (FlagTree's FlashMLA prefill KV): one buffer, a field of
    two pipes that each guard a column half, written and read through
    rectangular local pointers. The accesses become whole-block accesses of
    ttg.memdesc_subslice views (the masked stores read-modify-writes), so
    no pointer into shared memory is left (no TLE region); the buffer takes
    the NVMMA layout and the wgmmas read the halves in place: the only
    register->shared copies left are q's two halves, and the buffer is the
    only 64 x 128 allocation."""
    c = compile_kernel("kv_halves")
    ttgir = code(c, "ttgir")
    assert "tle.shared" not in ttgir and "tle.smem.base" not in ttgir, ttgir
    assert re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<1x64x128xf16, #shared\d*, #smem, mutable>", ttgir)
    blocks = re.findall(r"ttg\.memdesc_subslice %\S+\[0, (\d+)\]", ttgir)
    assert sorted(set(blocks)) == ["0", "64"] and len(blocks) >= 4, blocks
    copies = re.findall(r"ttg\.local_alloc %\S+ : \(tensor<64x64xf16", ttgir)
    assert len(copies) == 2, copies  # q_lo, q_hi
    dots = re.findall(r"ttng\.warp_group_dot ", ttgir)
    assert len(dots) == 4, dots
    # The masked stores: a read of the block, a select, a store of it.
    assert ttgir.count("arith.select") >= 2
    # Shared memory: the buffer (16 KiB) and q's two copies (8 KiB each),
    # plus barriers and scratch; copies of the halves would add 16 KiB.
    assert c.metadata.shared <= 64 * 128 * 2 + 2 * 64 * 64 * 2 + 1024, c.metadata.shared


def test_local_pointers_into_slots():
    """FlagTree's local_ptr(slot.field, ...): field "k", only ever accessed
    through full views (a masked store among them), stays a shared-memory
    buffer read and written by ttg.local_load / local_store (the masked store
    a read-modify-write: select of the old tile); field "g", scattered
    through indexed pointers, is a pointer buffer in TLE's region, its slot
    i at i * BLOCK elements."""
    compiled = compile_kernel("slot_pointers")
    ttgir = code(compiled, "ttgir")
    assert re.search(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<2x128xf32", ttgir), ttgir
    assert "arith.select" in ttgir
    assert re.search(r"tle\.shared = 1024 : i32", ttgir), ttgir
    assert "tle.smem.base 0;" in ttgir
    assert "tle.buffer_slot" not in ttgir and "tle.local_pointers" not in ttgir
    assert ptx_count(compiled, r"st\.shared") >= 1 and ptx_count(compiled, r"ld\.shared") >= 1


def warp_specialize_op(ttgir):
    """(results name, number of results, the op's text, the text after it) of the one ttg.warp_specialize."""
    head = re.search(r"(?:(%[\w.]+)(?::(\d+))? = )?ttg\.warp_specialize\(", ttgir)
    assert head, ttgir
    end = re.compile(r"^\s*\} : \(.*\) -> .*$", re.M).search(ttgir, head.end())
    assert end, ttgir
    count = int(head.group(2) or 1) if head.group(1) else 0
    return head.group(1), count, ttgir[head.start():end.end()], ttgir[end.end():]


def test_default_partition_results_are_used_after_warp_specialize():
    """tle.gpu.warp_specialize returns what the default partition returns: a
    tensor, a scalar f32 and a scalar i32 come out of ttg.warp_specialize
    (ttg.warp_yield) and the stores after it use them."""
    c = compile_kernel("ring_sum")
    ttgir = code(c, "ttgir")
    assert "scf.if" not in ttgir and "ub.poison" not in ttgir
    name, count, op, after = warp_specialize_op(ttgir)
    assert count == 3, op
    assert re.search(r"ttg\.warp_yield %\S+, %\S+, %\S+ : tensor<256xf32, #\w+>, f32, i32", op), op
    assert re.search(r"\} : \(.*\) -> \(tensor<256xf32, #\w+>, f32, i32\)", op), op
    assert "tt.store" not in op  # the epilogue is not in a partition
    stores = re.findall(r"tt\.store %\S+, (%\S+)", after)
    assert len(stores) == 3, after
    assert f"{name}#1" in stores and f"{name}#2" in stores, stores
    # The barriers are invalidated after the partitions, before the epilogue's stores.
    assert after.index("ttng.inval_barrier") < after.index("tt.store")
    assert ptx_count(c, r"st\.global") >= 3 and ptx_count(c, r"mbarrier\.try_wait\.parity") == 2


def test_epilogue_after_warp_specialize_reuses_slot_memory():
    """With the store inside the default partition, the accumulator's
    convert_layout scratch is live with the pipe's slots (and q's wgmma copy);
    after ttg.warp_specialize they are dead and Triton's allocator puts the
    scratch over them: the kernel needs less shared memory."""
    inside = compile_kernel("ring_dot")
    after = compile_kernel("ring_dot_result")
    name, count, op, epilogue = warp_specialize_op(code(after, "ttgir"))
    assert count == 1
    assert re.search(r"ttg\.warp_yield %\S+ : tensor<64x64xf32, #mma\d*>", op), op
    convert = re.search(r"ttg\.convert_layout " + re.escape(name) + r" : tensor<64x64xf32, #mma\d*> -> ", epilogue)
    assert convert, epilogue
    assert "ttg.convert_layout" in code(inside, "ttgir").split("ttg.warp_yield")[0].split("ttg.warp_specialize")[1]
    slots = 2 * 32 * 64 * 2
    assert after.metadata.shared + slots <= inside.metadata.shared, (after.metadata.shared, inside.metadata.shared)
    # The wgmmas still read the slots in place (triton-tle-forward-pipe-mma-operands): q is the only copy.
    assert re.findall(r"ttg\.local_alloc %\S+ : \(tensor<(\d+x\d+)xf16", op) == ["64x64"], op
    assert ptx_count(after, r"wgmma\.mma_async") >= 2


# --- misuse -------------------------------------------------------------------


@triton.jit
def _touch(w, x):
    slot = w.acquire()
    tle.gpu.local_store(slot["x"], tl.load(x + tl.arange(0, 64)))
    w.commit(slot)


@triton.jit
def _drain(r, x):
    slot, closed = r.wait()
    tl.store(x + tl.arange(0, 64), tle.gpu.local_load(slot["x"]))
    r.release(slot)


@triton.jit
def _write_and_read(w, r, x):
    _touch(w, x)
    _drain(r, x)


@triton.jit
def _idle(x):
    pass


@triton.jit
def _release_writer_slot(w, r, x):
    slot = w.acquire()
    r.release(slot)


@triton.jit
def writer_in_reader_partition(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_idle, (x, )), (_write_and_read, (p.writer(), p.reader(), x))], worker_num_warps=[1])


@triton.jit
def release_of_writer_slot(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_idle, (x, )), (_release_writer_slot, (p.writer(), p.reader(), x))],
                            worker_num_warps=[1])


@triton.jit
def endpoint_outside_partitions(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    _touch(p.writer(), x)


@triton.jit
def writer_before_not_one_shot(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    _touch(p.writer(), x)
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_idle, (x,))], worker_num_warps=[1])


@triton.jit
def stage_count_mismatch(x):
    p = tle.pipe(3, name="p", readers="r", x=tle.gpu.alloc([2, 64], tl.float32))


@triton.jit
def close_one_shot(x):
    p = tle.pipe(2, name="p", readers="r", one_shot=True, x=([64], tl.float32))
    p.writer().close()


@triton.jit
def unknown_reader(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    r = p.reader("s")


@triton.jit
def warps_mismatch(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch, (p.writer(), x))], worker_num_warps=[1, 2])


@triton.jit
def bad_regs(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch, (p.writer(), x))], worker_num_warps=[1],
                            worker_num_regs=[20])


@triton.jit
def _drain_and_return(r, x):
    _drain(r, x)
    return r


@triton.jit
def _touch_and_return(w, x):
    _touch(w, x)
    return tl.load(x)


@triton.jit
def default_returns_endpoint(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain_and_return, (p.reader(), x)), (_touch, (p.writer(), x))], worker_num_warps=[1])


@triton.jit
def worker_returns_value(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch_and_return, (p.writer(), x))], worker_num_warps=[1])


@triton.jit
def _async_into_plain_buffer(w, x):
    buf = tle.gpu.alloc([64], dtype=tl.float32, scope=tle.gpu.smem)
    tle.gpu.copy(x + tl.arange(0, 64), buf, [64], is_async=True)
    slot = w.acquire()
    tle.gpu.local_store(slot["x"], tle.gpu.local_load(buf))
    w.commit(slot)


@triton.jit
def async_copy_into_plain_buffer(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_async_into_plain_buffer, (p.writer(), x))],
                            worker_num_warps=[1])


@triton.jit
def _async_into_reader_slot(r, x):
    slot, closed = r.wait()
    tle.gpu.copy(x + tl.arange(0, 64), slot["x"], [64], is_async=True)
    r.release(slot)


@triton.jit
def async_copy_into_reader_slot(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_async_into_reader_slot, (p.reader(), x)), (_touch, (p.writer(), x))],
                            worker_num_warps=[1])


@triton.jit
def async_copy_out_of_buffer(x):
    buf = tle.gpu.alloc([64], dtype=tl.float32, scope=tle.gpu.smem)
    tle.gpu.copy(buf, x + tl.arange(0, 64), [64], is_async=True)


@triton.jit
def async_copy_flag_not_constant(x):
    buf = tle.gpu.alloc([64], dtype=tl.float32, scope=tle.gpu.smem)
    tle.gpu.copy(x + tl.arange(0, 64), buf, [64], is_async=tl.program_id(0) == 0)


@triton.jit
def _drain_named(r, x, FIELD: tl.constexpr, STORE: tl.constexpr):
    slot, closed = r.wait()
    if STORE:
        tl.store(x + tl.arange(0, 64), tle.gpu.local_load(slot[FIELD]))
    r.release(slot)


@triton.jit
def constexpr_partition_args(x, FIELD: tl.constexpr, STORE: tl.constexpr):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain_named, (p.reader(), x, FIELD, STORE)), (_touch, (p.writer(), x))],
                            worker_num_warps=[1])


@pytest.mark.parametrize("store", [True, False])
def test_partition_args_may_be_constexpr_strings_and_bools(store):
    """A partition's arguments pass through as a call's would: a constexpr
    string (a pipe field name) and a bool reach the function as constexprs
    (Triton's recursive unwrap used to fail on the string)."""
    c = tle.compile(constexpr_partition_args, signature={"x": "*fp32"}, constexprs={"FIELD": "x", "STORE": store},
                    target=TARGET, num_warps=4)
    default = _partition(code(c, "ttgir"), "default")
    assert ("tt.store" in default) == store, default


@triton.jit
def _touch_at(w, x, AT: tl.constexpr):
    slot = w.acquire(w.cursor(AT))
    tle.gpu.local_store(slot["x"], tl.load(x + tl.arange(0, 64)))
    w.commit(slot)


@triton.jit
def _touch_at_then_in_order(w, x):
    slot = w.acquire(w.cursor(0))
    tle.gpu.local_store(slot.x, tl.load(x + tl.arange(0, 64)))
    w.commit(w.cursor(0))
    slot = w.acquire()
    w.commit(slot)


@triton.jit
def cursor_mixed_with_ring_order(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch_at_then_in_order, (p.writer(), x))],
                            worker_num_warps=[1])


@triton.jit
def _touch_with_foreign_cursor(w, c, x):
    slot = w.acquire(c)
    w.commit(slot)


@triton.jit
def cursor_of_another_ring(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    q = tle.pipe(3, name="q", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch_with_foreign_cursor, (p.writer(), q.cursor(0), x))],
                            worker_num_warps=[1])


@triton.jit
def _touch_float_position(w, x):
    slot = w.acquire(1.5)
    w.commit(slot)


@triton.jit
def cursor_position_not_an_integer(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch_float_position, (p.writer(), x))],
                            worker_num_warps=[1])


@triton.jit
def cursor_negative_iteration(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch_at, (p.writer(), x, -1))], worker_num_warps=[1])


@triton.jit
def _drain_unknown_attribute(r, x):
    slot, closed = r.wait()
    tl.store(x + tl.arange(0, 64), tle.gpu.local_load(slot.y))
    r.release(slot)


@triton.jit
def slot_attribute_not_a_field(x):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    tle.gpu.warp_specialize([(_drain_unknown_attribute, (p.reader(), x)), (_touch, (p.writer(), x))],
                            worker_num_warps=[1])


@triton.jit
def _read_field(r, x, FIELD: tl.constexpr):
    slot, closed = r.wait()
    tl.store(x + tl.arange(0, 64), tle.gpu.local_load(slot[FIELD]))
    r.release(slot)


@triton.jit
def reader_fields_misuse(x, MODE: tl.constexpr):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32), y=([64], tl.float32))
    if MODE == "outside":
        r = p.reader("r", fields=("x", ))
        tle.gpu.warp_specialize([(_read_field, (r, x, "y")), (_touch, (p.writer(), x))], worker_num_warps=[1])
    elif MODE == "unknown":
        r = p.reader("r", fields=("z", ))
    elif MODE == "twice":
        r = p.reader("r", fields=("x", "x"))
    else:
        r = p.reader("r", fields=())


@pytest.mark.parametrize("mode,message", [
    ("outside", "pipe slot field: reader 'r' of pipe 'p' was made with fields=['x']; field 'y' is not among them"),
    ("unknown", "pipe.reader fields: pipe 'p' has no field 'z' (fields: ['x', 'y'])"),
    ("twice", "pipe.reader fields must be unique, got ['x', 'x']"),
    ("empty", "pipe.reader fields must name at least one field"),
])
def test_reader_fields_misuse(mode, message):
    with pytest.raises(Exception) as info:
        tle.compile(reader_fields_misuse, signature={"x": "*fp32"}, constexprs={"MODE": mode}, target=TARGET,
                    num_warps=4)
    text = error_text(info.value)
    assert message in text, text


def test_readers_of_field_subsets_each_wait_and_release_whole_slots():
    """Two readers, each seeing one field: both still count on the empty
    ring (arrive count 2), and each reader partition loads its slot view."""
    c = compile_kernel("field_subsets")
    ttgir = code(c, "ttgir")
    assert re.search(r"ttng\.init_barrier %\S+, 2 ", ttgir), ttgir
    for part in ("partition0", "partition1"):
        assert len(re.findall(r"ttg\.local_load", _partition(ttgir, part).split("partition", 2)[1])) >= 1


@pytest.mark.parametrize("kernel,message", [
    (cursor_mixed_with_ring_order, "the writer takes slots both at cursor positions and in ring order: give every "
     "acquire / wait / close of an endpoint a cursor, or none"),
    (cursor_of_another_ring, "pipe writer acquire: the cursor is for a ring of 3 slots, pipe 'p' has 2"),
    (cursor_position_not_an_integer, "pipe writer acquire takes a cursor (pipe.cursor(i), cursor.advance()) or an "
     "iteration (an integer), got 1.5"),
    (cursor_negative_iteration, "cursor: iteration -1 is negative"),
    (slot_attribute_not_a_field, "pipe slot has no attribute or field 'y' (fields: ['x'])"),
    (async_copy_into_plain_buffer, "is never committed: tle.gpu.copy(is_async=True) into a buffer outside a pipe "
     "completes with tle.gpu.async_commit_group() and tle.gpu.async_wait_group(n)"),
    (async_copy_into_reader_slot, "tle.gpu.copy(is_async=True) writes a slot a reader waited for"),
    (async_copy_out_of_buffer, "supports only a tl.tensor of global pointers copied into a buffer"),
    (async_copy_flag_not_constant, "tle.gpu.copy is_async must be a compile-time bool"),
    (writer_in_reader_partition, "the writer is used by a reader partition: partition 0 both writes the pipe and "
     "reads it as reader 'r'"),
    (release_of_writer_slot, "the slot was handed out by the writer of pipe<p"),
    (endpoint_outside_partitions, "must be inside a tle.gpu.warp_specialize partition"),
    (stage_count_mismatch, "stage count mismatch: the buffer's dim 0 is 2 but the pipe has capacity 3"),
    (close_one_shot, "is one_shot: its stream ends by itself"),
    (writer_before_not_one_shot, "the writer fills slots before the tle.gpu.warp_specialize its readers run in, so "
     "it cannot wait for a released slot: make the pipe one_shot"),
    (unknown_reader, "pipe 'p' has no reader 's'"),
    (warps_mismatch, "got 1 worker partitions but 2 worker_num_warps"),
    (bad_regs, "num_regs must be a multiple of 8 in [24, 256], got 20"),
    (default_returns_endpoint, "the default partition (_drain_and_return) returns a pipe_reader; it may return "
     "tensors (block or scalar) or tuples of tensors"),
    (worker_returns_value, "partition 1 (_touch_and_return) is a worker and returns a value; only the default "
     "partition (the first function) returns values"),
])
def test_misuse_is_a_clear_error(kernel, message):
    with pytest.raises(Exception) as info:
        tle.compile(kernel, signature={"x": "*fp32"}, target=TARGET, num_warps=4)
    text = error_text(info.value)
    assert message in text, text


@pytest.mark.parametrize("kernel", [default_returns_endpoint, worker_returns_value])
def test_result_misuse_is_reported_at_the_call(kernel):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature={"x": "*fp32"}, target=TARGET, num_warps=4)
    # Triton's CompilationError shows the user's line: the warp_specialize call.
    assert "tle.gpu.warp_specialize([" in str(info.value), str(info.value)


# --- warp_specialize group ids: one count per module, gone with the module


def _groups(compiled):
    """The warp_specialize group ids in the frontend's TTIR (its region markers)."""
    return sorted({int(g) for g in re.findall(r"tle\.marker\.group = (\d+)", compiled.asm["ttir"])})


def test_warp_specialize_group_state_does_not_grow():
    """Many compiles (each a fresh frontend run: distinct constexprs) leave no
    group counts behind, and each numbers its warp_specialize from 0: no count
    left by an earlier compile (whose builder or module a later one may reuse
    the address of) carries over."""
    import gc
    from tle.language import _pipe_semantic
    gc.collect()
    before = len(_pipe_semantic._GROUPS)
    for block in (32, 64, 128, 256):
        for stages in (1, 2, 3):
            c = compile_kernel("ring_copy", BLOCK=block, STAGES=stages)
            assert _groups(c) == [0], (block, stages, _groups(c))
            gc.collect()  # the compile's builders and module die: their addresses may come back
    gc.collect()
    assert len(_pipe_semantic._GROUPS) <= before, dict(_pipe_semantic._GROUPS)


def test_warp_specialize_groups_restart_in_a_new_module():
    """A module that reuses a dead one's address (CPython hands it out again)
    starts counting from 0."""
    import gc
    from triton._C.libtriton import ir
    from tle.language import _pipe_semantic
    context = ir.context()
    ir.load_dialects(context)
    builder = ir.builder(context)
    addresses = []
    for _ in range(8):
        module = builder.create_module()
        addresses.append(id(module))
        assert [_pipe_semantic._next_group(module) for _ in range(3)] == [0, 1, 2]
        assert module in _pipe_semantic._GROUPS
        del module
        gc.collect()
    assert not any(id(key) in addresses for key in _pipe_semantic._GROUPS)


@triton.jit
def _ws_in_helper(X, OUT, N: tl.constexpr):
    p = tle.pipe(1, name="inner", readers="c", x=([N], tl.float32))
    tle.gpu.warp_specialize([(K._ring_consumer, (p.reader("c"), OUT, 1, N)),
                             (K._ring_producer, (p.writer(), X, 1, N))], worker_num_warps=[1])


@triton.jit
def warp_specialize_here_and_in_a_helper(X, OUT, N: tl.constexpr):
    p = tle.pipe(1, name="outer", readers="c", x=([N], tl.float32))
    tle.gpu.warp_specialize([(K._ring_consumer, (p.reader("c"), OUT, 1, N)),
                             (K._ring_producer, (p.writer(), X, 1, N))], worker_num_warps=[1])
    _ws_in_helper(X, OUT + N, N)


def test_warp_specialize_groups_are_unique_across_the_functions_of_a_kernel():
    """Group ids are counted per module, not per @triton.jit function: after
    Triton inlines the helper, its warp_specialize and the kernel's are two
    groups of one function (the same id twice was 'expected region 1, got
    region 0')."""
    c = tle.compile(warp_specialize_here_and_in_a_helper, signature={"X": "*fp32", "OUT": "*fp32"},
                    constexprs={"N": 128}, target=TARGET, num_warps=4)
    assert _groups(c) == [0, 1]
    assert code(c, "ttgir").count("ttg.warp_specialize(") == 2


def test_cursors_are_carried_as_stage_and_phase_without_division():
    """FlagTree's typed-pipe cursors (its test_tle_pipe_cursor.py, in our
    spelling of the same calls): each endpoint's loop carries the cursor as
    one i32 stage and one i1 phase and advances it with no division or
    remainder; the pass threads no counter of its own for an endpoint that
    takes positions. Both loops: the TTIR's, and after TLE's stages the
    ttgir's, which still has exactly those two iter_args."""
    c = compile_kernel("cursor_ring")
    for stage in ("ttir", "ttgir"):
        text = code(c, stage)
        loops = re.findall(r"scf\.for .*iter_args\((.*)\) -> \((.*)\)", text)
        assert len(loops) == 2, (stage, loops)
        for _, types in loops:
            assert types.replace(" ", "") == "i32,i1", (stage, types)
    # The reader's loop advances its cursor with an add, a compare and a
    # select: no division (the writer's recomputes its cursor from the
    # iteration once, at `split`: a remainder and a division in an scf.if).
    reader = _partition(code(c, "ttgir"), "default")
    assert "scf.for" in reader and not re.search(r"arith\.(remsi|remui|divsi|divui)", reader), reader
    writer = _partition(code(c, "ttgir"), "partition0")
    assert len(re.findall(r"arith\.(?:remsi|divsi)", writer)) == 2, writer
    # Each endpoint waits on its ring per item; the reader's extra wait sees the close.
    ttgir = code(c, "ttgir")
    assert len(re.findall(r"ttng\.wait_barrier", ttgir)) == 4, ttgir
    assert ptx_count(c, r"mbarrier\.try_wait") == 4


def test_cursor_ops_take_the_cursor_stage():
    """The raised ops carry the cursor (`at [stage, phase]`); commit and
    release take the cursor's stage, and the slot views index the fields at
    it (the acquire's slot is the stage)."""
    c = compile_kernel("cursor_ring")
    raised = tle.run_pipeline(c.asm["triton-ttgir"],
                              "builtin.module(triton-tle-raise-warp-specialize, triton-tle-raise-markers)")
    acquire = re.search(r"tle\.pipe\.writer_acquire %\S+ at \[(%\S+), (%\S+)\]", raised)
    wait = re.search(r"tle\.pipe\.reader_wait %\S+ at \[(%\S+), (%\S+)\] reader \"c\"", raised)
    assert acquire and wait, raised
    assert re.search(r"tle\.pipe\.writer_commit %\S+\[" + re.escape(acquire.group(1)) + r"\]", raised)
    assert re.search(r"tle\.pipe\.reader_release %\S+\[" + re.escape(wait.group(1)) + r"\] reader", raised)
    assert re.search(r"tle\.pipe\.writer_close %\S+ at \[", raised)


def test_cursor_tma_gather_fill_is_expected_at_the_cursor_commit():
    """A TMA row gather into a slot acquired at a cursor: the commit of the
    same cursor expects its bytes (one expect_tx, no plain arrive for it)."""
    c = compile_kernel("cursor_ring", R=8, GATHER=True, signature={"src": "tensordesc<fp32[1,128]>"})
    ptx = c.asm["ptx"]
    assert ptx_count(c, r"mbarrier\.arrive\.expect_tx") == 1, ptx
    # At least one TMA copy a row, each completing on the ready barrier.
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.\S*mbarrier::complete_tx::bytes") >= 8, ptx


@triton.jit
def pipe_live_across_a_loop(x, n):
    p = tle.pipe(2, name="p", readers="r", x=([64], tl.float32))
    acc = tl.zeros([64], tl.float32)
    for i in range(n):  # the pipe is live across the loop: Triton flattens it
        acc += tl.load(x + i * 64 + tl.arange(0, 64))
    tl.store(x + tl.arange(0, 64), acc)
    tle.gpu.warp_specialize([(_drain, (p.reader(), x)), (_touch, (p.writer(), x))], worker_num_warps=[1])


def test_a_pipe_may_be_live_across_a_loop():
    """A pipe created before a loop of its function and used after it (as
    FlagTree's test_tle_pipe_cursor.py kernel has one) compiles: a loop
    carries the pipe as its handle; only calls refuse a pipe (bad-input row
    "pipe-passed-to-a-function")."""
    c = tle.compile(pipe_live_across_a_loop, signature={"x": "*fp32", "n": "i32"}, target=TARGET, num_warps=4)
    assert "scf.for" in code(c, "ttgir")
    assert ptx_count(c, r"mbarrier\.try_wait") == 2
