"""Run the local-memory GPU kernels once, for compute-sanitizer's racecheck.

    compute-sanitizer --tool racecheck --error-exitcode 1 \
        python3 python/test/racecheck_local_memory.py            # must be clean
    compute-sanitizer --tool racecheck --error-exitcode 1 \
        python3 python/test/racecheck_local_memory.py --no-barriers   # control: must report hazards

``--no-barriers`` drops ``triton-tle-insert-local-pointer-barriers`` from TLE's
pipeline and runs only the transposes (one thread writes, others read), to
show that racecheck sees TLE's shared-memory accesses and that the pass is what
makes them race-free. ``late_writer_transpose`` has nothing but the pass's
barrier between its pointer store and load (``transpose_tile``'s copy is
followed by a layout conversion whose own barrier may order them).

``disjoint_stores_transpose`` writes its tile with two stores whose index sets
the pass proves disjoint (even / odd columns): no barrier between them, one
before the transposed read (its PTX has exactly one ``bar.sync``). Clean under
racecheck with TLE's pipeline: leaving the disjoint stores unsynchronized is
race-free; with ``--no-barriers`` its read races with the stores (racecheck
sees this kernel's accesses too).

``pingpong_rotate`` reads slot ``i % 2`` of a two-slot buffer and writes slot
``(i + 1) % 2`` with no barrier between them (the pass proves the slots
different within an iteration), one barrier a step: clean with TLE's
pipeline; with ``--no-barriers`` the next step's read races with the write.
"""

import contextlib
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tle  # noqa: E402
import local_memory_kernels as K  # noqa: E402


def main():
    no_barriers = "--no-barriers" in sys.argv
    with K.without_local_pointer_barriers() if no_barriers else contextlib.nullcontext():
        run(no_barriers)


def run(no_barriers):
    tle.enable()
    # The transpose writes the tile through pointers and reads it back
    # transposed, so other threads read what one thread wrote.
    a = torch.randn(32, 64, device="cuda")
    b = torch.empty(64, 32, device="cuda")
    K.transpose_tile[(1,)](a, b, M=32, N=64)
    late = torch.empty(64, 32, device="cuda", dtype=torch.int32)
    late_kernel = K.late_writer_transpose[(1,)](late, 12345, M=32, N=64)
    torch.cuda.synchronize()
    expected = (torch.arange(32, device="cuda", dtype=torch.int32)[:, None] * 64
                + torch.arange(64, device="cuda", dtype=torch.int32)[None, :] + 12345).t()
    print("late writer: bar.sync in its PTX:", late_kernel.asm["ptx"].count("bar.sync"),
          "read right:", torch.equal(late, expected))
    # Two stores with disjoint index sets, no barrier between them, then a
    # transposed read (other threads read what a thread wrote).
    dis = torch.empty(64, 32, device="cuda", dtype=torch.int32)
    dis_kernel = K.disjoint_stores_transpose[(1,)](dis, 777, M=32, N=32)
    torch.cuda.synchronize()
    dis_expected = (torch.arange(32, device="cuda", dtype=torch.int32)[:, None] * 64
                    + torch.arange(64, device="cuda", dtype=torch.int32)[None, :] + 777).t()
    print("disjoint stores: bar.sync in its PTX:", dis_kernel.asm["ptx"].count("bar.sync"),
          "read right:", torch.equal(dis, dis_expected))
    # Two slots: each step reads one (another thread's element) and writes the
    # other, one barrier a step; without the pass's barriers the next step's
    # read races with this step's write.
    px = torch.randint(-1000, 1000, (128,), device="cuda", dtype=torch.int32)
    py = torch.empty_like(px)
    K.pingpong_rotate[(1,)](px, py, 5, N=128)
    torch.cuda.synchronize()
    print("pingpong: right:", torch.equal(py, torch.roll(px, -5) + 5))
    if no_barriers:
        print("ran without barriers")
        return
    x = torch.randint(0, 64, (4096,), device="cuda", dtype=torch.int32)
    out = torch.empty(64, device="cuda", dtype=torch.int32)
    K.histogram[(1,)](x, out, x.numel(), BLOCK=256, BINS=64)
    torch.cuda.synchronize()
    assert torch.equal(out, torch.bincount(x.long(), minlength=64).to(torch.int32))
    s = torch.randint(-1000, 1000, (1000,), device="cuda", dtype=torch.int32)
    seg = torch.empty(33, device="cuda", dtype=torch.int32)
    K.segment_max[(1,)](s, seg, s.numel(), BLOCK=256, SEGS=32)
    slots = torch.empty(65, device="cuda", dtype=torch.int32)
    K.claim_slots[(1,)](slots, SLOTS=64)
    ex = torch.empty(2, 2, 128, device="cuda", dtype=torch.int32)
    K.cluster_exchange[(2,)](ex, N=128, MESH=K.CLUSTER2)
    h = torch.empty(128, device="cuda", dtype=torch.int32)
    y = torch.randint(0, 128, (10000,), device="cuda", dtype=torch.int32)
    K.cluster_histogram[(1,)](y, h, y.numel(), BLOCK=256, BINS=128, MESH=K.CLUSTER2)
    torch.cuda.synchronize()
    assert torch.equal(b, a.t()) and torch.equal(h, torch.bincount(y.long(), minlength=128).to(torch.int32))
    print("all local-memory kernels ran")


if __name__ == "__main__":
    main()
