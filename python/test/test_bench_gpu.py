"""GPU: every benchmark's providers are correct on its small CHECK_SHAPES.

Runs ``bench/<name>.py --check --shapes <CHECK_SHAPES>``: each provider (TLE,
plain Triton, torch) runs once per shape and is compared with the reference
before anything would be timed. A wrong result exits with a message naming
the provider and the shape. The multi-GPU benchmarks (``dist_*.py``, launched
with torchrun) run the same way on 2 GPUs under ``torchrun --check``. Skips
without a GPU (or, for ``dist_*``, without two); CI compiles the same kernels
to PTX instead (test_bench_smoke.py).
"""

import importlib
import os
import subprocess
import sys

import pytest

from conftest import REPO, has_gpu
from test_bench_smoke import BENCH_DIR, BENCHES

pytestmark = pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")

# The torchrun benchmarks and the sizes their check takes.
DIST = {"dist_allreduce": ["--sizes-kib", "4,256,4096"], "dist_ag_gemm": ["--tokens", "4096"],
        "dist_gemm_rs": ["--tokens", "4096"]}


@pytest.mark.parametrize("name", sorted(DIST))
def test_distributed_benchmark_providers_are_correct(name):
    import torch
    if torch.cuda.device_count() < 2:
        pytest.skip("needs 2 GPUs (torchrun, one process per GPU)")
    env = dict(os.environ, NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1", NVSHMEM_DISABLE_NVLS="1",
               PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2",
           os.path.join(BENCH_DIR, f"{name}.py"), "--check", *DIST[name]]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, cwd=REPO)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    sizes = len(DIST[name][1].split(","))
    assert done.stdout.count("checked, ok: ") == sizes and "tle" in done.stdout, done.stdout[-4000:]


def test_every_benchmark_is_checked():
    """Each benchmark script is checked by one of the two tests here."""
    assert set(DIST) == {b for b in BENCHES if b.startswith("dist_")}


@pytest.mark.parametrize("name", [b for b in BENCHES if b not in DIST])
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
