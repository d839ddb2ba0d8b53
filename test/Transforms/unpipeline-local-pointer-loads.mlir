// RUN: tle-opt %s -split-input-file --triton-tle-unpipeline-local-pointer-loads | FileCheck %s

// FlagTree's GEMM: fp32 tiles read through full-view local
// pointers (a TLE marker) for tt.dot. Triton would issue the loads as
// cp.async from shared memory: the loop gets one stage.
// CHECK-LABEL: tt.func @gemm_f32
// CHECK: scf.for
// CHECK: tt.dot
// CHECK: } {tt.num_stages = 1 : i32}
tt.func @gemm_f32(%h: !tt.ptr<f32, 3>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %s = tt.splat %h : !tt.ptr<f32, 3> -> tensor<64x64x!tt.ptr<f32, 3>>
  %p = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %s : tensor<64x64x!tt.ptr<f32, 3>> -> tensor<64x64x!tt.ptr<f32, 3>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    %a = tt.load %p : tensor<64x64x!tt.ptr<f32, 3>>
    %d = tt.dot %a, %a, %acc : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tt.return %r : tensor<64x64xf32>
}

// -----

// tle.gpu.pipeline(..., num_stages=2) over a 16-bit load whose pointers are
// contiguous (a scalar local pointer plus a range): Triton could take it;
// the user's 2 stages become 1. A cluster pointer (address space 7) counts.
// CHECK-LABEL: tt.func @contiguous_f16
// CHECK: } {tt.num_stages = 1 : i32}
// CHECK-LABEL: tt.func @cluster_f32
// CHECK: } {tt.num_stages = 1 : i32}
tt.func @contiguous_f16(%h: !tt.ptr<f16, 3>, %out: tensor<64x!tt.ptr<f16>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = tt.splat %h : !tt.ptr<f16, 3> -> tensor<64x!tt.ptr<f16, 3>>
  %o = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %p = tt.addptr %s, %o : tensor<64x!tt.ptr<f16, 3>>, tensor<64xi32>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tt.load %p : tensor<64x!tt.ptr<f16, 3>>
    tt.store %out, %a : tensor<64x!tt.ptr<f16>>
  } {tt.num_stages = 2 : i32}
  tt.return
}
tt.func @cluster_f32(%p: tensor<64x!tt.ptr<f32, 7>>, %out: tensor<64x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tt.load %p : tensor<64x!tt.ptr<f32, 7>>
    tt.store %out, %a : tensor<64x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Left alone: a 16-bit load straight from a marker (Triton's AxisInfo
// gives it contiguity 1: "too small"), a scalar load, global loads only, a
// loop the user scheduled (tt.latency) whose local load is not issued
// early already, and a local load outside any loop.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: tt.num_stages = 1
// CHECK: } {tt.num_stages = 3 : i32}
// CHECK-NOT: tt.num_stages = 1
// CHECK: tt.return
tt.func @left_alone(%h: !tt.ptr<f16, 3>, %hs: !tt.ptr<f32, 3>, %g: tensor<64x!tt.ptr<f32>>, %q: tensor<64x!tt.ptr<f32, 3>>, %out: tensor<64x!tt.ptr<f16>>, %outf: tensor<64x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = tt.splat %h : !tt.ptr<f16, 3> -> tensor<64x!tt.ptr<f16, 3>>
  %p = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %s : tensor<64x!tt.ptr<f16, 3>> -> tensor<64x!tt.ptr<f16, 3>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tt.load %p : tensor<64x!tt.ptr<f16, 3>>
    tt.store %out, %a : tensor<64x!tt.ptr<f16>>
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tt.load %hs : !tt.ptr<f32, 3>
    %y = tt.splat %x : f32 -> tensor<64xf32>
    tt.store %outf, %y : tensor<64x!tt.ptr<f32>>
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tt.load %g : tensor<64x!tt.ptr<f32>>
    tt.store %outf, %a : tensor<64x!tt.ptr<f32>>
  } {tt.num_stages = 3 : i32}
  scf.for %i = %c0 to %n step %c1 : i32 {
    %a = tt.load %q {tt.latency = 0 : i32} : tensor<64x!tt.ptr<f32, 3>>
    tt.store %outf, %a : tensor<64x!tt.ptr<f32>>
  } {tt.num_stages = 2 : i32}
  %b = tt.load %q : tensor<64x!tt.ptr<f32, 3>>
  tt.store %outf, %b : tensor<64x!tt.ptr<f32>>
  tt.return
}

// -----

// A user schedule (tle.range pipeline groups gave the loads latencies): the
// local load is not issued early (latency 0), the global load keeps its
// latency, the loop its stages.
// CHECK-LABEL: tt.func @user_schedule
// CHECK: tt.load %arg0 {tt.latency = 1 : i32}
// CHECK-NEXT: tt.load %arg1 {tt.latency = 0 : i32}
// CHECK: } {tt.num_stages = 2 : i32}
tt.func @user_schedule(%g: tensor<64x64x!tt.ptr<f32>>, %l: tensor<64x64x!tt.ptr<f32, 3>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    %a = tt.load %g {tt.latency = 1 : i32} : tensor<64x64x!tt.ptr<f32>>
    %b = tt.load %l {tt.latency = 1 : i32} : tensor<64x64x!tt.ptr<f32, 3>>
    %d = tt.dot %a, %b, %acc : tensor<64x64xf32> * tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tt.num_stages = 2 : i32}
  tt.return %r : tensor<64x64xf32>
}

