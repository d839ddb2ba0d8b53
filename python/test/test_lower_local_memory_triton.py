"""Triton 3.6 accepts what `triton-tle-lower-local-memory` produces.

Hand-written TTGIR kernels using TLE buffers, local/remote pointers,
shared-memory atomics, shard ids and cluster barriers are lowered with
build/bin/tle-opt (or $TLE_OPT) and compiled by pip Triton for sm_90 up to
its `llir` stage. The PTX stage is not reached on purpose: the IR still holds
`tle.smem.base N;` inline asm and `ld.global` on `ptr addrspace(3)` operands,
which the llir finish (`tle-finish-llir`) rewrites; ptxas would reject them.

What is checked in Triton's LLVM IR:
- the base asm, the `mapa`, `atom` and `%tid.x` / `%cluster_ctarank` asm
  strings survive Triton's lowering; the program id stays Triton's
  (`%ctaid.x`: a program is a CTA, not a cluster);
- loads and stores through local pointers become Triton's `ld.global` /
  `st.global` inline asm with a `ptr addrspace(3)` operand (cluster pointers:
  `ptr addrspace(7)`), vectorized to `.v4.b32` when contiguous: the
  `tt.divisibility` hint on the base's `tt.int_to_ptr` is what Triton's
  AxisInfo needs (without it accesses are scalar; checked below).
"""
import re

import pytest

from conftest import SM90, run_tle_opt

PASS = "--triton-tle-lower-local-memory"
MODULE_ATTRS = ('{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
                'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}')

KERNEL = f"""#blocked = #ttg.blocked<{{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#small = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#shared = #ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}}>
#smem = #ttg.shared_memory
#mesh = #tle.device_mesh<shape = [2], axes = ["c"], levels = ["block_cluster"]>
module attributes {MODULE_ATTRS} {{
  tt.func public @k(%X: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}, %Y: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}) attributes {{noinline = false}} {{
    %pid = tt.get_program_id x : i32
    %buf = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %stage = tle.alloc smem : () -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    %offs = tt.make_range {{end = 512 : i32, start = 0 : i32}} : tensor<512xi32, #blocked>
    %xs = tt.splat %X : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %x = tt.load %xp : tensor<512x!tt.ptr<f32>, #blocked>
    tle.copy %xp, %stage shape [512] : tensor<512x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    tle.local_store %x, %buf : tensor<512xf32, #blocked> -> !ttg.memdesc<512xf32, #shared, #smem, mutable>
    tle.distributed_barrier cluster
    %p = tle.local_pointers %buf : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512x!tt.ptr<f32, 3>, #blocked>
    %w = tt.load %p : tensor<512x!tt.ptr<f32, 3>, #blocked>
    %rank = tle.shard_id #mesh, "c"
    %c1 = arith.constant 1 : i32
    %peer = arith.subi %c1, %rank : i32
    %r = tle.remote_pointers cluster %p, %peer : tensor<512x!tt.ptr<f32, 3>, #blocked> -> tensor<512x!tt.ptr<f32, 7>, #blocked>
    %rv = tt.load %r : tensor<512x!tt.ptr<f32, 7>, #blocked>
    %sum = arith.addf %w, %rv : tensor<512xf32, #blocked>
    %old = tle.atomic_rmw fadd, relaxed, cta, %p, %sum : (tensor<512x!tt.ptr<f32, 3>, #blocked>, tensor<512xf32, #blocked>) -> tensor<512xf32, #blocked>
    %o16 = tt.make_range {{end = 16 : i32, start = 0 : i32}} : tensor<16xi32, #small>
    %q = tle.local_pointers %buf[%o16] : !ttg.memdesc<512xf32, #shared, #smem, mutable>, tensor<16xi32, #small> -> tensor<16x!tt.ptr<f32, 3>, #small>
    %ones = arith.constant dense<1.0> : tensor<16xf32, #small>
    %few = tle.atomic_rmw fadd, relaxed, cta, %q, %ones : (tensor<16x!tt.ptr<f32, 3>, #small>, tensor<16xf32, #small>) -> tensor<16xf32, #small>
    %c0 = arith.constant 0 : i32
    %one = tle.local_pointers %buf[%c0] : !ttg.memdesc<512xf32, #shared, #smem, mutable>, i32 -> !tt.ptr<f32, 3>
    %z = arith.constant 0.0 : f32
    %prev = tle.atomic_cas acq_rel, cta, %one, %z, %z : (!tt.ptr<f32, 3>, f32, f32) -> f32
    %v = tle.local_load %stage : !ttg.memdesc<512xf32, #shared, #smem, mutable> -> tensor<512xf32, #blocked>
    %ys = tt.splat %Y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %offs : tensor<512x!tt.ptr<f32>, #blocked>, tensor<512xi32, #blocked>
    %out = arith.addf %v, %old : tensor<512xf32, #blocked>
    tt.store %yp, %out : tensor<512x!tt.ptr<f32>, #blocked>
    %y0 = tt.addptr %Y, %pid : !tt.ptr<f32>, i32
    tt.store %y0, %z : !tt.ptr<f32>
    tt.return
  }}
}}
"""


