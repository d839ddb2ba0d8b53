"""bench/attention.py (FlashAttention forward).

CPU: each provider's kernel compiles to PTX for sm_90 with the instructions
its schedule stands for (wgmma for all; for ``tle-fa3`` setmaxnreg, the
ping-pong named barriers with their ids, mbarrier waits, TMA copies, and a
wgmma wait that keeps the P V wgmma in flight during the softmax), in the
shared memory an H100 has; the host side (shapes, reference, check).
GPU (skips without one): each provider alone passes ``--check`` on small
shapes and on the default shapes at N = 1k.
"""

import importlib
import math
import re
import sys

import pytest
import triton
import triton.language as tl

import tle
from conftest import has_gpu, ptx_count
from barrier_kernels import stage_qk
from test_bench_smoke import BENCH_DIR

H100_SHARED = 232448


@pytest.fixture(scope="module")
def attention():
    sys.path.insert(0, BENCH_DIR)
    try:
        yield importlib.import_module("attention")
    finally:
        sys.path.remove(BENCH_DIR)


def _entry(attention, name):
    (entry,) = [e for e in attention.smoke_kernels() if e["name"] == name]
    return entry


def _compile(entry):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import tle

    if entry["tle"]:
        return tle.compile(entry["kernel"], signature=entry["signature"], constexprs=entry["constexprs"],
                           target="sm_90", attrs=entry.get("attrs"), **entry["options"])
    sig = dict(entry["signature"])
    for c in entry["constexprs"]:
        sig.setdefault(c, "constexpr")
    src = ASTSource(entry["kernel"], signature=sig, constexprs=entry["constexprs"], attrs=entry.get("attrs"))
    return triton.compile(src, target=GPUTarget("cuda", 90, 32), options=entry["options"])


@pytest.mark.parametrize("tag", ["d64-full", "d128-causal"])
def test_triton_provider_is_plain_triton_with_wgmma_and_tma(attention, tag):
    k = _compile(_entry(attention, f"triton-{tag}"))
    assert "triton-ttgir" not in k.asm
    ptx = k.asm["ptx"]
    assert "wgmma.mma_async" in ptx
    assert "cp.async.bulk.tensor" in ptx  # K / V tiles by TMA from the tensor descriptors
    assert "ex2.approx" in ptx  # exp2 with the scale folded in
    assert k.metadata.shared <= H100_SHARED


@pytest.mark.parametrize("tag", ["d64-causal", "d128-full"])
def test_tle_provider_pipes_k_and_v_to_two_consumer_warpgroups(attention, tag):
    k = _compile(_entry(attention, f"tle-{tag}"))
    assert ptx_count(k, r"wgmma\.mma_async") > 0
    assert ptx_count(k, r"cp\.async\.cg\.shared\.global") > 0  # slot fills by cp.async
    assert ptx_count(k, r"cp\.async\.mbarrier\.arrive\.noinc") > 0  # published when they land
    assert ptx_count(k, r"setmaxnreg\.inc") > 0 and ptx_count(k, r"setmaxnreg\.dec") > 0
    ttgir = k.asm["ttgir"]
    assert "ttg.warp_specialize" in ttgir
    # Both consumers' wgmmas read K and V in the slots (forward-pipe-mma-operands):
    # the only register-to-shared copies are each consumer's Q.
    assert ttgir.count("ttg.local_alloc %") == 2
    assert k.metadata.shared <= H100_SHARED


