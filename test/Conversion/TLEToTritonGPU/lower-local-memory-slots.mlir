// RUN: tle-opt %s -split-input-file --triton-tle-lower-local-memory | FileCheck %s --implicit-check-not='tle.local_pointers' --implicit-check-not='tle.buffer_slot'

// Local pointers through buffer slots (FlagTree's local_ptr(buf.slot(i), ...)),
// slots of slots included, address the whole buffer: slot i of a 3x2x64
// buffer starts i * 128 elements in, its slot j a further j * 64.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @slots
  // CHECK:      %[[BASE:.*]] = tt.int_to_ptr
  // CHECK-NEXT: %[[J:.*]] = tt.splat %arg2 : i32 -> tensor<64xi32, #blocked>
  // CHECK-NEXT: %[[I:.*]] = tt.splat %arg1 : i32 -> tensor<64xi32, #blocked>
  // CHECK-NEXT: %[[C128:.*]] = arith.constant dense<128>
  // CHECK-NEXT: %[[IO:.*]] = arith.muli %[[I]], %[[C128]]
  // CHECK-NEXT: %[[C64:.*]] = arith.constant dense<64>
  // CHECK-NEXT: %[[JO:.*]] = arith.muli %[[J]], %[[C64]]
  // CHECK-NEXT: %[[S:.*]] = arith.addi %[[IO]], %[[JO]]
  // CHECK-NEXT: %[[E:.*]] = arith.addi %[[S]], %arg0
  // CHECK-NEXT: %[[B:.*]] = tt.splat %[[BASE]]
  // CHECK-NEXT: %[[P:.*]] = tt.addptr %[[B]], %[[E]]
  // CHECK:      %[[SI:.*]] = arith.muli %arg1, %c128_i32
  // CHECK:      %[[SJ:.*]] = arith.muli %arg2, %c64_i32
  // CHECK-NEXT: %[[SS:.*]] = arith.addi %[[SI]], %[[SJ]]
  // CHECK-NEXT: %[[SE:.*]] = arith.addi %[[SS]], %arg3
  // CHECK-NEXT: %[[Q:.*]] = tt.addptr %[[BASE]], %[[SE]]
  // CHECK-NEXT: tt.return %[[P]], %[[Q]]
  tt.func @slots(%idx: tensor<64xi32, #blocked>, %i: i32, %j: i32, %k: i32) -> (tensor<64x!tt.ptr<i32, 3>, #blocked>, !tt.ptr<i32, 3>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<3x2x64xi32, #shared3, #smem, mutable>
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<3x2x64xi32, #shared3, #smem, mutable>, i32 -> !ttg.memdesc<2x64xi32, #shared2, #smem, mutable>
    %t = tle.buffer_slot %s[%j] : !ttg.memdesc<2x64xi32, #shared2, #smem, mutable>, i32 -> !ttg.memdesc<64xi32, #shared, #smem, mutable>
    %p = tle.local_pointers %t[%idx] : !ttg.memdesc<64xi32, #shared, #smem, mutable>, tensor<64xi32, #blocked> -> tensor<64x!tt.ptr<i32, 3>, #blocked>
    %q = tle.local_pointers %s[%j, %k] : !ttg.memdesc<2x64xi32, #shared2, #smem, mutable>, i32, i32 -> !tt.ptr<i32, 3>
    tt.return %p, %q : tensor<64x!tt.ptr<i32, 3>, #blocked>, !tt.ptr<i32, 3>
  }
}
