"""FlagTree's TLE kernels on TLE, on the CPU: the kernels of
flagtree_compat_kernels.py, our own, in the style of FlagTree's public tests
(FlagTree's import line, `import tle.gpu as tle`), compile to PTX for sm_90
through TLE's stages, with the instructions their primitives stand for:

* ``tle.pipeline(start, end, step, num_stages=)``: Triton's ``tl.range`` with
  ``tt.num_stages``; a loop reading buffers through local pointers gets one
  stage (``triton-tle-unpipeline-local-pointer-loads``);
* ``tle.local_ptr(buffer, offsets=)``: flat row-major element offsets;
* ``tle.copy(desc, buffer, shape, offsets)`` / ``tle.copy(buffer, desc, ...)``:
  synchronous TMA load / store;
* ``tle.copy(global_ptrs, buffer, shape)`` in a GEMM's K loop with fp32
  buffers read through local pointers: no ``cp.async`` from shared memory
  (the llir finish used to fail on it).

The GPU runs are test_flagtree_compat_gpu.py.
"""

import re

import pytest
import triton
import triton.language as tl

import tle
import flagtree_compat_kernels as K
from conftest import assert_finished, code, error_text, ptx_count

TARGET = "sm_90"


def test_the_import_line_is_flagtrees_with_tle_gpu():
    import tle.gpu as gpu
    assert gpu is tle.gpu
    for name in ("alloc", "copy", "local_ptr", "pipeline", "scope", "buffered_tensor", "smem"):
        assert hasattr(gpu, name), name
    for fn in (gpu.alloc, gpu.copy, gpu.local_ptr, gpu.pipeline):
        assert fn.__doc__
    assert isinstance(gpu.smem, gpu.scope)


# --- the GEMM: tle.copy in the K loop (the llir finish bug) ------------------------------------------

def compile_gemm(dtype="fp32", block=64, **options):
    sig = dict(K.SIGNATURES["copy_staged_matmul_kernel"])
    sig.update({"a_ptr": f"*{dtype}", "b_ptr": f"*{dtype}"})
    import triton.language as tl
    return tle.compile(K.copy_staged_matmul_kernel, signature=sig,
                       constexprs={"BM": block, "BN": block, "BK": block,
                                   "DTYPE": {"fp32": tl.float32, "fp16": tl.float16}[dtype]},
                       target=TARGET, **options)


def test_gemm_with_copies_in_the_k_loop_compiles():
    """The reproducer: fp32 buffers filled by tle.copy and read through
    full-view local pointers for tl.dot in the K loop. Triton's pipeliner
    made the reads cp.async copies from shared memory, which the llir finish
    refused ("operand $1 is used by cp.async.ca.shared.global")."""
    c = compile_gemm("fp32")
    assert_finished(c)
    assert "tt.num_stages = 1" in code(c, "tle-ttir")
    assert ptx_count(c, r"cp\.async") == 0
    assert ptx_count(c, r"\bld\.shared") >= 1 and ptx_count(c, r"\bst\.shared") >= 1
    assert ptx_count(c, r"\bld\.global") >= 1  # the copies' loads
    # The shared accesses are ordered: a barrier in the loop between the
    # copies' stores and the reads.
    assert ptx_count(c, r"bar\.sync|barrier\.sync") >= 2


def test_gemm_with_copies_fp16_keeps_its_schedule():
    """16-bit loads through TLE's marker pointers are too narrow for Triton's
    pipeliner anyway: the loop keeps its default schedule (no num_stages
    attribute) and still compiles."""
    c = compile_gemm("fp16")
    assert_finished(c)
    assert "tt.num_stages" not in code(c, "tle-ttir")
    assert ptx_count(c, r"cp\.async") == 0


def test_gemm_with_copies_num_stages_1_option():
    c = compile_gemm("fp32", num_stages=1)
    assert_finished(c)
    assert ptx_count(c, r"cp\.async") == 0


# --- tle.pipeline -----------------------------------------------------------------------------------

def test_pipeline_loop_reading_buffers_is_one_stage():
    c = tle.compile(K.staged_axpby_kernel, signature=K.SIGNATURES["staged_axpby_kernel"],
                    constexprs={"BR": 64, "BC": 64}, target=TARGET)
    assert_finished(c)
    ttir = code(c, "ttir")
    assert re.search(r"scf\.for .*\{[^}]*tt\.num_stages = 2 : i32", ttir.replace("\n", " ")) or \
        "tt.num_stages = 2" in ttir  # tle.pipeline is tl.range(num_stages=2)
    assert "tt.num_stages = 1" in code(c, "tle-ttir")
    assert ptx_count(c, r"cp\.async") == 0


def test_buffer_written_through_local_pointers_copied_out():
    c = tle.compile(K.staged_diff_kernel, signature=K.SIGNATURES["staged_diff_kernel"],
                    constexprs={"BR": 32, "BC": 64}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"cp\.async") == 0
    assert ptx_count(c, r"\bst\.global") >= 1 and ptx_count(c, r"\bld\.shared") >= 1


