; The `tle.smem.base N;` marker becomes the constant address of
; @global_smem + align(triton-shared, 128) + N; @global_smem is declared when
; Triton did not; the shared size is base + tle-shared.

; RUN: tle-opt --tle-finish-llir --triton-shared=100 --tle-shared=512 %s | FileCheck %s --check-prefix=B100
; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=512 %s | FileCheck %s --check-prefix=B0
; RUN: tle-opt --tle-finish-llir --triton-shared=128 --tle-shared=64 %s | FileCheck %s --check-prefix=B128
; RUN: tle-opt --tle-finish-llir --triton-shared=129 --tle-shared=64 < %s | FileCheck %s --check-prefix=B129
; The result parses and verifies with LLVM's own tools.
; RUN: tle-opt --tle-finish-llir --triton-shared=100 --tle-shared=512 %s | opt -passes=verify -S -o /dev/null

; B100: ; tle.shared_size = 640
; B100: @global_smem = external addrspace(3) global [0 x i8], align 16
; B100-LABEL: define ptx_kernel void @k(
; B100-NOT: tle.smem.base
; B100: %p = inttoptr i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 192) to i32) to ptr addrspace(3)
; B100: %q = inttoptr i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 128) to i32) to ptr addrspace(3)
; B100: %sum = add i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 192) to i32), 1

; B0: ; tle.shared_size = 512
; B0: %p = inttoptr i32 ptrtoint (ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @global_smem, i32 64) to i32)
; B0: %q = inttoptr i32 ptrtoint (ptr addrspace(3) @global_smem to i32)

; B128: ; tle.shared_size = 192
; B128: getelementptr (i8, ptr addrspace(3) @global_smem, i32 192)

; B129: ; tle.shared_size = 320
; B129: getelementptr (i8, ptr addrspace(3) @global_smem, i32 320)

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

define ptx_kernel void @k(ptr addrspace(1) %out) {
  %a = call i32 asm "tle.smem.base 64;", "=r"()
  %b = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  %q = inttoptr i32 %b to ptr addrspace(3)
  store float 1.0, ptr addrspace(3) %p, align 4
  %v = load float, ptr addrspace(3) %q, align 4
  store float %v, ptr addrspace(1) %out, align 4
  %sum = add i32 %a, 1
  store i32 %sum, ptr addrspace(1) %out, align 4
  ret void
}
