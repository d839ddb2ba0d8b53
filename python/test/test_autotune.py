"""@triton.autotune over TLE kernels, on the CPU: tle.compile picks a config
(config= an index or a triton.Config, default the first) and compiles it to
PTX for sm_90 through TLE's stages; an autotuned kernel warmed up the way a
launch compiles (Triton's JIT path, a stand-in driver for sm_90) goes through
TLE's stages for every config. The GPU launch is test_autotune_gpu.py."""

import pytest
import torch
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.runtime import driver

import tle

TARGET = "sm_90"
CONFIGS = [
    triton.Config({"BLOCK": 128}, num_warps=4, num_stages=2),
    triton.Config({"BLOCK": 256}, num_warps=8, num_stages=3),
    triton.Config({"BLOCK": 512}, num_warps=2, num_stages=1),
]
SIG = {"X": "*i32", "Y": "*i32", "T": "*i32", "N": "i32"}


@triton.jit
def block_scan(X, Y, T, N, BLOCK: tl.constexpr):
    """Each program's exclusive cumsum of its block, and the block's total."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    e, t = tle.cumsum(tl.load(X + offs, mask=offs < N, other=0), axis=0)
    tl.store(Y + offs, e, mask=offs < N)
    tl.store(T + pid, t)


scan_tuned = triton.autotune(configs=CONFIGS, key=["N"])(block_scan)


def _block(compiled):
    """The BLOCK a compiled block_scan was specialized for (its arange's size)."""
    ttir = compiled.asm["ttir"]
    for block in (128, 256, 512):
        if f"tt.make_range {{end = {block} : i32" in ttir:
            return block
    raise AssertionError("no tt.make_range in the TTIR")


def test_autotuned_kernel_compiles_with_its_first_config_by_default():
    compiled = tle.compile(scan_tuned, signature=SIG, target=TARGET)
    assert "triton-ttgir" in compiled.asm and ".version" in compiled.asm["ptx"]
    assert compiled.metadata.num_warps == 4 and compiled.metadata.num_stages == 2
    assert _block(compiled) == 128
    assert compiled.name == "block_scan"


@pytest.mark.parametrize("index", [0, 1, 2, -1])
def test_config_index_picks_the_config(index):
    config = CONFIGS[index]
    compiled = tle.compile(scan_tuned, signature=SIG, target=TARGET, config=index)
    assert compiled.metadata.num_warps == config.num_warps
    assert compiled.metadata.num_stages == config.num_stages
    assert _block(compiled) == config.kwargs["BLOCK"]
    assert "triton-ttgir" in compiled.asm


def test_config_object_picks_the_config_and_plain_kernels_take_one():
    compiled = tle.compile(scan_tuned, signature=SIG, target=TARGET, config=CONFIGS[1])
    assert (compiled.metadata.num_warps, _block(compiled)) == (8, 256)
    # A triton.Config of one's own, on the autotuned kernel or the plain one.
    own = triton.Config({"BLOCK": 64}, num_warps=1, num_stages=1)
    for kernel in (scan_tuned, block_scan):
        compiled = tle.compile(kernel, signature=SIG, target=TARGET, config=own)
        assert compiled.metadata.num_warps == 1
        assert "tt.make_range {end = 64 : i32" in compiled.asm["ttir"]


def test_bad_picks_are_clear_errors():
    with pytest.raises(IndexError, match=r"config=3 is out of range: 'block_scan' has 3 autotune config\(s\)") as e:
        tle.compile(scan_tuned, signature=SIG, target=TARGET, config=3)
    assert "1: BLOCK: 256, num_warps: 8" in str(e.value)
    with pytest.raises(IndexError, match="config=-4 is out of range"):
        tle.compile(scan_tuned, signature=SIG, target=TARGET, config=-4)
    for bad in ("0", 1.0, True, {"BLOCK": 128}):
        with pytest.raises(TypeError, match="config= takes a triton.Config or the index"):
            tle.compile(scan_tuned, signature=SIG, target=TARGET, config=bad)
    with pytest.raises(TypeError, match="config=0 picks one of an autotuned kernel's configs, and 'block_scan' "
                                        "is not @triton.autotune"):
        tle.compile(block_scan, signature=SIG, target=TARGET, config=0)
    with pytest.raises(TypeError, match="sets 'BLOCK_M', which is not a parameter of 'block_scan'"):
        tle.compile(block_scan, signature=SIG, target=TARGET, config=triton.Config({"BLOCK_M": 64}))


def test_config_and_call_must_agree():
    with pytest.raises(ValueError, match=r"'BLOCK' is given both by the autotune config \(128\) and by "
                                         r"constexprs \(64\)"):
        tle.compile(scan_tuned, signature=SIG, constexprs={"BLOCK": 64}, target=TARGET)
    with pytest.raises(ValueError, match=r"'num_warps' is given both by the autotune config \(4\) and by the "
                                         r"call \(8\)"):
        tle.compile(scan_tuned, signature=SIG, target=TARGET, num_warps=8)
    # The same values are no conflict.
    compiled = tle.compile(scan_tuned, signature=SIG, constexprs={"BLOCK": 128}, target=TARGET, num_warps=4)
    assert compiled.metadata.num_warps == 4


def test_heuristics_kernels_say_what_to_compile():
    tuned = triton.autotune(configs=CONFIGS, key=["N"])(
        triton.heuristics({"BLOCK": lambda args: 128})(block_scan))
    with pytest.raises(TypeError, match=r"heuristics.*compile the JIT function under them \(kernel.fn.fn\)"):
        tle.compile(tuned, signature=SIG, target=TARGET)


class _SM90Driver:
    """What Triton's JIT path asks of the active driver to compile (not launch)
    a kernel: the device, its stream and the target. A stand-in for a GPU."""

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return GPUTarget("cuda", 90, 32)


def test_launch_path_compiles_every_config_through_tle(monkeypatch, tmp_path):
    """Autotuner.warmup compiles each config as its launch would (JITFunction.run
    with warmup=True), here with TLE enabled: every config's kernel went through
    TLE's stages, and Triton's cache holds their ttgir."""
    monkeypatch.setattr(driver, "_active", _SM90Driver())
    tuned = triton.autotune(configs=CONFIGS, key=["N"])(block_scan)
    seen = []
    monkeypatch.setattr(triton.knobs.runtime, "jit_post_compile_hook",
                        lambda *args, **kwargs: seen.append(kwargs.get("options") or args))
    with tle.enabled():
        kernels = tuned.warmup(torch.int32, torch.int32, torch.int32, 1024, grid=(1, ))
    assert len(kernels) == len(CONFIGS) == len(seen)
    for kernel, config in zip(kernels, CONFIGS):
        assert "triton-ttgir" in kernel.asm and "tle-ttir" in kernel.asm
        assert "tle.exclusive_cumsum" not in kernel.asm["ttgir"]
        assert kernel.metadata.num_warps == config.num_warps
        assert _block(kernel) == config.kwargs["BLOCK"]
    cached = sorted(p.name for p in (tmp_path / "triton-cache").rglob("*.ttgir"))
    assert cached == ["block_scan.ttgir"] * len(CONFIGS)


def test_launch_path_without_tle_has_no_tle_stage(monkeypatch):
    """The same warmup with TLE disabled: the cumsum has no lowering (tle.cumsum
    asks for TLE to be enabled)."""
    monkeypatch.setattr(driver, "_active", _SM90Driver())
    # A JIT function of its own: Triton's in-memory kernel cache would return
    # the kernels compiled with TLE by the test above.
    tuned = triton.autotune(configs=CONFIGS[:1], key=["N"])(triton.jit(block_scan.fn))
    assert not tle.is_enabled()
    with pytest.raises(Exception, match="tle.enable"):
        tuned.warmup(torch.int32, torch.int32, torch.int32, 1024, grid=(1, ))
