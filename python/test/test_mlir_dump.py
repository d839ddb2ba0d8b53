"""MLIR_ENABLE_DUMP (Triton's variable, tle.knobs.mlir_enable_dump): TLE's
pipelines print the module before each pass, as Triton's pass managers do,
in-process and through tle-opt (TLE_OPT); "1" dumps every kernel, a kernel
name only that kernel; TLE_MLIR_DUMP_PATH sends TLE's dumps to a file."""

import subprocess

import pytest
import triton
import triton.language as tl

import tle
from conftest import tle_opt_path

HEADER = "// -----// IR Dump Before {pass_class} ({pass_arg}) ('builtin.module' operation) //----- //"
TLE_PASSES = ["triton-tle-raise-markers", "triton-tle-lower-exclusive-cumsum", "tle-assert-lowered"]


@triton.jit
def dumped_scan(X, Y, T, N: tl.constexpr):
    offs = tl.arange(0, N)
    e, t = tle.cumsum(tl.load(X + offs), axis=0)
    tl.store(Y + offs, e)
    tl.store(T, t)


def _compile():
    return tle.compile(dumped_scan, signature={"X": "*i32", "Y": "*i32", "T": "*i32"}, constexprs={"N": 128},
                       target="sm_90")


@pytest.fixture(params=["in-process", "tle-opt"])
def driver(request, monkeypatch):
    monkeypatch.delenv("MLIR_ENABLE_DUMP", raising=False)
    monkeypatch.delenv("TLE_MLIR_DUMP_PATH", raising=False)
    if request.param == "tle-opt":
        monkeypatch.setenv("TLE_OPT", tle_opt_path())
    else:
        monkeypatch.delenv("TLE_OPT", raising=False)
        from tle import _driver
        if _driver._tle is None:
            pytest.skip("the tle._tle extension is not loadable here")
    return request.param


def _dumped_passes(text):
    return [line.split("(")[1].split(")")[0] for line in text.splitlines() if line.startswith("// -----// IR Dump")]


def test_tle_passes_are_dumped_with_triton_s(driver, monkeypatch, capfd):
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "1")
    compiled = _compile()
    err = capfd.readouterr().err
    passes = _dumped_passes(err)
    for name in TLE_PASSES:
        assert name in passes, name
    # Triton's own passes too, in compile order around TLE's.
    assert passes.index("triton-tle-raise-markers") < passes.index("convert-triton-to-tritongpu") \
        < passes.index("triton-tle-lower-exclusive-cumsum") < passes.index("tle-assert-lowered")
    assert "IR Dump Before TLERaiseMarkers (triton-tle-raise-markers) ('builtin.module' operation)" in err
    # The dumped module is the kernel, with locations (as Triton dumps).
    assert "tt.func public @dumped_scan" in err and "#loc" in err
    assert "triton-ttgir" in compiled.asm


def test_no_dump_without_the_variable(driver, capfd):
    _compile()
    assert "IR Dump" not in capfd.readouterr().err


@pytest.mark.parametrize("value", ["0", "false"])
def test_false_values_dump_nothing(driver, monkeypatch, capfd, value):
    monkeypatch.setenv("MLIR_ENABLE_DUMP", value)
    _compile()
    assert "IR Dump" not in capfd.readouterr().err


def test_kernel_name_selects_the_kernel(driver, monkeypatch, capfd):
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "dumped_scan")
    _compile()
    assert "triton-tle-raise-markers" in _dumped_passes(capfd.readouterr().err)
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "another_kernel")
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    _compile()
    assert not any(p.startswith(("triton-tle", "tle-")) for p in _dumped_passes(capfd.readouterr().err))


def test_knob_set_in_python(driver, capfd):
    with tle.knobs.scope():
        tle.knobs.mlir_enable_dump = True
        tle.run_pipeline("module {\n}\n", "builtin.module(triton-tle-raise-markers)")
    assert HEADER.format(pass_class="TLERaiseMarkers", pass_arg="triton-tle-raise-markers") in capfd.readouterr().err


def test_dump_path_collects_tle_s_dumps(driver, monkeypatch, capfd, tmp_path):
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "1")
    monkeypatch.setenv("TLE_MLIR_DUMP_PATH", str(tmp_path / "tle.dump"))
    tle.run_pipeline("module {\n}\n", "builtin.module(triton-tle-raise-markers,tle-assert-lowered)")
    tle.run_pipeline("module {\n}\n", "builtin.module(triton-tle-reject-dsa)")
    assert "IR Dump" not in capfd.readouterr().err
    assert _dumped_passes((tmp_path / "tle.dump").read_text()) == [
        "triton-tle-raise-markers", "tle-assert-lowered", "triton-tle-reject-dsa"]


def test_a_failing_pipeline_keeps_its_error_apart_from_the_dump(driver, monkeypatch, capfd):
    monkeypatch.setenv("MLIR_ENABLE_DUMP", "1")
    with pytest.raises(tle.MLIRError) as e:
        tle.run_pipeline("module {\n  %0 = \"tle.nope\"() : () -> i32\n}\n", "builtin.module(tle-assert-lowered)")
    assert "IR Dump" not in str(e.value)


def test_tle_opt_flags():
    """tle-opt --tle-run-pipeline's IR-printing flags (what TLE_OPT runs)."""
    module = "module {\n  func.func @k() {\n    return\n  }\n}\n"

    def run(*flags):
        proc = subprocess.run([tle_opt_path(), "--tle-run-pipeline", "--pass-pipeline=builtin.module(canonicalize)",
                               *flags, "-"], input=module, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stderr

    assert run() == ""
    assert "IR Dump Before Canonicalizer (canonicalize)" in run("--mlir-print-ir-before-all")
    after = run("--mlir-print-ir-after-all", "--print-ir-symbol=k")
    assert "IR Dump After Canonicalizer (canonicalize)" in after and "IR Dump Before" not in after
    assert run("--mlir-print-ir-before-all", "--print-ir-symbol=other") == ""
    proc = subprocess.run([tle_opt_path(), "--tle-run-pipeline", "--pass-pipeline=builtin.module(canonicalize)",
                           "--mlir-print-ir-before-all", "--print-ir-file=/nonexistent/dir/x", "-"], input=module,
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "cannot write IR dumps to '/nonexistent/dir/x'" in proc.stderr
