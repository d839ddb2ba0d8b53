; An input tied to an output (constraint "<N>") passes through the output's
; register: Triton's wgmma wait keeps the dot's operands alive that way, a
; memdesc's shared base among them (FlagTree's GEMM with fp16 buffers).
; The finish leaves such an asm as it is, next to TLE's region.

; RUN: tle-opt --tle-finish-llir --triton-shared=1024 --tle-shared=64 %s | FileCheck %s

; CHECK: ; tle.shared_size = 1088
; CHECK: call { float, ptr addrspace(3) } asm sideeffect "// wait for regs: $0,$1\0A\09wgmma.wait_group.sync.aligned 0;", "=f,=r,0,1"(float %acc, ptr addrspace(3) %base)
; CHECK: load float, ptr addrspace(3)

define ptx_kernel void @k(float %acc, ptr addrspace(3) %base) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  %w = call { float, ptr addrspace(3) } asm sideeffect "// wait for regs: $0,$1\0A\09wgmma.wait_group.sync.aligned 0;", "=f,=r,0,1"(float %acc, ptr addrspace(3) %base)
  %b = extractvalue { float, ptr addrspace(3) } %w, 1
  %v = load float, ptr addrspace(3) %b
  store float %v, ptr addrspace(3) %p
  ret void
}
