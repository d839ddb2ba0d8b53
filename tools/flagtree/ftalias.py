"""FlagTree's TLE module names as TLE's modules (used by ``ftshim.py``, the
pytest plugin, and ``ftrun.py``, the script runner; docs/flagtree-compat.md).

FlagTree's code imports ``triton.experimental.tle.language`` and its ``gpu``
/ ``raw`` submodules. Importing this module makes those names TLE's modules
and enables TLE's stages. It also adapts one thing of FlagTree's Triton that
is not TLE's API: its metadata keeps ``cluster_dims`` a tuple (Triton 3.6
stores metadata as JSON, so it reads back as a list).
"""

import sys
import types

import triton
import triton.experimental
from triton.compiler import compiler as _compiler

import tle

tle.enable()

_ft = types.ModuleType("triton.experimental.tle")
_ft.language = tle
_ft.raw = tle.raw


def _language_name(name):
    """``triton.experimental.tle.device_mesh`` and the like: FlagTree's
    package re-exports its language names (its MoE tutorial uses them)."""
    try:
        return getattr(tle, name)
    except AttributeError:
        raise AttributeError(f"module 'triton.experimental.tle' has no attribute {name!r}") from None


_ft.__getattr__ = _language_name
sys.modules["triton.experimental.tle"] = _ft
sys.modules["triton.experimental.tle.language"] = tle
sys.modules["triton.experimental.tle.language.gpu"] = tle.gpu
sys.modules["triton.experimental.tle.raw"] = tle.raw
sys.modules["triton.experimental.tle.language.raw"] = tle.raw
triton.experimental.tle = _ft

_init = _compiler.CompiledKernel.__init__


def _cluster_dims_as_tuple(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    if hasattr(self.metadata, "cluster_dims"):
        self.metadata = self.metadata._replace(cluster_dims=tuple(self.metadata.cluster_dims))


_compiler.CompiledKernel.__init__ = _cluster_dims_as_tuple
