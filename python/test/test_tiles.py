"""tle.extract_tile / tle.insert_tile on the CPU: kernels compile to PTX through
TLE's stages (markers raised, ops lowered through shared memory, Triton takes
the TTGIR); misuse is reported at the user's line."""

import math
import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle
import tiles_kernels as K

TARGET = "sm_90"


def _code(text):
    """IR without location lines/attributes (file names may contain 'tle')."""
    return "\n".join(re.sub(r"loc\(.*", "", line) for line in text.splitlines() if not line.startswith("#loc"))


def assert_lowered(compiled, marker):
    assert f'"tle.{marker}' in compiled.asm["ttir"]  # the marker
    ttgir = _code(compiled.asm["ttgir"])
    assert "tle." not in ttgir  # raised and lowered
    assert "ttg.local_alloc" in ttgir and "ttg.memdesc_subslice" in ttgir
    assert ".entry" in compiled.asm["ptx"]
    assert isinstance(compiled.asm["cubin"], bytes) and len(compiled.asm["cubin"]) > 0
    return ttgir


def subslices(ttgir):
    return re.findall(r"ttg\.memdesc_subslice %\S+\[([0-9, ]+)\]", ttgir)


def ranges(ttgir):
    """(start, end) of every tt.make_range."""
    return [(int(s), int(e)) for e, s in re.findall(r"tt\.make_range \{end = (\d+) : i32, start = (\d+) : i32\}",
                                                    ttgir)]


def assert_narrowed(compiled, starts, tile, elem_bytes=4):
    """A static extract of a loaded tensor: the load replayed on the tile
    only (its ranges from the tile's offsets), no buffer of the source (the
    shared memory left is at most a layout conversion of the tile, from the
    load's layout to the store's)."""
    assert '"tle.extract_tile' in compiled.asm["ttir"]
    ttgir = _code(compiled.asm["ttgir"])
    assert "tle." not in ttgir
    assert "ttg.local_alloc" not in ttgir and "ttg.memdesc_subslice" not in ttgir
    assert compiled.metadata.shared <= math.prod(tile) * elem_bytes
    assert set(ranges(ttgir)) == {(s, s + t) for s, t in zip(starts, tile)} | {(0, t) for t in tile}
    shape = "x".join(str(t) for t in tile)
    assert len(re.findall(rf"tt\.load %\S+ : tensor<{shape}x!tt\.ptr", ttgir)) == 1
    assert ".entry" in compiled.asm["ptx"]
    return ttgir


@pytest.mark.parametrize("dtype", ["fp32", "fp16", "i32"])
@pytest.mark.parametrize("idx,starts", [(0, (0, 0)), (1, (0, 32)), (3, (16, 32)), ([1, 0], (16, 0))])
def test_extract_static_2d_loads_only_the_tile(dtype, idx, starts):
    """extract_2d's source is a load the extract alone uses: the tile is
    loaded directly (triton-tle-lower-tiles replays the pointer arithmetic
    on the tile's ranges), rows and columns from the tile's offsets."""
    k = tle.compile(K.extract_2d, signature={"X": f"*{dtype}", "Y": f"*{dtype}"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "IDX": idx}, target=TARGET)
    assert_narrowed(k, starts, (16, 32))


def test_extract_of_a_large_loaded_tensor_loads_only_the_tile():
    """FlagTree's static extract_tile test: the [128, 128] tile [1, 1] of a
    [512, 512] fp32 load (1 MiB, more than a multiprocessor's registers or
    shared memory) is the load of rows and columns 128..255 alone."""
    k = tle.compile(K.extract_2d, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 512, "N": 512, "TM": 128, "TN": 128, "IDX": [1, 1]}, target=TARGET)
    assert_narrowed(k, (128, 128), (128, 128))


def test_extract_static_of_a_tensor_used_elsewhere_goes_through_shared_memory():
    """relu_sub_tile's load feeds the extract and the insert: it is not
    loaded twice; the tile is a subslice of its copy in shared memory."""
    k = tle.compile(K.relu_sub_tile, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "R": 1, "C": 0}, target=TARGET)
    ttgir = assert_lowered(k, "extract_tile")
    assert "16, 0" in subslices(ttgir)
    assert len(re.findall(r"tt\.load %\S+ : tensor<32x64x!tt\.ptr", ttgir)) == 1