class _Stop(Exception):
    pass


def compile_to_llir(tmp_path, text, name="k"):
    """Triton's stages for sm_90 up to and including `llir`; returns its text."""
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget

    captured = {}

    def hook(backend, stages, options, language, capability):
        inner = stages["llir"]

        def llir(src, metadata):
            captured["llir"] = inner(src, metadata)
            raise _Stop()

        stages["llir"] = llir

    path = tmp_path / f"{name}.ttgir"
    path.write_text(text)
    old = knobs.runtime.add_stages_inspection_hook
    knobs.runtime.add_stages_inspection_hook = hook
    try:
        triton.compile(str(path), target=GPUTarget(*SM90))
    except _Stop:
        pass
    finally:
        knobs.runtime.add_stages_inspection_hook = old
    assert "llir" in captured, "Triton did not reach its llir stage"
    return captured["llir"]


def _asm_calls(llir):
    """Inline-asm calls of the LLVM IR: (asm string, argument list) pairs."""
    calls = []
    for line in llir.splitlines():
        m = re.search(r'asm sideeffect "([^"]*)", "[^"]*"\((.*)\)', line) or \
            re.search(r'asm "([^"]*)", "[^"]*"\((.*)\)', line)
        if m:
            calls.append((m.group(1), m.group(2)))
    return calls


@pytest.fixture(scope="module")
def lowered():
    return run_tle_opt(KERNEL, PASS)


def test_lowered_module_attributes(lowered):
    assert "tle.shared = 2048 : i32" in lowered  # one 512 x f32 pointer buffer
    assert "tle.cluster_size = 2 : i32" in lowered
    assert "tle.cluster_dims = array<i32: 2, 1, 1>" in lowered
    assert "tle." not in re.sub(r"tle\.(shared|cluster_size|cluster_dims|smem\.base)", "", lowered)


def test_triton_compiles_lowered_local_memory(lowered, tmp_path):
    llir = compile_to_llir(tmp_path, lowered)
    calls = _asm_calls(llir)
    strings = [s for s, _ in calls]

    assert any(s == "tle.smem.base 0;" for s in strings)
    assert any(s.startswith("mapa.shared::cluster.u32") for s in strings)
    assert any("atom.relaxed.cta.shared::cta.add.f32" in s for s in strings)
    assert any("atom.acq_rel.cta.shared::cta.cas.b32" in s for s in strings)
    assert any("%cluster_ctarank" in s for s in strings)
    assert not any("%clusterid" in s for s in strings)  # a program is a CTA
    assert "@llvm.nvvm.read.ptx.sreg.ctaid.x()" in llir
    assert any("%tid.x" in s for s in strings)  # owner masks
    assert "barrier.cluster.arrive" in llir and "barrier.cluster.wait" in llir
    # Memdesc buffer: Triton's own shared memory.
    assert "@global_smem" in llir

    # Accesses through local pointers: Triton's ld.global / st.global asm on
    # addrspace(3) / addrspace(7) operands, vectorized 4 x 32 bits.
    shared_loads = [(s, a) for s, a in calls if "ld.global" in s and "ptr addrspace(3)" in a]
    cluster_loads = [(s, a) for s, a in calls if "ld.global" in s and "ptr addrspace(7)" in a]
    shared_stores = [(s, a) for s, a in calls if "st.global" in s and "ptr addrspace(3)" in a]
    assert shared_loads and cluster_loads and shared_stores
    assert all(".v4.b32" in s for s, _ in shared_loads), shared_loads
    assert all(".v4.b32" in s for s, _ in shared_stores), shared_stores
    # The cluster pointers map only the buffer's base (one scalar mapa) and keep
    # the offsets, so AxisInfo still sees contiguity: vectorized too.
    assert all(".v4.b32" in s for s, _ in cluster_loads), cluster_loads


def test_vectorization_needs_the_divisibility_hint(lowered, tmp_path):
    """Without the hint on tt.int_to_ptr, Triton cannot prove alignment and
    the same accesses are scalar: the hint is what makes them vectorize."""
    plain = re.sub(r" \{tt\.divisibility = dense<16> : tensor<1xi32>\}", "", lowered)
    assert plain != lowered
    llir = compile_to_llir(tmp_path, plain, name="plain")
    loads = [s for s, a in _asm_calls(llir) if "ld.global" in s and "ptr addrspace(3)" in a]
    assert loads and not any(".v4" in s for s in loads), loads