@pytest.mark.parametrize("stages", [2, 3])
def test_pipeline_without_buffers_is_pipelined_by_triton(stages):
    """tle.pipeline over global loads only: Triton's pipeliner issues them
    ahead (cp.async into its own multi-buffered shared memory)."""
    c = tle.compile(K.pipeline_global_add_kernel, signature={"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32",
                                                           "n": "i32"},
                    constexprs={"BLOCK": 256, "STAGES": stages}, target=TARGET)
    assert_finished(c)
    assert f"tt.num_stages = {stages}" in code(c, "ttir")
    assert "tt.num_stages = 1" not in code(c, "tle-ttir")
    assert ptx_count(c, r"cp\.async\.c[ag]\.shared\.global") >= 2
    assert ptx_count(c, r"cp\.async\.wait_group") >= 1


def test_pipeline_is_tl_range():
    """The same kernel with tl.range(num_stages=...) gives the same TTIR."""
    import triton
    import triton.language as tl

    @triton.jit
    def with_range(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr, STAGES: tl.constexpr):
        pid = tl.program_id(0)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for off in tl.range(0, n, BLOCK, num_stages=STAGES):
            offs = off + tl.arange(0, BLOCK)
            m = offs < n
            acc += tl.load(a_ptr + offs, mask=m, other=0.0) * tl.load(b_ptr + offs, mask=m, other=0.0)
        tl.store(c_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)

    sig = {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "n": "i32"}
    ours = tle.compile(K.pipeline_global_add_kernel, signature=sig, constexprs={"BLOCK": 128, "STAGES": 3},
                       target=TARGET)
    ref = tle.compile(with_range, signature=sig, constexprs={"BLOCK": 128, "STAGES": 3}, target=TARGET)
    strip = lambda t: re.sub(r"@\w+|\"[^\"]*\"", "", t)  # noqa: E731 (kernel names)
    assert strip(code(ours, "triton-ttgir")) == strip(code(ref, "triton-ttgir"))


# --- local_ptr(offsets=) -----------------------------------------------------------------------------

def test_offsets_on_a_1d_buffer_are_indices():
    c = tle.compile(K.offsets_reverse_kernel, signature={"x_ptr": "*fp32", "out_ptr": "*fp32"},
                    constexprs={"BLOCK": 128}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"\bld\.shared") >= 1 and ptx_count(c, r"\bst\.shared") >= 1
    # one index, no division
    assert "arith.divsi" not in code(c, "ttir") and "arith.remsi" not in code(c, "ttir")


def test_offsets_on_a_2d_buffer_are_row_major():
    """A 16 x 8 buffer and flat offsets: row = offset // 8, column = offset % 8
    in TTIR (one division and one remainder by the row length), and the
    lowering multiplies the row back by 8."""
    c = tle.compile(K.offsets_transpose_kernel, signature={"x_ptr": "*i32", "out_ptr": "*i32"},
                    constexprs={"ROWS": 16, "COLS": 8}, target=TARGET)
    assert_finished(c)
    tleir = code(c, "tle-ttir")
    marker = [l for l in tleir.splitlines() if "tle.local_pointers" in l]
    assert marker, tleir
    assert re.search(r"tt\.elementwise_inline_asm \"tle\.local_pointers.*\" .*, %\S+, %\S+ ", marker[0]), marker[0]
    assert ptx_count(c, r"\bld\.shared") >= 1


@pytest.mark.parametrize("start,subslice", [(1, False), (32, True)])
def test_column_window(start, subslice):
    """local_ptr(buf, (rows, start + arange), (rows, 32)), FlagTree's shape
    as the third positional argument: a block of 32 columns. From column 32
    the block is a ttg.memdesc_subslice read whole; from column 1 Triton
    cannot view it (an offset must be a multiple of the block's width), so
    it stays a pointer access -- before, TLE made the subslice and Triton
    refused the module."""
    c = tle.compile(K.column_window_kernel, signature={"x_ptr": "*fp32", "out_ptr": "*fp32"},
                    constexprs={"ROWS": 16, "COLS": 128, "SLICE": 32, "START": start}, target=TARGET)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ("ttg.memdesc_subslice" in ttgir) == subslice, ttgir
    assert ("tle.local_pointers" in code(c, "tle-ttir")), code(c, "tle-ttir")


def test_offsets_from_memory_with_a_mask():
    c = tle.compile(K.offsets_masked_gather_kernel, signature={"x_ptr": "*fp32", "idx_ptr": "*i32",
                                                              "out_ptr": "*fp32", "n": "i32"},
                    constexprs={"ROWS": 8, "COLS": 32, "BLOCK": 128}, target=TARGET)
    assert_finished(c)
    # row = offset / 32, column = offset % 32 (the kernel itself divides nothing)
    ttir = code(c, "ttir")
    assert re.search(r"= arith\.constant dense<32> : tensor<128xi32>", ttir), ttir
    assert "arith.divsi" in ttir and "arith.remsi" in ttir, ttir
    assert ptx_count(c, r"@%p\d+ ld\.shared") >= 1  # the masked gather is predicated


# --- synchronous TMA copies --------------------------------------------------------------------------

