// RUN: tle-opt %s -split-input-file -triton-tle-forward-buffer-loads | FileCheck %s

// Sparse MLA's P exchange: P is stored to a buffer, loaded back (blocked) and
// re-staged by Triton into a copy that is loaded in the dot-operand layout.
// The dot-operand load reads the buffer; the copy and the first load go. A
// pure op in between (arith) does not stop it.

// CHECK-LABEL: tt.func @p_exchange(
// CHECK-SAME: %[[P:[^:]*]]: tensor<64x64xbf16, #mma>
// CHECK: %[[BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
// CHECK-NEXT: ttg.local_store %[[P]], %[[BUF]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: %[[A:.+]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: tt.return %[[A]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 256, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @p_exchange(%p: tensor<64x64xbf16, #mma>, %f: f32) -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    ttg.local_store %p, %buf : tensor<64x64xbf16, #mma> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %g = arith.addf %f, %f : f32
    %c = ttg.local_alloc %x : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared, #smem>
    %a = ttg.local_load %c : !ttg.memdesc<64x64xbf16, #shared, #smem> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %a : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// The first load has another user: it stays, the copy goes. The async
// token of the first load is carried to the forwarded load.

// CHECK-LABEL: tt.func @shared_first_load(
// CHECK: %[[X:.+]] = ttg.local_load %[[BUF:[^ ]+]] token %[[T:[^ ]+]] :
// CHECK-NOT: ttg.local_alloc %
// CHECK: %[[A:.+]] = ttg.local_load %[[BUF]] token %[[T]] : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK: tt.return %[[X]], %[[A]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 256, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_first_load(%buf: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, %t: !ttg.async.token) -> (tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %x = ttg.local_load %buf token %t : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared1, #smem>
    %a = ttg.local_load %c : !ttg.memdesc<64x64xbf16, #shared1, #smem> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %x, %a : tensor<64x64xbf16, #blocked>, tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// The buffer is written between the first load and the copy's load, so the
// copy holds the old contents: the buffer is read in the operand layout just
// before the store (it still holds what the first load read); the copy and
// the first load go.

// CHECK-LABEL: tt.func @written_between(
// CHECK-NEXT: %[[A:.+]] = ttg.local_load %arg0 : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: ttg.local_store %arg1, %arg0
// CHECK-NEXT: tt.return %[[A]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 256, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @written_between(%buf: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, %q: tensor<64x64xbf16, #blocked>) -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> {
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared, #smem>
    ttg.local_store %q, %buf : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
    %a = ttg.local_load %c : !ttg.memdesc<64x64xbf16, #shared, #smem> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %a : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  }
}

// -----

// Negative: the copy is read by a wgmma as a memdesc operand, not loaded:
// the copy stays (its encoding is what the wgmma reads).

// CHECK-LABEL: tt.func @read_by_wgmma(
// CHECK: %[[C:.+]] = ttg.local_alloc %{{.+}} : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared1, #smem>
// CHECK: ttng.warp_group_dot %[[C]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @read_by_wgmma(%buf: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, %b: !ttg.memdesc<64x64xbf16, #shared1, #smem>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared1, #smem>
    %d = ttng.warp_group_dot %c, %b, %acc : !ttg.memdesc<64x64xbf16, #shared1, #smem> * !ttg.memdesc<64x64xbf16, #shared1, #smem> -> tensor<64x64xf32, #mma>
    tt.return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// Negative: the copy's load is in a nested block (a loop body): not
// forwarded (only loads in the copy's block are).

// CHECK-LABEL: tt.func @other_block(
// CHECK: ttg.local_alloc %
// CHECK: scf.for
// CHECK: ttg.local_load %{{.+}} : !ttg.memdesc<64x64xbf16, #shared, #smem> ->
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 256, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @other_block(%buf: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, %n: index) {
    %x = ttg.local_load %buf : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %c = ttg.local_alloc %x : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared, #smem>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %a = ttg.local_load %c : !ttg.memdesc<64x64xbf16, #shared, #smem> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    }
    tt.return
  }
}

// -----

// A pipe slot released to its writer (the mbarrier arrive of
// tle.pipe.reader_release) before the dot that uses the operand: the slot is
// read in the operand layout before the release, and the copy goes.

// CHECK-LABEL: tt.func @released_before_use(
// CHECK-NEXT: %[[S:.+]] = ttg.local_load %arg2
// CHECK-NEXT: %[[A:.+]] = ttg.local_load %arg0 : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT: ttng.arrive_barrier %arg1, 1
// CHECK-NOT: ttg.local_alloc
// CHECK-NOT: ttg.local_load
// CHECK: tt.return %[[A]], %[[S]]
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 256, 16]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @released_before_use(%slot: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, %bar: !ttg.memdesc<1xi64, #shared, #smem, mutable>, %scale: !ttg.memdesc<64xf32, #shared, #smem, mutable>) -> (tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>) {
    %x = ttg.local_load %slot : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
    %s = ttg.local_load %scale : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    %c = ttg.local_alloc %x : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #shared1, #smem>
    %a = ttg.local_load %c : !ttg.memdesc<64x64xbf16, #shared1, #smem> -> tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return %a, %s : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #mma}>>
  }
}
