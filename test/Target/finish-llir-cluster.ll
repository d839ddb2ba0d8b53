; Cluster pointers (`ptr addrspace(7)`, from mapa): .global -> .shared::cluster.

; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=512 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=512 %s | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 | FileCheck %s --check-prefix=PTX

; CHECK: %[[Q:.*]] = ptrtoint ptr addrspace(7) %q to i32
; CHECK-NEXT: %v = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.shared::cluster.b32 { $0 }, [ $2 + 0 ];", "=r,r,r,b"(i32 0, i32 %[[Q]], i1 %m)
; CHECK: call void asm sideeffect "st.shared::cluster.b32 [ $1 + 0 ], { $0 };", "r,r"(i32 %v, i32 %{{.*}})
; CHECK: call void asm sideeffect "@$2 st.shared.b32 [ $1 + 0 ], { $0 };", "r,r,b"(i32 %v, i32 %{{.*}}, i1 %m)

; PTX: mapa.shared::cluster.u32
; PTX: ld.shared::cluster.b32
; PTX: st.shared::cluster.b32
; PTX: st.shared.b32

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

define ptx_kernel void @k(i32 %rank, i1 %m) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %r = call i32 asm "mapa.shared::cluster.u32 $0, $1, $2;", "=r,r,r"(i32 %a, i32 %rank)
  %q = inttoptr i32 %r to ptr addrspace(7)
  %p = inttoptr i32 %a to ptr addrspace(3)
  %v = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.global.b32 { $0 }, [ $2 + 0 ];", "=r,r,l,b"(i32 0, ptr addrspace(7) %q, i1 %m)
  call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %v, ptr addrspace(7) %q)
  call void asm sideeffect "@$2 st.global.b32 [ $1 + 0 ], { $0 };", "r,l,b"(i32 %v, ptr addrspace(3) %p, i1 %m)
  ret void
}
