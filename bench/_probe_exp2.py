"""Probe: FA4's software exponential in `tle-fa3`'s softmax. k of every 4
elements of P take exp2 as a degree-3 polynomial on the FMA pipes plus an
add into the exponent bits (relative error at most 2.1e-4, under bf16's
half ulp) instead of MUFU.EX2; the rest stay on MUFU. Each variant runs in
a process of its own (the kernel's cache key is fixed at its first
compile), checked against the reference before timing, do_bench median
(bench/README.md,
FlashAttention forward):

    python3 bench/_probe_exp2.py             # D = 64 and 128, causal and not
    EXP2_EMU=2 D=64 C=0 NS=4096 python3 bench/_probe_exp2.py   # one variant
"""
import os
import subprocess
import sys

import triton
import triton.language as tl

# 2^f on [-0.5, 0.5], relative minimax (fp32 bit patterns): 1, ln 2, ... fitted.
_C = ("0f3F7FFF42", "0f3F3178B7", "0f3E779C27", "0f3D60A84D")


def _asm(k):
    """PTX for 4 packed elements: the first k by the polynomial (round x to
    n by the 1.5 * 2^23 trick, f = x - n, 2^f by Horner, n << 23 added to
    the bits; x clamped at -126, so -inf gives 2^-126), the rest ex2.approx."""
    out = "{ .reg .f32 xc, t, r, fr, p; .reg .b32 tb, pb; "
    for e in range(4):
        if e < k:
            out += (f"max.f32 xc, ${4 + e}, 0fC2FC0000; add.rn.f32 t, xc, 0f4B400000; "
                    f"sub.rn.f32 r, t, 0f4B400000; sub.rn.f32 fr, xc, r; fma.rn.f32 p, fr, {_C[3]}, {_C[2]}; "
                    f"fma.rn.f32 p, p, fr, {_C[1]}; fma.rn.f32 p, p, fr, {_C[0]}; mov.b32 tb, t; "
                    f"shl.b32 tb, tb, 23; mov.b32 pb, p; add.s32 pb, pb, tb; mov.b32 ${e}, pb; ")
        else:
            out += f"ex2.approx.ftz.f32 ${e}, ${4 + e}; "
    return out + "}"


ASM = tl.constexpr(_asm(int(os.environ.get("EXP2_EMU", "0"))))


@triton.jit
def softmax_emulated(s, m_i, l_i, qk_scale):
    """attention._online_softmax with P's exponentials from ``ASM``."""
    m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
    p = tl.inline_asm_elementwise(ASM, "=f,=f,=f,=f,f,f,f,f", [s * qk_scale - m_new[:, None]], dtype=tl.float32,
                                  is_pure=True, pack=4)
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    return p, alpha, m_new, l_i


def _one():
    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _harness
    import attention as A
    import tle
    k = int(os.environ["EXP2_EMU"])
    if k > 0:
        A._online_softmax = softmax_emulated
    tle.enable()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)
    d, c = int(os.environ["D"]), int(os.environ["C"])
    for n in map(int, os.environ["NS"].split(",")):
        shape = (16384 // n, 2048 // d, n, d, c)
        inp = A.make_inputs(shape, "cuda", gen, type("Args", (), {"triton_config": None}))
        run = A.tle_fa3_provider(inp)
        inp["out"].fill_(float("nan"))
        run()
        torch.cuda.synchronize()
        A.check("tle-fa3", inp, inp["out"])
        ms = _harness.time_ms(run, 25, 100)
        print(f"| {d} | {c} | {n} | {k} / 4 | {ms:.4f} | {A.flops(shape) / ms / 1e9:.0f} |", flush=True)


def main():
    if "EXP2_EMU" in os.environ:
        return _one()
    print("| D | CAUSAL | N | emulated | tle-fa3 ms | TFLOP/s |\n|---:|---:|---:|---:|---:|---:|", flush=True)
    for d, c, ns, ks in ((64, 0, "4096,16384", (0, 1, 2, 4)), (64, 1, "4096,16384", (0, 1, 2)),
                         (128, 0, "16384", (0, 1))):
        for k in ks:
            subprocess.run([sys.executable, __file__], check=True,
                           env=dict(os.environ, EXP2_EMU=str(k), D=str(d), C=str(c), NS=ns))


if __name__ == "__main__":
    main()
