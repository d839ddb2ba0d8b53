"""Sharded tensors, tle.reshard and tle.distributed_dot on the CPU: every
kernel compiles to PTX through TLE's stages with the collective the layouts
call for (mapa + ld.shared::cluster pulls, cluster barriers, the sums), the
multi-GPU form compiles with its flag barriers and peer loads, and misuse is
a clear error at the user's line."""

import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle
import distributed_kernels as K
from conftest import ptx_count

TARGET = "sm_90"


def ptx_body(compiled):
    return compiled.asm["ptx"].split(".entry")[1]


def ttgir(compiled, stage="triton-ttgir"):
    return "\n".join(l for l in compiled.asm[stage].splitlines() if not l.startswith("#loc"))


def compile_kernel(kernel, signature, **constexprs):
    return tle.compile(kernel, signature=signature, constexprs=constexprs, target=TARGET)


def assert_lowered(c):
    assert tle.stages(c) == ["ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin"]
    code = re.sub(r"loc\(.*", "", ttgir(c, "ttgir"))
    assert not re.search(r"\btle\.(reshard|make_sharded_tensor|remote_pointers|local_pointers|shard_id|alloc)\b",
                         code)
    assert isinstance(c.asm["cubin"], bytes) and c.asm["cubin"]


VEC = {"X": "*fp32", "OUT": "*fp32"}


def test_all_gather_pulls_peers_through_mapa():
    c = compile_kernel(K.all_gather, VEC, N=256, SRC=K.S4, DST=K.B4, MESH=K.MESH4)
    assert_lowered(c)
    # The TTGIR stage carries one reshard marker S -> B, 64-element blocks of 256.
    raised = ttgir(c)
    assert raised.count('tt.elementwise_inline_asm "tle.reshard') == 1
    assert "tle.marker.tile_shape = array<i64: 64>" in raised and "shape = array<i64: 256>" in raised
    assert ptx_count(c, r"mapa\.shared::cluster") >= 1
    assert ptx_count(c, r"ld\.shared::cluster") >= 1
    assert ptx_count(c, r"\bst\.shared") >= 1  # the block goes into this CTA's buffer
    # The cluster barrier after the writes and the one before exit.
    assert ptx_count(c, r"barrier\.cluster\.arrive") >= 2 and ptx_count(c, r"barrier\.cluster\.wait") >= 2
    assert ptx_count(c, r"add\.f32|add\.rn\.f32") == 0  # a gather adds nothing
    assert c.metadata.num_ctas == 4
    assert c.metadata.shared >= 64 * 4  # the 64-element source block


def test_all_reduce_sums_every_peer():
    c = compile_kernel(K.all_reduce, VEC, N=256, SRC=K.P4, DST=K.B4, MESH=K.MESH4)
    assert_lowered(c)
    # Four pulls of the whole block (one per CTA), three additions, in order.
    lowered = ttgir(c, "ttgir")
    assert lowered.count("mapa.shared::cluster") == 4
    assert len(re.findall(r"arith\.addf .* : tensor<256xf32", lowered)) == 3
    assert ptx_count(c, r"ld\.shared::cluster") >= 4
    assert ptx_count(c, r"barrier\.cluster\.arrive") >= 2
    assert c.metadata.num_ctas == 4
    assert c.metadata.shared >= 256 * 4


def test_reduce_scatter_reads_one_block_per_peer():
    c = compile_kernel(K.reduce_scatter, {"X": "*i32", "OUT": "*i32"}, N=256, SRC=K.P4, DST=K.S4, MESH=K.MESH4)
    assert_lowered(c)
    lowered = ttgir(c, "ttgir")
    assert lowered.count("mapa.shared::cluster") == 4
    assert len(re.findall(r"arith\.addi .* : tensor<64xi32", lowered)) >= 3  # the 64-element result block
    assert ptx_count(c, r"ld\.shared::cluster") >= 4


