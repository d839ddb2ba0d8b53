"""tle.load(..., is_async=True) on the CPU: kernels compile to PTX through TLE's
stages with cp.async where the design says (docs/async-load.md), the wait sits
before the first use, and misuse is a clear error at the user's line."""

import re

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle
import async_load_kernels as K
from conftest import code, ptx_count

TARGET = "sm_90"
F32 = {"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "K": "i32"}


def compile_masked_copy(dtype="fp32", block=1024):
    return tle.compile(K.masked_copy, signature={"X": f"*{dtype}", "Y": f"*{dtype}", "OUT": f"*{dtype}", "n": "i32"},
                       constexprs={"BLOCK": block}, target=TARGET, num_warps=4)


def compile_loop(kernel, ns=3, bk=256):
    return tle.compile(kernel, signature=F32, constexprs={"BK": bk, "NS": ns}, target=TARGET, num_warps=4)


@pytest.mark.parametrize("dtype", ["fp32", "i32", "i64"])
def test_straight_line_load_becomes_cp_async_waited_before_first_use(dtype):
    c = compile_masked_copy(dtype)
    ttir = code(c, "tle-ttir")
    assert "tle.async_load" not in ttir and 'elementwise_inline_asm "tle.' not in ttir
    assert re.search(r"tt\.load .*\{tle\.async\}", ttir), ttir
    ttgir = code(c, "ttgir")
    assert "tle.async" not in ttgir
    lines = ttgir.splitlines()
    where = {key: next(i for i, l in enumerate(lines) if key in l)
             for key in ("ttg.async_copy_global_to_local", "ttg.async_commit_group", "= tt.load",
                         "ttg.async_wait", "ttg.local_load", "arith.select")}
    # copy + commit at the load, the plain load of Y in between, then the wait,
    # the read back and the select of `other` (-1) before the first use.
    assert (where["ttg.async_copy_global_to_local"] < where["ttg.async_commit_group"] < where["= tt.load"]
            < where["ttg.async_wait"] < where["ttg.local_load"] < where["arith.select"])
    assert "mask" in lines[where["ttg.async_copy_global_to_local"]]
    assert "{num = 0 : i32}" in lines[where["ttg.async_wait"]]
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global") > 0
    assert ptx_count(c, r"^cp\.async\.commit_group") == 1
    assert ptx_count(c, r"^cp\.async\.wait_group\s+0") == 1


def test_narrow_elements_stay_synchronous_outside_loops():
    c = compile_masked_copy("fp16")
    assert "ttg.async_copy" not in code(c, "ttgir")
    assert "tle.async" not in code(c, "ttgir")
    assert ptx_count(c, r"^cp\.async") == 0
    assert ptx_count(c, r"ld\.global") > 0


@pytest.mark.parametrize("ns", [3, 4])
def test_loop_loads_are_pipelined_by_tritons_pipeliner(ns):
    c = compile_loop(K.loop_accumulate, ns=ns)
    ttir = code(c, "tle-ttir")
    assert len(re.findall(rf"tt\.load .*\{{tle\.async, tt\.latency = {ns - 1} : i32\}}", ttir)) == 2, ttir
    ttgir = code(c, "triton-ttgir")  # Triton's own TTGIR, after its pipeliner
    # ns - 1 buffers per load: the copies run ahead of their use.
    assert len(re.findall(rf"ttg\.local_alloc : \(\) -> !ttg\.memdesc<{ns - 1}x256xf32", ttgir)) == 2
    assert re.search(rf"ttg\.async_wait .*\{{num = {2 * (ns - 2)} : i32\}}", ttgir), ttgir
    # Nothing left for TLE's TTGIR fallback: no buffer of its own.
    assert code(c, "ttgir").count("ttg.local_alloc") == 2
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global") > 0
    assert ptx_count(c, r"^cp\.async\.wait_group\s+[1-9]") > 0  # waits that leave copies in flight
    assert ptx_count(c, r"ld\.global") == 0


def test_narrow_elements_in_a_loop_are_left_to_tritons_pipeliner():
    """fp16 with unknown alignment: a 2-byte copy cannot be cp.async; Triton keeps
    the loads synchronous and TLE's fallback leaves them alone."""
    sig = dict(F32, X="*fp16", Y="*fp16")
    c = tle.compile(K.loop_accumulate, signature=sig, constexprs={"BK": 256, "NS": 3}, target=TARGET, num_warps=4)
    assert "tle.async" not in code(c, "ttgir")
    assert ptx_count(c, r"^cp\.async") == 0
    assert ptx_count(c, r"ld\.global") > 0
    # 16-byte aligned pointers: Triton's pipeliner copies them with cp.async.
    aligned = tle.compile(K.loop_accumulate, signature=sig, constexprs={"BK": 256, "NS": 3}, target=TARGET,
                          num_warps=4, attrs={(i,): [["tt.divisibility", 16]] for i in range(4)})
    assert ptx_count(aligned, r"^cp\.async\.c[ag]\.shared\.global") > 0


def test_plain_load_in_the_same_loop_is_not_pipelined():
    """Triton 3.6: once a loop has a user latency (tt.latency), only those ops are pipelined."""
    mixed = compile_loop(K.loop_mixed)
    assert ptx_count(mixed, r"^cp\.async\.c[ag]\.shared\.global") > 0
    assert ptx_count(mixed, r"ld\.global") > 0
    # Without any tle.load, Triton pipelines both loads itself.
    plain = compile_loop(K.loop_plain)
    assert ptx_count(plain, r"ld\.global") == 0
    assert ptx_count(plain, r"^cp\.async\.c[ag]\.shared\.global") > 0


def test_matmul_pipelines_like_plain_triton():
    """A and B by tle.load(is_async=True): the same cp.async ring and async wgmma
    (one MMA in flight) as plain tl.load, which Triton pipelines by itself."""
    def shape(asy):
        c = tle.compile(K.matmul, signature={"A": "*fp16", "B": "*fp16", "C": "*fp32", "M": "i32", "N": "i32",
                                             "K": "i32"},
                        constexprs={"BM": 128, "BN": 128, "BK": 64, "ASYNC": asy}, target=TARGET, num_warps=4,
                        attrs={(i,): [["tt.divisibility", 16]] for i in range(6)})
        ptx = c.asm["ptx"]
        return (len(re.findall(r"cp\.async\.cg\.shared\.global", ptx)), len(re.findall(r"wgmma\.mma_async", ptx)),
                re.findall(r"wgmma\.wait_group\.sync\.aligned (\d+)", ptx),
                re.findall(r"cp\.async\.wait_group\s+(\d+)", ptx), ptx.count("ld.global"))
    ours, theirs = shape(True), shape(False)
    assert ours == theirs
    assert ours[0] > 0 and ours[1] > 0 and "1" in ours[2] and ours[4] == 0


def test_unpipelined_loop_gets_the_ttgir_fallback():
    c = compile_loop(K.loop_accumulate, ns=1)
    assert "tt.latency" not in code(c, "tle-ttir")
    ttgir = code(c, "ttgir")
    body = ttgir[ttgir.index("scf.for"):]
    assert body.count("ttg.async_copy_global_to_local") == 2
    assert body.count("ttg.async_wait") == 2
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global") > 0
    assert ptx_count(c, r"^cp\.async\.wait_group\s+0") == 2


def test_2d_tile_load():
    c = tle.compile(K.tile_rows, signature={"X": "*fp32", "OUT": "*fp32", "M": "i32"},
                    constexprs={"N": 64, "BM": 32}, target=TARGET, num_warps=4,
                    attrs={(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]]})
    assert "ttg.async_copy_global_to_local" in code(c, "ttgir")
    # Rows are contiguous and X is 16-byte aligned: 16-byte copies, read back
    # from shared memory as 16-byte vectors.
    assert ptx_count(c, r"^cp\.async\.cg\.shared\.global .*0x10") > 0
    assert ptx_count(c, r"^cp\.async\.c[ag]\.shared\.global .*0x4,") == 0
    assert ptx_count(c, r"^ld\.shared\.v4\.b32") > 0