def test_tma_loads_and_store_with_local_pointers():
    """Two TMA loads into buffers read through local pointers, a TMA store
    out of a buffer written through them (FlagTree's TMA copy test's
    pattern)."""
    sig = {"a_desc": "tensordesc<fp32[32,64]>", "b_desc": "tensordesc<fp32[32,64]>",
           "out_desc": "tensordesc<fp32[32,64]>", "cols": "i32"}
    c = tle.compile(K.tma_blend_kernel, signature=sig, constexprs={"BR": 32, "BC": 64}, target=TARGET)
    assert_finished(c)
    ttgir = code(c, "ttgir")
    assert ttgir.count("ttng.async_tma_copy_global_to_local") == 2
    assert ttgir.count("ttng.async_tma_copy_local_to_global") == 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global") == 2
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 1
    assert ptx_count(c, r"\bld\.shared") >= 1 and ptx_count(c, r"\bst\.shared") >= 1
    assert c.metadata.shared >= 3 * 32 * 64 * 4  # the three TLE buffers


@pytest.mark.parametrize("evict", ["evict_first", "evict_last"])
def test_tma_load_eviction_policy(evict):
    """copy(desc, buf, ..., eviction_policy=) (FlagTree's TMA copy test): the
    hinted TMA load takes a createpolicy and .L2::cache_hint (Triton 3.6
    refuses the policy on its own TMA op); the other load stays unhinted."""
    sig = {"a_desc": "tensordesc<fp32[32,64]>", "b_desc": "tensordesc<fp32[32,64]>",
           "out_desc": "tensordesc<fp32[32,64]>", "cols": "i32"}
    c = tle.compile(K.tma_blend_kernel, signature=sig, constexprs={"BR": 32, "BC": 64, "EVICT": evict}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, rf"^createpolicy\.fractional\.L2::{evict}\.b64 %rd\d+, 1\.0;") == 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes"
                        r"\.L2::cache_hint \[%r\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\], %rd\d+;") == 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global") == 2
    assert "tle.tma_cache_hint" not in c.asm["llir"]


