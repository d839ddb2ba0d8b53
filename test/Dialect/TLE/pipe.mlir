// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s -cse -canonicalize | FileCheck %s --check-prefix=OPT

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#smem = #ttg.shared_memory
!kv = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>, v: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>], readers = [mma, epilogue]>
!q = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x4x16x16xbf16, #shared3, #smem, mutable>], readers = [mma], one_shot>
!sig = !tle.pipe<capacity = 4, fields = [], readers = ["consumer"]>

// CHECK-DAG: #[[SHARED:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-DAG: #[[SHARED3:shared[0-9]*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
// CHECK-DAG: #[[SMEM:smem]] = #ttg.shared_memory
// CHECK-DAG: ![[KV:pipe[0-9]*]] = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>, v: !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>], readers = [mma, epilogue]>
// CHECK-DAG: ![[Q:pipe[0-9]*]] = !tle.pipe<capacity = 1, fields = [q: !ttg.memdesc<1x4x16x16xbf16, #[[SHARED3]], #[[SMEM]], mutable>], readers = [mma], one_shot>
// CHECK-DAG: ![[SIG:pipe[0-9]*]] = !tle.pipe<capacity = 4, fields = [], readers = [consumer]>

// CHECK-LABEL: func.func @kv_ring(
// CHECK-SAME: %[[K:[a-z0-9]+]]: !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>, %[[V:[a-z0-9]+]]: !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>)
func.func @kv_ring(%k: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>,
                   %v: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>) -> !kv {
  // CHECK: %[[P:pipe]] = tle.pipe.create "kv" capacity 2 readers ["mma", "epilogue"] fields(k = %[[K]] : !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>, v = %[[V]] : !ttg.memdesc<2x64x32xf16, #[[SHARED]], #[[SMEM]], mutable>){{$}}
  %p = tle.pipe.create "kv" capacity 2 readers ["mma", "epilogue"]
      fields(k = %k : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>,
             v = %v : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>) {scope = "cta", one_shot = false}
  // Writer side.
  // CHECK: %[[S:slot]] = tle.pipe.writer_acquire %[[P]] : ![[KV]]
  %s = tle.pipe.writer_acquire %p : !kv
  // CHECK: %k_slot = tle.pipe.slot %[[P]][%[[S]]] field "k" : ![[KV]] -> !ttg.memdesc<64x32xf16, #[[SHARED]], #[[SMEM]], mutable>
  %ks = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  // CHECK: %v_slot = tle.pipe.slot %[[P]][%[[S]]] field "v" : ![[KV]] -> !ttg.memdesc<64x32xf16, #[[SHARED]], #[[SMEM]], mutable>
  %vs = tle.pipe.slot %p[%s] field "v" : !kv -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  // CHECK: tle.pipe.writer_commit %[[P]][%[[S]]] : ![[KV]]
  tle.pipe.writer_commit %p[%s] : !kv
  // CHECK: tle.pipe.writer_close %[[P]] : ![[KV]]
  tle.pipe.writer_close %p : !kv
  // Reader side; constant slots in range are fine.
  // CHECK: %[[RS:slot_[0-9]+]], %[[CLOSED:is_closed]] = tle.pipe.reader_wait %[[P]] reader "epilogue" : ![[KV]]
  %rs, %closed = tle.pipe.reader_wait %p reader "epilogue" : !kv
  // CHECK: tle.pipe.reader_release %[[P]][%[[RS]]] reader "epilogue" : ![[KV]]
  tle.pipe.reader_release %p[%rs] reader "epilogue" : !kv
  %c1 = arith.constant 1 : i32
  // CHECK: tle.pipe.reader_release %[[P]][%c1_i32] reader "mma" : ![[KV]]
  tle.pipe.reader_release %p[%c1] reader "mma" : !kv
  // CHECK: tle.pipe.slot %[[P]][%c1_i32] field "v"
  %v1 = tle.pipe.slot %p[%c1] field "v" : !kv -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  return %p : !kv
}

