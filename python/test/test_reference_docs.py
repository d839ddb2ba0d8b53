"""docs/reference is generated from the ODS and must match the .td files.

The check regenerates every file with the venv's mlir-tblgen (the MLIR kit's,
the one the build uses) and compares; a stale, missing or extra file fails with
the command that regenerates them. Every op and pass must also have a summary
and a description in the generated reference (and so in ``tle-opt --help``).
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

SCRIPT = Path(REPO) / "tools" / "gen_reference_docs.py"
REFERENCE = Path(REPO) / "docs" / "reference"


def run_script(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    done = run_script("--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_reference_docs_are_current():
    done = run_script("--check")
    assert done.returncode == 0, done.stderr


def test_check_names_the_stale_file_and_the_command(generated, tmp_path):
    copy = tmp_path / "reference"
    shutil.copytree(generated, copy)
    passes = copy / "TLEPasses.md"
    passes.write_text(passes.read_text().replace("Fail if any tle op is left", "Fails if any op is left"))
    (copy / "Stray.md").write_text("# not generated\n")
    done = run_script("--check", "--out", str(copy))
    assert done.returncode == 1
    assert f"{passes}: stale" in done.stderr
    assert "-_Fails if any op is left" in done.stderr and "+_Fail if any tle op is left" in done.stderr
    assert "Stray.md: not generated" in done.stderr
    assert "ninja -C build tle-docs" in done.stderr


def test_generated_files_are_tblgen_output(generated):
    names = sorted(p.name for p in generated.glob("*.md"))
    assert names == ["IluvatarTLEDialect.md", "TLEConversionPasses.md", "TLEDSAToLinalgPasses.md",
                     "TLEDialect.md", "TLEPasses.md", "TLEToIluvatarPasses.md"]
    dialect = (generated / "TLEDialect.md").read_text()
    assert "# 'tle' Dialect" in dialect and "### `tle.exclusive_cumsum` (tle::ExclusiveCumsumOp)" in dialect
    assert "### ShardingAttr" in dialect and "### PipeType" in dialect
    assert "[TOC]" not in dialect and "{{%" not in dialect  # no Hugo directives
    assert "### `-triton-tle-raise-markers`" in (generated / "TLEPasses.md").read_text()
    assert "### `-triton-tle-lower-local-memory`" in (generated / "TLEConversionPasses.md").read_text()


def _sections(text):
    """(heading, body) for every op (``### `dialect.op```) and pass (``### `-pass```) section."""
    parts = re.split(r"^### ", text, flags=re.M)[1:]
    for part in parts:
        heading, _, body = part.partition("\n")
        if heading.startswith("`"):
            yield heading, body.split("\n## ", 1)[0]


def _prose(body):
    """The description paragraphs: lines outside code, tables and generated boilerplate."""
    out, fence = [], False
    for line in body.splitlines():
        if line.startswith("```"):
            fence = not fence
            continue
        if fence or not line.strip() or line.startswith(("|", "<", "#", "_", "Syntax:", "Traits:", "Interfaces:",
                                                         "Effects:")):
            continue
        out.append(line)
    return out


def test_every_op_and_pass_has_summary_and_description(generated):
    checked = 0
    for path in sorted(generated.glob("*.md")):
        for heading, body in _sections(path.read_text()):
            summary = re.search(r"^_(.+)_$", body, re.M)
            assert summary and len(summary.group(1).split()) >= 3, f"{path.name}: {heading}: no real summary"
            assert len(" ".join(_prose(body)).split()) >= 10, f"{path.name}: {heading}: no description"
            checked += 1
    assert checked > 60  # 41 tle ops + 3 iluvatar_tle ops + 23 passes at the time of writing
