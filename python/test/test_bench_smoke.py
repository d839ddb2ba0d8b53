"""CI smoke test: every benchmark's kernels compile to PTX for sm_90 on the CPU.

Each ``bench/<name>.py`` (not starting with ``_``, not ``make_report.py``) must define
``smoke_kernels()``, returning a list of dicts with keys

- ``name``: a label for the test id,
- ``kernel``: the ``@triton.jit`` function the benchmark launches,
- ``signature`` / ``constexprs``: as for ``tle.compile``,
- ``options``: Triton compile options (``num_warps``, ``num_stages``, ...),
- ``tle``: True to compile through TLE's stages, False for plain Triton,
- ``expect``: substrings the PTX must contain (the instructions the kernel
  exists for, e.g. shared-memory atomics), possibly empty,
- ``attrs`` (optional): argument attributes, ``{(index,): [["tt.divisibility",
  16]], ...}``, as Triton's launcher specializes them for the benchmark's
  tensors (alignment decides vector widths, and with them cp.async).

So a benchmark cannot rot silently: if its kernels stop compiling, CI fails.
"""

import importlib
import os
import sys

import pytest

from conftest import REPO

BENCH_DIR = os.path.join(REPO, "bench")
# Every script of bench/ but the helpers (``_*.py``) and the report (make_report.py).
BENCHES = sorted(f[:-3] for f in os.listdir(BENCH_DIR)
                 if f.endswith(".py") and not f.startswith("_") and f != "make_report.py")


def _entries():
    sys.path.insert(0, BENCH_DIR)
    try:
        for name in BENCHES:
            mod = importlib.import_module(name)
            assert hasattr(mod, "smoke_kernels"), f"bench/{name}.py defines no smoke_kernels()"
            for entry in mod.smoke_kernels():
                yield pytest.param(entry, id=f"{name}-{entry['name']}")
    finally:
        sys.path.remove(BENCH_DIR)


def test_every_benchmark_is_covered():
    expected = {"topk_selector", "topk", "sparse_mla", "fft"}
    assert expected <= set(BENCHES), f"missing benchmark scripts: {sorted(expected - set(BENCHES))}"


@pytest.mark.parametrize("entry", list(_entries()))
def test_benchmark_kernel_compiles_to_ptx(entry):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import tle

    options = dict(entry.get("options", {}))
    if entry["tle"]:
        k = tle.compile(entry["kernel"], signature=entry["signature"], constexprs=entry["constexprs"],
                        target="sm_90", attrs=entry.get("attrs"), **options)
        assert "triton-ttgir" in k.asm, "compiled without TLE's stages"
    else:
        sig = dict(entry["signature"])
        for c in entry["constexprs"]:
            sig.setdefault(c, "constexpr")
        src = ASTSource(entry["kernel"], signature=sig, constexprs=entry["constexprs"], attrs=entry.get("attrs"))
        k = triton.compile(src, target=GPUTarget("cuda", 90, 32), options=options)
        assert "triton-ttgir" not in k.asm
    ptx = k.asm["ptx"]
    for s in entry["expect"]:
        assert s in ptx, f"{entry['name']}: PTX lacks {s!r}"
    assert k.asm.get("cubin"), "no cubin"


