; --tma-gather-row-bytes (sm_90): each TMA gather4 that Triton emits for
; ttng.async_tma_gather becomes four one-row 2-D tile copies from the same
; tensor map, to the gather4's destination + i * the row's bytes, on the same
; mbarrier. The row width is that of the grid-constant (host descriptor)
; argument the gather reads: the k-th such argument takes the k-th width.
; Other asm is left alone; without the flag the gather4 stays.

; RUN: split-file %s %t
; RUN: tle-opt --tle-finish-llir --tma-gather-row-bytes=256,128 %t/ok.ll | FileCheck %s
; RUN: tle-opt --tle-finish-llir --tma-gather-row-bytes=256,128 %t/ok.ll | sed 1d | opt -passes=verify -S -o /dev/null
; RUN: tle-opt --tle-finish-llir %t/ok.ll | FileCheck %s --check-prefix=OFF
; RUN: not tle-opt --tle-finish-llir --tma-gather-row-bytes=128 %t/ok.ll 2>&1 | FileCheck %s --check-prefix=FEW
; RUN: not tle-opt --tle-finish-llir --tma-gather-row-bytes=64,64 %t/ok.ll 2>&1 | FileCheck %s --check-prefix=NARROW
; RUN: not tle-opt --tle-finish-llir --tma-gather-row-bytes=128 %t/not-arg.ll 2>&1 | FileCheck %s --check-prefix=NOTARG
; RUN: not tle-opt --tle-finish-llir --tma-gather-row-bytes=128 %t/other-form.ll 2>&1 | FileCheck %s --check-prefix=FORM
; RUN: not tle-opt --tle-finish-llir --tma-gather-row-bytes=128,x %t/ok.ll 2>&1 | FileCheck %s --check-prefix=ARG

; CHECK: ; tle.shared_size = 0
; CHECK-LABEL: define ptx_kernel void @k(
; The second descriptor (%1): 128-byte rows.
; CHECK: call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$8];\0A\09@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1+128], [$2, {$3, $5}], [$8];\0A\09@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1+256], [$2, {$3, $6}], [$8];\0A\09@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1+384], [$2, {$3, $7}], [$8];", "b,r,l,r,r,r,r,r,r"(i1 %p, ptr addrspace(3) %dst, ptr %1, i32 64, i32 %r0, i32 %r1, i32 %r2, i32 %r3, ptr addrspace(3) %bar)
; The first (%0): 256-byte rows.
; CHECK: "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$8];\0A\09@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1+256], [$2, {$3, $5}], [$8];\0A\09@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1+512], [$2, {$3, $6}], [$8];\0A\09@$0 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$1+768], [$2, {$3, $7}], [$8];", "b,r,l,r,r,r,r,r,r"(i1 %p, ptr addrspace(3) %dst, ptr %0,
; CHECK-NOT: gather4
; CHECK: call i32 asm "mov.u32 $0, 1;", "=r"()

; OFF: tile::gather4

; FEW: error: TMA gather4 inline asm {{.*}} in @k reads tensor descriptor 1, but the row widths given cover 1 descriptors
; NARROW: error: TMA gather4 {{.*}}: rows of 64 bytes cannot be copied one by one on sm_90 (TMA needs 128-byte aligned shared-memory addresses)
; NOTARG: error: TMA gather4 {{.*}} reads a tensor map that is not a grid-constant kernel argument
; FORM: error: unexpected TMA gather4 {{.*}}: expected Triton's `@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];` with 9 operands
; ARG: error: invalid value for --tma-gather-row-bytes: '128,x'

;--- ok.ll
target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %0, i32 %n, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %1, i1 %p, ptr addrspace(3) %dst, ptr addrspace(3) %bar, i32 %r0, i32 %r1, i32 %r2, i32 %r3) {
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];", "b,r,l,r,r,r,r,r,r"(i1 %p, ptr addrspace(3) %dst, ptr %1, i32 64, i32 %r0, i32 %r1, i32 %r2, i32 %r3, ptr addrspace(3) %bar)
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];", "b,r,l,r,r,r,r,r,r"(i1 %p, ptr addrspace(3) %dst, ptr %0, i32 0, i32 %r0, i32 %r1, i32 %r2, i32 %r3, ptr addrspace(3) %bar)
  %x = call i32 asm "mov.u32 $0, 1;", "=r"()
  ret void
}

;--- not-arg.ll
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %map, i1 %p, ptr addrspace(3) %dst, ptr addrspace(3) %bar, i32 %r) {
  call void asm sideeffect "@$0 cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6, $7}], [$8];", "b,r,l,r,r,r,r,r,r"(i1 %p, ptr addrspace(3) %dst, ptr %map, i32 0, i32 %r, i32 %r, i32 %r, i32 %r, ptr addrspace(3) %bar)
  ret void
}

;--- other-form.ll
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %0, ptr addrspace(3) %dst, ptr addrspace(3) %bar, i32 %r) {
  call void asm sideeffect "cp.async.bulk.tensor.2d.tile::gather4.shared::cta.global.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3, $3, $3, $3}], [$4];", "r,l,r,r,r"(ptr addrspace(3) %dst, ptr %0, i32 0, i32 %r, ptr addrspace(3) %bar)
  ret void
}
