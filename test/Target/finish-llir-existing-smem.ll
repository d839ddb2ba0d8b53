; With Triton's own @global_smem the markers address it, after Triton's
; shared memory, and no second declaration appears.

; RUN: tle-opt --tle-finish-llir --triton-shared=2048 --tle-shared=1024 %s | FileCheck %s

; CHECK: ; tle.shared_size = 3072
; CHECK: @global_smem = external addrspace(3) global [0 x i8], align 16
; CHECK-NOT: @global_smem =
; CHECK-NOT: global_smem.1
; CHECK: inttoptr i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 2064) to i32) to ptr addrspace(3)
; CHECK: getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %i

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @k(i32 %i) {
  %a = call i32 asm "tle.smem.base 16;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  store float 1.0, ptr addrspace(3) %p, align 4
  %t = getelementptr inbounds i8, ptr addrspace(3) @global_smem, i32 %i
  store float 2.0, ptr addrspace(3) %t, align 4
  ret void
}
