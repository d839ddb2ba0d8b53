"""tle.gpu buffers, local pointers and cluster pointers on the CPU: every kernel
compiles to PTX through TLE's stages with the right shared-memory instructions
and sizes; misuse is a clear error at the user's line."""

import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle
import local_memory_kernels as K
from conftest import ptx_count

TARGET = "sm_90"


def ptx_lines(compiled):
    return [line.strip() for line in compiled.asm["ptx"].splitlines()]


def assert_finished(compiled):
    """Every TLE op lowered, every base resolved, nothing global left on shared pointers."""
    assert tle.stages(compiled) == ["ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin"]
    code = "\n".join(l for l in compiled.asm["ttgir"].splitlines() if not l.startswith("#loc"))
    assert not re.search(r"\btle\.(alloc|local_pointers|remote_pointers|copy|local_load|local_store|atomic_rmw|"
                         r"atomic_cas|shard_id|distributed_barrier)\b", re.sub(r"loc\(.*", "", code))
    assert "tle.smem.base" not in compiled.asm["llir"]
    assert "tle" not in compiled.asm["ptx"].split(".entry")[1].split("\n\t.section")[0].replace("tle_", "")
    assert isinstance(compiled.asm["cubin"], bytes) and compiled.asm["cubin"]


def compile_histogram(bins=64, block=256):
    return tle.compile(K.histogram, signature={"X": "*i32", "OUT": "*i32", "n": "i32"},
                       constexprs={"BLOCK": block, "BINS": bins}, target=TARGET)


def test_histogram_uses_shared_atomics_and_accounts_shared_memory():
    c = compile_histogram(bins=64)
    assert_finished(c)
    # The counting is a shared-memory atomic, zeroing and reading are shared stores/loads.
    assert ptx_count(c, r"(atom|red)\.[a-z_.]*shared::cta\.(add|inc)\.") >= 1
    assert ptx_count(c, r"\bst\.shared") >= 1 and ptx_count(c, r"\bld\.shared") >= 1
    assert ptx_count(c, r"\b(ld|st|atom|red)\.global.*\[%r") == 0  # no shared address used as a global one
    # 64 counters of 4 bytes live in TLE's region, which the launch reserves.
    assert c.metadata.shared >= 64 * 4
    assert ptx_count(c, r"bar\.sync|barrier\.sync") >= 2  # zeroing -> atomics -> reading


def test_histogram_shared_size_grows_with_the_buffer():
    small, large = compile_histogram(bins=64), compile_histogram(bins=1024)
    assert large.metadata.shared - small.metadata.shared >= (1024 - 64) * 4


def test_transpose_tile_reads_through_2d_local_pointers():
    c = tle.compile(K.transpose_tile, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 32, "N": 64}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"\bld\.shared") >= 1 and ptx_count(c, r"\bst\.shared") >= 1
    assert c.metadata.shared >= 32 * 64 * 4


def _shared_access_order(compiled):
    """The kernel body's st.shared / bar.sync / ld.shared, in order, runs merged."""
    seq = []
    for line in ptx_lines(compiled):
        m = re.match(r"(st\.shared|ld\.shared|bar\.sync)\b", line)
        if m and (not seq or seq[-1] != m.group(1)):
            seq.append(m.group(1))
    return seq


def test_late_writer_transpose_control_differs_only_in_the_barrier():
    """The differential control of the GPU suite (test_local_memory_gpu.py):
    with TLE's pipeline the pointer stores and loads of the tile are split by a
    barrier; without triton-tle-insert-local-pointer-barriers nothing else
    orders them, so the late warp's rows race."""
    kw = dict(signature={"Y": "*i32", "seed": "i32"}, target=TARGET)
    with_barriers = tle.compile(K.late_writer_transpose, constexprs={"M": 32, "N": 64, "VARIANT": 0}, **kw)
    with K.without_local_pointer_barriers():
        without = tle.compile(K.late_writer_transpose, constexprs={"M": 32, "N": 64, "VARIANT": 1}, **kw)
    for c in (with_barriers, without):
        assert_finished(c)
        assert ptx_count(c, r"%globaltimer") >= 1
    # (the output store's layout conversion follows: a second round trip)
    assert _shared_access_order(with_barriers)[:3] == ["st.shared", "bar.sync", "ld.shared"]
    assert _shared_access_order(without)[:2] == ["st.shared", "ld.shared"]


