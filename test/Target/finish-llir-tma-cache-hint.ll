; tle.gpu.copy(desc, buf, ..., eviction_policy=): the TMA load predicated on
; a cache-hint marker takes `.L2::cache_hint` and a policy operand made by
; createpolicy; the marker becomes 1. Without a TLE region (tle-shared 0) the
; finish still runs for it. A marker that predicates no TMA load is an error.

; RUN: tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 %s | FileCheck %s
; RUN: tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 %s | opt -passes=verify -S -o /dev/null
; RUN: sed -e 's/ %%p = and i1 %%on, %%leader/ %%p = and i1 true, %%leader/' %s | not tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 - 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: sed -e 's/tle.tma_cache_hint.evict_first;/tle.tma_cache_hint.evict_sometimes;/' %s | not tle-opt --tle-finish-llir --triton-shared=16 --tle-shared=0 - 2>&1 | FileCheck %s --check-prefix=MALFORMED

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK-NOT: tle.tma_cache_hint
; CHECK: %[[POL:.*]] = call i64 asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"()
; CHECK: %[[ON:.*]] = icmp ne i32 1, 0
; CHECK: call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [$1], [$2, {$3, $4}], [$5], $6;", "b,r,l,r,r,r,l"(i1 %p, ptr addrspace(3) %dst, ptr %map, i32 %x, i32 0, ptr addrspace(3) %bar, i64 %[[POL]])
; CHECK: call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %leader, ptr addrspace(3) %dst, ptr %map, i32 %x, i32 0, ptr addrspace(3) %bar)
; CHECK-NOT: tle.tma_cache_hint

; BAD: TMA cache-hint marker {{.*}} predicates no TMA load
; MALFORMED: malformed TMA cache-hint marker

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @k(ptr %map, ptr addrspace(3) %dst, ptr addrspace(3) %bar, i32 %x, i1 %leader) {
  %m = tail call i32 asm sideeffect "tle.tma_cache_hint.evict_first;", "=r"()
  %on = icmp ne i32 %m, 0
  %p = and i1 %on, %leader
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %p, ptr addrspace(3) %dst, ptr %map, i32 %x, i32 0, ptr addrspace(3) %bar)
  ; An unhinted load of the same block: left alone.
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];", "b,r,l,r,r,r"(i1 %leader, ptr addrspace(3) %dst, ptr %map, i32 %x, i32 0, ptr addrspace(3) %bar)
  ret void
}
