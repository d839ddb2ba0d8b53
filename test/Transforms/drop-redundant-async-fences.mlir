// RUN: tle-opt %s -split-input-file --triton-tle-drop-redundant-async-fences | FileCheck %s

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!A = !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
!B = !ttg.memdesc<64x64xf16, #nvmmaT, #smem, mutable>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Triton's fence before each dot of a chain reading buffers it cannot
  // trace: only the first stays (dots, their wait, loads, views and pure ops
  // in between write no memory and do not synchronize).
  // CHECK-LABEL: tt.func @chain(
  // CHECK: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NEXT: ttg.memdesc_trans
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NEXT: ttng.warp_group_dot_wait
  // CHECK-NEXT: ttg.local_load
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NOT: ttng.fence_async_shared
  // CHECK: tt.return
  tt.func @chain(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>, %f: f32) -> (tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>) {
    ttng.fence_async_shared {bCluster = false}
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %t = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !A -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem, mutable>
    %g = arith.addf %f, %f : f32
    ttng.fence_async_shared {bCluster = false}
    %d2 = ttng.warp_group_dot %a, %t, %d1 {inputPrecision = 0 : i32, isAsync = true} : !A * !ttg.memdesc<64x64xf16, #nvmmaT, #smem, mutable> -> tensor<64x64xf32, #mma>
    %w:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %x = ttg.local_load %a : !A -> tensor<64x64xf16, #blocked>
    ttng.fence_async_shared {bCluster = false}
    %d3 = ttng.warp_group_dot %a, %b, %w#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    tt.return %d3, %x : tensor<64x64xf32, #mma>, tensor<64x64xf16, #blocked>
  }

  // Negative: a store to shared memory, a barrier, an mbarrier wait or a
  // loop between two fences keeps the second.
  // CHECK-LABEL: tt.func @kept(
  // CHECK: ttng.fence_async_shared
  // CHECK-NEXT: ttg.local_store
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK-NEXT: ttng.wait_barrier
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK-NEXT: scf.for
  // CHECK: }
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK-NEXT: tt.return
  tt.func @kept(%a: !A, %v: tensor<64x64xf16, #blocked>, %bar: !ttg.memdesc<1xi64, #nvmma, #smem, mutable>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    ttng.fence_async_shared {bCluster = false}
    ttg.local_store %v, %a : tensor<64x64xf16, #blocked> -> !A
    ttng.fence_async_shared {bCluster = false}
    gpu.barrier
    ttng.fence_async_shared {bCluster = false}
    ttng.wait_barrier %bar, %c0, %true : !ttg.memdesc<1xi64, #nvmma, #smem, mutable>
    ttng.fence_async_shared {bCluster = false}
    scf.for %i = %c0 to %n step %c1 : i32 {
      ttg.local_store %v, %a : tensor<64x64xf16, #blocked> -> !A
    }
    ttng.fence_async_shared {bCluster = false}
    tt.return
  }

  // A fence in a loop body follows no fence of its own block: it stays, and
  // the repeat after it goes.
  // CHECK-LABEL: tt.func @loop_body(
  // CHECK: ttng.fence_async_shared
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: ttng.fence_async_shared
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NEXT: scf.yield
  tt.func @loop_body(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    ttng.fence_async_shared {bCluster = false}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32, #mma>) : i32 {
      ttng.fence_async_shared {bCluster = false}
      %d1 = ttng.warp_group_dot %a, %b, %acc {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
      ttng.fence_async_shared {bCluster = false}
      %d2 = ttng.warp_group_dot %a, %b, %d1 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
      scf.yield %d2 : tensor<64x64xf32, #mma>
    }
    tt.return %r : tensor<64x64xf32, #mma>
  }

  // Cluster scope: a CTA fence after a cluster fence goes; a cluster fence
  // after a CTA fence stays (it orders more).
  // CHECK-LABEL: tt.func @scopes(
  // CHECK: ttng.fence_async_shared {bCluster = true}
  // CHECK-NEXT: ttng.warp_group_dot
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
  // CHECK-NEXT: ttng.fence_async_shared {bCluster = true}
  // CHECK-NEXT: tt.return
  tt.func @scopes(%a: !A, %b: !B, %c: tensor<64x64xf32, #mma>) {
    ttng.fence_async_shared {bCluster = true}
    %d1 = ttng.warp_group_dot %a, %b, %c {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    ttng.fence_async_shared {bCluster = false}
    gpu.barrier
    ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = true}
    tt.return
  }
}
