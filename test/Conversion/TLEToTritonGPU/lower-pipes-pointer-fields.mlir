// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes | FileCheck %s --implicit-check-not=tle.pipe
// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipes --triton-tle-lower-local-memory | FileCheck %s --check-prefix=LOWERED

// FlagTree's local_ptr(slot.field): a field some slot view of which local
// pointers take is a pointer buffer. Its views become tle.buffer_slots (with
// the slot's order; the field keeps its order over all dims), which
// triton-tle-lower-local-memory turns into pointers i * 2048 elements into
// the field. The other field is still indexed with ttg.memdesc_index.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32x64xf16, #field, #smem, mutable>, v: !ttg.memdesc<2x32x64xf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @pointer_field
  // CHECK: %[[K:.*]] = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #[[FIELD:shared[0-9]*]], #smem, mutable>
  // CHECK: %[[V:.*]] = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #[[SLOT:shared[0-9]*]], #smem, mutable>
  // CHECK: default
  // CHECK: %[[RK:.*]] = tle.buffer_slot %[[K]][%{{.*}}] : !ttg.memdesc<2x32x64xf16, #[[FIELD]], #smem, mutable>, i32 -> !ttg.memdesc<32x64xf16, #[[SLOT]], #smem, mutable>
  // CHECK-NEXT: tle.local_pointers %[[RK]] :
  // CHECK: partition0
  // CHECK: %[[WK:.*]] = tle.buffer_slot %[[K]]
  // CHECK-NEXT: tle.local_pointers %[[WK]][
  // CHECK: %[[WV:.*]] = ttg.memdesc_index %[[V]]
  // CHECK-NEXT: tle.local_store %{{.*}}, %[[WV]]
  // LOWERED-LABEL: tt.func @pointer_field
  // LOWERED: tle.smem.base 0;
  // LOWERED: arith.constant dense<2048>
  // LOWERED: tt.load %{{.*}} : tensor<32x64x!tt.ptr<f16, 3>, #blocked>
  // LOWERED: tt.store %{{.*}} : tensor<32x64x!tt.ptr<f16, 3>, #blocked>
  tt.func @pointer_field(%idx: tensor<32x64xi32, #blocked>, %x: tensor<32x64xf16, #blocked>) {
    %k = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #field, #smem, mutable>
    %v = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<2x32x64xf16, #field, #smem, mutable>, v = %v : !ttg.memdesc<2x32x64xf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      %rview = tle.pipe.slot %p[%rs] field "k" : !p -> !ttg.memdesc<32x64xf16, #field, #smem, mutable>
      %ptrs = tle.local_pointers %rview : !ttg.memdesc<32x64xf16, #field, #smem, mutable> -> tensor<32x64x!tt.ptr<f16, 3>, #blocked>
      %y = tt.load %ptrs : tensor<32x64x!tt.ptr<f16, 3>, #blocked>
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %wview = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<32x64xf16, #field, #smem, mutable>
      %wptrs = tle.local_pointers %wview[%idx, %idx] : !ttg.memdesc<32x64xf16, #field, #smem, mutable>, tensor<32x64xi32, #blocked>, tensor<32x64xi32, #blocked> -> tensor<32x64x!tt.ptr<f16, 3>, #blocked>
      tt.store %wptrs, %x : tensor<32x64x!tt.ptr<f16, 3>, #blocked>
      %vview = tle.pipe.slot %p[%s] field "v" : !p -> !ttg.memdesc<32x64xf16, #field, #smem, mutable>
      tle.local_store %x, %vview : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
