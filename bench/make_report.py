#!/usr/bin/env python3
"""Render bench/README.md from bench/README.in.md and bench/results/*.csv.

    python3 bench/make_report.py           # bench/README.md and bench/results/<name>-*.png
    python3 bench/make_report.py --check   # exit 1 if bench/README.md is not what the results give

bench/README.md is generated: the prose lives in the template, every table and
plot comes from the CSVs the benchmark scripts write (``bench/_harness.py``)
and from the run metadata beside them (``<name>.json``). Placeholders in the
template, ``{{kind:args}}``:

``{{table:NAME}}``
    results/NAME.csv as one row per shape: every provider's ms, the best TLE
    provider (the fastest ``tle*``) and its speed-up over ``triton`` and
    ``torch``, and its bw_floor / TFLOP/s when the benchmark reports them.
``{{meta:NAME}}``
    how the results were made (device, date, versions, TLE commit, seed,
    command), or "metadata not recorded" (nothing when there are no results).
``{{plots:NAME}}``
    the plots of NAME: speed-ups over triton and torch, and achieved
    bandwidth / TFLOP/s against the device's peaks (the roofline when both).
``{{best:NAME:SHAPE}}``
    the best TLE provider's speed-up over triton at SHAPE: ``**1.56×** (tle-cluster)``.
``{{value:NAME:SHAPE:TERM}}``, ``{{range:NAME:TERM}}``, ``{{range:NAME:TERM:FILTER}}``
    one number, or its min–max over the shapes (those matching FILTER, such as
    ``batch=64`` or ``B=16384,N<=256``). TERM is ``A vs B`` (speed-up of A
    over B: t_B / t_A) or ``P.ms``, ``P.bw_floor``, ``P.tflops``; a provider
    may be ``best`` (the fastest ``tle*`` at each shape).

SHAPE is written as in the CSV's shape columns joined by ``x`` (``64x4096x128``).
A missing CSV, provider or shape renders as "n/a" with a warning on stderr; a
malformed placeholder is an error.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINES = ("triton", "torch")
_PLACEHOLDER = re.compile(r"\{\{([^{}]*)\}\}")
_FILTER = re.compile(r"^\s*(\w+)\s*(<=|>=|!=|=|<|>)\s*(-?\d+)\s*$")
_OPS = {"=": lambda a, b: a == b, "!=": lambda a, b: a != b, "<=": lambda a, b: a <= b,
        ">=": lambda a, b: a >= b, "<": lambda a, b: a < b, ">": lambda a, b: a > b}


@dataclass
class Results:
    """One results CSV: per shape, per provider, the numeric columns."""

    name: str
    shape_cols: list[str]
    providers: list[str] = field(default_factory=list)
    shapes: list[tuple[int, ...]] = field(default_factory=list)
    data: dict = field(default_factory=dict)  # (shape, provider) -> {column: float or None}
    meta: dict | None = None

    def get(self, shape, provider, column):
        if provider == "best":
            provider = self.best(shape)
        return self.data.get((shape, provider), {}).get(column)

    def best(self, shape) -> str | None:
        """The fastest ``tle*`` provider at ``shape``."""
        timed = [(self.data[(shape, p)]["ms"], p) for p in self.providers
                 if p.startswith("tle") and self.data.get((shape, p), {}).get("ms") is not None]
        return min(timed)[1] if timed else None

    def speedup(self, shape, a, b):
        ta, tb = self.get(shape, a, "ms"), self.get(shape, b, "ms")
        return tb / ta if ta and tb else None

    def has(self, column) -> bool:
        return any(v.get(column) is not None for v in self.data.values())


def shape_label(shape) -> str:
    return "x".join(str(d) for d in shape)


def _number(text):
    try:
        x = float(text)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def load(path: str) -> Results:
    name = os.path.splitext(os.path.basename(path))[0]
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        cols = reader.fieldnames or []
        if "provider" not in cols:
            raise ValueError(f"{path}: no 'provider' column")
        res = Results(name, cols[:cols.index("provider")])
        for row in reader:
            shape = tuple(int(row[c]) for c in res.shape_cols)
            prov = row["provider"]
            if shape not in res.shapes:
                res.shapes.append(shape)
            if prov not in res.providers:
                res.providers.append(prov)
            res.data[(shape, prov)] = {c: _number(v) for c, v in row.items()
                                       if c not in res.shape_cols and c not in ("provider", "note")}
    meta_path = os.path.splitext(path)[0] + ".json"
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            res.meta = json.load(f)
    return res


def load_all(results_dir: str) -> dict[str, Results]:
    return {r.name: r for r in (load(os.path.join(results_dir, f)) for f in sorted(os.listdir(results_dir))
                                if f.endswith(".csv"))}


# --- formatting ------------------------------------------------------------------------------

def fmt(kind: str, x) -> str:
    if x is None:
        return "n/a"
    if kind == "vs":
        return f"{x:.2f}×"
    if kind == "ms":
        return f"{x:.4f}"
    if kind == "tflops":
        return f"{x:.0f}" if x >= 10 else f"{x:.1f}"
    return f"{x:.2f}"


def _with_unit(kind: str, text: str) -> str:
    return text + " ms" if kind == "ms" and text != "n/a" else text


def meta_text(res: Results | None, name: str) -> str:
    if res is None:
        return ""  # the table says so
    m = res.meta
    if not m:
        return (f"_Run metadata not recorded (`bench/results/{name}.csv` predates the metadata the harness "
                f"now writes beside it, `{name}.json`)._")
    parts = [m.get("device") or "device not recorded"]
    if m.get("driver"):
        parts[0] += f" (driver {m['driver']})"
    parts.append(m.get("date") or "date not recorded")
    parts.append(", ".join(f"{k} {m[k]}" for k in ("triton", "torch", "cuda") if m.get(k)))
    parts.append(f"TLE `{m['tle_commit']}`" if m.get("tle_commit") else "TLE commit not recorded")
    parts.append(f"seed {m.get('seed')}; do_bench median, warmup {m.get('warmup_ms')} ms, rep {m.get('rep_ms')} ms")
    text = "_" + "; ".join(p for p in parts if p) + "._"
    if m.get("command"):
        text += f"\n\n```sh\n{m['command']}\n```"
    return text


def table(res: Results) -> str:
    head = [*res.shape_cols, *(f"{p} ms" for p in res.providers), "best TLE"]
    baselines = [b for b in BASELINES if b in res.providers]
    head += [f"vs {b}" for b in baselines]
    extra = [(c, label) for c, label in (("bw_floor", "bw_floor"), ("tflops", "TFLOP/s")) if res.has(c)]
    head += [f"best TLE {label}" for _, label in extra]
    lines = ["| " + " | ".join(head) + " |", "|" + "---:|" * len(head)]
    for shape in res.shapes:
        best = res.best(shape)
        cells = [str(d) for d in shape]
        cells += [fmt("ms", res.get(shape, p, "ms")) for p in res.providers]
        cells.append(best or "n/a")
        for i, b in enumerate(baselines):
            text = fmt("vs", res.speedup(shape, "best", b))
            cells.append(f"**{text}**" if i == 0 and text != "n/a" else text)
        cells += [fmt(c, res.get(shape, "best", c)) for c, _ in extra]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- terms: "A vs B", "P.column" --------------------------------------------------------------

def parse_term(term: str):
    m = re.fullmatch(r"\s*([\w.-]+)\s+vs\s+([\w.-]+)\s*", term)
    if m:
        return "vs", m.group(1), m.group(2)
    m = re.fullmatch(r"\s*([\w-]+)\.(ms|bw_floor|tflops)\s*", term)
    if m:
        return m.group(2), m.group(1), None
    raise ValueError(f"bad term {term!r}: expected 'A vs B' or 'P.ms' / 'P.bw_floor' / 'P.tflops'")


def term_value(res: Results, shape, term):
    kind, a, b = term
    return res.speedup(shape, a, b) if kind == "vs" else res.get(shape, a, kind)


def parse_filter(res: Results, text: str):
    conds = []
    for part in filter(str.strip, text.split(",")):
        m = _FILTER.match(part)
        if not m or m.group(1) not in res.shape_cols:
            raise ValueError(f"bad filter {part!r} for {res.name}: expected <shape column><op><int>, "
                             f"shape columns {res.shape_cols}")
        conds.append((res.shape_cols.index(m.group(1)), _OPS[m.group(2)], int(m.group(3))))
    return lambda shape: all(op(shape[i], v) for i, op, v in conds)


class Renderer:
    """Expands a template's placeholders; plots go to ``plot_dir`` (drawn only with ``draw``)."""

    def __init__(self, results: dict[str, Results], plot_dir: str, readme_dir: str, draw: bool = True):
        self.results, self.plot_dir, self.readme_dir, self.draw = results, plot_dir, readme_dir, draw
        self.warnings: list[str] = []

    def _warn(self, text: str) -> str:
        self.warnings.append(text)
        return "n/a"

    def _shape(self, res: Results, text: str):
        try:
            shape = tuple(int(d) for d in text.lower().split("x"))
        except ValueError:
            raise ValueError(f"bad shape {text!r}") from None
        return shape if shape in res.shapes else None

    def include(self, name: str) -> str:
        """results/NAME.md as it is (a table a benchmark script rendered
        itself: the multi-GPU ones, bench/_dist_harness.py), after how it was
        made (results/NAME.json)."""
        path = os.path.join(self.plot_dir, f"{name}.md")
        if not os.path.exists(path):
            return self._warn(f"{{{{include:{name}}}}}: no results/{name}.md")
        meta_path = os.path.join(self.plot_dir, f"{name}.json")
        lines = []
        if os.path.exists(meta_path):
            with open(meta_path) as f:
                m = json.load(f)
            lines.append(f"{m.get('world_size', '?')} x {m.get('device')}; {m.get('date')}; triton "
                         f"{m.get('triton')}, torch {m.get('torch')}, CUDA {m.get('cuda')}, NCCL {m.get('nccl')}; "
                         f"TLE {m.get('tle_commit')}; seed {m.get('seed')}; multicast {m.get('multicast', '?')}. "
                         f"Command: `{m.get('command')}`")
            lines.append("")
        with open(path) as f:
            lines.append(f.read().rstrip("\n"))
        return "\n".join(lines)

    def expand(self, placeholder: str) -> str:
        kind, _, rest = placeholder.strip().partition(":")
        args = rest.split(":") if rest else []
        if kind not in ("table", "meta", "plots", "best", "value", "range", "include") or not args:
            raise ValueError(f"unknown placeholder {{{{{placeholder}}}}}")
        name = args[0]
        if kind == "include":
            return self.include(name)
        res = self.results.get(name)
        if kind == "meta":
            return meta_text(res, name)
        if res is None:
            if kind == "table":
                return f"_No results: `bench/results/{name}.csv` does not exist yet._"
            return "" if kind == "plots" else self._warn(f"{{{{{placeholder}}}}}: no results/{name}.csv")
        if kind == "table":
            return table(res)
        if kind == "plots":
            return self.plots(res)
        if kind == "best":
            if len(args) != 2:
                raise ValueError(f"{{{{{placeholder}}}}}: expected best:NAME:SHAPE")
            shape = self._shape(res, args[1])
            best = res.best(shape) if shape else None
            if best is None or "triton" not in res.providers:
                return self._warn(f"{{{{{placeholder}}}}}: no such shape or no TLE/triton time")
            return f"**{fmt('vs', res.speedup(shape, best, 'triton'))}** ({best})"
        if kind == "value":
            if len(args) != 3:
                raise ValueError(f"{{{{{placeholder}}}}}: expected value:NAME:SHAPE:TERM")
            term = parse_term(args[2])
            shape = self._shape(res, args[1])
            x = term_value(res, shape, term) if shape else None
            return _with_unit(term[0], fmt(term[0], x)) if x is not None else \
                self._warn(f"{{{{{placeholder}}}}}: no value")
        # range
        if len(args) not in (2, 3):
            raise ValueError(f"{{{{{placeholder}}}}}: expected range:NAME:TERM[:FILTER]")
        term = parse_term(args[1])
        keep = parse_filter(res, args[2]) if len(args) == 3 else (lambda s: True)
        xs = [x for s in res.shapes if keep(s) for x in [term_value(res, s, term)] if x is not None]
        if not xs:
            return self._warn(f"{{{{{placeholder}}}}}: no values")
        lo, hi = fmt(term[0], min(xs)), fmt(term[0], max(xs))
        if lo == hi:
            return _with_unit(term[0], lo)
        if term[0] == "vs":
            return f"{lo[:-1]}–{hi}"
        return _with_unit(term[0], f"{lo}–{hi}")

    def plots(self, res: Results) -> str:
        files = plot(res, self.plot_dir) if self.draw else expected_plots(res, self.plot_dir)
        return "\n\n".join(f"![{res.name}: {what}]({os.path.relpath(path, self.readme_dir)})"
                           for what, path in files)

    def render(self, template: str) -> str:
        text = _PLACEHOLDER.sub(lambda m: self.expand(m.group(1)), template)
        return re.sub(r"\n{3,}", "\n\n", text)  # placeholders that rendered empty leave no gap