def test_tma_roundtrip_memdesc_buffer():
    sig = {"x_desc": "tensordesc<fp16[64,64]>", "y_desc": "tensordesc<fp16[64,64]>"}
    c = tle.compile(K.tma_roundtrip_kernel, signature=sig, constexprs={"BM": 64, "BN": 64}, target=TARGET)
    assert_finished(c)
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global") == 1
    assert ptx_count(c, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 1


def test_tma_copy_before_sm90_uses_pointer_loads():
    """Before sm_90 Triton rewrites descriptors into pointers: the same kernel
    compiles for sm_80 without TMA."""
    sig = {"x_desc": "tensordesc<fp16[64,64]>", "y_desc": "tensordesc<fp16[64,64]>"}
    c = tle.compile(K.tma_roundtrip_kernel, signature=sig, constexprs={"BM": 64, "BN": 64}, target="sm_80")
    assert ptx_count(c, r"cp\.async\.bulk\.tensor") == 0
    assert ptx_count(c, r"\bld\.global") >= 1 and ptx_count(c, r"\bst\.global") >= 1


# --- FlagTree's transport-level asynchronous copies (cp.async groups)


def _compile_async(name, **constexprs):
    sig = K.SIGNATURES[name]
    attrs = {(i,): [["tt.divisibility", 16]] for i, t in enumerate(sig.values()) if t.startswith("*")}
    return tle.compile(getattr(K, name), signature=sig, constexprs=constexprs, target=TARGET, num_warps=4,
                       attrs=attrs)


def _ttgir_lines(c, pattern):
    return [line.strip() for line in c.asm["ttgir"].splitlines() if re.search(pattern, line)]


def test_async_copy_groups_are_cp_async_with_the_users_commits_and_waits():
    """Two copies into buffers read whole: each a cp.async into its buffer,
    one commit after each, waits of 1 then 0 groups, in that order; Triton's
    barrier follows each wait before the reads."""
    c = _compile_async("two_group_async_copy_kernel", BLOCK=64, READ_POINTERS=0)
    ops = _ttgir_lines(c, r"ttg\.async_(copy_global_to_local|commit_group|wait)")
    kinds = [re.search(r"ttg\.(async_\w+)", op).group(1) for op in ops]
    assert kinds == ["async_copy_global_to_local", "async_commit_group", "async_copy_global_to_local",
                     "async_commit_group", "async_wait", "async_wait"], ops
    assert "num = 1" in ops[4] and "num = 0" in ops[5], ops
    ptx = c.asm["ptx"]
    assert re.findall(r"cp\.async\.wait_group\s+(\d+)", ptx) == ["1", "0"]
    assert ptx_count(c, r"cp\.async\.commit_group") == 2
    assert ptx_count(c, r"cp\.async\.ca\.shared\.global") >= 2
    # Each wait is followed at once by the CTA barrier (Triton's, after a ttg.async_wait).
    assert len(re.findall(r"cp\.async\.wait_group\s+\d+;\s*bar\.sync", ptx)) == 2, ptx


def test_async_copy_read_through_whole_buffer_pointers_stays_async():
    """FlagTree's read `local_ptr(stage, (arange(0, BLOCK),))` addresses the
    whole buffer in order: it is a whole-buffer load, so the buffers stay
    shared-memory buffers that cp.async fills (no pointer region)."""
    c = _compile_async("two_group_async_copy_kernel", BLOCK=64, READ_POINTERS=1)
    assert len(_ttgir_lines(c, r"ttg\.async_copy_global_to_local")) == 2
    assert ptx_count(c, r"cp\.async\.ca\.shared\.global") >= 2
    assert "tle.shared" not in c.asm["ttgir"]


def test_async_copy_into_a_pointer_buffer_is_synchronous():
    """Read through local pointers in reverse order, the buffers live in
    TLE's pointer region, which cp.async (a memdesc op) cannot fill: the
    copies are plain stores, correct before any wait; the group ops stay."""
    c = _compile_async("two_group_async_copy_kernel", BLOCK=64, READ_POINTERS=2)
    assert ptx_count(c, r"cp\.async\.ca\.shared") == 0
    assert ptx_count(c, r"cp\.async\.commit_group") == 2
    assert not _ttgir_lines(c, r"ttg\.async_copy_global_to_local")


def test_masked_async_copy_carries_mask_and_eviction_policy():
    c = _compile_async("masked_async_copy_kernel", TILE_ROWS=4, TILE_COLS=128)
    (copy,) = _ttgir_lines(c, r"ttg\.async_copy_global_to_local")
    assert " mask " in copy and "evictionPolicy = evict_first" in copy, copy
    # The zero-fill form: a source size operand chosen by the mask.
    assert re.search(r"cp\.async\.ca\.shared\.global \[[^]]*\], \[[^]]*\], 0x4, %r\d+;", c.asm["ptx"])


def test_async_copy_ring_double_buffers_in_the_loop():
    c = _compile_async("async_copy_ring_kernel", BLOCK=256)
    loop = c.asm["ttgir"][c.asm["ttgir"].index("scf.for"):]
    assert "ttg.async_copy_global_to_local" in loop and "ttg.async_commit_group" in loop
    assert re.search(r"ttg\.async_wait \{num = 1 : i32\}", loop), loop


def test_async_copy_ring_read_through_slot_pointers():
    """The ring read through local pointers into each slot in reverse order:
    the buffer is a pointer buffer (TLE's region, which cp.async, a memdesc
    op, cannot fill), so the copies into its slots are plain stores through
    pointers, correct before any wait; the user's commits stay. Read in
    order (the whole slot), the copies stay cp.async."""
    whole = _compile_async("async_copy_ring_kernel", BLOCK=256, READ_POINTERS=1)
    assert _ttgir_lines(whole, r"ttg\.async_copy_global_to_local")
    c = _compile_async("async_copy_ring_kernel", BLOCK=256, READ_POINTERS=2)
    assert not _ttgir_lines(c, r"ttg\.async_copy_global_to_local")
    assert ptx_count(c, r"cp\.async\.ca\.shared") == 0
    assert ptx_count(c, r"cp\.async\.commit_group") >= 2


@triton.jit
def _async_copy_misuse(x_ptr, y_ptr, MODE: tl.constexpr):
    offs = tl.arange(0, 64)
    buf = tle.gpu.alloc([64], dtype=tl.float32, layout=None, scope=tle.gpu.smem)
    if MODE == "uncommitted":
        tle.gpu.copy(x_ptr + offs, buf, [64], is_async=True)
        tle.gpu.async_wait_group(0)
    elif MODE == "wait_8":
        tle.gpu.async_wait_group(8)
    elif MODE == "wait_negative":
        tle.gpu.async_wait_group(-1)
    elif MODE == "mask_sync":
        tle.gpu.copy(x_ptr + offs, buf, [64], mask=offs < 3)
    elif MODE == "mask_integer":
        tle.gpu.copy(x_ptr + offs, buf, [64], is_async=True, mask=offs)
    elif MODE == "mask_shape":
        tle.gpu.copy(x_ptr + offs, buf, [64], is_async=True, mask=tl.arange(0, 32) < 3)
    elif MODE == "reverse":
        tle.gpu.copy(buf, y_ptr + offs, [64], is_async=True)
    elif MODE == "eviction":
        tle.gpu.copy(x_ptr + offs, buf, [64], is_async=True, eviction_policy="evict_sometimes")
    if MODE != "uncommitted":
        tle.gpu.async_commit_group()
    tl.store(y_ptr + offs, buf.load())


@pytest.mark.parametrize("mode,message", [
    ("uncommitted", "is never committed"),
    ("wait_8", r"max_pending must be in [0, 7], got 8"),
    ("wait_negative", r"max_pending must be in [0, 7], got -1"),
    ("mask_sync", "mask requires is_async=True"),
    ("mask_integer", "mask must have boolean elements"),
    ("mask_shape", "does not broadcast to the copy's shape [64]"),
    ("reverse", "supports only a tl.tensor of global pointers copied into a buffer"),
    ("eviction", "eviction_policy must be one of ['', 'evict_first', 'evict_last'], got 'evict_sometimes'"),
])
def test_async_copy_misuse_is_a_clear_error(mode, message):
    with pytest.raises(Exception) as info:
        tle.compile(_async_copy_misuse, signature={"x_ptr": "*fp32", "y_ptr": "*fp32"}, constexprs={"MODE": mode},
                    target=TARGET, num_warps=4)
    text = error_text(info.value)
    assert message in text, text


@triton.jit
def _layouts_as_flagtree_spells_them(x, y):
    offs = tl.arange(0, 64)
    a = tle.gpu.alloc([64], dtype=tl.float32, layout=tle.gpu.swizzled_shared_layout.make_default(1),
                      nv_mma_shared_layout=False)
    b = tle.gpu.alloc([64], dtype=tl.float32, layout=tle.gpu.nv_mma_shared_layout.make_default([64], tl.float32))
    rev = 63 - offs  # by address, not the whole buffer in order (a pointer buffer)
    tle.gpu.local_store(a, tl.load(x + offs))
    tl.store(tle.gpu.local_ptr(b, (rev, )), tle.gpu.local_load(a) * 2)
    tl.store(y + offs, tl.load(tle.gpu.local_ptr(b, (rev, ))))


def test_flagtree_layout_objects_are_the_compilers_choice():
    """FlagTree's shared layouts in alloc(layout=): the unswizzled default and
    an NVMMA layout compile to the encodings TLE picks from the buffers' uses
    (a memdesc buffer, and a local-pointer buffer read and written by address)."""
    c = tle.compile(_layouts_as_flagtree_spells_them, signature={"x": "*fp32", "y": "*fp32"}, target=TARGET)
    assert "tle.shared" in c.asm["ttgir"]  # the local-pointer buffer's region
    assert re.search(r"ttg\.local_alloc", c.asm["ttgir"])  # the memdesc buffer


def test_local_pointers_through_slots_address_the_whole_buffer():
    """local_ptr(buf.slot(i), ...) (slots of slots too) is a pointer into the
    whole buffer with the slot index prepended: no slot view is left, and the
    stores and loads are plain st.shared / ld.shared."""
    c = _compile_async("slot_pointers_kernel", BLOCK=64)
    code = c.asm["ttgir"]
    assert "tle.local_pointers" not in code and "tle.buffer_slot" not in code and "memdesc_index" not in code
    body = c.asm["ptx"].split(".entry")[1]
    assert body.count("st.shared") >= 3 and body.count("ld.shared") >= 3


# --- cluster kernels: FlagTree's program ids (flagtree_cluster_kernels.py) ------------------------

def _compile_cluster(name, **constexprs):
    import flagtree_cluster_kernels as C
    return tle.compile(getattr(C, name), signature=C.SIGNATURES[name], constexprs=constexprs, target=TARGET,
                       num_warps=4)


@pytest.mark.parametrize("name,constexprs,cluster", [
    ("peer_exchange_kernel", {"BLOCK": 128}, 2),
    ("program_ids_kernel", {}, 4),
    ("shared_a_gemm_kernel", {"BM": 64, "BN": 32, "K": 64, "CLUSTER_SIZE": 2}, 2),
])
def test_cluster_kernels_keep_cta_program_ids(name, constexprs, cluster):
    """As in FlagTree, a program of a cluster kernel is a CTA: tl.program_id(0)
    and tl.num_programs(0) read %ctaid.x / %nctaid.x, never the cluster's
    %clusterid.x, and the kernel launches as clusters of the mesh's size."""
    import flagtree_cluster_kernels as C
    mesh = {2: C.CLUSTER2, 4: C.CLUSTER4}[cluster]
    c = _compile_cluster(name, mesh=mesh, **constexprs)
    assert_finished(c)
    body = c.asm["ptx"].split(".entry")[1]
    assert "%ctaid.x" in body
    assert "%clusterid" not in body and "%nclusterid" not in body
    assert "tt.get_program_id x" in c.asm["ttgir"]
    assert c.metadata.num_ctas == cluster
    assert tuple(c.metadata.cluster_dims) == (cluster, 1, 1)
    if name == "program_ids_kernel":
        assert "%nctaid.x" in body
    if name == "shared_a_gemm_kernel":
        assert ptx_count(c, r"mapa\.shared::cluster") >= 1


@pytest.mark.parametrize("bk,dot_k", [(32, 32), (64, 64), (64, 32)])
def test_remote_dot_reads_its_tile_after_the_barrier(bk, dot_k):
    """FlagTree's remote-dot pattern (rank 0 stores A's tile, a cluster
    barrier, every rank reads it for tl.dot): Triton's pipeliner, which sees
    no dependence between the store, the barrier and the read, must not
    schedule the read first. With one dot per K step (bk == dot_k) the loop
    itself holds the read and Triton would pipeline it (the B load feeds the
    dot): TLE gives it one stage. In the final TTGIR every shared or cluster
    read of the loop follows the loop's first cluster barrier."""
    import flagtree_cluster_kernels as C
    sig = C.SIGNATURES["staged_remote_dot_kernel"]
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(len(sig))}  # as a launch specializes them
    c = tle.compile(C.staged_remote_dot_kernel, signature=sig, attrs=attrs, target=TARGET, num_warps=4, num_stages=2,
                    constexprs=dict(mesh=C.CLUSTER2, BM=64, BN=64, BK=bk, DOT_K=dot_k, SLOTS=2, CLUSTER_SIZE=2))
    assert_finished(c)
    if bk == dot_k:
        assert "tt.num_stages = 1" in code(c, "tle-ttir")
    lines = code(c, "ttgir").splitlines()
    start = next(i for i, line in enumerate(lines) if "scf.for" in line)
    wait = next(i for i in range(start, len(lines)) if "ttng.cluster_wait" in lines[i])
    reads = [i for i in range(start, len(lines)) if re.search(r"tt\.load .*!tt\.ptr<f16, [37]>", lines[i])]
    assert len(reads) == 2 and min(reads) > wait


