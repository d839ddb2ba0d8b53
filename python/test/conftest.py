import os
import re
import shutil
import subprocess

import pytest

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SM90 = ("cuda", 90, 32)


@pytest.fixture(autouse=True)
def _fresh_triton_cache(tmp_path, monkeypatch):
    """Every test compiles in its own Triton cache, so nothing is a cache hit by accident."""
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    from triton import knobs
    monkeypatch.setattr(knobs.cache, "dir", str(tmp_path / "triton-cache"), raising=False)
    yield


def has_gpu() -> bool:
    if os.environ.get("TLE_FORCE_NO_GPU"):
        return False
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:
        return False


def interpreting() -> bool:
    """Whether Triton runs kernels in its interpreter (TRITON_INTERPRET=1).
    GPU test files that opt in (``needs_gpu_or_interpreter``, tensors on
    ``gpu_device()``) then run on the CPU (docs/interpreter.md);
    test_interpret.py runs them so in CI."""
    return os.environ.get("TRITON_INTERPRET") == "1"


def gpu_device() -> str:
    """Where a GPU test's tensors live: the CPU under the interpreter."""
    return "cpu" if interpreting() else "cuda"


needs_gpu_or_interpreter = pytest.mark.skipif(not (has_gpu() or interpreting()),
                                              reason="needs a CUDA GPU (or TRITON_INTERPRET=1)")


def compute_sanitizer() -> str | None:
    """The compute-sanitizer binary (PATH, else the CUDA default), or None."""
    found = shutil.which("compute-sanitizer")
    default = "/usr/local/cuda/bin/compute-sanitizer"
    return found or (default if os.path.exists(default) else None)


def tle_is_this_checkout() -> bool:
    """Whether ``import tle`` gives this checkout's python/tle (an editable
    install), not an installed wheel."""
    import tle
    return os.path.realpath(tle.__file__).startswith(os.path.join(os.path.realpath(REPO), "python", "tle") + os.sep)


def tle_opt_path() -> str:
    """$TLE_OPT; else this checkout's build/bin/tle-opt when ``tle`` is the
    checkout's own; else the tle-opt installed with the ``tle`` package."""
    if os.environ.get("TLE_OPT"):
        return os.environ["TLE_OPT"]
    if tle_is_this_checkout():
        return os.path.join(REPO, "build", "bin", "tle-opt")
    from tle import opt
    return str(opt.path())


def pytest_report_header(config):
    import tle
    from tle import _driver
    driver = f"TLE_OPT={_driver.tle_opt()}" if _driver.tle_opt() else f"in-process {_driver.compiler_binary()}"
    return f"tle: {os.path.dirname(tle.__file__)} ({driver})"


def pytest_configure(config):
    """With TLE_TEST_INSTALLED=1 (CI's wheel check, the GPU machine), the
    tests must exercise an installed ``tle`` with its extension loaded, never
    this checkout's sources."""
    if os.environ.get("TLE_TEST_INSTALLED") == "1":
        import tle
        from tle import _driver
        if tle_is_this_checkout():
            raise pytest.UsageError(f"TLE_TEST_INSTALLED=1 but tle comes from this checkout: {tle.__file__}")
        if _driver._tle is None:
            raise pytest.UsageError(f"TLE_TEST_INSTALLED=1 but tle._tle does not load: {_driver._import_error}")


def use_driver(mode: str, monkeypatch) -> None:
    """Point tle._driver at the in-process module ("module") or at the
    tle-opt of ``tle_opt_path()`` as a subprocess ("tle-opt", the TLE_OPT path)."""
    if mode == "tle-opt":
        tool = tle_opt_path()
        if not os.path.exists(tool):
            pytest.fail(f"no tle-opt at {tool}: build it (ninja -C build tle-opt) or set TLE_OPT")
        monkeypatch.setenv("TLE_OPT", tool)
    else:
        assert mode == "module", mode
        monkeypatch.delenv("TLE_OPT", raising=False)


def run_tle_opt(text: str, *args: str) -> str:
    """Run tle-opt on ``text`` with ``args``; fail the test on a non-zero exit."""
    tool = tle_opt_path()
    if not os.path.exists(tool):
        pytest.fail(f"no tle-opt at {tool}: build it (ninja -C build tle-opt) or set TLE_OPT")
    done = subprocess.run([tool, *args, "-"], input=text, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def compile_ttgir(tmp_path, text: str, name: str = "k"):
    """Compile TTGIR text through Triton's remaining stages for sm_90."""
    import triton
    from triton.backends.compiler import GPUTarget
    path = tmp_path / f"{name}.ttgir"
    path.write_text(text)
    return triton.compile(str(path), target=GPUTarget(*SM90))


# Compile checks shared by the CPU tests of compiled kernels.

def error_text(exc: BaseException) -> str:
    """The messages of ``exc`` and every exception it was raised from or
    during, one per line (a compile error wraps the TLE error that caused it)."""
    texts = []
    while exc is not None:
        texts.append(str(exc))
        exc = exc.__cause__ or exc.__context__
    return "\n".join(texts)


def code(compiled, stage):
    """A stage's IR without its location attributes and #loc lines."""
    lines = [l for l in compiled.asm[stage].splitlines() if not l.startswith("#loc")]
    return "\n".join(re.sub(r"\s*loc\(.*", "", l) for l in lines)


def ptx_count(compiled, pattern):
    """PTX lines matching ``pattern``, each without its indentation (``^``
    anchors at the instruction)."""
    return sum(1 for line in compiled.asm["ptx"].splitlines() if re.search(pattern, line.strip()))


def assert_finished(compiled):
    """The compile went through TLE's two stages to a cubin."""
    import tle
    assert tle.stages(compiled) == ["ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin"]
    assert isinstance(compiled.asm["cubin"], bytes) and compiled.asm["cubin"]
