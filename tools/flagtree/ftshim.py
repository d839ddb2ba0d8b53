"""A pytest plugin that runs FlagTree's own TLE tests on TLE.

FlagTree's tests (its ``python/test/tle``, from a FlagTree checkout; not part
of this repository) import ``triton.experimental.tle.language`` and its
``gpu`` / ``raw`` submodules. This plugin makes those names TLE's modules and
enables TLE's stages, so the tests run unchanged. It also adapts two things
of the harness that are not TLE's API: FlagTree's Triton keeps the metadata
``cluster_dims`` a tuple (Triton 3.6 stores metadata as JSON, so it reads back
as a list), and FlagTree's conftest provides a ``with_allocator`` fixture.

Usage (docs/flagtree-compat.md)::

    cd <flagtree>/python/test/tle
    PYTHONPATH=<tle>/tools/flagtree:$PYTHONPATH \\
        python -m pytest -p ftshim --import-mode=importlib integration unit
"""

import sys
import types

import pytest
import triton
import triton.experimental
from triton.compiler import compiler as _compiler

import tle

tle.enable()

_ft = types.ModuleType("triton.experimental.tle")
_ft.language = tle
_ft.raw = tle.raw
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


@pytest.fixture
def with_allocator():
    """FlagTree's fixture: global scratch from torch."""
    import torch
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    yield