def test_scatter_is_local():
    c = compile_kernel(K.scatter, VEC, N=256, SRC=K.B4, DST=K.S4, MESH=K.MESH4)
    assert_lowered(c)
    assert ptx_count(c, r"mapa") == 0 and ptx_count(c, r"shared::cluster") == 0
    # The slice is read back from this CTA's own buffer.
    assert ptx_count(c, r"\bld\.shared") >= 1
    assert c.metadata.num_ctas == 4


def test_gather_to_root_masks_the_others():
    c = compile_kernel(K.gather_to_root, VEC, N=256, SRC=K.S4, DST=K.B4, MESH=K.MESH4, ROOT=1)
    assert_lowered(c)
    lowered = ttgir(c, "ttgir")
    assert re.search(r"arith\.cmpi eq, .*", lowered)
    # The pull is predicated: only the root loads.
    assert ptx_count(c, r"@%p\d+ ld\.shared::cluster") >= 1


def test_all_gather_2d_over_a_2x2_cluster():
    c = compile_kernel(K.all_gather_2d, VEC, M=32, N=32, SRC=K.S2x2, DST=K.BB2x2, MESH=K.MESH2x2)
    assert_lowered(c)
    assert c.metadata.num_ctas == 4
    assert ptx_count(c, r"mapa\.shared::cluster") >= 1
    assert c.metadata.shared >= 16 * 16 * 4


def test_reshard_in_a_loop_gets_a_barrier_at_the_end_of_the_body():
    c = compile_kernel(K.looped_all_reduce, VEC, N=128, STEPS=3, SRC=K.P4, DST=K.B4, MESH=K.MESH4)
    assert_lowered(c)
    lowered = ttgir(c, "ttgir")
    body = lowered[lowered.index("scf.for"):]
    # Inside the loop: the barrier after the writes and the one before the
    # next iteration overwrites the buffer peers read (before scf.yield).
    assert body.count("ttng.cluster_wait") >= 2
    yield_at = body.index("scf.yield")
    assert "ttng.cluster_wait" in body[max(0, yield_at - 400):yield_at]


def test_distributed_dot_k_split_all_reduces_the_partial_products():
    sig = {"A": "*fp16", "B": "*fp16", "C": "*fp32", "OUT": "*fp32"}
    c = compile_kernel(K.dot_k_split, sig, M=64, N=64, K=128, A_S=K.A_K, B_S=K.B_K, MESH=K.MESH4, ADD_C=True)
    assert_lowered(c)
    assert ptx_count(c, r"wgmma|mma\.sync") >= 1  # the local product is a tensor-core dot
    lowered = ttgir(c, "ttgir")
    assert lowered.count("mapa.shared::cluster") == 4  # all-reduce of the 64 x 64 partial products
    assert c.metadata.num_ctas == 4


def test_distributed_dot_rows_gathers_b():
    sig = {"A": "*fp16", "B": "*fp16", "OUT": "*fp32"}
    c = compile_kernel(K.dot_rows, sig, M=64, N=64, K=64, A_S=K.A_M, B_S=K.B_N, MESH=K.MESH4)
    assert_lowered(c)
    raised = ttgir(c)
    assert raised.count("tle.reshard") == 1  # only B moves (an all-gather along N)
    assert "mapa.shared::cluster" in ttgir(c, "ttgir")


def test_distributed_dot_reduce_scatter_output():
    sig = {"A": "*fp16", "B": "*fp16", "OUT": "*fp32"}
    c = compile_kernel(K.dot_k_split_scatter, sig, M=64, N=64, K=128, A_S=K.A_K, B_S=K.B_K, OUT_S=K.OUT_M,
                       MESH=K.MESH4)
    assert_lowered(c)
    lowered = ttgir(c, "ttgir")
    assert len(re.findall(r"arith\.addf .* : tensor<16x64xf32", lowered)) == 3  # each CTA sums its 16 rows


# --- the Python objects -------------------------------------------------------


