"""Whether TLE's compiler stages are enabled.

The bridge (``_bridge.py``) records here the stages hook that ``tle.enable()``
installs as Triton's ``knobs.runtime.add_stages_inspection_hook``; the language
layer asks ``is_enabled()`` before it emits markers only TLE's stages lower.
Both import this module, so the language never imports the bridge.
"""

from __future__ import annotations

from triton import knobs

# The bridge's stages hook; None until _bridge is imported.
stages_hook = None


def is_enabled() -> bool:
    """Whether TLE's stages hook is Triton's stages inspection hook."""
    return stages_hook is not None and knobs.runtime.add_stages_inspection_hook is stages_hook
