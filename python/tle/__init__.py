"""TLE: Triton Language Extensions, as an out-of-tree MLIR compiler for pip Triton."""

from ._errors import MLIRError
from ._tle import run_pipeline

__all__ = ["MLIRError", "run_pipeline"]