def _cluster_arrives(c):
    """The ttng.cluster_arrive ops of `c`'s final TTGIR, asserting that none
    lies inside an scf.if."""
    lines = code(c, "ttgir").splitlines()
    opened = []  # (indent, is an scf.if) of the region ops enclosing the current line
    arrives = 0
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while opened and indent <= opened[-1][0] and not line.strip().startswith("}"):
            opened.pop()
        if line.strip().startswith("}"):
            while opened and opened[-1][0] > indent:
                opened.pop()
            if opened and opened[-1][0] == indent and "else" not in line:
                opened.pop()
            continue
        if "ttng.cluster_arrive" in line:
            arrives += 1
            assert not any(is_if for _, is_if in opened), line
        if line.rstrip().endswith("{"):
            opened.append((indent, " scf.if " in line or "= scf.if" in line))
    return arrives


def _compile_prefetched(nv_mma, slots):
    import flagtree_cluster_kernels as C
    sig = C.SIGNATURES["prefetched_remote_dot_kernel"]
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(len(sig))}
    return tle.compile(C.prefetched_remote_dot_kernel, signature=sig, attrs=attrs, target=TARGET, num_warps=4,
                       num_stages=2, constexprs=dict(mesh=C.CLUSTER2, BM=64, BN=64, BK=64, DOT_K=16, CLUSTER_SIZE=2,
                                                     NV_MMA=nv_mma, SLOTS=slots))


