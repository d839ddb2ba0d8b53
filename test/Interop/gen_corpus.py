"""Compile the corpus kernels with pip Triton 3.6.0 on the CPU for sm_90 and
capture each one's TTIR and TTGIR (and PTX, for the round-trip comparison).

    python test/Interop/gen_corpus.py [--out test/Interop/corpus]
"""
import argparse
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_kernels import KERNELS  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)
STAGES = ("ttir", "ttgir")


def compile_kernel(kernel, signature, constexprs, options):
    src = ASTSource(kernel, signature=signature, constexprs=constexprs)
    return triton.compile(src, target=TARGET, options=options)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "corpus"))
    parser.add_argument("--ptx", action="store_true", help="also write the PTX")
    args = parser.parse_args()
    assert triton.__version__ == "3.6.0", f"the corpus is for Triton 3.6.0, found {triton.__version__}"
    os.makedirs(args.out, exist_ok=True)
    for name, kernel, signature, constexprs, options in KERNELS:
        compiled = compile_kernel(kernel, signature, constexprs, options)
        for stage in STAGES + (("ptx",) if args.ptx else ()):
            with open(os.path.join(args.out, f"{name}.{stage}"), "w") as f:
                f.write(compiled.asm[stage])
        print(f"{name}: " + ", ".join(STAGES))
    print(f"{len(KERNELS)} kernels x {len(STAGES)} stages -> {args.out}")


if __name__ == "__main__":
    main()
