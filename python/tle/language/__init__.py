"""The ``tle`` language surface used inside ``@triton.jit`` kernels."""

from . import dsa, gpu, raw
from .collectives import distributed_barrier, distributed_dot, make_sharded_tensor, reshard, shard_id, sharded_tensor
from .core import TLEUsageError, cumsum, load
from .device_runtime import make_device_context as device_context
from .gpu import remote
from .mesh import MeshConfig, device_mesh
from .pipe import pipe, pipe_reader, pipe_slot, pipe_value, pipe_wait_result, pipe_writer
from .pipeline import pipeline_group, range
from .raw import call, hardware_constraint
from .sharding_spec import B, P, S, sharding
from .comm_handles import my_pe
from .signals import DistributedRtContext, signal, signal_wait

# FlagTree's class names: tle.ShardingSpec is a tle.sharding, tle.ShardedTensor a tle.sharded_tensor.
ShardingSpec = sharding
ShardedTensor = sharded_tensor
from .tiles import extract_tile, insert_tile

__all__ = ["B", "MeshConfig", "P", "S", "ShardedTensor", "ShardingSpec", "TLEUsageError", "call", "cumsum", "device_context", "device_mesh", "distributed_barrier",
           "distributed_dot", "dsa", "extract_tile", "gpu", "hardware_constraint", "insert_tile", "load",
           "make_sharded_tensor", "pipe", "pipe_reader", "pipe_slot", "pipe_value", "pipe_wait_result", "pipe_writer",
           "pipeline_group", "range", "raw", "remote", "reshard", "shard_id",
           "sharded_tensor", "sharding", "DistributedRtContext", "my_pe", "signal", "signal_wait"]