def test_extract_dynamic_2d_selects_among_every_tile():
    k = tle.compile(K.extract_2d_dynamic, signature={"X": "*fp32", "Y": "*fp32", "idx": "i32"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32}, target=TARGET)
    ttgir = assert_lowered(k, "extract_tile")
    assert sorted(subslices(ttgir)) == ["0, 0", "0, 32", "16, 0", "16, 32"]
    assert ttgir.count("arith.select") == 3


@pytest.mark.parametrize("dynamic", [False, True])
def test_extract_1d(dynamic):
    k = tle.compile(K.extract_1d, signature={"X": "*fp32", "Y": "*fp32", "idx": "i32"},
                    constexprs={"N": 256, "T": 64, "DYNAMIC": dynamic, "IDX": 2}, target=TARGET)
    if dynamic:
        ttgir = assert_lowered(k, "extract_tile")
        assert subslices(ttgir) == ["0", "64", "128", "192"]
    else:
        ttgir = assert_narrowed(k, (128,), (64,))


def assert_split(compiled, shape, starts, tile, elem_bytes=4):
    """A static insert whose result is only stored: two stores, the source's
    with the tile's box masked off and the tile's through the pointers
    replayed on the box (ranges from its offsets); no buffer of the source
    (the shared memory left is at most a layout conversion of the tile)."""
    assert '"tle.insert_tile' in compiled.asm["ttir"]
    ttgir = _code(compiled.asm["ttgir"])
    assert "tle." not in ttgir
    assert "ttg.memdesc_subslice" not in ttgir
    assert compiled.metadata.shared <= math.prod(tile) * elem_bytes
    full, box = ("x".join(str(d) for d in s) for s in (shape, tile))
    stores = re.findall(r"tt\.store %\S+, %\S+(, %\S+)? : tensor<(\w+)x!tt\.ptr", ttgir)
    assert sorted((dims, bool(mask)) for mask, dims in stores) == sorted([(full, True), (box, False)])
    assert {(s, s + t) for s, t in zip(starts, tile)} <= set(ranges(ttgir))
    assert ".entry" in compiled.asm["ptx"]
    return ttgir


@pytest.mark.parametrize("dynamic", [False, True])
def test_insert_2d(dynamic):
    k = tle.compile(K.insert_2d, signature={"X": "*fp32", "T": "*fp32", "Y": "*fp32", "idx": "i32"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "DYNAMIC": dynamic, "IDX": 2},
                    target=TARGET)
    if dynamic:
        ttgir = assert_lowered(k, "insert_tile")
        assert ttgir.count("scf.if") == 4
        assert sorted(subslices(ttgir)) == ["0, 0", "0, 32", "16, 0", "16, 32"]
    else:
        assert_split(k, (32, 64), (16, 0), (16, 32))


def test_insert_into_a_large_loaded_tensor_needs_no_shared_memory():
    """FlagTree's static insert_tile test: a [128, 128] tile into tile [1, 1]
    of a [512, 512] fp32 load that is then stored (1 MiB: no shared memory
    holds it) is the load's store with the tile's box masked off and the
    tile's store into rows and columns 128..255. (Smaller here than on the
    GPU so that ptxas is quick; the same path.)"""
    k = tle.compile(K.insert_2d, signature={"X": "*fp32", "T": "*fp32", "Y": "*fp32", "idx": "i32"},
                    constexprs={"M": 256, "N": 256, "TM": 64, "TN": 64, "DYNAMIC": False, "IDX": [1, 1]},
                    target=TARGET)
    assert_split(k, (256, 256), (64, 64), (64, 64))


def test_insert_static_of_a_tensor_used_elsewhere_goes_through_shared_memory():
    """The inserted tensor is also summed: it is built in shared memory."""
    k = tle.compile(K.insert_2d_and_sum, signature={"X": "*fp32", "T": "*fp32", "Y": "*fp32", "S": "*fp32"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "IDX": 2}, target=TARGET)
    ttgir = assert_lowered(k, "insert_tile")
    assert subslices(ttgir) == ["16, 0"]
    assert len(re.findall(r"tt\.store %\S+, %\S+ : tensor<32x64x!tt\.ptr", ttgir)) == 1