@pytest.mark.parametrize("tag", ["d64-full", "d64-causal", "d128-full", "d128-causal"])
def test_tle_fa3_schedule_in_the_ptx(attention, tag):
    k = _compile(_entry(attention, f"tle-fa3-{tag}"))
    d = int(tag.split("-")[0][1:])
    # Register split: the consumer warpgroups grow, the producer warp shrinks.
    assert ptx_count(k, r"setmaxnreg\.inc\.sync\.aligned\.u32\s+240;") > 0
    assert ptx_count(k, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+32;") > 0
    # Ping-pong: each consumer syncs on its own named barrier (8 or 9, both
    # warpgroups: 256 threads) before issuing and arrives on the other's.
    for bar in (8, 9):
        assert ptx_count(k, rf"bar\.sync {bar}, 256;") >= 3
        assert ptx_count(k, rf"bar\.arrive {bar}, 256;") >= 3
    # The producer warp: Q, K and V by TMA on mbarriers (expect_tx), no register staging.
    assert ptx_count(k, r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global") >= 4
    assert ptx_count(k, r"mbarrier\.arrive\.expect_tx") >= 4
    assert ptx_count(k, r"mbarrier\.try_wait\.parity") >= 8
    # Each consumer: S and P V in flight together, the softmax after waiting
    # for S only (wait_group 1), then P V (wait_group 0).
    assert ptx_count(k, r"wgmma\.mma_async") > 0
    assert ptx_count(k, r"wgmma\.wait_group\.sync\.aligned 1;") == 2
    # P V: P in registers, the wgmma's A operand (4 P V wgmmas a consumer, a
    # wgmma.mma_async per 16 keys of the 128-key block: 32 with A in
    # registers), or at D = 64 through each consumer's P buffer, fenced for
    # the async proxy before the P V wgmma.
    register_a = ptx_count(k, r"^wgmma\.mma_async[^;]*\},\s*\{%r\d+,\s*%r\d+,\s*%r\d+,\s*%r\d+\},")
    if attention.tle_fa3_config(d, False)["P_REGS"]:
        assert register_a == 32
        assert ptx_count(k, r"^stmatrix") == d // 8  # the epilogue: each consumer's 64 x D O, no P
    else:
        assert register_a == 0
        assert ptx_count(k, r"fence\.proxy\.async") >= 4
    # The epilogue: O through the Q buffer by TMA (each consumer's 64 rows).
    assert ptx_count(k, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 2
    assert ptx_count(k, r"^st\.global") == 0
    assert k.metadata.shared <= H100_SHARED


@pytest.mark.parametrize("tag", ["d64-full", "d64-causal"])
def test_tle_fa3_three_warpgroups_take_turns(attention, tag):
    """tle-fa3 at D = 64 from N = 2k (TLE_FA3_WG3_CONFIG): a 192-row tile,
    three consumer warpgroups of 64 rows. Registers: the two worker
    consumers grow to 160, the producer shrinks to 24, and the default
    partition (consumer 0) keeps what is left, 168 (168 + 2 x 160 + 24 = 512:
    the register file for four warpgroups). Turns go round robin: each
    consumer syncs on its own named barrier (8, 9, 10) and arrives on the
    next one's, and only the last opens (one more arrive on 8 than syncs,
    taken back by consumer 0 at the end). Four wgmmas a consumer (12),
    Q of each by TMA, and each consumer's O store guarded by whether its
    rows are inside the sequence (three TMA stores)."""
    k = _compile(_entry(attention, f"tle-fa3-wg3-{tag}"))
    assert k.asm["ttgir"].count("ttng.warp_group_dot %") == 12
    assert ptx_count(k, r"setmaxnreg\.inc\.sync\.aligned\.u32\s+160;") > 0
    assert ptx_count(k, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+24;") > 0
    assert ptx_count(k, r"setmaxnreg\.dec\.sync\.aligned\.u32\s+168;") > 0
    assert ptx_count(k, r"setmaxnreg\.inc\.sync\.aligned\.u32\s+240;") == 0
    syncs = {bar: ptx_count(k, rf"bar\.sync {bar}, 256;") for bar in (8, 9, 10)}
    arrives = {bar: ptx_count(k, rf"bar\.arrive {bar}, 256;") for bar in (8, 9, 10)}
    assert syncs == {8: 4, 9: 3, 10: 3}, syncs
    assert arrives == {8: 4, 9: 3, 10: 3}, arrives
    assert ptx_count(k, r"mbarrier\.arrive\.expect_tx") >= 5  # Q of three consumers, K, V
    assert ptx_count(k, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 3
    assert k.metadata.shared <= H100_SHARED
    cfg = attention.tle_fa3_config(64, tag.endswith("causal"), 2048)
    assert cfg["NUM_WG"] == 3 and not cfg["PERSISTENT"]
    assert "NUM_WG" not in attention.tle_fa3_config(64, False, 1024)
    assert "NUM_WG" not in attention.tle_fa3_config(128, False, 16384)


@pytest.mark.parametrize("tag", ["d64-full", "d128-full"])
def test_tle_fa3_persistent_form(attention, tag):
    """PERSISTENT (the default non-causal at D = 64): every partition loops
    over tiles by num_programs (%nctaid.x), the two O buffers come on top of
    the one-CTA-a-tile form's shared memory, each warpgroup hands Q back on
    an mbarrier of its own (qempty: the producer waits on it before each Q
    load), and each tile's O store waits for the previous one only
    (cp.async.bulk.wait_group.read 0 in the loop and once after it, where
    the one-CTA-a-tile form waits once), with the same 8 wgmmas."""
    d = int(tag.split("-")[0][1:])
    entry = dict(_entry(attention, f"tle-fa3-{tag}"))
    cfg = dict(entry["constexprs"], STAGES=2)
    one = _compile(dict(entry, constexprs=dict(cfg, PERSISTENT=False)))
    per = _compile(dict(entry, constexprs=dict(cfg, PERSISTENT=True)))
    assert "%nctaid.x" in per.asm["ptx"] and "%nctaid.x" in one.asm["ptx"]  # one: start_m counts from the end
    assert per.metadata.shared - one.metadata.shared >= 2 * 64 * d * 2
    assert per.asm["ttgir"].count("ttng.warp_group_dot %") == 8
    assert ptx_count(per, r"mbarrier\.try_wait\.parity") > ptx_count(one, r"mbarrier\.try_wait\.parity")
    waits = r"cp\.async\.bulk\.wait_group\.read\s+0;"
    assert ptx_count(one, waits) == 2 and ptx_count(per, waits) >= 4
    assert ptx_count(per, r"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta") == 2
    assert per.metadata.shared <= H100_SHARED
    if d == 64:
        assert attention.tle_fa3_config(d, False)["PERSISTENT"] and not attention.tle_fa3_config(d, True)["PERSISTENT"]


def test_tle_fa3_softmax_stays_in_the_wgmma_layout(attention):
    """After triton-tle-lower-wgmma, the bridge propagates the accumulator's
    wgmma layout (tle._bridge.propagate_wgmma_layouts): the softmax and the
    rescale of O run on it. The only layout conversions left are P's, from
    the accumulator layout into the wgmma's A fragment (a register
    permutation: the thread holding S[i, j] holds A[i, j]), one per P V
    wgmma; O leaves through shared memory by TMA, so no conversion to a
    blocked layout either. Without the propagation, 56 conversions through
    shared memory and 262232 B of it, more than an H100 has."""
    k = _compile(_entry(attention, "tle-fa3-d128-causal"))
    ttgir = k.asm["ttgir"]
    converts = [l for l in ttgir.splitlines() if "ttg.convert_layout" in l]
    assert len(converts) == 4, converts
    assert all("tensor<64x128xbf16, #mma> -> tensor<64x128xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>"
               in l for l in converts), converts
    assert "#blocked" not in ttgir.split("ttg.warp_specialize(")[1]
    loops = re.findall(r"scf\.for .*iter_args\((.*?)\) ->", ttgir)
    assert loops and all("#blocked" not in l for l in loops)
    # The only shared-memory stores: each consumer's O (stmatrix) and the
    # barrier inits; Q, K and V arrive by TMA, P stays in registers.
    assert ptx_count(k, r"^st\.shared") <= 2
    assert k.metadata.shared <= H100_SHARED


@pytest.mark.parametrize("tag", ["d64-full", "d128-causal"])
def test_tle_fa3_issues_each_wgmma_once(attention, tag):
    """Four wgmmas a consumer (S of block 0; S and P V in the loop, on the
    slot the iteration's index picks; the last P V): 8 in all. Without the
    runtime branch S goes through in _fa3_consumer, Triton's layout
    propagation copies the S marker per user layout (test_wgmma_marker_is_
    not_copied_by_layout_propagation) and the non-causal kernel issued 26
    (D = 128) or 32 (D = 64) of the 14 it had with two buffers chosen by
    branches. P in registers at D = 64 (a tiled register-A marker, with P
    and O carried through the loop once per layout) made 20, then 12 with
    straight-line copies folded; triton-tle-merge-marker-copies now also
    matches loop-carried copies (coinductively) and folds a tiled result's
    carrier chain: 8."""
    k = _compile(_entry(attention, f"tle-fa3-{tag}"))
    assert k.asm["ttir"].count('"tle.wgmma {') == 8
    assert k.asm["ttgir"].count("ttng.warp_group_dot %") == 8


def test_tle_fa3_register_p_at_d64_issues_each_wgmma_once(attention):
    """tle-fa3 at D = 64 with P in registers (the default since it runs
    1.19-1.20x Triton there against 1.12x through a P buffer: see
    bench/attention.py; pinned here whatever the config says): Triton's layout propagation copies the S and P V
    markers and carries P, O and the row statistics through the loop once
    per layout; triton-tle-merge-marker-copies proves the loop-carried copies
    equal (coinductively, through the loop's inits and yields) and folds the
    P V marker's tiled result with its carrier chain: 8 wgmmas, not 20, P V
    reading P from registers (8 wgmma.mma_async a P V wgmma, 4 of them)."""
    entry = dict(_entry(attention, "tle-fa3-d64-full"))
    entry["constexprs"] = dict(entry["constexprs"], P_REGS=True)
    k = _compile(entry)
    assert k.asm["ttir"].count('"tle.wgmma {') == 8
    assert k.asm["triton-ttgir"].count('"tle.wgmma {') > 8  # Triton's copies
    assert k.asm["ttgir"].count("ttng.warp_group_dot %") == 8
    register_a = ptx_count(k, r"^wgmma\.mma_async[^;]*\},\s*\{%r\d+,\s*%r\d+,\s*%r\d+,\s*%r\d+\},")
    assert register_a == 32
    assert ptx_count(k, r"\b(ld|st)\.local") == 0
    assert k.metadata.shared <= H100_SHARED


# --- wgmma descriptors set on every path (SASS) -------------------------------------------------

_SASS_INS = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:(@!?U?P[0-9T]+)\s+)?([A-Z][A-Za-z0-9_.]*)\s*(.*?)\s*;")
_SASS_LABEL = re.compile(r"^(\.L_x_\d+):")


def _sass_blocks(sass):
    """nvdisasm -c text as basic blocks: (instructions, successor indices)."""
    blocks = [dict(label="entry", ins=[], succ=[], fall=True)]
    for line in sass.splitlines():
        m = _SASS_LABEL.match(line)
        if m:
            blocks.append(dict(label=m.group(1), ins=[], succ=[], fall=True))
            continue
        m = _SASS_INS.match(line)
        if not m:
            continue
        pred, op, args = m.groups()
        blocks[-1]["ins"].append((pred, op, args))
        if op.split(".")[0] in ("BRA", "BRX", "EXIT", "RET", "JMP"):
            blocks[-1]["succ"] += re.findall(r"\.L_x_\d+", line)
            blocks[-1]["fall"] = pred is not None
            blocks.append(dict(label=None, ins=[], succ=[], fall=True))
    index = {b["label"]: i for i, b in enumerate(blocks) if b["label"]}
    for i, b in enumerate(blocks):
        b["succ"] = [index[t] for t in b["succ"]] + ([i + 1] if b["fall"] and i + 1 < len(blocks) else [])
    return blocks


def _ur_dests(op, args):
    m = re.match(r"UR(\d+)\b", args)
    if not m or op.startswith(("HGMMA", "UTMA", "SYNCS")):
        return set()
    r = int(m.group(1))
    return {r, r + 1} if ".64" in op else {r}


def _ur_step(defined, pred, op, args):
    """Uniform registers holding a value computed from defined ones after one
    instruction (a predicated write leaves its destination as it was)."""
    dests = _ur_dests(op, args)
    if not dests or pred is not None:
        return defined
    rest = args.split(",", 1)[1] if "," in args else ""
    srcs = {int(g) + k for g in re.findall(r"UR(\d+)", rest) for k in ((0, 1) if ".64" in op else (0,))}
    return defined | dests if srcs <= defined else defined - dests


def undefined_wgmma_descriptors(sass):
    """HGMMAs whose descriptor registers are not computed from defined values
    on every path to them (a forward must-be-defined dataflow over the
    uniform registers, empty at the kernel entry). gdesc[URn] names A's
    descriptor in URn..URn+1 and B's in URn+2..URn+3; with A in registers
    (`HGMMA d, Rk, gdesc[URn], ...`) only B's pair is read, and ptxas leaves
    URn..URn+1 as they are (it sets only URn+2 between such HGMMAs)."""
    blocks = _sass_blocks(sass)
    preds = [[] for _ in blocks]
    for i, b in enumerate(blocks):
        for s in b["succ"]:
            preds[s].append(i)
    every = set(range(256))
    out = [set(every) for _ in blocks]
    ins = [set() if i == 0 else set(every) for i in range(len(blocks))]
    changed = True
    while changed:
        changed = False
        for i, b in enumerate(blocks):
            start = set() if i == 0 else (set.intersection(*(out[p] for p in preds[i])) if preds[i] else set(every))
            end = start
            for x in b["ins"]:
                end = _ur_step(end, *x)
            if start != ins[i] or end != out[i]:
                ins[i], out[i], changed = start, end, True
    bad = []
    for i, b in enumerate(blocks):
        if i and not preds[i]:
            continue
        defined = ins[i]
        for pred, op, args in b["ins"]:
            register_a = re.match(r"\s*R\d+,\s*R\d+,\s*gdesc\[", args) is not None
            for g in re.findall(r"gdesc\[UR(\d+)\]", args):
                missing = {int(g) + k for k in range(2 if register_a else 0, 4)} - defined
                if op.startswith("HGMMA") and missing:
                    bad.append(f"{b['label']}: {op} {args} (UR{sorted(missing)})")
            defined = _ur_step(defined, pred, op, args)
    return bad


def _nvdisasm():
    import os
    import triton.backends.nvidia as nv
    path = os.path.join(os.path.dirname(nv.__file__), "bin", "nvdisasm")
    return path if os.access(path, os.X_OK) else None


def _sass(k, tmp_path):
    """nvdisasm -c of the kernel's cubin (skips without nvdisasm)."""
    import subprocess
    tool = _nvdisasm()
    if tool is None:
        pytest.skip("no nvdisasm in Triton's NVIDIA backend")
    cubin = tmp_path / "k.cubin"
    cubin.write_bytes(k.asm["cubin"])
    return subprocess.run([tool, "-c", str(cubin)], capture_output=True, text=True, check=True).stdout


def test_undefined_wgmma_descriptor_check_sees_a_zero_trip_loop():
    """The check itself: a descriptor set only inside a loop that a branch
    can skip (the shape of the tle-fa3 fault), and the same set before it."""
    sass = """
        /*0000*/                   UMOV UR8, 0x10 ;
        /*0010*/              @!P0 BRA `(.L_x_1) ;
.L_x_0:
        /*0020*/                   UIADD3 UR16, UR8, 0x2, URZ ;
        /*0030*/                   UMOV UR17, 0x40000040 ;
        /*0040*/                   UMOV UR18, UR8 ;
        /*0050*/                   UMOV UR19, 0x40000040 ;
        /*0060*/               @P1 BRA `(.L_x_0) ;
.L_x_1:
        /*0070*/                   HGMMA.64x64x16.F32.BF16 R88, gdesc[UR16].tnspB, R88, gsb0 ;
        /*0080*/                   EXIT ;
"""
    assert undefined_wgmma_descriptors(sass) == [
        ".L_x_1: HGMMA.64x64x16.F32.BF16 R88, gdesc[UR16].tnspB, R88, gsb0 (UR[16, 17, 18, 19])"]
    hoisted = sass.replace("@!P0 BRA `(.L_x_1) ;", "UIADD3 UR16, UR8, 0x2, URZ ;\n"
                           "        /*0011*/ UMOV UR17, 0x1 ;\n        /*0012*/ UMOV UR18, UR8 ;\n"
                           "        /*0013*/ UMOV UR19, 0x1 ;\n        /*0014*/ @!P0 BRA `(.L_x_1) ;")
    assert undefined_wgmma_descriptors(hoisted) == []
    # A in registers: only B's pair (UR18, UR19) is read; A's (UR16, UR17)
    # may be anything, B's must be set on every path.
    register_a = """
        /*0000*/                   UMOV UR18, 0x10 ;
        /*0010*/                   UMOV UR19, 0x40000040 ;
        /*0020*/                   HGMMA.64x128x16.F32.BF16 R24, R160, gdesc[UR16].tnspB, R24, gsb0 ;
        /*0030*/              @!P0 BRA `(.L_x_1) ;
        /*0040*/                   UMOV UR30, 0x1 ;
.L_x_1:
        /*0050*/                   HGMMA.64x128x16.F32.BF16 R24, R160, gdesc[UR28].tnspB, R24, gsb0 ;
        /*0060*/                   EXIT ;
"""
    assert undefined_wgmma_descriptors(register_a) == [
        ".L_x_1: HGMMA.64x128x16.F32.BF16 R24, R160, gdesc[UR28].tnspB, R24, gsb0 (UR[30, 31])"]


def _p_buffer_entry(attention, tag):
    """tle-fa3 at TAG with P through the consumers' shared P buffers
    (P_REGS False), whatever TLE_FA3_HEAD_DIM_CONFIG picks."""
    entry = dict(_entry(attention, f"tle-fa3-{tag}"))
    entry["constexprs"] = dict(entry["constexprs"], P_REGS=False)
    return entry


@pytest.mark.parametrize("tag,p_buffer", [("d64-full", True), ("d64-causal", True), ("d64-full", False),
                                          ("d128-full", False), ("d128-causal", False), ("wg3-d64-full", False),
                                          ("wg3-d64-causal", False)])
def test_tle_fa3_wgmma_descriptors_are_set_on_every_path(attention, tag, p_buffer, tmp_path):
    """The fault on small and causal shapes (an illegal address on the H100
    wherever a CTA has one key block): with P in one shared buffer that the
    loop's P V wgmma and the last block's both read, their descriptors were
    the same loop-invariant base + k-step constants. TLE's llir finish
    computes them inside each wgmma's asm (docs/warp-specialize.md, "wgmma
    descriptors"), and ptxas 12.8 then computed the shared values in the
    loop body only: with n_blocks == 1 (no iteration) the last P V read its
    A operand through uninitialized uniform registers (13 such HGMMAs at
    D = 64, 7 causal). P alternating between two slots gives the last P V
    a descriptor of its own. Checked with P through the buffers (p_buffer)
    and as the bench runs it (P in registers)."""
    k = _compile(_p_buffer_entry(attention, tag) if p_buffer else _entry(attention, f"tle-fa3-{tag}"))
    sass = _sass(k, tmp_path)
    assert sass.count("HGMMA") >= 32
    assert undefined_wgmma_descriptors(sass) == []


@triton.jit
def _fa3_one_p_slot(p_buf, j, P_REGS: tl.constexpr):
    """P_j in slot 0 for every j: tle-fa3's P before it alternated slots."""
    if P_REGS:
        return p_buf
    else:
        return p_buf.slot(0)


@pytest.mark.parametrize("tag", ["d64-full", "d64-causal"])
def test_one_p_buffer_wgmma_descriptors_are_set_on_every_path(attention, tag, tmp_path, monkeypatch):
    """The compiler's side of the fault above: tle-fa3 with one P buffer a
    consumer at D = 64, as it was before P alternated slots. The loop's P V
    wgmmas and the last block's read the same loop-invariant descriptors;
    folded into each wgmma's asm in both blocks, ptxas 12.8 computed them in
    the loop body only, and the last P V read undefined uniform registers
    when the loop ran zero times (n_blocks == 1: N = 128, which the kernel
    takes as a runtime argument, or a causal CTA's first tile), 13 such
    HGMMAs (7 causal). The llir finish folds a base's descriptors only
    where the wgmmas reading them are ordered by dominance
    (test/Target/finish-llir-wgmma-descriptors-dominance.ll): P's stay
    where LLVM hoisted them, above the loop; Q's, read before the loop and
    in it, are still computed in the loop's wgmmas (4 a consumer)."""
    # The kernel looks its callees up at compile time, and every test
    # compiles in a Triton cache of its own (conftest.py).
    monkeypatch.setattr(attention, "_fa3_p_slot", _fa3_one_p_slot)
    entry = _p_buffer_entry(attention, tag)
    entry["constexprs"]["PERSISTENT"] = False  # one CTA a tile, as it was then
    k = _compile(entry)
    sass = _sass(k, tmp_path)
    assert sass.count("HGMMA") == 48
    assert undefined_wgmma_descriptors(sass) == []
    assert ptx_count(k, r"\.reg \.b64 %tle_wd<") == 8


@triton.jit
def _wgmma_two_users(q_ptr, k_ptr, p_ptr, m_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    q_buf, k_buf = stage_qk(q_ptr, k_ptr, M, N, D, tl.bfloat16)
    s = tle.gpu.wgmma(q_buf, tle.gpu.memdesc_wgmma_view(k_buf), is_async=False)
    m = tl.max(s, 1)
    p = tl.math.exp2(s - m[:, None])
    tl.store(m_ptr + tl.arange(0, M), m)
    tl.store(p_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], p.to(tl.bfloat16))


def test_wgmma_marker_is_not_copied_by_layout_propagation():
    """One tle.gpu.wgmma whose result two ops use (a row max and an
    elementwise exp2): Triton's remove-layout-conversions (make_ttgir) copies
    the marker and its wait once per user layout (4 of each reach TLE's
    TTGIR stage); triton-tle-merge-marker-copies folds the copies, which
    carry the number triton-tle-number-markers gave the marker on TTIR, back
    into one: one wgmma (4 wgmma.mma_async for K = 64), not 3."""
    k = tle.compile(_wgmma_two_users, signature={"q_ptr": "*bf16", "k_ptr": "*bf16", "p_ptr": "*bf16",
                                                 "m_ptr": "*fp32"},
                    constexprs={"M": 64, "N": 128, "D": 64}, target="sm_90", num_warps=4)
    assert k.asm["ttir"].count('"tle.wgmma {') == 1
    assert re.search(r'"tle\.wgmma \{[^"]*\}" \{[^}]*tle\.marker\.id = \d+ : i64', k.asm["tle-ttir"])
    assert k.asm["triton-ttgir"].count('"tle.wgmma {') > 1  # Triton's copies, which the merge undoes
    assert k.asm["ttgir"].count("ttng.warp_group_dot %") == 1
    assert k.asm["ptx"].count("wgmma.mma_async") == 4


@triton.jit
def _wgmma_loop_stats(q_ptr, k_ptr, m_ptr, l_ptr, n_iter, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    q_buf, k_buf = stage_qk(q_ptr, k_ptr, M, N, D, tl.bfloat16)
    m_i = tl.full([M], float("-inf"), tl.float32)
    l_i = tl.zeros([M], tl.float32)
    for _ in range(n_iter):
        s = tle.gpu.wgmma(q_buf, tle.gpu.memdesc_wgmma_view(k_buf), is_async=False)
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * tl.math.exp2(m_i - m_new) + tl.sum(p, 1)
        m_i = m_new
    tl.store(m_ptr + tl.arange(0, M), m_i)
    tl.store(l_ptr + tl.arange(0, M), l_i)


def _loop_iter_args(ir):
    """The number of iter_args of the (one) scf.for in `ir`."""
    (line,) = [line for line in ir.splitlines() if " scf.for " in line]
    return line.split("iter_args(")[1].split(") ->")[0].count(" = ")


def test_loop_carries_merged_marker_state_once():
    """Online-softmax row statistics of a wgmma result in a loop: Triton's
    layout propagation carries the running max once per layout (3 iter_args
    for 2 values) and copies the marker; once triton-tle-merge-marker-copies
    folds the copies, it drops the duplicated iter_arg too (2 iter_args)."""
    k = tle.compile(_wgmma_loop_stats, signature={"q_ptr": "*bf16", "k_ptr": "*bf16", "m_ptr": "*fp32",
                                                  "l_ptr": "*fp32", "n_iter": "i32"},
                    constexprs={"M": 64, "N": 128, "D": 64}, target="sm_90", num_warps=4)
    assert k.asm["triton-ttgir"].count('"tle.wgmma {') > 1
    assert _loop_iter_args(k.asm["triton-ttgir"]) == 3
    assert _loop_iter_args(k.asm["ttgir"]) == 2
    assert k.asm["ttgir"].count("ttng.warp_group_dot %") == 1
    assert k.asm["ptx"].count("wgmma.mma_async") == 4


def test_propagation_only_touches_wgmma_kernels():
    """Modules without tle.gpu.wgmma keep TLE's stage output as it was."""
    from tle import _bridge
    assert _bridge._WGMMA_MARKER.search('tt.elementwise_inline_asm "tle.wgmma {tle.marker.x}"')
    assert _bridge._WGMMA_MARKER.search('tt.elementwise_inline_asm "tle.wgmma"')
    assert not _bridge._WGMMA_MARKER.search('tt.elementwise_inline_asm "tle.wgmma_wait {pendings = 0}"')
    assert not _bridge._WGMMA_MARKER.search('tt.elementwise_inline_asm "tle.local_load"')


def test_default_shapes_fill_the_gpu(attention):
    assert len(attention.DEFAULT_SHAPES) == 12
    for b, h, n, d, causal in attention.DEFAULT_SHAPES:
        assert b * n == attention.TOKENS and d in (64, 128) and causal in (0, 1)
        assert 1024 <= n <= 16384
        assert b * h * n // 128 >= 4 * 132  # several waves of 128-row CTAs on 132 SMs
        for p in attention.BENCH.providers:
            assert attention.unsupported(p, (b, h, n, d, causal)) is None
    assert attention.flops((1, 1, 1024, 128, 0)) == 4 * 1024 * 1024 * 128
    assert attention.flops((1, 1, 1024, 128, 1)) == 2 * 1024 * 1024 * 128
    assert attention.unsupported("tle", (1, 1, 1000, 128, 0))
    assert attention.unsupported("torch", (1, 1, 1000, 128, 0)) is None


def test_reference_and_check_on_cpu(attention):
    torch = pytest.importorskip("torch")
    import argparse
    gen = torch.Generator().manual_seed(0)
    for causal in (0, 1):
        inp = attention.make_inputs((1, 2, 160, 64, causal), "cpu", gen, argparse.Namespace(triton_config=None))
        ref = attention.reference(inp)
        q, k, v = (inp[x].float() for x in "qkv")
        s = q @ k.transpose(-1, -2) / math.sqrt(64)
        if causal:
            s = s.masked_fill(torch.ones(160, 160, dtype=torch.bool).triu(1), float("-inf"))
        assert torch.allclose(ref, torch.softmax(s, -1) @ v, atol=1e-5)
        attention.check("x", inp, ref.to(torch.bfloat16))
        bad = ref.clone()
        bad[0, 1, 7, 3] += 0.05
        with pytest.raises(AssertionError, match="max"):
            attention.check("x", inp, bad.to(torch.bfloat16))
        with pytest.raises(AssertionError, match="non-finite"):
            attention.check("x", inp, torch.full_like(ref, float("nan")))


# Small shapes, causal and not, both head dims, several CTAs and blocks (N up
# to 1024: every K/V buffer reused); tle-fa3's 192-row form at D = 64 (N from
# 2k; 2176 is not a multiple of 192: the last tile drops rows, and causal,
# a tile's last key block is masked for some warpgroups only); then the
# default shapes at N = 1k, D = 64 and 128, causal and not (the full run died
# at the first causal one, 16x32x1024x64x1, with no provider named).
GPU_SHAPES = ["2x2x128x64x0", "1x3x384x128x1", "2x1x1024x128x0", "1x2x768x64x1", "1x2x1024x64x1",
              "1x2x2176x64x1", "2x1x2176x64x0", "16x32x1024x64x0", "16x32x1024x64x1", "16x16x1024x128x0",
              "16x16x1024x128x1"]


def test_gpu_test_shapes_parse(attention):
    """The shapes of the GPU test and of the quick check (CHECK_SHAPES) parse,
    CAUSAL = 0 included, and every provider supports them."""
    import _harness
    for text in GPU_SHAPES + attention.CHECK_SHAPES:
        shape = _harness.parse_shape(text, 5, attention.BENCH.shape_names, attention.BENCH.zero_ok)
        for p in attention.BENCH.providers:
            assert attention.unsupported(p, shape) is None, (p, text)
    assert any(_harness.parse_shape(t, 5, attention.BENCH.shape_names, attention.BENCH.zero_ok)[4] == 0
               for t in attention.CHECK_SHAPES)


@pytest.mark.skipif(not has_gpu(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("provider", ["tle-fa3", "tle", "triton", "torch"])
def test_provider_is_correct_on_the_gpu(provider):
    """Each provider alone, in a process of its own (a CUDA fault ends its
    process only: the failing test names the provider and the others still
    run); the triton provider at a fixed config (its autotuning is
    exercised by test_bench_gpu.py)."""
    import os
    import subprocess
    cmd = [sys.executable, os.path.join(BENCH_DIR, "attention.py"), "--check", "--seed", "7", "--no-progress",
           "--providers", provider, "--shapes", ",".join(GPU_SHAPES), "--triton-config", "128,64,4,2"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    assert run.stdout.count("checked, ok") == len(GPU_SHAPES), run.stdout[-2000:]
