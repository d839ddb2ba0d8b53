"""Kernels using tensor maps in global memory (``tle.gpu.reinterpret_tensor_map``),
in the style of FlagTree's descriptor-table tests: each program picks its own
map from a table. Compiled on the CPU by test_tensor_maps.py, run by
test_tensor_maps_gpu.py."""

import triton
import triton.language as tl

import tle.gpu as tle_gpu
# The consumer partition of barrier_kernels.tma_ws_ring_kernel: the same ring, fed here through tensor maps.
from barrier_kernels import _tma_consumer


@triton.jit
def owner_tiles_kernel(table, out, ROWS: tl.constexpr, COLS: tl.constexpr):
    """out[owner] = the [ROWS, COLS] block at (0, 0) of the owner's map:
    a synchronous TMA copy into a buffer, read back by local pointers."""
    owner = tl.program_id(0)
    tile = tle_gpu.alloc([ROWS, COLS], dtype=out.dtype.element_ty)
    entry = table + owner * 128
    tle_gpu.tensor_map_fenceproxy_acquire(entry)
    desc = tle_gpu.reinterpret_tensor_map(entry, tile)
    tle_gpu.copy(desc, tile, [ROWS, COLS], [0, 0])
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    vals = tl.load(tle_gpu.local_ptr(tile, (tl.broadcast_to(rows, (ROWS, COLS)), tl.broadcast_to(cols, (ROWS, COLS)))))
    tl.store(out + owner * ROWS * COLS + rows * COLS + cols, vals)


@triton.jit
def owner_tiles_on_barrier_kernel(table, out, ROWS: tl.constexpr, COLS: tl.constexpr, ROW0: tl.constexpr,
                                  EVICT: tl.constexpr = ""):
    """The same through an mbarrier: one TMA load straight into the buffer,
    from row ROW0 of the owner's map (rows past its end read as zeros), with
    the L2 eviction policy EVICT."""
    owner = tl.program_id(0)
    tile = tle_gpu.alloc([ROWS, COLS], dtype=out.dtype.element_ty)
    bar = tle_gpu.alloc_barrier(arrive_count=1)
    entry = table + owner * 128
    tle_gpu.tensor_map_fenceproxy_acquire(entry)
    desc = tle_gpu.reinterpret_tensor_map(entry, tile)
    tle_gpu.copy(desc, tile, [ROWS, COLS], [ROW0, 0], barrier=bar, eviction_policy=EVICT)
    tle_gpu.barrier_wait(bar, 0)
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    vals = tle_gpu.local_load(tile)
    tl.store(out + owner * ROWS * COLS + rows * COLS + cols, vals)


@triton.jit
def owner_store_kernel(table, src, ROWS: tl.constexpr, COLS: tl.constexpr):
    """The other way: src[owner] goes through a buffer into the owner's map
    by a TMA store."""
    owner = tl.program_id(0)
    tile = tle_gpu.alloc([ROWS, COLS], dtype=src.dtype.element_ty)
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    tle_gpu.local_store(tile, tl.load(src + owner * ROWS * COLS + rows * COLS + cols))
    entry = table + owner * 128
    tle_gpu.tensor_map_fenceproxy_acquire(entry)
    desc = tle_gpu.reinterpret_tensor_map(entry, tile)
    tle_gpu.copy(tile, desc, [ROWS, COLS], [0, 0])


@triton.jit
def local_ptr_shape_kernel(out, R: tl.constexpr, C: tl.constexpr, CASE: tl.constexpr):
    """FlagTree's local_ptr(buf, indices, shape=): out = the buffer written through the pointers."""
    tile = tle_gpu.alloc([R, C], dtype=tl.float32)
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    if CASE == 0:  # FlagTree's form: [R, 1] and [1, C] broadcast to shape
        p = tle_gpu.local_ptr(tile, (rows, cols), shape=(R, C))
    elif CASE == 1:  # a scalar and a 1-D row broadcast alike
        p = tle_gpu.local_ptr(tile, (3, tl.arange(0, C)), shape=(R, C))
    else:  # does not broadcast
        p = tle_gpu.local_ptr(tile, (tl.arange(0, R)[None, :], cols), shape=(R, C))
    tl.store(p, (rows * C + cols).to(tl.float32))
    tl.store(out + rows * C + cols, tle_gpu.local_load(tile))