def test_disjoint_stores_need_no_barrier_between_them():
    """disjoint_stores_transpose (racecheck_local_memory.py runs it under
    racecheck): the two stores into the tile write disjoint constant index sets
    (even / odd columns), so the pass's only barrier is the one before the
    transposed read; with overlapping sets (OVERLAP=1) a barrier also splits
    the stores."""
    kw = dict(signature={"Y": "*i32", "seed": "i32"}, target=TARGET)
    disjoint = tle.compile(K.disjoint_stores_transpose, constexprs={"M": 32, "N": 32}, **kw)
    overlap = tle.compile(K.disjoint_stores_transpose, constexprs={"M": 32, "N": 32, "OVERLAP": 1}, **kw)
    for c in (disjoint, overlap):
        assert_finished(c)
    assert _shared_access_order(disjoint)[:3] == ["st.shared", "bar.sync", "ld.shared"]
    assert _shared_access_order(overlap)[:5] == ["st.shared", "bar.sync", "st.shared", "bar.sync", "ld.shared"]


def test_pingpong_slots_need_one_barrier_a_step():
    """pingpong_rotate (racecheck_local_memory.py runs it under racecheck):
    each step reads slot i % 2 and writes slot (i + 1) % 2, different slots
    in one iteration, so the pass's only barrier in the loop ends the step
    (the next step reads what this one wrote); writing the slot just read
    (SAME_SLOT) puts a second one between the read and the write."""
    kw = dict(signature={"X": "*i32", "Y": "*i32", "steps": "i32"}, target=TARGET)
    for same, inside in ((0, 1), (1, 2)):
        c = tle.compile(K.pingpong_rotate, constexprs={"N": 128, "SAME_SLOT": same}, **kw)
        assert_finished(c)
        ttgir = c.asm["ttgir"]
        loop = ttgir[ttgir.index("scf.for"):]
        loop = loop[:re.search(r"^    \}", loop, re.M).start()]  # the body (its yield is implicit)
        assert loop.count("gpu.barrier") == inside, loop
        body = loop[loop.index("tt.load"):]
        # the read, then (SAME_SLOT only) a barrier, then the write
        assert ("gpu.barrier" in body[:body.index("tt.store")]) == bool(same), body


def test_masked_store_of_a_dot_stays_in_the_mma_layout():
    """optimize-local-pointer-stores: masked_dot_rows' row-masked store of a
    dot result reads, selects and writes the buffer in the dot's MMA layout
    (the mask recomputed there): no layout conversion of the 64x64 tile
    through Triton's scratch (in-value-encoding=false leaves one)."""
    c = tle.compile(K.masked_dot_rows, signature={"A": "*fp16", "B": "*fp16", "Y": "*fp32", "n_rows": "i32"},
                    constexprs={"M": 64, "N": 64, "K": 32}, target=TARGET, num_warps=4)
    assert_finished(c)
    ttgir = c.asm["ttgir"]
    mma = re.search(r"^(#mma\d*) = #ttg\.nvidia_mma", ttgir, re.M).group(1)
    assert re.search(rf"ttg\.local_load .*-> tensor<64x64xf32, {mma}>", ttgir), ttgir
    assert re.search(rf"ttg\.local_store %\S+, %\S+ : tensor<64x64xf32, {mma}>", ttgir), ttgir
    assert not re.search(r"ttg\.convert_layout %\S+ : tensor<64x64xf32", ttgir), ttgir


