"""Run the tle.pipe GPU kernels once, for compute-sanitizer's synccheck.

    compute-sanitizer --tool synccheck --error-exitcode 1 \
        python3 python/test/synccheck_pipes.py            # must be clean

Covers every mbarrier protocol triton-tle-lower-pipes emits: rings filled
from registers and by cp.async (each writer thread's
cp.async.mbarrier.arrive.noinc plus the elected arrive) at 1, 2 and 4
producer warps, two readers of one slot, a pipe that is closed, a one-shot
pipe, async-filled slots read in place by wgmma, and slots filled by TMA
row gathers (the commit's arrive.expect_tx; rows outside the table, 1 and
4 producer warps, read by local loads and by wgmma). Each result is checked
against torch as well. (synccheck reported mbarrier errors at the commits of
async-filled pipes when they used the incrementing cp.async.mbarrier.arrive
on a count-1 barrier, before 2026-11-27.)
"""

import os
import sys

import torch
from triton.tools.tensor_descriptor import TensorDescriptor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tle  # noqa: E402
import pipe_kernels as K  # noqa: E402


def main():
    torch.manual_seed(0)
    block = 256
    with tle.enabled():
        for fill in (False, True):
            for stages, warps in ((1, 1), (2, 2), (3, 4)):
                src = torch.randn(3 * 7 * block, device="cuda")
                dst = torch.full_like(src, float("nan"))
                K.ring_copy[(3,)](src, dst, 7, BLOCK=block, STAGES=stages, PRODUCER_WARPS=warps, ASYNC=fill,
                                  num_warps=4)
                torch.testing.assert_close(dst, src * 2 + 1, rtol=0, atol=0)
        src = torch.randn(5 * 128, device="cuda")
        a, b = torch.empty_like(src), torch.empty_like(src)
        K.fan_out[(1,)](src, a, b, 5, BLOCK=128, STAGES=2, num_warps=4)
        torch.testing.assert_close(a, src * 2, rtol=0, atol=0)
        torch.testing.assert_close(b, src * 3, rtol=0, atol=0)
        src = torch.randn(9 * 128, device="cuda")
        dst = torch.empty(128, device="cuda")
        count = torch.full((1,), -1, device="cuda", dtype=torch.int32)
        K.stream_sum[(1,)](src, dst, count, 9, 12, BLOCK=128, STAGES=2, num_warps=4)
        assert count.item() == 9
        torch.testing.assert_close(dst, src.view(9, 128).sum(0), rtol=1e-5, atol=1e-5)
        x = torch.randn(64, 64, device="cuda")
        y = torch.empty_like(x)
        K.one_shot_tile[(1,)](x, y, M=64, N=64, num_warps=4)
        torch.testing.assert_close(y, x + x.sum(1, keepdim=True), rtol=1e-5, atol=1e-4)
        for stages in (1, 3):
            m, bn, d, n = 64, 32, 64, 17
            q = (torch.randn(m, d, device="cuda") / 4).half()
            kv = (torch.randn(n * bn, d, device="cuda") / 4).half()
            out = torch.full((m, d), float("nan"), device="cuda")
            K.ring_dot[(1,)](q, kv, out, n, M=m, BN=bn, D=d, STAGES=stages, ASYNC=True, num_warps=4)
            expect = torch.zeros(m, d, device="cuda")
            for k in kv.view(n, bn, d):
                expect += (q.float() @ k.float().T).half().float() @ k.float()
            torch.testing.assert_close(out, expect, rtol=2e-2, atol=2e-2)
        table = torch.randn(300, 128, device="cuda").half()
        for stages, warps in ((1, 1), (2, 4)):
            idx = torch.randint(-2, 302, (9 * 32,), device="cuda", dtype=torch.int32)
            out = torch.full((9 * 32, 64), float("nan"), device="cuda").half()
            desc = TensorDescriptor(table, list(table.shape), list(table.stride()), [1, 64])
            K.ring_gather[(1,)](desc, idx, out, 9, BN=32, W=64, STAGES=stages, COL=64, PRODUCER_WARPS=warps,
                                num_warps=4)
            inside = (idx >= 0) & (idx < table.shape[0])
            expect = torch.where(inside[:, None], table[idx.clamp(0, 299).long(), 64:], torch.zeros_like(out))
            torch.testing.assert_close(out, expect, rtol=0, atol=0)
        m, bn, d, n = 64, 32, 64, 5
        q = (torch.randn(m, d, device="cuda") / 4).half()
        table = (torch.randn(200, d, device="cuda") / 4).half()
        idx = torch.randint(0, 200, (n * bn,), device="cuda", dtype=torch.int32)
        out = torch.full((m, d), float("nan"), device="cuda")
        desc = TensorDescriptor(table, list(table.shape), list(table.stride()), [1, d])
        K.ring_gather_dot[(1,)](q, desc, idx, out, n, M=m, BN=bn, D=d, STAGES=2, num_warps=4)
        expect = torch.zeros(m, d, device="cuda")
        for k in table[idx.long()].view(n, bn, d):
            expect += (q.float() @ k.float().T).half().float() @ k.float()
        torch.testing.assert_close(out, expect, rtol=2e-2, atol=2e-2)
    torch.cuda.synchronize()
    print("all pipe kernels ran")


if __name__ == "__main__":
    main()
