"""The nanobind module runs the same registry and passes as tle-opt; the
Python driver gives the same output and the same errors in-process and
through `tle-opt --tle-run-pipeline` (TLE_OPT): every test runs both ways."""
import pytest

import tle
from conftest import use_driver


@pytest.fixture(autouse=True, params=["module", "tle-opt"])
def driver(request, monkeypatch):
    use_driver(request.param, monkeypatch)
    return request.param

CUMSUM = """
func.func @f(%x: tensor<128xi32>) -> i32 {
  %e, %t = tle.exclusive_cumsum %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, i32
  return %t : i32
}
"""


def test_parse_and_print_round_trip():
    out = tle.run_pipeline(CUMSUM, "")
    assert "tle.exclusive_cumsum %arg0 {axis = 0 : i32} : tensor<128xi32> -> tensor<128xi32>, i32" in out
    # The printed form parses again to the same text.
    assert tle.run_pipeline(out, "") == out


def test_upstream_pass_pipeline_runs():
    src = """
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}
"""
    out = tle.run_pipeline(src, "canonicalize")
    assert "arith.addi" not in out
    assert "return %arg0 : i32" in out
    # Nested pipeline strings anchored on builtin.module work too.
    out2 = tle.run_pipeline(src, "builtin.module(func.func(canonicalize))")
    assert out2 == out


def test_tle_pass_failure_carries_diagnostics_with_location():
    with pytest.raises(tle.MLIRError) as info:
        tle.run_pipeline(CUMSUM, "tle-assert-lowered", source_name="kernel.mlir")
    err = info.value
    assert "pass pipeline 'tle-assert-lowered' failed on 'kernel.mlir'" in str(err)
    # file:line:col of the op (line 3, column 12 of the source above).
    assert err.diagnostics == [
        "kernel.mlir:3:12: error: 'tle.exclusive_cumsum' was not lowered; "
        "Triton cannot read tle ops"
    ]


def test_verifier_error_is_raised():
    bad = CUMSUM.replace("axis = 0", "axis = 3")
    with pytest.raises(tle.MLIRError) as info:
        tle.run_pipeline(bad, "", source_name="bad.mlir")
    assert str(info.value).startswith("failed to parse 'bad.mlir'")
    assert info.value.diagnostics == [
        "bad.mlir:3:12: error: 'tle.exclusive_cumsum' op axis 3 is out of range "
        "for a rank-1 input"
    ]


def test_syntax_error_is_raised():
    with pytest.raises(tle.MLIRError) as info:
        tle.run_pipeline("func.func @f( {", "", source_name="syntax.mlir")
    assert info.value.diagnostics[0].startswith("syntax.mlir:1:")
    assert ": error: " in info.value.diagnostics[0]


def test_unknown_op_names_the_op():
    with pytest.raises(tle.MLIRError) as info:
        tle.run_pipeline('"tt.no_such_op"() : () -> ()', "", source_name="u.mlir")
    assert "tt.no_such_op" in str(info.value)


def test_unknown_pass_is_an_error():
    with pytest.raises(tle.MLIRError, match="invalid pass pipeline 'no-such-pass'"):
        tle.run_pipeline(CUMSUM, "no-such-pass")


def test_debug_info_prints_locations():
    out = tle.run_pipeline(CUMSUM, "", source_name="k.mlir", debug_info=True)
    assert 'loc("k.mlir":3:12)' in out
