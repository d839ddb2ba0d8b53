"""``tle.device_context.from_group``: the host side of multi-GPU TLE on
``torch.distributed`` and PyTorch's symmetric memory (docs/distributed.md,
"Running on torch.distributed").

One process per GPU (``torchrun``). Every rank calls ``from_group`` with the
same arguments; it allocates one symmetric heap with
``torch.distributed._symmetric_memory.empty`` and exchanges it with
``rendezvous``, which maps every peer's heap into this process. The heap holds
the reshard workspace, the flags, and an arena for symmetric tensors the
kernels reach with ``tle.remote`` (``ctx.empty``). The peers' byte offsets
come from the handle's ``buffer_ptrs``. No CUDA IPC or peer mapping of TLE's
own.
"""

from __future__ import annotations

import math
import os

from .._knobs import knobs
from ..language._markers import TLEUsageError

# NVLink multicast can take a shared host's GPUs out of service; TLE never
# uses it and keeps it off in every library it loads (docs/distributed.md).
MULTICAST_OFF = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
# The types of ``SymmetricContext.args()`` (rank, workspace, flags, peer_offsets, epoch, signals), for a kernel's
# context argument in ``tle.compile(..., signature={"C": ARGS_SIGNATURE})`` (ahead-of-time and CPU compiles).
ARGS_SIGNATURE = ("i32", "*fp32", "*i32", "*i64", "i32", "*i32")
_ALIGN = 256


def keep_multicast_off() -> None:
    """Set the three variables that keep NVLink multicast off, unless set.

    ``NCCL_NVLS_ENABLE=0``, ``TORCH_SYMM_MEM_DISABLE_MULTICAST=1`` and
    ``NVSHMEM_DISABLE_NVLS=1`` (``tle.distributed.MULTICAST_OFF``) go into
    ``os.environ`` with ``setdefault``: a value already set is kept.
    ``tle.device_context.from_group`` calls it; call it yourself before
    anything initializes NCCL or symmetric memory by another route.

    Returns:
        None.

    Example::

        tle.distributed.keep_multicast_off()
        dist.init_process_group("nccl")
    """
    for name, value in MULTICAST_OFF.items():
        os.environ.setdefault(name, value)


