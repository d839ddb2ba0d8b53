"""tle.__version__ / tle.__commit__ and tle-opt --version: TLE's version
(pyproject.toml's) and the git commit its binaries were built from; a source
tree without git (an sdist) configures and builds with the commit "unknown"."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tle
from conftest import REPO, tle_is_this_checkout, tle_opt_path

SCRIPT = Path(REPO) / "cmake" / "TLEVersionInfo.cmake"


def _pyproject_version():
    text = (Path(REPO) / "pyproject.toml").read_text()
    return re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)


def _cmake():
    found = shutil.which("cmake") or os.path.join(os.path.dirname(sys.executable), "cmake")
    if not os.path.exists(found):
        pytest.skip("no cmake here")
    return found


def _git(*args, cwd=REPO):
    git = shutil.which("git")
    if git is None:
        return None
    proc = subprocess.run([git, *args], cwd=cwd, capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def test_version_names_the_release_and_commit():
    assert re.fullmatch(r"\d+(\.\d+)*(\+g[0-9a-f]{12})?", tle.__version__), tle.__version__
    assert tle.__version__.split("+")[0] == _pyproject_version()
    if tle.__commit__ is None:
        assert "+" not in tle.__version__
    else:
        assert re.fullmatch(r"[0-9a-f]{12}", tle.__commit__)
        assert tle.__version__.endswith(f"+g{tle.__commit__}")


def test_extension_and_tle_opt_agree():
    from tle import _driver
    out = subprocess.run([tle_opt_path(), "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"TLE version (\S+)\n\s*commit (\S+)", out)
    assert m, out
    assert m.group(1) == _pyproject_version()
    if _driver._tle is not None:
        assert _driver._tle.version() == (m.group(1), m.group(2))
        assert tle.__commit__ == (None if m.group(2) == "unknown" else m.group(2))


@pytest.mark.skipif(not tle_is_this_checkout(), reason="an installed tle: no checkout to compare with")
def test_commit_is_the_checkout_s_head():
    head = _git("rev-parse", "--short=12", "HEAD")
    if head is None:
        pytest.skip("not a git checkout, or no git")
    assert tle.__commit__ == head, "rebuild (scripts/test.sh does) after committing"


def _run_script(tmp_path, source_dir, **defs):
    out = tmp_path / "VersionInfo.inc"
    args = [_cmake(), f"-DTLE_SOURCE_DIR={source_dir}", f"-DOUTPUT={out}", "-DTLE_VERSION=1.2.3"]
    args += [f"-D{k}={v}" for k, v in defs.items()]
    subprocess.run(args + ["-P", str(SCRIPT)], check=True, capture_output=True, text=True)
    text = out.read_text()
    assert '#define TLE_VERSION_STRING "1.2.3"' in text
    return re.search(r'#define TLE_GIT_COMMIT "([^"]*)"', text).group(1), out


def test_version_script_without_git(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    # Not a repository; no git at all; a repository that only contains the sources.
    assert _run_script(tmp_path, src)[0] == "unknown"
    assert _run_script(tmp_path, src, GIT="/nonexistent/git")[0] == "unknown"
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        assert _run_script(tmp_path, src)[0] == "unknown"
    assert _run_script(tmp_path, src, TLE_GIT_COMMIT="0123456789ab")[0] == "0123456789ab"


def test_version_script_in_the_checkout_and_rewrites_only_changes(tmp_path):
    head = _git("rev-parse", "--short=12", "HEAD")
    if head is None:
        pytest.skip("not a git checkout, or no git")
    commit, out = _run_script(tmp_path, REPO)
    assert commit == head
    os.utime(out, (1, 1))
    _run_script(tmp_path, REPO)
    assert out.stat().st_mtime == 1  # unchanged text: not rewritten, nothing rebuilds


def test_sdist_like_tree_configures_and_builds_the_version(tmp_path):
    """The checkout's build files copied outside any repository (as an sdist
    unpacks): CMake configures, and the version target writes "unknown"."""
    if not (Path(REPO) / "CMakeLists.txt").exists():
        pytest.skip("no sources here (an installed tle)")
    cmake = _cmake()
    src = tmp_path / "tle-src"
    for name in ("CMakeLists.txt", "pyproject.toml", "cmake", "include", "lib", "tools", "python/CMakeLists.txt",
                 "python/src", "test"):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        if (Path(REPO) / name).is_dir():
            shutil.copytree(Path(REPO) / name, src / name)
        else:
            shutil.copy(Path(REPO) / name, src / name)
    venv_site = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    if not (venv_site / "mlir/lib/cmake/mlir").is_dir():
        pytest.skip("no MLIR kit in this Python's site-packages")
    mlir_dir, llvm_dir = venv_site / "mlir/lib/cmake/mlir", venv_site / "llvm/lib/cmake/llvm"
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    build = tmp_path / "build"
    proc = subprocess.run([cmake, *gen, "-S", str(src), "-B", str(build), f"-DPython_EXECUTABLE={sys.executable}",
                           f"-DMLIR_DIR={mlir_dir}", f"-DLLVM_DIR={llvm_dir}"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "TLE version " + _pyproject_version() in proc.stdout
    proc = subprocess.run([cmake, "--build", str(build), "--target", "tle-version-info"], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert '#define TLE_GIT_COMMIT "unknown"' in (build / "include/TLE/VersionInfo.inc").read_text()
