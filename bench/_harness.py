"""Shared driver for TLE's benchmarks: arguments, timing, checks, table, CSV.

Every benchmark script describes itself with a :class:`Benchmark` and calls
:func:`main`. For each shape it

1. builds fresh random inputs (``--seed`` makes them reproducible; the seed
   used is printed),
2. runs every provider once and checks its output (a wrong result aborts the
   run, nothing is timed on a failed check),
3. times every provider side by side in the same process: ``--rounds``
   rounds (default 3) in which the providers take turns, each timed with the
   median of ``triton.testing.do_bench`` (``--warmup`` / ``--rep``
   milliseconds); a provider's time is the median of its rounds, so a burst
   of interference on the machine does not decide a row (with
   ``Benchmark.graph``, each provider's call is captured once in a CUDA
   graph after its check, the replay checked again, and the replays are
   timed: no provider's CPU launch cost is in its time),

then prints one table and writes it as CSV. Ratios are speedups:
``vs_triton = t_triton / t_provider`` (above 1: faster than plain Triton), the
same for ``vs_torch``. ``bw_floor`` is the fraction of the memory-bandwidth
floor reached — the bytes the operation must move at least, divided by the
device's peak DRAM bandwidth, over the measured time — for memory-bound
benchmarks. ``tflops`` is reported where the benchmark counts flops.

``--check`` runs the checks only, without timing; with ``TRITON_INTERPRET=1``
it runs them on the CPU in Triton's interpreter (docs/interpreter.md: kernels
whose TLE primitives run there, such as fft.py's).

While providers are timed, :class:`Telemetry` samples the GPU's SM clock,
power and temperature every 100 ms (``nvidia-smi``, when the machine has
it) and gives each provider the mean clock and power and the highest
temperature over its own do_bench calls: columns ``sm_mhz``, ``power_w``,
``temp_c`` of the CSV (empty without ``nvidia-smi`` or with
``--no-telemetry``), also in the progress log. A provider that runs slower
next to others can so be told apart from one that ran at a lower clock.

Each timed run also records how it was made: device, date, triton / torch
versions, TLE commit, seed, peaks and the exact command, printed above the
table and written beside the CSV as ``<name>.json`` (``bench/make_report.py``
renders both into ``bench/README.md``). While it runs, a progress line on
stderr counts the (shape, provider) pairs done; it is off when stderr is not a
terminal or with ``--no-progress``, so stdout and the CSV stay clean.

Providers whose name starts with ``tle`` are built, checked and timed inside
``tle.enabled()``; all others with stock Triton, untouched by TLE's hook.

Each script also exposes ``smoke_kernels()``: every kernel it launches, with a
signature and constexprs, so CI compiles them all to PTX on a CPU-only machine
(``python/test/test_bench_smoke.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import functools
import json
import os
import platform
import random
import shlex
import subprocess
import sys
import time
from typing import Any, Callable, Sequence

# Peak DRAM bandwidth by device name (bytes/s), from the vendors' data sheets.
PEAK_BANDWIDTH = (
    ("H100 PCIe", 2.0e12),
    ("H100 NVL", 3.9e12),
    ("H100", 3.35e12),  # H100 SXM5 80GB HBM3
    ("H200", 4.8e12),
    ("H800", 3.35e12),
    ("A100-SXM4-80GB", 2.039e12),
    ("A100", 1.555e12),
)

# Peak dense throughput by device name and precision (TFLOP/s, no sparsity), from
# the vendors' data sheets; fp32 is the CUDA-core rate, the others tensor cores.
PEAK_TFLOPS = (
    ("H100 PCIe", {"bf16": 756.0, "fp16": 756.0, "tf32": 378.0, "fp32": 51.2}),
    ("H100 NVL", {"bf16": 835.0, "fp16": 835.0, "tf32": 417.5, "fp32": 60.0}),
    ("H100", {"bf16": 989.4, "fp16": 989.4, "tf32": 494.7, "fp32": 66.9}),  # H100 SXM5
    ("H200", {"bf16": 989.4, "fp16": 989.4, "tf32": 494.7, "fp32": 66.9}),
    ("H800", {"bf16": 989.4, "fp16": 989.4, "tf32": 494.7, "fp32": 66.9}),
    ("A100", {"bf16": 312.0, "fp16": 312.0, "tf32": 156.0, "fp32": 19.5}),
)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclasses.dataclass
class Benchmark:
    """What a benchmark script provides to :func:`main`."""

    name: str
    description: str
    # Shapes are tuples of ints, written "AxBxC" on the command line.
    shape_names: Sequence[str]
    default_shapes: Sequence[tuple[int, ...]]
    # provider -> fn(inputs) -> zero-argument callable that computes the output.
    providers: dict[str, Callable[[Any], Callable[[], Any]]]
    # shape, torch device, torch.Generator, parsed args -> inputs (fresh random data).
    make_inputs: Callable[..., Any]
    # provider, inputs, output -> None; raises AssertionError on a wrong result.
    check: Callable[[str, Any, Any], None]
    # shape -> minimal bytes moved (memory-bound floor), or None.
    min_bytes: Callable[[tuple[int, ...]], float] | None = None
    # shape -> flop count, or None.
    flops: Callable[[tuple[int, ...]], float] | None = None
    # the precision the flops run at ("bf16", "fp32", ...: a PEAK_TFLOPS key), for the roofline.
    flops_dtype: str | None = None
    # shape -> reason string if a provider cannot run that shape, else None.
    unsupported: Callable[[str, tuple[int, ...]], str | None] | None = None
    extra_args: Callable[[argparse.ArgumentParser], None] | None = None
    # do_bench warmup, ms (--warmup's default). Kernels that run the card at
    # its power limit need longer than the default to reach the clock they
    # hold when run back to back; with a short warmup, the clock a provider
    # is timed at depends on the provider timed before it.
    warmup_ms: int = 25
    # Shape fields that may be 0 (a flag such as attention's CAUSAL); every
    # other field must be positive.
    zero_ok: Sequence[str] = ()
    # Time CUDA-graph replays of each provider's call (captured after its
    # check; the replay's output checked too) instead of the call: for
    # kernels of a few microseconds, where do_bench would also time the
    # CPU's launch when it outlasts the L2 flush before it (a Triton kernel's
    # Python launch path varies from process to process; a C++ library's
    # does not), so the ratios would compare launch paths.
    graph: bool = False


def parse_shape(text: str, arity: int, names: Sequence[str] = (), zero_ok: Sequence[str] = ()) -> tuple[int, ...]:
    """``text`` (``AxBxC``) as ``arity`` integers: positive, or >= 0 for the
    fields of ``names`` listed in ``zero_ok``."""
    try:
        dims = tuple(int(d) for d in text.lower().split("x"))
    except ValueError:
        dims = ()
    may_be_zero = [i < len(names) and names[i] in zero_ok for i in range(arity)]
    if len(dims) != arity or any(d < 0 or (d == 0 and not z) for d, z in zip(dims, may_be_zero)):
        zeros = [n for n, z in zip(names, may_be_zero) if z]
        allowed = f" ({', '.join(zeros)} may be 0)" if zeros else ""
        raise argparse.ArgumentTypeError(f"bad shape {text!r}: expected {arity} positive integers joined by 'x'"
                                         f"{allowed}")
    return dims


def shape_label(shape: Sequence[int]) -> str:
    return "x".join(str(d) for d in shape)


def make_parser(bench: Benchmark) -> argparse.ArgumentParser:
    names = "x".join(bench.shape_names)
    p = argparse.ArgumentParser(description=bench.description)
    p.add_argument("--providers", default=",".join(bench.providers),
                   help=f"comma-separated subset of: {', '.join(bench.providers)} (default: all)")
    p.add_argument("--shapes", default=None,
                   help=f"comma-separated {names} shapes (default: "
                        f"{','.join(shape_label(s) for s in bench.default_shapes)})")
    p.add_argument("--warmup", type=int, default=bench.warmup_ms,
                   help=f"do_bench warmup, ms (default {bench.warmup_ms})")
    p.add_argument("--rep", type=int, default=100, help="do_bench repetition time, ms (default 100)")
    p.add_argument("--rounds", type=int, default=3,
                   help="timing rounds, providers interleaved; a provider's time is the median of its "
                        "per-round do_bench medians (default 3)")
    p.add_argument("--check", action="store_true", help="check every provider's result, do not time")
    p.add_argument("--seed", type=int, default=None, help="input seed (default: random, printed)")
    p.add_argument("--csv", default=None, help=f"CSV output path (default: bench/results/{bench.name}.csv)")
    p.add_argument("--peak-bw", type=float, default=None, help="peak DRAM bandwidth, bytes/s (default: by device name)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress line on stderr (it is also off when stderr is not a terminal)")
    p.add_argument("--no-telemetry", action="store_true",
                   help="do not sample the GPU's clock, power and temperature (nvidia-smi) while timing")
    if bench.extra_args:
        bench.extra_args(p)
    return p


def peak_bandwidth(device_name: str, override: float | None) -> tuple[float | None, str]:
    if override:
        return override, "--peak-bw"
    for key, bw in PEAK_BANDWIDTH:
        if key in device_name:
            return bw, f"data sheet ({key})"
    return None, "unknown device: pass --peak-bw"


def peak_tflops(device_name: str, dtype: str | None) -> float | None:
    if dtype is None:
        return None
    for key, peaks in PEAK_TFLOPS:
        if key in device_name:
            return peaks.get(dtype)
    return None


class Progress:
    """``[done/total] shape provider, elapsed`` redrawn on one stderr line.

    Does nothing unless enabled (stderr a terminal and no ``--no-progress``).
    ``log`` prints a stdout line without tearing the progress line."""

    def __init__(self, total: int, enabled: bool, stream=None):
        self.total, self.done, self.enabled = total, 0, enabled
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.label = ""

    def _draw(self) -> None:
        elapsed = int(time.monotonic() - self.start)
        self.stream.write(f"\r\033[K[{self.done}/{self.total}] {self.label} "
                          f"({elapsed // 60}:{elapsed % 60:02d} elapsed)")
        self.stream.flush()

    def begin(self, label: str) -> None:
        if self.enabled:
            self.label = label
            self._draw()

    def step(self) -> None:
        self.done += 1
        if self.enabled:
            self._draw()

    def log(self, line: str) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
        print(line, flush=True)
        if self.enabled:
            self._draw()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def tle_commit() -> str | None:
    """``$TLE_COMMIT`` when set (a machine given a copy of the tree, whose
    ``.git``, if any, need not match it), else this checkout's commit
    (``-dirty`` with local changes), else None."""
    if os.environ.get("TLE_COMMIT"):
        return os.environ["TLE_COMMIT"]
    sha = _git("rev-parse", "--short=12", "HEAD")
    if sha is None:
        return None
    return sha + ("-dirty" if _git("status", "--porcelain", "--untracked-files=no") else "")


def _driver_version() -> str | None:
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.splitlines()[0].strip() if done.returncode == 0 and done.stdout.strip() else None


def run_metadata(bench: Benchmark, args, argv: Sequence[str], device_name: str, seed: int,
                 bw: float | None, bw_src: str) -> dict:
    """How this run was made; written beside the CSV and printed above the table."""
    import torch
    import triton
    # The script run (bench/<name>.py unless another script of bench/ called main).
    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    here = os.path.dirname(os.path.abspath(__file__))
    script = (os.path.relpath(script, REPO) if os.path.dirname(script) == here and script.endswith(".py")
              else f"bench/{bench.name}.py")
    return {
        "benchmark": bench.name,
        "device": device_name,
        "driver": _driver_version(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "triton": triton.__version__,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "tle_commit": tle_commit(),
        "tle_opt": os.environ.get("TLE_OPT") or None,
        "seed": seed,
        "rounds": args.rounds,
        "warmup_ms": args.warmup,
        "rep_ms": args.rep,
        "peak_bw": bw,
        "peak_bw_source": bw_src,
        "peak_tflops": peak_tflops(device_name, bench.flops_dtype),
        "flops_dtype": bench.flops_dtype,
        "command": shlex.join(["python3", script, *argv]),
    }


def metadata_lines(meta: dict) -> list[str]:
    return [f"# {k}: {'' if v is None else v}" for k, v in meta.items()]


def time_ms(fn: Callable[[], Any], warmup: int, rep: int) -> float:
    import triton.testing
    return float(triton.testing.do_bench(fn, warmup=warmup, rep=rep, return_mode="median"))


class Telemetry:
    """SM clock (MHz), power (W) and temperature (C) of one GPU, sampled every
    ``period_ms`` by ``nvidia-smi`` in the background, and the spans of wall
    time each provider was timed in. Inactive (every summary None) where
    ``nvidia-smi`` is missing or fails; it never fails a benchmark."""

    FIELDS = "timestamp,clocks.sm,power.draw,temperature.gpu"

    def __init__(self, device_index: int | None = None, period_ms: int = 100):
        import shutil
        import threading
        self.samples: list[tuple[float, float, float, float]] = []  # (time, MHz, W, C)
        self.spans: dict[str, list[tuple[float, float]]] = {}
        self.proc = None
        exe = shutil.which("nvidia-smi") if device_index is not None else None
        if exe is None:
            return
        try:
            self.proc = subprocess.Popen(
                [exe, "-i", str(device_index), f"--query-gpu={self.FIELDS}", "--format=csv,noheader,nounits",
                 "-lms", str(period_ms)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        except OSError:
            self.proc = None
            return
        threading.Thread(target=self._read, daemon=True).start()

    @staticmethod
    def parse(line: str) -> tuple[float, float, float, float] | None:
        """One ``nvidia-smi`` line (``2026/11/27 05:12:09.123, 1980, 412.3, 57``)
        as (epoch seconds, MHz, W, C); None for anything else ("[N/A]", ...)."""
        import datetime
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 4:
            return None
        try:
            t = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            return t, float(parts[1]), float(parts[2]), float(parts[3])
        except ValueError:
            return None

    def _read(self):
        for line in self.proc.stdout:
            sample = self.parse(line)
            if sample is not None:
                self.samples.append(sample)

    @contextlib.contextmanager
    def span(self, provider: str):
        start = time.time()
        try:
            yield
        finally:
            self.spans.setdefault(provider, []).append((start, time.time()))

    def summary(self, provider: str) -> tuple[float | None, float | None, float | None]:
        """Mean MHz, mean W and highest C over the samples inside the
        provider's spans; Nones when there are none."""
        spans = self.spans.get(provider, [])
        inside = [s for s in list(self.samples) if any(a <= s[0] <= b for a, b in spans)]
        if not inside:
            return None, None, None
        return (sum(s[1] for s in inside) / len(inside), sum(s[2] for s in inside) / len(inside),
                max(s[3] for s in inside))

    def clear(self):
        """Forget the spans and the samples so far (a new shape)."""
        self.spans.clear()
        self.samples = []

    def close(self):
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def time_interleaved(fns: dict[str, Callable[[], Any]], rounds: int, warmup: int, rep: int,
                     telemetry: Telemetry | None = None) -> dict[str, float]:
    """Each provider's time: the median over ``rounds`` rounds of its
    do_bench median, the providers taking turns within every round (each
    round starts one provider later), so a burst of interference on the
    machine lands on one round of several providers, not on all of one's.
    ``telemetry`` records the span of every do_bench call."""
    import statistics
    order = list(fns)
    samples: dict[str, list[float]] = {p: [] for p in order}
    for r in range(max(1, rounds)):
        for prov in order[r % len(order):] + order[:r % len(order)]:
            with compiler_for(prov), (telemetry.span(prov) if telemetry else contextlib.nullcontext()):
                samples[prov].append(time_ms(fns[prov], warmup, rep))
    return {p: statistics.median(v) for p, v in samples.items()}


