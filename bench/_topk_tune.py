"""Sweep launch configurations of the topk_selector kernels, print every
variant's time per shape (stderr), pick the best per shape class (batch >= 32 /
few rows), then run the full topk_selector table with them. topk_selector.py's
configurations come from these per-shape times (refined by seq: short rows
take narrower digits, long rows more warps):
  for i in $(seq 0 13); do python3 bench/_topk_tune.py --warm $i 14 & done; wait   # parallel compiles
  python3 bench/_topk_tune.py --final 2> tune.log
--warm I N: compile (and run once, checked on mixed/tie inputs) variants with index % N == I.
--final: time the variants, choose, print the choice, run bench/topk_selector.py's main with it."""
import sys, os, contextlib, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch, triton, tle
import topk_selector as S
import _harness

B = dict(CBLOCK=1024, CAP=4096, BITS1=12, BITS2=12)
V = []
for nw in (8, 16, 32):
    for blk in (2048, 4096, 8192):
        for rc in (0, 32768):
            V.append(("tle", dict(B, C=1, num_warps=nw, BLOCK=blk, RC=rc)))
for b1, b2 in ((10, 11), (11, 11), (11, 12), (12, 11)):
    for nw in (8, 16):
        for blk in (2048, 4096):
            V.append(("tle", dict(B, C=1, num_warps=nw, BLOCK=blk, RC=32768, BITS1=b1, BITS2=b2)))
for nw in (8, 16, 32):
    for blk in (2048, 4096):
        for rc in (0, 16384):
            V.append(("tle", dict(B, C=8, num_warps=nw, BLOCK=blk, RC=rc)))
V.append(("tle", dict(B, C=2, num_warps=8, BLOCK=4096, RC=0)))
V.append(("tle", dict(B, C=2, num_warps=8, BLOCK=4096, RC=16384)))
V.append(("tle", dict(B, C=4, num_warps=8, BLOCK=4096, RC=0)))
for nw, blk, b1 in ((4, 4096, 11), (8, 4096, 11), (16, 4096, 11), (8, 2048, 11), (8, 4096, 10)):
    V.append(("triton", dict(P=1, num_warps=nw, BLOCK=blk, BITS1=b1, BITS2=11)))
for blk in (2048, 4096):
    for p in (64, 128, 256):
        V.append(("triton", dict(P=p, num_warps=8, BLOCK=blk, BITS1=11, BITS2=11)))

def launch(kind, cfg, x, k, out):
    return S.launch_tle(x, k, out, cfg) if kind == "tle" else S.launch_triton(x, k, out, cfg)

def ok(x, k, out):
    ref = torch.topk(x, k, dim=1).values.sort(dim=1).values
    got = torch.gather(x, 1, out.long()).sort(dim=1).values
    s = out.long().sort(dim=1).values
    return bool((got == ref).all()) and bool((s[:, 1:] != s[:, :-1]).all())

def run_variant(kind, cfg, x, k, time=False):
    out = torch.empty(x.shape[0], k, device="cuda", dtype=torch.int32)
    with (tle.enabled() if kind == "tle" else contextlib.nullcontext()):
        f = launch(kind, cfg, x, k, out)
        f(); torch.cuda.synchronize()
        good = ok(x, k, out)
        t = triton.testing.do_bench(f, warmup=5, rep=20, return_mode="median") if time and good else None
    return good, t

if sys.argv[1] == "--warm":
    i, n = int(sys.argv[2]), int(sys.argv[3])
    g = torch.Generator(device="cuda"); g.manual_seed(5)
    # seq and k divisible by 16, like the timed shapes (same Triton specialization).
    xs = [(S.make_scores(6, 40000, "cuda", g, "mixed"), 1504), (S.make_scores(1, 300000, "cuda", g, "mixed"), 2048),
          (torch.randn(3, 70000, device="cuda", generator=g), 1504)]
    for j, (kind, cfg) in enumerate(V):
        if j % n == i:
            for x, k in xs:
                good, _ = run_variant(kind, cfg, x, k)
                print("warm", j, kind, cfg, tuple(x.shape), "OK" if good else "WRONG", flush=True)
    sys.exit(0)

shapes = [(64, 4096, 128), (64, 8192, 256), (64, 32768, 2048), (1, 131072, 2048), (1, 524288, 2048)]
g = torch.Generator(device="cuda"); g.manual_seed(7)
times = {}
for shp in shapes:
    x = torch.randn(shp[0], shp[1], device="cuda", generator=g)
    for j, (kind, cfg) in enumerate(V):
        if kind == "triton" and (shp[0] == 1) == (cfg["P"] == 1):
            continue
        if kind == "tle" and shp[0] == 64 and cfg["C"] == 8:
            continue
        good, t = run_variant(kind, cfg, x, shp[2], time=True)
        times[(shp, j)] = t if good else float("inf")
        print(f"{'x'.join(map(str, shp)):>16} {kind:<7} {cfg} {'%.4f ms' % t if good else 'WRONG'}", file=sys.stderr, flush=True)

def pick(kind, cmatch, batch):
    cands = [j for j, (k, c) in enumerate(V) if k == kind and cmatch(c)]
    shp = [s for s in shapes if s[0] == batch]
    best = min(cands, key=lambda j: sum(times.get((s, j), float("inf")) / min(times.get((s, i), float("inf")) for i in cands) for s in shp))
    return dict(V[best][1]), ["%.4f" % times.get((s, best), float("inf")) for s in shp]

choice = {}
for batch in (64, 1):
    choice[("tle", batch)] = pick("tle", lambda c: c["C"] == 1, batch)
    choice[("tle-cluster", batch)] = pick("tle", lambda c: c["C"] > 1 and (batch == 1 or c["C"] < 8), batch)
    choice[("triton", batch)] = pick("triton", lambda c: (c["P"] == 1) == (batch == 64), batch)
for key, (cfg, ts) in choice.items():
    print("CHOSE", key, json.dumps(cfg), ts, flush=True)

S.tle_config = lambda b, s: dict(choice[("tle", 64 if b >= 32 else 1)][0])
S.cluster_config = lambda b, s: dict(choice[("tle-cluster", 64 if b >= 32 else 1)][0])
S.triton_config = lambda b, s: dict(choice[("triton", 64 if b >= 32 else 1)][0])
_harness.main(S.BENCH, ["--seed", "3"])
