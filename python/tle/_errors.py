"""Exceptions raised by TLE's compiler."""


class MLIRError(RuntimeError):
    """A TLE pass pipeline failed; the message holds MLIR's diagnostics, one
    per line, as ``file:line:col: severity: message``."""

    @property
    def diagnostics(self):
        """The diagnostic lines (everything after the summary line)."""
        return str(self).splitlines()[1:]
