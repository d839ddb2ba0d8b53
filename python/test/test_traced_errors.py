"""Errors inside the functions TLE traces carry their own message and the
user's line in str(e): warp_specialize partitions (and the
functions they call), pipe keywords misspelled, and pipes that can never
make progress."""

import os

import pytest
import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

import tle

TARGET = "sm_90"
HERE = os.path.abspath(__file__)


def line_of(text):
    """The line number of ``text`` in this file."""
    with open(HERE) as f:
        return next(i for i, line in enumerate(f, 1) if text in line and "line_of(" not in line)


@triton.jit
def _consumer_bad_field(r, dst, BLOCK: tl.constexpr):
    slot, closed = r.wait()
    x = tle.gpu.local_load(slot["y"])  # no field y
    r.release(slot)
    tl.store(dst + tl.arange(0, BLOCK), x)


@triton.jit
def _producer(w, src, BLOCK: tl.constexpr):
    slot = w.acquire()
    tle.gpu.local_store(slot["x"], tl.load(src + tl.arange(0, BLOCK)))
    w.commit(slot)


@triton.jit
def _load_field_y(slot):
    return tle.gpu.local_load(slot["y"])  # called by a worker


@triton.jit
def _worker_bad_field_in_helper(r, dst, BLOCK: tl.constexpr):
    slot, closed = r.wait()
    x = _load_field_y(slot)
    r.release(slot)
    tl.store(dst + tl.arange(0, BLOCK), x)


@triton.jit
def _consumer(r, dst, BLOCK: tl.constexpr):
    slot, closed = r.wait()
    x = tle.gpu.local_load(slot["x"])
    r.release(slot)
    tl.store(dst + tl.arange(0, BLOCK), x)


@triton.jit
def bad_field_in_default(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", readers="c", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_consumer_bad_field, (p.reader("c"), dst, BLOCK)),
                             (_producer, (p.writer(), src, BLOCK))], worker_num_warps=[1])


@triton.jit
def bad_field_in_worker_helper(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", readers="c", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_producer, (p.writer(), src, BLOCK)),
                             (_worker_bad_field_in_helper, (p.reader("c"), dst, BLOCK))], worker_num_warps=[1])


SIG = {"src": "*fp32", "dst": "*fp32"}


def compile_error(kernel, signature=SIG, **constexprs):
    with pytest.raises(CompilationError) as info:
        tle.compile(kernel, signature=signature, constexprs={"BLOCK": 128, **constexprs}, target=TARGET)
    return str(info.value)


def test_error_in_partition_shows_its_message_and_line():
    text = compile_error(bad_field_in_default)
    assert "pipe slot field: pipe 'ring' has no field 'y' (fields: ['x'])" in text
    assert "tle.gpu.warp_specialize: partition 0 (_consumer_bad_field) failed:" in text
    assert f'File "{HERE}", line {line_of("x = tle.gpu.local_load(slot[" + chr(34) + "y")}, ' \
           "in _consumer_bad_field" in text
    assert 'x = tle.gpu.local_load(slot["y"])' in text
    # The warp_specialize call once, not twice.
    assert text.count("tle.gpu.warp_specialize([") == 1


def test_error_in_function_a_worker_calls_shows_both_lines():
    text = compile_error(bad_field_in_worker_helper)
    assert "partition 1 (_worker_bad_field_in_helper) failed:" in text
    worker = text.index("in _worker_bad_field_in_helper")
    helper = text.index("in _load_field_y")
    assert worker < helper < text.index("pipe 'ring' has no field 'y'")
    assert f"line {line_of('x = _load_field_y(slot)')}, in _worker_bad_field_in_helper" in text
    assert f"line {line_of('return tle.gpu.local_load(slot[')}, in _load_field_y" in text


# --- tle.pipe keywords


@triton.jit
def misspelled_readers(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", readrs="c", x=([BLOCK], tl.float32))


@triton.jit
def misspelled_one_shot(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", one_shoot=True, x=([BLOCK], tl.float32))


@triton.jit
def not_a_field(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", x=([BLOCK], tl.float32), depth=3)


@pytest.mark.parametrize("kernel,keyword,hint", [
    (misspelled_readers, "'readrs' = 'c'", "did you mean 'readers'?"),
    (misspelled_one_shot, "'one_shoot' = True", "did you mean 'one_shot'?"),
])
def test_misspelled_pipe_keyword_is_not_a_field(kernel, keyword, hint):
    text = compile_error(kernel)
    assert f"tle.pipe got keyword {keyword}, which is not a parameter of tle.pipe" in text, text
    assert hint in text and "p = tle.pipe(2" in text


def test_other_keyword_is_a_field():
    """A keyword like no parameter is a field, checked as one."""
    text = compile_error(not_a_field)
    assert "field 'depth'" in text and "did you mean" not in text, text


# --- pipes that cannot make progress (docs/warp-specialize.md, "Limits")


@triton.jit
def _never_releases(r, dst, BLOCK: tl.constexpr):
    for i in range(4):
        slot, closed = r.wait()  # never released
        tl.store(dst + i * BLOCK + tl.arange(0, BLOCK), tle.gpu.local_load(slot["x"]))


@triton.jit
def _producer_loop(w, src, BLOCK: tl.constexpr):
    for i in range(4):
        slot = w.acquire()
        tle.gpu.local_store(slot["x"], tl.load(src + i * BLOCK + tl.arange(0, BLOCK)))
        w.commit(slot)


@triton.jit
def _never_commits(w, src, BLOCK: tl.constexpr):
    slot = w.acquire()  # never committed
    tle.gpu.local_store(slot["x"], tl.load(src + tl.arange(0, BLOCK)))


@triton.jit
def reader_never_releases(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", readers="c", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_never_releases, (p.reader("c"), dst, BLOCK)),
                             (_producer_loop, (p.writer(), src, BLOCK))], worker_num_warps=[1])


@triton.jit
def writer_never_commits(src, dst, BLOCK: tl.constexpr):
    p = tle.pipe(2, name="ring", readers="c", x=([BLOCK], tl.float32))
    tle.gpu.warp_specialize([(_consumer, (p.reader("c"), dst, BLOCK)),
                             (_never_commits, (p.writer(), src, BLOCK))], worker_num_warps=[1])


def _stage_error(kernel):
    from tle import MLIRError
    with pytest.raises(MLIRError) as info:
        tle.compile(kernel, signature=SIG, constexprs={"BLOCK": 128}, target=TARGET)
    return str(info.value)


def test_reader_that_never_releases_is_an_error_at_its_wait():
    text = _stage_error(reader_never_releases)
    assert "reader 'c' waits for slots but never releases one" in text
    assert f":{line_of('# never released')}:" in text, text


def test_writer_that_never_commits_is_an_error_at_its_acquire():
    text = _stage_error(writer_never_commits)
    assert "the writer acquires slots but never commits one" in text
    assert f":{line_of('slot = w.acquire()  # never committed')}:" in text, text
