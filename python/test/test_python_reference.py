"""docs/reference/python.md is generated from the docstrings and must match them.

The check regenerates it with tools/gen_python_reference.py (on the ``tle``
this test imports) and compares; a stale or missing file fails with the command
that regenerates it. Every public function and class must document each of
its arguments and show an example, except the names in ``INCOMPLETE``, which
may only shrink: completing one's docstring fails here until it leaves the list.
"""

import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

SCRIPT = Path(REPO) / "tools" / "gen_python_reference.py"
OUT = Path(REPO) / "docs" / "reference" / "python.md"

# Public names whose docstrings still lack an argument's description or an
# example. Empty: every public name is documented. Do not add to
# it: document a new name instead.
INCOMPLETE: set[str] = set()


def _generator():
    spec = importlib.util.spec_from_file_location("gen_python_reference", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)


def test_python_reference_is_current():
    done = run_script("--check")
    assert done.returncode == 0, done.stderr


def test_check_names_the_stale_file_and_the_command(tmp_path):
    copy = tmp_path / "python.md"
    text = OUT.read_text()
    assert "Exclusive prefix sum along `axis`" in text
    copy.write_text(text.replace("Exclusive prefix sum along `axis`", "Inclusive prefix sum"))
    done = run_script("--check", "--out", str(copy))
    assert done.returncode == 1
    assert f"{copy}: stale" in done.stderr
    assert "-Inclusive prefix sum" in done.stderr and "+Exclusive prefix sum along `axis`" in done.stderr
    assert "python3 tools/gen_python_reference.py" in done.stderr
    done = run_script("--check", "--out", str(tmp_path / "absent.md"))
    assert done.returncode == 1 and "absent.md: missing" in done.stderr


def public_entries():
    """(qualified name, object) for every documented function and class."""
    import tle
    gen = _generator()
    out = []
    for name in gen.public_names(tle):
        if name in gen.SUBMODULES or name == "jit":  # jit is triton.jit
            continue
        out.append((f"tle.{name}", getattr(tle, name)))
    out.append(("tle.device_context.from_group", tle.device_context.from_group))
    for sub in gen.SUBMODULES:
        module = getattr(tle, sub)
        out += [(f"tle.{sub}.{n}", getattr(module, n)) for n in gen.public_names(module)]
    return [(q, o) for q, o in out if gen.kind_of(o) in ("function", "kernel primitive", "class")]


def _gaps(obj):
    gen = _generator()
    doc = inspect.getdoc(obj) or ""
    gaps = [f"argument {p!r} not described" for p in gen.parameters(obj) if not re.search(rf"\b{re.escape(p)}\b", doc)]
    if "Example" not in doc:
        gaps.append("no Example")
    return gaps


def test_every_public_name_is_in_the_reference():
    text = OUT.read_text()
    missing = [q for q, _ in public_entries() if f"### `{q}`" not in text]
    assert not missing, missing
    for heading in ("## `tle.gpu`", "## `tle.raw`", "## `tle.dsa`", "## `tle.distributed`", "### `tle.jit`"):
        assert heading in text


def test_signatures_hide_the_frontend_parameters():
    text = OUT.read_text()
    assert "_semantic" not in text and "_generator" not in text
    assert "tle.pipe(capacity, scope='cta', name='pipe', readers=None, one_shot=False, **fields)" in text
    assert "tle.gpu.alloc(shape, dtype, layout=None, scope=tle.gpu.smem, init_value=None" in text
    assert "tle.device_context.from_group(mesh, group=None, workspace_numel=0, dtype=None, *," in text
    assert "tle.distributed.all_reduce(x, ctx, out=None, method=None)" in text


@pytest.mark.parametrize("qualname,obj", public_entries(), ids=lambda v: v if isinstance(v, str) else "")
def test_docstring_documents_arguments_and_an_example(qualname, obj):
    gaps = _gaps(obj)
    if qualname in INCOMPLETE:
        assert gaps, f"{qualname} is documented now: remove it from INCOMPLETE in {__file__}"
        pytest.xfail(f"{qualname}: {'; '.join(gaps)}")
    assert not gaps, f"{qualname}: {'; '.join(gaps)}"


def test_incomplete_names_exist():
    names = {q for q, _ in public_entries()}
    assert INCOMPLETE <= names, sorted(INCOMPLETE - names)
