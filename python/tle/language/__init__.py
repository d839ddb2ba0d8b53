"""The ``tle`` language surface used inside ``@triton.jit`` kernels."""

from .core import TLEUsageError, cumsum

__all__ = ["TLEUsageError", "cumsum"]
