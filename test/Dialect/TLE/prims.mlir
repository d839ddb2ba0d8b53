// RUN: tle-opt %s | tle-opt | FileCheck %s

// The wgmma, buffer and barrier primitives round-trip: a register a
// operand of tle.wgmma, fp8 operands, tle.buffer_slot, tle.barrier_try_wait,
// tle.set_layout (TTGIR and TTIR forms).

#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#plain3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bars = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory

// CHECK-LABEL: func.func @register_a
// CHECK: tle.wgmma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16, #blocked>, !ttg.memdesc<32x64xbf16
func.func @register_a(%p: tensor<64x32xbf16, #blocked>, %v: !ttg.memdesc<32x64xbf16, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
  %d = tle.wgmma %p, %v, %acc : tensor<64x32xbf16, #blocked>, !ttg.memdesc<32x64xbf16, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return %d : tensor<64x64xf32, #blocked>
}

// CHECK-LABEL: func.func @fp8
// CHECK: tle.wgmma %{{.*}}, %{{.*}}, %{{.*}} {max_num_imprecise_acc = 64 : i32} : !ttg.memdesc<64x32xf8E4M3FN
func.func @fp8(%a: !ttg.memdesc<64x32xf8E4M3FN, #plain, #smem, mutable>, %b: !ttg.memdesc<32x64xf8E5M2, #plain, #smem, mutable>, %acc: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
  %d = tle.wgmma %a, %b, %acc {max_num_imprecise_acc = 64 : i32} : !ttg.memdesc<64x32xf8E4M3FN, #plain, #smem, mutable>, !ttg.memdesc<32x64xf8E5M2, #plain, #smem, mutable>, tensor<64x64xf32, #blocked>
  return %d : tensor<64x64xf32, #blocked>
}

// CHECK-LABEL: func.func @slots
// CHECK: tle.buffer_slot %{{.*}}[%{{.*}}] : !ttg.memdesc<3x64x32xf16, #{{.*}}, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>
func.func @slots(%i: i32) -> tensor<64x32xf16, #blocked> {
  %buf = tle.alloc smem : () -> !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>
  %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x64x32xf16, #plain3, #smem, mutable>, i32 -> !ttg.memdesc<64x32xf16, #plain, #smem, mutable>
  %v = tle.local_load %s : !ttg.memdesc<64x32xf16, #plain, #smem, mutable> -> tensor<64x32xf16, #blocked>
  return %v : tensor<64x32xf16, #blocked>
}

// CHECK-LABEL: func.func @try_wait
// CHECK: %{{.*}} = tle.barrier_try_wait %{{.*}}[%{{.*}}], %{{.*}} : !ttg.memdesc<2x1xi64
func.func @try_wait(%i: i32, %phase: i32) -> i1 {
  %bars = tle.barrier_alloc arrive_count 1 : !ttg.memdesc<2x1xi64, #bars, #smem, mutable>
  %done = tle.barrier_try_wait %bars[%i], %phase : !ttg.memdesc<2x1xi64, #bars, #smem, mutable>, i32, i32
  return %done : i1
}

// CHECK-LABEL: func.func @set_layout
// CHECK: tle.set_layout %{{.*}} {layout = #{{.*}}} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #{{.*}}>
// CHECK: tle.set_layout %{{.*}} {layout = #{{.*}}} : tensor<64x32xf32> -> tensor<64x32xf32>
func.func @set_layout(%x: tensor<64x32xf32, #blocked>, %t: tensor<64x32xf32>) -> (tensor<64x32xf32, #rows>, tensor<64x32xf32>) {
  %y = tle.set_layout %x {layout = #rows} : tensor<64x32xf32, #blocked> -> tensor<64x32xf32, #rows>
  %u = tle.set_layout %t {layout = #rows} : tensor<64x32xf32> -> tensor<64x32xf32>
  return %y, %u : tensor<64x32xf32, #rows>, tensor<64x32xf32>
}
