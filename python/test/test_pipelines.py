"""TLE's stage pipelines are registered in C++ by name (lib/InitAll/Pipelines.cpp);
python/tle/_bridge.py names them and adds options with ``with_options``."""

import pytest

import tle
from tle import _bridge

PLAIN = "module {\n  tt.func @f() {\n    tt.return\n  }\n}\n"


def test_the_hook_names_the_registered_pipelines():
    assert _bridge.TTIR_PIPELINE == "builtin.module(tle-ttir{num-stages=@NUM_STAGES@})"
    assert _bridge.TTGIR_PIPELINE == "builtin.module(tle-ttgir)"
    assert _bridge.pipeline_for(_bridge.TTIR_PIPELINE, {"num_stages": 4}) == "builtin.module(tle-ttir{num-stages=4})"


def test_with_options_adds_and_replaces():
    ttgir = _bridge.TTGIR_PIPELINE
    assert _bridge.with_options(ttgir, disable=["a-pass", "b-pass"]) == "builtin.module(tle-ttgir{disable=a-pass,b-pass})"
    once = _bridge.with_options(ttgir, wait_limit=5)
    assert _bridge.with_options(once, wait_limit=9, disable="x") == "builtin.module(tle-ttgir{wait-limit=9 disable=x})"
    assert _bridge.with_options(_bridge.TTIR_PIPELINE, disable=["p"]) == \
        "builtin.module(tle-ttir{num-stages=@NUM_STAGES@ disable=p})"
    with pytest.raises(ValueError, match="not one of TLE's stage pipelines"):
        _bridge.with_options("builtin.module(cse)x")


def test_wait_limit_goes_to_the_ttgir_pipeline_only(monkeypatch):
    monkeypatch.setattr(_bridge, "device_wait_limit", lambda: 12)
    assert _bridge.pipeline_for(_bridge.TTGIR_PIPELINE) == "builtin.module(tle-ttgir{wait-limit=12})"
    assert _bridge.pipeline_for(_bridge.ILUVATAR_TTGIR_PIPELINE) == _bridge.ILUVATAR_TTGIR_PIPELINE


def test_a_pipeline_runs_and_disable_must_name_one_of_its_passes():
    out = tle.run_pipeline(PLAIN, _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=["triton-tle-merge-wgmma-waits"]))
    assert "tt.func @f" in out
    with pytest.raises(tle.MLIRError, match="not one of its passes"):
        tle.run_pipeline(PLAIN, _bridge.with_options(_bridge.TTGIR_PIPELINE, disable=["triton-tle-lower-dsa"]))