def test_sharding_objects():
    mesh = K.MESH2x2
    s = tle.sharding(mesh, split=[tle.S("cx"), "cy"], partial=[])
    assert s.split == (("cx",), ("cy",)) and s.local_shape([8, 4]) == [4, 2]
    assert s.mlir(2) == ('#tle.sharding<mesh = ' + mesh.mlir() + ', split = [S<"cx">, S<"cy">]>')
    both = tle.sharding(mesh, split=[["cx", "cy"], tle.B])
    assert both.local_shape([8, 3]) == [2, 3]
    p = tle.sharding(mesh, split=[tle.B], partial=[tle.P("cx", "cy")])
    assert p.partial == ("cx", "cy") and p.mlir(1).endswith('partial = ["cx", "cy"]>')
    full = tle.sharding(mesh, split=[], partial=[])  # every dimension broadcast, any rank
    assert full.local_shape([5, 7, 9]) == [5, 7, 9]
    assert tle.sharding(mesh, split=["cx"]) == tle.sharding(mesh, split=[tle.S("cx")])


@pytest.mark.parametrize("kwargs,message", [
    ({"split": [tle.S("tp")]}, "'tp' is not an axis"),
    ({"split": [tle.S("cx"), tle.S("cx")]}, "'cx' is used more than once"),
    ({"split": [tle.S("cx")], "partial": [tle.P("cx")]}, "'cx' is used more than once"),
    ({"split": [tle.P("cx")]}, "tle.P goes in partial="),
    ({"split": [3]}, "split entries are"),
    ({"split": [], "partial": [3]}, "partial entries are"),
])
def test_sharding_validation(kwargs, message):
    with pytest.raises(tle.TLEUsageError, match=message):
        tle.sharding(K.MESH2x2, **kwargs)


def test_sharding_shape_checks():
    s = tle.sharding(K.MESH4, split=[tle.S("cx")])
    with pytest.raises(tle.TLEUsageError, match="dimension 0 \\(size 6\\) is not divisible by its 4 shards"):
        s.local_shape([6])
    with pytest.raises(tle.TLEUsageError, match="splits 1 dimensions .* rank 2"):
        s.local_shape([8, 8])


# --- misuse inside kernels: errors at the user's line ------------------------


def compile_error(kernel, signature, **constexprs):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature=signature, constexprs=constexprs, target=TARGET)
    return str(info.value)


@triton.jit
def reshard_plain(X, DST: tl.constexpr):
    x = tl.load(X + tl.arange(0, 64))
    y = tle.reshard(x, DST)  # line: plain tensor
    tl.store(X + tl.arange(0, 64), y)


def test_reshard_needs_a_sharded_tensor():
    text = compile_error(reshard_plain, {"X": "*fp32"}, DST=K.B4)
    assert "tle.reshard x expects a sharded tensor" in text
    assert "y = tle.reshard(x, DST)" in text  # the user's line


@triton.jit
def make_and_reshard(X, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr):
    x = tle.make_sharded_tensor(X, SRC, [N])
    y = tle.reshard(x, DST)
    tl.store(X + tl.arange(0, y.shape[0]), y)


def test_make_sharded_tensor_not_divisible():
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=66, SRC=K.S4, DST=K.B4)
    assert "tle.make_sharded_tensor: shape dimension 0 (size 66) is not divisible by its 4 shards (mesh axes cx)" in text
    assert "x = tle.make_sharded_tensor(X, SRC, [N])" in text


def test_make_sharded_tensor_block_must_be_a_power_of_two():
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=96, SRC=K.S4, DST=K.B4)
    assert "power of two (dimension 0 is 24)" in text


def test_make_sharded_tensor_rank_mismatch():
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=64, SRC=K.S2x2, DST=K.BB2x2)
    assert "splits 2 dimensions" in text and "rank 1" in text


def test_reshard_cannot_create_partial_sums():
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=64, SRC=K.B4, DST=K.P4)
    assert "incompatible reshard" in text and "cannot create partial sums over 'cx'" in text
    assert "y = tle.reshard(x, DST)" in text


def test_reshard_across_meshes():
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=64, SRC=K.S4,
                         DST=tle.sharding(K.MESH2, split=[tle.B]))
    assert "the target sharding is over" in text


