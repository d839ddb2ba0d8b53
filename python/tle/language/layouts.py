"""User-chosen distributed layouts: ``tle.gpu.set_layout`` (FlagTree's FEP-0065).

FlagTree's four layout objects, each spelling one TritonGPU register
encoding: ``BlockEncoding`` (``#ttg.blocked``), ``MmaEncoding``
(``#ttg.nvidia_mma``), ``DotOperandEncoding`` (``#ttg.dot_op``) and
``SlicedEncoding`` (``#ttg.slice``). ``set_layout(x, layout)`` pins ``x`` to
the layout; ``triton-tle-lower-layouts`` carries it through the elementwise
code that uses ``x`` (docs/barriers.md, "Layouts").
"""

from __future__ import annotations

from triton.language import core as tlc

from . import _markers
from ._markers import TLEUsageError, builtin, describe, dims
from .core import _require_enabled


def _ints(value, what, rank=None, positive=True):
    value = tlc._unwrap_if_constexpr(value)
    try:
        out = [tlc._unwrap_if_constexpr(v) for v in value]
    except TypeError:
        raise TLEUsageError(f"{what} must be a list of ints, got {describe(value)}") from None
    if any(isinstance(v, bool) or not isinstance(v, int) or (positive and v <= 0) or v < 0 for v in out):
        raise TLEUsageError(f"{what} must be a list of {'positive ' if positive else ''}ints, got {out}")
    if rank is not None and len(out) != rank:
        raise TLEUsageError(f"{what} must have {rank} entries, got {out}")
    return out


def _no_cga(cga_layout, what):
    if tlc._unwrap_if_constexpr(cga_layout) is not None:
        raise TLEUsageError(f"{what}: cga_layout is for multi-CTA (num_ctas > 1) layouts, which TLE does not "
                            "support; pass None")


def _list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


class distributed_encoding:
    """A TritonGPU distributed (register) layout (FlagTree's base class).

    ``rank`` is the rank of the tensors it lays out; ``to_mlir()`` its
    attribute text. Kernels use its subclasses.

    Example::

        assert isinstance(tle.gpu.BlockEncoding([1], [32], [4], [0]), tle.gpu.distributed_encoding)
    """
    rank: int

    def to_mlir(self) -> str:
        raise NotImplementedError

    def __repr__(self):
        return self.to_mlir()

    def __eq__(self, other):
        return isinstance(other, distributed_encoding) and self.to_mlir() == other.to_mlir()

    def __hash__(self):
        return hash(self.to_mlir())


class BlockEncoding(distributed_encoding):
    """``#ttg.blocked``: each thread holds ``size_per_thread`` contiguous
    elements, ``threads_per_warp`` threads of a warp and ``warps_per_cta``
    warps tile the tensor, ``order`` lists the dimensions fastest first.

    Args:
        size_per_thread, threads_per_warp, warps_per_cta, order: lists of
            ints, one per dimension (``order`` a permutation); the products
            of ``threads_per_warp`` and ``warps_per_cta`` must be the warp
            size and the thread group's warps (checked when compiled).
        cga_layout: None.

    Example::

        ROWS = tl.constexpr(tle.gpu.BlockEncoding([1, 4], [8, 4], [4, 1], [1, 0]))
    """

    def __init__(self, size_per_thread, threads_per_warp, warps_per_cta, order, cga_layout=None):
        self.size_per_thread = _ints(size_per_thread, "BlockEncoding size_per_thread")
        rank = len(self.size_per_thread)
        self.threads_per_warp = _ints(threads_per_warp, "BlockEncoding threads_per_warp", rank)
        self.warps_per_cta = _ints(warps_per_cta, "BlockEncoding warps_per_cta", rank)
        self.order = _ints(order, "BlockEncoding order", rank, positive=False)
        if sorted(self.order) != list(range(rank)):
            raise TLEUsageError(f"BlockEncoding order must be a permutation of 0..{rank - 1}, got {self.order}")
        _no_cga(cga_layout, "BlockEncoding")
        self.rank = rank

    def to_mlir(self) -> str:
        return (f"#ttg.blocked<{{sizePerThread = {_list(self.size_per_thread)}, threadsPerWarp = "
                f"{_list(self.threads_per_warp)}, warpsPerCTA = {_list(self.warps_per_cta)}, order = "
                f"{_list(self.order)}}}>")