def test_partially_written_buffer_starts_zeroed():
    """triton-tle-zero-partial-buffers: gathered_rows_dot stores gathered rows
    with a row mask and feeds the whole buffer to a wgmma. TLE's TTGIR stage
    stores zeros into it right after its allocation, an async-proxy fence
    after them (the wgmma reads it); without the pass the buffer's first
    store is the masked one."""
    from tle import _bridge, _driver
    c = tle.compile(K.gathered_rows_dot, signature={"Q": "*fp16", "KV": "*fp16", "IDS": "*i32", "Y": "*fp32"},
                    constexprs={"M": 64, "N": 64, "D": 64}, target=TARGET, num_warps=4)
    assert_finished(c)
    src = c.asm["triton-ttgir"]

    def after_alloc(ttgir):
        body = ttgir[ttgir.index("ttg.local_alloc"):]
        return body[:body.index("tt.load")]  # up to the first global load after the allocation

    def first_lines(text, n):
        return "\n".join(text.splitlines()[:n])

    zeroed = after_alloc(_driver.run_pipeline(src, _bridge.TTGIR_PIPELINE))
    plain = after_alloc(_driver.run_pipeline(src, _bridge.with_options(
        _bridge.TTGIR_PIPELINE, disable=["triton-tle-zero-partial-buffers"])))
    assert re.search(r"dense<0\.000000e\+00> : tensor<64x64xf16", zeroed), first_lines(zeroed, 12)
    assert "ttng.fence_async_shared" in zeroed, first_lines(zeroed, 12)
    assert not re.search(r"dense<0\.000000e\+00> : tensor<64x64xf16", plain), first_lines(plain, 12)


def test_2d_local_pointer_accesses_take_the_values_row_major_layout():
    """select-encodings (d): the 2-D pointer store and load of shifted_rows_2d
    take the row-major layout of the global accesses (indices recomputed in it):
    no layout conversion through Triton's shared memory is left, the store is
    16 bytes wide, and the one barrier is the pass's RAW barrier."""
    c = tle.compile(K.shifted_rows_2d, signature={"X": "*fp32", "Y": "*fp32"}, constexprs={"R": 16, "C": 64},
                    target=TARGET, attrs={(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]})
    assert_finished(c)
    assert "ttg.convert_layout" not in c.asm["ttgir"]
    assert ptx_count(c, r"\bst\.shared\.v4\.b32") >= 1
    assert ptx_count(c, r"\bbar\.sync") == 1


def test_whole_buffer_access_uses_tritons_shared_memory():
    c = tle.compile(K.stage_roundtrip, signature={"X": "*fp16", "Y": "*fp16"},
                    constexprs={"M": 64, "N": 64}, target=TARGET)
    assert_finished(c)
    # A buffer reached only as a whole is Triton's own allocation (ttg.local_alloc).
    assert "ttg.local_alloc" in c.asm["ttgir"]
    assert "tle.smem.base" not in c.asm["ttgir"]
    assert c.metadata.shared >= 64 * 64 * 2


def test_buffer_methods_are_local_load_and_store():
    """FlagTree's buf.store(value) / buf.load() are tle.gpu.local_store /
    local_load: the kernel written with them raises the same TLE ops and
    reaches the same finished PTX shape (Triton's own allocation, whole-buffer
    vector stores); tle.gpu.range is Triton's tl.range."""
    import triton.language as tl

    assert tle.gpu.range is tl.range
    c = tle.compile(K.stage_roundtrip_methods, signature={"X": "*fp16", "Y": "*fp16"},
                    constexprs={"M": 64, "N": 64}, target=TARGET)
    assert_finished(c)
    assert "ttg.local_alloc" in c.asm["ttgir"]
    assert "scf.for" in c.asm["ttgir"]  # the tle.gpu.range loop
    # Markers on TTIR: the loop body's load and store, the last load and the
    # first and last stores.
    assert (c.asm["ttir"].count('"tle.local_load'), c.asm["ttir"].count('"tle.local_store')) == (2, 3)
    assert ptx_count(c, r"\bld\.shared") >= 1 and ptx_count(c, r"\bst\.shared") >= 1


def test_reshaped_view_is_the_buffer_row_major():
    """buffered_tensor.reshape: local pointers through the [32, 4, 128] view
    of a [32, 512] buffer are pointers into that buffer (one allocation of
    32 KB; Triton adds its own scratch for the register reshapes of the
    view's load() / store()), and the kernel finishes."""
    c = tle.compile(K.reshaped_view_gather, signature={"X": "*fp16", "Y": "*fp16", "Z": "*fp16"},
                    constexprs={"R": 32, "C": 512, "G": 4}, target=TARGET)
    assert_finished(c)
    assert c.asm["ttir"].count('"tle.alloc') == 1
    assert ptx_count(c, r"\bld\.shared") >= 1 and ptx_count(c, r"\bst\.shared") >= 1
    assert 32 * 512 * 2 <= c.metadata.shared <= 2 * 32 * 512 * 2


