"""Probe: the copy floor under bench/fft.py's bars. An out-of-place FFT reads
and writes every byte once, so no FFT of a shape beats the fastest copy of
the same bytes (the faster of torch's ``copy_`` and a swept Triton copy).
Beside it, in the same process: plain Triton's FFT (``triton``), TLE's best
(``tle-r16``) and cuFFT (``torch.fft``), each checked first; then the time
1.2x plain Triton would need (bench/README.md, FFT):

    python3 bench/_probe_copy_floor.py
"""
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402
import fft  # noqa: E402
import tle  # noqa: E402


@triton.jit
def _copy(X, Y, n, BLOCK: tl.constexpr):
    off = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = off < n
    tl.store(Y + off, tl.load(X + off, mask=m), mask=m)


def _us(fn):
    """Median microseconds (the benchmarks' do_bench convention)."""
    return _harness.time_ms(fn, 25, 100) * 1e3


def main():
    tle.enable()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)
    print(f"{torch.cuda.get_device_name(0)}; us, do_bench median")
    print("| B | N | copy floor | triton | tle-r16 | torch.fft | 1.2x triton needs | vs floor |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for b, n in fft.BENCH.default_shapes:
        inp = fft.make_inputs((b, n), "cuda", gen, None)
        x, y = inp["x"], inp["y"]
        xr, yr = torch.view_as_real(x).view(-1), torch.view_as_real(y).view(-1)
        copies = [lambda: y.copy_(x)]
        for blk in (1024, 2048, 4096, 8192):
            for w in (4, 8):
                copies.append(lambda blk=blk, w=w: _copy[(triton.cdiv(xr.numel(), blk),)](
                    xr, yr, xr.numel(), BLOCK=blk, num_warps=w))
        for c in copies:
            yr.zero_()
            c()
            assert torch.equal(yr, xr)
        floor = min(_us(c) for c in copies)
        t = {}
        for name in ("triton", "tle-r16", "torch"):
            run = fft.BENCH.providers[name](inp)
            fft.check(name, inp, run())
            t[name] = _us(run)
        need = t["triton"] / 1.2
        print(f"| {b} | {n} | {floor:.1f} | {t['triton']:.1f} | {t['tle-r16']:.1f} | {t['torch']:.1f} | {need:.1f} | "
              f"{need / floor:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
