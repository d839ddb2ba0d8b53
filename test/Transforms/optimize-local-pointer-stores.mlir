// RUN: tle-opt %s -split-input-file -triton-tle-optimize-local-pointer-stores | FileCheck %s

// A plain store of the whole buffer becomes tle.local_store; the dead full
// view is erased.

// CHECK-LABEL: tt.func @full_view(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: tle.local_store %arg0, %[[BUF]] : tensor<64x32xf16, #{{.+}}> -> !ttg.memdesc<64x32xf16, #{{.+}}, #smem, mutable>
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @full_view(%v: tensor<64x32xf16, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64x32xf16, #shared, #smem, mutable> -> tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.store %p, %v : tensor<64x32x!tt.ptr<f16, 3>, #blocked>
    tt.return
  }
}

// -----

// Masked, cached and indexed stores are left alone, and so is the full view
// they use; loads are not this pass's business.

// CHECK-LABEL: tt.func @left_alone(
// CHECK: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers %[[BUF]] :
// CHECK-NEXT: tt.store %[[P]], %arg0, %arg1 :
// CHECK-NEXT: tt.store %[[P]], %arg0 cacheModifier = wb :
// CHECK-NEXT: %[[I:.+]] = tle.local_pointers %[[BUF]][%arg2]
// CHECK-NEXT: tt.store %[[I]], %arg0 :
// CHECK-NEXT: tt.load %[[P]] :
// CHECK-NOT: tle.local_store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @left_alone(%v: tensor<128xf32, #blocked>, %m: tensor<128xi1, #blocked>, %idx: tensor<128xi32, #blocked>, %out: tensor<128x!tt.ptr<f32>, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<128xf32, #shared, #smem, mutable> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v, %m : tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v cacheModifier = wb : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %i = tle.local_pointers %buf[%idx] : !ttg.memdesc<128xf32, #shared, #smem, mutable>, tensor<128xi32, #blocked> -> tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %i, %v : tensor<128x!tt.ptr<f32, 3>, #blocked>
    %w = tt.load %p : tensor<128x!tt.ptr<f32, 3>, #blocked>
    tt.store %out, %w : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A masked store becomes a read-modify-write tle.local_store when every
// local pointer into the buffer is a full view only stored through and
// nothing else can write the buffer meanwhile (no tle.warp_specialize): the
// elements the mask leaves out are stored back as they were, and the buffer
// leaves TLE's pointer region.

// CHECK-LABEL: tt.func @masked(
// CHECK-NEXT: %[[BUF:.+]] = tle.alloc smem
// CHECK-NEXT: %[[OLD:.+]] = tle.local_load %[[BUF]] : !ttg.memdesc<64xf32, #{{.+}}, #smem, mutable> -> tensor<64xf32, #{{.+}}>
// CHECK-NEXT: %[[NEW:.+]] = arith.select %arg1, %arg0, %[[OLD]]
// CHECK-NEXT: tle.local_store %[[NEW]], %[[BUF]]
// CHECK-NEXT: tle.local_store %arg0, %[[BUF]]
// CHECK-NEXT: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked(%v: tensor<64xf32, #blocked>, %m: tensor<64xi1, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    %p = tle.local_pointers %buf : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v, %m : tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.store %p, %v : tensor<64x!tt.ptr<f32, 3>, #blocked>
    tt.return
  }
}

// -----

// Inside tle.warp_specialize another partition may write the elements a
// mask leaves out: a masked store into a buffer stays.

