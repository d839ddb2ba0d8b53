; --fold-wgmma-descriptors folds the descriptors of one base only where the
; wgmmas that read them sit in blocks ordered by dominance. A base read by a
; wgmma in a loop's body and by one in the block after the loop (which a
; zero-trip loop reaches without running the body), or in the two arms of a
; branch, keeps its descriptors where LLVM hoisted them: folded into both
; blocks, ptxas 12.8 computed them in one only (sm_90a), and the other wgmma
; read undefined uniform registers. This holds for every descriptor of the
; base, whatever its constant: ptxas derives one from another.

; RUN: tle-opt --tle-finish-llir --triton-shared=1024 --fold-wgmma-descriptors %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=1024 --fold-wgmma-descriptors %s | sed 1d | opt -passes=verify -S -o /dev/null

; CHECK-LABEL: define ptx_kernel void @zero_trip(
; %dq (read in the loop only) is folded and erased; %dp0 and %dp1 (the same
; base, read in the loop and after it) stay; %dr (read before the loop and
; in it) stays for the first wgmma, in its own block.
; CHECK: entry:
; CHECK-NEXT: %dr = add i64 %r, 64
; CHECK-NEXT: %dp0 = or disjoint i64 %p, 4611686293305294848
; CHECK-NEXT: %dp1 = add i64 %p, 4611686293305294850
; CHECK-NEXT: call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float 0.000000e+00, float 0.000000e+00, i64 %r, i64 %dr)
; CHECK: body:
; Positive: bases %r (entry dominates body) and %q (body only).
; CHECK: asm sideeffect "{\0A\09.reg .b64 %tle_wd<2>;\0A\09add.s64 %tle_wd0, $4, 0x0000000000000040;\0A\09add.s64 %tle_wd1, $5, 0x0000000000000020;\0A\09wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, %tle_wd0, %tle_wd1, 1, 1, 1, 0, 0;\0A}", "=f,=f,0,1,l,l"(float %acc0, float %acc1, i64 %r, i64 %q)
; Hazard: base %p, also read after the loop.
; CHECK: asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %{{.*}}, float %{{.*}}, i64 %dp0, i64 %q)
; CHECK: last:
; CHECK: asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %{{.*}}, float %{{.*}}, i64 %dp1, i64 %q)
; CHECK-NOT: %tle_wd
; CHECK: ret void

; CHECK-LABEL: define ptx_kernel void @branches(
; Base %p in both arms: stays. Base %q in one arm: folded.
; CHECK: entry:
; CHECK-NEXT: %dp = add i64 %p, 2
; CHECK-NEXT: br i1
; CHECK: then:
; CHECK-NEXT: asm sideeffect "{\0A\09.reg .b64 %tle_wd<1>;\0A\09add.s64 %tle_wd0, $5, 0x0000000000000002;\0A\09wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, %tle_wd0, 1, 1, 1, 0, 0;\0A}", "=f,=f,0,1,l,l"(float 0.000000e+00, float 0.000000e+00, i64 %dp, i64 %q)
; CHECK: else:
; CHECK-NEXT: asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float 0.000000e+00, float 0.000000e+00, i64 %dp, i64 %dp)
; CHECK-NOT: %dq =

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; A loop with its guard (n < 2 skips it), like a flash-attention consumer:
; S = Q K in the loop (Q's base %r also read before the loop), P V in the
; loop and the last block's P V after it, P in one buffer (base %p).
define ptx_kernel void @zero_trip(i64 %p, i64 %q, i64 %r, i32 %n, ptr addrspace(1) %out) {
entry:
  %dr = add i64 %r, 64
  %dq = add i64 %q, 32
  %dp0 = or disjoint i64 %p, 4611686293305294848
  %dp1 = add i64 %p, 4611686293305294850
  %s0 = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float 0.0, float 0.0, i64 %r, i64 %dr)
  %s0.0 = extractvalue { float, float } %s0, 0
  %s0.1 = extractvalue { float, float } %s0, 1
  %skip = icmp slt i32 %n, 2
  br i1 %skip, label %last, label %body

body:
  %i = phi i32 [ 1, %entry ], [ %i1, %body ]
  %acc0 = phi float [ %s0.0, %entry ], [ %pv.0, %body ]
  %acc1 = phi float [ %s0.1, %entry ], [ %pv.1, %body ]
  %s = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %acc0, float %acc1, i64 %dr, i64 %dq)
  %s.0 = extractvalue { float, float } %s, 0
  %s.1 = extractvalue { float, float } %s, 1
  %pv = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %s.0, float %s.1, i64 %dp0, i64 %q)
  %pv.0 = extractvalue { float, float } %pv, 0
  %pv.1 = extractvalue { float, float } %pv, 1
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %last

last:
  %a0 = phi float [ %s0.0, %entry ], [ %pv.0, %body ]
  %a1 = phi float [ %s0.1, %entry ], [ %pv.1, %body ]
  %l = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float %a0, float %a1, i64 %dp1, i64 %q)
  %l.0 = extractvalue { float, float } %l, 0
  store float %l.0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @branches(i64 %p, i64 %q, i1 %c, ptr addrspace(1) %out) {
entry:
  %dp = add i64 %p, 2
  %dq = add i64 %q, 2
  br i1 %c, label %then, label %else

then:
  %t = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float 0.0, float 0.0, i64 %dp, i64 %dq)
  %t.0 = extractvalue { float, float } %t, 0
  br label %join

else:
  %e = call { float, float } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0,$1}, $4, $5, 1, 1, 1, 0, 0;", "=f,=f,0,1,l,l"(float 0.0, float 0.0, i64 %dp, i64 %dp)
  %e.0 = extractvalue { float, float } %e, 0
  br label %join

join:
  %x = phi float [ %t.0, %then ], [ %e.0, %else ]
  store float %x, ptr addrspace(1) %out
  ret void
}
