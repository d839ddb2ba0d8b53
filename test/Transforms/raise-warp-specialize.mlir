// RUN: tle-opt %s -split-input-file --triton-tle-raise-warp-specialize | FileCheck %s --implicit-check-not=scf.if --implicit-check-not='"tle.warp_specialize' --implicit-check-not=ub.poison

// tle.gpu.warp_specialize's region markers (docs/markers.md, "Regions"): one
// scf.if per partition, its condition a marker naming the group and region.
// They become one tle.warp_specialize at the default partition's scf.if.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_partitions(
  // CHECK-SAME: %[[X:.*]]: !tt.ptr<f32>, %[[N:.*]]: i32)
  tt.func @two_partitions(%x: !tt.ptr<f32>, %n: i32) {
    // CHECK-NEXT: %[[R:.*]] = tt.make_range
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    // CHECK-NEXT: tle.warp_specialize()
    // CHECK-NEXT: default {
    // CHECK-NEXT: %[[S:.*]] = tt.splat %[[X]]
    // CHECK-NEXT: %[[P:.*]] = tt.addptr %[[S]], %[[R]]
    // CHECK-NEXT: tt.load %[[P]]
    // CHECK-NEXT: tle.warp_yield
    // CHECK-NEXT: }
    // CHECK-NEXT: partition0() num_warps(1) num_regs(40) {
    // CHECK-NEXT: arith.addi %[[N]], %[[N]]
    // CHECK-NEXT: tle.warp_return
    // CHECK-NEXT: }
    // CHECK-NEXT: partition1() num_warps(2) num_regs(48) {
    // CHECK-NEXT: arith.muli %[[N]], %[[N]]
    // CHECK-NEXT: tle.warp_return
    // CHECK-NEXT: } : () -> ()
    // CHECK-NEXT: tt.return
    %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1, 2>, partition_num_regs = array<i32: 40, 48>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m0 {
      %s = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
      %p = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
      %v = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
    }
    %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m1 {
      %a = arith.addi %n, %n : i32
    }
    %m2 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 2 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m2 {
      %b = arith.muli %n, %n : i32
    }
    tt.return
  }

  // Two calls in one kernel are two groups; regions may come in any order.
  // CHECK-LABEL: tt.func @two_groups(
  // CHECK: tle.warp_specialize()
  // CHECK: partition0() num_warps(4) {
  // CHECK-NEXT: arith.subi
  // CHECK: tle.warp_specialize()
  // CHECK-NEXT: default {
  // CHECK-NEXT: arith.xori
  // CHECK: partition0() num_warps(1) {
  // CHECK-NEXT: arith.ori
  tt.func @two_groups(%n: i32) {
    %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 4>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m0 {
      %a = arith.addi %n, %n : i32
    }
    %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m1 {
      %b = arith.subi %n, %n : i32
    }
    %k1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 1 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %k1 {
      %c = arith.ori %n, %n : i32
    }
    %k0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 1 : i32, partition_num_warps = array<i32: 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %k0 {
      %d = arith.xori %n, %n : i32
    }
    tt.return
  }
}

// -----

// Triton deletes the scf.if of an empty partition: its unused marker stands
// for an empty region.
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @empty_partition(
  // CHECK-NEXT: tle.warp_specialize()
  // CHECK-NEXT: default {
  // CHECK-NEXT: arith.addi
  // CHECK-NEXT: tle.warp_yield
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0() num_warps(1) {
  // CHECK-NEXT: tle.warp_return
  // CHECK-NEXT: } : () -> ()
  tt.func @empty_partition(%n: i32) {
    %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m0 {
      %a = arith.addi %n, %n : i32
    }
    %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    tt.return
  }
}

// -----

// The default partition's results (docs/markers.md, "Regions"): its scf.if
// yields them, the else branch (never taken) yields ub.poison, which
// Triton's canonicalizer hoists like a constant. They become the op's
// results (tle.warp_yield) and replace the scf.if's, used after the op; a
// result defined above the partition is yielded as it is. The placeholders
// go.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @default_results(
  // CHECK-SAME: %[[X:.*]]: !tt.ptr<f32>, %[[N:.*]]: i32)
  tt.func @default_results(%x: !tt.ptr<f32>, %n: i32) -> i32 {
    %p0 = ub.poison : tensor<128xf32, #blocked>
    %p1 = ub.poison : i32
    // CHECK-NEXT: %[[R:.*]] = tt.make_range
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    // CHECK-NEXT: %[[S:.*]] = tt.splat %[[X]]
    // CHECK-NEXT: %[[P:.*]] = tt.addptr %[[S]], %[[R]]
    %s = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
    // CHECK-NEXT: %[[WS:.*]]:3 = tle.warp_specialize()
    // CHECK-NEXT: default {
    // CHECK-NEXT: %[[V:.*]] = tt.load %[[P]]
    // CHECK-NEXT: %[[K:.*]] = arith.addi %[[N]], %[[N]]
    // CHECK-NEXT: tle.warp_yield %[[V]], %[[K]], %[[N]] : tensor<128xf32, #{{.*}}>, i32, i32
    // CHECK-NEXT: }
    // CHECK-NEXT: partition0() num_warps(1) {
    // CHECK-NEXT: arith.muli %[[N]], %[[N]]
    // CHECK-NEXT: tle.warp_return
    // CHECK-NEXT: } : () -> (tensor<128xf32, #{{.*}}>, i32, i32)
    %m0 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 0 : i32, tle.marker.group = 0 : i32, partition_num_warps = array<i32: 1>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    %res:3 = scf.if %m0 -> (tensor<128xf32, #blocked>, i32, i32) {
      %v = tt.load %p : tensor<128x!tt.ptr<f32>, #blocked>
      %k = arith.addi %n, %n : i32
      scf.yield %v, %k, %n : tensor<128xf32, #blocked>, i32, i32
    } else {
      scf.yield %p0, %p1, %p1 : tensor<128xf32, #blocked>, i32, i32
    }
    %m1 = tt.elementwise_inline_asm "tle.warp_specialize {tle.marker.partition = 1 : i32, tle.marker.group = 0 : i32}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i1
    scf.if %m1 {
      %b = arith.muli %n, %n : i32
    }
    // The epilogue runs after the op.
    // CHECK-NEXT: %[[W:.*]] = arith.mulf %[[WS]]#0, %[[WS]]#0
    // CHECK-NEXT: tt.store %[[P]], %[[W]]
    // CHECK-NEXT: %[[T:.*]] = arith.addi %[[WS]]#1, %[[WS]]#2
    // CHECK-NEXT: tt.return %[[T]]
    %w = arith.mulf %res#0, %res#0 : tensor<128xf32, #blocked>
    tt.store %p, %w : tensor<128x!tt.ptr<f32>, #blocked>
    %t = arith.addi %res#1, %res#2 : i32
    tt.return %t : i32
  }
}
