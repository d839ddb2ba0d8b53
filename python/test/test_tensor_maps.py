"""Tensor maps in global memory on the CPU (``tle.gpu.tensor_map_fenceproxy_acquire``,
``tle.gpu.reinterpret_tensor_map``, ``tle.encode_tensor_map``): the kernels
of tensor_map_kernels.py compile to PTX for sm_90 through TLE's stages and
copy by TMA through the user's map, with no map built on the device; the
swizzle the host encoder picks is the one the kernel's layout has; misuse is
an error. The GPU runs are test_tensor_maps_gpu.py."""

import re

import pytest
import torch
import triton
import triton.language as tl

import tle
import tensor_map_kernels as K
from conftest import assert_finished, code, error_text, ptx_count


# An instruction's optional predicate.
P = r"(@%p\d+ )?"


def compile_kernel(name, **constexprs):
    return tle.compile(getattr(K, name), signature=K.SIGNATURES[name], constexprs=constexprs, target="sm_90")


def _no_device_map(c):
    """Triton builds no map on the device: no scratch map written, fenced
    and released by the kernel itself."""
    ttgir = code(c, "ttgir")
    assert "ttng.tensormap_create" not in ttgir and "global_scratch_alloc" not in ttgir
    assert ptx_count(c, rf"^{P}tensormap\.replace") == 0 and ptx_count(c, rf"^{P}tensormap\.cp_fenceproxy") == 0
    assert re.search(r"ttng\.reinterpret_tensor_descriptor %\S+ : !tt\.ptr<i8>", ttgir)


def test_public_names():
    import tle.gpu as gpu
    for name in ("tensor_map_fenceproxy_acquire", "reinterpret_tensor_map"):
        assert name in gpu.__all__ and getattr(gpu, name).__doc__
    for name in ("encode_tensor_map", "tensor_map_table", "tensor_map_swizzle", "tensor_map_box"):
        assert name in tle.__all__ and getattr(tle, name).__doc__
    # FlagTree indexes its table with pointer arithmetic (no tensor_map_table_entry).
    assert not hasattr(gpu, "tensor_map_table_entry")


def test_owner_tiles_copy_through_the_users_map():
    c = compile_kernel("owner_tiles_kernel", ROWS=8, COLS=32)
    assert_finished(c)
    _no_device_map(c)
    assert ptx_count(c, rf"^{P}fence\.proxy\.tensormap::generic\.acquire\.gpu \[ %rd\d+ \+ 0 \], 0x80;") == 1
    assert ptx_count(c, rf"^{P}cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global") == 1
    assert not re.search(r"^\s*(%\S+ = )?tle\.", code(c, "ttgir"), re.M)  # every tle op lowered


def test_owner_tiles_on_a_barrier_go_straight_into_the_buffer():
    c = compile_kernel("owner_tiles_on_barrier_kernel", ROWS=16, COLS=64, ROW0=4)
    assert_finished(c)
    _no_device_map(c)
    assert ptx_count(c, rf"^{P}mbarrier\.arrive\.expect_tx") >= 1
    assert ptx_count(c, rf"^{P}cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier") >= 1
    assert ptx_count(c, r"L2::cache_hint") == 0
    # With an L2 hint on the load (FlagTree's eviction_policy=): every box of it hinted.
    c = compile_kernel("owner_tiles_on_barrier_kernel", ROWS=16, COLS=64, ROW0=4, EVICT="evict_last")
    assert ptx_count(c, rf"^{P}createpolicy\.fractional\.L2::evict_last\.b64") == 1
    boxes = ptx_count(c, rf"^{P}cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier")
    assert boxes >= 1 and ptx_count(c, r"complete_tx::bytes\.L2::cache_hint .*, %rd\d+;") == boxes


def test_maps_in_a_loop():
    """A map picked, fenced and reinterpreted every iteration of a loop:
    Triton's device-side map goes in the loop too, and every TMA load of the
    loop (however LLVM unrolls it) carries the L2 hint."""
    c = compile_kernel("maps_in_a_loop_kernel", N=4, ROWS=16, COLS=32)
    assert_finished(c)
    _no_device_map(c)
    loads = ptx_count(c, rf"^{P}cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global")
    assert loads >= 1 and ptx_count(c, r"complete_tx::bytes\.L2::cache_hint") == loads
    assert ptx_count(c, rf"^{P}fence\.proxy\.tensormap::generic\.acquire\.gpu") >= 1


