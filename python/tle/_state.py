"""Whether TLE's compiler stages are enabled.

The bridge (``_bridge.py``) records here the stages hook that ``tle.enable()``
installs as Triton's ``knobs.runtime.add_stages_inspection_hook``; the language
layer asks ``is_enabled()`` before it emits markers only TLE's stages lower.
Both import this module, so the language never imports the bridge.
"""

from __future__ import annotations

from triton import knobs as triton_knobs

from ._knobs import knobs

# The bridge's stages hook; None until _bridge is imported.
stages_hook = None


def is_enabled() -> bool:
    """Whether TLE's stages hook is Triton's stages inspection hook.

    True between ``tle.enable()`` and ``tle.disable()`` (and inside ``with
    tle.enabled():``); False if another hook has since replaced TLE's.

    Returns:
        A bool.

    Example::

        with tle.enabled():
            assert tle.is_enabled()
    """
    return stages_hook is not None and triton_knobs.runtime.add_stages_inspection_hook is stages_hook


# Debug mode of device-level (multi-GPU) waits (docs/distributed.md, "Debug
# mode"): a wait for a peer gives up after this many polls and fails a device
# assertion naming what it waited for. Unset or 0: wait for ever. TLE's cache
# fingerprint includes it (kernels compiled with and without it differ).
def device_wait_limit() -> int:
    """The poll limit of device waits (``tle.knobs.device_wait_limit``,
    ``TLE_DEVICE_WAIT_LIMIT``), 0 for none."""
    return knobs.device_wait_limit
