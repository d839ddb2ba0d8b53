; tle.distributed_barrier grid: each `tle.grid_barrier;` marker becomes the
; grid barrier on one zero-initialized global {count, generation} pair that
; the module's barriers share (thread 0 arrives with a release atomic add at
; gpu scope; the last arrival resets the count and publishes the next
; generation; the others poll it with acquire loads). Without a TLE region
; (tle-shared 0) the finish still runs for them. A marker with operands is
; an error naming it.

; RUN: tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 %s | opt -passes=verify -S -o /dev/null
; RUN: sed -e 's/"tle.grid_barrier;", "=r"()/"tle.grid_barrier;", "=r,r"(i32 %n)/' %s | not tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 - 2>&1 | FileCheck %s --check-prefix=BAD

; CHECK: @__tle_grid_barrier = internal addrspace(1) global [2 x i32] zeroinitializer, align 8
; CHECK-NOT: @__tle_grid_barrier{{.*}}global
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: tle.grid_barrier;
; CHECK: call void asm sideeffect "{{.*}}atom.add.release.gpu.u32 old, [$0], 1;{{.*}}st.release.gpu.u32 [$0+4], gen;{{.*}}ld.acquire.gpu.u32 seen, [$0+4];{{.*}}", "l,~{memory}"(ptr addrspace(1) @__tle_grid_barrier)
; CHECK: store i32 %n, ptr addrspace(1) %out
; CHECK: call void asm sideeffect "{{.*}}", "l,~{memory}"(ptr addrspace(1) @__tle_grid_barrier)
; CHECK-NOT: tle.grid_barrier;

; BAD: malformed grid barrier marker

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %n) {
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %a = tail call i32 asm sideeffect "tle.grid_barrier;", "=r"()
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store i32 %n, ptr addrspace(1) %out
  %b = tail call i32 asm sideeffect "tle.grid_barrier;", "=r"()
  ret void
}

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