@pytest.mark.parametrize("nv_mma", [False, True])
def test_refill_under_a_rank_branch_gets_its_cluster_barrier_outside(nv_mma):
    """FlagTree's cluster-GEMM tutorial order with one A slot: rank 0 refills
    it under `if has_next and rank == 0` after every CTA read it this step.
    The refill conflicts with the peers' reads, and the cluster barrier
    that orders them must be where every CTA of the cluster runs: before
    the branch. Inside it only rank 0 ran it, and it paired with the peers'
    end-of-step barrier (48 % of C wrong on the H200). In the final TTGIR
    no cluster barrier lies inside an scf.if."""
    c = _compile_prefetched(nv_mma, slots=1)
    assert_finished(c)
    assert _cluster_arrives(c) >= 3  # after the first tile, before the refill branch, the step's end


@pytest.mark.parametrize("nv_mma", [False, True])
def test_refill_of_the_other_slot_needs_no_cluster_barrier(nv_mma):
    """The tutorial's own order, two A slots: the refill writes slot
    (step + 1) % 2 while the step's reads were of slot step % 2, in the same
    iteration (residues of one base whose constants differ mod 2, over the
    summary of the inner loop's columns), so TLE's barrier pass adds no
    cluster barrier before it: the kernel keeps the two of its own (after
    the first tile, at the step's end). The next step's reads of the
    refilled slot stay ordered by the step's end barrier."""
    c = _compile_prefetched(nv_mma, slots=2)
    assert_finished(c)
    assert _cluster_arrives(c) == 2


@pytest.mark.parametrize("nv_mma", [False, True])
def test_cluster_reads_feeding_a_dot_are_vectorized(nv_mma):
    """The cluster-GEMM tutorial's peers read A's [DOT_K, BM] pieces from
    rank 0 transposed (contiguous along the piece's first dimension) into
    tl.dot. Triton laid that load out one element per thread before TLE
    lowered the pointers; triton-tle-select-encodings (e) gives it eight
    f16 per thread along the run, so each thread reads 16 bytes of the peer
    (ld.shared::cluster.v4) instead of two (ld.shared::cluster.b16: 0.35x
    of plain Triton's GEMM on the H200)."""
    import flagtree_cluster_kernels as C
    sig = C.SIGNATURES["prefetched_remote_dot_kernel"]
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(len(sig))}
    c = tle.compile(C.prefetched_remote_dot_kernel, signature=sig, attrs=attrs, target=TARGET, num_warps=4,
                    num_stages=2, constexprs=dict(mesh=C.CLUSTER2, BM=64, BN=64, BK=64, DOT_K=16, CLUSTER_SIZE=2,
                                                  NV_MMA=nv_mma))
    reads = set(re.findall(r"ld\.shared::cluster[.\w]*", c.asm["ptx"]))
    assert reads == {"ld.shared::cluster.v4.b32"}, reads
    loads = re.findall(r"tt\.load %\S+ : tensor<16x64x!tt\.ptr<f16, 7>, (#\w+)>", code(c, "ttgir"))
    assert loads, code(c, "ttgir")
    layout = re.search(rf"^{loads[0]} = #ttg\.blocked<\{{sizePerThread = \[(\d+), (\d+)\]", code(c, "ttgir"), re.M)
    assert layout and layout.groups() == ("8", "1"), layout


