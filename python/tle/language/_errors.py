"""The exception TLE's primitives raise for bad use."""


class TLEUsageError(ValueError):
    """Bad arguments to a TLE primitive; Triton reports it at the user's line."""
