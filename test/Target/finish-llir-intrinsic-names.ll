; LLVM 22's parser renames the NVVM intrinsics whose type suffix was `.f` or
; `.d` to `.f32` / `.f64` (llvm.nvvm.ex2.approx.ftz.f became
; llvm.nvvm.ex2.approx.ftz.f32); Triton's LLVM still declares the old names
; and would emit a new one as a call to an external function, which ptxas
; rejects. The finish prints the input's names back. Intrinsics the parser
; keeps are untouched.

; RUN: tle-opt --tle-finish-llir --tle-shared=16 %s | FileCheck %s

; CHECK: call float @llvm.nvvm.ex2.approx.ftz.f(float %x)
; CHECK: call float @llvm.nvvm.fma.rn.ftz.f(
; CHECK: call double @llvm.nvvm.ex2.approx.d(double %d)
; CHECK-NOT: ex2.approx.ftz.f32
; CHECK-NOT: ex2.approx.f64
; CHECK-DAG: declare float @llvm.nvvm.ex2.approx.ftz.f(float)
; CHECK-DAG: declare double @llvm.nvvm.ex2.approx.d(double)
; CHECK-DAG: declare float @llvm.nvvm.fma.rn.ftz.f(float, float, float)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(float %x, double %d, ptr addrspace(1) %out, ptr addrspace(1) %outd) {
  %m = call i32 asm sideeffect "tle.smem.base 0;", "=r"()
  %y = call float @llvm.nvvm.ex2.approx.ftz.f(float %x)
  %z = call float @llvm.nvvm.fma.rn.ftz.f(float %y, float %y, float %y)
  %e = call double @llvm.nvvm.ex2.approx.d(double %d)
  store float %z, ptr addrspace(1) %out
  store double %e, ptr addrspace(1) %outd
  ret void
}

declare float @llvm.nvvm.ex2.approx.ftz.f(float)
declare float @llvm.nvvm.fma.rn.ftz.f(float, float, float)
declare double @llvm.nvvm.ex2.approx.d(double)
