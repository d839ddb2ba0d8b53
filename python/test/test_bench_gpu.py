"""GPU: every benchmark's providers are correct on its small CHECK_SHAPES.

Runs ``bench/<name>.py --check --shapes <CHECK_SHAPES>``: each provider (TLE,
plain Triton, torch) runs once per shape and is compared with the reference
before anything would be timed. A wrong result exits with a message naming
the provider and the shape. Skips without a GPU; CI compiles the same kernels
to PTX instead (test_bench_smoke.py).
"""

import importlib
import sys

import pytest

from conftest import has_gpu
from test_bench_smoke import BENCH_DIR, BENCHES

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")


@pytest.mark.parametrize("name", BENCHES)
def test_benchmark_providers_are_correct(name, capsys):
    sys.path.insert(0, BENCH_DIR)
    try:
        mod = importlib.import_module(name)
        import _harness
    finally:
        sys.path.remove(BENCH_DIR)
    assert mod.CHECK_SHAPES, f"bench/{name}.py has no CHECK_SHAPES"
    rows = _harness.main(mod.BENCH, ["--check", "--seed", "20261123", "--shapes", ",".join(mod.CHECK_SHAPES)])
    out = capsys.readouterr().out
    checked = {(r["provider"]) for r in rows if not r["note"]}
    # Every provider ran and passed its check on at least one shape.
    assert checked == set(mod.BENCH.providers), (checked, out)
    assert out.count("checked, ok") == len([r for r in rows if not r["note"]])
