; A 64-bit shared address ("l") that only statements naming a shared state
; space take is already right and is left alone: Triton's device-side tensor
; descriptors are built in shared memory with
; `tensormap.replace...shared::cta [$0], $1` (FlagTree's sparse-MLA
; tutorial), next to TLE's region. A `.global` access through such an
; operand is still rewritten (finish-llir-ldst.ll).

; RUN: tle-opt --tle-finish-llir --triton-shared=1024 --tle-shared=64 %s | FileCheck %s

; CHECK: ; tle.shared_size = 1088
; CHECK-LABEL: define ptx_kernel void @k
; CHECK: call void asm sideeffect "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ $0 + 0 ], $1;", "l,l"(ptr addrspace(3) %desc, i64 %g)
; CHECK: load float, ptr addrspace(3)

define ptx_kernel void @k(ptr addrspace(3) %desc, i64 %g) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  call void asm sideeffect "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ $0 + 0 ], $1;", "l,l"(ptr addrspace(3) %desc, i64 %g)
  %v = load float, ptr addrspace(3) %p
  store float %v, ptr addrspace(3) %p
  ret void
}

; The descriptor's copy to global memory: `$1` is the shared::cta source
; (the state spaces pair with the addresses in order). A TLE pointer as the
; .global source of `cp.async.ca.shared.global` is still refused
; (finish-llir-invalid.ll).
; CHECK-LABEL: define ptx_kernel void @copy_out
; CHECK: call void asm sideeffect "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ $0 + 0 ], [ $1 + 0 ], 0x80;", "l,l"(ptr addrspace(1) %g, ptr addrspace(3) %desc)

define ptx_kernel void @copy_out(ptr addrspace(3) %desc, ptr addrspace(1) %g) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  call void asm sideeffect "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ $0 + 0 ], [ $1 + 0 ], 0x80;", "l,l"(ptr addrspace(1) %g, ptr addrspace(3) %desc)
  %v = load float, ptr addrspace(3) %p
  store float %v, ptr addrspace(3) %p
  ret void
}
