"""Triton 3.6 accepts the layouts triton-tle-optimize-exclusive-cumsum-layouts picks.

Two parts, both compiling TTGIR with pip Triton's remaining stages (sm_90,
on the CPU, in a fresh Triton cache):

* The facts the pass rests on: which input encodings Triton 3.6's `tt.scan`
  lowering accepts. Only `#ttg.blocked` does; `#ttg.slice`, `#ttg.nvidia_mma`
  (v2, v3) and `#ttg.linear` are refused ("unsupported scan layout"); a
  blocked layout split across the CTAs of a cluster aborts the compiler,
  while a CTA-broadcast one lowers. If a Triton upgrade changes any of this,
  these tests fail and the pass's `isScanSupported` needs a look.
* Every kernel in test/Transforms/optimize-exclusive-cumsum-layouts-kernels.mlir,
  run through the pass (the `tle-opt` of this checkout's build/), with each
  `tle.exclusive_cumsum` then written as `tt.scan` (inclusive), a subtraction
  and a `tt.reduce` (total) in the op's encoding, compiles to PTX. Without
  the pass, the kernels whose cumsum input is an mma or slice layout do not.
"""
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO, compile_ttgir, run_tle_opt

KERNELS = os.path.join(REPO, "test", "Transforms",
                       "optimize-exclusive-cumsum-layouts-kernels.mlir")
PASS = "-triton-tle-optimize-exclusive-cumsum-layouts"
UNSUPPORTED = "unsupported scan layout"


# --------------------------------------------------------------------------
# Which encodings tt.scan accepts
# --------------------------------------------------------------------------

MODULE_ATTRS = ('"ttg.num-ctas" = {ctas} : i32, "ttg.num-warps" = 4 : i32, '
                'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32')


def scan_module_2d(encoding, axis, ctas=1, load="#ttg.blocked<{sizePerThread = "
                   "[1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], "
                   "order = [1, 0]}>"):
    """Loads 64x64 f32 in `load`, converts to `encoding`, scans, converts
    back and stores: only the scan's input encoding varies."""
    attrs = MODULE_ATTRS.format(ctas=ctas)
    return f"""#ld = {load}
#E = {encoding}
module attributes {{{attrs}}} {{
  tt.func public @k(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>) attributes {{noinline = false}} {{
    %cst = arith.constant dense<64> : tensor<64x1xi32, #ld>
    %r = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #ld}}>>
    %r1 = tt.expand_dims %r {{axis = 1 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 1, parent = #ld}}>> -> tensor<64x1xi32, #ld>
    %r2 = arith.muli %r1, %cst : tensor<64x1xi32, #ld>
    %c = tt.make_range {{end = 64 : i32, start = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = #ld}}>>
    %c1 = tt.expand_dims %c {{axis = 0 : i32}} : tensor<64xi32, #ttg.slice<{{dim = 0, parent = #ld}}>> -> tensor<1x64xi32, #ld>
    %rb = tt.broadcast %r2 : tensor<64x1xi32, #ld> -> tensor<64x64xi32, #ld>
    %cb = tt.broadcast %c1 : tensor<1x64xi32, #ld> -> tensor<64x64xi32, #ld>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #ld>
    %xp = tt.splat %X : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #ld>
    %xa = tt.addptr %xp, %off : tensor<64x64x!tt.ptr<f32>, #ld>, tensor<64x64xi32, #ld>
    %x = tt.load %xa : tensor<64x64x!tt.ptr<f32>, #ld>
    %xe = ttg.convert_layout %x : tensor<64x64xf32, #ld> -> tensor<64x64xf32, #E>
    %s = "tt.scan"(%xe) <{{axis = {axis} : i32, reverse = false}}> ({{
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }}) : (tensor<64x64xf32, #E>) -> tensor<64x64xf32, #E>
    %sb = ttg.convert_layout %s : tensor<64x64xf32, #E> -> tensor<64x64xf32, #ld>
    %yp = tt.splat %Y : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>, #ld>
    %ya = tt.addptr %yp, %off : tensor<64x64x!tt.ptr<f32>, #ld>, tensor<64x64xi32, #ld>
    tt.store %ya, %sb : tensor<64x64x!tt.ptr<f32>, #ld>
    tt.return
  }}
}}
"""


