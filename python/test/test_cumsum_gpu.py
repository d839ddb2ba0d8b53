"""tle.cumsum on the GPU against torch, on random inputs at several sizes.

Skips without a CUDA GPU. Run on the H100 through the device tool:
    python -m pytest -q python/test/test_cumsum_gpu.py
"""

import pytest
import torch
import triton
import triton.language as tl

import tle
from conftest import has_gpu

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")

TORCH = {"i32": torch.int32, "i64": torch.int64, "fp32": torch.float32, "bf16": torch.bfloat16}
ACC = {"i32": torch.int32, "i64": torch.int64, "fp32": torch.float32, "bf16": torch.float32}


@triton.jit
def cumsum_1d(X, Y, T, N: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, N)
    e, t = tle.cumsum(tl.load(X + offs), axis=0, reverse=REVERSE)
    tl.store(Y + offs, e)
    tl.store(T, t)


@triton.jit
def cumsum_2d(X, Y, T, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    e, t = tle.cumsum(tl.load(X + offs), axis=AXIS, reverse=REVERSE)
    tl.store(Y + offs, e)
    if AXIS == 0:
        tl.store(T + tl.arange(0, N), t)
    else:
        tl.store(T + tl.arange(0, M), t)


def random_input(dtype, shape, gen):
    if dtype in ("i32", "i64"):
        return torch.randint(-1000, 1000, shape, generator=gen, dtype=TORCH[dtype]).cuda()
    return (torch.rand(shape, generator=gen) * 2 - 1).to(TORCH[dtype]).cuda()


def reference(x, axis, reverse, acc):
    """Exclusive cumsum and total in float64 / int64."""
    wide = x.to(torch.float64 if acc.is_floating_point else torch.int64)
    if reverse:
        wide = wide.flip(axis)
    excl = torch.cumsum(wide, axis) - wide
    if reverse:
        excl = excl.flip(axis)
    return excl, wide.sum(axis)


def check(got, want, acc, n):
    if acc.is_floating_point:
        # fp32 accumulation over n elements of magnitude <= 1.
        torch.testing.assert_close(got.double(), want, rtol=1e-5, atol=2e-6 * n)
    else:
        assert torch.equal(got.to(torch.int64), want)


@pytest.fixture(scope="module", autouse=True)
def _tle_on():
    with tle.enabled():
        yield


@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "bf16"])
@pytest.mark.parametrize("n", [32, 256, 1024, 4096])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_1d_matches_torch(dtype, n, reverse):
    gen = torch.Generator().manual_seed(n * 7 + reverse)
    acc = ACC[dtype]
    for _ in range(3):  # fresh random inputs each round
        x = random_input(dtype, (n,), gen)
        y = torch.empty(n, dtype=acc, device="cuda")
        t = torch.empty(1, dtype=acc, device="cuda")
        cumsum_1d[(1,)](x, y, t, N=n, REVERSE=reverse)
        want_e, want_t = reference(x, 0, reverse, acc)
        check(y, want_e, acc, n)
        check(t[0], want_t, acc, n)


@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "bf16"])
@pytest.mark.parametrize("shape", [(16, 128), (64, 32), (128, 64)])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_2d_matches_torch(dtype, shape, axis, reverse):
    gen = torch.Generator().manual_seed(hash((shape, axis, reverse)) % 2**31)
    acc = ACC[dtype]
    m, n = shape
    x = random_input(dtype, shape, gen)
    y = torch.empty(shape, dtype=acc, device="cuda")
    t = torch.empty(shape[1 - axis], dtype=acc, device="cuda")
    cumsum_2d[(1,)](x, y, t, M=m, N=n, AXIS=axis, REVERSE=reverse)
    want_e, want_t = reference(x, axis, reverse, acc)
    check(y, want_e, acc, shape[axis])
    check(t, want_t, acc, shape[axis])


@pytest.mark.parametrize("reverse", [False, True])
def test_float_exclusive_is_exact_at_the_start_even_with_inf(reverse):
    n = 256
    x = torch.rand(n, device="cuda")
    first = n - 1 if reverse else 0
    x[first] = float("inf")
    y = torch.empty_like(x)
    t = torch.empty(1, device="cuda")
    cumsum_1d[(1,)](x, y, t, N=n, REVERSE=reverse)
    assert y[first].item() == 0.0  # `inclusive - x` would give inf - inf = NaN here
    rest = torch.cat([y[:first], y[first + 1:]])
    assert torch.isinf(rest).all()
    assert t.item() == float("inf")
