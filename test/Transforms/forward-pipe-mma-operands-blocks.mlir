// RUN: tle-opt %s -split-input-file --triton-tle-forward-pipe-mma-operands | FileCheck %s

// Blocks of a slot (ttg.memdesc_subslice views, which the local-pointer
// passes make of rectangular local_ptr index sets) copied into wgmma
// operands are read in place. The buffer is a field of two pipes (each
// guards one column half, as FlagTree's FlashMLA prefill kernel does): it
// takes the copies' NVMMA encoding in row-major order, the blocks follow
// (their allocation shape stays the slot's), transposed views of them take
// the other major order and the permuted allocation shape, and each
// reader's release moves after the wgmma's pendings-0 wait. Reader "b"
// releases the same stage of pipe "lo" as reader "a": it is not "a"'s
// release.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!lo = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>], readers = [a, b]>
!hi = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>], readers = [a]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-DAG: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
  // CHECK-DAG: #[[NVMMAT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @halves(
  tt.func @halves(%q: !ttg.memdesc<64x64xbf16, #nvmma, #smem>, %p: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                  %v: tensor<64x64xbf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %false = arith.constant false
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<1x64x128xbf16, #[[NVMMA]], #smem, mutable>
    // CHECK: tle.pipe.create "lo" {{.*}} fields(k = %[[BUF]] : !ttg.memdesc<1x64x128xbf16, #[[NVMMA]], #smem, mutable>)
    // CHECK: tle.pipe.create "hi" {{.*}} fields(k = %[[BUF]] : !ttg.memdesc<1x64x128xbf16, #[[NVMMA]], #smem, mutable>)
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>
    %lo = tle.pipe.create "lo" capacity 1 readers ["a", "b"] fields(k = %buf : !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>)
    %hi = tle.pipe.create "hi" capacity 1 readers ["a"] fields(k = %buf : !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: %[[S:.*]], %{{.*}} = tle.pipe.reader_wait %{{.*}} at [%{{.*}}, %{{.*}}] reader "a" : !pipe
      // CHECK-NEXT: %[[VIEW:.*]] = tle.pipe.slot {{.*}} -> !ttg.memdesc<64x128xbf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NEXT: %[[LO:.*]] = ttg.memdesc_subslice %[[VIEW]][0, 0] : !ttg.memdesc<64x128xbf16, #[[NVMMA]], #smem, mutable> -> !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128>
      // CHECK-NOT: tle.local_load
      // CHECK-NOT: ttg.local_alloc
      // CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[LO]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128> -> !ttg.memdesc<64x64xbf16, #[[NVMMAT]], #smem, mutable, 128x64>
      // CHECK-NEXT: %[[QK:.*]] = ttng.warp_group_dot %{{.*}}, %[[T]], %{{.*}}
      // CHECK-NEXT: %{{.*}}:3 = ttng.warp_group_dot_wait %[[QK]], %{{.*}}, %[[T]] {pendings = 0 : i32} : {{.*}}, !ttg.memdesc<64x64xbf16, #[[NVMMAT]], #smem, mutable, 128x64>
      // CHECK-NEXT: tle.pipe.reader_release %{{.*}}[%{{.*}}] reader "a" : !pipe
      %s, %closed = tle.pipe.reader_wait %lo at [%c0, %false] reader "a" : !lo
      %view = tle.pipe.slot %lo[%s] field "k" : !lo -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 0] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      %k = tle.local_load %blk : !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128> -> tensor<64x64xbf16, #blocked>
      %kc = ttg.local_alloc %k : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #nvmmaT, #smem>
      %kt = ttg.memdesc_trans %kc {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xbf16, #nvmmaT, #smem> -> !ttg.memdesc<64x64xbf16, #nvmma, #smem>
      tle.pipe.reader_release %lo[%c0] reader "a" : !lo
      %qk = ttng.warp_group_dot %q, %kt, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xbf16, #nvmma, #smem> * !ttg.memdesc<64x64xbf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %qk, %q, %kt {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xbf16, #nvmma, #smem>, !ttg.memdesc<64x64xbf16, #nvmma, #smem>
      // CHECK: %[[S2:.*]], %{{.*}} = tle.pipe.reader_wait %{{.*}} reader "a" : !pipe
      // CHECK-NEXT: %[[VIEW2:.*]] = tle.pipe.slot
      // CHECK-NEXT: %[[HI:.*]] = ttg.memdesc_subslice %[[VIEW2]][0, 64] : !ttg.memdesc<64x128xbf16, #[[NVMMA]], #smem, mutable> -> !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128>
      // CHECK-NEXT: %[[PV:.*]] = ttng.warp_group_dot %{{.*}}, %[[HI]], %{{.*}}
      // CHECK-NEXT: ttng.warp_group_dot_wait %[[PV]], %[[HI]] {pendings = 0 : i32} : tensor<64x64xf32, #{{.*}}>, !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128>
      // CHECK-NEXT: tle.pipe.reader_release %{{.*}}[%[[S2]]] reader "a"
      %s2, %closed2 = tle.pipe.reader_wait %hi reader "a" : !hi
      %view2 = tle.pipe.slot %hi[%s2] field "k" : !hi -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk2 = ttg.memdesc_subslice %view2[0, 64] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      %v2 = tle.local_load %blk2 : !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128> -> tensor<64x64xbf16, #blocked>
      %vc = ttg.local_alloc %v2 : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #nvmmaT, #smem>
      tle.pipe.reader_release %hi[%s2] reader "a" : !hi
      %pv = ttng.warp_group_dot %p, %vc, %w#0 {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xbf16, #nvmmaT, #smem> -> tensor<64x64xf32, #mma>
      %w2:2 = ttng.warp_group_dot_wait %pv, %vc {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xbf16, #nvmmaT, #smem>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // The writers store into the blocks of the NVMMA field.
      // CHECK: partition0()
      // CHECK: ttg.memdesc_subslice %{{.*}}[0, 0] : !ttg.memdesc<64x128xbf16, #[[NVMMA]], #smem, mutable> -> !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128>
      // CHECK-NEXT: tle.local_store %{{.*}}, %{{.*}} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128>
      %s = tle.pipe.writer_acquire %lo : !lo
      %view = tle.pipe.slot %lo[%s] field "k" : !lo -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 0] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      tle.local_store %v, %blk : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      tle.pipe.writer_commit %lo[%s] : !lo
      %s2 = tle.pipe.writer_acquire %hi : !hi
      %view2 = tle.pipe.slot %hi[%s2] field "k" : !hi -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk2 = ttg.memdesc_subslice %view2[0, 64] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      tle.local_store %v, %blk2 : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      tle.pipe.writer_commit %hi[%s2] : !hi
      tle.warp_return
    }
    partition1() num_warps(4) {
      // CHECK: partition1()
      // CHECK: tle.local_load %{{.*}} : !ttg.memdesc<64x64xbf16, #[[NVMMA]], #smem, mutable, 64x128> -> tensor<64x64xbf16, #blocked>
      %s, %closed = tle.pipe.reader_wait %lo at [%c0, %false] reader "b" : !lo
      %view = tle.pipe.slot %lo[%s] field "k" : !lo -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 0] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      %k = tle.local_load %blk : !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128> -> tensor<64x64xbf16, #blocked>
      tle.pipe.reader_release %lo[%c0] reader "b" : !lo
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Left alone: a block whose columns start inside a 128-byte swizzle atom
// (columns 32 ... 63 of bf16: a subslice Triton accepts in the plain
// layout) would not be laid out as a buffer of its own.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>], readers = [a]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[PLAIN:.*]] = #ttg.swizzled_shared
  // CHECK-LABEL: tt.func @misaligned_block(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x64x128xbf16, #[[PLAIN]], #smem, mutable>
  // CHECK: tle.local_load
  // CHECK-NEXT: ttg.local_alloc
  tt.func @misaligned_block(%p: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 1 readers ["a"] fields(k = %buf : !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "a" : !kv
      %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 32] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x32xbf16, #plain, #smem, mutable, 64x128>
      %v = tle.local_load %blk : !ttg.memdesc<64x32xbf16, #plain, #smem, mutable, 64x128> -> tensor<64x32xbf16, #blocked>
      %vc = ttg.local_alloc %v : (tensor<64x32xbf16, #blocked>) -> !ttg.memdesc<64x32xbf16, #nvmma, #smem>
      %pv = ttng.warp_group_dot %p, %vc, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x32xbf16, #nvmma, #smem> -> tensor<64x32xf32, #mma>
      %w:2 = ttng.warp_group_dot_wait %pv, %vc {pendings = 0 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x32xbf16, #nvmma, #smem>
      tle.pipe.reader_release %pipe[%s] reader "a" : !kv
      tle.warp_yield
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Left alone: a copy of a block that a register load also reads is not
// only a wgmma operand (its encoding cannot change).

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>], readers = [a]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[PLAIN:.*]] = #ttg.swizzled_shared
  // CHECK-LABEL: tt.func @copy_read_back(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x64x128xbf16, #[[PLAIN]], #smem, mutable>
  // CHECK: tle.local_load
  // CHECK-NEXT: ttg.local_alloc
  tt.func @copy_read_back(%p: tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 1 readers ["a"] fields(k = %buf : !ttg.memdesc<1x64x128xbf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "a" : !kv
      %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<64x128xbf16, #plain, #smem, mutable>
      %blk = ttg.memdesc_subslice %view[0, 64] : !ttg.memdesc<64x128xbf16, #plain, #smem, mutable> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128>
      %v = tle.local_load %blk : !ttg.memdesc<64x64xbf16, #plain, #smem, mutable, 64x128> -> tensor<64x64xbf16, #blocked>
      %vc = ttg.local_alloc %v : (tensor<64x64xbf16, #blocked>) -> !ttg.memdesc<64x64xbf16, #nvmma, #smem>
      %pv = ttng.warp_group_dot %p, %vc, %zero {inputPrecision = 0 : i32, isAsync = true} : tensor<64x64xbf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xbf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %w:2 = ttng.warp_group_dot_wait %pv, %vc {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xbf16, #nvmma, #smem>
      %back = ttg.local_load %vc : !ttg.memdesc<64x64xbf16, #nvmma, #smem> -> tensor<64x64xbf16, #blocked>
      tle.pipe.reader_release %pipe[%s] reader "a" : !kv
      tle.warp_yield
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