@triton.jit
def maps_in_a_loop_kernel(table, out, N: tl.constexpr, ROWS: tl.constexpr, COLS: tl.constexpr):
    """out = the sum of the [ROWS, COLS] blocks of maps 0 .. N - 1, one map a
    loop iteration, each loaded on a barrier with an L2 hint."""
    tile = tle_gpu.alloc([ROWS, COLS], dtype=tl.float32)
    bar = tle_gpu.alloc_barrier(arrive_count=1)
    acc = tl.zeros([ROWS, COLS], tl.float32)
    for i in range(N):
        entry = table + i * 128
        tle_gpu.tensor_map_fenceproxy_acquire(entry)
        desc = tle_gpu.reinterpret_tensor_map(entry, tile)
        tle_gpu.copy(desc, tile, [ROWS, COLS], [0, 0], barrier=bar, eviction_policy="evict_first")
        tle_gpu.barrier_wait(bar, i)
        acc += tle_gpu.local_load(tile)
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    tl.store(out + rows * COLS + cols, acc)


@triton.jit
def _map_producer(table, bufs0, bufs1, full, empty, n_tiles, BM: tl.constexpr, BK: tl.constexpr):
    for i in range(n_tiles):
        slot = i % 2
        use = i // 2
        entry = table + i * 128  # map i: tile i
        tle_gpu.tensor_map_fenceproxy_acquire(entry)
        tle_gpu.barrier_wait(empty[slot], phaseIdx=use)
        if slot == 0:
            desc = tle_gpu.reinterpret_tensor_map(entry, bufs0)
            tle_gpu.copy(desc, bufs0, [BM, BK], [0, 0], barrier=full[0], eviction_policy="evict_first")
        else:
            desc = tle_gpu.reinterpret_tensor_map(entry, bufs1)
            tle_gpu.copy(desc, bufs1, [BM, BK], [0, 0], barrier=full[1], eviction_policy="evict_first")


@triton.jit
def maps_ws_ring_kernel(table, out, n_tiles, BM: tl.constexpr, BK: tl.constexpr):
    """out = tiles + 1, tile i read through map i of the table by a 1-warp
    TMA producer partition (setmaxnreg 40) into one of two buffers on full /
    empty mbarriers, the default partition consuming: the tensor-map
    primitives inside tle.gpu.warp_specialize."""
    bufs0 = tle_gpu.alloc([BM, BK], dtype=tl.float16)
    bufs1 = tle_gpu.alloc([BM, BK], dtype=tl.float16)
    full = tle_gpu.alloc_barriers(num_barriers=2, arrive_count=1, expect_bytes=BM * BK * 2)
    empty = tle_gpu.alloc_barriers(num_barriers=2, arrive_count=1, init=tle_gpu.READY)
    tle_gpu.warp_specialize([(_tma_consumer, (bufs0, bufs1, full, empty, out, n_tiles, BM, BK)),
                             (_map_producer, (table, bufs0, bufs1, full, empty, n_tiles, BM, BK))],
                            worker_num_warps=[1], worker_num_regs=[40])


SIGNATURES = {
    "owner_tiles_kernel": {"table": "*u8", "out": "*fp32"},
    "owner_tiles_on_barrier_kernel": {"table": "*u8", "out": "*fp32"},
    "owner_store_kernel": {"table": "*u8", "src": "*fp32"},
    "maps_in_a_loop_kernel": {"table": "*u8", "out": "*fp32"},
    "maps_ws_ring_kernel": {"table": "*u8", "out": "*fp32", "n_tiles": "i32"},
}
