; No marker and no TLE region: the input comes back as it is (even asm on a
; shared pointer is not touched), with Triton's shared size.

; RUN: tle-opt --tle-finish-llir --triton-shared=2048 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=2048 --tle-shared=0 %s | FileCheck %s

; CHECK: ; tle.shared_size = 2048
; CHECK-NEXT: ; No marker and no TLE region
; CHECK: ld.global.b32

define ptx_kernel void @k(ptr addrspace(3) %p) {
  %v = call i32 asm sideeffect "ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(3) %p)
  ret void
}
