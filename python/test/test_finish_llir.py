"""The llir finish (docs/local-memory.md, section 5) on Triton's own LLVM IR.

Each kernel takes its shared base from TLE's `tle.smem.base N;` marker (as the
local-memory lowering emits it) and does tl.load/tl.store through the shared
or cluster pointer; Triton 3.6 lowers those to `ld.global`/`st.global` asm.
The finished IR must go through Triton's own PTX and cubin stages (LLVM's
NVPTX backend, then ptxas) with shared-memory accesses in the PTX. Runs
through the nanobind module and through `TLE_OPT=tle-opt`.
"""
import re

import pytest

import triton
import triton.language as tl
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource, make_backend

from tle import _driver
from conftest import SM90, use_driver

TARGET = GPUTarget(*SM90)


def _stages():
    backend = make_backend(TARGET)
    options = backend.parse_options({})
    stages = {}
    from triton.backends.compiler import Language
    backend.add_stages(stages, options, Language.TRITON)
    return backend, options, stages


def to_llir(fn, signature, constexprs=None):
    """Triton's stages up to `llir` (the marker is invalid PTX on purpose)."""
    backend, options, stages = _stages()
    src = ASTSource(fn, signature, constexprs or {})
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    module = src.make_ir(TARGET, options, backend.get_codegen_implementation(options), backend.get_module_map(),
                         context)
    metadata = {"hash": "0", "target": TARGET, **options.__dict__}
    for ext in ("ttir", "ttgir", "llir"):
        module = stages[ext](module, metadata)
    return str(module), metadata


def to_cubin(llir, metadata):
    """Triton's remaining stages: PTX (NVPTX) and cubin (ptxas)."""
    _, _, stages = _stages()
    ptx = stages["ptx"](llir, metadata)
    cubin = stages["cubin"](ptx, metadata)
    return ptx, cubin


@triton.jit
def _smem(offset: tl.constexpr, dtype: tl.constexpr):
    b = tl.inline_asm_elementwise("tle.smem.base " + offset + ";", "=r", [], dtype=tl.int32, is_pure=True, pack=1)
    return tl.multiple_of(b.to(tl.int64).to(tl.pointer_type(dtype, 3)), 16)


@triton.jit
def local_roundtrip(x, out, n, BLOCK: tl.constexpr):
    p = _smem("0", tl.float32)
    q = _smem("4096", tl.float16)
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(p + offs, v)
    tl.store(q + offs, v.to(tl.float16), mask=offs < n)
    a = tl.load(p + offs, cache_modifier=".cg")
    b = tl.load(q + offs, mask=offs < n, other=0.0, eviction_policy="evict_last").to(tl.float32)
    c = tl.load(p + n)  # a scalar load
    s = tl.sum(a + b, 0)  # Triton's own shared memory: TLE's region goes after it
    tl.store(out + offs, a + b + c + s)


@triton.jit
def cluster_roundtrip(out, rank):
    p = _smem("16", tl.float32)
    offs = tl.arange(0, 128)
    tl.store(p + offs, offs.to(tl.float32))
    r = tl.inline_asm_elementwise("mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r",
                                  [(p + offs).to(tl.int64).to(tl.int32), rank], dtype=tl.int32, is_pure=True, pack=1)
    q = r.to(tl.int64).to(tl.pointer_type(tl.float32, 7))
    v = tl.load(q, mask=offs < 100, other=0.0)
    tl.store(q, v + 1.0)
    tl.store(out + offs, v)


@pytest.fixture(params=["module", "tle-opt"])
def finish(request, monkeypatch):
    """_driver.finish_llir in-process, or through tle-opt as a subprocess."""
    use_driver(request.param, monkeypatch)
    return _driver.finish_llir


