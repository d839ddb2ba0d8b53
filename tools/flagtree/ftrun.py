"""Run one of FlagTree's TLE scripts (its tutorials, say) on TLE, unchanged:

    PYTHONPATH=<tle>/tools/flagtree:$PYTHONPATH \\
        python -m ftrun <flagtree>/python/tutorials/tle/03-topk.py [its arguments]

FlagTree's module names become TLE's (``ftalias.py``), then the script runs
as ``__main__`` with the arguments after its path (docs/flagtree-compat.md).
"""

import runpy
import sys

import ftalias  # noqa: F401  (FlagTree's module names as TLE's; TLE's stages on)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python -m ftrun SCRIPT [ARGS...]")
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
