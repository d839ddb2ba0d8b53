; Qualifiers that only exist for global memory are dropped; a
; `.L2::cache_hint` loses its policy operand, whose constraint and argument
; go, and the operands above it are renumbered. `.volatile` stays.

; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=512 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=512 %s | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 | FileCheck %s --check-prefix=PTX

; The policy's own asm stays (it has side effects); nothing uses it.
; CHECK: %pol = call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"()
; CHECK: call void asm sideeffect "st.shared.b32 [ $1 + 0 ], { $0 };", "r,r"(i32 %x, i32 %{{.*}})
; CHECK: call void asm sideeffect "st.shared.b32 [ $1 + 0 ], { $0 };", "r,r"(i32 %x, i32 %{{.*}})
; CHECK: call void asm sideeffect "st.shared.b32 [ $1 + 0 ], { $0 };", "r,r"(i32 %x, i32 %{{.*}})
; CHECK: %a = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.shared.b32 { $0 }, [ $1 + 0 ];", "=r,r"(i32 %{{.*}})
; CHECK: %b = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.shared.b32 { $0 }, [ $1 + 0 ];", "=r,r"(i32 %{{.*}})
; CHECK: %c = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.shared.b32 { $0 }, [ $1 + 0 ];", "=r,r"(i32 %{{.*}})
; CHECK: %d = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$3 ld.volatile.shared.b32 { $0 }, [ $2 + 0 ];", "=r,r,r,b"(i32 0, i32 %{{.*}}, i1 %m)
; CHECK: %e = call i32 asm sideeffect "ld.shared.b32 { $0 }, [ $1 + 0 ];", "=r,r"(i32 %{{.*}})
; CHECK: %f = call i32 asm sideeffect "ld.shared.b32 { $0 }, [ ${1} ];", "=r,r,~{memory}"(i32 %{{.*}})
; CHECK-NOT: cache_hint.b32
; CHECK-NOT: .cg
; CHECK-NOT: L1::

; PTX-COUNT-3: st.shared.b32
; PTX-COUNT-3: ld.shared.b32
; PTX: @%p{{[0-9]+}} ld.volatile.shared.b32
; PTX-COUNT-2: ld.shared.b32

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

define ptx_kernel void @k(i32 %x, i1 %m, ptr addrspace(1) %out) {
  %base = call i32 asm "tle.smem.base 0;", "=r"()
  %p = inttoptr i32 %base to ptr addrspace(3)
  %pol = call i64 asm sideeffect "mov.u64 $0, 0x0;\0A\09createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"()
  call void asm sideeffect "st.global.cs.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %x, ptr addrspace(3) %p)
  call void asm sideeffect "st.global.L1::evict_first.L2::cache_hint.b32 [ $1 + 0 ], { $0 }, $2;", "r,l,l"(i32 %x, ptr addrspace(3) %p, i64 %pol)
  call void asm sideeffect "st.global.wt.b32 [ $1 + 0 ], { $0 };", "r,l"(i32 %x, ptr addrspace(3) %p)
  %a = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.cg.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(3) %p)
  %b = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.ca.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(3) %p)
  %c = call i32 asm sideeffect "mov.u32 $0, 0x0;\0A\09ld.global.L1::evict_last.L2::cache_hint.b32 { $0 }, [ $1 + 0 ], $2;", "=r,l,l"(ptr addrspace(3) %p, i64 %pol)
  %d = call i32 asm sideeffect "mov.u32 $0, $1;\0A\09@$4 ld.volatile.global.L1::evict_first.L2::cache_hint.b32 { $0 }, [ $2 + 0 ], $3;", "=r,r,l,l,b"(i32 0, ptr addrspace(3) %p, i64 %pol, i1 %m)
  %e = call i32 asm sideeffect "ld.global.nc.L1::no_allocate.L2::256B.b32 { $0 }, [ $1 + 0 ];", "=r,l"(ptr addrspace(3) %p)
  %f = call i32 asm sideeffect "ld.global.lu.b32 { $0 }, [ ${1} ];", "=r,l,~{memory}"(ptr addrspace(3) %p)
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %e
  %s5 = add i32 %s4, %f
  store i32 %s5, ptr addrspace(1) %out, align 4
  ret void
}
