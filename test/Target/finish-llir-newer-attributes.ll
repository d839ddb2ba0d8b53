; LLVM 22 auto-upgrades intrinsic declarations with `nocreateundeforpoison`,
; which Triton 3.6's LLVM cannot parse: the finish drops it from declarations
; and call sites, keeping the other attributes.

; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=64 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=0 --tle-shared=64 %s | opt -passes=verify -S -o /dev/null

; CHECK-NOT: nocreateundeforpoison
; CHECK: call i32 @llvm.smin.i32(
; CHECK: call i32 @llvm.ctpop.i32(
; CHECK: declare i32 @llvm.smin.i32(i32, i32) #[[ATTR:[0-9]+]]
; CHECK: attributes #[[ATTR]] = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
; CHECK-NOT: nocreateundeforpoison

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(i32 %n, ptr addrspace(1) %out) {
  %base = call i32 asm sideeffect "tle.smem.base 0;", "=r"()
  %m = call i32 @llvm.smin.i32(i32 %n, i32 7)
  %c = call i32 @llvm.ctpop.i32(i32 %m)
  %s = add i32 %base, %c
  store i32 %s, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.smin.i32(i32, i32)
declare i32 @llvm.ctpop.i32(i32)
