// RUN: tle-opt %s -split-input-file --triton-tle-lower-pipeline-groups | FileCheck %s

// The FlagFFT reference loop, pipe_stages = [0, 1, 1]: the group-0 loads get
// latency 1 (Triton issues them one stage ahead), the loop gets
// tt.num_stages, the brackets are erased.
// CHECK-LABEL: tt.func @fft_reference
// CHECK: scf.for
// CHECK-NOT: tle.pipeline_group
// CHECK: %[[Q:.*]] = tt.load %arg0 {tt.latency = 1 : i32}
// CHECK-NEXT: %[[K:.*]] = tt.load %arg1 {tt.latency = 1 : i32}
// CHECK-NEXT: tt.trans %[[K]]
// CHECK-NEXT: tt.dot
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {tt.num_stages = 2 : i32}
tt.func @fft_reference(%q: tensor<64x64x!tt.ptr<f16>>, %k: tensor<64x64x!tt.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    tle.pipeline_group_begin 0 stage 0 order 0 groups 3 stages 2
    %a = tt.load %q : tensor<64x64x!tt.ptr<f16>>
    %b = tt.load %k : tensor<64x64x!tt.ptr<f16>>
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 1 stage 1 order 1 groups 3 stages 2
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    tle.pipeline_group_end 1
    tle.pipeline_group_begin 2 stage 1 order 2 groups 3 stages 2
    %d = tt.dot %a, %bt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    tle.pipeline_group_end 2
    scf.yield %d : tensor<64x64xf32>
  }
  tt.return %r : tensor<64x64xf32>
}

// -----

// LOAD_TRANS, pipe_stages = [0, 0, 1]: the transpose shares the loads' stage;
// the loads' data is still consumed one stage later (by the dot), latency 1.
// CHECK-LABEL: tt.func @load_trans
// CHECK: tt.load %arg0 {tt.latency = 1 : i32}
// CHECK: tt.load %arg1 {tt.latency = 1 : i32}
tt.func @load_trans(%q: tensor<64x64x!tt.ptr<f16>>, %k: tensor<64x64x!tt.ptr<f16>>, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32>) : i32 {
    tle.pipeline_group_begin 0 stage 0 order 0 groups 3 stages 2
    %a = tt.load %q : tensor<64x64x!tt.ptr<f16>>
    %b = tt.load %k : tensor<64x64x!tt.ptr<f16>>
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 1 stage 0 order 1 groups 3 stages 2
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    tle.pipeline_group_end 1
    tle.pipeline_group_begin 2 stage 1 order 2 groups 3 stages 2
    %d = tt.dot %a, %bt, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    tle.pipeline_group_end 2
    scf.yield %d : tensor<64x64xf32>
  }
  tt.return %r : tensor<64x64xf32>
}

// -----

// Every group in stage 0: latency 0, so Triton's heuristics do not pipeline
// the loop either.
// CHECK-LABEL: tt.func @one_stage
// CHECK: tt.load %arg0 {tt.latency = 0 : i32}
// CHECK: } {tt.num_stages = 3 : i32}
tt.func @one_stage(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 0 groups 2 stages 3
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 1 stage 0 order 1 groups 2 stages 3
    %y = arith.addf %x, %x : tensor<128xf32>
    tt.store %p, %y : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 1
  }
  tt.return
}

// -----

// An indirect load: A (stage 0) gives B's offsets, B (stage 1) is used in
// stage 2. A's latency counts B's: A 1, B 1 -> Triton's distances 2 and 1,
// stages 0 and 1.
// CHECK-LABEL: tt.func @indirect
// CHECK: %[[A:.*]] = tt.load %arg1 {tt.latency = 1 : i32}
// CHECK: tt.load %{{.*}} {tt.latency = 1 : i32}
tt.func @indirect(%base: tensor<128x!tt.ptr<f32>>, %idx: tensor<128x!tt.ptr<i32>>, %out: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    tle.pipeline_group_begin 0 stage 0 order 0 groups 3 stages 3
    %o = tt.load %idx : tensor<128x!tt.ptr<i32>>
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 1 stage 1 order 1 groups 3 stages 3
    %p = tt.addptr %base, %o : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %p : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 1
    tle.pipeline_group_begin 2 stage 2 order 2 groups 3 stages 3
    tt.store %out, %v : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 2
  }
  tt.return
}

// -----

// pipe_orders = [1, 2, 0]: group 1 (stage 1) moves above groups 0 and 2.
// The ungrouped multiply before the groups goes with its first user
// (group 1) and moves with it; the ungrouped add after the groups, used only
// by the yield, stays with the last group before it (group 1).
// CHECK-LABEL: tt.func @orders
// CHECK: scf.for
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg2, %arg2
// CHECK-NEXT: %[[B:.*]] = arith.addf %[[M]], %arg2
// CHECK-NEXT: %[[S:.*]] = arith.addf %{{.*}}, %[[B]]
// CHECK-NEXT: %[[X:.*]] = tt.load %arg0 {tt.latency = 1 : i32}
// CHECK-NEXT: %[[A:.*]] = arith.subf %[[X]], %[[X]]
// CHECK-NEXT: tt.store %arg0, %[[A]]
// CHECK-NEXT: scf.yield %[[S]]
tt.func @orders(%p: tensor<128x!tt.ptr<f32>>, %q: tensor<128x!tt.ptr<f32>>, %c: tensor<128xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<128xf32>) : i32 {
    %m = arith.mulf %c, %c : tensor<128xf32>
    tle.pipeline_group_begin 0 stage 0 order 1 groups 3 stages 2
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 0
    tle.pipeline_group_begin 2 stage 1 order 2 groups 3 stages 2
    %a = arith.subf %x, %x : tensor<128xf32>
    tt.store %p, %a : tensor<128x!tt.ptr<f32>>
    tle.pipeline_group_end 2
    tle.pipeline_group_begin 1 stage 1 order 0 groups 3 stages 2
    %b = arith.addf %m, %c : tensor<128xf32>
    tle.pipeline_group_end 1
    %s = arith.addf %acc, %b : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  tt.store %q, %r : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Loops without groups are left alone.
// CHECK-LABEL: tt.func @plain
// CHECK: tt.load %arg0 : tensor<128x!tt.ptr<f32>>
// CHECK: } {tt.num_stages = 4 : i32}
tt.func @plain(%p: tensor<128x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tt.load %p : tensor<128x!tt.ptr<f32>>
    tt.store %p, %x : tensor<128x!tt.ptr<f32>>
  } {tt.num_stages = 4 : i32}
  tt.return
}