def test_reshard_all_to_all_is_refused():
    @triton.jit
    def all_to_all(X, SRC: tl.constexpr, DST: tl.constexpr):
        x = tle.make_sharded_tensor(X, SRC, [64, 64])
        y = tle.reshard(x, DST)
        tl.store(X + tl.arange(0, 16)[:, None] + tl.arange(0, 64)[None, :], y)

    text = compile_error(all_to_all, {"X": "*fp32"}, SRC=K.A_M, DST=K.B_N)
    assert "all-to-all" in text


def test_block_level_axes_are_refused():
    mesh = tle.device_mesh({"block": 4})
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=64, SRC=tle.sharding(mesh, split=["block"]),
                         DST=tle.sharding(mesh, split=[tle.B]))
    assert "at level 'block'" in text


def test_device_axes_need_a_context():
    mesh = tle.device_mesh({"device": 4})
    text = compile_error(make_and_reshard, {"X": "*fp32"}, N=64, SRC=tle.sharding(mesh, split=[tle.B]),
                         DST=tle.sharding(mesh, split=["device"]))
    assert "tle.device_context" in text


@triton.jit
def gather_root(X, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, ROOT: tl.constexpr):
    x = tle.make_sharded_tensor(X, SRC, [N])
    y = tle.reshard(x, DST, root=ROOT)
    tl.store(X + tl.arange(0, N), y)


def test_root_out_of_range():
    text = compile_error(gather_root, {"X": "*fp32"}, N=64, SRC=K.S4, DST=K.B4, ROOT=4)
    assert "root 4 is not a CTA rank" in text


def test_cluster_size_mismatch_with_num_ctas():
    with pytest.raises(Exception, match="takes its cluster size from its tle.device_mesh"):
        tle.compile(K.all_gather, signature=VEC, constexprs={"N": 256, "SRC": K.S4, "DST": K.B4, "MESH": K.MESH4},
                    target=TARGET, num_ctas=2)


@triton.jit
def dot_partial_inputs(A, B, A_S: tl.constexpr, B_S: tl.constexpr):
    a = tle.make_sharded_tensor(A, A_S, [64, 64])
    b = tle.make_sharded_tensor(B, B_S, [64, 64])
    c = tle.distributed_dot(a, b)
    tl.store(A + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], c.to(tl.float16))


def test_distributed_dot_rejects_partial_inputs():
    p = tle.sharding(K.MESH4, split=[tle.B, tle.B], partial=["cx"])
    text = compile_error(dot_partial_inputs, {"A": "*fp16", "B": "*fp16"}, A_S=p, B_S=K.B_K)
    assert "cannot be partial sums" in text
    assert "c = tle.distributed_dot(a, b)" in text


# --- the multi-GPU form: compiles, with its runtime contract in the code -----

DEV4 = tle.device_mesh({"device": 4})


@triton.jit
def device_all_gather(X, OUT, WS, FLAGS, OFFSETS, rank, epoch, N: tl.constexpr, SRC: tl.constexpr,
                      DST: tl.constexpr, MESH: tl.constexpr):
    ctx = tle.device_context(MESH, rank, WS, FLAGS, OFFSETS, epoch)
    x = tle.make_sharded_tensor(X, SRC, [N], context=ctx)
    y = tle.reshard(x, DST, context=ctx)
    tl.store(OUT + tl.arange(0, N), y)


DEVICE_SIG = {"X": "*fp32", "OUT": "*fp32", "WS": "*fp32", "FLAGS": "*i32", "OFFSETS": "*i64", "rank": "i32",
              "epoch": "i32"}


def test_device_all_gather_compiles_with_system_scope_flags():
    c = compile_kernel(device_all_gather, DEVICE_SIG, N=256, SRC=tle.sharding(DEV4, split=["device"]),
                       DST=tle.sharding(DEV4, split=[tle.B]), MESH=DEV4)
    assert_lowered(c)
    body = ptx_body(c)
    # Arrive and depart: thread 0 releases a flag on every device, every thread acquires its own.
    assert ptx_count(c, r"fence\.acq_rel\.sys") >= 2
    assert ptx_count(c, r"st\.relaxed\.sys\.global\.b32") >= 2 * 4
    assert ptx_count(c, r"ld\.acquire\.sys\.global\.b32") >= 2
    # Peer reads: one load per device, predicated on the elements it holds.
    assert ptx_count(c, r"@%p\d+ ld\.global\.b32") >= 4
    assert "mapa" not in body and "shared::cluster" not in body
    assert c.metadata.num_ctas == 1


