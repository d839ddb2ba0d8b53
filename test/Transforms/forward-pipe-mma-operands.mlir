// RUN: tle-opt %s -split-input-file --triton-tle-forward-pipe-mma-operands | FileCheck %s

// A reader that copies its slot into a wgmma operand (Triton's
// local_alloc of the loaded tile) reads the slot in place: the field takes
// the operand's NVMMA encoding, the copy and the load go, and the release
// moves after the pendings-0 wait of the last wgmma reading the slot.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#mma64 = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @in_place(
  tt.func @in_place(%q: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %p: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma64, kWidth = 2}>>,
                    %v: tensor<32x64xf16, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma64>
    // CHECK: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #[[NVMMA]], #smem, mutable>
    // CHECK: tle.pipe.create "kv" {{.*}} fields(k = %[[BUF]] : !ttg.memdesc<2x32x64xf16, #[[NVMMA]], #smem, mutable>)
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: %[[S:.*]], %{{.*}} = tle.pipe.reader_wait
      // CHECK-NEXT: %[[VIEW:.*]] = tle.pipe.slot %{{.*}}[%[[S]]] field "k" : !pipe -> !ttg.memdesc<32x64xf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NOT: tle.local_load
      // CHECK-NOT: ttg.local_alloc
      // CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[VIEW]] {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #[[NVMMA]], #smem, mutable> -> !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>
      // CHECK-NEXT: %[[QK:.*]] = ttng.warp_group_dot %{{.*}}, %[[T]], %{{.*}} {{.*}}!ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable> -> tensor<64x32xf32, #{{.*}}>
      // CHECK-NEXT: %{{.*}}:3 = ttng.warp_group_dot_wait %[[QK]], %{{.*}}, %[[T]] {pendings = 0 : i32} : {{.*}}, !ttg.memdesc<64x32xf16, #{{.*}}, #smem, mutable>
      // CHECK-NEXT: %[[PV:.*]] = ttng.warp_group_dot %{{.*}}, %[[VIEW]], %{{.*}}
      // CHECK-NEXT: ttng.warp_group_dot_wait %[[PV]], %[[VIEW]] {pendings = 0 : i32}
      // CHECK-NEXT: tle.pipe.reader_release %{{.*}}[%[[S]]] reader "mma"
      // CHECK-NEXT: scf.yield
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma64>) : i32 {
        %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !kv
        %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
        %k = tle.local_load %view : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> tensor<32x64xf16, #blocked>
        %kc = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
        %kt = ttg.memdesc_trans %kc {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
        tle.pipe.reader_release %pipe[%s] reader "mma" : !kv
        %qk = ttng.warp_group_dot %q, %kt, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x32xf16, #nvmmaT, #smem> -> tensor<64x32xf32, #mma>
        %w:3 = ttng.warp_group_dot_wait %qk, %q, %kt {pendings = 0 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
        %pv = ttng.warp_group_dot %p, %kc, %acc {inputPrecision = 0 : i32, isAsync = true} : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma64, kWidth = 2}>> * !ttg.memdesc<32x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma64>
        %w2:2 = ttng.warp_group_dot_wait %pv, %kc {pendings = 0 : i32} : tensor<64x64xf32, #mma64>, !ttg.memdesc<32x64xf16, #nvmma, #smem>
        scf.yield %w2#0 : tensor<64x64xf32, #mma64>
      }
      tle.warp_yield
    }
    partition0() num_warps(4) {
      // The writer stores straight into the wgmma layout.
      // CHECK: partition0()
      // CHECK: %[[WV:.*]] = tle.pipe.slot {{.*}} field "k" : !pipe -> !ttg.memdesc<32x64xf16, #[[NVMMA]], #smem, mutable>
      // CHECK-NEXT: tle.local_store %{{.*}}, %[[WV]] : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #[[NVMMA]], #smem, mutable>
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tle.pipe.writer_acquire %pipe : !kv
        %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
        tle.local_store %v, %view : tensor<32x64xf16, #blocked> -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
        tle.pipe.writer_commit %pipe[%s] : !kv
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A register use of the slot keeps its load (now from the NVMMA field); the
// copy is still forwarded.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @register_use_kept(
  tt.func @register_use_kept(%q: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %out: !tt.ptr<f16>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      // CHECK: %[[VIEW:.*]] = tle.pipe.slot {{.*}} -> !ttg.memdesc<32x64xf16, #{{.*}}, #smem, mutable>
      // CHECK-NEXT: %[[K:.*]] = tle.local_load %[[VIEW]]
      // CHECK-NEXT: %[[T:.*]] = ttg.memdesc_trans %[[VIEW]]
      // CHECK-NEXT: %[[QK:.*]] = ttng.warp_group_dot %{{.*}}, %[[T]]
      // CHECK-NEXT: ttng.warp_group_dot_wait %[[QK]]
      // CHECK-NEXT: tle.pipe.reader_release
      // CHECK-NEXT: tt.reduce
      %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !kv
      %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
      %k = tle.local_load %view : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> tensor<32x64xf16, #blocked>
      %kc = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
      %kt = ttg.memdesc_trans %kc {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      %qk = ttng.warp_group_dot %q, %kt, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x32xf16, #nvmmaT, #smem> -> tensor<64x32xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %qk, %q, %kt {pendings = 0 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.pipe.reader_release %pipe[%s] reader "mma" : !kv
      %sum = "tt.reduce"(%k) <{axis = 0 : i32}> ({
      ^bb0(%a: f16, %b: f16):
        %r = arith.addf %a, %b : f16
        tt.reduce.return %r : f16
      }) : (tensor<32x64xf16, #blocked>) -> tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked}>>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Left alone: the wgmma's wait leaves it in flight (pendings = 1), so no
// point in the block is known to be after its last read.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[PLAIN:.*]] = #ttg.swizzled_shared
  // CHECK-LABEL: tt.func @pending_wgmma(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #[[PLAIN]], #smem, mutable>
  // CHECK: tle.local_load
  // CHECK-NEXT: ttg.local_alloc
  // CHECK: tle.pipe.reader_release
  // CHECK-NEXT: ttng.warp_group_dot
  tt.func @pending_wgmma(%q: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !kv
      %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
      %k = tle.local_load %view : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> tensor<32x64xf16, #blocked>
      %kc = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
      %kt = ttg.memdesc_trans %kc {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.pipe.reader_release %pipe[%s] reader "mma" : !kv
      %qk = ttng.warp_group_dot %q, %kt, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x32xf16, #nvmmaT, #smem> -> tensor<64x32xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %qk, %q, %kt {pendings = 1 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Left alone: another endpoint op of the pipe (the next wait) sits between
// the release and the wgmma's wait; moving the release past it could
// deadlock the ring.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x32x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[PLAIN:.*]] = #ttg.swizzled_shared
  // CHECK-LABEL: tt.func @wait_between(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x32x64xf16, #[[PLAIN]], #smem, mutable>
  // CHECK: ttg.local_alloc
  // CHECK-NEXT: ttg.memdesc_trans
  // CHECK-NEXT: tle.pipe.reader_release
  // CHECK-NEXT: tle.pipe.reader_wait
  tt.func @wait_between(%q: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x32x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 1 readers ["mma"] fields(k = %buf : !ttg.memdesc<1x32x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !kv
      %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
      %k = tle.local_load %view : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> tensor<32x64xf16, #blocked>
      %kc = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
      %kt = ttg.memdesc_trans %kc {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.pipe.reader_release %pipe[%s] reader "mma" : !kv
      %s2, %closed2 = tle.pipe.reader_wait %pipe reader "mma" : !kv
      %qk = ttng.warp_group_dot %q, %kt, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x32xf16, #nvmmaT, #smem> -> tensor<64x32xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %qk, %q, %kt {pendings = 0 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.pipe.reader_release %pipe[%s2] reader "mma" : !kv
      tle.warp_yield
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Left alone: the field already has a layout of its own (here swizzled):
// the pass only retypes fields that still have the frontend's default.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 32, 16]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32x64xf16, #swz, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[SWZ:.*]] = #ttg.swizzled_shared<{vec = 8
  // CHECK-LABEL: tt.func @chosen_layout(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #[[SWZ]], #smem, mutable>
  // CHECK: tle.local_load
  // CHECK-NEXT: ttg.local_alloc
  tt.func @chosen_layout(%q: !ttg.memdesc<64x64xf16, #nvmma, #smem>) {
    %zero = arith.constant dense<0.0> : tensor<64x32xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #swz, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x32x64xf16, #swz, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !kv
      %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #swz, #smem, mutable>
      %k = tle.local_load %view : !ttg.memdesc<32x64xf16, #swz, #smem, mutable> -> tensor<32x64xf16, #blocked>
      %kc = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
      %kt = ttg.memdesc_trans %kc {order = array<i32: 1, 0>} : !ttg.memdesc<32x64xf16, #nvmma, #smem> -> !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.pipe.reader_release %pipe[%s] reader "mma" : !kv
      %qk = ttng.warp_group_dot %q, %kt, %zero {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x32xf16, #nvmmaT, #smem> -> tensor<64x32xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %qk, %q, %kt {pendings = 0 : i32} : tensor<64x32xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x32xf16, #nvmmaT, #smem>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Left alone: two copies of the slot want different NVMMA layouts (64- and
// 128-byte swizzles); the field can have only one.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[PLAIN:.*]] = #ttg.swizzled_shared<{vec = 1
  // CHECK-LABEL: tt.func @two_layouts(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #[[PLAIN]], #smem, mutable>
  // CHECK: tle.local_load
  // CHECK-NEXT: ttg.local_alloc
  // CHECK-NEXT: ttg.local_alloc
  tt.func @two_layouts() -> (tensor<32x64xf16, #blocked>, tensor<32x64xf16, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x32x64xf16, #plain, #smem, mutable>)
    %s, %closed = tle.pipe.reader_wait %pipe reader "mma" : !kv
    %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<32x64xf16, #plain, #smem, mutable>
    %k = tle.local_load %view : !ttg.memdesc<32x64xf16, #plain, #smem, mutable> -> tensor<32x64xf16, #blocked>
    %a = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma, #smem>
    %b = ttg.local_alloc %k : (tensor<32x64xf16, #blocked>) -> !ttg.memdesc<32x64xf16, #nvmma64, #smem>
    %x = ttg.local_load %a : !ttg.memdesc<32x64xf16, #nvmma, #smem> -> tensor<32x64xf16, #blocked>
    %y = ttg.local_load %b : !ttg.memdesc<32x64xf16, #nvmma64, #smem> -> tensor<32x64xf16, #blocked>
    tle.pipe.reader_release %pipe[%s] reader "mma" : !kv
    tt.return %x, %y : tensor<32x64xf16, #blocked>, tensor<32x64xf16, #blocked>
  }
}
