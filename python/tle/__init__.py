"""TLE: Triton Language Extensions, as an out-of-tree MLIR compiler for pip Triton.

Inside ``@triton.jit`` kernels: ``tle.cumsum`` (more primitives to come).
Around them: ``tle.enable()`` / ``tle.disable()`` / ``with tle.enabled():`` route
Triton's compiles through TLE's stages, and ``tle.compile(kernel, ...)``
compiles one kernel that way and returns Triton's compiled kernel.
"""

from ._errors import MLIRError
from ._driver import run_pipeline
from ._bridge import disable, enable, enabled, is_enabled
from .compiler import compile, stages, write_stages
from .language import TLEUsageError, cumsum

__all__ = [
    "MLIRError",
    "TLEUsageError",
    "compile",
    "cumsum",
    "disable",
    "enable",
    "enabled",
    "is_enabled",
    "run_pipeline",
    "stages",
    "write_stages",
]