class MmaEncoding(distributed_encoding):
    """``#ttg.nvidia_mma``: the accumulator layout of mma (version 2) or
    wgmma (version 3) instructions.

    Args:
        version: 2, 3, or ``(major, minor)``.
        warps_per_cta: two ints.
        instr_shape: the instruction's ``[M, N]`` (version 2) or
            ``[M, N, K]`` (version 3).
        cga_layout: None.

    Example::

        ACC = tl.constexpr(tle.gpu.MmaEncoding(3, [4, 1], [16, 64, 16]))
    """

    def __init__(self, version, warps_per_cta, instr_shape, cga_layout=None):
        version = tlc._unwrap_if_constexpr(version)
        major, minor = (version, 0) if isinstance(version, int) else tuple(_ints(version, "MmaEncoding version", 2,
                                                                                  positive=False))
        if major not in (2, 3):
            raise TLEUsageError(f"MmaEncoding version must be 2 (mma) or 3 (wgmma), got {describe(version)}")
        self.version = (major, minor)
        self.warps_per_cta = _ints(warps_per_cta, "MmaEncoding warps_per_cta", 2)
        self.instr_shape = _ints(instr_shape, "MmaEncoding instr_shape", 3 if major == 3 else 2)
        _no_cga(cga_layout, "MmaEncoding")
        self.rank = 2

    def to_mlir(self) -> str:
        return (f"#ttg.nvidia_mma<{{versionMajor = {self.version[0]}, versionMinor = {self.version[1]}, "
                f"warpsPerCTA = {_list(self.warps_per_cta)}, instrShape = {_list(self.instr_shape)}}}>")


class DotOperandEncoding(distributed_encoding):
    """``#ttg.dot_op``: operand ``operand_index`` (0: A, 1: B) of an mma
    whose accumulator is in ``parent``, ``k_width`` consecutive K elements
    per thread.

    Args:
        operand_index: 0 or 1.
        parent: an ``MmaEncoding`` (or a ``BlockEncoding``: FMA dots).
        k_width: a positive int (2 for 16-bit wgmma A operands).

    Example::

        ACC = tle.gpu.MmaEncoding(3, [4, 1], [16, 64, 16])
        P = tl.constexpr(tle.gpu.DotOperandEncoding(0, ACC, 2))   # a wgmma's register A
    """

    def __init__(self, operand_index, parent, k_width):
        operand_index = tlc._unwrap_if_constexpr(operand_index)
        if operand_index not in (0, 1):
            raise TLEUsageError(f"DotOperandEncoding operand_index must be 0 or 1, got {describe(operand_index)}")
        parent = tlc._unwrap_if_constexpr(parent)
        if not isinstance(parent, (MmaEncoding, BlockEncoding)):
            raise TLEUsageError(f"DotOperandEncoding parent must be an MmaEncoding or a BlockEncoding, got "
                                f"{describe(parent)}")
        k_width = tlc._unwrap_if_constexpr(k_width)
        if isinstance(k_width, bool) or not isinstance(k_width, int) or k_width <= 0:
            raise TLEUsageError(f"DotOperandEncoding k_width must be a positive int, got {describe(k_width)}")
        self.operand_index, self.parent, self.k_width = operand_index, parent, k_width
        self.rank = parent.rank

    def to_mlir(self) -> str:
        return f"#ttg.dot_op<{{opIdx = {self.operand_index}, parent = {self.parent.to_mlir()}, kWidth = {self.k_width}}}>"


class SlicedEncoding(distributed_encoding):
    """``#ttg.slice``: ``parent`` with dimension ``dim`` removed (the layout
    of a reduction along ``dim`` of a tensor in ``parent``).

    Args:
        dim: a dimension of ``parent``.
        parent: a ``distributed_encoding`` of rank 2 or more.

    Example::

        ROWS = tle.gpu.BlockEncoding([1, 4], [4, 8], [4, 1], [1, 0])
        ROW_MAX = tl.constexpr(tle.gpu.SlicedEncoding(1, ROWS))   # tl.max(x, axis=1) of x in ROWS
    """

    def __init__(self, dim, parent):
        parent = tlc._unwrap_if_constexpr(parent)
        if not isinstance(parent, distributed_encoding):
            raise TLEUsageError(f"SlicedEncoding parent must be a layout, got {describe(parent)}")
        dim = tlc._unwrap_if_constexpr(dim)
        if isinstance(dim, bool) or not isinstance(dim, int) or not 0 <= dim < parent.rank:
            raise TLEUsageError(f"SlicedEncoding dim must be a dimension of its rank-{parent.rank} parent, got "
                                f"{describe(dim)}")
        self.dim, self.parent = dim, parent
        self.rank = parent.rank - 1

    def to_mlir(self) -> str:
        return f"#ttg.slice<{{dim = {self.dim}, parent = {self.parent.to_mlir()}}}>"


