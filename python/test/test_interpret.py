"""TLE under Triton's interpreter (TRITON_INTERPRET=1, docs/interpreter.md), on the CPU.

The interpreter is chosen when Triton is imported, so each check runs in a
subprocess: interpret_cases.py (the local-memory primitives and tle.cumsum, each against a
torch reference; out-of-bounds accesses and GPU-only primitives are named
errors), the FFT and TopK-selector benchmarks' --check (their TLE kernels
against torch) and the GPU test files that opt in to the interpreter
(conftest.needs_gpu_or_interpreter: FlagTree's kernels, local memory).
"""

import os
import re
import subprocess
import sys

import pytest

from conftest import REPO

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ("reverse_1d", "transpose_2d", "flat_offsets", "init_store_load", "copy_both_ways", "alias_bits",
         "per_program", "fresh_buffers_are_poisoned", "masked_edge", "cumsum", "memory_space",
         "range_with_pipeline_groups", "barrier_phases", "copies_on_barriers",
         "a_wait_that_never_returns_is_an_error", "outside_a_kernel_is_still_an_error",
         "out_of_bounds_is_an_error",
         "gpu_only_primitive_is_named")
# Every N the benchmark takes, with partial programs (B not a multiple of ROWS).
FFT_SHAPES = "3x64,5x128,2x256,3x512,2x1024"


def _interpreted(args, timeout=600):
    env = dict(os.environ, TRITON_INTERPRET="1", TLE_FORCE_NO_GPU="1")  # the same on a GPU machine
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=HERE)


@pytest.fixture(scope="module")
def case_results():
    done = _interpreted([os.path.join(HERE, "interpret_cases.py")])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    results = {}
    for line in done.stdout.splitlines():
        if line.startswith("CASE "):
            _, name, verdict = line.split(" ", 2)
            results[name] = verdict
    assert set(results) == set(CASES), (sorted(results), done.stderr[-3000:])
    return results


@pytest.mark.parametrize("case", CASES)
def test_local_memory_under_interpreter(case_results, case):
    assert case_results[case] == "ok", case_results[case]


def test_fft_benchmark_checks_under_interpreter():
    """bench/fft.py --check under the interpreter: every provider (TLE's 1-D,
    2-D and radix-16 kernels, plain Triton's radix-4 and radix-16 ones,
    torch) matches torch.fft in complex128 on the CPU."""
    done = _interpreted([os.path.join(REPO, "bench", "fft.py"), "--check", "--seed", "7", "--no-progress",
                         "--shapes", FFT_SHAPES])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "CPU (Triton's interpreter)" in done.stdout
    for shape in FFT_SHAPES.split(","):
        for provider in ("tle", "tle-2d", "tle-r16", "triton", "triton-r16", "torch"):
            assert any(line.split()[:4] == [shape, provider, "checked,", "ok"] for line in done.stdout.splitlines()), \
                (shape, provider, done.stdout[-3000:])


def test_benchmarks_are_timed_only_on_a_gpu():
    done = _interpreted([os.path.join(REPO, "bench", "fft.py"), "--shapes", "3x64", "--no-progress"])
    assert done.returncode != 0 and "only --check runs" in done.stderr, done.stderr[-2000:]


def test_topk_selector_checks_under_interpreter():
    """bench/topk_selector.py --check: its one-CTA TLE kernel (local
    pointers, shared-memory atomics) against torch.topk on the CPU."""
    shapes = "8x4096x128,3x1000x64"
    done = _interpreted([os.path.join(REPO, "bench", "topk_selector.py"), "--check", "--seed", "7", "--no-progress",
                         "--providers", "tle,triton,torch", "--shapes", shapes])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for shape in shapes.split(","):
        for provider in ("tle", "triton", "torch"):
            assert any(line.split()[:4] == [shape, provider, "checked,", "ok"] for line in done.stdout.splitlines()), \
                (shape, provider, done.stdout[-3000:])


# GPU test files that run under the interpreter, and how many of their tests
# need the hardware (gpu_only: warp_specialize, inline-asm delays, clusters and grid barriers,
# compute-sanitizer, timing).
GPU_FILES = {"test_async_load_gpu.py": 1, "test_barriers_gpu.py": 24, "test_flagtree_compat_gpu.py": 34,
             "test_local_memory_gpu.py": 10}


@pytest.mark.parametrize("name", sorted(GPU_FILES))
def test_gpu_test_file_passes_under_interpreter(name):
    done = _interpreted(["-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", name])
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", summary)
    skipped = re.search(r"(\d+) skipped", summary)
    assert passed and int(passed.group(1)) >= 10, summary
    assert (int(skipped.group(1)) if skipped else 0) == GPU_FILES[name], done.stdout[-3000:]
