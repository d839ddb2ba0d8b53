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

// -----

// Slots of a pointer buffer (local pointers into the whole buffer): a store
// into slot i and a load of it are plain stores and loads through pointers
// i * 64 elements into the buffer's base; the slot goes.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @slots_of_a_pointer_buffer
  // CHECK:      %[[BASE:.*]] = tt.int_to_ptr
  // CHECK:      %[[I:.*]] = tt.splat %arg1 : i32 -> tensor<64xi32, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
  // CHECK-NEXT: %[[C64:.*]] = arith.constant dense<64> : tensor<64xi32, #blocked>
  // CHECK-NEXT: %[[IO:.*]] = arith.muli %[[I]], %[[C64]]
  // CHECK-NEXT: %[[O:.*]] = arith.addi %[[IO]], %[[R]]
  // CHECK-NEXT: %[[B:.*]] = tt.splat %[[BASE]] : !tt.ptr<f32, 3> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
  // CHECK-NEXT: %[[P:.*]] = tt.addptr %[[B]], %[[O]]
  // CHECK-NEXT: tt.store %[[P]], %arg0
  // CHECK:      %[[P2:.*]] = tt.addptr
  // CHECK-NEXT: %[[V:.*]] = tt.load %[[P2]]
  // CHECK:      tt.return %[[V]]
  tt.func @slots_of_a_pointer_buffer(%v: tensor<64xf32, #blocked>, %i: i32) -> (tensor<64xf32, #blocked>, tensor<2x64x!tt.ptr<f32, 3>, #blocked2>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64xf32, #shared2, #smem, mutable>
    %all = tle.local_pointers %buf : !ttg.memdesc<2x64xf32, #shared2, #smem, mutable> -> tensor<2x64x!tt.ptr<f32, 3>, #blocked2>
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<2x64xf32, #shared2, #smem, mutable>, i32 -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    tle.local_store %v, %s : tensor<64xf32, #blocked> -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    %w = tle.local_load %s : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64xf32, #blocked>
    tt.return %w, %all : tensor<64xf32, #blocked>, tensor<2x64x!tt.ptr<f32, 3>, #blocked2>
  }
}

// -----

// Local pointers over a whole slot (a pipe slot's field, FlagTree's
// local_ptr(slot.field)): the slot's full view, i * 64 elements into the
// buffer.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared2 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @slot_full_view
  // CHECK:      %[[BASE:.*]] = tt.int_to_ptr
  // CHECK:      %[[I:.*]] = tt.splat %arg0 : i32 -> tensor<64xi32, #blocked>
  // CHECK-NEXT: %[[R:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32}
  // CHECK-NEXT: %[[C64:.*]] = arith.constant dense<64>
  // CHECK-NEXT: %[[IO:.*]] = arith.muli %[[I]], %[[C64]]
  // CHECK-NEXT: %[[O:.*]] = arith.addi %[[IO]], %[[R]]
  // CHECK-NEXT: %[[B:.*]] = tt.splat %[[BASE]]
  // CHECK-NEXT: %[[P:.*]] = tt.addptr %[[B]], %[[O]]
  // CHECK-NEXT: tt.return %[[P]]
  tt.func @slot_full_view(%i: i32) -> tensor<64x!tt.ptr<i32, 3>, #blocked> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64xi32, #shared2, #smem, mutable>
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<2x64xi32, #shared2, #smem, mutable>, i32 -> !ttg.memdesc<64xi32, #shared, #smem, mutable>
    %p = tle.local_pointers %s : !ttg.memdesc<64xi32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<i32, 3>, #blocked>
    tt.return %p : tensor<64x!tt.ptr<i32, 3>, #blocked>
  }
}

// -----

// A buffer in Triton's multi-buffer convention (its order covers one slot,
// as a pipe field's after triton-tle-lower-pipes): the slot dimension is
// outermost, so slot i starts i * 128 elements in and a row is 32.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func @slot_order
  // CHECK:      arith.muli %arg0, %c128_i32
  // CHECK:      arith.muli %arg1, %c32_i32
  // CHECK:      tt.addptr
  tt.func @slot_order(%i: i32, %r: i32, %c: i32) -> !tt.ptr<f32, 3> {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x4x32xf32, #shared1, #smem, mutable>
    %s = tle.buffer_slot %buf[%i] : !ttg.memdesc<2x4x32xf32, #shared1, #smem, mutable>, i32 -> !ttg.memdesc<4x32xf32, #shared1, #smem, mutable>
    %p = tle.local_pointers %s[%r, %c] : !ttg.memdesc<4x32xf32, #shared1, #smem, mutable>, i32, i32 -> !tt.ptr<f32, 3>
    tt.return %p : !tt.ptr<f32, 3>
  }
}
