"""A pytest plugin that runs FlagTree's own TLE tests on TLE.

FlagTree's tests (its ``python/test/tle``, from a FlagTree checkout; not part
of this repository) import ``triton.experimental.tle.language`` and its
``gpu`` / ``raw`` submodules. This plugin makes those names TLE's modules and
enables TLE's stages (``ftalias.py``), so the tests run unchanged. It also
provides what FlagTree's conftest does, a ``with_allocator`` fixture.

Usage (docs/flagtree-compat.md)::

    cd <flagtree>/python/test/tle
    PYTHONPATH=<tle>/tools/flagtree:$PYTHONPATH \\
        python -m pytest -p ftshim --import-mode=importlib integration unit
"""

import pytest
import triton

import ftalias  # noqa: F401  (FlagTree's module names as TLE's; TLE's stages on)


@pytest.fixture
def with_allocator():
    """FlagTree's fixture: global scratch from torch."""
    import torch
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    yield
