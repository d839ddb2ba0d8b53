"""TLE's main example: a @triton.jit kernel using tle.cumsum, compiled through TLE.

The kernel turns per-bucket counts into bucket start offsets (an exclusive
prefix sum) and the grand total, the core step of a radix select / counting
sort. It is compiled for sm_90 on any machine (no GPU needed) with
``tle.compile`` and every IR stage is printed:

    ttir          Triton's IR, with a TLE marker where tle.cumsum was called
    tle-ttir      after TLE checked every marker (errors would point at this file)
    triton-ttgir  Triton's GPU IR; the marker now carries a layout
    ttgir         TLE raised the marker, chose the scan layout and lowered it:
                  the GPU IR the backend lowers
    llir, ptx     Triton's backend, unchanged

Run: ``python python/examples/tle_example.py [--stages ttir,ttgir,...]``.
With a GPU, ``--run`` also launches the kernel and checks it against torch.
"""

import argparse

import triton
import triton.language as tl

import tle


@triton.jit
def bucket_offsets(counts_ptr, offsets_ptr, total_ptr, NUM_BUCKETS: tl.constexpr):
    buckets = tl.arange(0, NUM_BUCKETS)
    counts = tl.load(counts_ptr + buckets)
    offsets, total = tle.cumsum(counts, axis=0)
    tl.store(offsets_ptr + buckets, offsets)
    tl.store(total_ptr, total)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stages", default="ttir,tle-ttir,triton-ttgir,ttgir,ptx",
                        help="comma-separated stages to print (default: %(default)s)")
    parser.add_argument("--dump", help="also write every stage to this folder")
    parser.add_argument("--run", action="store_true", help="launch on the GPU and check against torch")
    args = parser.parse_args()

    compiled = tle.compile(bucket_offsets, signature={"counts_ptr": "*i32", "offsets_ptr": "*i32", "total_ptr": "*i32"},
                           constexprs={"NUM_BUCKETS": 256}, target="sm_90", dump=args.dump)
    wanted = [s.strip() for s in args.stages.split(",") if s.strip()]
    for stage in tle.stages(compiled):
        if stage in wanted:
            print(f"// ===== {stage} " + "=" * max(0, 66 - len(stage)))
            print(compiled.asm[stage].rstrip())
    print(f"// stages produced: {', '.join(tle.stages(compiled))}")

    if args.run:
        import torch
        counts = torch.randint(0, 1000, (256,), dtype=torch.int32, device="cuda")
        offsets = torch.empty_like(counts)
        total = torch.empty(1, dtype=torch.int32, device="cuda")
        with tle.enabled():
            bucket_offsets[(1,)](counts, offsets, total, NUM_BUCKETS=256)
        expected = torch.cumsum(counts, 0, dtype=torch.int32) - counts
        assert torch.equal(offsets, expected) and total.item() == counts.sum().item()
        print("GPU result matches torch")


if __name__ == "__main__":
    main()
