// RUN: tle-opt %s | tle-opt | FileCheck %s
// RUN: tle-opt %s --mlir-print-op-generic | tle-opt | FileCheck %s
// RUN: tle-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// ttg.warp_specialize, ttg.warp_specialize.partitions, ttg.warp_yield and
// ttg.warp_return in the forms Triton 3.6.0 prints (see the ws_* modules in
// test/Interop/corpus): captures, results, requestedRegisters, several
// partitions, none of them optional parts.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {

// CHECK-LABEL: tt.func @results_and_two_partitions
// CHECK:      %[[R:.*]]:2 = ttg.warp_specialize(%{{.*}}, %{{.*}}) attributes {requestedRegisters = array<i32: 48, 24>}
// CHECK-NEXT: default {
// CHECK:        ttng.wait_barrier
// CHECK:        ttg.warp_yield %{{.*}}, %{{.*}} : f32, tensor<256xf32, #blocked>
// CHECK-NEXT: }
// CHECK-NEXT: partition0(%[[P:.*]]: !tt.ptr<f32>, %{{.*}}: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(2) {
// CHECK-NEXT:   %[[T:.*]] = arith.constant true
// CHECK-NEXT:   ttng.arrive_barrier %{{.*}}, 1, %[[T]] : !ttg.memdesc<1xi64, #shared, #smem, mutable>
// CHECK-NEXT:   ttg.warp_return
// CHECK-NEXT: }
// CHECK-NEXT: partition1(%{{.*}}: !tt.ptr<f32>, %{{.*}}: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(1) {
// CHECK-NEXT:   ttg.warp_return
// CHECK-NEXT: } : (!tt.ptr<f32>, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> (f32, tensor<256xf32, #blocked>)
// CHECK:      tt.return %[[R]]#0 : f32

// GENERIC-LABEL: "tt.func"() <{function_type = (!tt.ptr<f32>) -> f32, sym_name = "results_and_two_partitions"}>
// GENERIC:       "ttg.warp_specialize"(%{{.*}}, %{{.*}}) <{partitionNumWarps = array<i32: 2, 1>, requestedRegisters = array<i32: 48, 24>}> ({
// GENERIC:       "ttg.warp_yield"(%{{.*}}, %{{.*}}) : (f32, tensor<256xf32, #blocked>) -> ()
// GENERIC:       }, {
// GENERIC-NEXT:    "ttg.warp_specialize.partitions"() ({
// GENERIC-NEXT:    ^bb0(%{{.*}}: !tt.ptr<f32>, %{{.*}}: !ttg.memdesc<1xi64, #shared, #smem, mutable>):
// GENERIC:         "ttg.warp_return"() : () -> ()
// GENERIC-NEXT:    }, {
// GENERIC-NEXT:    ^bb0(%{{.*}}: !tt.ptr<f32>, %{{.*}}: !ttg.memdesc<1xi64, #shared, #smem, mutable>):
// GENERIC-NEXT:      "ttg.warp_return"() : () -> ()
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:  }) : (!tt.ptr<f32>, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> (f32, tensor<256xf32, #blocked>)
tt.func @results_and_two_partitions(%in_ptr: !tt.ptr<f32>) -> f32 {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared, #smem, mutable>
  ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #shared, #smem, mutable>
  %0:2 = ttg.warp_specialize(%in_ptr, %bar) attributes {requestedRegisters = array<i32: 48, 24>}
  default {
    %c0_i32 = arith.constant 0 : i32
    %true = arith.constant true
    %cst = arith.constant 1.000000e+00 : f32
    %x = arith.constant dense<2.000000e+00> : tensor<256xf32, #blocked>
    ttng.wait_barrier %bar, %c0_i32, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttg.warp_yield %cst, %x : f32, tensor<256xf32, #blocked>
  }
  partition0(%arg1: !tt.ptr<f32>, %arg2: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(2) {
    %true = arith.constant true
    ttng.arrive_barrier %arg2, 1, %true : !ttg.memdesc<1xi64, #shared, #smem, mutable>
    ttg.warp_return
  }
  partition1(%arg1: !tt.ptr<f32>, %arg2: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(1) {
    ttg.warp_return
  } : (!tt.ptr<f32>, !ttg.memdesc<1xi64, #shared, #smem, mutable>) -> (f32, tensor<256xf32, #blocked>)
  tt.return %0#0 : f32
}

// No captures, no results, no requestedRegisters; a single result prints
// without parentheses.
// CHECK-LABEL: tt.func @bare
// CHECK:      ttg.warp_specialize()
// CHECK-NEXT: default {
// CHECK-NEXT:   ttg.warp_yield
// CHECK-NEXT: }
// CHECK-NEXT: partition0() num_warps(4) {
// CHECK-NEXT:   ttg.warp_return
// CHECK-NEXT: } : () -> ()
// CHECK:      ttg.warp_specialize(%{{.*}}) attributes {requestedRegisters = array<i32: 40>}
// CHECK:      } : (tensor<512xf32, #blocked1>) -> i32
// GENERIC-LABEL: sym_name = "bare"
// GENERIC:       "ttg.warp_specialize"() <{partitionNumWarps = array<i32: 4>}> ({
tt.func @bare(%t: tensor<512xf32, #blocked1>) -> i32 {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(4) {
    ttg.warp_return
  } : () -> ()
  %r = ttg.warp_specialize(%t) attributes {requestedRegisters = array<i32: 40>}
  default {
    %c = arith.constant 7 : i32
    ttg.warp_yield %c : i32
  }
  partition0(%arg0: tensor<512xf32, #blocked1>) num_warps(2) {
    ttg.warp_return
  } : (tensor<512xf32, #blocked1>) -> i32
  tt.return %r : i32
}

}