@pytest.mark.parametrize("dynamic", [False, True])
def test_insert_1d(dynamic):
    k = tle.compile(K.insert_1d, signature={"X": "*i32", "T": "*i32", "Y": "*i32", "idx": "i64"},
                    constexprs={"N": 128, "TN": 32, "DYNAMIC": dynamic, "IDX": 3}, target=TARGET)
    if dynamic:
        ttgir = assert_lowered(k, "insert_tile")
        assert subslices(ttgir) == ["0", "32", "64", "96"]
    else:
        assert_split(k, (128,), (96,), (32,))


def test_relu_sub_tile_method_form():
    k = tle.compile(K.relu_sub_tile, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 4, "N": 4, "TM": 2, "TN": 2, "R": 1, "C": 0}, target=TARGET, num_warps=1)
    ttgir = assert_lowered(k, "extract_tile")
    # The extract's source is also the insert's: the tile comes from shared
    # memory; the insert is only stored, so it is two stores.
    assert subslices(ttgir) == ["2, 0"]
    assert len(re.findall(r"tt\.store ", ttgir)) == 2


def test_swap_tiles_dynamic():
    k = tle.compile(K.swap_tiles_dynamic, signature={"X": "*fp32", "Y": "*fp32", "a": "i32", "b": "i32"},
                    constexprs={"M": 64, "N": 64, "TM": 32, "TN": 16}, target=TARGET)
    assert_lowered(k, "insert_tile")


def test_tiles_around_a_dot():
    k = tle.compile(K.dot_of_tiles, signature={"A": "*fp16", "B": "*fp16", "C": "*fp32", "idx": "i32"},
                    constexprs={"M": 64, "K": 32, "N": 64}, target=TARGET)
    ttgir = assert_lowered(k, "extract_tile")
    assert "#ttg.nvidia_mma" in ttgir and "tensor<64x64xf32, #mma> -> !ttg.memdesc<64x64xf32" in ttgir


def test_dynamic_tiles_in_a_loop():
    k = tle.compile(K.loop_tiles, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "TILES": 4}, target=TARGET)
    ttgir = assert_lowered(k, "insert_tile")
    assert "scf.for" in ttgir


@triton.jit
def unused_tiles(X, i):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, i, [16])
    y = tle.insert_tile(x, t, 2)
    tl.store(X + tl.arange(0, 64), x)


def test_unused_tiles_are_dropped():
    k = tle.compile(unused_tiles, signature={"X": "*fp32", "i": "i32"}, target=TARGET)
    assert "tle.extract_tile" in k.asm["ttir"] and "tle.insert_tile" in k.asm["ttir"]
    ttgir = _code(k.asm["ttgir"])
    assert "tle." not in ttgir and "ttg.local_alloc" not in ttgir
    assert ".entry" in k.asm["ptx"]


def test_one_tile_grid_is_the_identity():
    k = tle.compile(K.extract_2d, signature={"X": "*fp32", "Y": "*fp32"},
                    constexprs={"M": 16, "N": 32, "TM": 16, "TN": 32, "IDX": 0}, target=TARGET)
    assert "tle.extract_tile" not in k.asm["ttir"]
    assert "ttg.local_alloc" not in k.asm["ttgir"]


# --- misuse, reported at the user's line ------------------------------------------------------

@triton.jit
def bad_rank(X):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, 0, [8, 8])
    tl.store(X + tl.arange(0, 8), t)


@triton.jit
def bad_divide(X):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, 0, [24])
    tl.store(X + tl.arange(0, 24), t)


@triton.jit
def bad_coordinates(X):
    x = tl.load(X + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    t = x.extract_tile(index=[2, 0], shape=[2, 2])
    tl.store(X + tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :], t)


@triton.jit
def bad_linear_index(X):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, 4, [16])
    tl.store(X + tl.arange(0, 16), t)


@triton.jit
def bad_float_index(X, f):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, f, [16])
    tl.store(X + tl.arange(0, 16), t)


@triton.jit
def bad_tensor_index(X):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, tl.arange(0, 16), [16])
    tl.store(X + tl.arange(0, 16), t)