def test_remote_of_remote_pointers_retargets():
    """tle.remote of cluster pointers (FlagTree's top-k selector): a remote of
    a tle.remote result takes its source (one mapa each: rank 1's view, rank
    0's re-target, which is also the select's peer-0 operand, and the
    select's re-target to rank 1): pointers from a select are mapped by
    mapa as they are."""
    import flagtree_cluster_kernels as C
    c = _compile_cluster("retarget_kernel", mesh=C.CLUSTER2, BLOCK=128)
    assert_finished(c)
    assert c.metadata.num_ctas == 2
    assert ptx_count(c, r"mapa\.shared::cluster") == 3
    assert ptx_count(c, r"ld\.shared::cluster") == 2


@triton.jit
def _divergent_conflict_kernel(out_ptr, mesh: tl.constexpr):
    rank = tle.shard_id(mesh, "cluster_x")
    offs = tl.arange(0, 64)
    buf = tle.gpu.alloc([64], dtype=tl.int32, layout=None, scope=tle.gpu.smem, nv_mma_shared_layout=False)
    tle.distributed_barrier(mesh)
    if rank == 0:
        tl.store(tle.gpu.local_ptr(tle.remote(buf, 1, scope=mesh), (offs, )), offs)
        tl.store(out_ptr + offs, tl.load(tle.gpu.local_ptr(buf, (offs, ))))
    tle.distributed_barrier(mesh)


def test_conflict_inside_a_rank_branch_warns_and_adds_no_barrier(capfd):
    """Conflicting cluster accesses both under `if rank == 0`: no cluster
    barrier every CTA reaches orders them, so TLE inserts none (one inside
    would pair with the other CTA's next barrier) and warns on stderr."""
    import flagtree_cluster_kernels as C
    c = tle.compile(_divergent_conflict_kernel, signature={"out_ptr": "*i32"}, constexprs={"mesh": C.CLUSTER2},
                    target=TARGET, num_warps=4)
    assert_finished(c)
    err = capfd.readouterr().err
    assert "warning: accesses to a shared-memory buffer through cluster pointers may conflict here" in err
    assert "note: the control flow that depends on the CTA" in err
    lines = code(c, "ttgir").splitlines()
    start = next(i for i, line in enumerate(lines) if "scf.if" in line)
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "}")
    assert not any("ttng.cluster_arrive" in line for line in lines[start:end])


def test_scopeless_remote_to_rank_0_without_cluster():
    """tle.remote(buf, 0) without scope in a kernel without a cluster: the
    CTA's own buffer, no mapa, no cluster launch."""
    c = _compile_cluster("self_roundtrip_kernel", BLOCK=128)
    assert_finished(c)
    assert ptx_count(c, r"mapa") == 0
    assert c.metadata.num_ctas == 1


def test_scopeless_remote_uses_the_kernels_cluster():
    import flagtree_cluster_kernels as C
    c = _compile_cluster("scopeless_peer_kernel", mesh=C.CLUSTER2, BLOCK=64)
    assert_finished(c)
    assert ptx_count(c, r"mapa\.shared::cluster") >= 1
    assert c.metadata.num_ctas == 2


