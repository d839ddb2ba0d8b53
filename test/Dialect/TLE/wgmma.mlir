// RUN: tle-opt %s | tle-opt | FileCheck %s

// The wgmma ops and the asynchronous copy ops print and parse back.

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
// CHECK-LABEL: func.func @ops(
func.func @ops(%a: !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf16, #plain, #smem, mutable>,
               %acc: tensor<64x64xf32, #blocked>, %v: tensor<64x64xf16, #blocked>,
               %buf: !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, %bars: !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, %i: i32) {
  // CHECK: %[[D:.*]] = tle.wgmma %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<64x32xf16, {{.*}}>, !ttg.memdesc<32x64xf16, {{.*}}>, tensor<64x64xf32, #{{.*}}>
  %d = tle.wgmma %a, %b, %acc : !ttg.memdesc<64x32xf16, #plain, #smem, mutable>, !ttg.memdesc<32x64xf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  // CHECK: tle.wgmma_wait %[[D]], %{{.*}} {pendings = 1 : i32} : tensor<64x64xf32, #{{.*}}>, tensor<64x64xf16, #{{.*}}>
  %r:2 = tle.wgmma_wait %d, %v {pendings = 1 : i32} : tensor<64x64xf32, #blocked>, tensor<64x64xf16, #blocked>
  // CHECK: tle.wgmma_shared_operand_fence
  tle.wgmma_shared_operand_fence
  // CHECK: tle.async_copy_load %{{.*}}, %{{.*}}, %{{.*}}[%{{.*}}] : tensor<64x64xf16
  tle.async_copy_load %v, %buf, %bars[%i] : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>, !ttg.memdesc<2x1xi64, #bar, #smem, mutable>, i32
  // CHECK: tle.async_tma_store %{{.*}}, %{{.*}} : tensor<64x64xf16
  tle.async_tma_store %v, %buf : tensor<64x64xf16, #blocked>, !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
  // CHECK: tle.tma_store_wait 1
  tle.tma_store_wait 1
  return
}

// CHECK-LABEL: func.func @views(
func.func @views(%k: !ttg.memdesc<64x128xf16, #plain, #smem, mutable>, %p: !ttg.memdesc<64x64xf32, #plain, #smem, mutable>) {
  // CHECK: tle.memdesc_wgmma_view %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, {{.*}}> -> !ttg.memdesc<128x64xf16
  %kt = tle.memdesc_wgmma_view %k {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, #plain, #smem, mutable> -> !ttg.memdesc<128x64xf16, #plain, #smem, mutable>
  // CHECK: tle.alloc_alias %{{.*}} : !ttg.memdesc<64x64xf32, {{.*}}> -> !ttg.memdesc<64x64xf16
  %o = tle.alloc_alias %p : !ttg.memdesc<64x64xf32, #plain, #smem, mutable> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
  return
}