# --- FlagTree's shared-memory layouts (the ``layout=`` of ``tle.gpu.alloc``)
#
# Their make_default classmethods are called inside kernels, so they are
# marked as Triton builtins (a kernel may only call jit functions and
# builtins); built outside a kernel they pass in as constexprs.


class layout:
    """Base of FlagTree's layout objects (``tle.gpu.layout``).

    Example::

        assert isinstance(tle.gpu.swizzled_shared_layout.make_default(2), tle.gpu.layout)
    """

    def __repr__(self):
        return self.__class__.__name__


class shared_layout(layout):
    """A shared-memory layout for ``tle.gpu.alloc(..., layout=)``.

    TLE picks every buffer's shared encoding from its uses
    (``triton-tle-select-encodings``: unswizzled row-major for local
    pointers, NVMMA for wgmma and TMA operands), so ``alloc`` takes a layout
    object as a statement of what the kernel expects, not as an encoding to
    force: the unswizzled row-major ``swizzled_shared_layout`` (FlagTree's
    ``make_default``) and the NVMMA layouts are the compiler's choice; any
    other (a swizzle, another order, tensor memory) is an error naming it.

    Example::

        buf = tle.gpu.alloc([64, 64], dtype=tl.float16, layout=tle.gpu.swizzled_shared_layout.make_default(2))
    """

    def _check_alloc(self, shape, what):
        raise NotImplementedError


class swizzled_shared_layout(shared_layout):
    """``#ttg.swizzled_shared`` (FlagTree's fields; ``make_default(rank)``: unswizzled, row-major).

    Args:
        vectorSize, perPhase, maxPhase: the swizzle (``alloc`` takes only
            ``maxPhase == 1``, no swizzle).
        order: the dimensions fastest first (``alloc`` takes only row-major,
            ``[rank - 1, ..., 0]``).
        numCTAs, numCTAsPerCGA, numCTASplit, numCTAOrder: one CTA: all 1
            (``numCTAOrder`` is not checked).

    Example::

        buf = tle.gpu.alloc([32, 64], dtype=tl.float32, layout=tle.gpu.swizzled_shared_layout.make_default(2))
    """

    def __init__(self, vectorSize, perPhase, maxPhase, order, numCTAs=None, numCTAsPerCGA=None, numCTASplit=None,
                 numCTAOrder=None):
        self.vectorSize = tlc._unwrap_if_constexpr(vectorSize)
        self.perPhase = tlc._unwrap_if_constexpr(perPhase)
        self.maxPhase = tlc._unwrap_if_constexpr(maxPhase)
        self.order = _ints(order, "swizzled_shared_layout order", positive=False)
        for name, v in (("numCTAs", numCTAs), ("numCTAsPerCGA", numCTAsPerCGA), ("numCTASplit", numCTASplit)):
            if v is not None and any(tlc._unwrap_if_constexpr(x) != 1 for x in tlc._unwrap_if_constexpr(v)):
                raise TLEUsageError(f"swizzled_shared_layout {name} must be all 1 (one CTA), got {list(v)}")

    @classmethod
    def make_default(cls, rank, _semantic=None, _generator=None):
        rank = tlc._unwrap_if_constexpr(rank)
        return cls(1, 1, 1, list(reversed(range(rank))), [1] * rank, [1] * rank, [1] * rank,
                   list(reversed(range(rank))))

    def __repr__(self):
        return (f"swizzled_shared_layout(vec={self.vectorSize}, perPhase={self.perPhase}, "
                f"maxPhase={self.maxPhase}, order={self.order})")

    def _check_alloc(self, shape, what):
        row_major = list(reversed(range(len(shape))))
        if self.maxPhase != 1 or self.order != row_major:
            raise TLEUsageError(f"{what}: layout={self!r} is not supported: TLE lays buffers out itself "
                                f"(unswizzled row-major for local pointers, NVMMA for wgmma and TMA); pass "
                                f"layout=None or swizzled_shared_layout.make_default({len(shape)})")


