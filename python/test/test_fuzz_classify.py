"""scripts/fuzz_tle_opt.py's verdict on one tle-opt run (classify): what
counts as a diagnostic and what as a failure, including the reports of a
tle-opt built with TLE_SANITIZE (scripts/sanitize.sh)."""

import importlib.util
import os

import pytest

from conftest import REPO


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("fuzz_tle_opt", os.path.join(REPO, "scripts", "fuzz_tle_opt.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ASAN = """x.mlir:3:1: error: 'tle.pipe_commit' op slot is not acquired
=================================================================
==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x55 bp 0x7f sp 0x7f
READ of size 8 at 0x602000000010 thread T0
    #0 0x55d1c0 in mlir::Operation::getName() /site/mlir/IR/Operation.h:120
    #1 0x55d1c1 in (anonymous namespace)::MergeWgmmaWaits::runOnOperation() /work/main/lib/Transforms/MergeWgmmaWaits.cpp:812
    #2 0x55d1c2 in main /work/main/tools/tle-opt/tle-opt.cpp:40
"""

UBSAN = """/work/main/lib/Transforms/MergeWgmmaWaits.cpp:97:21: runtime error: shift exponent 64 is too large for 64-bit type 'long unsigned int'
"""

LEAK = """==77==ERROR: LeakSanitizer: detected memory leaks

Direct leak of 64 byte(s) in 1 object(s) allocated from:
    #0 0x7f in operator new(unsigned long) (/usr/lib/x86_64-linux-gnu/libasan.so.8+0xdb)
"""


def test_plain_outcomes(fuzz):
    assert fuzz.classify(0, "", False) == ("ok", "")
    assert fuzz.classify(1, "x.mlir:1:1: error: unknown op 'tt.nope'\n", False) == ("error", "")
    assert fuzz.classify(1, "", False) == ("failure", "exit 1 without an error: diagnostic")
    assert fuzz.classify(0, "", True) == ("failure", "timeout")


def test_address_sanitizer_report_is_a_failure_even_after_a_diagnostic(fuzz):
    # ASan exits 1, and the run had printed a real diagnostic first: without
    # the sanitizer check this would pass for "error".
    kind, signature = fuzz.classify(1, ASAN, False)
    assert kind == "failure"
    assert signature.startswith("AddressSanitizer: heap-use-after-free at mlir::Operation::getName")
    assert "via {anonymous}::MergeWgmmaWaits::runOnOperation" in signature


def test_undefined_behaviour_report_is_a_failure(fuzz):
    # "runtime error:" contains "error:"; it must not count as a diagnostic.
    kind, signature = fuzz.classify(1, UBSAN, False)
    assert kind == "failure"
    assert signature == ("UndefinedBehaviorSanitizer: shift exponent N is too large for N-bit type "
                         "'long unsigned int' (MergeWgmmaWaits.cpp)")


def test_leak_report_is_a_failure(fuzz):
    kind, signature = fuzz.classify(1, "x.mlir:1:1: error: bad\n" + LEAK, False)
    assert kind == "failure"
    assert signature.startswith("LeakSanitizer: detected")


def test_empty_op_name_mutation(fuzz):
    """The empty_op_name mutation: a generic op named by its dialect prefix
    only ("tle."), cut from a generic op or put on a line (tle-opt must
    report it, not abort)."""
    import random
    import re
    mutator = fuzz.Mutator(random.Random(0), [])
    generic = '  %a = "tle.local_pointers"(%b, %o) : (!ttg.memdesc<64xi32>, i32) -> !tt.ptr<i32, 3>\n'
    assert '%a = "tle."(%b, %o) :' in mutator.empty_op_name(generic)
    custom = "tt.func @f() {\n  %a = arith.constant 0 : i32\n  tt.return\n}\n"
    out = mutator.empty_op_name(custom)
    assert re.search(r'^\s*%fuzz_empty = "\w+\."\(', out, re.M), out
    assert "empty_op_name" in dict(fuzz.Mutator.MUTATIONS)
