"""Triton 3.6 compiles what `triton-tle-lower-exclusive-cumsum` produces.

Each case is a TTGIR kernel (as Triton 3.6 prints them for sm_90: loads, a
`tle.exclusive_cumsum`, stores of both results) that TLE lowers; pip Triton's
remaining stages must turn the result into PTX, on this CPU-only machine, with
no `tle` left in it.

Triton 3.6 lowers `tt.scan` only for `#ttg.blocked` operands (any
sizePerThread/threadsPerWarp/warpsPerCTA/order, rank 1 to 3 seen here; with
num-ctas = 2 only a CGALayout that gives every CTA the whole tensor: a layout
split over the CTAs, along the scan axis or not, trips an assertion in
Triton's ScanOpToLLVM, for Triton's own tl.cumsum too).
`#ttg.nvidia_mma` (v2 and v3), `#ttg.linear` and `#ttg.slice` operands stop
with "TODO: unsupported scan layout"; test_triton_scans_only_blocked_layouts
pins that, so layout choices made before this pass can rely on it.

Which tool lowers: the `tle` module when it is this checkout's own (an editable
install of this repo), else the tle-opt of `conftest.tle_opt_path()` (`$TLE_OPT`,
else the one installed with `tle`).
"""
import pytest

import tle
from conftest import compile_ttgir, run_tle_opt, tle_is_this_checkout

PASS = "triton-tle-lower-exclusive-cumsum"

MODULE_ATTRS = ('{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
                'ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32}')
BLOCKED_1D = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
BLOCKED_ROWS = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"
BLOCKED_SQUARE = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>"
BLOCKED_3D = "#ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 2], order = [2, 1, 0]}>"
# num-ctas = 2 with every CTA holding the whole tensor (CGALayout all zeros).
BLOCKED_CTAS2_REPLICATED = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[0, 0]]}>"
MMA_V3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>"
MMA_V2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
LINEAR = ("#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], "
          "warp = [[4, 0], [8, 0]], block = []}>")
SLICE_OF_BLOCKED = f"#ttg.slice<{{dim = 1, parent = {BLOCKED_ROWS}}}>"
BLOCKED_COLS = "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>"


def _lower(text):
    """Runs the pass over `text` with this checkout's TLE."""
    if tle_is_this_checkout():
        return tle.run_pipeline(text, f"builtin.module({PASS})",
                                source_name="cumsum.ttgir")
    return run_tle_opt(text, f"--{PASS}")


def _kernel_1d(n, ty, reverse, enc=BLOCKED_1D):
    """X[n] -> Y[n] = exclusive cumsum, Z[0] = total."""
    t = f"tensor<{n}x{ty}, #enc>"
    p = f"tensor<{n}x!tt.ptr<{ty}>, #enc>"
    i = f"tensor<{n}xi32, #enc>"
    return f"""#enc = {enc}
module attributes {MODULE_ATTRS} {{
  tt.func public @k(%X: !tt.ptr<{ty}>, %Y: !tt.ptr<{ty}>, %Z: !tt.ptr<{ty}>) attributes {{noinline = false}} {{
    %offs = tt.make_range {{end = {n} : i32, start = 0 : i32}} : {i}
    %xs = tt.splat %X : !tt.ptr<{ty}> -> {p}
    %xp = tt.addptr %xs, %offs : {p}, {i}
    %x = tt.load %xp : {p}
    %e, %t = tle.exclusive_cumsum %x {{axis = 0 : i32, reverse = {str(reverse).lower()}}} : {t} -> {t}, {ty}
    %ys = tt.splat %Y : !tt.ptr<{ty}> -> {p}
    %yp = tt.addptr %ys, %offs : {p}, {i}
    tt.store %yp, %e : {p}
    tt.store %Z, %t : !tt.ptr<{ty}>
    tt.return
  }}
}}
"""


def _tensor(shape, ty, enc):
    return f"tensor<{'x'.join(map(str, shape))}x{ty}, {enc}>"