class nv_mma_shared_layout(shared_layout):
    """``#ttg.nvmma_shared`` (FlagTree's fields; ``make_default(shape, elemType)``). TLE gives a buffer this
    layout where a wgmma or TMA copy reads or writes it.

    Args:
        shape: the buffer's shape (``alloc`` checks it).
        order: the dimensions fastest first.
        elemType: the element dtype.
        numCTAsPerCGA, numCTASplit, numCTAOrder, fp4Padded, swizzled:
            FlagTree's remaining fields, accepted and not used.

    Example::

        a = tle.gpu.alloc([128, 64], dtype=tl.float16,
                          layout=tle.gpu.nv_mma_shared_layout.make_default([128, 64], tl.float16))
    """

    def __init__(self, shape, order, elemType, numCTAsPerCGA=None, numCTASplit=None, numCTAOrder=None,
                 fp4Padded=False, swizzled=True):
        self.shape = _ints(shape, "nv_mma_shared_layout shape")
        self.order = _ints(order, "nv_mma_shared_layout order", positive=False)
        self.elemType = tlc._unwrap_if_constexpr(elemType)

    @classmethod
    def make_default(cls, shape, elemType, _semantic=None, _generator=None):
        rank = len(tlc._unwrap_if_constexpr(shape))
        return cls(shape, list(reversed(range(rank))), elemType)

    def __repr__(self):
        return f"nv_mma_shared_layout({self.shape}, order={self.order}, {self.elemType})"

    def _check_alloc(self, shape, what):
        if list(shape) != self.shape:
            raise TLEUsageError(f"{what}: layout={self!r} is for shape {self.shape}, the buffer is {list(shape)}")


class nv_tma_shared_layout(nv_mma_shared_layout):
    """The NVMMA layout of a TMA copy's buffer (FlagTree's name); as ``nv_mma_shared_layout``.

    Args:
        shape, order, elemType, numCTAsPerCGA, numCTASplit, numCTAOrder, fp4Padded, swizzled: as
            ``nv_mma_shared_layout``'s.

    Example::

        buf = tle.gpu.alloc([64, 64], dtype=tl.float16,
                            layout=tle.gpu.nv_tma_shared_layout.make_default([64, 64], tl.float16))
    """


for _cls in (swizzled_shared_layout, nv_mma_shared_layout):
    _cls.make_default.__func__.__triton_builtin__ = True


class tensor_memory_layout(shared_layout):
    """Tensor memory (sm_100): not supported by TLE; ``alloc`` refuses it by name.

    Example::

        layout = tle.gpu.tensor_memory_layout.make_default([128, 128])   # alloc(layout=layout): an error
    """

    def __init__(self, *args, **kwargs):
        pass

    @classmethod
    def make_default(cls, shape, _semantic=None, _generator=None):
        return cls()

    def _check_alloc(self, shape, what):
        raise TLEUsageError(f"{what}: layout=tensor_memory_layout (Blackwell tensor memory) is not supported; allocate in "
                            "shared memory (tle.gpu.smem)")


tensor_memory_layout.make_default.__func__.__triton_builtin__ = True


@builtin("tle.gpu.set_layout")
def set_layout(value, layout, _semantic=None, _generator=None):
    """``value`` in a distributed layout the kernel author chose (FlagTree's FEP-0065).

    The layout is a constraint: the value is converted into it where it is
    set, and the elementwise code that uses the value computes in it too
    (until a use that needs another layout, where the compiler converts).
    Its warps must be the thread group's: the kernel's ``num_warps``, or the
    ``warp_specialize`` partition's.

    Args:
        value: a tensor (not a scalar).
        layout: a compile-time ``BlockEncoding``, ``MmaEncoding``,
            ``DotOperandEncoding`` or ``SlicedEncoding`` of the tensor's rank.

    Returns:
        The same values, of the same shape and dtype, in ``layout``.

    Example::

        ROWS = tl.constexpr(tle.gpu.BlockEncoding([1, 4], [8, 4], [4, 1], [1, 0]))

        @triton.jit
        def k(X, Y):
            offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
            x = tle.gpu.set_layout(tl.load(X + offs), ROWS)
            tl.store(Y + offs, x * 2)
    """
    value = tlc._unwrap_if_constexpr(value)
    layout = tlc._unwrap_if_constexpr(layout)
    if not isinstance(value, tlc.tensor) or not value.type.is_block():
        raise TLEUsageError(f"tle.gpu.set_layout takes a tensor, got {describe(value)}")
    if not isinstance(layout, distributed_encoding):
        raise TLEUsageError(f"tle.gpu.set_layout layout must be a tle.gpu.BlockEncoding, MmaEncoding, "
                            f"DotOperandEncoding or SlicedEncoding, got {describe(layout)}")
    shape = dims(value.shape)
    if layout.rank != len(shape):
        raise TLEUsageError(f"tle.gpu.set_layout: {layout!r} lays out rank-{layout.rank} tensors, but the value "
                            f"has shape {shape}")
    _require_enabled("tle.gpu.set_layout", _semantic)
    (result,) = _markers.emit("set_layout", {"layout": layout.to_mlir()}, [value], [value.dtype],
                              _semantic=_semantic)
    return result
