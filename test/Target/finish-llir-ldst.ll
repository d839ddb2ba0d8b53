; Triton's ld/st asm on `ptr addrspace(3)`: .global -> .shared, the pointer
; passed as `ptrtoint ... to i32` with constraint `r` instead of `l`; other
; operands, predicates and global-memory asm are untouched.

; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=1024 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=1024 %s | opt -passes=verify -S -o /dev/null
; And NVPTX prints the shared accesses.
; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=1024 %s | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 | FileCheck %s --check-prefix=PTX

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %[[A:.*]] = ptrtoint ptr addrspace(3) %p to i32
; CHECK-NEXT: call void asm sideeffect "st.shared.b32 [ $1 + 0 ], { $0 };", "r,r"(i32 %x, i32 %[[A]])
; CHECK: %[[B:.*]] = ptrtoint ptr addrspace(3) %p to i32
; CHECK-NEXT: %s = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.shared.b32 { $0 }, [ $1 + 0 ];", "=r,r"(i32 %[[B]])
; CHECK: %[[C:.*]] = ptrtoint ptr addrspace(3) %p to i32
; CHECK-NEXT: call void asm sideeffect "st.shared.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,r"(i32 %x, i32 %x, i32 %x, i32 %x, i32 %[[C]])
; CHECK: %[[D:.*]] = ptrtoint ptr addrspace(3) %p to i32
; CHECK-NEXT: %v = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.shared.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,r,b"(i32 1, i32 1, i32 1, i32 1, i32 %[[D]], i1 %m)
; CHECK: call void asm sideeffect "@$2 st.shared.b16 [ $1 + 0 ], { $0 };", "c,r,b"(i16 7, i32 %{{.*}}, i1 %m)
; CHECK: call void asm sideeffect "st.shared.b64 [ $1 + 0 ], { $0 };", "l,r"(i64 9, i32 %{{.*}})
; CHECK: %h = call i8 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.shared.b8 { $0 }, [ $1 + 0 ];", "=c,r"(i32 %{{.*}})
; Global memory and Triton's own shared-memory asm stay as they are.
; CHECK: call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %x, ptr addrspace(1) %out)
; CHECK: call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) %p, <1 x i32> %vx, i1 %m)
; CHECK-NOT: .global{{.*}}addrspace(3)

; PTX: st.shared.b32
; PTX: ld.shared.b32
; PTX: st.shared.v4.b32
; PTX: @%p{{[0-9]+}} ld.shared.v4.b32
; PTX: st.shared.b16
; PTX: st.shared.b64
; PTX: ld.shared.b8
; PTX: st.global.b32

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

define ptx_kernel void @k(ptr addrspace(1) %out, i32 %x, i1 %m) {
  %a = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %a to ptr addrspace(3)
  call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %x, ptr addrspace(3) %p)
  %s = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(3) %p)
  call void asm sideeffect "st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l"(i32 %x, i32 %x, i32 %x, i32 %x, ptr addrspace(3) %p)
  %v = call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, $4;\0A\09mov.u32 $1, $5;\0A\09mov.u32 $2, $6;\0A\09mov.u32 $3, $7;\0A\09@$9 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ];", "=r,=r,=r,=r,r,r,r,r,l,b"(i32 1, i32 1, i32 1, i32 1, ptr addrspace(3) %p, i1 %m)
  call void asm sideeffect "@$2 st.global.b16 [ $1 + 0 ], { $0 };", "c,l,b"(i16 7, ptr addrspace(3) %p, i1 %m)
  call void asm sideeffect "st.global.b64 [ $1 + 0 ], { $0 };", "l,l"(i64 9, ptr addrspace(3) %p)
  %h = call i8 asm sideeffect "mov.u16 $0, 0x0;\0A\09ld.global.b8 { $0 }, [ $1 + 0 ];", "=c,l"(ptr addrspace(3) %p)
  call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %x, ptr addrspace(1) %out)
  %vx = insertelement <1 x i32> poison, i32 %x, i32 0
  call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) %p, <1 x i32> %vx, i1 %m)
  %e0 = extractvalue { i32, i32, i32, i32 } %v, 0
  %t = add i32 %s, %e0
  %h32 = zext i8 %h to i32
  %t2 = add i32 %t, %h32
  call void asm sideeffect "st.global.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %t2, ptr addrspace(1) %out)
  ret void
}