def test_device_all_reduce_compiles():
    part = tle.sharding(DEV4, split=[tle.B], partial=["device"])
    c = compile_kernel(device_all_gather, DEVICE_SIG, N=128, SRC=part, DST=tle.sharding(DEV4, split=[tle.B]),
                       MESH=DEV4)
    assert_lowered(c)
    assert len(re.findall(r"arith\.addf .* : tensor<128xf32", ttgir(c, "ttgir"))) == 3


@triton.jit
def device_context_bad(X, FLAGS, OFFSETS, MESH: tl.constexpr):
    ctx = tle.device_context(MESH, 0, X, X, OFFSETS, 1)
    tl.store(FLAGS, 0)


def test_device_context_checks_its_pointers():
    text = compile_error(device_context_bad, {"X": "*fp32", "FLAGS": "*i32", "OFFSETS": "*i64"}, MESH=DEV4)
    assert "flags must point to int32" in text


@triton.jit
def annotate_wrong_block(X, SRC: tl.constexpr):
    block = tl.load(X + tl.arange(0, 64))
    x = tle.make_sharded_tensor(block, SRC, [64])
    tl.store(X + tl.arange(0, 64), x)


def test_make_sharded_tensor_checks_the_block_shape():
    text = compile_error(annotate_wrong_block, {"X": "*fp32"}, SRC=K.S4)
    assert "the block has shape [64], but each shard of [64] laid out as" in text and "holds [16]" in text
    assert "x = tle.make_sharded_tensor(block, SRC, [64])" in text


def test_device_context_needs_device_axes():
    text = compile_error(device_context_bad, {"X": "*fp32", "FLAGS": "*i32", "OFFSETS": "*i64"}, MESH=K.MESH4)
    assert "has no device axis of size > 1" in text


# FlagTree's mesh surface: tle.MeshConfig, sub-meshes (mesh[...]) and
# tle.distributed_barrier over a sub-mesh or without a mesh.


def test_mesh_config_builds_the_same_mesh():
    cfg = tle.MeshConfig(device=2, block_cluster=[("cx", 2), ("cy", 2)])
    assert cfg.to_dict() == {"device": 2, "block_cluster": [("cx", 2), ("cy", 2)]}
    assert repr(cfg) == "MeshConfig(device=2, block_cluster=[('cx', 2), ('cy', 2)])"
    mesh = tle.device_mesh(cfg)
    assert mesh == tle.device_mesh({"device": 2, "block_cluster": [("cx", 2), ("cy", 2)]})
    assert (mesh.shape, mesh.ndim, mesh.dim_names, mesh.size) == ((2, 2, 2), 3, ("device", "cx", "cy"), 8)
    assert mesh.physical_ids == tuple(range(8)) and not mesh.is_submesh
    with pytest.raises(tle.TLEUsageError, match="needs at least one level"):
        tle.device_mesh(tle.MeshConfig())


def test_submesh_views():
    mesh = tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 4)]})
    row = mesh[1, :]
    assert (row.shape, row.dim_names, row.levels) == ((4,), ("cy",), ("block_cluster",))
    assert row.physical_ids == (4, 5, 6, 7) and row.size == 4 and row.is_submesh
    assert (row.launch_mesh, row.launch_shape, row.launch_dim_names) == (mesh, (2, 4), ("cx", "cy"))
    col = mesh[:, 2]
    assert (col.shape, col.dim_names, col.physical_ids) == ((2,), ("cx",), (2, 6))
    assert mesh[..., -1].physical_ids == (3, 7)
    assert mesh[0, 1:4:2].physical_ids == (1, 3)
    assert row[1:3].physical_ids == (5, 6)                 # a sub-mesh of a sub-mesh
    assert row[1:3].launch_mesh == mesh
    # Sub-meshes are constexprs: equal views are equal, different ones differ.
    assert mesh[1, :] == row and hash(mesh[1, :]) == hash(row) and mesh[0, :] != row
    assert repr(row) == "device_mesh(block_cluster:cx=2, block_cluster:cy=4)[cx=1, cy=[0, 1, 2, 3]]"
    for key, message in [((0, 0, 0), "has 2 axes; got 3 indices"), ((2, ), "index 2 is outside axis 'cx'"),
                         ((0, slice(4, None)), "selects no coordinate"), (("a", ), "indices are ints, slices"),
                         ((..., 0, ...), "at most one ellipsis")]:
        with pytest.raises(tle.TLEUsageError, match=re.escape(message)):
            mesh[key]


