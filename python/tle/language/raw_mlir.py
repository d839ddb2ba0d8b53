"""``tle.raw.mlir``: the helpers FlagTree's ``triton.experimental.tle.raw.mlir``
offers TLE-Raw bodies, ``vprintf`` and ``vassert`` (the same functions as
``tle.raw.vprintf`` / ``tle.raw.vassert``; docs/raw.md)."""

from .raw import vassert, vprintf

__all__ = ["vassert", "vprintf"]
