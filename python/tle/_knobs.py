"""``tle.knobs``: TLE's settings, shaped like ``triton.knobs``.

Each setting is an attribute that reads its environment variable unless it
was set in Python, built on ``triton.knobs``' own descriptors (pip Triton is
pinned, so they behave exactly as Triton's knobs do)::

    tle.knobs.opt = "/path/to/tle-opt"        # as TLE_OPT=...
    tle.knobs.dump_ir_dir = "/tmp/tle-dump"   # as TLE_DUMP_IR=...
    tle.knobs.device_wait_limit = 100000      # as TLE_DEVICE_WAIT_LIMIT=...
    tle.knobs.mlir_enable_dump = True         # as MLIR_ENABLE_DUMP=1
    del tle.knobs.opt                         # back to the environment
    with tle.knobs.scope(): ...               # restored on exit
    tle.knobs.reset()                         # every knob back to the environment

Setting a knob also sets its environment variable (``triton.knobs.
propagate_env``), so subprocesses and Triton's C++ (``MLIR_ENABLE_DUMP``) see
it. Every read of these settings in the ``tle`` package goes through here.
"""

from __future__ import annotations

from typing import Optional, Union

from triton._C.libtriton import getenv
from triton.knobs import Env, base_knobs, env_base, env_opt_str

__all__ = ["knobs", "tle_knobs"]


class env_poll_limit(env_base[int, int]):
    """A number of polls >= 0 (0: no limit); an unset or empty variable is 0.
    A bad value is a ValueError naming the variable (or the knob, when set
    from Python)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)

    def get(self) -> int:
        text = (getenv(self.key) or "").strip()
        return self._check(text, f"{self.key}={text!r}") if text else 0

    def __set__(self, obj, value) -> None:
        if not isinstance(value, Env):
            self._check(value, f"tle.knobs.{self.name} = {value!r}")
        super().__set__(obj, value)

    def transform(self, val) -> int:
        return self._check(val, f"tle.knobs.{self.name} = {val!r}")

    @staticmethod
    def _check(value, what: str) -> int:
        if isinstance(value, bool):
            raise ValueError(f"{what}: expected a number of polls (0: no limit)")
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"{what}: expected a number of polls (0: no limit)") from None
        if isinstance(value, float) and number != value:
            raise ValueError(f"{what}: expected a whole number of polls")
        if number < 0:
            raise ValueError(f"{what}: expected a number of polls >= 0")
        return number


class env_flag(env_base[bool, bool]):
    """A switch: unset, "", "0", "false", "off" and "no" are off, anything else on."""

    OFF = ("", "0", "false", "off", "no")

    def __init__(self, key: str, default: bool = False) -> None:
        super().__init__(key)
        self.default = default

    def get(self) -> bool:
        text = getenv(self.key)
        if text is None:
            return self.default
        return text.strip().lower() not in self.OFF

    def transform(self, val) -> bool:
        return bool(val)


class env_dump_switch(env_base[Union[bool, str, None], Optional[str]]):
    """Triton's MLIR_ENABLE_DUMP: "1" / "true" / "on" (any case) dumps every
    kernel, a kernel name dumps that kernel only, unset / "0" / "false" /
    "off" nothing. Set from Python as True, False or a kernel name; reads back
    the text, as the variable holds it."""

    def get(self) -> Optional[str]:
        return getenv(self.key)

    def __set__(self, obj, value) -> None:
        if not isinstance(value, (bool, str, Env)) and value is not None:
            raise TypeError(f"tle.knobs.{self.name}: expected True, False or a kernel name, got {value!r}")
        super().__set__(obj, value)

    def transform(self, val) -> Optional[str]:
        if isinstance(val, bool):
            return "1" if val else "0"
        return val


class tle_knobs(base_knobs):
    """TLE's settings. Each one reads its environment variable unless set here."""

    # The tle-opt binary running TLE's pipelines as a subprocess; None: the
    # in-process extension tle._tle (tle._driver).
    opt: env_opt_str = env_opt_str("TLE_OPT")
    # A folder receiving every stage's IR of every kernel compiled while TLE is
    # enabled (tle._bridge; such compiles skip Triton's cache).
    dump_ir_dir: env_opt_str = env_opt_str("TLE_DUMP_IR")
    # Debug mode of device-level (multi-GPU) waits: give up after this many
    # polls with a device assertion; 0: wait for ever (docs/distributed.md).
    device_wait_limit: env_poll_limit = env_poll_limit("TLE_DEVICE_WAIT_LIMIT")
    # tle.device_context.from_group's default for check= (docs/distributed.md).
    dist_check: env_flag = env_flag("TLE_DIST_CHECK")
    # Triton's MLIR_ENABLE_DUMP: TLE's pipelines print the module before each
    # pass, as Triton's do (see ``ir_dump_kernel``).
    mlir_enable_dump: env_dump_switch = env_dump_switch("MLIR_ENABLE_DUMP")
    # Where TLE's pass dumps go: appended to this file; None: standard error.
    # (Triton's MLIR_DUMP_PATH is a file Triton truncates and writes through its
    # own stream; TLE never writes into it.)
    mlir_dump_path: env_opt_str = env_opt_str("TLE_MLIR_DUMP_PATH")

    def ir_dump_kernel(self) -> Optional[str]:
        """What ``mlir_enable_dump`` asks for: None (no dumps), "" (every
        kernel) or the name of the one kernel to dump."""
        value = self.mlir_enable_dump
        if value is None:
            return None
        text = value.strip()
        lowered = text.lower()
        if lowered in ("1", "true", "on"):
            return ""
        if lowered in ("", "0", "false", "off"):
            return None
        return text


knobs = tle_knobs()
