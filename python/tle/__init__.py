"""TLE: Triton Language Extensions, as an out-of-tree MLIR compiler for pip Triton.

Inside ``@triton.jit`` kernels: ``tle.cumsum``; ``tle.extract_tile`` / ``tle.insert_tile``; ``tle.load(..., is_async=True)``;
``tle.range`` / ``tle.pipeline_group`` (user-staged software pipelines); shared-memory buffers and
pointers ``tle.gpu.alloc / local_ptr / copy / local_load / local_store /
memory_space``; thread-block clusters ``tle.device_mesh``, ``tle.shard_id``,
``tle.remote``, ``tle.distributed_barrier``; sharded tensors ``tle.sharding`` (``tle.S`` /
``tle.B`` / ``tle.P``), ``tle.make_sharded_tensor``, ``tle.reshard``, ``tle.distributed_dot``
(docs/distributed.md); TLE-Raw ``tle.raw.language`` / ``tle.hardware_constraint`` / ``tle.call`` and FlagTree's
``tle.raw.dialect`` / ``Input`` / ``InOut`` / ``tle.raw.call(fn, inouts, inputs)`` (docs/raw.md); DSA buffers ``tle.dsa.*``
(lowered by ``tle.dsa_compile`` / ``tle.lower_dsa``, docs/dsa.md).
Around them: ``tle.enable()`` / ``tle.disable()`` / ``with tle.enabled():`` route
Triton's compiles through TLE's stages, and ``tle.compile(kernel, ...)``
compiles one kernel that way and returns Triton's compiled kernel; it takes
``@triton.autotune`` kernels too (``config=`` picks the config). TLE's settings
are ``tle.knobs`` (shaped like ``triton.knobs``: each reads its environment
variable unless set in Python); ``tle.__version__`` names the version and commit.
"""

from ._errors import MLIRError
from ._knobs import knobs
from ._version import __commit__ as __commit__, __version__ as __version__
from ._driver import run_pipeline
from ._bridge import disable, enable, enabled, is_enabled
from .compiler import compile, dsa_compile, lower_dsa, stages, write_stages
from .language import (B, MeshConfig, P, S, ShardedTensor, ShardingSpec, TLEUsageError, call, cumsum, device_context,
                       device_mesh, distributed_barrier, distributed_dot, dsa, extract_tile, gpu, hardware_constraint,
                       insert_tile, load, make_sharded_tensor, pipe, pipe_reader, pipe_slot, pipe_value,
                       pipe_wait_result, pipe_writer, pipeline_group, range, raw, remote, reshard, shard_id,
                       sharded_tensor, sharding, DistributedRtContext, my_pe, signal, signal_wait)

from . import distributed
# FlagTree's host calls for its device-path communication (FlagCX there),
# on torch.distributed's symmetric memory (docs/distributed.md).
from .distributed._flagcx import cleanup_communicator, create_comm_tensor, create_dist_tensor, get_mem_pool
from ._tensor_map import encode_tensor_map, tensor_map_box, tensor_map_swizzle, tensor_map_table

# `import tle.gpu as tle`: FlagTree's kernels import its GPU module as
# `import triton.experimental.tle.language.gpu as tle`; here it is tle.gpu.
import sys as _sys

_sys.modules.setdefault(__name__ + ".gpu", gpu)
# FlagTree's TLE-Raw imports: `from triton.experimental.tle.raw import dialect, Input, InOut`,
# `import triton.experimental.tle.language.raw as tle_raw` and
# `from triton.experimental.tle.raw.mlir import vprintf` are `tle.raw` and `tle.raw.mlir` here.
from .language import raw_mlir as _raw_mlir

raw.mlir = _raw_mlir
_sys.modules.setdefault(__name__ + ".raw", raw)
_sys.modules.setdefault(__name__ + ".raw.mlir", _raw_mlir)
del _sys, _raw_mlir

# The host side of a device mesh's context (docs/distributed.md, "Running on
# torch.distributed"): tle.device_context.from_group(mesh, group, ...).
device_context.from_group = distributed.SymmetricContext.from_group

# FlagTree's decorator name for TLE kernels: a plain Triton kernel (compile it
# with TLE enabled, or with tle.compile).
from triton import jit

__all__ = [
    "B",
    "MeshConfig",
    "P",
    "S",
    "ShardedTensor",
    "ShardingSpec",
    "device_context",
    "distributed_dot",
    "make_sharded_tensor",
    "reshard",
    "sharded_tensor",
    "sharding",
    "MLIRError",
    "TLEUsageError",
    "call",
    "compile",
    "cumsum",
    "device_mesh",
    "distributed",
    "distributed_barrier",
    "dsa",
    "dsa_compile",
    "encode_tensor_map",
    "disable",
    "enable",
    "enabled",
    "extract_tile",
    "gpu",
    "tensor_map_box",
    "tensor_map_swizzle",
    "tensor_map_table",
    "hardware_constraint",
    "insert_tile",
    "is_enabled",
    "jit",
    "knobs",
    "load",
    "lower_dsa",
    "pipe",
    "pipe_reader",
    "pipe_slot",
    "pipe_value",
    "pipe_wait_result",
    "pipe_writer",
    "pipeline_group",
    "range",
    "raw",
    "remote",
    "run_pipeline",
    "shard_id",
    "DistributedRtContext",
    "cleanup_communicator",
    "create_comm_tensor",
    "create_dist_tensor",
    "get_mem_pool",
    "my_pe",
    "signal",
    "signal_wait",
    "stages",
    "write_stages",
]