# --- plots ------------------------------------------------------------------------------------

def expected_plots(res: Results, plot_dir: str):
    """(description, path) of the plots ``plot`` writes for ``res``."""
    out = []
    if any(b in res.providers for b in BASELINES) and any(p.startswith("tle") for p in res.providers):
        out.append(("speed-up of each TLE provider over plain Triton and torch",
                    os.path.join(plot_dir, f"{res.name}-speedup.png")))
    if res.has("bw_floor") or res.has("tflops"):
        out.append(("achieved bandwidth and throughput against the device's peaks",
                    os.path.join(plot_dir, f"{res.name}-roofline.png")))
    return out


def _grouped_bars(ax, labels, series, log=False):
    """One group of bars per shape label, one bar per (name, values) series; with
    ``log``, speed-ups on a log scale, each bar drawn from 1 (up: faster)."""
    import numpy as np
    from matplotlib.ticker import FuncFormatter
    x = np.arange(len(labels))
    width = 0.8 / max(1, len(series))
    base = 1.0 if log else 0.0
    for i, (name, values) in enumerate(series):
        ys = [v - base if v is not None else 0.0 for v in values]
        ax.bar(x + (i - (len(series) - 1) / 2) * width, ys, width, bottom=base, label=name)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=45 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center",
                       fontsize=8)
    if log:
        ax.set_yscale("log", base=2)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}×"))
    ax.grid(axis="y", alpha=0.3)