// CHECK-LABEL: func.func @one_shot(
func.func @one_shot(%q: !ttg.memdesc<1x4x16x16xbf16, #shared3, #smem, mutable>) {
  // CHECK: %[[P:pipe]] = tle.pipe.create "q" capacity 1 readers ["mma"] fields(q = %{{.*}} : !ttg.memdesc<1x4x16x16xbf16, #[[SHARED3]], #[[SMEM]], mutable>) {one_shot = true}
  %p = tle.pipe.create "q" capacity 1 readers ["mma"]
      fields(q = %q : !ttg.memdesc<1x4x16x16xbf16, #shared3, #smem, mutable>) {one_shot = true}
  // CHECK: tle.pipe.writer_acquire %[[P]] : ![[Q]]
  %s = tle.pipe.writer_acquire %p : !q
  // CHECK: tle.pipe.slot %[[P]][%{{.*}}] field "q" : ![[Q]] -> !ttg.memdesc<4x16x16xbf16, #[[SHARED3]], #[[SMEM]], mutable>
  %qs = tle.pipe.slot %p[%s] field "q" : !q -> !ttg.memdesc<4x16x16xbf16, #shared3, #smem, mutable>
  tle.pipe.writer_commit %p[%s] : !q
  %rs, %closed = tle.pipe.reader_wait %p reader "mma" : !q
  // CHECK: tle.pipe.reader_release %[[P]][%{{.*}}] reader "mma" : ![[Q]]
  tle.pipe.reader_release %p[%rs] reader "mma" : !q
  return
}

// A pipe without fields is a pure signalling ring; quoted names parse too.
// CHECK-LABEL: func.func @signal(
func.func @signal() -> i1 {
  // CHECK: %[[P:pipe]] = tle.pipe.create "sig" capacity 4 readers ["consumer"] fields(){{$}}
  %p = tle.pipe.create "sig" capacity 4 readers ["consumer"] fields()
  // CHECK: tle.pipe.writer_acquire %[[P]] : ![[SIG]]
  %s = tle.pipe.writer_acquire %p : !sig
  tle.pipe.writer_commit %p[%s] : !sig
  tle.pipe.writer_close %p : !sig
  // CHECK: tle.pipe.reader_wait %[[P]] reader "consumer" : ![[SIG]]
  %rs, %closed = tle.pipe.reader_wait %p reader "consumer" : !sig
  return %closed : i1
}

// Pipe handles flow through block arguments; the type carries everything the
// ops check.
// CHECK-LABEL: func.func @handle_argument(
// CHECK-SAME: %[[P:pipe]]: ![[KV]])
func.func @handle_argument(%p: !kv) {
  // CHECK: tle.pipe.reader_wait %[[P]] reader "mma" : ![[KV]]
  %rs, %closed = tle.pipe.reader_wait %p reader "mma" : !kv
  return
}

// Synchronizing ops are never CSE'd or dropped, even with unused results;
// slot views are pure (CSE'd, dropped when unused).
// CHECK-LABEL: func.func @not_dead(
// OPT-LABEL: func.func @not_dead(
// OPT-NEXT: tle.pipe.writer_acquire
// OPT-NEXT: tle.pipe.writer_acquire
// OPT-NEXT: tle.pipe.reader_wait
// OPT-NEXT: tle.pipe.reader_wait
// OPT-NEXT: return
func.func @not_dead(%p: !sig) {
  %a = tle.pipe.writer_acquire %p : !sig
  %b = tle.pipe.writer_acquire %p : !sig
  %s1, %c1 = tle.pipe.reader_wait %p reader "consumer" : !sig
  %s2, %c2 = tle.pipe.reader_wait %p reader "consumer" : !sig
  return
}

// OPT-LABEL: func.func @views(
// OPT-NEXT: %[[V:.*]] = tle.pipe.slot %{{.*}}[%{{.*}}] field "k"
// OPT-NEXT: return %[[V]], %[[V]]
func.func @views(%p: !kv, %s: i32) -> (!ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>) {
  %a = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  %b = tle.pipe.slot %p[%s] field "k" : !kv -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  %unused = tle.pipe.slot %p[%s] field "v" : !kv -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
  return %a, %b : !ttg.memdesc<64x32xf16, #shared, #smem, mutable>, !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
}

// Cursor positions: `at [%stage, %phase]` on the ops that take a slot; commit
// and release take the cursor's stage.
// CHECK-LABEL: func.func @cursor_positions(
// CHECK-SAME: %[[P:[a-z0-9]+]]: ![[KV]], %[[ST:[a-z0-9]+]]: i32, %[[PH:[a-z0-9]+]]: i1)
func.func @cursor_positions(%p: !kv, %stage: i32, %phase: i1) {
  // CHECK: %{{.*}} = tle.pipe.writer_acquire %[[P]] at [%[[ST]], %[[PH]]] : ![[KV]]
  %s = tle.pipe.writer_acquire %p at [%stage, %phase] : !kv
  // CHECK: tle.pipe.writer_commit %[[P]][%[[ST]]] : ![[KV]]
  tle.pipe.writer_commit %p[%stage] : !kv
  // CHECK: tle.pipe.writer_close %[[P]] at [%[[ST]], %[[PH]]] : ![[KV]]
  tle.pipe.writer_close %p at [%stage, %phase] : !kv
  // CHECK: %{{.*}}, %{{.*}} = tle.pipe.reader_wait %[[P]] at [%[[ST]], %[[PH]]] reader "mma" : ![[KV]]
  %rs, %closed = tle.pipe.reader_wait %p at [%stage, %phase] reader "mma" : !kv
  // CHECK: tle.pipe.reader_release %[[P]][%[[ST]]] reader "mma" : ![[KV]]
  tle.pipe.reader_release %p[%stage] reader "mma" : !kv
  return
}
