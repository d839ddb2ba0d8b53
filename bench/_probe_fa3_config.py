"""Probe: `tle-fa3` launch configurations side by side (bench/README.md,
FlashAttention forward). For each N, each variant (a dict of constexprs laid
over `tle_fa3_config`) runs on fresh inputs, is checked against the
reference before timing, and is timed with do_bench (median ms, TFLOP/s in
brackets); then torch's best SDPA backend at the same shape:

    D=64 C=0 VARIANTS='[{}, {"NUM_WG": 3, "CONSUMER_REGS": 160, "PRODUCER_REGS": 24}]' \\
        python3 bench/_probe_fa3_config.py

D: head dim; C: 1 causal; NS: the sequence lengths (1024,4096,16384), at
16384 tokens and H * D = 2048 as in the default shapes; NOTORCH=1 skips torch.
"""
import json
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention as A  # noqa: E402
import tle  # noqa: E402


def main():
    tle.enable()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(7)

    class Args:
        triton_config = None

    d = int(os.environ.get("D", "64"))
    causal = int(os.environ.get("C", "1"))
    variants = json.loads(os.environ.get("VARIANTS", "[{}]"))
    base = A.tle_fa3_config
    for n in [int(x) for x in os.environ.get("NS", "1024,4096,16384").split(",")]:
        shape = (16384 // n, 2048 // d, n, d, causal)
        inp = A.make_inputs(shape, "cuda", gen, Args)
        res = {}
        for v in variants:
            key = ",".join(f"{k}={x}" for k, x in v.items()) or "default"

            def config(d, causal, n=None, v=v):
                return dict(base(d, causal, n), **v)
            A.tle_fa3_config = config
            try:
                run = A.tle_fa3_provider(inp)
                inp["out"].fill_(float("nan"))
                run()
                torch.cuda.synchronize()
                A.check("tle-fa3", inp, inp["out"])
                res[key] = triton.testing.do_bench(run, warmup=25, rep=100)
            except Exception as e:  # report the variant's failure, go on with the others
                res[key] = f"ERR {str(e)[-300:]}"
            finally:
                A.tle_fa3_config = base
        if not os.environ.get("NOTORCH"):
            res["torch"] = triton.testing.do_bench(A.torch_provider(inp), warmup=25, rep=100)
        flop = 4 * shape[0] * shape[1] * n * n * d / (2 if causal else 1)
        print(shape, {k: (f"{t:.4f} ({flop / t / 1e9:.0f})" if isinstance(t, float) else t) for k, t in res.items()},
              flush=True)


if __name__ == "__main__":
    main()