def test_local_pointers_become_shared_accesses(finish):
    llir, md = to_llir(local_roundtrip, {"x": "*fp32", "out": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                       {"BLOCK": 1024})
    assert "tle.smem.base 0;" in llir and "ld.global" in llir
    triton_shared = md["shared"]
    assert triton_shared > 0  # the reduction
    text, shared = finish(llir, triton_shared, 6144)
    base = -(-triton_shared // 128) * 128
    assert shared == base + 6144
    assert "tle.smem.base" not in text
    assert f"getelementptr (i8, ptr addrspace(3) @global_smem, i32 {base + 4096})" in text
    md["shared"] = shared
    ptx, cubin = to_cubin(text, md)
    assert isinstance(cubin, bytes) and len(cubin) > 0
    # TLE's accesses, in Triton's asm form `[ %rN + 0 ]` (Triton's own
    # reduction prints `[%rN]`): 32-bit shared addresses.
    assert re.search(r"st\.shared\.v4\.b32 \[ %r\d+ \+ 0 \]", ptx)
    assert re.search(r"ld\.shared\.v4\.b32 \{[^}]*\}, \[ %r\d+ \+ 0 \]", ptx)
    assert re.search(r"@%p\d+ st\.shared(\.v\d)?\.b(16|32) \[ %r\d+ \+ 0 \]", ptx)  # masked fp16 store
    assert re.search(r"@%p\d+ ld\.shared(\.v\d)?\.b(16|32) ", ptx)  # masked, evict_last fp16 load
    assert re.search(r"ld\.shared\.b32 \{ %r\d+ \}, \[ %r\d+ \+ 0 \]", ptx)  # the scalar load
    # Only the input and output go to global memory (64-bit addresses), and
    # the global-only qualifiers are gone with the global state space.
    assert "cache_hint" not in ptx and ".cg" not in ptx
    globals_ = [line for line in ptx.splitlines() if "ld.global" in line or "st.global" in line]
    assert globals_ and all("[ %rd" in line for line in globals_), globals_


def test_cluster_pointers_become_shared_cluster_accesses(finish):
    llir, md = to_llir(cluster_roundtrip, {"out": "*fp32", "rank": "i32"})
    text, shared = finish(llir, md["shared"], 512)
    assert shared == -(-md["shared"] // 128) * 128 + 512
    md["shared"] = shared
    ptx, cubin = to_cubin(text, md)
    assert len(cubin) > 0
    assert "ld.shared::cluster.b32" in ptx
    assert "st.shared::cluster.b32" in ptx
    assert "st.shared.b32" in ptx
    assert "ld.global" not in ptx


def test_unfinished_llir_is_rejected_by_ptxas():
    """Without the finish the marker reaches ptxas: the tests above need it."""
    llir, md = to_llir(cluster_roundtrip, {"out": "*fp32", "rank": "i32"})
    with pytest.raises(Exception):
        to_cubin(llir, md)


def test_no_tle_region_is_unchanged(finish):
    @triton.jit
    def plain(x, out):
        offs = tl.arange(0, 128)
        tl.store(out + offs, tl.load(x + offs))

    llir, md = to_llir(plain, {"x": "*fp32", "out": "*fp32"})
    assert finish(llir, 48, 0) == (llir, 48)


def test_unfinishable_asm_is_an_error_naming_it(finish):
    llir, md = to_llir(cluster_roundtrip, {"out": "*fp32", "rank": "i32"})
    broken = llir.replace('"mov.u32 $0, $1;\\0A\\09@$3 ld.global.b32', '"mov.u32 $0, $1;\\0A\\09@$3 ld.b32', 1)
    assert broken != llir
    with pytest.raises(_driver.LLIRError, match=r'cannot finish inline asm "mov.u32 \$0, \$1;\\n\\t@\$3 ld.b32 .*'
                       r"operand \$2 is the address of `ld.b32`, which does not name the .global state space"):
        finish(broken, md["shared"], 512)


def test_tma_gathers_become_row_copies_on_sm_90(finish):
    """A plain Triton descriptor gather on sm_90: Triton's gather4 (an sm_100
    instruction, which ptxas rejects for sm_90a) becomes one-row tile copies
    with the row width given, and the kernel assembles."""

    @triton.jit
    def gather(desc, idx, out):
        rows = tl.load(idx + tl.arange(0, 32))
        x = desc.gather(rows, 0)
        tl.store(out + tl.arange(0, 32)[:, None] * 64 + tl.arange(0, 64)[None, :], x)

    llir, md = to_llir(gather, {"desc": "tensordesc<bf16[1,64]>", "idx": "*i32", "out": "*bf16"})
    assert "tile::gather4" in llir
    assert [m["block_size"] for m in md["tensordesc_meta"]] == [[1, 64]]
    with pytest.raises(Exception, match="gather4"):
        to_cubin(llir, md)
    text, shared = finish(llir, md["shared"], 0, tma_gather_row_bytes=[128])
    assert shared == md["shared"]
    assert "gather4" not in text
    ptx, cubin = to_cubin(text, md)
    assert len(cubin) > 0
    rows = re.findall(r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes "
                      r"\[%r\d+(\+\d+)?\], \[%rd\d+, \{%r\d+, %r\d+\}\]", ptx)
    # Each warp issues its share of the eight gather4s: four row copies each.
    assert rows and len(rows) % 4 == 0 and sorted(set(rows)) == ["", "+128", "+256", "+384"], rows
