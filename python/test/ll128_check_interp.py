"""Run under TRITON_INTERPRET=1 (test_distributed_torchrun.py starts it in a
subprocess): the LL128 line protocol's seal and check on the CPU, against a
reference hash, with lines torn the way a 2 x H200 receiver saw them."""
import os
import sys

os.environ["TRITON_INTERPRET"] = "1"
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

from tle.distributed._allreduce_kernels import LL128_DATA, _ll128_bad_lines, _ll128_seal  # noqa: E402

MIX = 0x9E3779B1


@triton.jit
def seal(X, OUT, flag, BLOCK: tl.constexpr):
    k = tl.arange(0, BLOCK)
    tl.store(OUT + k, _ll128_seal(tl.load(X + k), flag, BLOCK))


@triton.jit
def bad(V, OUT, flag, LIVE_WORDS, BLOCK: tl.constexpr):
    k = tl.arange(0, BLOCK)
    tl.store(OUT, _ll128_bad_lines(tl.load(V + k), k < LIVE_WORDS, flag, BLOCK))


def reference_check(line):
    """The check word of a 32-word line (uint32 arithmetic)."""
    h = 0
    for j, w in enumerate(line):
        if j != LL128_DATA.value:
            h ^= ((w & 0xFFFFFFFF) * ((MIX + 2 * j) & 0xFFFFFFFF)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def bad_lines(v, flag, live_words=128):
    n = torch.zeros(1, dtype=torch.int32)
    bad[(1,)](v, n, flag, live_words, BLOCK=128)
    return n.item()


def main():
    assert LL128_DATA.value == 30
    gen = torch.Generator().manual_seed(5)
    old, new = (torch.randint(-2**31, 2**31 - 1, (128,), dtype=torch.int32, generator=gen) for _ in range(2))
    sealed_old, sealed_new = torch.empty_like(old), torch.empty_like(new)
    seal[(1,)](old, sealed_old, 41, BLOCK=128)
    seal[(1,)](new, sealed_new, 43, BLOCK=128)
    for s, x, flag in ((sealed_old, old, 41), (sealed_new, new, 43)):
        lines = s.view(4, 32)
        assert torch.equal(lines[:, :30], x.view(4, 32)[:, :30]), "data words moved"
        assert (lines[:, 31] == flag).all(), "flag word"
        for line in lines.tolist():
            assert line[30] == reference_check(line), (line[30], reference_check(line))
    assert bad_lines(sealed_new, 43) == 0
    assert bad_lines(sealed_new, 41) == 4  # an older launch's flag: every line polled again
    # Torn lines as seen on 2 x H200: the new flag beside the old data, one
    # 32-byte sector (8 words) or a single word still old.
    torn = sealed_new.clone()
    torn.view(4, 32)[0, :8] = sealed_old.view(4, 32)[0, :8]
    torn.view(4, 32)[2, 5] = sealed_old.view(4, 32)[2, 5]
    assert bad_lines(torn, 43) == 2
    # The old line's words with only the last sector (check word and flag) new.
    torn = sealed_old.clone()
    torn.view(4, 32)[1, 24:] = sealed_new.view(4, 32)[1, 24:]
    assert bad_lines(torn, 43) == 4  # lines 0, 2, 3 carry the old flag; line 1 fails its check word
    # Lines past the live words are not looked at.
    assert bad_lines(torn, 43, live_words=64) == 2
    print("ll128 check: ok", flush=True)


if __name__ == "__main__":
    sys.exit(main())
