"""tle-opt must print Triton 3.6's IR exactly as Triton printed it.

For every captured module under the corpus folder, run
`tle-opt --mlir-print-debuginfo FILE` and compare with FILE byte for byte.

    python test/Interop/check_roundtrip.py [--tle-opt PATH] [CORPUS_DIR]
"""
import argparse
import difflib
import os
import subprocess
import sys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", nargs="?", default=os.path.join(here, "corpus"))
    parser.add_argument("--tle-opt", default="tle-opt")
    parser.add_argument("--show", type=int, default=20, help="diff lines shown per failure")
    args = parser.parse_args()

    files = sorted(f for f in os.listdir(args.corpus) if f.endswith((".ttir", ".ttgir")))
    if not files:
        sys.exit(f"no .ttir/.ttgir files under {args.corpus}")
    failures = []
    for name in files:
        path = os.path.join(args.corpus, name)
        with open(path) as f:
            expected = f.read()
        proc = subprocess.run([args.tle_opt, "--mlir-print-debuginfo", path],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append(name)
            print(f"FAIL {name}: tle-opt exited {proc.returncode}\n{proc.stderr.strip()[:2000]}")
            continue
        if proc.stdout != expected:
            failures.append(name)
            diff = list(difflib.unified_diff(expected.splitlines(), proc.stdout.splitlines(),
                                             "triton", "tle-opt", lineterm="", n=0))
            print(f"FAIL {name}: printed text differs\n" + "\n".join(diff[:args.show]))
            continue
        print(f"ok   {name}")
    kernels = len({n.rsplit(".", 1)[0] for n in files})
    stages = len({n.rsplit(".", 1)[1] for n in files})
    print(f"{len(files) - len(failures)}/{len(files)} modules identical "
          f"({kernels} kernels x {stages} stages)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
