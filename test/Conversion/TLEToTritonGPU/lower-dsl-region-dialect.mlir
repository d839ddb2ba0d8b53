// RUN: tle-opt %s -split-input-file --triton-tle-lower-dsl-region | FileCheck %s --implicit-check-not=tle.dsl_region

// TLE-Raw in FlagTree's form (`hardware_ids`): buffers arrive as memdescs
// (the frontend staged them), the body gets their bases, pointers and
// scalars as they are; the thread ids stay the hardware's.

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @dialect_form
  // CHECK: %[[P:.*]] = tle.local_pointers %arg0[%{{.*}}, %{{.*}}] : !ttg.memdesc<16x32xf32, {{.*}} -> !tt.ptr<f32, 3>
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.extern_elementwise %[[P]], %arg1, %arg2 {libname = "", libpath = "", pure = false, symbol = "__tle_raw_g"} : (!tt.ptr<f32, 3>, !tt.ptr<f32>, i32) -> i32
  // CHECK-NEXT: gpu.barrier
  // CHECK-NEXT: tt.return
  // CHECK: llvm.func internal @__tle_raw_g(%arg0: !llvm.ptr<3>, %arg1: !llvm.ptr<1>, %arg2: i32) -> i32 attributes {always_inline}
  // The dynamic sizes of memref<?x?xf32, 3> are the buffer's: 16 x 32.
  // CHECK-DAG: %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
  // CHECK-DAG: nvvm.read.ptx.sreg.ctaid.x : i32
  // CHECK-DAG: nvvm.read.ptx.sreg.ntid.x : i32
  // CHECK: llvm.getelementptr {{.*}}%arg0[{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  // CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.getelementptr %arg1[%arg2] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  // CHECK: llvm.store {{.*}} : f32, !llvm.ptr<1>
  // CHECK: llvm.return
  tt.func @dialect_form(%b: !ttg.memdesc<16x32xf32, #shared, #smem, mutable>, %p: !tt.ptr<f32>, %n: i32) {
    tle.dsl_region(%b, %p, %n) {language = "mlir", name = "g", threads = array<i64: 128>, sync_scope = "block", hardware_ids}
        : (!ttg.memdesc<16x32xf32, #shared, #smem, mutable>, !tt.ptr<f32>, i32) -> () {
    ^bb0(%m: memref<?x?xf32, 3>, %q: !llvm.ptr<1>, %k: i32):
      %c1 = arith.constant 1 : index
      %cols = memref.dim %m, %c1 : memref<?x?xf32, 3>
      %bid = nvvm.read.ptx.sreg.ctaid.x : i32
      %nt = nvvm.read.ptx.sreg.ntid.x : i32
      %r = arith.remui %bid, %nt : i32
      %ri = arith.index_cast %r : i32 to index
      %last = arith.subi %cols, %c1 : index
      %v = memref.load %m[%ri, %last] : memref<?x?xf32, 3>
      %g = llvm.getelementptr %q[%k] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %v, %g : f32, !llvm.ptr<1>
    }
    tt.return
  }
}

// -----

// gpu.printf (tle.raw.vprintf) becomes a call of vprintf: the format a
// constant global named after the call's function, arguments promoted as C
// varargs and packed in a stack struct; no operands at all is fine.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @hello
  // CHECK: tt.extern_elementwise  {libname = "", libpath = "", pure = false, symbol = "__tle_raw_hello"} : () -> i32
  // CHECK: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  // CHECK: llvm.mlir.global internal constant @__tle_raw_hello_format_0("tid %d x %f\0A\00")
  // CHECK: llvm.func internal @__tle_raw_hello() -> i32 attributes {always_inline}
  // CHECK-DAG: %[[F:.*]] = llvm.mlir.addressof @__tle_raw_hello_format_0 : !llvm.ptr
  // CHECK-DAG: %[[S:.*]] = llvm.alloca {{.*}} x !llvm.struct<(i32, f64)>
  // CHECK: %[[T:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[X:.*]] = llvm.sitofp %[[T]] : i32 to f32
  // CHECK: %[[D:.*]] = llvm.fpext %[[X]] : f32 to f64
  // CHECK: %[[G0:.*]] = llvm.getelementptr %[[S]][0, 0]
  // CHECK: llvm.store %[[T]], %[[G0]] : i32, !llvm.ptr
  // CHECK: %[[G1:.*]] = llvm.getelementptr %[[S]][0, 1]
  // CHECK: llvm.store %[[D]], %[[G1]] : f64, !llvm.ptr
  // CHECK: llvm.call @vprintf(%[[F]], %[[S]]) : (!llvm.ptr, !llvm.ptr) -> i32
  tt.func @hello() {
    tle.dsl_region() {language = "mlir", name = "hello", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : () -> () {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %x = arith.sitofp %t : i32 to f32
      gpu.printf "tid %d x %f\n", %t, %x : i32, f32
    }
    tt.return
  }
}

// -----

// A kernel that already declares vprintf (tl.device_print) keeps its own.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  // CHECK-NEXT: tt.func @twice
  // CHECK-NOT: llvm.func @vprintf
  // CHECK: llvm.call @vprintf
  llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  tt.func @twice() {
    tle.dsl_region() {language = "mlir", name = "p", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : () -> () {
      gpu.printf "hi\n"
    }
    tt.return
  }
}

// -----

// f32 math functions NVPTX has no instruction for are expanded into
// arithmetic (no llvm.intr.exp / llvm.intr.erf left for LLVM to abort on).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @math
  // CHECK: llvm.func internal @__tle_raw_m(%arg0: !llvm.ptr<1>, %arg1: f32)
  // CHECK-NOT: llvm.intr.exp
  // CHECK-NOT: llvm.intr.erf
  // CHECK: llvm.fmul
  // CHECK: llvm.store {{.*}} : f32, !llvm.ptr<1>
  // CHECK: llvm.return
  tt.func @math(%p: !tt.ptr<f32>, %x: f32) {
    tle.dsl_region(%p, %x) {language = "mlir", name = "m", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (!tt.ptr<f32>, f32) -> () {
    ^bb0(%q: !llvm.ptr<1>, %a: f32):
      %e = math.exp %a : f32
      %f = math.erf %e : f32
      %t = math.tanh %f : f32
      llvm.store %t, %q : f32, !llvm.ptr<1>
    }
    tt.return
  }
}