def test_submesh_barrier_compiles_to_mbarriers_across_the_row():
    """Both rows of a 2 x 2 cluster meet separately: one mbarrier per CTA
    (the rows share the axis set, so one init), four barrier sites in the
    loop, each a remote arrive (mapa) and an acquire wait; the final
    tle.distributed_barrier(MESH) is the cluster barrier."""
    c = compile_kernel(K.submesh_exchange, {"OUT": "*i32"}, ITERS=6, DELAY=20000, MESH=K.MESH2x2_CFG, ROW0=K.ROW0,
                       ROW1=K.ROW1, ROW_ONLY=False)
    assert_lowered(c)
    assert c.metadata.num_ctas == 4
    body = ptx_body(c)
    assert body.count("mbarrier.init.shared::cta.b64") == 1
    assert body.count("fence.mbarrier_init.release.cluster") == 1
    assert body.count("mbarrier.arrive.release.cluster.shared::cluster.b64") == 4
    assert body.count("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64") == 4
    # The entry's cluster barrier after the init, the tle.distributed_barrier(MESH) at the end.
    assert body.count("barrier.cluster.wait") == 2
    assert c.metadata.cluster_dims == [2, 2, 1]  # FlagTree's launch shape of a 2 x 2 mesh
    # Columns instead of rows: the same code over the other axis (stride 2), no cluster barrier added.
    cols = compile_kernel(K.submesh_exchange, {"OUT": "*i32"}, ITERS=6, DELAY=20000, MESH=K.MESH2x2_CFG, ROW0=K.COL0,
                          ROW1=K.COL1, ROW_ONLY=False)
    assert ptx_body(cols).count("mbarrier.arrive.release.cluster") == 4
    assert ptx_body(cols).count("barrier.cluster.wait") == 2


@triton.jit
def barrier_without_mesh(X):
    v = tl.load(X)
    tle.distributed_barrier()
    tl.store(X + 1, v)


def test_distributed_barrier_without_a_mesh_is_the_launch_cluster_barrier():
    c = compile_kernel(barrier_without_mesh, {"X": "*i32"})
    assert_lowered(c)
    assert c.metadata.num_ctas == 1 and c.metadata.cluster_dims == [1, 1, 1]
    assert ptx_count(c, r"barrier\.cluster\.arrive") == 1 and ptx_count(c, r"barrier\.cluster\.wait") == 1


@triton.jit
def barrier_on(X, SUB: tl.constexpr):
    tle.distributed_barrier(SUB)
    tl.store(X, 1)


@triton.jit
def remote_on_submesh(X, SUB: tl.constexpr):
    buf = tle.gpu.alloc([16], dtype=tl.int32)
    vals = tl.load(tle.gpu.local_ptr(tle.remote(buf, 1, scope=SUB)))
    tl.store(X + tl.arange(0, 16), vals)


def test_submesh_barrier_misuse():
    mesh = tle.device_mesh({"block_cluster": [("cx", 2), ("cy", 4)]})
    cases = [
        (mesh[0, 0:2], "spans whole axes or fixes them (an int); axis 'cy' selects [0, 1] of 4"),
        (mesh[0, 1], "the sub-mesh is one program"),
        (tle.device_mesh({"block_cluster": [("cx", 2)], "block": 4})[0, :],
         "sub-mesh barriers are over block_cluster axes; axis 'block' is a 'block' axis"),
    ]
    for sub, message in cases:
        text = compile_error(barrier_on, {"X": "*i32"}, SUB=sub)
        assert message in text, text
        assert "tle.distributed_barrier(SUB)" in text
    text = compile_error(remote_on_submesh, {"X": "*i32"}, SUB=mesh[0, :])
    assert "tle.remote takes a whole mesh; scope device_mesh(" in text and "is a sub-mesh (mesh[...])" in text, text
    with pytest.raises(tle.TLEUsageError, match=re.escape("tle.sharding takes a whole mesh")):
        tle.sharding(mesh[0, :], split=["cy"])