def test_topk_short_rows_compile_to_plain_tritons_ptx():
    """bench/topk.py: for N <= REGISTER_TOPK_MAX_N the tle provider runs
    single_tile_topk, a plain-Triton network (no TLE op), and TLE's stages
    leave its PTX as plain Triton's, line for line (debug lines aside): what
    the row measures is the one-tile algorithm, not the compiler."""
    torch = pytest.importorskip("torch")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import tle

    sys.path.insert(0, BENCH_DIR)
    try:
        topk = importlib.import_module("topk")
        KK = importlib.import_module("_topk_kernels")
    finally:
        sys.path.remove(BENCH_DIR)
    m, n, k = 64, topk.REGISTER_TOPK_MAX_N, 8
    inp = dict(x=torch.empty(m, n), k=k, idx=torch.empty(m, k, dtype=torch.int32), vals=torch.empty(m, k))
    assert topk.tle_provider(inp).__code__ is not topk.triton_provider(inp).__code__
    assert "single_tile_topk" in topk.tle_provider(inp).__code__.co_names
    sig = {"X": "*fp32", "OUT": "*i32", "VALS": "*fp32", "seq": "i32"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(4)}
    cx = {"K": k, "BLOCK": n}
    plain = triton.compile(ASTSource(KK.single_tile_topk, signature=dict(sig, K="constexpr", BLOCK="constexpr"),
                                     constexprs=cx, attrs=attrs),
                           target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
    through_tle = tle.compile(KK.single_tile_topk, signature=sig, constexprs=cx, target="sm_90", attrs=attrs,
                              num_warps=4)
    assert "triton-ttgir" in through_tle.asm

    def code(ptx):
        return [line for line in ptx.splitlines()
                if not line.strip().startswith(("//", ".loc", ".file", ".section", ".b8", ".b32", "$L__"))
                and "debug" not in line]

    assert code(through_tle.asm["ptx"]) == code(plain.asm["ptx"])


def test_fft_radix16_halves_the_exchanges():
    """bench/fft.py's tle-r16 does two radix-4 layers per shared-memory
    exchange: its PTX has one CTA barrier per exchange and at most 2/3 of
    the radix-4 tle kernel's shared-memory stores; at N = 256 the unused
    second buffer pair allocates nothing (half the shared memory). Read and
    written in place (PP False) it needs half the shared memory and one more
    barrier per later exchange."""
    import math
    import tle

    sys.path.insert(0, BENCH_DIR)
    try:
        fft = importlib.import_module("fft")
    finally:
        sys.path.remove(BENCH_DIR)
    sig = {"X": "*fp32", "Y": "*fp32", "TW": "*fp32", "B": "i32"}
    attrs = {(i,): [["tt.divisibility", 16]] for i in range(3)}

    def build(kernel, config, n):
        cfg = dict(config[n])
        warps = cfg.pop("num_warps")
        return tle.compile(kernel, signature=sig, constexprs=dict(N=n, LOGN=int(math.log2(n)), **cfg),
                           target="sm_90", num_warps=warps, attrs=attrs)

    # N = 256: radix 16 twice, the second buffer pair dropped; 512: radix 2
    # first; 1024: radix 4 last. Both kernels at tle's rows and warps, so the
    # counts compare like for like (tle-r16's own launch configs differ).
    same = {n: dict(ROWS=c["ROWS"], num_warps=c["num_warps"]) for n, c in fft.TLE_CONFIG.items()}
    for n, barriers in ((256, 1), (512, 2), (1024, 2)):
        r16, r4 = build(fft.fft_tle16_kernel, same, n), build(fft.fft_tle_kernel, fft.TLE_CONFIG, n)
        assert r16.asm["ptx"].count("bar.sync") == barriers, n
        assert r4.asm["ptx"].count("bar.sync") > barriers, n
        assert 3 * r16.asm["ptx"].count("st.shared") <= 2 * r4.asm["ptx"].count("st.shared"), n
        assert r16.metadata.shared * (2 if n == 256 else 1) == r4.metadata.shared, n
        # One pair read and written in place (PP False, the bench's choice):
        # half the shared memory of the ping-pong pairs where both are used,
        # and one more barrier (before the in-place stores) per exchange
        # after the first.
        inplace = build(fft.fft_tle16_kernel, {n: dict(same[n], PP=False)}, n)
        exchanges = 1 if n == 256 else 2
        assert inplace.asm["ptx"].count("bar.sync") == barriers + exchanges - 1, n
        assert inplace.metadata.shared * (1 if n == 256 else 2) == r16.metadata.shared, n
