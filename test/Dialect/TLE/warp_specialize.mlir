// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -cse -canonicalize | FileCheck %s --check-prefix=OPT

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>], readers = [mma]>

// CHECK-DAG: ![[KV:pipe[0-9]*]] = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x32xf16, #{{.*}}, #{{.*}}, mutable>], readers = [mma]>

// Producer in the default region, consumer in a partition; the pipe handle
// is captured explicitly.
// CHECK-LABEL: func.func @producer_consumer(
// CHECK-SAME: %[[K:[a-z0-9]+]]: !ttg.memdesc<2x64x32xf16, {{.*}}>, %[[X:[a-z0-9]+]]: f32)
func.func @producer_consumer(%k: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>, %x: f32) -> f32 {
  // CHECK: %[[P:pipe]] = tle.pipe.create "kv"
  %p = tle.pipe.create "kv" capacity 2 readers ["mma"] fields(k = %k : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>)
  // CHECK-NEXT: %[[R:.*]] = tle.warp_specialize(%[[P]], %[[X]]) attributes {tag = "kv"}
  // CHECK-NEXT: default {
  // CHECK-NEXT:   %[[S:.*]] = tle.pipe.writer_acquire %[[P]] : ![[KV]]
  // CHECK-NEXT:   tle.pipe.writer_commit %[[P]][%[[S]]] : ![[KV]]
  // CHECK-NEXT:   tle.pipe.writer_close %[[P]] : ![[KV]]
  // CHECK-NEXT:   %[[Y:.*]] = arith.addf %[[X]], %[[X]] : f32
  // CHECK-NEXT:   tle.warp_yield %[[Y]] : f32
  // CHECK-NEXT: }
  // CHECK-NEXT: partition0(%[[A:.*]]: ![[KV]], %[[B:.*]]: f32) num_warps(4) num_regs(232) {
  // CHECK-NEXT:   %[[RS:.*]], %{{.*}} = tle.pipe.reader_wait %[[A]] reader "mma" : ![[KV]]
  // CHECK-NEXT:   tle.pipe.reader_release %[[A]][%[[RS]]] reader "mma" : ![[KV]]
  // CHECK-NEXT:   tle.warp_return
  // CHECK-NEXT: }
  // CHECK-NEXT: partition1(%{{.*}}: ![[KV]], %{{.*}}: f32) num_warps(1) num_regs(24) {
  // CHECK-NEXT:   tle.warp_return
  // CHECK-NEXT: } : (![[KV]], f32) -> f32
  // CHECK-NEXT: return %[[R]] : f32
  %r = tle.warp_specialize(%p, %x) attributes {tag = "kv"}
  default {
    %s = tle.pipe.writer_acquire %p : !kv
    tle.pipe.writer_commit %p[%s] : !kv
    tle.pipe.writer_close %p : !kv
    %y = arith.addf %x, %x : f32
    tle.warp_yield %y : f32
  }
  partition0(%a: !kv, %b: f32) num_warps(4) num_regs(232) {
    %rs, %closed = tle.pipe.reader_wait %a reader "mma" : !kv
    tle.pipe.reader_release %a[%rs] reader "mma" : !kv
    tle.warp_return
  }
  partition1(%a: !kv, %b: f32) num_warps(1) num_regs(24) {
    tle.warp_return
  } : (!kv, f32) -> f32
  return %r : f32
}

// No captures, no results, no num_regs; the parser inserts missing
// terminators and the printer always shows them.
// CHECK-LABEL: func.func @minimal(
// CHECK-NEXT: tle.warp_specialize()
// CHECK-NEXT: default {
// CHECK-NEXT:   tle.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0() num_warps(2) {
// CHECK-NEXT:   tle.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1() num_warps(8) {
// CHECK-NEXT:   tle.warp_return
// CHECK-NEXT: } : () -> ()
func.func @minimal() {
  tle.warp_specialize()
  default {
  }
  partition0() num_warps(2) {
  }
  partition1() num_warps(8) {
  } : () -> ()
  return
}

// Zero partitions, several results; the default region may use values from
// above.
// CHECK-LABEL: func.func @default_only(
// CHECK: %{{.*}}:2 = tle.warp_specialize()
// CHECK-NEXT: default {
// CHECK-NEXT:   tle.warp_yield %arg0, %arg1 : i32, f32
// CHECK-NEXT: } : () -> (i32, f32)
func.func @default_only(%i: i32, %f: f32) -> (i32, f32) {
  %r:2 = tle.warp_specialize()
  default {
    tle.warp_yield %i, %f : i32, f32
  } : () -> (i32, f32)
  return %r#0, %r#1 : i32, f32
}

// Inside a loop, with nested control flow in a partition.
// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for
// CHECK: tle.warp_specialize(%{{.*}}, %{{.*}})
// CHECK: partition0(%[[N:.*]]: index, %[[P:.*]]: ![[KV]]) num_warps(1) {
// CHECK:   scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:     tle.pipe.writer_acquire %[[P]]
// CHECK:   tle.warp_return
func.func @in_loop(%n: index, %p: !kv) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    tle.warp_specialize(%n, %p)
    default {
      tle.warp_yield
    }
    partition0(%m: index, %q: !kv) num_warps(1) {
      %z = arith.constant 0 : index
      %one = arith.constant 1 : index
      scf.for %j = %z to %m step %one {
        %s = tle.pipe.writer_acquire %q : !kv
        tle.pipe.writer_commit %q[%s] : !kv
      }
      tle.warp_return
    } : (index, !kv) -> ()
  }
  return
}

// Partitions are not isolated from above (the lowering to ttg.warp_specialize
// makes the captures): CSE may reuse a value from above in a partition.
// OPT-LABEL: func.func @not_isolated(
// OPT: %[[C1:.*]] = arith.constant 1 : i32
// OPT: tle.warp_specialize
// OPT: default {
// OPT-NEXT: arith.addi %{{.*}}, %[[C1]]
// OPT: partition0(%[[A:.*]]: i32, %[[P:.*]]: ![[KV:.*]]) num_warps(4) {
// OPT-NEXT: %[[Y:.*]] = arith.addi %[[A]], %[[C1]]
// OPT-NEXT: tle.pipe.writer_commit %[[P]][%[[Y]]]
// OPT-NEXT: tle.warp_return
func.func @not_isolated(%x: i32, %p: !kv) -> i32 {
  %c1 = arith.constant 1 : i32
  %r = tle.warp_specialize(%x, %p)
  default {
    %c = arith.constant 1 : i32
    %y = arith.addi %x, %c : i32
    tle.warp_yield %y : i32
  }
  partition0(%a: i32, %q: !kv) num_warps(4) {
    %c = arith.constant 1 : i32
    %y = arith.addi %a, %c : i32
    tle.pipe.writer_commit %q[%y] : !kv
    tle.warp_return
  } : (i32, !kv) -> i32
  %s = arith.addi %r, %c1 : i32
  return %s : i32
}
