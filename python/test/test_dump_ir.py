"""TLE_DUMP_IR=<dir>: every stage's IR of every kernel compiled with TLE enabled,
TLE's stages included, in <dir>/<kernel>-<hash>/<kernel>.<stage>."""

import json
import re

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import tle
from tle import _bridge

SM90 = GPUTarget("cuda", 90, 32)
STAGES = ["source", "ttir", "tle-ttir", "triton-ttgir", "ttgir", "llir", "ptx", "cubin", "json"]


@triton.jit
def scan_through_smem(X, Y, T, N: tl.constexpr):
    """An exclusive cumsum stored through a shared-memory buffer: a marker for
    every TLE stage to handle and a shared-memory base for the llir finish."""
    offs = tl.arange(0, N)
    e, t = tle.cumsum(tl.load(X + offs), axis=0)
    buf = tle.gpu.alloc([N], dtype=tl.int32, scope=tle.gpu.smem)
    slots = tle.gpu.local_ptr(buf, (N - 1 - offs,))  # in reverse: a pointer buffer (TLE's region)
    tl.store(slots, e)
    tl.store(Y + offs, tl.load(slots))
    tl.store(T, t)


@triton.jit
def plain_copy(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Y + offs, tl.load(X + offs))


def _source(kernel=scan_through_smem, n=128):
    sig = {"X": "*i32", "Y": "*i32", "T": "*i32", "N": "constexpr"} if kernel is scan_through_smem else \
        {"X": "*i32", "Y": "*i32", "N": "constexpr"}
    return ASTSource(kernel, signature=sig, constexprs={"N": n})


def _code(text):
    """IR without location lines and attributes (file names may contain 'tle')."""
    return "\n".join(re.sub(r"loc\(.*", "", line) for line in text.splitlines() if not line.startswith("#loc"))


def _markers(text):
    """The ops the frontend's markers name (docs/markers.md)."""
    return set(re.findall(r'tt\.elementwise_inline_asm "(tle\.[\w.]+)', text))


def _tle_ops(text):
    """tle dialect ops in the IR (as opposed to markers naming them)."""
    return re.findall(r'^\s*(?:%\S+ = )?"?(tle\.[\w.]+)', text, re.M)


def _only_folder(root):
    folders = [p for p in root.iterdir()]
    assert len(folders) == 1, folders
    return folders[0]


def test_every_stage_is_written_with_that_stages_ir(tmp_path, monkeypatch):
    monkeypatch.setenv("TLE_DUMP_IR", str(tmp_path / "dump"))
    with tle.enabled():
        compiled = triton.compile(_source(), target=SM90)
    folder = _only_folder(tmp_path / "dump")
    assert folder.name == f"scan_through_smem-{compiled.hash[:16]}"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"scan_through_smem.{s}" for s in STAGES)
    ir = {s: (folder / f"scan_through_smem.{s}") for s in STAGES}

    # Each file holds its stage: the same text Triton cached for that stage.
    for stage in STAGES[:-2]:
        assert ir[stage].read_text() == compiled.asm[stage], stage
    assert ir["cubin"].read_bytes() == compiled.asm["cubin"]
    meta = json.loads(ir["json"].read_text())
    assert meta["name"] == "scan_through_smem" and meta["hash"] == compiled.hash
    assert meta["shared"] == compiled.metadata.shared > 0  # with TLE's buffer, set by the llir finish

    # ... and that stage's IR: the frontend's markers up to TTGIR, no tle op after TLE's TTGIR stage.
    text = {s: _code(ir[s].read_text()) for s in STAGES[:-2]}
    frontend = {"tle.alloc", "tle.exclusive_cumsum", "tle.local_pointers"}
    for stage in ("source", "ttir", "tle-ttir", "triton-ttgir"):
        assert _markers(text[stage]) == frontend, stage
        assert not _tle_ops(text[stage]), stage
    assert "#ttg.blocked" not in text["tle-ttir"] and "#ttg.blocked" in text["triton-ttgir"]
    assert _markers(text["ttgir"]) == {"tle.smem.base"}  # TLE's buffer base, for the llir finish
    assert not _tle_ops(text["ttgir"]) and '"tt.scan"' in text["ttgir"]
    llir = ir["llir"].read_text()
    assert "define" in llir and "tle.smem.base" not in llir  # after TLE's llir finish
    assert ".entry scan_through_smem" in ir["ptx"].read_text()