@triton.jit
def _scopeless_misuse(out_ptr, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    buf = tle.gpu.alloc([BLOCK], dtype=tl.float32, scope=tle.gpu.smem)
    tl.store(tle.gpu.local_ptr(buf, (offs, )), offs.to(tl.float32))
    if MODE == 0:
        view = tle.remote(buf, 1)
    elif MODE == 1:
        view = tle.remote(buf, (0, 1))
    else:
        view = tle.remote(buf, -1)
    tl.store(out_ptr + offs, tl.load(tle.gpu.local_ptr(view, (offs, ))))


@pytest.mark.parametrize("mode,message", [
    (0, "tle.remote needs a thread-block cluster"),  # only rank 0 exists without a cluster
    (1, "tle.remote without scope takes the CTA's rank"),
    (2, "tle.remote shard_id -1 is negative"),
])
def test_scopeless_remote_misuse(mode, message):
    with pytest.raises(Exception) as err:
        tle.compile(_scopeless_misuse, signature={"out_ptr": "*fp32"}, constexprs={"MODE": mode, "BLOCK": 64},
                    target=TARGET)
    assert message in error_text(err.value)


@pytest.mark.parametrize("name,constexprs", [("grid_counter_kernel", {}),
                                             ("grid_shift_kernel", {"STEPS": 3, "BLOCK": 128})])
def test_grid_barrier_compiles_to_a_cooperative_launch(name, constexprs):
    """tle.distributed_barrier over a block mesh: the grid barrier (thread 0
    of every CTA: a gpu-scope release add, acquire polls of the generation)
    on the module's zero-initialized global, no cluster, and metadata asking
    Triton's launcher for a cooperative launch."""
    import flagtree_cluster_kernels as C
    c = _compile_cluster(name, mesh=C.GRID8, **constexprs)
    assert_finished(c)
    ptx = c.asm["ptx"]
    barriers = 1 + constexprs.get("STEPS", 0)
    assert ptx.count("atom.add.release.gpu.u32") == barriers
    assert ptx.count("ld.acquire.gpu.u32") == 2 * barriers
    assert re.search(r"\.global \.align 8 .b8 __tle_grid_barrier\[8\]", ptx)
    assert "tle.grid_barrier" not in ptx and "barrier.cluster" not in ptx
    assert c.metadata.launch_cooperative_grid is True
    assert c.metadata.num_ctas == 1


def test_kernels_without_grid_barriers_launch_normally():
    import flagtree_cluster_kernels as C
    c = _compile_cluster("peer_exchange_kernel", mesh=C.CLUSTER2, BLOCK=128)
    assert c.metadata.launch_cooperative_grid is False


@pytest.mark.parametrize("shape", [(2, 1), (2, 1, 2), (1, 4), (2, 3)])
def test_shard_id_of_block_axes_by_index(shape):
    """tle.shard_id(mesh, i) with an int axis over a mesh of block axes
    compiles to the program id's row-major decomposition: no cluster launch,
    no cooperative launch."""
    import flagtree_cluster_kernels as C
    mesh = tle.device_mesh({"block": [(f"axis{i}", size) for i, size in enumerate(shape)]})
    c = tle.compile(C.block_coordinates_kernel, signature={"out_ptr": "*i32"},
                    constexprs={"MESH": mesh, "RANK": len(shape)}, target=TARGET)
    assert_finished(c)
    assert "%ctaid.x" in c.asm["ptx"]
    assert tuple(c.metadata.cluster_dims) == (1, 1, 1), c.metadata.cluster_dims
    assert c.metadata.launch_cooperative_grid is False


@pytest.mark.parametrize("axis,message", [(3, r"axis index 3 is out of range"),
                                          (1.5, r"axis name \(str\) or its index \(int\)")])
def test_shard_id_axis_misuse(axis, message):
    import flagtree_cluster_kernels as C
    mesh = tle.device_mesh({"block": [("a", 2), ("b", 2)]})

    @triton.jit
    def bad(out_ptr, MESH: tl.constexpr, AXIS: tl.constexpr):
        tl.store(out_ptr, tle.shard_id(MESH, AXIS))

    with pytest.raises(Exception) as info:
        tle.compile(bad, signature={"out_ptr": "*i32"}, constexprs={"MESH": mesh, "AXIS": axis}, target=TARGET)
    assert re.search(message, error_text(info.value)), error_text(info.value)
    assert C  # the module defines the meshes this file's other tests use


def test_rematerialize_index_copies_are_kept_apart():
    """Five calls, five impure movs tagged tle.rematerialize_index in TTIR
    (not merged though two copy the same value) and in the PTX."""
    c = tle.compile(K.rematerialize_index_kernel, signature={"out32_ptr": "*i32", "out64_ptr": "*i64", "n": "i32"},
                    constexprs={"BLOCK": 128}, target=TARGET)
    assert_finished(c)
    ttir = code(c, "ttir")
    assert ttir.count("tle.rematerialize_index") == 5, ttir
    assert ttir.count("tt.elementwise_inline_asm") == 5, ttir
    assert ptx_count(c, r"\bmov\.b32 ") >= 3 and ptx_count(c, r"\bmov\.b64 ") >= 2


def test_rematerialize_index_rejects_floats():
    @triton.jit
    def bad(out_ptr):
        tl.store(out_ptr, tle.gpu.rematerialize_index(tl.arange(0, 16).to(tl.float32)))

    with pytest.raises(Exception) as info:
        tle.compile(bad, signature={"out_ptr": "*fp32"}, target=TARGET)
    assert "rematerialize_index takes a 32-bit or 64-bit integer" in error_text(info.value)


@pytest.mark.parametrize("shift,stride_divisible,async_copy", [(0, True, True), (8, True, True), (1, True, False),
                                                              (0, False, False)])
def test_bf16_async_copy_is_cp_async_when_runs_are_aligned(shift, stride_divisible, async_copy):
    """A 16-bit tle.copy(is_async=True) is a cp.async (16-byte runs) when the
    pointers' construction proves every thread's run of 8 elements aligned:
    the base and the row stride divisible by 16 (as the JIT specializes
    them), a column range; one element in, or a stride of unknown
    divisibility, and it is a synchronous copy."""
    hint = ["tt.divisibility", 16]
    attrs = {(0,): [hint], (1,): [hint]}
    if stride_divisible:
        attrs[(2,)] = [hint]
    c = tle.compile(K.bf16_async_copy_kernel, signature={"x_ptr": "*bf16", "out_ptr": "*bf16", "stride": "i32"},
                    constexprs={"SHIFT": shift, "R": 64, "C": 64}, target=TARGET, attrs=attrs)
    assert_finished(c)
    assert ("ttg.async_copy_global_to_local" in code(c, "ttgir")) == async_copy
    assert (ptx_count(c, r"cp\.async\.c[ag]\.shared\.global.*0x10;") > 0) == async_copy

