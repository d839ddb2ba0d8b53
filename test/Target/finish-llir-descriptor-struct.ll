; Triton's own mbarrier asm takes a shared-memory descriptor struct
; ({ptr addrspace(3), i32}, built by insertvalue) whole: a plain data-flow
; use, fine in a shared-state statement and left as it is. The same struct
; read by a statement of no shared state is an error.

; RUN: split-file %s %t
; RUN: tle-opt --tle-finish-llir --triton-shared=64 --tle-shared=64 %t/arrive.ll | FileCheck %s
; RUN: not tle-opt --tle-finish-llir --triton-shared=64 --tle-shared=64 %t/mov.ll 2>&1 | FileCheck %s --check-prefix=MOV

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %d = insertvalue { ptr addrspace(3), i32 } undef, ptr addrspace(3) %bar, 0
; CHECK: call void asm sideeffect "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];", "b,r"(i1 %pred, { ptr addrspace(3), i32 } %e)
; MOV: error: a struct holding a shared pointer is passed to inline asm "mov.b32 $0, $1;" in @k

;--- arrive.ll
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
@global_smem = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @k(i1 %pred, ptr addrspace(1) %out) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  store float 1.0, ptr addrspace(3) %p, align 4
  %bar = getelementptr i8, ptr addrspace(3) @global_smem, i32 8
  %d = insertvalue { ptr addrspace(3), i32 } undef, ptr addrspace(3) %bar, 0
  %e = insertvalue { ptr addrspace(3), i32 } %d, i32 0, 1
  call void asm sideeffect "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];", "b,r"(i1 %pred, { ptr addrspace(3), i32 } %e)
  ret void
}
;--- mov.ll
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
@global_smem = external addrspace(3) global [0 x i8], align 16
define ptx_kernel void @k(ptr addrspace(1) %out) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  %d = insertvalue { ptr addrspace(3), i32 } undef, ptr addrspace(3) %p, 0
  %v = call i32 asm "mov.b32 $0, $1;", "=r,r"({ ptr addrspace(3), i32 } %d)
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}
