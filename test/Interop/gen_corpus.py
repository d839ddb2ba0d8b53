"""Compile the corpus kernels with pip Triton 3.6.0 on the CPU for sm_90 (the
Blackwell ones of corpus_kernels.CAPABILITY for sm_100) and capture each one's
TTIR and TTGIR (Gluon kernels: the frontend's TTGIR, written as NAME.source,
and TTGIR), and with --ptx the PTX.

    python test/Interop/gen_corpus.py [--out test/Interop/corpus] [--only NAME ...]
"""
import argparse
import os
import sys

import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_kernels import KERNELS, ast_source, stages, target  # noqa: E402


def compile_kernel(name, kernel, signature, constexprs, options):
    return triton.compile(ast_source(kernel, signature, constexprs), target=target(name), options=options)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "corpus"))
    parser.add_argument("--ptx", action="store_true", help="also write the PTX")
    parser.add_argument("--only", nargs="+", help="capture only these kernels")
    args = parser.parse_args()
    assert triton.__version__ == "3.6.0", f"the corpus is for Triton 3.6.0, found {triton.__version__}"
    os.makedirs(args.out, exist_ok=True)
    selected = [k for k in KERNELS if not args.only or k[0] in args.only]
    if args.only and len(selected) != len(set(args.only)):
        sys.exit(f"unknown kernels in --only: {sorted(set(args.only) - {k[0] for k in selected})}")
    files = 0
    for name, kernel, signature, constexprs, options in selected:
        compiled = compile_kernel(name, kernel, signature, constexprs, options)
        captured = stages(kernel)
        for stage in captured + (("ptx",) if args.ptx else ()):
            with open(os.path.join(args.out, f"{name}.{stage}"), "w") as f:
                f.write(compiled.asm[stage])
        files += len(captured)
        print(f"{name}: " + ", ".join(captured))
    print(f"{len(selected)} kernels, {files} modules -> {args.out}")


if __name__ == "__main__":
    main()