def test_atomic_max_and_scalar_slot():
    c = tle.compile(K.segment_max, signature={"X": "*i32", "OUT": "*i32", "n": "i32"},
                    constexprs={"BLOCK": 256, "SEGS": 32}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"(atom|red)\.[a-z_.:]*shared[a-z_.:]*\.max\.s32") >= 1
    assert ptx_count(c, r"(atom|red)\.relaxed\.cta\.shared[a-z_.:]*\.add\.(s32|u32)") >= 1


def test_used_atomic_results_with_replication_go_through_a_scratch_buffer():
    """Atomics whose old value is used while several threads hold each
    element (16 counters over 128 threads; scalars): the owner's atom, an
    owner-masked store into a scratch buffer and a load back, between CTA
    barriers; the region grows by the scratch (16 + 1 + 1 words)."""
    c = tle.compile(K.ticket_rounds, signature={"OUT": "*i32"}, constexprs={"N": 16, "ROUNDS": 3}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"atom\.relaxed\.cta\.shared::cta\.add\.u32") >= 2
    assert ptx_count(c, r"atom\.acq_rel\.cta\.shared::cta\.cas\.b32") == 1
    assert ptx_count(c, r"bar\.sync|barrier\.sync") >= 6


def test_remote_atomic_prefix_over_replicated_layout():
    c = tle.compile(K.cluster_prefix, signature={"COUNTS": "*i32", "OUT": "*i32"},
                    constexprs={"N": 64, "MESH": K.CLUSTER2}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"atom\.relaxed\.cta\.shared::cluster\.add\.u32") >= 1
    assert c.metadata.num_ctas == 2


def test_atomic_cas_on_local_pointers():
    c = tle.compile(K.claim_slots, signature={"OUT": "*i32"}, constexprs={"SLOTS": 64}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"atom\.[a-z_.:]*shared[a-z_.:]*\.cas\.b32") >= 1


def test_cluster_exchange_maps_peer_shared_memory():
    c = tle.compile(K.cluster_exchange, signature={"OUT": "*i32"},
                    constexprs={"N": 128, "MESH": K.CLUSTER2}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"mapa\.shared::cluster") >= 1
    assert ptx_count(c, r"ld\.shared::cluster") >= 1
    assert ptx_count(c, r"%cluster_ctarank") >= 1
    assert ptx_count(c, r"barrier\.cluster\.arrive") >= 2  # the user's barrier and the one before exit
    # A program is a CTA (FlagTree's meaning): its id is %ctaid.x, not the cluster's.
    assert ptx_count(c, r"%ctaid\.x") >= 1
    assert ptx_count(c, r"%clusterid\.x") == 0
    assert c.metadata.num_ctas == 2


def test_cluster_histogram_remote_atomics():
    c = tle.compile(K.cluster_histogram, signature={"X": "*i32", "OUT": "*i32", "n": "i32"},
                    constexprs={"BLOCK": 256, "BINS": 128, "MESH": K.CLUSTER2}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"(atom|red)\.[a-z_.]*shared::cluster[a-z_.]*\.add\.") >= 1
    assert c.metadata.num_ctas == 2


def test_plain_kernels_are_untouched():
    @triton.jit
    def add_one(X, N: tl.constexpr):
        offs = tl.arange(0, N)
        tl.atomic_add(X + offs, 1)

    with_tle = tle.compile(add_one, signature={"X": "*i32"}, constexprs={"N": 128}, target=TARGET)
    assert ptx_count(with_tle, r"atom\.global") + ptx_count(with_tle, r"red\.global") >= 1
    assert with_tle.metadata.num_ctas == 1
    assert "tle.shared" not in with_tle.asm["ttgir"]