def test_each_kernel_and_specialization_gets_its_own_folder(tmp_path, monkeypatch):
    """The folder is named by kernel and compile hash: another kernel, or the same
    kernel with other constexprs, writes beside it, not over it."""
    monkeypatch.setenv("TLE_DUMP_IR", str(tmp_path / "dump"))
    with tle.enabled():
        a = triton.compile(_source(plain_copy, 64), target=SM90)
        b = triton.compile(_source(plain_copy, 128), target=SM90)
        c = triton.compile(_source(), target=SM90)
    folders = sorted(p.name for p in (tmp_path / "dump").iterdir())
    assert folders == sorted([f"plain_copy-{a.hash[:16]}", f"plain_copy-{b.hash[:16]}",
                              f"scan_through_smem-{c.hash[:16]}"])
    for compiled, n in ((a, 64), (b, 128)):
        ttgir = (tmp_path / "dump" / f"plain_copy-{compiled.hash[:16]}" / "plain_copy.ttgir").read_text()
        assert f"tensor<{n}x" in ttgir


def test_a_cached_kernel_is_compiled_again_and_dumped(tmp_path, monkeypatch):
    with tle.enabled():
        first = triton.compile(_source(), target=SM90)  # now in Triton's cache
        monkeypatch.setenv("TLE_DUMP_IR", str(tmp_path / "dump"))
        again = triton.compile(_source(), target=SM90)
    assert again.hash == first.hash
    folder = _only_folder(tmp_path / "dump")
    assert (folder / "scan_through_smem.ttgir").read_text() == first.asm["ttgir"]


def test_stages_before_a_failing_stage_are_written(tmp_path, monkeypatch):
    monkeypatch.setenv("TLE_DUMP_IR", str(tmp_path / "dump"))
    monkeypatch.setattr(_bridge, "STAGES", {**_bridge.STAGES, "ttgir": ("ttgir", "builtin.module(no-such-pass)")})
    with tle.enabled(), pytest.raises(tle.MLIRError, match="TLE stage 'ttgir' failed"):
        triton.compile(_source(), target=SM90)
    folder = _only_folder(tmp_path / "dump")
    assert sorted(p.name.split(".", 1)[1] for p in folder.iterdir()) == sorted(["source", "ttir", "tle-ttir", "triton-ttgir"])


def test_ir_triton_rejects_is_kept_and_named(tmp_path, monkeypatch):
    """A TLE stage's output that Triton's parser rejects is a TLE bug: the
    error names the stage and keeps the text whose line Triton's diagnostic
    names (it was deleted before, leaving only "Parse MLIR file failed.")."""
    monkeypatch.setattr(_bridge.tempfile, "tempdir", str(tmp_path))

    def reject(path, context):
        raise RuntimeError("Parse MLIR file failed.")

    monkeypatch.setattr(_bridge.ir, "parse_mlir_module", reject)
    with tle.enabled(), pytest.raises(tle.MLIRError) as info:
        triton.compile(_source(), target=SM90)
    message = str(info.value)
    assert f"TLE stage 'tle-ttir' produced IR that Triton {triton.__version__} does not accept" in message
    (kept,) = tmp_path.glob("tle-*-rejected.mlir")
    assert str(kept) in message and "tt.func" in kept.read_text()
    assert [p.name for p in tmp_path.glob("tle-*")] == [kept.name]  # the other temporary file is gone


def test_nothing_is_written_without_the_variable_or_without_tle(tmp_path, monkeypatch):
    monkeypatch.delenv("TLE_DUMP_IR", raising=False)
    with tle.enabled():
        triton.compile(_source(), target=SM90)
    monkeypatch.setenv("TLE_DUMP_IR", str(tmp_path / "dump"))
    plain = triton.compile(_source(plain_copy, 32), target=SM90)  # TLE not enabled: stock Triton
    assert "triton-ttgir" not in plain.asm
    assert not (tmp_path / "dump").exists()


def test_tritons_own_dump_also_holds_tles_stages(tmp_path, monkeypatch):
    """TRITON_KERNEL_DUMP=1 (knobs.compilation.dump_ir) dumps every stage of the
    stage dict, so TLE's too, under TRITON_DUMP_DIR/<cache key>/ (cache misses only)."""
    from triton import knobs
    monkeypatch.delenv("TLE_DUMP_IR", raising=False)
    monkeypatch.setattr(knobs.compilation, "dump_ir", True)
    monkeypatch.setattr(knobs.cache, "dump_dir", str(tmp_path / "triton-dump"))
    with tle.enabled():
        triton.compile(_source(), target=SM90)
    folder = _only_folder(tmp_path / "triton-dump")
    names = {p.name for p in folder.iterdir()}
    assert {"scan_through_smem.tle-ttir", "scan_through_smem.ttgir", "scan_through_smem.ptx"} <= names
