"""The ``tle`` language surface used inside ``@triton.jit`` kernels."""

from . import dsa, gpu, raw
from .core import TLEUsageError, cumsum, load
from .distributed import device_mesh, distributed_barrier, shard_id
from .gpu import remote
from .pipe import pipe
from .pipeline import pipeline_group, range
from .raw import call, hardware_constraint
from .tiles import extract_tile, insert_tile

__all__ = ["TLEUsageError", "call", "cumsum", "device_mesh", "distributed_barrier", "dsa", "extract_tile", "gpu",
           "hardware_constraint", "insert_tile", "load", "pipe", "pipeline_group", "range", "raw", "remote", "shard_id"]
