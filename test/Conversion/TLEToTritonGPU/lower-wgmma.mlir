// RUN: tle-opt %s -split-input-file --triton-tle-lower-wgmma | FileCheck %s --implicit-check-not=tle.wgmma

// An accumulator loop: the acc enters the wgmma layout once before the
// loop (convert of the zeros), stays in it through the iter_arg, the
// wgmma and the pendings-1 wait, and leaves it after the pendings-0 wait.
// The operand buffers take NVMMA layouts (64 fp16 = 128-byte rows: 128B
// swizzle; 32 fp16 = 64-byte rows: 64B).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
  // CHECK-DAG: #[[SW128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
  // CHECK-DAG: #[[SW64:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @loop(
  tt.func @loop(%n: i32, %out: tensor<64x32x!tt.ptr<f32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #blocked>
    // CHECK: %[[A:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[SW128]], #smem, mutable>
    // CHECK: %[[B:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #[[SW64]], #smem, mutable>
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %b = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
    // CHECK: %[[INIT:.*]] = ttg.convert_layout %{{.*}} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #[[MMA]]>
    // CHECK-NEXT: %[[LOOP:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x32xf32, #[[MMA]]>)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x32xf32, #blocked>) : i32 {
      // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[A]], %[[B]], %[[ACC]] {isAsync = true} : !ttg.memdesc<64x64xf16, #[[SW128]], #smem, mutable> * !ttg.memdesc<64x32xf16, #[[SW64]], #smem, mutable> -> tensor<64x32xf32, #[[MMA]]>
      // CHECK-NEXT: %[[W:.*]] = ttng.warp_group_dot_wait %[[D]] {pendings = 1 : i32} : tensor<64x32xf32, #[[MMA]]>
      // CHECK-NEXT: scf.yield %[[W]] : tensor<64x32xf32, #[[MMA]]>
      %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, tensor<64x32xf32, #blocked>
      %w = tle.wgmma_wait %d {pendings = 1 : i32} : tensor<64x32xf32, #blocked>
      scf.yield %w : tensor<64x32xf32, #blocked>
    }
    // CHECK: %[[DONE:.*]] = ttng.warp_group_dot_wait %[[LOOP]] {pendings = 0 : i32} : tensor<64x32xf32, #[[MMA]]>
    // CHECK-NEXT: %[[OUT:.*]] = ttg.convert_layout %[[DONE]] : tensor<64x32xf32, #[[MMA]]> -> tensor<64x32xf32, #blocked>
    // CHECK-NEXT: tt.store %{{.*}}, %[[OUT]] : tensor<64x32x!tt.ptr<f32>, #blocked>
    %done = tle.wgmma_wait %r {pendings = 0 : i32} : tensor<64x32xf32, #blocked>
    tt.store %out, %done : tensor<64x32x!tt.ptr<f32>, #blocked>
    // CHECK: ttng.fence_async_shared {bCluster = false}
    tle.wgmma_shared_operand_fence
    tt.return
  }
}

// -----

// wgmmas in both branches of an scf.if: its result joins the web; 8 warps
// and M = 64: two warpgroups split N (warpsPerCTA [4, 2], 64 columns each).
// Buffers laid out in an NVMMA layout already keep it.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK: #[[MMA2:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>
  // CHECK-LABEL: tt.func @branches(
  tt.func @branches(%c: i1, %acc: tensor<64x128xf32, #blocked>) -> tensor<64x128xf32, #blocked> {
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #nv, #smem, mutable>
    %b = tle.alloc smem : () -> !ttg.memdesc<64x128xf16, #plain, #smem, mutable>
    // CHECK: scf.if %{{.*}} -> (tensor<64x128xf32, #[[MMA2]]>)
    // CHECK: ttng.warp_group_dot {{.*}} : !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable> * {{.*}} -> tensor<64x128xf32, #[[MMA2]]>
    // CHECK: } else {
    // CHECK: ttng.warp_group_dot
    %r = scf.if %c -> (tensor<64x128xf32, #blocked>) {
      %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x64xf16, #nv, #smem, mutable>, !ttg.memdesc<64x128xf16, #plain, #smem, mutable>, tensor<64x128xf32, #blocked>
      scf.yield %d : tensor<64x128xf32, #blocked>
    } else {
      %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x64xf16, #nv, #smem, mutable>, !ttg.memdesc<64x128xf16, #plain, #smem, mutable>, tensor<64x128xf32, #blocked>
      scf.yield %d : tensor<64x128xf32, #blocked>
    }
    // CHECK: %[[W:.*]] = ttng.warp_group_dot_wait %{{.*}} {pendings = 0 : i32} : tensor<64x128xf32, #[[MMA2]]>
    // CHECK-NEXT: %[[O:.*]] = ttg.convert_layout %[[W]] : tensor<64x128xf32, #[[MMA2]]> -> tensor<64x128xf32, #blocked>
    // CHECK-NEXT: tt.return %[[O]]
    %w = tle.wgmma_wait %r {pendings = 0 : i32} : tensor<64x128xf32, #blocked>
    tt.return %w : tensor<64x128xf32, #blocked>
  }
}

// -----

// A transposed view of K as the B operand (Q @ K^T): K takes its NVMMA
// layout, the view becomes a ttg.memdesc_trans whose layout is transposed.
// An alias becomes a ttg.memdesc_reinterpret of its buffer.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#colmajor = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-DAG: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
  // CHECK-DAG: #[[NVT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @qkt(
  tt.func @qkt(%acc: tensor<64x32xf32, #blocked>) -> tensor<64x32xf32, #blocked> {
    // CHECK: %[[Q:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable>
    // CHECK: %[[K:.*]] = tle.alloc smem : () -> !ttg.memdesc<32x64xf16, #[[NV]], #smem, mutable>
    %q = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %k = tle.alloc smem : () -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
    // CHECK: %[[KT:.*]] = ttg.memdesc_trans %[[K]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #[[NV]], #smem, mutable> -> !ttg.memdesc<64x32xf16, #[[NVT]], #smem, mutable>
    %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> !ttg.memdesc<64x32xf16, #colmajor, #smem, mutable>
    // CHECK: ttng.warp_group_dot %[[Q]], %[[KT]], %{{.*}} {isAsync = true}
    %d = tle.wgmma %q, %kt, %acc : !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<64x32xf16, #colmajor, #smem, mutable>, tensor<64x32xf32, #blocked>
    %w = tle.wgmma_wait %d {pendings = 0 : i32} : tensor<64x32xf32, #blocked>
    // CHECK: %[[P:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #{{[a-z_0-9]+}}, #smem, mutable>
    // CHECK-NEXT: %[[O:.*]] = ttg.memdesc_reinterpret %[[P]] : !ttg.memdesc<64x64xf32, {{.*}}> -> !ttg.memdesc<64x64xf16, {{.*}}>
    // CHECK-NEXT: tle.local_load %[[O]]
    %p = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #plain, #smem, mutable>
    %o = tle.alloc_alias %p : !ttg.memdesc<64x64xf32, #plain, #smem, mutable> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %l = tle.local_load %o : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
    tt.return %w : tensor<64x32xf32, #blocked>
  }
}
