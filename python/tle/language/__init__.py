"""The ``tle`` language surface used inside ``@triton.jit`` kernels."""

from . import dsa, gpu, raw
from .collectives import distributed_barrier, distributed_dot, make_sharded_tensor, reshard, shard_id, sharded_tensor
from .core import TLEUsageError, cumsum, load
from .device_runtime import make_device_context as device_context
from .gpu import remote
from .mesh import device_mesh
from .pipe import pipe
from .pipeline import pipeline_group, range
from .raw import call, hardware_constraint
from .sharding_spec import B, P, S, sharding
from .tiles import extract_tile, insert_tile

__all__ = ["B", "P", "S", "TLEUsageError", "call", "cumsum", "device_context", "device_mesh", "distributed_barrier",
           "distributed_dot", "dsa", "extract_tile", "gpu", "hardware_constraint", "insert_tile", "load",
           "make_sharded_tensor", "pipe", "pipeline_group", "range", "raw", "remote", "reshard", "shard_id",
           "sharded_tensor", "sharding"]