# --- misuse -------------------------------------------------------------------


def compile_error(body, signature=None, constexprs=None):
    with pytest.raises(CompilationError) as info:
        tle.compile(body, signature=signature or {"X": "*i32"}, constexprs=constexprs or {}, target=TARGET)
    return str(info.value)


@triton.jit
def float_index(X):
    buf = tle.gpu.alloc([64], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(buf, (tl.arange(0, 64).to(tl.float32),)), 1)


@triton.jit
def rank_mismatch(X):
    buf = tle.gpu.alloc([16, 16], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(buf, (tl.arange(0, 16),)), 1)


@triton.jit
def mixed_indices(X):
    buf = tle.gpu.alloc([16, 16], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(buf, (tl.arange(0, 16), 3)), 1)


@triton.jit
def tmem_scope(X):
    buf = tle.gpu.alloc([128, 128], dtype=tl.float32, scope=tle.gpu.tmem)


@triton.jit
def remote_without_cluster(X, MESH: tl.constexpr):
    buf = tle.gpu.alloc([64], dtype=tl.int32)
    peer = tle.remote(buf, 1, scope=MESH)


@triton.jit
def copy_shape_mismatch(X):
    buf = tle.gpu.alloc([64], dtype=tl.int32)
    tle.gpu.copy(X + tl.arange(0, 32), buf, [32])


@pytest.mark.parametrize("kernel,message,line", [
    (float_index, "tle.gpu.local_ptr index 0 must have an integer type, got fp32", "local_ptr(buf, (tl.arange"),
    (rank_mismatch, "tle.gpu.local_ptr got 1 indices for a rank-2 buffer", "local_ptr(buf, (tl.arange(0, 16),))"),
    (mixed_indices, "cannot mix scalar and tensor indices", "tl.arange(0, 16), 3"),
    (tmem_scope, "scope=tmem is Blackwell (sm_100+) tensor memory", "tle.gpu.tmem"),
    (copy_shape_mismatch, "tle.gpu.copy requires shape to exactly match both operands: shape [32]", "tle.gpu.copy(X"),
])
def test_misuse_is_reported_at_the_users_line(kernel, message, line):
    text = compile_error(kernel)
    assert message in text
    assert line in text


def test_remote_needs_a_cluster_mesh():
    flat = tle.device_mesh({"device": 2})
    text = compile_error(remote_without_cluster, constexprs={"MESH": flat})
    assert "tle.remote needs a thread-block cluster" in text
    assert "tle.remote(buf, 1, scope=MESH)" in text


def test_cluster_kernels_refuse_num_ctas():
    with pytest.raises(Exception, match="takes its cluster size from its tle.device_mesh"):
        tle.compile(K.cluster_exchange, signature={"OUT": "*i32"}, constexprs={"N": 128, "MESH": K.CLUSTER2},
                    target=TARGET, num_ctas=2)


def test_primitives_need_tle_enabled():
    tle.disable()
    with pytest.raises(CompilationError, match="needs TLE's compiler stages"):
        triton.compile(triton.compiler.ASTSource(K.histogram, signature={"X": "*i32", "OUT": "*i32", "n": "i32",
                                                                        "BLOCK": "constexpr", "BINS": "constexpr"},
                                                 constexprs={"BLOCK": 256, "BINS": 64}),
                       target=triton.backends.compiler.GPUTarget("cuda", 90, 32))


def test_device_mesh_validation():
    with pytest.raises(tle.TLEUsageError, match="unknown level"):
        tle.device_mesh({"warp": 2})
    with pytest.raises(tle.TLEUsageError, match="unique"):
        tle.device_mesh({"block_cluster": [("x", 2), ("x", 2)]})
    mesh = tle.device_mesh({"device": 4, "block_cluster": [("cx", 2), ("cy", 2)]})
    assert mesh.shape == (4, 2, 2) and mesh.cluster_size == 4 and mesh.cluster_axes == ("cx", "cy")
    assert mesh.mlir() == ('#tle.device_mesh<shape = [4, 2, 2], axes = ["device", "cx", "cy"], '
                           'levels = ["device", "block_cluster", "block_cluster"]>')