def _align(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def _layout(workspace_numel, dtype, devices, max_programs, arena_bytes):
    """The heap's regions as (start, end) byte ranges, each 256-byte aligned:
    the reshard workspace, the reshard flags (2 * D int32 per program), the
    barrier signals (D int32 per program) and the arena; and the heap's size."""
    sizes = (_align(workspace_numel * dtype.itemsize), _align(2 * devices * max_programs * 4),
             _align(devices * max_programs * 4), _align(arena_bytes))
    regions, start = [], 0
    for size in sizes:
        regions.append((start, start + size))
        start += size
    return regions, start


def _torch():
    import torch
    import torch.distributed as dist
    return torch, dist


class SymmetricContext:
    """A device mesh's runtime on one rank: the symmetric heap, this rank,
    the peers' heap offsets and the epochs of ``tle.reshard``.

    Kernels take ``ctx.args()`` as one argument ``C`` and build the
    in-kernel context with ``tle.device_context(MESH, C)``.

    Make one with ``tle.device_context.from_group`` (collective), not with the
    constructor, which takes the pieces ``from_group`` prepared: it zeroes
    the flags and signal slots, synchronizes the device and ends with a
    ``dist.barrier`` over ``group``.

    Args:
        mesh: the ``tle.device_mesh`` (device axes multiplying to the group's
            size).
        group: the ``torch.distributed`` process group.
        handle: the symmetric-memory handle of ``heap``
            (``symm_mem.rendezvous``); its ``buffer_ptrs`` give the peers'
            heap offsets, which must be multiples of 16 bytes.
        heap: the symmetric heap, a uint8 CUDA tensor holding the workspace,
            flags, signal slots and arena, in that order.
        workspace_numel: elements of the reshard workspace (0: none).
        dtype: the workspace's torch dtype.
        max_programs: the most programs of a launch using the flags.
        arena_bytes: bytes of the arena for ``ctx.empty``.
        backend: the symmetric-memory backend in use (``"CUDA"`` or
            ``"NVSHMEM"``).
        check: bool, whether ``launch`` and ``empty`` verify across ranks.

    Example::

        ctx = tle.device_context.from_group(MESH, workspace_numel=4096, dtype=torch.float32,
                                            arena_bytes=1 << 20)
        x = ctx.empty(1024, dtype=torch.float32)    # a symmetric tensor
        ctx.launch(kernel, (1,), x, ctx.args(), MESH=MESH, symmetric=(0,))   # x is in the heap
    """

    def __init__(self, mesh, group, handle, heap, workspace_numel, dtype, max_programs, arena_bytes, backend,
                 check):
        torch, dist = _torch()
        self.mesh = mesh
        self.group = group
        self.handle = handle
        self.heap = heap
        self.backend = backend
        self.check = check
        self.rank = dist.get_rank(group)
        self.world_size = dist.get_world_size(group)
        self.max_programs = max_programs
        self.dtype = dtype
        (ws, flags, signals, arena), _ = _layout(workspace_numel, dtype, self.world_size, max_programs, arena_bytes)
        self.workspace = heap[ws[0]:ws[1]].view(dtype)[:workspace_numel] if workspace_numel else \
            heap[:_ALIGN].view(dtype)[:0]
        self.flags = heap[flags[0]:flags[1]].view(torch.int32)
        self.signals = heap[signals[0]:signals[1]].view(torch.int32)
        self._arena = arena
        self._arena_next = arena[0]
        ptrs = list(handle.buffer_ptrs)
        if len(ptrs) != self.world_size:
            raise RuntimeError(f"symmetric memory handle has {len(ptrs)} buffers for a group of {self.world_size}")
        offsets = [p - ptrs[self.rank] for p in ptrs]
        bad = [(q, o) for q, o in enumerate(offsets) if o % 16]
        if bad:
            raise RuntimeError(f"tle.device_context.from_group: peer heap offsets {bad} are not multiples of 16 "
                               "bytes (the peer loads read 16 bytes at a time)")
        self.peer_offsets = torch.tensor(offsets, dtype=torch.int64, device=heap.device)
        self._epoch = 0
        self._axis_groups = {}
        self.flags.zero_()
        self.signals.zero_()
        torch.cuda.synchronize(heap.device)
        dist.barrier(group=group)

    # -- construction -------------------------------------------------------------------------------------------

    @classmethod
    def from_group(cls, mesh, group=None, workspace_numel=0, dtype=None, *, max_programs=4096, arena_bytes=0,
                   backend=None, check=None):
        """The context of ``mesh`` over ``group`` (default: the world), one
        process per GPU.

        ``mesh``: a ``tle.device_mesh`` whose ``device`` axes multiply to the
        group's size (rank r is the mesh coordinate of r, row-major over the
        device axes). ``workspace_numel`` / ``dtype``: the reshard workspace
        (``num_programs * source block`` elements of the reshard's type; 0:
        no reshards). ``max_programs``: the most programs a launch using the
        context's flags may have. ``arena_bytes``: room for symmetric
        tensors made with ``ctx.empty`` (for ``tle.remote``). ``backend``:
        ``"CUDA"`` or ``"NVSHMEM"`` (torch's symmetric-memory backend; None
        keeps torch's choice; it cannot change once torch allocated symmetric
        memory). ``check``: verify across ranks that they launch the same
        kernel and carve the same tensors (default: ``tle.knobs.dist_check``, ``TLE_DIST_CHECK=1``).
        Collective: every rank of the group calls it, in the same order as
        other collectives.

        Args:
            mesh: a ``tle.device_mesh`` with device axes only (no node axes).
            group: a ``torch.distributed`` process group, or None (the world);
                torch.distributed must be initialized.
            workspace_numel: elements of the reshard workspace (int >= 0).
            dtype: the workspace's torch dtype, or None (float32).
            max_programs: the most programs of a launch using the flags.
            arena_bytes: bytes of symmetric memory for ``ctx.empty``.
            backend: ``"CUDA"``, ``"NVSHMEM"`` or None.
            check: bool, or None for ``TLE_DIST_CHECK``.

        Returns:
            A ``tle.distributed.SymmetricContext``: pass ``ctx.args()`` to a
            kernel (which rebuilds it with ``tle.device_context(MESH, C)``) and
            launch with ``ctx.launch(kernel, grid, *args, **constexprs)``.

        Example::

            # torchrun --standalone --nproc-per-node 2 script.py
            dist.init_process_group("nccl")
            torch.cuda.set_device(dist.get_rank())
            MESH = tle.device_mesh({"device": dist.get_world_size()})
            ctx = tle.device_context.from_group(MESH, workspace_numel=4096, dtype=torch.float32,
                                                arena_bytes=1 << 20)
            y = tle.distributed.all_reduce(torch.ones(1024, device="cuda"), ctx)
        """
        torch, dist = _torch()
        from ..language.mesh import device_mesh
        if not isinstance(mesh, device_mesh):
            raise TLEUsageError(f"tle.device_context.from_group: mesh must be a tle.device_mesh, got {mesh!r}")
        if not dist.is_available() or not dist.is_initialized():
            raise TLEUsageError("tle.device_context.from_group needs torch.distributed initialized "
                                "(dist.init_process_group, one process per GPU, e.g. under torchrun)")
        group = group if group is not None else dist.group.WORLD
        world = dist.get_world_size(group)
        devices = mesh.level_size("device")
        if mesh.level_size("node") != 1:
            raise TLEUsageError(f"tle.device_context.from_group: {mesh!r} has node axes; TLE's device kernels "
                                "address GPUs through device axes (a multi-node job uses one device axis of all "
                                "its GPUs; docs/distributed.md)")
        if devices != world:
            raise TLEUsageError(f"tle.device_context.from_group: {mesh!r} has {devices} devices but the process "
                                f"group has {world} ranks; the device axes must multiply to the group's size")
        if devices <= 1:
            raise TLEUsageError(f"tle.device_context.from_group: {mesh!r} has no device axis of size > 1")
        if isinstance(workspace_numel, bool) or not isinstance(workspace_numel, int) or workspace_numel < 0:
            raise TLEUsageError(f"tle.device_context.from_group: workspace_numel must be an int >= 0, got "
                                f"{workspace_numel!r}")
        dtype = torch.float32 if dtype is None else dtype
        if not isinstance(dtype, torch.dtype):
            raise TLEUsageError(f"tle.device_context.from_group: dtype must be a torch.dtype, got {dtype!r}")
        if not isinstance(max_programs, int) or max_programs <= 0:
            raise TLEUsageError(f"tle.device_context.from_group: max_programs must be > 0, got {max_programs!r}")
        if not isinstance(arena_bytes, int) or arena_bytes < 0:
            raise TLEUsageError(f"tle.device_context.from_group: arena_bytes must be >= 0, got {arena_bytes!r}")
        if check is None:
            check = knobs.dist_check
        keep_multicast_off()
        import torch.distributed._symmetric_memory as symm_mem
        device = torch.device("cuda", torch.cuda.current_device())
        if backend is not None:
            if backend not in ("CUDA", "NVSHMEM"):
                raise TLEUsageError(f"tle.device_context.from_group: backend must be 'CUDA' or 'NVSHMEM', got "
                                    f"{backend!r}")
            if backend == "NVSHMEM" and not symm_mem.is_nvshmem_available():
                raise TLEUsageError("tle.device_context.from_group: torch's NVSHMEM backend is not available "
                                    "here (symm_mem.is_nvshmem_available() is False)")
            current = symm_mem.get_backend(device)
            if current != backend:
                try:
                    symm_mem.set_backend(backend)
                except Exception as e:  # torch refuses once it allocated symmetric memory
                    raise TLEUsageError(f"tle.device_context.from_group: torch's symmetric memory on {device} uses "
                                        f"the {current} backend and cannot change to {backend} ({e}); choose the "
                                        "backend before the first symmetric allocation") from None
        _, total = _layout(workspace_numel, dtype, devices, max_programs, arena_bytes)
        heap = symm_mem.empty(total, dtype=torch.uint8, device=device)
        handle = symm_mem.rendezvous(heap, group)
        backend = symm_mem.get_backend(device) or backend or "CUDA"
        return cls(mesh, group, handle, heap, workspace_numel, dtype, max_programs, arena_bytes, backend, check)

    # -- what kernels take --------------------------------------------------------------------------------------

    def args(self, uses: int = 1, epoch: int | None = None):
        """The kernel argument ``C`` for ``tle.device_context(MESH, C)``:
        ``(rank, workspace, flags, peer_offsets, epoch, signals)``. Each call hands out
        a new epoch; a kernel whose device reshards run ``uses`` times per
        launch (several reshards, a loop) asks for that many and uses
        ``epoch + i`` for the i-th. An explicit ``epoch`` must be above every
        epoch handed out before (a reused epoch would let a peer's old flags
        pass the barrier)."""
        if isinstance(uses, bool) or not isinstance(uses, int) or uses < 1:
            raise TLEUsageError(f"ctx.args: uses must be an int >= 1, got {uses!r}")
        if epoch is None:
            epoch = self._epoch + 1
        elif isinstance(epoch, bool) or not isinstance(epoch, int) or epoch <= self._epoch:
            raise TLEUsageError(f"ctx.args: epoch {epoch!r} was already used (the last launch used up to "
                                f"{self._epoch}); epochs must grow with every launch on the same flags")
        if epoch + uses - 1 >= 2**31:
            raise TLEUsageError("ctx.args: the epochs ran out of int32; make a new context")
        self._epoch = epoch + uses - 1
        return (self.rank, self.workspace, self.flags, self.peer_offsets, epoch, self.signals)

    @property
    def epoch(self) -> int:
        """The last epoch handed out (0: none yet)."""
        return self._epoch

    def empty(self, *shape, dtype):
        """A symmetric tensor carved from the heap's arena: the same offset on
        every rank, so ``tle.remote(ptr, q, MESH, context=ctx)`` reaches rank
        q's copy. Collective in the sense that every rank must carve the same
        tensors in the same order (checked with ``check``)."""
        torch, dist = _torch()
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        nbytes = math.prod(shape) * dtype.itemsize
        start = _align(self._arena_next)
        if start + nbytes > self._arena[1]:
            raise TLEUsageError(f"ctx.empty: {nbytes} bytes do not fit the arena ({self._arena[1] - start} of "
                                f"{self._arena[1] - self._arena[0]} bytes left); pass a larger arena_bytes to "
                                "tle.device_context.from_group")
        if self.check:
            self._agree(("empty", start, tuple(shape), str(dtype)), "carve the same symmetric tensors (ctx.empty)")
        self._arena_next = start + nbytes
        return self.heap[start:start + nbytes].view(dtype).view(shape)

    def is_symmetric(self, tensor) -> bool:
        """Whether ``tensor``'s memory lies in this context's heap."""
        base = self.heap.data_ptr()
        start = tensor.data_ptr()
        end = start + max(tensor.numel() - 1, 0) * tensor.element_size() + tensor.element_size()
        return tensor.device == self.heap.device and base <= start and end <= base + self.heap.numel()

    def require_symmetric(self, tensor, what: str) -> None:
        if not self.is_symmetric(tensor):
            raise TLEUsageError(f"{what} is not symmetric memory of this context (make it with ctx.empty, or "
                                "use ctx.workspace); a peer's copy of an ordinary tensor is not at the same offset")

    def peer(self, tensor, rank: int):
        """Rank ``rank``'s copy of the symmetric ``tensor``, as a tensor of
        this process (reads and writes go over NVLink)."""
        self.require_symmetric(tensor, "ctx.peer tensor")
        if not tensor.is_contiguous():
            raise TLEUsageError("ctx.peer: the tensor must be contiguous")
        offset = tensor.data_ptr() - self.heap.data_ptr()
        if offset % tensor.element_size():
            raise TLEUsageError("ctx.peer: the tensor is not aligned to its element size in the heap")
        return self.handle.get_buffer(rank, list(tensor.shape), tensor.dtype, offset // tensor.element_size())

    # -- launching ----------------------------------------------------------------------------------------------

    def launch(self, kernel, grid, *args, symmetric=(), **kwargs):
        """``kernel[grid](*args, **kwargs)``, after the checks that need no
        GPU: the grid fits the flags (``max_programs``), the arguments named
        in ``symmetric`` (names or positions) are in the heap and, with
        ``check``, every rank launches the same kernel with the same grid and
        compile-time arguments (an all-gather over the group: a rank
        launching another kernel would leave its peers waiting for ever)."""
        dims = grid if isinstance(grid, (tuple, list)) else (grid,)
        if callable(grid):
            raise TLEUsageError("ctx.launch: pass the grid as a tuple of ints (a grid function is resolved by "
                                "Triton after the checks)")
        programs = math.prod(int(d) for d in dims)
        if programs > self.max_programs:
            raise TLEUsageError(f"ctx.launch: the grid {tuple(dims)} has {programs} programs; this context's flags "
                                f"hold {self.max_programs} (from_group(max_programs=...))")
        names = getattr(kernel, "arg_names", None) or []
        for key in symmetric:
            if isinstance(key, int):
                value, label = args[key], f"argument {key}"
            else:
                value = kwargs[key] if key in kwargs else args[names.index(key)]
                label = f"argument {key!r}"
            self.require_symmetric(value, f"ctx.launch {label}")
        if self.check:
            self._agree(("launch", _kernel_name(kernel), tuple(int(d) for d in dims),
                         _describe_args(kernel, args, kwargs)), "launch the same kernel")
        return kernel[tuple(dims)](*args, **kwargs)

    def _agree(self, what, doing: str) -> None:
        _, dist = _torch()
        seen = [None] * self.world_size
        dist.all_gather_object(seen, what, group=self.group)
        differ = [r for r, w in enumerate(seen) if w != seen[0]]
        if differ:
            lines = "\n".join(f"  rank {r}: {w}" for r, w in enumerate(seen))
            raise TLEUsageError(f"ranks do not {doing}:\n{lines}")

    # -- groups and synchronization -----------------------------------------------------------------------------

    def axis_group(self, axis: str):
        """The process group of the ranks that differ from this one only along
        device axis ``axis`` (for host-side collectives over one mesh axis).
        Collective: every rank calls it for the same axes in the same order."""
        _, dist = _torch()
        if axis in self._axis_groups:
            return self._axis_groups[axis]
        if self.mesh.level_of(axis) != "device":
            raise TLEUsageError(f"ctx.axis_group: {axis!r} is not a device axis of {self.mesh!r}")
        names = [a for a, lvl in zip(self.mesh.axis_names, self.mesh.levels) if lvl == "device"]
        sizes = [self.mesh.axis_size(a) for a in names]
        k = names.index(axis)
        ranks = _global_ranks(self.group, self.world_size)
        groups, mine = [], None
        for base in range(self.world_size):
            coords = _coords(base, sizes)
            if coords[k] != 0:
                continue
            members = []
            for c in range(sizes[k]):
                coords[k] = c
                members.append(ranks[_linear(coords, sizes)])
            groups.append(members)
        for members in groups:
            g = dist.new_group(members)
            if dist.get_rank() in members:
                mine = g
        self._axis_groups[axis] = mine
        return mine

    def coords(self) -> dict:
        """This rank's coordinate along every device axis of the mesh."""
        names = [a for a, lvl in zip(self.mesh.axis_names, self.mesh.levels) if lvl == "device"]
        return dict(zip(names, _coords(self.rank, [self.mesh.axis_size(a) for a in names])))

    def barrier(self) -> None:
        """Every rank's work queued so far on the current stream is done
        (torch's symmetric-memory barrier, stream-ordered)."""
        self.handle.barrier(channel=0)

    def __repr__(self):
        return (f"SymmetricContext({self.mesh!r}, rank {self.rank} of {self.world_size}, backend {self.backend}, "
                f"heap {self.heap.numel()} bytes)")


def _coords(linear: int, sizes):
    out = []
    for s in reversed(sizes):
        out.append(linear % s)
        linear //= s
    return list(reversed(out))


def _linear(coords, sizes) -> int:
    r = 0
    for c, s in zip(coords, sizes):
        r = r * s + c
    return r


def _global_ranks(group, size):
    _, dist = _torch()
    if group is None or group == dist.group.WORLD:
        return list(range(size))
    return [dist.get_global_rank(group, r) for r in range(size)]


def _kernel_name(kernel) -> str:
    fn = getattr(kernel, "fn", kernel)
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _describe_args(kernel, args, kwargs):
    """What must agree across ranks: the compile-time arguments' values and
    the kinds of the runtime ones (tensors by dtype and shape; ints not,
    ranks differ)."""
    params = getattr(kernel, "params", None) or []
    constexpr = {p.name for p in params if getattr(p, "is_constexpr", False)}
    names = [p.name for p in params]

    def one(v, exact=False):
        if hasattr(v, "data_ptr") and hasattr(v, "dtype"):
            return ("tensor", str(v.dtype), tuple(v.shape))
        if isinstance(v, (tuple, list)):
            return tuple(one(x, exact) for x in v)
        if exact or isinstance(v, (bool, float, str)) or v is None:
            return repr(v)
        if isinstance(v, int):
            return "int"
        return repr(v)

    positional = tuple(one(a, i < len(names) and names[i] in constexpr) for i, a in enumerate(args))
    return positional, tuple(sorted((k, one(v, k in constexpr or k not in names)) for k, v in kwargs.items()))