def _slice(enc, dim):
    return f"#ttg.slice<{{dim = {dim}, parent = {enc}}}>"


def _offsets(name, shape, enc):
    """Lines computing %name, the row-major offsets of a `shape` tensor with
    encoding `enc`, the way Triton builds them: a tt.make_range per dimension
    (its encoding `enc` with the other dimensions sliced away), expanded back
    to full rank, scaled by the stride, broadcast and added."""
    rank = len(shape)
    if rank == 1:
        return [f"%{name} = tt.make_range {{end = {shape[0]} : i32, start = 0 : i32}} : "
                f"{_tensor(shape, 'i32', enc)}"]
    lines, terms = [], []
    for d in range(rank):
        others = [o for o in range(rank) if o != d]
        after = [None] * len(others)  # encoding after expanding others[k]
        cur = enc
        for k in reversed(range(len(others))):
            after[k] = cur
            cur = _slice(cur, others[k])
        v, shp = f"%{name}_{d}", [shape[d]]
        lines.append(f"{v} = tt.make_range {{end = {shape[d]} : i32, start = 0 : i32}} : "
                     f"{_tensor(shp, 'i32', cur)}")
        present = {d}
        for k, o in enumerate(others):
            present.add(o)
            new = [shape[i] if i == d else 1 for i in range(rank) if i in present]
            lines.append(f"{v}_{k} = tt.expand_dims {v} {{axis = {o} : i32}} : "
                         f"{_tensor(shp, 'i32', cur)} -> {_tensor(new, 'i32', after[k])}")
            v, shp, cur = f"{v}_{k}", new, after[k]
        stride = 1
        for extent in shape[d + 1:]:
            stride *= extent
        if stride != 1:
            lines.append(f"{v}_c = arith.constant dense<{stride}> : {_tensor(shp, 'i32', enc)}")
            lines.append(f"{v}_s = arith.muli {v}, {v}_c : {_tensor(shp, 'i32', enc)}")
            v = f"{v}_s"
        lines.append(f"{v}_b = tt.broadcast {v} : {_tensor(shp, 'i32', enc)} -> "
                     f"{_tensor(shape, 'i32', enc)}")
        terms.append(f"{v}_b")
    acc = terms[0]
    for k, term in enumerate(terms[1:]):
        out = f"%{name}" if k == len(terms) - 2 else f"%{name}_sum{k}"
        lines.append(f"{out} = arith.addi {acc}, {term} : {_tensor(shape, 'i32', enc)}")
        acc = out
    return lines


def _kernel_nd(shape, ty, axis, reverse, enc):
    """X (row-major, `shape`) -> Y = exclusive cumsum along `axis`, Z = totals
    (row-major, `shape` without `axis`)."""
    tot_shape = [e for i, e in enumerate(shape) if i != axis]
    tot_enc = _slice("#enc", axis)
    t, tt_ = _tensor(shape, ty, "#enc"), _tensor(tot_shape, ty, tot_enc)
    p, tp = _tensor(shape, f"!tt.ptr<{ty}>", "#enc"), _tensor(tot_shape, f"!tt.ptr<{ty}>", tot_enc)
    i, ti = _tensor(shape, "i32", "#enc"), _tensor(tot_shape, "i32", tot_enc)
    body = _offsets("offs", shape, "#enc")
    body += [
        f"%xs = tt.splat %X : !tt.ptr<{ty}> -> {p}",
        f"%xp = tt.addptr %xs, %offs : {p}, {i}",
        f"%x = tt.load %xp : {p}",
        f"%e, %t = tle.exclusive_cumsum %x {{axis = {axis} : i32, reverse = {str(reverse).lower()}}}"
        f" : {t} -> {t}, {tt_}",
        f"%ys = tt.splat %Y : !tt.ptr<{ty}> -> {p}",
        f"%yp = tt.addptr %ys, %offs : {p}, {i}",
        f"tt.store %yp, %e : {p}",
    ]
    body += _offsets("toffs", tot_shape, tot_enc)
    body += [
        f"%zs = tt.splat %Z : !tt.ptr<{ty}> -> {tp}",
        f"%zp = tt.addptr %zs, %toffs : {tp}, {ti}",
        f"tt.store %zp, %t : {tp}",
        "tt.return",
    ]
    lines = "\n".join("    " + line for line in body)
    return f"""#enc = {enc}
module attributes {MODULE_ATTRS} {{
  tt.func public @k(%X: !tt.ptr<{ty}>, %Y: !tt.ptr<{ty}>, %Z: !tt.ptr<{ty}>) attributes {{noinline = false}} {{
{lines}
  }}
}}
"""


