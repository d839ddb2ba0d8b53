"""tle.knobs: TLE's settings shaped like triton.knobs (an attribute per
setting, its environment variable when not set in Python), and every read of
a setting in the package going through it."""

import ast
import os
from pathlib import Path

import pytest
import triton

import tle
from tle import _bridge, _driver, _state
from tle._knobs import tle_knobs

KNOBS = {
    "opt": "TLE_OPT",
    "dump_ir_dir": "TLE_DUMP_IR",
    "device_wait_limit": "TLE_DEVICE_WAIT_LIMIT",
    "dist_check": "TLE_DIST_CHECK",
    "mlir_enable_dump": "MLIR_ENABLE_DUMP",
    "mlir_dump_path": "TLE_MLIR_DUMP_PATH",
}


@pytest.fixture(autouse=True)
def _knobs_restored(monkeypatch):
    for var in KNOBS.values():
        # Recorded by monkeypatch (set first), so whatever a test or a knob
        # writes to the variable is undone afterwards.
        monkeypatch.setenv(var, "")
        monkeypatch.delenv(var)
    with tle.knobs.scope():
        tle.knobs.reset()
        yield
    tle.knobs.reset()


def test_shape_is_triton_knobs():
    assert isinstance(tle.knobs, triton.knobs.base_knobs)
    assert {k: d.key for k, d in tle.knobs.knob_descriptors.items()} == KNOBS
    assert tle.knobs.knobs == {"opt": None, "dump_ir_dir": None, "device_wait_limit": 0, "dist_check": False,
                               "mlir_enable_dump": None, "mlir_dump_path": None}
    from tle import knobs
    assert knobs is tle.knobs and "knobs" in tle.__all__


def test_environment_is_the_fallback(monkeypatch, tmp_path):
    monkeypatch.setenv("TLE_OPT", "/some/tle-opt")
    monkeypatch.setenv("TLE_DUMP_IR", str(tmp_path))
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", " 1000 ")
    monkeypatch.setenv("TLE_DIST_CHECK", "1")
    assert tle.knobs.opt == "/some/tle-opt" and _driver.tle_opt() == "/some/tle-opt"
    assert tle.knobs.dump_ir_dir == str(tmp_path) and _bridge.dump_root() == str(tmp_path)
    assert tle.knobs.device_wait_limit == 1000 == _state.device_wait_limit()
    assert tle.knobs.dist_check is True
    monkeypatch.setenv("TLE_DIST_CHECK", "0")
    assert tle.knobs.dist_check is False


def test_set_in_python_wins_and_reaches_the_environment(monkeypatch):
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "5")
    tle.knobs.device_wait_limit = 300
    assert tle.knobs.device_wait_limit == 300 == _state.device_wait_limit()
    assert os.environ["TLE_DEVICE_WAIT_LIMIT"] == "300"  # as triton.knobs: subprocesses see it
    assert "wait-limit=300" in _bridge.pipeline_for(_bridge.TTGIR_PIPELINE)
    tle.knobs.opt = "/my/tle-opt"
    assert _driver.tle_opt() == "/my/tle-opt" and os.environ["TLE_OPT"] == "/my/tle-opt"
    del tle.knobs.opt  # back to the environment
    monkeypatch.setenv("TLE_OPT", "/env/tle-opt")
    assert _driver.tle_opt() == "/env/tle-opt"


def test_scope_restores():
    with tle.knobs.scope():
        tle.knobs.dump_ir_dir = "/tmp/x"
        assert _bridge.dump_root() == "/tmp/x"
    assert tle.knobs.dump_ir_dir is None and "TLE_DUMP_IR" not in os.environ


def test_bad_wait_limits_are_errors_naming_the_setting(monkeypatch):
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "soon")
    with pytest.raises(ValueError, match=r"TLE_DEVICE_WAIT_LIMIT='soon': expected a number of polls"):
        tle.knobs.device_wait_limit
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "-3")
    with pytest.raises(ValueError, match=r"expected a number of polls >= 0"):
        _state.device_wait_limit()
    for bad in (-1, "x", True, 1.5):
        with pytest.raises(ValueError, match=r"tle.knobs.device_wait_limit = .*: expected"):
            tle.knobs.device_wait_limit = bad


def test_mlir_enable_dump_reads_as_triton_does(monkeypatch):
    for text, kernel in [("1", ""), ("TRUE", ""), ("on", ""), ("0", None), ("false", None), ("OFF", None),
                         ("", None), ("my_kernel", "my_kernel")]:
        monkeypatch.setenv("MLIR_ENABLE_DUMP", text)
        assert tle.knobs.ir_dump_kernel() == kernel, text
    monkeypatch.delenv("MLIR_ENABLE_DUMP")
    assert tle.knobs.ir_dump_kernel() is None
    tle.knobs.mlir_enable_dump = True
    assert os.environ["MLIR_ENABLE_DUMP"] == "1" and tle.knobs.ir_dump_kernel() == ""
    tle.knobs.mlir_enable_dump = "k"
    assert tle.knobs.ir_dump_kernel() == "k"
    with pytest.raises(TypeError, match="expected True, False or a kernel name"):
        tle.knobs.mlir_enable_dump = 3


def test_a_fresh_knobs_object_is_independent():
    other = tle_knobs()
    other.dump_ir_dir = "/elsewhere"
    assert other.dump_ir_dir == "/elsewhere"
    del other.dump_ir_dir


def test_every_setting_is_read_through_knobs():
    """No module of the package but _knobs reads TLE's variables or Triton's
    MLIR_ENABLE_DUMP from the environment."""
    package = Path(tle.__file__).parent
    names = set(KNOBS.values())
    offenders = []
    for path in package.rglob("*.py"):
        if path.name == "_knobs.py":
            continue
        tree = ast.parse(path.read_text())
        constants = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
        reads_env = "environ" in path.read_text() or "getenv" in path.read_text()
        if reads_env and constants & names:
            offenders.append(f"{path.relative_to(package)}: {sorted(constants & names)}")
    assert not offenders, offenders
