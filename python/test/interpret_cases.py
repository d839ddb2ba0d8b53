"""Run under TRITON_INTERPRET=1 (test_interpret.py starts it in a subprocess):
TLE's local-memory primitives in Triton's interpreter, each case against a
torch reference. Prints one line per case, ``CASE <name> ok`` or
``CASE <name> FAIL <message>``."""
import os
import sys
import traceback

os.environ["TRITON_INTERPRET"] = "1"
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import tle  # noqa: E402


@triton.jit
def reverse_1d(X, Y, N: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    i = tl.arange(0, N)
    tl.store(tle.gpu.local_ptr(buf, (i,)), tl.load(X + i))
    tl.store(Y + i, tl.load(tle.gpu.local_ptr(buf, (N - 1 - i,))))


@triton.jit
def transpose_2d(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    buf = tle.gpu.alloc([M, N], dtype=tl.float32)
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    tl.store(tle.gpu.local_ptr(buf, (r, c)), tl.load(X + r * N + c))
    # Y[c, r] = X[r, c], read back through the [N, M] index grid.
    rr = tl.arange(0, N)[:, None]
    cc = tl.arange(0, M)[None, :]
    tl.store(Y + rr * M + cc, tl.load(tle.gpu.local_ptr(buf, (cc, rr))))
    # The pointers address the buffer row-major, as local_load reads it.
    tl.store(Z + r * N + c, tle.gpu.local_load(buf))


@triton.jit
def flat_offsets(X, Y, M: tl.constexpr, N: tl.constexpr):
    buf = tle.gpu.alloc([M, N], dtype=tl.float32)
    k = tl.arange(0, M * N)
    tl.store(tle.gpu.local_ptr(buf, offsets=k), tl.load(X + k))
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    tl.store(Y + r * N + c, tl.load(tle.gpu.local_ptr(buf, (r, c))))


@triton.jit
def init_store_load(X, Y, Z, N: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32, init_value=3.0)
    i = tl.arange(0, N)
    tl.store(Y + i, tle.gpu.local_load(buf))
    tle.gpu.local_store(buf, tl.load(X + i) * 2.0)
    tl.store(Z + i, tle.gpu.local_load(buf))


@triton.jit
def copy_both_ways(X, Y, N: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    i = tl.arange(0, N)
    tle.gpu.copy(X + i, buf, [N])
    tle.gpu.local_store(buf, tle.gpu.local_load(buf) + 1.0)
    tle.gpu.copy(buf, Y + i, [N])


@triton.jit
def alias_bits(X, Y, N: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    bits = tle.gpu.alloc([N], dtype=tl.int32, alias=buf)
    i = tl.arange(0, N)
    tle.gpu.local_store(buf, tl.load(X + i))
    tl.store(Y + i, tle.gpu.local_load(bits))


@triton.jit
def per_program(X, Y, N: tl.constexpr):
    pid = tl.program_id(0)
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    i = tl.arange(0, N)
    tl.store(tle.gpu.local_ptr(buf, (i,)), tl.load(X + pid * N + i) + pid)
    tl.store(Y + pid * N + i, tl.load(tle.gpu.local_ptr(buf, ((i + 1) % N,))))


@triton.jit
def fresh(Y, Z, N: tl.constexpr):
    f = tle.gpu.alloc([N], dtype=tl.float32)
    n = tle.gpu.alloc([N], dtype=tl.int32)
    i = tl.arange(0, N)
    tl.store(Y + i, tle.gpu.local_load(f))
    tl.store(Z + i, tle.gpu.local_load(n))


@triton.jit
def masked_edge(X, Y, N: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    i = tl.arange(0, N)
    tl.store(tle.gpu.local_ptr(buf, (i,)), tl.load(X + i))
    j = i + 1  # the last index falls past the buffer; the mask keeps it out
    v = tl.load(tle.gpu.local_ptr(buf, (j,)), mask=j < N, other=-5.0)
    tl.store(Y + i, v)


@triton.jit
def cumsum_2d(X, Y, T, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    exclusive, total = tle.cumsum(tl.load(X + r * N + c), axis=AXIS, reverse=REVERSE)
    tl.store(Y + r * N + c, exclusive)
    if AXIS == 0:
        tl.store(T + tl.arange(0, N), total)
    else:
        tl.store(T + tl.arange(0, M), total)


@triton.jit
def via_shared_memory(X, Y, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(Y + i, tle.gpu.memory_space(tl.load(X + i) * 3, "shared_memory"))


@triton.jit
def grouped_dot(X, Y, OUT, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], tl.float32)
    for off in tle.range(0, n, BLOCK, num_stages=2, pipe_stages=[0, 1]):
        with tle.pipeline_group(0):
            x = tl.load(X + off + tl.arange(0, BLOCK))
            y = tl.load(Y + off + tl.arange(0, BLOCK))
        with tle.pipeline_group(1):
            acc += x * y
    tl.store(OUT + tl.arange(0, BLOCK), acc)


@triton.jit
def barrier_phases(FLAGS):
    bar = tle.gpu.alloc_barrier(arrive_count=2)
    tle.gpu.barrier_arrive(bar)
    tl.store(FLAGS + 0, tle.gpu.barrier_try_wait(bar, phaseIdx=0).to(tl.int32))  # 1 of 2 arrivals: 0
    tle.gpu.barrier_arrive(bar)
    tl.store(FLAGS + 1, tle.gpu.barrier_try_wait(bar, phaseIdx=0).to(tl.int32))  # phase 0 complete: 1
    tle.gpu.barrier_wait(bar, phaseIdx=0)
    tle.gpu.barrier_arrive(bar, count=2)
    tle.gpu.barrier_wait(bar, phaseIdx=1)
    tl.store(FLAGS + 2, tle.gpu.barrier_try_wait(bar, phaseIdx=2).to(tl.int32))  # phase 2 open: 0
    ready = tle.gpu.alloc_barrier(init=tle.gpu.READY)
    tle.gpu.barrier_wait(ready, phaseIdx=0)  # an empty slot: returns at once
    tl.store(FLAGS + 3, tle.gpu.barrier_try_wait(ready, phaseIdx=1).to(tl.int32))  # 0


@triton.jit
def copies_on_barriers(X, x_desc, Y, Z, N: tl.constexpr, B: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    bars = tle.gpu.alloc_barriers(num_barriers=2, arrive_count=1)
    i = tl.arange(0, N)
    tle.gpu.copy(X + i, buf, [N], barrier=bars[0])  # cp.async
    tle.gpu.barrier_wait(bars[0], phaseIdx=0)
    tl.store(Y + i, tle.gpu.local_load(buf) + 1.0)
    tile = tle.gpu.alloc([B, B], dtype=tl.float32)
    tle.gpu.copy(x_desc, tile, [B, B], [B, 0], barrier=bars[1])  # TMA, rows B..2B-1
    tle.gpu.barrier_wait(bars[1], phaseIdx=0)
    r = tl.arange(0, B)[:, None]
    c = tl.arange(0, B)[None, :]
    tl.store(Z + r * B + c, tle.gpu.local_load(tile))


@triton.jit
def waits_forever(X):
    bar = tle.gpu.alloc_barrier(arrive_count=2)
    tle.gpu.barrier_arrive(bar)
    tle.gpu.barrier_wait(bar, phaseIdx=0)


@triton.jit
def out_of_bounds(X, N: tl.constexpr):
    buf = tle.gpu.alloc([N], dtype=tl.float32)
    i = tl.arange(0, N)
    tl.store(tle.gpu.local_ptr(buf, (i + 1,)), tl.load(X + i))


@triton.jit
def needs_gpu(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :])
    tle.extract_tile(x, [0, 1], [N // 2, N // 2])


def _x(n, *shape):
    return torch.randn(*(shape or (n, )), generator=torch.Generator().manual_seed(n))


def case_reverse_1d():
    x = _x(64)
    y = torch.empty_like(x)
    reverse_1d[(1, )](x, y, N=64)
    assert torch.equal(y, x.flip(0)), (x, y)


def case_transpose_2d():
    x = _x(0, 8, 16)
    y, z = torch.empty(16, 8), torch.empty(8, 16)
    transpose_2d[(1, )](x, y, z, M=8, N=16)
    assert torch.equal(y, x.t()) and torch.equal(z, x), (x, y, z)


def case_flat_offsets():
    x = _x(0, 4, 32)
    y = torch.empty_like(x)
    flat_offsets[(1, )](x, y, M=4, N=32)
    assert torch.equal(y, x)


def case_init_store_load():
    x = _x(32)
    y, z = torch.empty_like(x), torch.empty_like(x)
    init_store_load[(1, )](x, y, z, N=32)
    assert torch.equal(y, torch.full_like(x, 3.0)) and torch.equal(z, x * 2.0), (y, z)


def case_copy_both_ways():
    x = _x(128)
    y = torch.empty_like(x)
    copy_both_ways[(1, )](x, y, N=128)
    assert torch.equal(y, x + 1.0)


def case_alias_bits():
    x = _x(16)
    y = torch.empty(16, dtype=torch.int32)
    alias_bits[(1, )](x, y, N=16)
    assert torch.equal(y, x.view(torch.int32))


def case_per_program():
    x = _x(0, 8, 32)
    y = torch.empty_like(x)
    per_program[(8, )](x, y, N=32)
    ref = (x + torch.arange(8.0)[:, None]).roll(-1, dims=1)
    assert torch.equal(y, ref), (y, ref)


def case_fresh_buffers_are_poisoned():
    y, z = torch.zeros(16), torch.zeros(16, dtype=torch.int32)
    fresh[(1, )](y, z, N=16)
    assert torch.isnan(y).all() and (z == -1).all(), (y, z)


def case_masked_edge():
    x = _x(32)
    y = torch.empty_like(x)
    masked_edge[(1, )](x, y, N=32)
    assert torch.equal(y[:-1], x[1:]) and y[-1].item() == -5.0, (x, y)


def case_cumsum():
    x = torch.randint(-50, 50, (8, 16), generator=torch.Generator().manual_seed(3), dtype=torch.int32)
    for axis in (0, 1):
        for reverse in (False, True):
            y = torch.empty_like(x)
            t = torch.empty(x.shape[1 - axis], dtype=torch.int32)
            cumsum_2d[(1, )](x, y, t, M=8, N=16, AXIS=axis, REVERSE=reverse)
            src = x.flip(axis) if reverse else x
            ref = src.cumsum(axis, dtype=torch.int32) - src
            ref = ref.flip(axis) if reverse else ref
            assert torch.equal(y, ref) and torch.equal(t, x.sum(axis, dtype=torch.int32)), (axis, reverse, y, t)


def case_memory_space():
    x = torch.arange(32, dtype=torch.int32)
    y = torch.empty_like(x)
    via_shared_memory[(1, )](x, y, N=32)
    assert torch.equal(y, x * 3)


def case_range_with_pipeline_groups():
    x, y = _x(256), _x(7, 256)
    out = torch.empty(32)
    grouped_dot[(1, )](x, y, out, 256, BLOCK=32)
    torch.testing.assert_close(out, (x * y).reshape(8, 32).sum(0))


def case_barrier_phases():
    flags = torch.full((4, ), -7, dtype=torch.int32)
    barrier_phases[(1, )](flags)
    assert flags.tolist() == [0, 1, 0, 0], flags


def case_copies_on_barriers():
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = _x(64)
    m = _x(5, 32, 16)
    y, z = torch.empty_like(x), torch.empty(16, 16)
    copies_on_barriers[(1, )](x, TensorDescriptor.from_tensor(m, block_shape=[16, 16]), y, z, N=64, B=16)
    assert torch.equal(y, x + 1.0) and torch.equal(z, m[16:]), (y, z)


def case_a_wait_that_never_returns_is_an_error():
    _expect_error(lambda: waits_forever[(1, )](_x(4)),
                  "tle.gpu.barrier_wait: waits on phase 0 of an mbarrier that has completed 0 phase(s) with 1 of 2 "
                  "arrivals in the current one")


def case_outside_a_kernel_is_still_an_error():
    _expect_error(lambda: tle.gpu.alloc([16], dtype=tl.float32),
                  "tle.gpu.alloc can only be called inside a @triton.jit kernel")
    _expect_error(lambda: tle.gpu.pipeline(0, 4), "tle.gpu.pipeline can only be used as the iterator of a for loop")


def _expect_error(run, text):
    try:
        run()
    except Exception as e:  # the interpreter wraps it in an InterpreterError
        assert text in str(e), str(e)
        return
    raise AssertionError(f"no error; expected one saying {text!r}")


def case_out_of_bounds_is_an_error():
    x = _x(16)
    _expect_error(lambda: out_of_bounds[(1, )](x, N=16),
                  "tl.store through tle.gpu.local_ptr pointers: 1 of 16 accessed elements fall outside every "
                  "live TLE buffer (the first at block index (15,))")


def case_gpu_only_primitive_is_named():
    _expect_error(lambda: needs_gpu[(1, )](_x(0, 16, 16), N=16),
                  "tle.extract_tile does not run under Triton's interpreter (TRITON_INTERPRET=1)")


if __name__ == "__main__":
    cases = [(name[5:], fn) for name, fn in globals().items() if name.startswith("case_")]
    for name, fn in cases:
        try:
            fn()
            print(f"CASE {name} ok", flush=True)
        except Exception:
            message = traceback.format_exc().strip().replace("\n", " | ")
            print(f"CASE {name} FAIL {message}", flush=True)
    sys.exit(0)
