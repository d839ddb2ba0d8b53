"""tle-opt must print Triton 3.6's IR exactly as Triton printed it.

For every captured module under the corpus folder (NAME.ttir, NAME.ttgir, and
for Gluon kernels NAME.source, the frontend's TTGIR), run
`tle-opt --mlir-print-debuginfo --mlir-use-nameloc-as-prefix FILE` and compare
with FILE. Every op, type, attribute, encoding and location must print exactly
as Triton printed it. SSA value names are compared separately: Triton names the
block arguments of scf.for/scf.while from locations its text never prints, so
those names cannot be recovered from the text; modules identical up to SSA
names are reported as such and pass (names carry no semantics; the PTX
round-trip test in python/test checks the kernel is unchanged).

    python test/Interop/check_roundtrip.py [--tle-opt PATH] [CORPUS_DIR]
"""
import argparse
import difflib
import os
import re
import subprocess
import sys


STAGE_SUFFIXES = (".ttir", ".ttgir", ".source")
SSA_NAME = re.compile(r"%[A-Za-z_$.\-][\w$.\-]*|%\d+")


def canonical_names(text):
    """Replaces every SSA value name with `%_` (result counts `:N` and result
    numbers `#N` stay). Triton reuses names across sibling regions, so names
    are erased rather than renumbered; dataflow is checked by the PTX test."""
    return SSA_NAME.sub("%_", text)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", nargs="?", default=os.path.join(here, "corpus"))
    parser.add_argument("--tle-opt", default="tle-opt")
    parser.add_argument("--show", type=int, default=20, help="diff lines shown per failure")
    args = parser.parse_args()

    files = sorted(f for f in os.listdir(args.corpus) if f.endswith(STAGE_SUFFIXES))
    if not files:
        sys.exit(f"no {'/'.join(STAGE_SUFFIXES)} files under {args.corpus}")
    failures = []
    identical = 0
    for name in files:
        path = os.path.join(args.corpus, name)
        with open(path) as f:
            expected = f.read()
        proc = subprocess.run([args.tle_opt, "--mlir-print-debuginfo",
                               "--mlir-use-nameloc-as-prefix", path],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            failures.append(name)
            print(f"FAIL {name}: tle-opt exited {proc.returncode}\n{proc.stderr.strip()[:2000]}")
            continue
        printed = proc.stdout.rstrip("\n") + "\n"
        if printed == expected:
            print(f"ok   {name}")
            identical += 1
            continue
        if canonical_names(printed) == canonical_names(expected):
            print(f"ok   {name} (identical up to SSA value names)")
            continue
        failures.append(name)
        diff = list(difflib.unified_diff(canonical_names(expected).splitlines(),
                                         canonical_names(printed).splitlines(),
                                         "triton", "tle-opt", lineterm="", n=0))
        print(f"FAIL {name}: printed text differs\n" + "\n".join(diff[:args.show]))
    kernels = len({n.rsplit(".", 1)[0] for n in files})
    stages = ", ".join(sorted({n.rsplit(".", 1)[1] for n in files}))
    print(f"{len(files) - len(failures)}/{len(files)} modules round-trip "
          f"({kernels} kernels; stages {stages}); {identical} byte-identical, "
          f"{len(files) - len(failures) - identical} identical up to SSA value names")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
