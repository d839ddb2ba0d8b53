// RUN: tle-opt %s -triton-tle-merge-wgmma-waits -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: tle-opt %s -triton-tle-merge-wgmma-waits -debug-only=triton-tle-merge-wgmma-waits -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEBUG

// The functions of merge-wgmma-waits.mlir: seven waits, each right after its
// dot; four fold into a later one (two in @chain, one in @independent, one
// in @mbarrier_wait_between), three remain.
// CHECK: TLEMergeWgmmaWaits
// CHECK-NEXT: (S) 4 waits-merged - wgmma waits folded into the next wait

// -debug-only says why each wait merged or stays (last wait first).
// DEBUG-COUNT-3: triton-tle-merge-wgmma-waits: wait at {{.*}} stays: no later wait in its block
// DEBUG-NOT: stays

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!A = !ttg.memdesc<64x64xf16, #nvmma, #smem>
!B = !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
!Bar = !ttg.memdesc<1xi64, #bar, #smem, mutable>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chain(%a1: !A, %b1: !B, %a2: !A, %b2: !B, %a3: !A, %b3: !B) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
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

  tt.func @independent(%a: !A, %b1: !B, %b2: !B, %c1: tensor<64x64xf32, #mma>, %c2: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %e1 = ttng.warp_group_dot %a, %b1, %c1 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %v1:3 = ttng.warp_group_dot_wait %e1, %a, %b1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %e2 = ttng.warp_group_dot %a, %b2, %c2 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %v2:3 = ttng.warp_group_dot_wait %e2, %a, %b2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    %s = arith.addf %v1#0, %v2#0 : tensor<64x64xf32, #mma>
    tt.return %s : tensor<64x64xf32, #mma>
  }

  tt.func @mbarrier_wait_between(%a1: !A, %b1: !B, %a2: !A, %b2: !B, %bar: !Bar, %phase: i32) -> tensor<64x64xf32, #mma> {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d1 = ttng.warp_group_dot %a1, %b1, %zero {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w1:3 = ttng.warp_group_dot_wait %d1, %a1, %b1 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    ttng.wait_barrier %bar, %phase : !Bar
    ttng.fence_async_shared {bCluster = false}
    %d2 = ttng.warp_group_dot %a2, %b2, %w1#0 {inputPrecision = 0 : i32, isAsync = true} : !A * !B -> tensor<64x64xf32, #mma>
    %w2:3 = ttng.warp_group_dot_wait %d2, %a2, %b2 {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !A, !B
    tt.return %w2#0 : tensor<64x64xf32, #mma>
  }
}

