; tle.gpu.barrier_try_wait: the begin marker, Triton's predicated
; mbarrier wait and the end marker become one mbarrier.try_wait.parity on
; the wait's address and parity, whose 0 / 1 takes the end marker's place.
; Without a TLE region (tle-shared 0) the finish still runs for them.

; RUN: tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 %s | opt -passes=verify -S -o /dev/null
; RUN: sed -e 's/tle.barrier_try_wait.begin;", "=r"()/mov.u32 $0, 1;", "=r"()/' %s | not tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 - 2>&1 | FileCheck %s --check-prefix=BAD

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: tle.barrier_try_wait
; CHECK-NOT: waitLoop
; CHECK: %[[T:.*]] = tail call i32 asm sideeffect "{\0A\09.reg .pred complete;\0A\09mbarrier.try_wait.parity.shared.b64 complete, [$1], $2;\0A\09selp.u32 $0, 1, 0, complete;\0A}", "=r,r,r"(ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 8), i32 %phase)
; CHECK: store i32 %[[T]], ptr addrspace(1) %out
; CHECK-NOT: tle.barrier_try_wait

; BAD: malformed barrier_try_wait marker

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %phase) {
  %b = tail call i32 asm sideeffect "tle.barrier_try_wait.begin;", "=r"()
  %p = icmp ne i32 %b, 0
  tail call void asm sideeffect "\0A{\0A\09@!$2 bra.uni skipWait;\0A\09.reg .pred complete;\0A\09waitLoop:\0A\09mbarrier.try_wait.parity.shared.b64 complete, [$0], $1;\0A\09@!complete bra.uni waitLoop;\0A\09skipWait:\0A}\0A", "r,r,b"(ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 8), i32 %phase, i1 %p)
  %e = tail call i32 asm sideeffect "tle.barrier_try_wait.end;", "=r,r"(i32 %b)
  store i32 %e, ptr addrspace(1) %out
  ret void
}
