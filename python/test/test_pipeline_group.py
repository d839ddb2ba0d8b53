"""tle.range + tle.pipeline_group on the CPU (docs/pipeline-groups.md): the
groups' schedule reaches Triton's TTGIR (loads issued early into
multi-buffered shared memory, order of the loop body) and misuse is a
CompilationError at the user's line."""

import re

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
from triton.compiler.errors import CompilationError

import tle
import pipeline_group_kernels as K
from conftest import code

TARGET = "sm_90"
QK_SIG = {"Q": "*fp32", "K": "*fp32", "OUT": "*fp32", "n": "i32"}


def loop_body(text):
    """The lines of the first scf.for's body."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if "scf.for" in l)
    depth, body = 0, []
    for line in lines[start:]:
        depth += line.count("{") - line.count("}")
        body.append(line)
        if depth <= 0:
            break
    return body


def compile_qk(load_trans, one_core=True, yb=64, d=32):
    return tle.compile(K.qk_loop, signature=QK_SIG,
                       constexprs={"YB": yb, "D": d, "LOAD_TRANS": load_trans, "ONE_CORE": one_core},
                       target=TARGET, num_warps=4)


def compile_scale(load_stage, use_stage, ns=3, b=256):
    return tle.compile(K.scale_loop, signature={"X": "*fp32", "OUT": "*fp32", "n": "i32"},
                       constexprs={"B": b, "NS": ns, "LOAD_STAGE": load_stage, "USE_STAGE": use_stage},
                       target=TARGET, num_warps=4)


@pytest.mark.parametrize("load_trans", [False, True])
def test_fft_reference_loop_issues_group0_loads_a_stage_ahead(load_trans):
    c = compile_qk(load_trans)
    ttir = code(c, "tle-ttir")
    assert "pipeline_group" not in ttir and "elementwise_inline_asm" not in ttir
    assert len(re.findall(r"tt\.load .*\{tt\.latency = 1 : i32\}", ttir)) == 2, ttir
    assert "tt.num_stages = 2 : i32" in ttir
    ttgir = code(c, "triton-ttgir")  # Triton's own TTGIR, after its pipeliner
    # Both loads became cp.async copies into their own buffers, issued one
    # iteration ahead: a copy before the loop, one per iteration inside it.
    assert ttgir.count("ttg.async_copy_global_to_local") == 4, ttgir
    body = "\n".join(loop_body(ttgir))
    assert body.count("ttg.async_copy_global_to_local") == 2
    assert "ttg.async_wait" in body
    # Two buffers per load: one being filled while the warpgroup MMA reads
    # the other.
    assert len(re.findall(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<2x64x32xf32", ttgir)) == 2, ttgir
    assert "ttng.warp_group_dot" in body
    assert re.search(r"cp\.async\.c[ag]\.shared\.global", c.asm["ptx"])


def test_fft_reference_loop_matches_tritons_own_schedule():
    """For this loop Triton 3.6's automatic schedule (the seeds' tl.range
    form, num_stages=2) also issues the loads one stage ahead: the explicit
    groups [0, 1, 1] reproduce it exactly."""
    auto = triton.compile(ASTSource(K.qk_loop_auto, signature=dict(QK_SIG, YB="constexpr", D="constexpr"),
                                    constexprs={"YB": 64, "D": 32}), target=GPUTarget("cuda", 90, 32),
                          options={"num_warps": 4})
    grouped = compile_qk(False)

    def shape(c):
        # Triton's own TTGIR: "triton-ttgir" under TLE, "ttgir" without it.
        ttgir = code(c, "triton-ttgir" if "triton-ttgir" in c.asm else "ttgir")
        return (ttgir.count("ttg.async_copy_global_to_local"), ttgir.count("ttg.async_wait"),
                sorted(re.findall(r"ttg\.local_alloc : \(\) -> (!ttg\.memdesc<[^,]*)", ttgir)))

    assert shape(grouped) == shape(auto)
    assert shape(grouped)[0] == 4


@pytest.mark.parametrize("stages,latency,buffers", [((0, 2), 2, 2), ((0, 1), 1, 1), ((1, 2), 1, 1)])
def test_stage_distance_is_the_loads_latency(stages, latency, buffers):
    c = compile_scale(*stages)
    assert re.search(rf"tt\.load .*\{{tt\.latency = {latency} : i32\}}", code(c, "tle-ttir"))
    ttgir = code(c, "triton-ttgir")
    assert re.search(rf"ttg\.local_alloc : \(\) -> !ttg\.memdesc<{buffers}x256xf32", ttgir), ttgir
    assert "ttg.async_copy_global_to_local" in "\n".join(loop_body(ttgir))


def test_all_groups_in_stage_zero_is_not_pipelined():
    c = compile_scale(0, 0)
    assert re.search(r"tt\.load .*\{tt\.latency = 0 : i32\}", code(c, "tle-ttir"))
    ttgir = code(c, "triton-ttgir")
    assert "ttg.async_copy" not in ttgir and "ttg.local_alloc" not in ttgir
    # Without the groups Triton's heuristics would pipeline this loop.
    assert "ttg.async_copy_global_to_local" in code(compile_scale(0, 2), "triton-ttgir")


@pytest.mark.parametrize("orders,first", [((0, 1, 2), "math.exp"), ((0, 2, 1), "math.sqrt")])
def test_pipe_orders_order_the_stage(orders, first):
    c = tle.compile(K.two_sums, signature={"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "n": "i32"},
                    constexprs={"B": 256, "ORDERS": orders}, target=TARGET, num_warps=4)
    for stage in ("tle-ttir", "triton-ttgir"):
        body = loop_body(code(c, stage))
        where = {op: next(i for i, l in enumerate(body) if op in l) for op in ("math.exp", "math.sqrt")}
        assert min(where, key=where.get) == first, (stage, "\n".join(body))


def test_plain_tle_range_is_tl_range():
    @triton.jit
    def k(X, n, B: tl.constexpr):
        offs = tl.arange(0, B)
        for i in tle.range(0, n, B, num_stages=4, loop_unroll_factor=1):
            tl.store(X + i + offs, tl.load(X + i + offs) + 1.0)

    ttir = code(tle.compile(k, signature={"X": "*fp32", "n": "i32"}, constexprs={"B": 128}, target=TARGET), "ttir")
    assert "tt.num_stages = 4 : i32" in ttir and "tt.loop_unroll_factor = 1 : i32" in ttir


# --- misuse --------------------------------------------------------------

@triton.jit
def _lengths(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1], pipe_orders=[0, 1, 2]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            tl.store(X + i, x)


@triton.jit
def _too_few_groups(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1, 1]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            tl.store(X + i, x)


@triton.jit
def _index_out_of_range(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(2):
            tl.store(X + i, x)


@triton.jit
def _stage_too_large(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 2]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            tl.store(X + i, x)


@triton.jit
def _outside_loop(X, n):
    with tle.pipeline_group(0):
        tl.store(X, 1.0)


@triton.jit
def _in_plain_loop(X, n):
    for i in tl.range(0, n, 1, num_stages=2):
        with tle.pipeline_group(0):
            tl.store(X + i, 1.0)


@triton.jit
def _nested(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
            with tle.pipeline_group(1):
                tl.store(X + i, x)


@triton.jit
def _twice(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            y = x + 1.0
        with tle.pipeline_group(0):
            tl.store(X + i, y)


@triton.jit
def _executors(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1], executors=[0, range(1, 31)]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            tl.store(X + i, x)


@triton.jit
def _no_num_stages(X, n):
    for i in tle.range(0, n, 1, pipe_stages=[0]):
        with tle.pipeline_group(0):
            tl.store(X + i, 1.0)


@triton.jit
def _inside_if(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0]):
        if i > 2:
            with tle.pipeline_group(0):
                tl.store(X + i, 1.0)


@triton.jit
def _later_stage_value(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[1, 0]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            tl.store(X + i + 1, x)


@triton.jit
def _not_innermost(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0]):
        with tle.pipeline_group(0):
            for j in range(0, n):
                tl.store(X + i + j, 1.0)


@triton.jit
def _orders_against_use(X, n):
    for i in tle.range(0, n, 1, num_stages=2, pipe_stages=[0, 1], pipe_orders=[1, 0]):
        with tle.pipeline_group(0):
            x = tl.load(X + i)
        with tle.pipeline_group(1):
            tl.store(X + i + 1, x * 2.0)


MISUSE = [
    (_lengths, "pipe_stages (2 entries), pipe_orders (3) and executors (2) must have one entry per pipeline group",
     "for i in tle.range"),
    (_too_few_groups, "has no `with tle.pipeline_group(i):` block for group(s) [2]", "for i in tle.range"),
    (_index_out_of_range, "tle.pipeline_group(2): the loop has 2 pipeline group(s)", "with tle.pipeline_group(2)"),
    (_stage_too_large, "pipe_stages[1] = 2 must be in [0, num_stages = 2)", "for i in tle.range"),
    (_outside_loop, "tle.pipeline_group must be directly inside", "with tle.pipeline_group(0)"),
    (_in_plain_loop, "tle.pipeline_group must be directly inside", "with tle.pipeline_group(0)"),
    (_nested, "tle.pipeline_group(1) is nested in tle.pipeline_group(0)", "with tle.pipeline_group(1)"),
    (_twice, "tle.pipeline_group(0) is used twice in this loop", "with tle.pipeline_group(0)"),
    (_executors, "puts pipeline groups on different executors", "tle.gpu.warp_specialize"),
    (_no_num_stages, "tle.range with pipe_stages needs num_stages", "for i in tle.range"),
]


@pytest.mark.parametrize("kernel,message,line", MISUSE, ids=[m[0].__name__ for m in MISUSE])
def test_frontend_misuse_is_reported_at_the_users_line(kernel, message, line):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature={"X": "*fp32", "n": "i32"}, target=TARGET)
    text = str(info.value)
    assert message in text
    assert line in text


# (kernel, message, line of the error relative to `@triton.jit`)
COMPILER_MISUSE = [
    (_inside_if, "must be directly in the body of a tle.range loop (an scf.for), not inside scf.if", 4),
    (_later_stage_value, "pipeline group 1 (stage 0) uses a value computed in the same iteration by group 0 "
     "(stage 1)", 6),
    (_not_innermost, "must be an innermost loop", 3),
    (_orders_against_use, "pipe_orders puts group 1 (order 0) before group 0 (order 1), but an op of group 1 uses "
     "a value of group 0", 5),
]


@pytest.mark.parametrize("kernel,message,offset", COMPILER_MISUSE, ids=[m[0].__name__ for m in COMPILER_MISUSE])
def test_compiler_misuse_is_reported_at_the_users_line(kernel, message, offset):
    with pytest.raises(tle.MLIRError) as info:
        tle.compile(kernel, signature={"X": "*fp32", "n": "i32"}, target=TARGET)
    text = str(info.value)
    assert message in text
    line = kernel.fn.__code__.co_firstlineno + offset  # co_firstlineno is the @triton.jit line
    assert re.search(rf"test_pipeline_group\.py:{line}:\d+: error: ", text), text


def test_tle_range_needs_tle_enabled():
    src = ASTSource(_lengths, signature={"X": "*fp32", "n": "i32"})
    with pytest.raises(CompilationError, match="Only `range` and `static_range` iterators"):
        triton.compile(src, target=GPUTarget("cuda", 90, 32))
