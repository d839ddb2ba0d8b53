"""Config sweep for bench/sparse_mla.py's triton and tle kernels (run on a GPU).

    python3 bench/_sparse_mla_tune.py --shape 1x4096x128x8192x2048 \
        --configs 64,64,8,2 64,32,8,3 ... [--providers triton,tle]

For one shape: builds the inputs once, computes the torch reference, then for
every provider and config compiles, checks (bench/sparse_mla.py's check) and
times (do_bench median); a config that fails to compile is reported, not timed.
"""

import argparse
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness  # noqa: E402
import sparse_mla as m  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--shape", required=True)
    p.add_argument("--configs", nargs="+", required=True)
    p.add_argument("--providers", default="triton,tle")
    p.add_argument("--rep", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    import torch
    import triton.testing
    shape = _harness.parse_shape(a.shape, 5)
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev)
    gen.manual_seed(a.seed)
    base = m.make_inputs(shape, dev, gen, None)
    m._reference(base)  # once; every config's inputs share it
    for prov in a.providers.split(","):
        for cfg in a.configs:
            inputs = dict(base, args=argparse.Namespace(config=cfg))
            try:
                with _harness.compiler_for(prov):
                    fn = m.BENCH.providers[prov](inputs)
                    out = fn()
                    torch.cuda.synchronize()
                    m.check(prov, inputs, out)
                    ms = triton.testing.do_bench(fn, warmup=20, rep=a.rep, return_mode="median")
                print(f"{a.shape} {prov:7s} {cfg:12s} {ms:8.4f} ms {m.flops(shape) / ms / 1e9:7.1f} TFLOP/s", flush=True)
            except Exception as e:  # report and go on with the next config
                msg = str(e).strip().splitlines()
                print(f"{a.shape} {prov:7s} {cfg:12s} FAILED: {type(e).__name__}: {msg[0] if msg else ''}", flush=True)
                if not isinstance(e, (AssertionError,)) and "resources" not in str(e):
                    traceback.print_exc(limit=2)


if __name__ == "__main__":
    main()