@triton.jit
def bad_insert_dtype(X):
    x = tl.load(X + tl.arange(0, 64))
    y = tle.insert_tile(x, tl.zeros([16], dtype=tl.float16), 1)
    tl.store(X + tl.arange(0, 64), y)


@triton.jit
def bad_insert_shape(X):
    x = tl.load(X + tl.arange(0, 64))
    y = tle.insert_tile(x, tl.zeros([32, 2], dtype=tl.float32), 1)
    tl.store(X + tl.arange(0, 64), y)


@triton.jit
def bad_runtime_tile_shape(X, n):
    x = tl.load(X + tl.arange(0, 64))
    t = tle.extract_tile(x, 0, [n])
    tl.store(X + tl.arange(0, 16), t)


def _compile_error(kernel, signature, constexprs=None):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature=signature, constexprs=constexprs or {}, target=TARGET)
    return str(info.value)


@pytest.mark.parametrize("kernel,signature,message,line", [
    (bad_rank, {"X": "*fp32"}, "tle.extract_tile: tile_shape [8, 8] has rank 2, but the tensor has shape [64] (rank 1)",
     "t = tle.extract_tile(x, 0, [8, 8])"),
    (bad_divide, {"X": "*fp32"}, "tle.extract_tile: tile_shape dimension 0 (24) does not divide the tensor's "
     "dimension 0 (64)", "t = tle.extract_tile(x, 0, [24])"),
    (bad_coordinates, {"X": "*fp32"}, "tle.extract_tile: index [2, 0] is out of range for the tile grid [2, 2] "
     "(coordinate 0 must lie in [0, 2))", "t = x.extract_tile(index=[2, 0], shape=[2, 2])"),
    (bad_linear_index, {"X": "*fp32"}, "tle.extract_tile: tile index 4 is out of range for the tile grid [4] (4 tiles)",
     "t = tle.extract_tile(x, 4, [16])"),
    (bad_float_index, {"X": "*fp32", "f": "fp32"}, "tle.extract_tile: a dynamic index must be an integer scalar, "
     "got fp32", "t = tle.extract_tile(x, f, [16])"),
    (bad_tensor_index, {"X": "*fp32"}, "tle.extract_tile: a dynamic index must be a scalar integer, got a tensor "
     "of shape [16]", "t = tle.extract_tile(x, tl.arange(0, 16), [16])"),
    (bad_insert_dtype, {"X": "*fp32"}, "tle.insert_tile: the tile's dtype fp16 must equal the tensor's fp32",
     "y = tle.insert_tile(x, tl.zeros([16], dtype=tl.float16), 1)"),
    (bad_insert_shape, {"X": "*fp32"}, "tle.insert_tile: tile shape [32, 2] has rank 2, but the tensor has shape "
     "[64] (rank 1)", "y = tle.insert_tile(x, tl.zeros([32, 2], dtype=tl.float32), 1)"),
    (bad_runtime_tile_shape, {"X": "*fp32", "n": "i32"}, "tle.extract_tile tile_shape must be a compile-time "
     "constant list of ints", "t = tle.extract_tile(x, 0, [n])"),
])
def test_misuse_points_at_user_line(kernel, signature, message, line):
    msg = _compile_error(kernel, signature)
    assert message in msg
    assert line in msg


def test_error_dynamic_index_over_too_many_tiles():
    with pytest.raises(tle.MLIRError) as info:
        tle.compile(K.extract_1d, signature={"X": "*fp32", "Y": "*fp32", "idx": "i32"},
                    constexprs={"N": 1024, "T": 8, "DYNAMIC": True, "IDX": 0}, target=TARGET)
    msg = str(info.value)
    assert "a dynamic tile index over 128 tiles is not supported (at most 64)" in msg
    assert "tiles_kernels.py" in msg  # the user's file and line


def test_error_without_tle_enabled():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(K.extract_2d, signature={"X": "*fp32", "Y": "*fp32", "M": "constexpr", "N": "constexpr",
                                            "TM": "constexpr", "TN": "constexpr", "IDX": "constexpr"},
                    constexprs={"M": 32, "N": 64, "TM": 16, "TN": 32, "IDX": 0})
    with pytest.raises(CompilationError) as info:
        triton.compile(src, target=GPUTarget("cuda", 90, 32))
    assert "tle.extract_tile needs TLE's compiler stages" in str(info.value)
