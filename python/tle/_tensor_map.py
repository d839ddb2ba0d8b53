"""The host side of ``tle.gpu.reinterpret_tensor_map``: CUDA tensor maps
encoded by the driver (``cuTensorMapEncodeTiled``, through ctypes) with the
box and swizzle the kernel expects for a block, and tables of them in device
memory (docs/barriers.md, "Tensor maps in global memory")."""

from __future__ import annotations

import ctypes

from .language._errors import TLEUsageError

# CUtensorMapDataType, by torch dtype name.
_DATA_TYPES = {"uint8": 0, "int8": 0, "float8_e4m3fn": 0, "float8_e5m2": 0, "uint16": 1, "int16": 1, "uint32": 2,
               "int32": 3, "uint64": 4, "int64": 5, "float16": 6, "float32": 7, "float64": 8, "bfloat16": 9}
_SWIZZLE_MODES = {0: 0, 32: 1, 64: 2, 128: 3}  # bytes -> CUtensorMapSwizzle
_L2_PROMOTION_128B = 2
MAP_BYTES = 128


def _dtype_name(dtype) -> str:
    return str(dtype).replace("torch.", "")


def tensor_map_swizzle(block_shape, dtype) -> int:
    """The swizzle (0, 32, 64 or 128 bytes) of the shared layout Triton gives
    a descriptor's block of ``block_shape`` x ``dtype`` (a torch dtype): the
    widest of 128, 64 and 32 bytes that the block's rows are a multiple of,
    and none for a 1-D block or fewer than 8 rows (the layout's swizzle
    pattern spans 8 rows). python/test/test_tensor_maps.py checks this
    against the layouts of compiled kernels.

    Args:
        block_shape: the block (the kernel's buffer shape).
        dtype: its torch dtype.

    Returns:
        The swizzle span in bytes: 0, 32, 64 or 128.

    Example::

        tle.tensor_map_swizzle([8, 32], torch.float32)   # 128
        tle.tensor_map_swizzle([8, 8], torch.float16)    # 0: 16-byte rows
    """
    block = [int(d) for d in block_shape]
    rows = 1
    for d in block[:-1]:
        rows *= d
    if len(block) < 2 or rows < 8:
        return 0
    row_bytes = block[-1] * dtype.itemsize
    return next((w for w in (128, 64, 32) if row_bytes >= w and row_bytes % w == 0), 0)


