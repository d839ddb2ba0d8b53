; LLVM 22's parser renames some NVVM intrinsics that Triton's LLVM still
; declares under their old names (llvm.nvvm.ex2.approx.ftz.f became
; llvm.nvvm.ex2.approx.ftz.f32); Triton's LLVM would emit the new name as a
; call to an external function, which ptxas rejects. The finish prints the
; input's names back. Intrinsics the parser keeps are untouched.

; RUN: tle-opt --tle-finish-llir --tle-shared=16 %s | FileCheck %s

; CHECK: call float @llvm.nvvm.ex2.approx.ftz.f(float %x)
; CHECK: call float @llvm.nvvm.fma.rn.ftz.f(
; CHECK-NOT: ex2.approx.ftz.f32
; CHECK: declare float @llvm.nvvm.ex2.approx.ftz.f(float)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(float %x, ptr addrspace(1) %out) {
  %m = call i32 asm sideeffect "tle.smem.base 0;", "=r"()
  %y = call float @llvm.nvvm.ex2.approx.ftz.f(float %x)
  %z = call float @llvm.nvvm.fma.rn.ftz.f(float %y, float %y, float %y)
  store float %z, ptr addrspace(1) %out
  ret void
}

declare float @llvm.nvvm.ex2.approx.ftz.f(float)
declare float @llvm.nvvm.fma.rn.ftz.f(float, float, float)
