// RUN: tle-opt %s -split-input-file --triton-tle-forward-pipe-mma-operands | FileCheck %s

// A pipe field filled and stored out by synchronous TMA copies (Triton's
// expansion: a staging buffer of its own, copied to or from the slot) takes
// the descriptor's NVMMA encoding, and the TMA copies write and read the
// slot in place. A wgmma copy of the slot in another encoding becomes the
// slot view when its only users are wgmma operands and waits (16-bit: both
// major orders are wgmma operands); otherwise the field keeps the rules
// without TMA, and the staging buffers stay.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!q = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @tma_in_place(
  tt.func @tma_in_place(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %out: !tt.tensordesc<tensor<64x64xf16, #nvmma>>,
                        %k: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %row: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #[[NVMMA]], #smem, mutable>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "q" capacity 1 readers ["mma"] fields(q = %buf : !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      // The wgmma reads the slot (copied transposed by Triton) in the TMA's
      // encoding; the TMA store reads it too.
      // CHECK: %[[S:.*]], %{{.*}} = tle.pipe.reader_wait
      // CHECK-NEXT: %[[VIEW:.*]] = tle.pipe.slot %{{.*}}[%[[S]]] field "q" : !pipe -> !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[VIEW]], %{{.*}}, %{{.*}} {{.*}} : !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable> *
      // CHECK-NEXT: %{{.*}}:2 = ttng.warp_group_dot_wait %[[D]], %[[VIEW]] {pendings = 0 : i32} : tensor<64x64xf32, #{{.*}}>, !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NEXT: ttng.fence_async_shared
      // CHECK-NEXT: ttng.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[VIEW]]
      // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
      // CHECK-NOT: ttg.local_alloc
      // CHECK: tle.warp_yield
      %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %v = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %a = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
      %d = ttng.warp_group_dot %a, %k, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %w:2 = ttng.warp_group_dot_wait %d, %a {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
      %v2 = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %st = ttg.local_alloc %v2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttng.fence_async_shared {bCluster = false}
      ttng.async_tma_copy_local_to_global %out[%row, %c0] %st : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttng.async_tma_store_wait {pendings = 0 : i32}
      tle.pipe.reader_release %pipe[%s] reader "mma" : !q
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // The TMA writes the slot; no staging buffer, load or store is left.
      // CHECK: partition0()
      // CHECK: %[[WV:.*]] = tle.pipe.slot {{.*}} field "q" : !pipe -> !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NEXT: %[[B:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64
      // CHECK-NEXT: ttng.init_barrier %[[B]], 1
      // CHECK-NEXT: ttng.barrier_expect %[[B]], 8192
      // CHECK-NEXT: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %[[WV]], %[[B]], %{{.*}} : {{.*}} -> !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NEXT: ttng.wait_barrier %[[B]]
      // CHECK-NEXT: ttng.inval_barrier %[[B]]
      // CHECK-NEXT: tle.pipe.writer_commit
      %s = tle.pipe.writer_acquire %pipe : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %staging = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.barrier_expect %b, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_copy_global_to_local %desc[%row, %c0] %staging, %b, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %b : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %t = ttg.local_load %staging : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
      tle.local_store %t, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.pipe.writer_commit %pipe[%s] : !q
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// The wgmma copy feeds a ttg.memdesc_trans (a B operand): not a view in
// another encoding. The field takes the copy's encoding as without TMA
// copies, and the TMA load keeps its staging buffer.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!q = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[NVMMAT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @transposed_use(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #[[NVMMAT]], #smem, mutable>
  // CHECK: partition0()
  // CHECK: %[[ST:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
  // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %[[ST]]
  // CHECK: %[[T:.*]] = ttg.local_load %[[ST]]
  // CHECK-NEXT: tle.local_store %[[T]]
  tt.func @transposed_use(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %q: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %row: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "q" capacity 1 readers ["mma"] fields(q = %buf : !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %v = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %a = ttg.local_alloc %v : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
      %at = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      %d = ttng.warp_group_dot %q, %at, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %w:2 = ttng.warp_group_dot_wait %d, %at {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      tle.pipe.reader_release %pipe[%s] reader "mma" : !q
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %pipe : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %staging = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.barrier_expect %b, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_copy_global_to_local %desc[%row, %c0] %staging, %b, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %b : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %t = ttg.local_load %staging : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
      tle.local_store %t, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.pipe.writer_commit %pipe[%s] : !q
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// The slot is read between the TMA copy and the store into it (it would see
// the new tile early), and the TMA store is not waited for at once: both
// keep their staging buffers; the field has no wgmma copy and stays as it
// is.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!q = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @not_in_place(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #{{.*}}, #smem, mutable>
  // CHECK-NOT: nvmma
  // CHECK: %[[ST2:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x64xf16, #{{.*}}>) -> !ttg.memdesc<64x64xf16
  // CHECK: ttng.async_tma_copy_local_to_global %{{.*}}[%{{.*}}, %{{.*}}] %[[ST2]]
  // CHECK: partition0()
  // CHECK: %[[ST:.*]] = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable>
  // CHECK: ttng.async_tma_copy_global_to_local %{{.*}}[%{{.*}}, %{{.*}}] %[[ST]]
  tt.func @not_in_place(%desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %out: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %row: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "q" capacity 1 readers ["r"] fields(q = %buf : !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "r" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %v2 = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %st = ttg.local_alloc %v2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttng.fence_async_shared {bCluster = false}
      ttng.async_tma_copy_local_to_global %out[%row, %c0] %st : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      tle.pipe.reader_release %pipe[%s] reader "r" : !q
      ttng.async_tma_store_wait {pendings = 0 : i32}
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %pipe : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %staging = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.barrier_expect %b, 8192, %true : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_copy_global_to_local %desc[%row, %c0] %staging, %b, %true : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
      %early = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.inval_barrier %b : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %t = ttg.local_load %staging : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %u = arith.addf %t, %early : tensor<64x64xf16, #blocked>
      tle.local_store %u, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.pipe.writer_commit %pipe[%s] : !q
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A plain buffer a capacity-1 pipe guards (FlagTree's sparse-MLA P tile):
// stored between the writer's acquire and commit, loaded between a reader's
// wait and release. The reader's wgmma copy becomes the buffer (in the
// copy's encoding) and the release moves after the wgmma's wait.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#plain1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!s = !tle.pipe<capacity = 1, fields = [scale: !ttg.memdesc<1x64xf32, #plain1, #smem, mutable>], readers = [r]>
!s2 = !tle.pipe<capacity = 2, fields = [scale: !ttg.memdesc<2x64xf32, #plain1, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[NVMMAT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @guarded(
  // CHECK: %[[P:.*]] = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #[[NVMMAT]], #smem, mutable>
  // CHECK: tle.pipe.reader_wait
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %[[P]], %{{.*}}, %{{.*}}
  // CHECK-NEXT: ttng.warp_group_dot_wait %[[D]], %[[P]] {pendings = 0 : i32}
  // CHECK-NEXT: tle.pipe.reader_release
  // CHECK: partition0()
  // CHECK: tle.pipe.writer_acquire
  // CHECK-NEXT: tle.local_store %{{.*}}, %[[P]] : tensor<64x64xf16, #{{.*}}> -> !ttg.memdesc<64x64xf16, #[[NVMMAT]], #smem, mutable>
  tt.func @guarded(%v: tensor<64x64xf16, #blocked>, %k: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %pbuf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %sbuf = tle.alloc smem : () -> !ttg.memdesc<1x64xf32, #plain1, #smem, mutable>
    %pipe = tle.pipe.create "score" capacity 1 readers ["r"] fields(scale = %sbuf : !ttg.memdesc<1x64xf32, #plain1, #smem, mutable>)
    tle.warp_specialize()
    default {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s, %closed = tle.pipe.reader_wait %pipe reader "r" : !s
        %p = tle.local_load %pbuf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
        %a = ttg.local_alloc %p : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
        %d = ttng.warp_group_dot %a, %k, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
        tle.pipe.reader_release %pipe[%s] reader "r" : !s
        %w:2 = ttng.warp_group_dot_wait %d, %a {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
      }
      tle.warp_yield
    }
    partition0() num_warps(4) {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %pipe : !s
        tle.local_store %v, %pbuf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
        tle.pipe.writer_commit %pipe[%s] : !s
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }

  // A store after the commit (outside the write section), and a pipe of
  // capacity 2 (the writer may fill the next slot while the reader reads):
  // the copies stay.
  // CHECK-LABEL: tt.func @unguarded(
  // CHECK-COUNT-2: ttg.local_alloc %{{.*}} : (tensor<64x64xf16
  tt.func @unguarded(%v: tensor<64x64xf16, #blocked>, %k: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %pbuf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %qbuf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
    %sbuf = tle.alloc smem : () -> !ttg.memdesc<1x64xf32, #plain1, #smem, mutable>
    %s2buf = tle.alloc smem : () -> !ttg.memdesc<2x64xf32, #plain1, #smem, mutable>
    %pipe = tle.pipe.create "score" capacity 1 readers ["r"] fields(scale = %sbuf : !ttg.memdesc<1x64xf32, #plain1, #smem, mutable>)
    %pipe2 = tle.pipe.create "score2" capacity 2 readers ["r"] fields(scale = %s2buf : !ttg.memdesc<2x64xf32, #plain1, #smem, mutable>)
    tle.warp_specialize()
    default {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s, %closed = tle.pipe.reader_wait %pipe reader "r" : !s
        %p = tle.local_load %pbuf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
        %a = ttg.local_alloc %p : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
        %d = ttng.warp_group_dot %a, %k, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
        %w:2 = ttng.warp_group_dot_wait %d, %a {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
        tle.pipe.reader_release %pipe[%s] reader "r" : !s
        %s2, %closed2 = tle.pipe.reader_wait %pipe2 reader "r" : !s2
        %q = tle.local_load %qbuf : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
        %b = ttg.local_alloc %q : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
        %e = ttng.warp_group_dot %b, %k, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
        %w2:2 = ttng.warp_group_dot_wait %e, %b {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
        tle.pipe.reader_release %pipe2[%s2] reader "r" : !s2
      }
      tle.warp_yield
    }
    partition0() num_warps(4) {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %pipe : !s
        tle.pipe.writer_commit %pipe[%s] : !s
        tle.local_store %v, %pbuf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
        %s2 = tle.pipe.writer_acquire %pipe2 : !s2
        tle.local_store %v, %qbuf : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
        tle.pipe.writer_commit %pipe2[%s2] : !s2
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
