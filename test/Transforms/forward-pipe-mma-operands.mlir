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

// -----

// FlagTree's Q hand-off: a one-shot pipe whose readers take the slot at a
// position (`at [stage, phase]`) and never release it. Reader "a" reads Q
// in place in its loop: no release to move. Its own store into the slot
// after the loop comes after every wgmma read of it; the tile it copies for
// a TMA store (another encoding, not a wgmma operand) keeps its copy.
// Reader "b" stores into the slot from another partition: reader "a" sends
// no signal between its load and the wgmma's wait, so the store cannot be
// ordered inside that window.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!q = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>], readers = [a, b], one_shot>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: #[[NVMMAT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
  // CHECK-LABEL: tt.func @kept_forever(
  tt.func @kept_forever(%k: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %v: tensor<64x64xf16, #blocked>, %desc: !tt.tensordesc<tensor<64x64xf16, #nvmma>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %false = arith.constant false
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #[[NVMMAT]], #smem, mutable>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "q" capacity 1 readers ["a", "b"] fields(q = %buf : !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>) {one_shot = true}
    tle.warp_specialize()
    default {
      // CHECK: %[[VIEW:.*]] = tle.pipe.slot {{.*}} field "q" : !pipe -> !ttg.memdesc<64x64xf16, #[[NVMMAT]], #smem, mutable>
      // CHECK: scf.for
      // CHECK-NOT: ttg.local_alloc
      // CHECK: ttng.warp_group_dot %[[VIEW]], %arg0
      // CHECK: scf.yield
      // CHECK: tle.local_store %arg1, %[[VIEW]]
      // CHECK-NEXT: %[[OUT:.*]] = tle.local_load %[[VIEW]]
      // CHECK-NEXT: %[[STAGE:.*]] = ttg.local_alloc %[[OUT]] : {{.*}} -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem>
      // CHECK-NEXT: ttng.async_tma_copy_local_to_global %arg2[%{{.*}}, %{{.*}}] %[[STAGE]]
      %s, %closed = tle.pipe.reader_wait %pipe at [%c0, %false] reader "a" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
        %x = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
        %xc = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
        %d = ttng.warp_group_dot %xc, %k, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
        %w:3 = ttng.warp_group_dot_wait %d, %xc, %k {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmmaT, #smem>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
        scf.yield %w#0 : tensor<64x64xf32, #mma>
      }
      tle.local_store %v, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %out = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %stage = ttg.local_alloc %out : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
      ttng.async_tma_copy_local_to_global %desc[%c0, %c0] %stage : !tt.tensordesc<tensor<64x64xf16, #nvmma>>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %pipe at [%c0, %false] : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.local_store %v, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.pipe.writer_commit %pipe[%s] : !q
      tle.warp_return
    }
    partition1() num_warps(4) {
      %s, %closed = tle.pipe.reader_wait %pipe at [%c0, %false] reader "b" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.local_store %v, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// The same, but reader "a" commits a slot of another pipe between loading Q
// and waiting for the wgmma: reader "b" may have been released by it and
// store into Q while the wgmma would read Q in place. The copy stays.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmmaT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!q = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>], readers = [a, b], one_shot>
!sig = !tle.pipe<capacity = 1, fields = [], readers = [b]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @signal_in_window(
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #{{.*}}, #smem, mutable>
  // CHECK: %[[X:.*]] = tle.local_load
  // CHECK-NEXT: %[[XC:.*]] = ttg.local_alloc %[[X]]
  // CHECK: ttng.warp_group_dot %[[XC]]
  tt.func @signal_in_window(%k: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %v: tensor<64x64xf16, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %false = arith.constant false
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "q" capacity 1 readers ["a", "b"] fields(q = %buf : !ttg.memdesc<1x64x64xf16, #plain, #smem, mutable>) {one_shot = true}
    %sig = tle.pipe.create "sig" capacity 1 readers ["b"] fields()
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %pipe at [%c0, %false] reader "a" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      %x = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
      %xc = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmmaT, #smem>
      %t = tle.pipe.writer_acquire %sig : !sig
      tle.pipe.writer_commit %sig[%t] : !sig
      %d = ttng.warp_group_dot %xc, %k, %acc0 {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmmaT, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
      %w:3 = ttng.warp_group_dot_wait %d, %xc, %k {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmmaT, #smem>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %pipe at [%c0, %false] : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.local_store %v, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.pipe.writer_commit %pipe[%s] : !q
      tle.warp_return
    }
    partition1() num_warps(4) {
      %t, %tc = tle.pipe.reader_wait %sig reader "b" : !sig
      tle.pipe.reader_release %sig[%t] reader "b" : !sig
      %s, %closed = tle.pipe.reader_wait %pipe at [%c0, %false] reader "b" : !q
      %view = tle.pipe.slot %pipe[%s] field "q" : !q -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.local_store %v, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A positioned wait (FlagTree's cursor, `at [stage, phase]`) and the
// release of that stage: the release names the stage, not the wait's
// result, and still moves after the wgmma's wait.

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x64xf16, #plain, #smem, mutable>], readers = [mma]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @positioned(
  // CHECK: %[[ST:.*]] = arith.remsi
  // CHECK: %[[S:.*]], %{{.*}} = tle.pipe.reader_wait %{{.*}} at [%[[ST]], %{{.*}}]
  // CHECK-NEXT: %[[VIEW:.*]] = tle.pipe.slot
  // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %arg0, %[[VIEW]]
  // CHECK-NEXT: ttng.warp_group_dot_wait %[[D]]
  // CHECK-NEXT: tle.pipe.reader_release %{{.*}}[%[[ST]]] reader "mma"
  tt.func @positioned(%a: !ttg.memdesc<64x64xf16, #nvmma, #smem>, %v: tensor<64x64xf16, #blocked>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %buf = tle.alloc smem : () -> !ttg.memdesc<2x64x64xf16, #plain, #smem, mutable>
    %pipe = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %buf : !ttg.memdesc<2x64x64xf16, #plain, #smem, mutable>)
    tle.warp_specialize()
    default {
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
        %st = arith.remsi %i, %c2 : i32
        %q = arith.divsi %i, %c2 : i32
        %qb = arith.trunci %q : i32 to i1
        %s, %closed = tle.pipe.reader_wait %pipe at [%st, %qb] reader "mma" : !kv
        %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
        %k = tle.local_load %view : !ttg.memdesc<64x64xf16, #plain, #smem, mutable> -> tensor<64x64xf16, #blocked>
        %kc = ttg.local_alloc %k : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #nvmma, #smem>
        tle.pipe.reader_release %pipe[%st] reader "mma" : !kv
        %d = ttng.warp_group_dot %a, %kc, %acc {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #nvmma, #smem> * !ttg.memdesc<64x64xf16, #nvmma, #smem> -> tensor<64x64xf32, #mma>
        %w:3 = ttng.warp_group_dot_wait %d, %a, %kc {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #nvmma, #smem>, !ttg.memdesc<64x64xf16, #nvmma, #smem>
        scf.yield %w#0 : tensor<64x64xf32, #mma>
      }
      tle.warp_yield
    }
    partition0() num_warps(4) {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %st = arith.remsi %i, %c2 : i32
        %q = arith.divsi %i, %c2 : i32
        %qb = arith.trunci %q : i32 to i1
        %s = tle.pipe.writer_acquire %pipe at [%st, %qb] : !kv
        %view = tle.pipe.slot %pipe[%s] field "k" : !kv -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
        tle.local_store %v, %view : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #plain, #smem, mutable>
        tle.pipe.writer_commit %pipe[%st] : !kv
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