def compiler_for(provider: str):
    """TLE's stages for providers named ``tle*``; stock Triton for every other.

    The baselines never pass through TLE's hook, so they are plain Triton."""
    if provider.startswith("tle"):
        import tle
        return tle.enabled()
    return contextlib.nullcontext()


def _fmt(x, spec):
    return "" if x is None else format(x, spec)


def _nvml_index(dev) -> int | None:
    """The device's index as nvidia-smi counts it (CUDA_VISIBLE_DEVICES
    mapped back), or None when it cannot be told."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    index = dev.index or 0
    if not visible:
        return index
    ids = [v.strip() for v in visible.split(",")]
    return int(ids[index]) if index < len(ids) and ids[index].isdigit() else None


def _graphed(fn: Callable[[], Any], check: Callable[[Any], None]) -> Callable[[], Any]:
    """``fn``'s work captured in a CUDA graph: its replay, checked once with
    ``check`` (the output ``fn`` returned while captured)."""
    import torch
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # a warm call off the default stream, as capture wants
        fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = fn()
    graph.replay()
    torch.cuda.synchronize()
    check(out)
    return graph.replay


def _run_shapes(bench: Benchmark, args, shapes, providers, dev, seed, bw, progress,
                telemetry: Telemetry) -> list[dict]:
    """Check and time every provider on every shape (module docstring): the
    result rows."""
    import torch
    on_gpu = torch.device(dev).type == "cuda"
    rows: list[dict] = []
    for shape in shapes:
        gen = torch.Generator(device=dev)
        gen.manual_seed(seed + hash(shape) % 1000003)
        inputs = bench.make_inputs(shape, dev, gen, args)
        times: dict[str, float | None] = {}
        notes: dict[str, str] = {}
        fns: dict[str, Callable[[], Any]] = {}
        for prov in providers:
            progress.begin(f"{shape_label(shape)} {prov}")
            reason = bench.unsupported(prov, shape) if bench.unsupported else None
            if reason:
                times[prov], notes[prov] = None, reason
                progress.step()
                continue
            with compiler_for(prov):
                try:
                    fn = bench.providers[prov](inputs)
                    out = fn()
                    if on_gpu:
                        torch.cuda.synchronize()
                except Exception as e:
                    # Every provider's first run is synchronized, so a CUDA
                    # fault (which kills the context) is this provider's.
                    raise RuntimeError(f"{bench.name}: provider {prov} failed on {shape_label(shape)}: "
                                       f"{type(e).__name__}: {e}") from e
                try:
                    bench.check(prov, inputs, out)
                    del out
                    if on_gpu and bench.graph:
                        fn = _graphed(fn, functools.partial(bench.check, prov, inputs))
                except AssertionError as e:
                    sys.exit(f"{bench.name}: provider {prov} is WRONG on {shape_label(shape)}: {e}")
            fns[prov] = fn
            times[prov] = None
            progress.step()
        if not args.check and fns:
            progress.begin(f"{shape_label(shape)}: timing {len(fns)} providers x {args.rounds} rounds")
            telemetry.clear()
            times.update(time_interleaved(fns, args.rounds, args.warmup, args.rep, telemetry))
        gpu = {prov: telemetry.summary(prov) for prov in providers}
        for prov in fns:
            status = "ok" if args.check else f"{times[prov]:.4f} ms"
            mhz, watts, temp = gpu[prov]
            if mhz is not None:
                status += f" ({mhz:.0f} MHz, {watts:.0f} W, {temp:.0f} C)"
            progress.log(f"  {shape_label(shape):>18} {prov:<14} checked, {status}")
        del fns
        del inputs
        if on_gpu:
            torch.cuda.empty_cache()
        floor_ms = bench.min_bytes(shape) / bw * 1e3 if (bench.min_bytes and bw) else None
        for prov in providers:
            t = times.get(prov)
            row = dict(zip(bench.shape_names, shape))
            row.update(provider=prov, ms=t, note=notes.get(prov, ""))
            row["vs_triton"] = (times["triton"] / t) if (t and times.get("triton")) else None
            row["vs_torch"] = (times["torch"] / t) if (t and times.get("torch")) else None
            row["bw_floor"] = (floor_ms / t) if (t and floor_ms) else None
            row["tflops"] = (bench.flops(shape) / (t * 1e-3) / 1e12) if (t and bench.flops) else None
            row["sm_mhz"], row["power_w"], row["temp_c"] = gpu[prov] if t else (None, None, None)
            rows.append(row)

    return rows


def main(bench: Benchmark, argv: Sequence[str] | None = None) -> list[dict]:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = make_parser(bench).parse_args(argv)
    providers = [p.strip() for p in args.providers.split(",") if p.strip()]
    unknown = [p for p in providers if p not in bench.providers]
    if unknown:
        sys.exit(f"{bench.name}: unknown provider(s) {', '.join(unknown)}; choose from {', '.join(bench.providers)}")
    shapes = ([parse_shape(s, len(bench.shape_names), bench.shape_names, bench.zero_ok)
               for s in args.shapes.split(",")]
              if args.shapes else list(bench.default_shapes))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)

    import torch
    if interpreting():
        # Triton's interpreter (TRITON_INTERPRET=1): the kernels run on the
        # host, TLE's local-memory primitives included (docs/interpreter.md);
        # checks only, on small shapes.
        if not args.check:
            sys.exit(f"{bench.name}: under TRITON_INTERPRET=1 only --check runs (the interpreter is not timed)")
        dev = torch.device("cpu")
        name = "CPU (Triton's interpreter)"
    elif not torch.cuda.is_available():
        sys.exit(f"{bench.name}: needs a CUDA GPU (CI compiles the kernels instead: test_bench_smoke.py; "
                 "TRITON_INTERPRET=1 ... --check runs the checks on the CPU)")
    else:
        dev = torch.device("cuda")
        name = torch.cuda.get_device_name(dev)
    bw, bw_src = peak_bandwidth(name, args.peak_bw)
    print(f"# {bench.name} on {name}; seed {seed}; median of {args.rounds} interleaved rounds of do_bench medians, "
          f"warmup {args.warmup} ms, rep {args.rep} ms; "
          f"peak DRAM bandwidth {bw / 1e12 if bw else float('nan'):.2f} TB/s ({bw_src})", flush=True)

    meta = run_metadata(bench, args, argv, name, seed, bw, bw_src)
    progress = Progress(len(shapes) * len(providers), sys.stderr.isatty() and not args.no_progress)
    telemetry = Telemetry(None if args.check or args.no_telemetry else _nvml_index(dev))
    try:
        rows = _run_shapes(bench, args, shapes, providers, dev, seed, bw, progress, telemetry)
    finally:
        telemetry.close()
    progress.close()
    print()
    print("\n".join(metadata_lines(meta)))
    _print_table(bench, rows)
    if not args.check:
        path = args.csv or os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", f"{bench.name}.csv")
        write_results(path, rows, meta)
        print(f"# wrote {path} and {metadata_path(path)} ({time.strftime('%Y-%m-%d')})")
    return rows


def interpreting() -> bool:
    """Whether Triton runs kernels in its interpreter (TRITON_INTERPRET=1)."""
    from triton import knobs
    return bool(knobs.runtime.interpret)


def metadata_path(csv_path: str) -> str:
    """The run metadata beside a results CSV: ``x.csv`` -> ``x.json``."""
    root, _ = os.path.splitext(csv_path)
    return root + ".json"


def write_results(path: str, rows: list[dict], meta: dict) -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    with open(metadata_path(path), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


def _print_table(bench: Benchmark, rows: list[dict]) -> None:
    cols = list(bench.shape_names) + ["provider", "ms", "vs_triton", "vs_torch"]
    if bench.min_bytes:
        cols.append("bw_floor")
    if bench.flops:
        cols.append("tflops")
    fmt = {"ms": ".4f", "vs_triton": ".2f", "vs_torch": ".2f", "bw_floor": ".2f", "tflops": ".1f"}
    lines = [cols] + [[(_fmt(r[c], fmt[c]) if c in fmt else str(r[c])) or ("n/a: " + r["note"] if c == "ms" and r["note"] else "")
                       for c in cols] for r in rows]
    widths = [max(len(l[i]) for l in lines) for i in range(len(cols))]
    print("| " + " | ".join(c.ljust(w) for c, w in zip(lines[0], widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for l in lines[1:]:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(l, widths)) + " |")