def test_maps_in_a_warp_specialized_producer():
    """The tensor-map primitives in a 1-warp TMA producer partition (with
    setmaxnreg): a map per tile, its loads hinted, no device-built map."""
    c = compile_kernel("maps_ws_ring_kernel", BM=64, BK=64)
    assert_finished(c)
    _no_device_map(c)
    assert ptx_count(c, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+40;") >= 1
    loads = ptx_count(c, rf"^{P}cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global")
    assert loads >= 1 and ptx_count(c, r"complete_tx::bytes\.L2::cache_hint") == loads
    assert ptx_count(c, rf"^{P}fence\.proxy\.tensormap::generic\.acquire\.gpu") >= 1


def test_owner_store_through_the_users_map():
    c = compile_kernel("owner_store_kernel", ROWS=8, COLS=32)
    assert_finished(c)
    _no_device_map(c)
    assert ptx_count(c, rf"^{P}cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 1


@pytest.mark.parametrize("rows,cols,dtype", [(8, 32, torch.float32), (4, 64, torch.float32), (32, 8, torch.float32),
                                             (8, 8, torch.float16), (16, 32, torch.float16),
                                             (64, 128, torch.bfloat16)])
def test_host_swizzle_is_the_kernels(rows, cols, dtype):
    """tle.tensor_map_swizzle (the host encoder's default) is the swizzle of
    the shared layout the compiled kernel gives the map's block, and the box
    (tle.tensor_map_box) cuts rows wider than it."""
    name = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16"}[dtype]

    @triton.jit
    def probe(table, out, ROWS: tl.constexpr, COLS: tl.constexpr):
        tile = tle.gpu.alloc([ROWS, COLS], dtype=out.dtype.element_ty)
        tle.gpu.tensor_map_fenceproxy_acquire(table)
        desc = tle.gpu.reinterpret_tensor_map(table, tile)
        tle.gpu.copy(desc, tile, [ROWS, COLS], [0, 0])
        r = tl.arange(0, ROWS)[:, None]
        c = tl.arange(0, COLS)[None, :]
        tl.store(out + r * COLS + c, tle.gpu.local_load(tile))

    c = tle.compile(probe, signature={"table": "*u8", "out": f"*{name}"}, constexprs={"ROWS": rows, "COLS": cols},
                    target="sm_90")
    ttgir = code(c, "ttgir")
    desc = re.search(r"reinterpret_tensor_descriptor .* to !tt\.tensordesc<tensor<[^,]*, (#\w+)>>", ttgir).group(1)
    layout = re.search(rf"^{desc} = (.*)$", ttgir, re.M).group(1)
    width = int(re.search(r"swizzlingByteWidth = (\d+)", layout).group(1))
    assert tle.tensor_map_swizzle([rows, cols], dtype) == width
    box = tle.tensor_map_box([rows, cols], dtype, width)
    assert box[0] == rows and box[1] * dtype.itemsize == (min(cols * dtype.itemsize, width) if width else
                                                         cols * dtype.itemsize)


@triton.jit
def _bad_kernel(table, out, CASE: tl.constexpr):
    tile = tle.gpu.alloc([8, 32], dtype=tl.float32)
    if CASE == 0:  # a tensor of pointers
        tle.gpu.tensor_map_fenceproxy_acquire(table + tl.arange(0, 4))
    elif CASE == 1:  # not a buffer
        tle.gpu.reinterpret_tensor_map(table, out)
    elif CASE == 2:  # a shared-memory pointer
        tle.gpu.reinterpret_tensor_map(tle.gpu.local_ptr(tile, (0, 0)), tile)
    elif CASE == 3:  # rows of 8 bytes
        narrow = tle.gpu.alloc([8, 2], dtype=tl.float32)
        tle.gpu.reinterpret_tensor_map(table, narrow)
    elif CASE == 4:  # a box over 256
        tall = tle.gpu.alloc([512, 4], dtype=tl.float32)
        tle.gpu.reinterpret_tensor_map(table, tall)
    else:  # an L2 hint on a TMA store
        desc = tle.gpu.reinterpret_tensor_map(table, tile)
        tle.gpu.copy(tile, desc, [8, 32], [0, 0], eviction_policy="evict_first")


@pytest.mark.parametrize("case,message", [
    (0, "ptr must be a scalar pointer to a 128-byte tensor map in global memory"),
    (1, "buffer must be a shared-memory buffer (tle.gpu.alloc)"),
    (2, "ptr must point into global memory (address space 1), got address space 3"),
    (3, "a TMA block's last dimension must be a multiple of 16 bytes, got 2 x fp32"),
    (4, "a TMA block has rank 1 to 5 and 1 to 256 elements a dimension"),
    (5, "eviction_policy= with a tensor descriptor is for a TMA load of a block into a buffer"),
])
def test_misuse_is_an_error(case, message):
    with pytest.raises(Exception) as info:
        tle.compile(_bad_kernel, signature={"table": "*u8", "out": "*fp32"}, constexprs={"CASE": case},
                    target="sm_90")
    assert message in error_text(info.value)


def test_reinterpret_needs_sm90():
    with pytest.raises(Exception) as info:
        tle.compile(K.owner_tiles_kernel, signature=K.SIGNATURES["owner_tiles_kernel"],
                    constexprs={"ROWS": 8, "COLS": 32}, target="sm_80")
    assert "sm_90" in error_text(info.value)


def test_host_encoder_checks_its_arguments(monkeypatch):
    from tle import _tensor_map as M
    cpu = torch.zeros(8, 32)
    with pytest.raises(tle.TLEUsageError, match="must be a CUDA tensor"):
        tle.encode_tensor_map(cpu, [8, 32])
    with pytest.raises(tle.TLEUsageError, match="needs shape=, strides= and dtype="):
        tle.encode_tensor_map(0x10000, [8, 32])
    args = dict(shape=[8, 32], dtype=torch.float32)
    with pytest.raises(tle.TLEUsageError, match="the last stride must be 1"):
        tle.encode_tensor_map(0x10000, [8, 32], strides=[1, 8], **args)
    with pytest.raises(tle.TLEUsageError, match="multiples of 16 bytes"):
        tle.encode_tensor_map(0x10000, [8, 32], strides=[33, 1], **args)
    with pytest.raises(tle.TLEUsageError, match="16-byte aligned"):
        tle.encode_tensor_map(0x10004, [8, 32], strides=[32, 1], **args)
    with pytest.raises(tle.TLEUsageError, match="a multiple of 16 bytes in the last"):
        tle.encode_tensor_map(0x10000, [8, 2], strides=[32, 1], **args)
    with pytest.raises(tle.TLEUsageError, match="swizzle must be None, 0, 32, 64 or 128"):
        tle.encode_tensor_map(0x10000, [8, 32], strides=[32, 1], swizzle=16, **args)
    with pytest.raises(tle.TLEUsageError, match="one or more 128-byte maps"):
        tle.tensor_map_table([b"\0" * 64])

    def no_driver(name):
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(M.ctypes, "CDLL", no_driver)
    with pytest.raises(tle.TLEUsageError, match="needs the CUDA driver"):
        tle.encode_tensor_map(0x10000, [8, 32], strides=[32, 1], **args)


def test_local_ptr_shape_broadcasts_the_indices():
    """FlagTree's ``local_ptr(buf, (rows, cols), shape=(R, C))``: the indices
    are broadcast to the shape (scalars too); one that does not broadcast is
    an error naming it."""
    for case in (0, 1):
        c = tle.compile(K.local_ptr_shape_kernel, signature={"out": "*fp32"},
                        constexprs={"R": 8, "C": 32, "CASE": case}, target="sm_90")
        assert_finished(c)
        assert ptx_count(c, rf"^{P}st\.shared") >= 1
    with pytest.raises(Exception) as info:
        tle.compile(K.local_ptr_shape_kernel, signature={"out": "*fp32"}, constexprs={"R": 8, "C": 32, "CASE": 2},
                    target="sm_90")
    assert "tle.gpu.local_ptr indices[0] of shape [1, 8] does not broadcast to shape=[8, 32]" in error_text(info.value)
