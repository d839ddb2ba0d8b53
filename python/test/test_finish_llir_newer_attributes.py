"""A TLE kernel whose LLVM IR declares intrinsics (llvm.smin from tl.minimum,
llvm.ctpop from a cumsum of a mask) must compile to PTX: TLE's llir finish
(LLVM 22) re-prints their declarations with attributes such as
``nocreateundeforpoison`` that Triton 3.6's LLVM cannot parse back (it used
to abort the process in make_ptx: "unterminated attribute group")."""

import triton
import triton.language as tl

import tle


@triton.jit
def clamp_count(X, OUT, n, BINS: tl.constexpr):
    h = tle.gpu.alloc([BINS], dtype=tl.int32)
    tl.store(tle.gpu.local_ptr(h), tl.zeros([BINS], tl.int32))
    m = tl.minimum(n, 7)
    offs = tl.arange(0, BINS)
    x = tl.load(X + offs, mask=offs < m, other=0)
    tl.atomic_add(tle.gpu.local_ptr(h, (x,)), 1, mask=offs < m, sem="relaxed", scope="cta")
    pos, total = tle.cumsum((x > 0).to(tl.int32), axis=0)
    tl.store(OUT + offs, tl.load(tle.gpu.local_ptr(h)) + pos)
    tl.store(OUT + BINS, total)


def test_intrinsic_declarations_survive_the_llir_finish():
    c = tle.compile(clamp_count, signature={"X": "*i32", "OUT": "*i32", "n": "i32"}, constexprs={"BINS": 64},
                    target="sm_90")
    assert "llvm.smin" in c.asm["llir"] or "min.s32" in c.asm["ptx"]
    assert "atom.relaxed.cta.shared::cta.add.u32" in c.asm["ptx"]
    assert c.asm["cubin"]