// CHECK-LABEL: tt.func @masked_in_partition(
// CHECK: partition0
// CHECK-NEXT: %[[P:.+]] = tle.local_pointers
// CHECK-NEXT: tt.store %[[P]], %arg0, %arg1
// CHECK-NOT: tle.local_store
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked_in_partition(%v: tensor<64xf32, #blocked>, %m: tensor<64xi1, #blocked>) {
    %buf = tle.alloc smem : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %p = tle.local_pointers %buf : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
      tt.store %p, %v, %m : tensor<64x!tt.ptr<f32, 3>, #blocked>
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Pipe slots: the writer owns the slot it acquired until its commit, and a
// reader owns the slot it waited for when the other readers only read that
// field; their masked stores become read-modify-writes. Field "o" is
// stored by both readers, so neither may write back what its mask leaves
// out.

// CHECK-LABEL: tt.func @masked_pipe_slots(
// CHECK: default
// CHECK: %[[QV:.+]] = tle.pipe.slot %{{.+}} field "q"
// CHECK-NEXT: tle.local_load %[[QV]]
// CHECK: %[[OV:.+]] = tle.pipe.slot %{{.+}} field "o"
// CHECK-NEXT: %[[OP:.+]] = tle.local_pointers %[[OV]]
// CHECK-NEXT: tt.store %[[OP]], %arg0, %arg1
// CHECK: partition0
// CHECK: %[[QW:.+]] = tle.pipe.slot %{{.+}} field "q"
// CHECK-NEXT: %[[QOLD:.+]] = tle.local_load %[[QW]]
// CHECK-NEXT: %[[QNEW:.+]] = arith.select %arg1, %arg0, %[[QOLD]]
// CHECK-NEXT: tle.local_store %[[QNEW]], %[[QW]]
// CHECK: partition1
// CHECK: %[[QR:.+]] = tle.pipe.slot %{{.+}} field "q"
// CHECK-NEXT: %[[ROLD:.+]] = tle.local_load %[[QR]]
// CHECK-NEXT: %[[RNEW:.+]] = arith.select %arg1, %arg0, %[[ROLD]]
// CHECK-NEXT: tle.local_store %[[RNEW]], %[[QR]]
// CHECK: %[[OR:.+]] = tle.pipe.slot %{{.+}} field "o"
// CHECK-NEXT: %[[ORP:.+]] = tle.local_pointers %[[OR]]
// CHECK-NEXT: tt.store %[[ORP]], %arg0, %arg1
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x64xf32, #shared, #smem, mutable>, o: !ttg.memdesc<1x64xf32, #shared, #smem, mutable>], readers = [a, b]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @masked_pipe_slots(%v: tensor<64xf32, #blocked>, %m: tensor<64xi1, #blocked>) {
    %q = tle.alloc smem : () -> !ttg.memdesc<1x64xf32, #shared, #smem, mutable>
    %o = tle.alloc smem : () -> !ttg.memdesc<1x64xf32, #shared, #smem, mutable>
    %pipe = tle.pipe.create "p" capacity 1 readers ["a", "b"] fields(q = %q : !ttg.memdesc<1x64xf32, #shared, #smem, mutable>, o = %o : !ttg.memdesc<1x64xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %c = tle.pipe.reader_wait %pipe reader "a" : !p
      %qv = tle.pipe.slot %pipe[%s] field "q" : !p -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
      %x = tle.local_load %qv : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64xf32, #blocked>
      %ov = tle.pipe.slot %pipe[%s] field "o" : !p -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
      %op = tle.local_pointers %ov : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
      tt.store %op, %v, %m : tensor<64x!tt.ptr<f32, 3>, #blocked>
      tle.pipe.reader_release %pipe[%s] reader "a" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %pipe : !p
      %qw = tle.pipe.slot %pipe[%s] field "q" : !p -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
      %qp = tle.local_pointers %qw : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
      tt.store %qp, %v, %m : tensor<64x!tt.ptr<f32, 3>, #blocked>
      tle.pipe.writer_commit %pipe[%s] : !p
      tle.warp_return
    }
    partition1() num_warps(4) {
      %s, %c = tle.pipe.reader_wait %pipe reader "b" : !p
      %qr = tle.pipe.slot %pipe[%s] field "q" : !p -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
      %qrp = tle.local_pointers %qr : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
      tt.store %qrp, %v, %m : tensor<64x!tt.ptr<f32, 3>, #blocked>
      %or = tle.pipe.slot %pipe[%s] field "o" : !p -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
      %orp = tle.local_pointers %or : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64x!tt.ptr<f32, 3>, #blocked>
      tt.store %orp, %v, %m : tensor<64x!tt.ptr<f32, 3>, #blocked>
      tle.pipe.reader_release %pipe[%s] reader "b" : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