def scan_module_1d(encoding):
    """The same for 128 f32 loaded in a 1-D blocked layout."""
    attrs = MODULE_ATTRS.format(ctas=1)
    return f"""#ld = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}}>
#P = #ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}}>
module attributes {{{attrs}}} {{
  tt.func public @k(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>) attributes {{noinline = false}} {{
    %off = tt.make_range {{end = 128 : i32, start = 0 : i32}} : tensor<128xi32, #ld>
    %xp = tt.splat %X : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ld>
    %xa = tt.addptr %xp, %off : tensor<128x!tt.ptr<f32>, #ld>, tensor<128xi32, #ld>
    %x = tt.load %xa : tensor<128x!tt.ptr<f32>, #ld>
    %xe = ttg.convert_layout %x : tensor<128xf32, #ld> -> tensor<128xf32, {encoding}>
    %s = "tt.scan"(%xe) <{{axis = 0 : i32, reverse = false}}> ({{
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.scan.return %t : f32
    }}) : (tensor<128xf32, {encoding}>) -> tensor<128xf32, {encoding}>
    %sb = ttg.convert_layout %s : tensor<128xf32, {encoding}> -> tensor<128xf32, #ld>
    %yp = tt.splat %Y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #ld>
    %ya = tt.addptr %yp, %off : tensor<128x!tt.ptr<f32>, #ld>, tensor<128xi32, #ld>
    tt.store %ya, %sb : tensor<128x!tt.ptr<f32>, #ld>
    tt.return
  }}
}}
"""


MMA_V3 = ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
          "instrShape = [16, 64, 16]}>")
MMA_V2 = ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
          "instrShape = [16, 8]}>")
LINEAR = ("#ttg.linear<{register = [[0, 32], [4, 0], [8, 0], [16, 0], [32, 0]], "
          "lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warp = [[1, 0], [2, 0]], "
          "block = []}>")
ROWS = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
        "warpsPerCTA = [4, 1], order = [1, 0]}>")
COLUMNS = ("#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], "
           "warpsPerCTA = [1, 4], order = [0, 1]}>")

ENCODINGS = {
    # name: (module text, accepted by tt.scan)
    "blocked, axis in a warp": (scan_module_2d(ROWS, 1), True),
    "blocked, axis across warps": (scan_module_2d(ROWS, 0), True),
    "blocked, axis fastest": (scan_module_2d(COLUMNS, 0), True),
    "blocked, CTA-broadcast": (scan_module_2d(
        ROWS.replace("order = [1, 0]", "order = [1, 0], CGALayout = [[0, 0]]"), 1,
        ctas=2, load=ROWS.replace("order = [1, 0]", "order = [1, 0], CGALayout = [[0, 0]]")),
        True),
    "slice of blocked": (scan_module_1d("#ttg.slice<{dim = 1, parent = #P}>"), False),
    "nvidia_mma v3, axis 1": (scan_module_2d(MMA_V3, 1), False),
    "nvidia_mma v3, axis 0": (scan_module_2d(MMA_V3, 0), False),
    "nvidia_mma v2": (scan_module_2d(MMA_V2, 1), False),
    "linear": (scan_module_2d(LINEAR, 1), False),
}


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_scan_encoding_support(name, tmp_path, capfd):
    text, accepted = ENCODINGS[name]
    if accepted:
        kernel = compile_ttgir(tmp_path, text)
        assert ".entry k(" in kernel.asm["ptx"]
    else:
        with pytest.raises(Exception):
            compile_ttgir(tmp_path, text)
        assert UNSUPPORTED in capfd.readouterr().err


def test_scan_split_across_ctas_aborts_triton(tmp_path):
    # A blocked layout whose CTA layout splits the tensor (what Triton itself
    # gives a tl.cumsum input with num_ctas=2) trips an assertion in Triton's
    # scan lowering, killing the process: compile it in a child.
    split = ROWS.replace("order = [1, 0]", "order = [1, 0], CGALayout = [[1, 0]]")
    path = tmp_path / "split.ttgir"
    path.write_text(scan_module_2d(split, 1, ctas=2, load=split))
    child = subprocess.run(
        [sys.executable, "-c",
         "import sys, triton\n"
         "from triton.backends.compiler import GPUTarget\n"
         "triton.compile(sys.argv[1], target=GPUTarget('cuda', 90, 32))\n",
         str(path)],
        capture_output=True, text=True, env=dict(os.environ), timeout=600)
    assert child.returncode != 0
    assert "ScanOpToLLVM" in child.stderr and "Assertion" in child.stderr


