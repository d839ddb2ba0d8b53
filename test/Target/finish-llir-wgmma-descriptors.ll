; --fold-wgmma-descriptors: a wgmma descriptor operand that is `add`/`or` of
; a value and a constant, defined in another block (hoisted out of the loop),
; is computed inside the wgmma's asm from the value; only the base stays live
; across the loop. Descriptors computed in the call's own block, ones without
; a constant, and asm that issues no wgmma are left alone.

; RUN: tle-opt --tle-finish-llir --triton-shared=1024 --fold-wgmma-descriptors %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=1024 --fold-wgmma-descriptors %s | sed 1d | opt -passes=verify -S -o /dev/null
; Without the flag (and no TLE region) the IR comes back as it is.
; RUN: tle-opt --tle-finish-llir --triton-shared=1024 %s | FileCheck %s --check-prefix=OFF

; CHECK: ; tle.shared_size = 1024
; CHECK-LABEL: define ptx_kernel void @loop(
; CHECK: entry:
; CHECK-NOT: or disjoint i64 %a, 4611686293305294848
; CHECK-NOT: add nuw nsw i64 %b, 32
; CHECK: body:
; CHECK: call { float, float } asm sideeffect "{\0A\09.reg .b64 %tle_wd<2>;\0A\09or.b64 %tle_wd0, $4, 0x4000004000000000;\0A\09add.s64 %tle_wd1, $5, 0x0000000000000020;\0A\09wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, %tle_wd0, %tle_wd1, 1, 1, 1, 0, 0;\0A}", "=f,=f,0,1,l,l"(float %acc0, float %acc1, i64 %a, i64 %b)
; Same block: stays.
; CHECK: %dc = add i64 %b, 64
; CHECK: asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %{{.*}}, float %{{.*}}, i64 %a, i64 %dc)
; No constant: stays.
; CHECK: asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %{{.*}}, float %{{.*}}, i64 %a, i64 %dv)
; Not a wgmma: stays.
; CHECK: call i64 asm sideeffect "mov.b64 $0, $1;", "=l,l"(i64 %dd)
; One hoisted add feeding both operands: both folded, the add erased once.
; CHECK: asm sideeffect "{\0A\09.reg .b64 %tle_wd<2>;\0A\09add.s64 %tle_wd0, $4, 0x0000000000000080;\0A\09add.s64 %tle_wd1, $5, 0x0000000000000080;\0A\09wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, %tle_wd0, %tle_wd1, 1, 1, 1, 0, 0;\0A}", "=f,=f,0,1,l,l"(float %{{.*}}, float %{{.*}}, i64 %b, i64 %b)
; CHECK-NOT: %de =

; OFF: ; tle.shared_size = 1024
; OFF: %da = or disjoint i64 %a, 4611686293305294848
; OFF: asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %acc0, float %acc1, i64 %da, i64 %db)

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @loop(i64 %a, i64 %b, i64 %v, i32 %n, ptr addrspace(1) %out) {
entry:
  %da = or disjoint i64 %a, 4611686293305294848
  %db = add nuw nsw i64 %b, 32
  %dd = add i64 %a, 96
  %dv = add i64 %a, %v
  %de = add i64 %b, 128
  br label %body

body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc0 = phi float [ 0.0, %entry ], [ %r2.0, %body ]
  %acc1 = phi float [ 0.0, %entry ], [ %r2.1, %body ]
  %r = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %acc0, float %acc1, i64 %da, i64 %db)
  %r.0 = extractvalue { float, float } %r, 0
  %r.1 = extractvalue { float, float } %r, 1
  %dc = add i64 %b, 64
  %r1 = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %r.0, float %r.1, i64 %a, i64 %dc)
  %r1.0 = extractvalue { float, float } %r1, 0
  %r1.1 = extractvalue { float, float } %r1, 1
  %r2 = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %r1.0, float %r1.1, i64 %a, i64 %dv)
  %r2.0 = extractvalue { float, float } %r2, 0
  %r2.1 = extractvalue { float, float } %r2, 1
  %m = call i64 asm sideeffect "mov.b64 $0, $1;", "=l,l"(i64 %dd)
  %r3 = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %r2.0, float %r2.1, i64 %de, i64 %de)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %exit

exit:
  store float %r2.0, ptr addrspace(1) %out
  ret void
}
