// RUN: tle-opt %s -split-input-file --triton-tle-merge-wgmma-waits | FileCheck %s

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!A = !ttg.memdesc<64x64xf16, #nvmma, #smem>
!B = !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
!Bar = !ttg.memdesc<1xi64, #bar, #smem, mutable>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // An accumulation split over three dots (S = Q1 K1^T + Q2 K2^T + Q3 K3^T):
  // each dot takes the previous one's result as its accumulator without a
  // wait (crossing the fences between them); one wait, after the last,
  // carries the three dots' operand buffers.
  // CHECK-LABEL: tt.func @chain(
  // CHECK-SAME: %[[A1:[^:]*]]: !ttg.memdesc<{{.*}}>, %[[B1:[^:]*]]: !ttg.memdesc<{{.*}}>, %[[A2:[^:]*]]: !ttg.memdesc<{{.*}}>, %[[B2:[^:]*]]: !ttg.memdesc<{{.*}}>, %[[A3:[^:]*]]: !ttg.memdesc<{{.*}}>, %[[B3:[^:]*]]: !ttg.memdesc<{{.*}}>
  tt.func @chain(%a1: !A, %b1: !B, %a2: !A, %b2: !B, %a3: !A, %b3: !B) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: %[[D1:.*]] = ttng.warp_group_dot %[[A1]], %[[B1]], %{{.*}}
    // CHECK-NEXT: ttng.fence_async_shared
    // CHECK-NEXT: %[[D2:.*]] = ttng.warp_group_dot %[[A2]], %[[B2]], %[[D1]]
    // CHECK-NEXT: ttng.fence_async_shared
    // CHECK-NEXT: %[[D3:.*]] = ttng.warp_group_dot %[[A3]], %[[B3]], %[[D2]]
    // CHECK-NEXT: %[[W:.*]]:7 = ttng.warp_group_dot_wait %[[D3]], %[[A3]], %[[B3]], %[[A2]], %[[B2]], %[[A1]], %[[B1]] {pendings = 0 : i32}
    // CHECK-NOT: ttng.warp_group_dot_wait
    // CHECK: tt.return %[[W]]#0
    %d1 = ttng.warp_group_dot %a1, %b1, %zero {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a1, %b1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    ttng.fence_async_shared {bCluster = false}
    %d2 = ttng.warp_group_dot %a2, %b2, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a2, %b2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    ttng.fence_async_shared {bCluster = false}
    %d3 = ttng.warp_group_dot %a3, %b3, %w2#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w3:3 = ttng.warp_group_dot_wait %d3, %a3, %b3 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w3#0 : tensor<64x64xf32, #mma>
  }

  // Independent dots whose results are used after the last one: all in
  // flight together, one wait carrying every result.
  // CHECK-LABEL: tt.func @independent(
  tt.func @independent(%a: !A, %b1: !B, %b2: !B, %c1: tensor<64x64xf32, #mma>, %c2: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    // CHECK: %[[E1:.*]] = ttng.warp_group_dot
    // CHECK-NEXT: %[[E2:.*]] = ttng.warp_group_dot
    // CHECK-NEXT: %[[W:.*]]:6 = ttng.warp_group_dot_wait %[[E2]], %{{.*}}, %{{.*}}, %[[E1]], %{{.*}}, %{{.*}} {pendings = 0 : i32}
    // CHECK-NEXT: %[[S:.*]] = arith.addf %[[W]]#3, %[[W]]#0
    %e1 = ttng.warp_group_dot %a, %b1, %c1 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %v1:3 = ttng.warp_group_dot_wait %e1, %a, %b1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %e2 = ttng.warp_group_dot %a, %b2, %c2 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %v2:3 = ttng.warp_group_dot_wait %e2, %a, %b2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %s = arith.addf %v1#0, %v2#0 : tensor<64x64xf32, #mma>
    tt.return %s : tensor<64x64xf32, #mma>
  }

  // An mbarrier wait between two dots of a chain (S over the half of a pipe
  // slot that has landed, then a wait for the other half) is crossed: the
  // first dot stays in flight while the warpgroup waits.
  // CHECK-LABEL: tt.func @mbarrier_wait_between(
  tt.func @mbarrier_wait_between(%a1: !A, %b1: !B, %a2: !A, %b2: !B, %bar: !Bar, %phase: i32) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: %[[D1:.*]] = ttng.warp_group_dot
    // CHECK-NEXT: ttng.wait_barrier
    // CHECK-NEXT: ttng.fence_async_shared
    // CHECK-NEXT: %[[D2:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %[[D1]]
    // CHECK-NEXT: %[[W:.*]]:5 = ttng.warp_group_dot_wait %[[D2]], %{{.*}} {pendings = 0 : i32}
    // CHECK-NOT: ttng.warp_group_dot_wait
    // CHECK: tt.return %[[W]]#0
    %d1 = ttng.warp_group_dot %a1, %b1, %zero {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a1, %b1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    ttng.wait_barrier %bar, %phase : !Bar
    ttng.fence_async_shared {bCluster = false}
    %d2 = ttng.warp_group_dot %a2, %b2, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a2, %b2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!A = !ttg.memdesc<64x64xf16, #nvmma, #smem>
!B = !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
!Bar = !ttg.memdesc<1xi64, #bar, #smem, mutable>
!Bm = !ttg.memdesc<64x64xf16, #nvmmaT, #smem, mutable>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Left alone: a result used before the next wait other than as an
  // accumulator (the scaled scores), ...
  // CHECK-LABEL: tt.func @used_between(
  // CHECK-COUNT-2: ttng.warp_group_dot_wait
  tt.func @used_between(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %x = arith.mulf %w1#0, %c : tensor<64x64xf32, #mma>
    %d2 = ttng.warp_group_dot %a, %b, %x {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }

  // ... a write to shared memory or a barrier between the waits (it could
  // overwrite or publish a buffer the first wgmma still reads), ...
  // CHECK-LABEL: tt.func @store_between(
  // CHECK-COUNT-2: ttng.warp_group_dot_wait
  tt.func @store_between(%a: !A, %b: !Bm, %c: tensor<64x64xf32, #mma>, %v: tensor<64x64xf16, #mma>) -> tensor<64x64xf32, #mma> {
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !Bm -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !Bm
    ttg.local_store %v, %b : tensor<64x64xf16, #mma> -> !Bm
    %d2 = ttng.warp_group_dot %a, %b, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !Bm -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !Bm
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }

  // CHECK-LABEL: tt.func @barrier_between(
  // CHECK-COUNT-2: ttng.warp_group_dot_wait
  tt.func @barrier_between(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    gpu.barrier
    %d2 = ttng.warp_group_dot %a, %b, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }

  // ... an mbarrier arrive (it could release a buffer the first wgmma still
  // reads), ...
  // CHECK-LABEL: tt.func @arrive_between(
  // CHECK-COUNT-2: ttng.warp_group_dot_wait
  tt.func @arrive_between(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>, %bar: !Bar) -> tensor<64x64xf32, #mma> {
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    ttng.arrive_barrier %bar, 1 : !Bar
    %d2 = ttng.warp_group_dot %a, %b, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }

  // ... and waits Triton's pipeliner placed (pendings > 0).
  // CHECK-LABEL: tt.func @pipelined(
  // CHECK: ttng.warp_group_dot_wait {{.*}} {pendings = 1 : i32}
  // CHECK: ttng.warp_group_dot_wait {{.*}} {pendings = 0 : i32}
  tt.func @pipelined(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a, %b {pendings = 1 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %d2 = ttng.warp_group_dot %a, %b, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }
}