// -----

// Hidden ordering (FlagTree's remote-dot kernel, one dot per K step): a
// loop Triton would pipeline (a global tile load feeding tt.dot) that
// writes a buffer under an scf.if, meets at a TLE barrier (a side-effecting
// marker) and then reads the buffer, 16-bit straight from a pointer marker,
// inside another scf.if. Triton's scheduler would move the read into the
// dot's cluster, before the write and the barrier: one stage.
// CHECK-LABEL: tt.func @hidden_ordering
// CHECK: tt.dot
// CHECK: } {tt.num_stages = 1 : i32}
tt.func @hidden_ordering(%h: tensor<64x64x!tt.ptr<f16, 3>>, %g: tensor<64x64x!tt.ptr<f16>>, %c: i1, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    %b = tt.load %g : tensor<64x64x!tt.ptr<f16>>
    scf.if %c {
      %w = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %h : tensor<64x64x!tt.ptr<f16, 3>> -> tensor<64x64x!tt.ptr<f16, 3>>
      tt.store %w, %b : tensor<64x64x!tt.ptr<f16, 3>>
    }
    %bar = tt.elementwise_inline_asm "tle.distributed_barrier {tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %a = scf.if %c -> (tensor<64x64xf16>) {
      %p = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %h : tensor<64x64x!tt.ptr<f16, 3>> -> tensor<64x64x!tt.ptr<f16, 3>>
      %v = tt.load %p : tensor<64x64x!tt.ptr<f16, 3>>
      scf.yield %v : tensor<64x64xf16>
    } else {
      %v = arith.constant dense<0.0> : tensor<64x64xf16>
      scf.yield %v : tensor<64x64xf16>
    }
    %d = tt.dot %a, %b, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tt.return %r : tensor<64x64xf32>
}

// -----

// No hidden ordering, or nothing Triton would pipeline: the same loop with
// the barrier but no buffer read (a global dot only); buffer writes and
// reads with a barrier but no dot and no stages (Triton leaves the loop
// alone); reads only, narrow and straight from a marker, in a pipelined
// dot loop (nothing to reorder them against).
// CHECK-LABEL: tt.func @no_hidden_ordering
// CHECK-NOT: tt.num_stages = 1
// CHECK: tt.return
tt.func @no_hidden_ordering(%h: tensor<64x64x!tt.ptr<f16, 3>>, %g: tensor<64x64x!tt.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r0 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    %b = tt.load %g : tensor<64x64x!tt.ptr<f16>>
    %bar = tt.elementwise_inline_asm "tle.distributed_barrier {tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %d = tt.dot %b, %b, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %b = tt.load %g : tensor<64x64x!tt.ptr<f16>>
    %w = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %h : tensor<64x64x!tt.ptr<f16, 3>> -> tensor<64x64x!tt.ptr<f16, 3>>
    tt.store %w, %b : tensor<64x64x!tt.ptr<f16, 3>>
    %bar = tt.elementwise_inline_asm "tle.distributed_barrier {tle.marker.no_results = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    %v = tt.load %w : tensor<64x64x!tt.ptr<f16, 3>>
    tt.store %g, %v : tensor<64x64x!tt.ptr<f16>>
  }
  %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r0) -> (tensor<64x64xf32>) : i32 {
    %b = tt.load %g : tensor<64x64x!tt.ptr<f16>>
    %p = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %h : tensor<64x64x!tt.ptr<f16, 3>> -> tensor<64x64x!tt.ptr<f16, 3>>
    %a = tt.load %p : tensor<64x64x!tt.ptr<f16, 3>>
    %d = tt.dot %a, %b, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tt.return %r1 : tensor<64x64xf32>
}
