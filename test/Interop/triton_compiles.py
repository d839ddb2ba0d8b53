"""Triton 3.6 must accept a module TLE printed and compile it to the same PTX
as Triton's own text of that module.

    python triton_compiles.py PRINTED.ttgir ORIGINAL.ttgir [--num-warps N]

PRINTED is tle-opt's output (any form, e.g. --mlir-print-op-generic), ORIGINAL
the module as Triton printed it (test/Interop/corpus). Prints "same PTX" or
exits non-zero.
"""
import argparse
import os
import shutil
import sys
import tempfile

import triton
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget

TARGET = GPUTarget("cuda", 90, 32)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("printed")
    parser.add_argument("original")
    parser.add_argument("--num-warps", type=int, default=4)
    args = parser.parse_args()
    context = ir.context()
    ir.load_dialects(context)
    if ir.parse_mlir_module(args.printed, context) is None:
        sys.exit("Triton's parser rejected the module")
    with tempfile.TemporaryDirectory() as tmp:
        printed = os.path.join(tmp, "printed.ttgir")  # triton.compile picks the stage from the suffix
        shutil.copy(args.printed, printed)
        options = {"num_warps": args.num_warps}
        got = triton.compile(printed, target=TARGET, options=options).asm["ptx"]
        want = triton.compile(args.original, target=TARGET, options=options).asm["ptx"]
    if got != want:
        sys.exit("PTX differs")
    print("same PTX")


if __name__ == "__main__":
    main()