def test_is_async_false_is_tl_load():
    sig = {"X": "*fp32", "OUT": "*fp32", "n": "i32"}
    ours = tle.compile(K.sync_load, signature=sig, constexprs={"BLOCK": 256}, target=TARGET)
    theirs = tle.compile(K.plain_load, signature=sig, constexprs={"BLOCK": 256}, target=TARGET)
    strip = lambda c: re.sub(r"sync_load|plain_load", "K", code(c, "ttgir"))
    assert strip(ours) == strip(theirs)
    assert ptx_count(ours, r"^cp\.async") == 0


# --- misuse -------------------------------------------------------------------


@triton.jit
def local_pointer_source(X):
    buf = tle.gpu.alloc([64], dtype=tl.float32)
    x = tle.load(tle.gpu.local_ptr(buf), is_async=True)
    tl.store(X + tl.arange(0, 64), x)


@triton.jit
def block_pointer_source(X):
    p = tl.make_block_ptr(X, shape=(64, 64), strides=(64, 1), offsets=(0, 0), block_shape=(16, 16), order=(1, 0))
    x = tle.load(p, is_async=True)


@triton.jit
def scalar_pointer_source(X):
    x = tle.load(X, is_async=True)


@triton.jit
def other_without_mask(X):
    x = tle.load(X + tl.arange(0, 64), other=1.0, is_async=True)


@triton.jit
def volatile_async(X):
    x = tle.load(X + tl.arange(0, 64), volatile=True, is_async=True)


@triton.jit
def cached_async(X):
    x = tle.load(X + tl.arange(0, 64), cache_modifier=".cg", is_async=True)


@triton.jit
def runtime_is_async(X, flag):
    x = tle.load(X + tl.arange(0, 64), is_async=flag)


@pytest.mark.parametrize("kernel,message,line", [
    (local_pointer_source, "shared-memory (tle.gpu.local_ptr) pointers (address space 3)", "tle.load(tle.gpu.local_ptr"),
    (block_pointer_source, "does not take block pointers (tl.make_block_ptr)", "tle.load(p, is_async=True)"),
    (scalar_pointer_source, "expects a tensor of pointers, got a scalar", "tle.load(X, is_async=True)"),
    (other_without_mask, "`other` cannot be provided without `mask`", "other=1.0"),
    (volatile_async, "cannot be volatile", "volatile=True"),
    (cached_async, "does not support cache_modifier='.cg'", "cache_modifier"),
])
def test_misuse_is_reported_at_the_users_line(kernel, message, line):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature={"X": "*fp32"}, target=TARGET)
    text = str(info.value)
    assert message in text
    assert line in text


def test_is_async_must_be_constexpr():
    with pytest.raises(CompilationError, match="is_async must be a compile-time constant"):
        tle.compile(runtime_is_async, signature={"X": "*fp32", "flag": "i1"}, target=TARGET)


def test_needs_tle_enabled():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    src = ASTSource(K.masked_copy, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "n": "i32",
                                              "BLOCK": "constexpr"}, constexprs={"BLOCK": 256})
    assert not tle.is_enabled()
    with pytest.raises(CompilationError, match="needs TLE's compiler stages"):
        triton.compile(src, target=GPUTarget("cuda", 90, 32))