def tensor_map_box(block_shape, dtype, swizzle: int) -> list[int]:
    """The box a map must encode for ``block_shape`` with ``swizzle``: the
    block, its last dimension cut to the swizzle span when its rows are
    wider (the kernel then copies the block in several boxes).

    Args:
        block_shape: the block (the kernel's buffer shape).
        dtype: its torch dtype.
        swizzle: the map's swizzle in bytes (``tensor_map_swizzle``).

    Returns:
        The box, outermost dimension first.

    Example::

        tle.tensor_map_box([64, 128], torch.bfloat16, 128)   # [64, 64]: 128-byte rows
    """
    box = [int(d) for d in block_shape]
    if swizzle:
        box[-1] = min(box[-1], swizzle // dtype.itemsize)
    return box


def _driver():
    try:
        return ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        raise TLEUsageError("tle.encode_tensor_map needs the CUDA driver (libcuda.so.1), which this machine "
                            f"lacks: {e}") from None


def encode_tensor_map(base, block_shape, *, shape=None, strides=None, dtype=None, swizzle=None,
                      padding="zero") -> bytes:
    """Encode a CUDA tensor map for ``tle.gpu.reinterpret_tensor_map``.

    The map describes a strided tensor in global memory and the block the
    kernel copies through it: ``block_shape`` (the kernel's buffer) in the
    box and swizzle the kernel expects for it (``tensor_map_swizzle``,
    ``tensor_map_box``). Elements outside ``shape`` read as zeros
    (``padding="zero"``) or NaN (``"nan"``, floats) and are not written.

    Args:
        base: a CUDA tensor (its address, shape, strides and dtype are the
            map's unless given) or an int device address (then ``shape``,
            ``strides`` and ``dtype`` are required).
        block_shape: the kernel's block (its buffer's shape), rank 1 to 5.
        shape: the tensor's shape in elements, outermost first.
        strides: its strides in elements, outermost first, the last 1; the
            others multiples of 16 bytes.
        dtype: a torch dtype (8-, 16-, 32- or 64-bit).
        swizzle: None (the kernel's: ``tensor_map_swizzle``) or 0, 32, 64,
            128 bytes.
        padding: ``"zero"`` or ``"nan"``.

    Returns:
        The 128 bytes of the map.

    Example::

        maps = [tle.encode_tensor_map(x[i], [8, 32]) for i in range(4)]
        table = tle.tensor_map_table(maps)   # uint8, 4 x 128 bytes, on the GPU
    """
    import torch
    if isinstance(base, torch.Tensor):
        if not base.is_cuda:
            raise TLEUsageError(f"tle.encode_tensor_map base must be a CUDA tensor, got one on {base.device}")
        shape = list(base.shape) if shape is None else list(shape)
        strides = list(base.stride()) if strides is None else list(strides)
        dtype = base.dtype if dtype is None else dtype
        address = base.data_ptr()
    elif isinstance(base, int):
        if shape is None or strides is None or dtype is None:
            raise TLEUsageError("tle.encode_tensor_map with an int address needs shape=, strides= and dtype=")
        address, shape, strides = base, list(shape), list(strides)
    else:
        raise TLEUsageError(f"tle.encode_tensor_map base must be a CUDA tensor or an int address, got "
                            f"{type(base).__name__}")
    block = [int(d) for d in block_shape]
    rank = len(block)
    if not 1 <= rank <= 5 or len(shape) != rank or len(strides) != rank:
        raise TLEUsageError(f"tle.encode_tensor_map: block_shape {block}, shape {shape} and strides {strides} must "
                            "have one rank, 1 to 5")
    name = _dtype_name(dtype)
    if name not in _DATA_TYPES:
        raise TLEUsageError(f"tle.encode_tensor_map: dtype {dtype} has no TMA element type")
    esize = dtype.itemsize
    if strides[-1] != 1:
        raise TLEUsageError(f"tle.encode_tensor_map: the last stride must be 1 (contiguous rows), got {strides}")
    if any(s * esize % 16 for s in strides[:-1]):
        raise TLEUsageError(f"tle.encode_tensor_map: strides {strides} x {esize} bytes must be multiples of 16 "
                            "bytes (but the last)")
    if address % 16:
        raise TLEUsageError(f"tle.encode_tensor_map: the base address must be 16-byte aligned, got {address:#x}")
    if block[-1] * esize % 16 or any(not 1 <= d <= 256 for d in block):
        raise TLEUsageError(f"tle.encode_tensor_map: block_shape {block} needs 1 to 256 elements a dimension and "
                            "a multiple of 16 bytes in the last")
    if swizzle is None:
        swizzle = tensor_map_swizzle(block, dtype)
    if swizzle not in _SWIZZLE_MODES:
        raise TLEUsageError(f"tle.encode_tensor_map: swizzle must be None, 0, 32, 64 or 128, got {swizzle!r}")
    if padding not in ("zero", "nan"):
        raise TLEUsageError(f"tle.encode_tensor_map: padding must be 'zero' or 'nan', got {padding!r}")
    box = tensor_map_box(block, dtype, swizzle)
    u64, u32 = ctypes.c_uint64, ctypes.c_uint32
    dims = (u64 * rank)(*reversed(shape))
    byte_strides = (u64 * max(rank - 1, 1))(*[s * esize for s in reversed(strides[:-1])])
    boxes = (u32 * rank)(*reversed(box))
    ones = (u32 * rank)(*([1] * rank))
    out = (ctypes.c_uint8 * MAP_BYTES)()
    fn = _driver().cuTensorMapEncodeTiled
    fn.restype = ctypes.c_int
    err = fn(ctypes.byref(out), _DATA_TYPES[name], rank, ctypes.c_void_p(address), dims, byte_strides, boxes, ones,
             0, _SWIZZLE_MODES[swizzle], _L2_PROMOTION_128B, 1 if padding == "nan" else 0)
    if err:
        raise TLEUsageError(f"tle.encode_tensor_map: cuTensorMapEncodeTiled failed (CUresult {err}) for shape "
                            f"{shape}, strides {strides}, {dtype}, box {box}, swizzle {swizzle}")
    return bytes(out)


def tensor_map_table(maps, device="cuda"):
    """The tensor maps ``maps`` (128 bytes each, ``encode_tensor_map``) as one
    uint8 tensor on ``device``, map ``i`` at byte ``i * 128``: the table a
    kernel indexes (``table + i * 128``) for
    ``tle.gpu.reinterpret_tensor_map``.

    Args:
        maps: a sequence of 128-byte ``bytes``.
        device: the CUDA device of the table.

    Returns:
        A contiguous uint8 tensor of ``128 * len(maps)`` bytes, 128-byte
        aligned.

    Example::

        table = tle.tensor_map_table([tle.encode_tensor_map(t, [8, 32]) for t in shards])
    """
    import torch
    maps = list(maps)
    if not maps or any(not isinstance(m, (bytes, bytearray)) or len(m) != MAP_BYTES for m in maps):
        raise TLEUsageError("tle.tensor_map_table takes one or more 128-byte maps (tle.encode_tensor_map)")
    table = torch.frombuffer(bytearray(b"".join(maps)), dtype=torch.uint8).to(device)
    if table.data_ptr() % MAP_BYTES:
        raise TLEUsageError(f"tle.tensor_map_table: the table landed at {table.data_ptr():#x}, not 128-byte aligned")
    return table