def test_flagtree_class_names():
    """FlagTree's names for TLE's classes, for its isinstance checks."""
    import importlib
    from triton.language import core as tlc
    barriers = importlib.import_module("tle.language.barriers")
    pipe = importlib.import_module("tle.language.pipe")
    assert tle.ShardingSpec is tle.sharding and tle.ShardedTensor is tle.sharded_tensor
    assert (tle.pipe_value, tle.pipe_reader, tle.pipe_writer, tle.pipe_slot) == (
        pipe.pipe_value, pipe.pipe_reader, pipe.pipe_writer, pipe.pipe_slot)
    slot, closed = tlc.tensor("slot", tlc.int32), tlc.tensor("closed", tlc.int1)
    got = pipe._wait_result(slot, closed)
    assert isinstance(got, tle.pipe_wait_result) and isinstance(got, tlc.tuple)
    assert got.slot is slot and got.is_closed is closed
    rebuilt, cursor = got.type._unflatten_ir(["h0", "h1"], 0)  # as through a call or a loop
    assert isinstance(rebuilt, tle.pipe_wait_result) and cursor == 2 and rebuilt.is_closed.handle == "h1"
    array = barriers.barrier_array("h", barriers.barrier_array_type(2, 1, False))
    one = barriers.mbarrier(array, tlc.tensor("i", tlc.int32))
    for value in (array, one):
        assert isinstance(value, tle.gpu.barrier) and isinstance(value.type, tle.gpu.barrier_type)
    assert issubclass(barriers.named_barrier, tle.gpu.barrier)


@pytest.mark.parametrize("mesh, axes, dims", [
    (K.MESH2x2, ("cx", "cy", ""), [2, 2, 1]),
    (K.MESH1x2, ("cm", "cn", ""), [1, 2, 1]),
    (K.MESH2x1x2, ("a", "b", "c"), [2, 1, 2]),
    (K.MESH4, ("cx", "cx", ""), [4, 1, 1]),
])
def test_cluster_launch_shape_follows_the_mesh(mesh, axes, dims):
    """The cluster's launch shape is the mesh's block_cluster axes (FlagTree's
    cluster_dims); Triton launches its CTAs along x (num_ctas), and for a 2-D
    or 3-D shape the program ids are those of that launch: y and z read the
    CTA's rank (%ctaid.x mod N) on top of %ctaid.y / %ctaid.z."""
    c = compile_kernel(K.cluster_ids, {"OUT": "*i32"}, MESH=mesh, A0=axes[0], A1=axes[1], A2=axes[2])
    assert_lowered(c)
    assert c.metadata.cluster_dims == dims
    assert c.metadata.num_ctas == dims[0] * dims[1] * dims[2]
    remapped = "\n".join(l for l in ttgir(c, "ttgir").splitlines() if "tt.get_program_id" in l)
    # Every program id is read on %ctaid.x (the rank) where y or z is part of the cluster.
    assert ("tt.get_program_id x" in remapped) and (dims[1] * dims[2] == 1 or remapped.count("get_program_id x") >= 3)
    assert "mapa.shared::cluster" in ptx_body(c)


def test_meshes_of_one_kernel_agree_on_the_cluster_shape():
    @triton.jit
    def two_shapes(OUT, A: tl.constexpr, B: tl.constexpr):
        tl.store(OUT, tle.shard_id(A, "cx") + tle.shard_id(B, "cx"))

    with pytest.raises(tle.MLIRError, match=re.escape("launches its cluster as (2, 2, 1), but")):
        compile_kernel(two_shapes, {"OUT": "*i32"}, A=K.MESH4, B=K.MESH2x2)
