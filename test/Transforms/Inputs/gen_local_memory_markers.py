"""Regenerates local_memory_markers.ttir / .ttgir: TLE-Struct markers
(docs/local-memory.md section 1) written by hand with
tl.inline_asm_elementwise, compiled by pip Triton 3.6 for sm_90 and captured
after its ttir and ttgir stages (the markers are not PTX, so compilation is
stopped there). Run: python gen_local_memory_markers.py OUTDIR
"""
import sys

import triton
import triton.language as tl
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource



# Built outside the kernel: inside @triton.jit the address space would arrive
# as a constexpr, which tl.pointer_type does not unwrap.
F32_SMEM = tl.pointer_type(tl.float32, 3)
F32_CLUSTER = tl.pointer_type(tl.float32, 7)


@tl.core.builtin
def marker(asm, args, dtype, _semantic=None):
    """tl.inline_asm_elementwise without its pairwise type checks (which
    reject a global pointer next to a shared one, or a pointer next to a
    float): operands are broadcast to one shape, then the marker is built."""
    asm = tl.core._unwrap_if_constexpr(asm)
    args = [_semantic.to_tensor(a) for a in args]
    shape = []
    for a in args:
        if a.type.is_block():
            shape = list(a.shape)
    if shape:
        args = [_semantic.broadcast_impl_shape(a, shape) for a in args]
        res_ty = tl.block_type(dtype, shape)
    else:
        res_ty = dtype
    cons = ",".join(["=r"] + ["r"] * len(args))
    builder = _semantic.builder
    call = builder.create_inline_asm(asm, cons, [a.handle for a in args],
                                     [res_ty.to_ir(builder)], False, 1)
    return tl.core.tensor(call.get_result(0), res_ty)


@triton.jit
def local_memory(X, Y, Z, N: tl.constexpr):
    # buf = tle.gpu.alloc([N], f32): a pointer buffer (it has local_ptr users).
    buf = marker(
        "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = "
        "[!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, "
        "#ttg.shared_memory, mutable>]}",
        [], F32_SMEM)
    # stage = tle.gpu.alloc([N], f32): a memdesc buffer (whole-buffer access only).
    stage = marker(
        "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = "
        "[!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, "
        "#ttg.shared_memory, mutable>]}",
        [], F32_SMEM)
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    # tle.gpu.copy(X + offs, stage, [N])
    marker(
        "tle.copy {shape = array<i64: 128>, tle.marker.scalar_operands = array<i32: 1>, "
        "tle.marker.no_results = true}",
        [X + offs, stage], tl.int32)
    # tle.gpu.local_store(buf, x)
    marker(
        "tle.local_store {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}",
        [x, buf], tl.int32)
    # p = tle.gpu.local_ptr(buf): full view
    p = marker(
        "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}",
        [tl.broadcast_to(buf, [N])], F32_SMEM)
    # q = tle.gpu.local_ptr(buf, (N - 1 - offs,)): indexed
    q = marker(
        "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}",
        [buf, N - 1 - offs], F32_SMEM)
    # one = tle.gpu.local_ptr(buf, (0,)): scalar
    one = marker(
        "tle.local_pointers",
        [buf, 0], F32_SMEM)
    rank = tl.inline_asm_elementwise(
        'tle.shard_id {mesh = #tle.device_mesh<shape = [2], axes = ["cluster_x"], '
        'levels = ["block_cluster"]>, axis = "cluster_x"}',
        "=r", [], dtype=tl.int32, is_pure=False, pack=1)
    # r = tle.remote(p, 1 - rank, mesh)
    r = marker(
        "tle.remote_pointers {space = #tle.remote_space<cluster>, tle.marker.scalar_operands = array<i32: 1>}",
        [p, 1 - rank], F32_CLUSTER)
    marker(
        "tle.distributed_barrier {group = #tle.distributed_group<cluster>, tle.marker.no_results = true}",
        [], tl.int32)
    y = tl.load(q) + tl.load(r)
    # tl.atomic_add(p, y, mask=offs < 64) on shared memory
    old = marker(
        "tle.atomic_rmw {kind = #tle.atomic_kind<fadd>, sem = #tle.mem_semantic<relaxed>, "
        "scope = #tle.mem_scope<cta>}",
        [p, y, offs < 64], tl.float32)
    prev = marker(
        "tle.atomic_cas {sem = #tle.mem_semantic<acq_rel>, scope = #tle.mem_scope<cluster>}",
        [one, 0.0, 1.0], tl.float32)
    v = marker(
        "tle.local_load {tle.marker.scalar_operands = array<i32: 0>}",
        [tl.broadcast_to(stage, [N])], tl.float32)
    tl.store(Y + offs, v + old)
    tl.store(Z, prev)


class _Stop(Exception):
    pass


def capture(fn, signature, constexprs):
    captured = {}

    def hook(backend, stages, options, language, capability):
        for name in ("ttir", "ttgir"):
            inner = stages[name]

            def wrapped(src, metadata, _inner=inner, _name=name):
                mod = _inner(src, metadata)
                captured[_name] = str(mod)
                if _name == "ttgir":
                    raise _Stop()
                return mod
            stages[name] = wrapped

    old = knobs.runtime.add_stages_inspection_hook
    knobs.runtime.add_stages_inspection_hook = hook
    try:
        triton.compile(ASTSource(fn, signature, constexprs),
                       target=GPUTarget("cuda", 90, 32))
    except _Stop:
        pass
    finally:
        knobs.runtime.add_stages_inspection_hook = old
    return captured


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    got = capture(local_memory, {"X": "*fp32", "Y": "*fp32", "Z": "*fp32", "N": "constexpr"},
                  {"N": 128})
    for stage, text in got.items():
        with open(f"{out}/local_memory_markers.{stage}", "w") as f:
            f.write(text)