CASES = {
    "1d_i32": _kernel_1d(128, "i32", False),
    "1d_f32_reverse": _kernel_1d(256, "f32", True),
    "1d_f16": _kernel_1d(64, "f16", False),
    "1d_bf16_reverse": _kernel_1d(128, "bf16", True),
    "1d_f64": _kernel_1d(128, "f64", False),
    "2d_f32_axis0": _kernel_nd([64, 32], "f32", 0, False, BLOCKED_ROWS),
    "2d_f32_axis1": _kernel_nd([64, 32], "f32", 1, False, BLOCKED_ROWS),
    "2d_f32_axis0_reverse_square": _kernel_nd([32, 32], "f32", 0, True, BLOCKED_SQUARE),
    "2d_i64_axis1_reverse": _kernel_nd([16, 64], "i64", 1, True, BLOCKED_ROWS),
    "3d_f32_axis1": _kernel_nd([4, 16, 8], "f32", 1, False, BLOCKED_3D),
    "3d_i32_axis2_reverse": _kernel_nd([4, 16, 8], "i32", 2, True, BLOCKED_3D),
    "2d_i32_axis0_cols": _kernel_nd([64, 16], "i32", 0, False, BLOCKED_COLS),
    "2d_f32_axis1_ctas2_replicated": _kernel_nd(
        [64, 64], "f32", 1, False, BLOCKED_CTAS2_REPLICATED).replace(
            '"ttg.num-ctas" = 1', '"ttg.num-ctas" = 2'),
}

# Inputs in layouts Triton 3.6 cannot scan: the lowering handles them, but
# Triton's TTGIR -> LLVM conversion stops at the tt.scan.
NOT_BLOCKED = {
    "2d_f32_mma_v3": _kernel_nd([64, 32], "f32", 1, False, MMA_V3),
    "2d_i32_mma_v2": _kernel_nd([64, 32], "i32", 0, False, MMA_V2),
    "2d_f32_linear": _kernel_nd([16, 32], "f32", 0, True, LINEAR),
    "1d_f32_slice_of_blocked": _kernel_1d(64, "f32", False, SLICE_OF_BLOCKED),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_triton_compiles_lowered_cumsum(name, tmp_path):
    lowered = _lower(CASES[name])
    assert "tle." not in lowered
    assert '"tt.scan"' in lowered
    kernel = compile_ttgir(tmp_path, lowered)
    ptx = kernel.asm["ptx"]
    assert ".visible .entry k(" in ptx
    assert "tle" not in ptx


@pytest.mark.parametrize("name", sorted(NOT_BLOCKED))
def test_triton_scans_only_blocked_layouts(name, tmp_path, capfd):
    # A fact about pip Triton 3.6 that TLE's layout choice relies on: its
    # tt.scan lowering takes #ttg.blocked operands only (a scan of a dot
    # result or of a reduce's #ttg.slice result must be converted first).
    lowered = _lower(NOT_BLOCKED[name])
    assert "tle." not in lowered
    with pytest.raises(RuntimeError):
        compile_ttgir(tmp_path, lowered)
    assert "unsupported scan layout" in capfd.readouterr().err
