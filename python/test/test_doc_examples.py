"""Every code block of README.md and docs/ that claims to be runnable runs.

The convention: a fenced ```python block is *runnable* when the line just
before its fence is an HTML comment (invisible on GitHub) naming what it needs:

    <!-- runnable -->              CPU only (tle.compile for sm_90 needs no GPU); runs in CI
    <!-- runnable: gpu -->         needs a CUDA GPU; skipped, with that reason, without one
    <!-- runnable: torchrun -->    needs 2+ GPUs; run as
                                   `torchrun --standalone --nproc-per-node <GPUs> block.py`

Requirements combine with commas (``<!-- runnable: gpu, mlir -->``); ``mlir``
means TLE-Raw's MLIR Python bindings (``pip install tle[raw]``). A runnable
block must be complete: its own imports, its own data, no name from another
block. Each runs in a fresh Python subprocess in an empty temporary folder and
must exit 0. Blocks without the comment (fragments such as a loop body) are
not run. A ``runnable`` comment that is not followed by a ```python fence, or
that names an unknown requirement, fails here rather than being ignored.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, has_gpu

ROOT = Path(REPO)
REQUIREMENTS = {"gpu", "torchrun", "mlir"}
_TAG = re.compile(r"^<!--\s*runnable(?:\s*:\s*(?P<needs>[^>]*?))?\s*-->\s*$")
_FENCE = re.compile(r"^(`{3,})(.*)$")


def markdown_files() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


class Block:

    def __init__(self, path: Path, line: int, needs: list[str], code: str):
        self.path, self.line, self.needs, self.code = path, line, needs, code

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def parse(path: Path) -> tuple[list[Block], list[str]]:
    """The runnable blocks of ``path`` and the problems with its tags."""
    lines = path.read_text().splitlines()
    blocks, problems = [], []
    rel = path.relative_to(ROOT)
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:  # skip a whole fenced block, whatever its language
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(fence.group(1))
                        and not lines[j].strip("`")), len(lines))
            i = end + 1
            continue
        if "runnable" in line and line.lstrip().startswith("<!--"):
            tag = _TAG.match(line.strip())
            if not tag:
                problems.append(f"{rel}:{i + 1}: malformed tag {line.strip()!r} "
                                "(expected <!-- runnable --> or <!-- runnable: gpu, ... -->)")
                i += 1
                continue
            needs = [n.strip() for n in (tag.group("needs") or "").split(",") if n.strip()]
            unknown = sorted(set(needs) - REQUIREMENTS)
            if unknown:
                problems.append(f"{rel}:{i + 1}: unknown requirement(s) {unknown}; known: {sorted(REQUIREMENTS)}")
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            fence = _FENCE.match(nxt)
            if not fence or fence.group(2).strip() != "python":
                problems.append(f"{rel}:{i + 1}: a runnable tag must be followed directly by a ```python fence, "
                                f"not {nxt!r}")
                i += 1
                continue
            end = next((j for j in range(i + 2, len(lines)) if lines[j] == fence.group(1)), None)
            if end is None:
                problems.append(f"{rel}:{i + 2}: unterminated code block")
                break
            blocks.append(Block(path, i + 3, needs, "\n".join(lines[i + 2:end]) + "\n"))
            i = end + 1
            continue
        i += 1
    return blocks, problems


def all_blocks() -> list[Block]:
    return [b for path in markdown_files() for b in parse(path)[0]]


def missing(needs: list[str]) -> str | None:
    """Why a block with these requirements cannot run here, or None."""
    if "mlir" in needs and importlib.util.find_spec("mlir") is None:
        return "needs TLE-Raw's MLIR Python bindings (pip install tle[raw])"
    if "torchrun" in needs:
        import torch
        if not has_gpu() or torch.cuda.device_count() < 2:
            return "needs torchrun on a machine with 2 or more GPUs"
    if "gpu" in needs and not has_gpu():
        return "needs a CUDA GPU"
    return None


def test_tags_are_well_formed():
    problems = [p for path in markdown_files() for p in parse(path)[1]]
    assert not problems, "\n".join(problems)


def test_readme_opens_with_a_cpu_runnable_kernel():
    """The first code block of README.md is the newcomer's kernel and CI runs it."""
    text = (ROOT / "README.md").read_text()
    first = text.index("```")
    assert text[:first].rstrip().endswith("<!-- runnable -->"), "README.md's first code block is not runnable"
    assert text[:first].count("\n") < 20, "README.md's first code block is not on its first screen"
    block = all_blocks()[0]
    assert block.path.name == "README.md" and block.needs == [] and "@triton.jit" in block.code
    assert 10 <= block.code.count("\n") <= 20


def test_parser_finds_tags_and_rejects_bad_ones(tmp_path, monkeypatch):
    doc = tmp_path / "docs" / "x.md"
    doc.parent.mkdir()
    (tmp_path / "README.md").write_text("# t\n")
    doc.write_text("<!-- runnable -->\n```python\nprint(1)\n```\n\n"
                   "```sh\n<!-- runnable -->\n```\n\n"  # inside another block: text, not a tag
                   "<!-- runnable: gpu, mlir -->\n```python\nx = 1\n\ny = 2\n```\n"
                   "<!-- runnable: tpu -->\n```python\npass\n```\n"
                   "<!-- runnable -->\n\n```python\npass\n```\n"
                   "<!-- runnable -->\n```sh\nls\n```\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    blocks, problems = parse(doc)
    assert [(b.line, b.needs, b.code) for b in blocks] == [(3, [], "print(1)\n"),
                                                          (12, ["gpu", "mlir"], "x = 1\n\ny = 2\n"),
                                                          (18, ["tpu"], "pass\n")]
    assert len(problems) == 3, problems
    assert "unknown requirement(s) ['tpu']" in problems[0]
    assert "docs/x.md:20: a runnable tag must be followed directly by a ```python fence" in problems[1]
    assert "docs/x.md:25:" in problems[2]


@pytest.mark.parametrize("block", all_blocks(), ids=lambda b: b.id)
def test_block_runs(block, tmp_path):
    reason = missing(block.needs)
    if reason:
        pytest.skip(f"{block.id}: {reason}")
    script = tmp_path / "block.py"
    # Line numbers in a traceback are the Markdown file's: pad with blank lines.
    script.write_text("\n" * (block.line - 1) + block.code)
    if "torchrun" in block.needs:
        import torch
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               f"--nproc-per-node={torch.cuda.device_count()}", str(script)]
    else:
        cmd = [sys.executable, str(script)]
    env = dict(os.environ)
    env.setdefault("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    done = subprocess.run(cmd, cwd=run_dir, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (f"{block.id} ({', '.join(block.needs) or 'cpu'}) exited with {done.returncode}:\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}")