# --------------------------------------------------------------------------
# The pass's output compiles
# --------------------------------------------------------------------------

CUMSUM = re.compile(
    r"^(?P<ind>\s*)(?P<excl>%[\w.$-]+), (?P<total>%[\w.$-]+) = tle\.exclusive_cumsum "
    r"(?P<src>%[\w.$-]+) \{axis = (?P<axis>\d+) : i32(?P<rev>, reverse = true)?\} "
    r": (?P<types>.*)$", re.M)


def lower_cumsums(text):
    """Writes each tle.exclusive_cumsum as tt.scan - src and a tt.reduce, in
    the op's own encodings (what the lowering to tt.scan does)."""
    count = 0

    def lower(m):
        nonlocal count
        count += 1
        n = count
        ind, src, axis = m["ind"], m["src"], m["axis"]
        rev = "true" if m["rev"] else "false"
        src_type, rest = m["types"].split(" -> ", 1)
        assert rest.startswith(src_type + ", "), m.group(0)
        total_type = rest[len(src_type) + 2:]
        elt = re.match(r"tensor<(?:\d+x)+(\w+)", src_type).group(1)
        add, sub = ("arith.addi", "arith.subi") if elt.startswith("i") else ("arith.addf", "arith.subf")

        def combine(op, ret):
            return (f"({{\n{ind}^bb0(%tle_a{n}{ret}: {elt}, %tle_b{n}{ret}: {elt}):\n"
                    f"{ind}  %tle_s{n}{ret} = {add} %tle_a{n}{ret}, %tle_b{n}{ret} : {elt}\n"
                    f"{ind}  {op} %tle_s{n}{ret} : {elt}\n{ind}}})")
        return (f'{ind}%tle_incl{n} = "tt.scan"({src}) <{{axis = {axis} : i32, reverse = {rev}}}> '
                f"{combine('tt.scan.return', 's')} : ({src_type}) -> {src_type}\n"
                f"{ind}{m['excl']} = {sub} %tle_incl{n}, {src} : {src_type}\n"
                f'{ind}{m["total"]} = "tt.reduce"({src}) <{{axis = {axis} : i32}}> '
                f"{combine('tt.reduce.return', 'r')} : ({src_type}) -> {total_type}")

    lowered = CUMSUM.sub(lower, text)
    assert count > 0 and "tle." not in lowered
    return lowered


def kernel_modules():
    with open(KERNELS) as f:
        chunks = f.read().split("// -----")
    return {re.search(r"tt\.func public @(\w+)", c).group(1): c for c in chunks}


KERNEL_NAMES = list(kernel_modules())
# Kernels whose cumsum input Triton left in a layout tt.scan cannot lower.
NEEDS_THE_PASS = {"cumsum_of_dot", "cumsum_of_dot_mma_users", "cumsum_of_dot_axis0",
                  "cumsum_of_sum", "cumsum_of_sum_slice_users", "cumsum_of_sum_small"}


def test_kernel_file_is_complete():
    assert len(KERNEL_NAMES) == 11 and NEEDS_THE_PASS <= set(KERNEL_NAMES)


@pytest.mark.parametrize("name", KERNEL_NAMES)
def test_pass_output_compiles(name, tmp_path):
    optimized = run_tle_opt(kernel_modules()[name], PASS)
    kernel = compile_ttgir(tmp_path, lower_cumsums(optimized), name)
    assert f".entry {name}(" in kernel.asm["ptx"]


@pytest.mark.parametrize("name", sorted(NEEDS_THE_PASS))
def test_without_the_pass_triton_refuses(name, tmp_path, capfd):
    plain = run_tle_opt(kernel_modules()[name])
    with pytest.raises(Exception):
        compile_ttgir(tmp_path, lower_cumsums(plain), name)
    assert UNSUPPORTED in capfd.readouterr().err