def _peaks(res: Results):
    m = res.meta or {}
    return m.get("peak_bw"), m.get("peak_tflops"), m.get("device") or "peak not recorded"


def plot(res: Results, plot_dir: str):
    """Write ``res``'s plots into ``plot_dir``; return ``expected_plots``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(plot_dir, exist_ok=True)
    files = expected_plots(res, plot_dir)
    labels = [shape_label(s) for s in res.shapes]
    tle = [p for p in res.providers if p.startswith("tle")]
    title = f"{res.name} ({' x '.join(res.shape_cols)})"
    for what, path in files:
        if path.endswith("-speedup.png"):
            baselines = [b for b in BASELINES if b in res.providers]
            fig, axes = plt.subplots(1, len(baselines), figsize=(6.5 * len(baselines), 4.2), squeeze=False)
            for ax, b in zip(axes[0], baselines):
                _grouped_bars(ax, labels, [(p, [res.speedup(s, p, b) for s in res.shapes]) for p in tle], log=True)
                ax.axhline(1.0, color="black", linewidth=1)
                ax.set_ylabel(f"speed-up over {b} (t_{b} / t)")
                ax.set_title(f"vs {'plain Triton' if b == 'triton' else 'torch'}")
                ax.legend(fontsize=8)
        else:
            peak_bw, peak_tf, device = _peaks(res)
            panels = []
            if res.has("bw_floor"):
                panels.append("bw")
            if res.has("tflops"):
                panels.append("tflops")
            if res.has("bw_floor") and res.has("tflops") and peak_bw and peak_tf:
                panels.append("roofline")
            fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.2), squeeze=False)
            for ax, panel in zip(axes[0], panels):
                if panel == "bw":
                    _grouped_bars(ax, labels, [(p, [res.get(s, p, "bw_floor") for s in res.shapes])
                                               for p in res.providers])
                    roof = f"peak DRAM bandwidth ({peak_bw / 1e12:.2f} TB/s)" if peak_bw else "peak DRAM bandwidth"
                    ax.axhline(1.0, color="red", linestyle="--", label=roof)
                    ax.set_ylabel("fraction of the bandwidth floor reached")
                    ax.set_title("achieved bandwidth (bw_floor)")
                elif panel == "tflops":
                    _grouped_bars(ax, labels, [(p, [res.get(s, p, "tflops") for s in res.shapes])
                                               for p in res.providers])
                    if peak_tf:
                        ax.axhline(peak_tf, color="red", linestyle="--",
                                   label=f"peak {res.meta.get('flops_dtype') or ''} ({peak_tf:.0f} TFLOP/s)")
                    ax.set_ylabel("TFLOP/s")
                    ax.set_title("achieved throughput" + ("" if peak_tf else " (peak not recorded)"))
                else:
                    _roofline(ax, res, peak_bw, peak_tf)
                ax.legend(fontsize=8)
            fig.suptitle(f"{title}: {device}", fontsize=10)
        if path.endswith("-speedup.png"):
            fig.suptitle(title, fontsize=10)
        fig.tight_layout()
        fig.savefig(path, dpi=100, metadata={"Software": None})
        plt.close(fig)
    return files


def _roofline(ax, res: Results, peak_bw: float, peak_tf: float):
    """TFLOP/s against arithmetic intensity (flops per byte of the bandwidth floor)."""
    import numpy as np
    points = []
    for p in res.providers:
        for s in res.shapes:
            tf, bwf = res.get(s, p, "tflops"), res.get(s, p, "bw_floor")
            if tf and bwf:
                points.append((p, tf * 1e12 / (bwf * peak_bw), tf))  # flops / bytes = (tf / t) / (bytes / t)
    if not points:
        return
    ais = [a for _, a, _ in points]
    xs = np.logspace(math.log10(min(ais) / 4), math.log10(max(max(ais) * 4, peak_tf * 1e12 / peak_bw * 4)), 200)
    ax.plot(xs, np.minimum(peak_tf, xs * peak_bw / 1e12), color="red", linestyle="--",
            label=f"roofline ({peak_bw / 1e12:.2f} TB/s, {peak_tf:.0f} TFLOP/s)")
    for p in res.providers:
        pts = [(a, t) for q, a, t in points if q == p]
        if pts:
            ax.scatter([a for a, _ in pts], [t for _, t in pts], label=p, s=18)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop / byte of the bandwidth floor)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title("roofline")
    ax.grid(alpha=0.3, which="both")


# --- driver -----------------------------------------------------------------------------------

def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", default=os.path.join(HERE, "results"), help="results folder (default bench/results)")
    p.add_argument("--template", default=os.path.join(HERE, "README.in.md"), help="default bench/README.in.md")
    p.add_argument("--out", default=os.path.join(HERE, "README.md"), help="default bench/README.md")
    p.add_argument("--check", action="store_true",
                   help="render without plotting and compare with --out; exit 1 if it differs")
    args = p.parse_args(argv)
    with open(args.template) as f:
        template = f.read()
    results = load_all(args.results)
    renderer = Renderer(results, args.results, os.path.dirname(os.path.abspath(args.out)), draw=not args.check)
    header = ("<!-- Generated by bench/make_report.py from bench/README.in.md and bench/results/; do not edit.\n"
              "     Regenerate: python3 bench/make_report.py -->\n\n")
    text = header + renderer.render(template)
    for w in renderer.warnings:
        print(f"make_report: warning: {w}", file=sys.stderr)
    if args.check:
        current = open(args.out).read() if os.path.exists(args.out) else None
        if current != text:
            print(f"{args.out} is not what {args.template} and {args.results} give: "
                  "regenerate it with `python3 bench/make_report.py`", file=sys.stderr)
            return 1
        return 0
    with open(args.out, "w") as f:
        f.write(text)
    print(f"wrote {args.out} from {len(results)} result files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
